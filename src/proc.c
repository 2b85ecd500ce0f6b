/* SPDX-License-Identifier: LGPL-2.1-or-later OR MIT */
/*
 * The /proc readers of the emulation. No heap, no stdio: fixed buffers on
 * the stack and raw system calls, so that they are async-signal-safe.
 */
#include <fcntl.h>
#include <linux/magic.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>

#include "internal.h"
#include "syscall.h"

void lpfd_proc_path(char *buf, size_t size, const char *pre, long n,
		      const char *post)
{
	char digits[24];
	size_t o = 0, d = 0;
	unsigned long v = n < 0 ? 0UL - (unsigned long)n : (unsigned long)n;

	do
		digits[d++] = (char)('0' + v % 10);
	while ((v /= 10) && d < sizeof(digits));
	if (n < 0 && d < sizeof(digits))
		digits[d++] = '-';
	for (; *pre && o + 1 < size; pre++)
		buf[o++] = *pre;
	while (d && o + 1 < size)
		buf[o++] = digits[--d];
	for (; *post && o + 1 < size; post++)
		buf[o++] = *post;
	buf[o] = '\0';
}

/*
 * Open a file of /proc, making sure that it is procfs's: with /proc not
 * mounted, a directory of that name may hold anything (under user-mode-linux
 * hostfs shows the host's own /proc there), whose "fdinfo" and "status"
 * files would describe other processes. -ENOSYS then.
 */
static int open_proc(const char *path)
{
	int fd = lpfd_sys_openat(AT_FDCWD, path, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || lpfd_fd_on_fs(fd, PROC_SUPER_MAGIC))
		return fd;
	lpfd_sys_close(fd);
	return -ENOSYS;
}

bool lpfd_fd_on_fs(int fd, unsigned long magic)
{
	struct statfs sfs;

	return lpfd_sc(__NR_fstatfs, fd, &sfs, 0, 0, 0, 0) == 0 &&
	       (unsigned long)sfs.f_type == magic;
}

/*
 * Read a small file whole. If it does not fit, only whole lines are kept,
 * so that a parser never sees a number cut short.
 */
ssize_t lpfd_read_file(const char *path, char *buf, size_t size)
{
	size_t len = 0;
	ssize_t n = 0;
	int fd;

	fd = open_proc(path);
	if (fd < 0)
		return fd;
	while (len + 1 < size) {
		n = lpfd_sys_read(fd, buf + len, size - 1 - len);
		if (n == -EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	lpfd_sys_close(fd);
	if (n < 0)
		return n;
	if (len + 1 >= size) {
		while (len && buf[len - 1] != '\n')
			len--;
	}
	buf[len] = '\0';
	return (ssize_t)len;
}

/*
 * /proc/self/fdinfo/<fd> is missing both for a closed fd and when /proc is
 * not there (or not procfs): fcntl() tells them apart.
 */
static int missing_fdinfo_errno(int fd, int err)
{
	if (err != -ENOENT && err != -ENOSYS)
		return err;
	if (lpfd_sys_fcntl(fd, F_GETFD, 0) < 0)
		return -EBADF;
	return -ENOSYS;
}

/*
 * Call fn on each whole line of a /proc file of any length, read in chunks. A
 * line longer than the chunk is skipped. fn returns 0 to go on, anything
 * else to stop with that value.
 */
int lpfd_proc_for_each_line(const char *path, char *buf, size_t size,
			       int (*fn)(char *line, size_t len, void *ctx),
			       void *ctx)
{
	size_t have = 0;
	bool skipping = false;
	int fd, r = 0;
	ssize_t n;

	fd = open_proc(path);
	if (fd < 0)
		return fd;
	for (;;) {
		char *p = buf, *nl;

		n = lpfd_sys_read(fd, buf + have, size - have);
		if (n == -EINTR)
			continue;
		if (n < 0) {
			r = (int)n;
			break;
		}
		if (n == 0) {
			if (have && !skipping)
				r = fn(buf, have, ctx);
			break;
		}
		have += (size_t)n;
		while ((nl = memchr(p, '\n', have - (size_t)(p - buf)))) {
			if (!skipping)
				r = fn(p, (size_t)(nl - p), ctx);
			skipping = false;
			p = nl + 1;
			if (r)
				goto out;
		}
		have -= (size_t)(p - buf);
		memmove(buf, p, have);
		if (have == size) {
			skipping = true;
			have = 0;
		}
	}
out:
	lpfd_sys_close(fd);
	return r;
}

struct key_line {
	const char *key;
	size_t klen;
	char *out;
	size_t size;
	ssize_t len;
};

static int copy_key_line(char *line, size_t len, void *ctx)
{
	struct key_line *k = ctx;

	if (len < k->klen || memcmp(line, k->key, k->klen) != 0)
		return 0;
	if (len >= k->size)
		return -ENAMETOOLONG;
	memcpy(k->out, line, len);
	k->out[len] = '\0';
	k->len = (ssize_t)len;
	return 1;
}

/*
 * The line of a /proc file that starts with key, whole and NUL-terminated
 * in buf: its length; -ENODATA if there is none, -ENAMETOOLONG if it does
 * not fit. The lines before it may be of any length (a status file's
 * "Groups:" can hold thousands of ids); the chunk holds any NSpid: line.
 */
static ssize_t read_key_line(const char *path, const char *key, char *buf,
			     size_t size)
{
	struct key_line k = { key, strlen(key), buf, size, -ENODATA };
	char chunk[1024];
	int r = lpfd_proc_for_each_line(path, chunk, sizeof(chunk),
					  copy_key_line, &k);

	return r < 0 ? r : k.len;
}

/*
 * The same answer in two path lookups, where we may look at procfs's pid 1:
 * the first process of a pid namespace lives in it, so procfs's namespace
 * is /proc/1's, and ours is /proc/self's. 1 yes, 0 no, -errno where we may
 * not look (another user's init, hidepid): the caller reads NSpid then.
 * Every file read afterwards is still checked to be procfs's (open_proc).
 * Once refused (a sandbox's root may not look at the host's init), it is not
 * tried again: skipping the fast path is always safe, only slower.
 */
static int init_ns_refused;

static int proc_init_ns_is_ours(void)
{
#ifdef __NR_newfstatat
	struct stat init_ns, our_ns;
	int r;

	if (__atomic_load_n(&init_ns_refused, __ATOMIC_RELAXED))
		return -EACCES;
	r = (int)lpfd_sc(__NR_newfstatat, AT_FDCWD, "/proc/1/ns/pid", &init_ns,
			   0, 0, 0);
	if (r == -EACCES || r == -EPERM)
		__atomic_store_n(&init_ns_refused, 1, __ATOMIC_RELAXED);
	if (r < 0)
		return r;
	r = (int)lpfd_sc(__NR_newfstatat, AT_FDCWD, "/proc/self/ns/pid",
			   &our_ns, 0, 0, 0);
	if (r < 0)
		return r;
	return init_ns.st_dev == our_ns.st_dev && init_ns.st_ino == our_ns.st_ino;
#else
	return -ENOSYS;
#endif
}

/*
 * The emulation reads pids through /proc, which speaks for the pid namespace
 * it was mounted in: it must be ours, or every pid read would be another's.
 * /proc/self exists only where we are visible (our namespace or an
 * ancestor's), and its "NSpid:" line lists our pid from procfs's namespace
 * down to ours: one entry, and procfs's is ours. Comparing /proc/self with
 * getpid() is not enough: a process can have the same pid in its namespace
 * and in the parent's (by chance, or by clone3's set_tid), and then read
 * the parent namespace's pids as its own. A kernel without pid namespaces
 * has no NSpid line, and only one /proc to mount.
 */
int lpfd_proc_is_ours(void)
{
	struct lpfd_status st;
	char line[512];
	ssize_t n;

	n = proc_init_ns_is_ours();
	if (n >= 0)
		return n ? 0 : -ENOSYS;
	n = read_key_line("/proc/self/status", "NSpid:", line, sizeof(line));
	if (n == -ENODATA)
		return 0;
	if (n == -ENOENT || n == -ENAMETOOLONG || n == -ENOSYS)
		return -ENOSYS;
	if (n < 0)
		return (int)n;
	(void)lpfd_parse_status(line, (size_t)n, &st);
	if (!(st.have & LPFD_ST_NSPID) || st.nspid_levels != 1 ||
	    st.nspid_first != lpfd_sys_getpid())
		return -ENOSYS;
	return 0;
}

/*
 * The calling thread's file table, which after unshare(CLONE_FILES) is not
 * the leader's that /proc/self/fdinfo shows: there the same number may
 * name another process's pidfd.
 */
int lpfd_read_fdinfo(int fd, struct lpfd_fdinfo *out)
{
	char path[48], buf[512];
	ssize_t n;

	lpfd_proc_path(path, sizeof(path), "/proc/thread-self/fdinfo/", fd, "");
	n = lpfd_read_file(path, buf, sizeof(buf));
	if (n < 0)
		return missing_fdinfo_errno(fd, (int)n);
	(void)lpfd_parse_fdinfo(buf, (size_t)n, out);
	return 0;
}

int lpfd_read_status(int pid, struct lpfd_status *out)
{
	char path[48], buf[1024];
	ssize_t n;

	lpfd_proc_path(path, sizeof(path), "/proc/", pid, "/status");
	n = lpfd_read_file(path, buf, sizeof(buf));
	if (n < 0)
		return n == -ENOENT ? -ESRCH : (int)n;
	return lpfd_parse_status(buf, (size_t)n, out);
}

/*
 * Whether the process behind a pidfd is still unreaped, so that its pid
 * cannot have been reused: signal 0 reaches a live process or a zombie
 * and gives ESRCH only after the reap. Anything else falls back to the
 * fdinfo, EPERM included: the kernel says EPERM only for a process it
 * found, but a seccomp filter or an LSM can say it for any, and taking it
 * as proof let a reused pid's data through.
 */
int lpfd_pidfd_unreaped(int pidfd)
{
	struct lpfd_fdinfo fi;
	int r = lpfd_sys_pidfd_send_signal(pidfd, 0, NULL, 0);

	if (r == 0)
		return 1;
	if (r == -ESRCH)
		return 0;
	r = lpfd_read_fdinfo(pidfd, &fi);
	if (r < 0)
		return r;
	return fi.is_pidfd && fi.pid != -1;
}

/*
 * An unreaped process keeps its /proc entry, unless /proc hides it from
 * the caller (hidepid=2): the kernel's answer for a process one may not
 * look at is EACCES, and ESRCH would say it is gone.
 */
int lpfd_proc_missing_errno(int pidfd)
{
	int r = lpfd_pidfd_unreaped(pidfd);

	if (r < 0)
		return r;
	return r ? -EACCES : -ESRCH;
}
