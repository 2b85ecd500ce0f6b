/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What pidfd info reads of /proc beyond libpidfd_get_info(): the command
 * name, state, start time, arguments, cgroup path, executable and working
 * directory. Every file of a process's directory comes through its
 * directory bound to the target's pidfd (libpidfd_proc_open() of "", or
 * one by number checked through the pidfd, below), or through
 * libpidfd_proc_open() or libpidfd_proc_readlink() on the pidfd itself,
 * so each answer is that process's own or none, never a recycled pid's.
 * Only the list of processes (info --all) lies outside a directory: it is
 * read from the procfs root of our own directory, the same proven procfs.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/openat2.h>

#include "../lib/parse.h"
#include "pidfd.h"

/*
 * Whether the kernel has openat2 (5.6), which a directory's files are
 * opened with: RESOLVE_NO_XDEV refuses what is mounted over a file of
 * /proc, as libpidfd_proc_open() does. Without it each file is opened by
 * the library.
 */
static bool have_openat2(void)
{
	static int have = -1;

	if (have < 0) {
		struct libpidfd_features f = { 0 };

		have = libpidfd_features(&f, sizeof(f)) == 0 &&
		       (f.kernel & LIBPIDFD_KERNEL_OPENAT2);
	}
	return have;
}

static int openat2_beneath(int dir, const char *name, int flags)
{
	struct open_how how = {
		.flags = (unsigned int)(flags | O_CLOEXEC),
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_XDEV |
			   RESOLVE_NO_MAGICLINKS,
	};

	return (int)syscall(SYS_openat2, dir, name, &how, sizeof(how));
}

void procdir_open(struct procdir *d, int pidfd)
{
	d->pidfd = pidfd;
	d->fd = have_openat2() ?
		libpidfd_proc_open(pidfd, "", O_PATH | O_DIRECTORY) : -1;
}

/*
 * The directory of a process that info --all listed, without the
 * library's proof per call: root is the procfs the library proved ours
 * (procfs_list()), pidfd was opened on pid, a thread-group leader. The
 * directory named pid, opened after the pidfd, is the pidfd's process if
 * that process is unreaped after the open: until it is reaped no other
 * can have its pid. From then on the directory is bound to it, as one
 * from libpidfd_proc_open() is. 0, or -errno: the caller then asks the
 * library, whose answer (gone, hidden) is the one to give.
 */
int procdir_open_listed(struct procdir *d, int pidfd, pid_t pid, int root)
{
	char name[16];
	int fd;

	d->pidfd = pidfd;
	d->fd = -1;
	if (root < 0 || !have_openat2())
		return -ENOSYS;
	snprintf(name, sizeof(name), "%d", (int)pid);
	fd = openat2_beneath(root, name, O_PATH | O_DIRECTORY);
	if (fd < 0)
		return -errno;
	if (libpidfd_send_signal(pidfd, 0, NULL, 0) < 0) {
		int err = errno;

		close(fd);
		return -err;
	}
	d->fd = fd;
	return 0;
}

void procdir_close(struct procdir *d)
{
	if (d->fd >= 0)
		close(d->fd);
	d->fd = -1;
}

/* A file of the process: through its directory, else through the pidfd. */
static int procdir_file(const struct procdir *d, const char *name)
{
	int fd;

	if (d->fd >= 0) {
		fd = openat2_beneath(d->fd, name, O_RDONLY);
		/* A seccomp profile may refuse openat2 where the kernel has it. */
		if (fd >= 0 || (errno != ENOSYS && errno != EPERM))
			return fd;
	}
	return libpidfd_proc_open(d->pidfd, name, O_RDONLY | O_CLOEXEC);
}

/*
 * A process's file read whole (up to size - 1 bytes): its length, or -1.
 * A short read is the end: the files read here (but cmdline) are
 * seq_files printed whole by one show, which hand out all they have at
 * once, and cmdline is copied until the count or the arguments end.
 */
static ssize_t read_file(const struct procdir *d, const char *name,
			 char *buf, size_t size)
{
	int fd = procdir_file(d, name);
	size_t len = 0;
	ssize_t n = 0;

	if (fd < 0)
		return -1;
	while (len + 1 < size) {
		size_t want = size - 1 - len;

		n = read(fd, buf + len, want);
		if (n <= 0)
			break;
		len += (size_t)n;
		if ((size_t)n < want)
			break;
	}
	close(fd);
	buf[len] = '\0';
	return n < 0 ? -1 : (ssize_t)len;
}

/*
 * What libpidfd_get_info() emulated reads, its ids and credentials, from
 * the status file through the directory the other fields come from: the
 * same file and parser, without the library's proof, fdinfo read and
 * check, which the directory already paid for. False where the file is
 * not the whole answer: the caller asks the library.
 */
bool procdir_info(const struct procdir *d, pid_t pid,
		  struct libpidfd_info *info)
{
	struct lpfd_status st;
	char buf[2048];
	ssize_t n;

	if (d->fd < 0)
		return false;
	n = read_file(d, "status", buf, sizeof(buf));
	if (n <= 0 || lpfd_parse_status(buf, (size_t)n, &st) < 0 ||
	    (st.have & LPFD_ST_INFO) != LPFD_ST_INFO || st.pid != pid ||
	    st.tgid == 0)
		return false;
	info->pid = (uint32_t)st.pid;
	info->tgid = (uint32_t)st.tgid;
	info->ppid = (uint32_t)st.ppid;
	info->ruid = st.uid[0], info->euid = st.uid[1];
	info->suid = st.uid[2], info->fsuid = st.uid[3];
	info->rgid = st.gid[0], info->egid = st.gid[1];
	info->sgid = st.gid[2], info->fsgid = st.gid[3];
	info->mask = PIDFD_INFO_PID | PIDFD_INFO_CREDS;
	return true;
}

int procfs_check(void)
{
	int fd = libpidfd_proc_open(PIDFD_SELF_PROCESS, "", O_PATH | O_DIRECTORY);

	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

/* The procfs root of our own proven directory: its parent. */
DIR *procfs_list(void)
{
	int self = libpidfd_proc_open(PIDFD_SELF_PROCESS, "", O_PATH | O_DIRECTORY);
	int root = self < 0 ? -1 :
		   openat(self, "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = root < 0 ? NULL : fdopendir(root);

	if (self >= 0)
		close(self);
	if (!d && root >= 0)
		close(root);
	return d;
}

/*
 * The thread group of a task, by its number: /proc/<tid>/status read in
 * our proven procfs. A hint only, to be checked through a pidfd: the
 * number may name another task by the time it is used.
 */
pid_t procfs_tgid_of(pid_t tid)
{
	DIR *root = procfs_list();
	char name[32], buf[4096];
	struct lpfd_status st;
	size_t len = 0;
	ssize_t n = 0;
	int fd;

	if (!root)
		return -1;
	snprintf(name, sizeof(name), "%d/status", (int)tid);
	fd = openat(dirfd(root), name, O_RDONLY | O_CLOEXEC);
	closedir(root);
	if (fd < 0)
		return -1;
	while (len + 1 < sizeof(buf) &&
	       (n = read(fd, buf + len, sizeof(buf) - 1 - len)) > 0)
		len += (size_t)n;
	close(fd);
	if (n < 0 || lpfd_parse_status(buf, len, &st) < 0 ||
	    !(st.have & LPFD_ST_PID) || !(st.have & LPFD_ST_TGID) ||
	    st.pid != tid || st.tgid <= 0)
		return -1;
	return st.tgid;
}

/*
 * The number after key at the start of a line of a file of our proven
 * procfs ("stat", "meminfo"), read line by line: the interrupt counts
 * before it may be long.
 */
static bool procfs_value(const char *file, const char *key, long long *v)
{
	DIR *root = procfs_list();
	int fd = root ? openat(dirfd(root), file, O_RDONLY | O_CLOEXEC) : -1;
	FILE *f = fd < 0 ? NULL : fdopen(fd, "r");
	size_t cap = 0, klen = strlen(key);
	char *line = NULL;
	bool found = false;

	if (root)
		closedir(root);
	if (!f) {
		if (fd >= 0)
			close(fd);
		return false;
	}
	while (!found && getline(&line, &cap, f) > 0)
		found = strncmp(line, key, klen) == 0 &&
			sscanf(line + klen, "%lld", v) == 1 && *v > 0;
	free(line);
	fclose(f);
	return found;
}

/*
 * The boot time in seconds since the epoch, as ps takes it: the "btime"
 * line of our proven procfs's stat file. The clocks would give it too
 * (CLOCK_REALTIME less CLOCK_BOOTTIME), but each cut to whole seconds,
 * which leaves it a second later than ps's as often as not.
 */
bool procfs_boot_time(long long *btime)
{
	return procfs_value("stat", "btime ", btime);
}

bool procfs_mem_total(long long *kb)
{
	return procfs_value("meminfo", "MemTotal:", kb);
}

/* A process's files, each through the library on the pidfd alone. */
static const struct procdir *pidfd_only(struct procdir *d, int pidfd)
{
	*d = (struct procdir){ .pidfd = pidfd, .fd = -1 };
	return d;
}

bool procfs_exit_code(int pidfd, int *code)
{
	char buf[2048];
	struct lpfd_stat st;
	struct procdir d;
	ssize_t n = read_file(pidfd_only(&d, pidfd), "stat", buf, sizeof(buf));

	return n > 0 && lpfd_parse_stat(buf, (size_t)n, &st) == 0 &&
	       (st.have & LPFD_STAT_STATE) && st.state == 'Z' &&
	       lpfd_parse_stat_exit_code(buf, (size_t)n, code) == 0;
}

bool procdir_stat(const struct procdir *d, struct lpfd_stat *st)
{
	char buf[2048];
	ssize_t n = read_file(d, "stat", buf, sizeof(buf));

	return n > 0 && lpfd_parse_stat(buf, (size_t)n, st) == 0;
}

/*
 * Virtual and resident memory, in pages, from statm: the counters summed
 * over every CPU, as ps reads them (stat's rss may lag behind).
 */
bool procdir_statm(const struct procdir *d, unsigned long long *size,
		   unsigned long long *resident)
{
	char buf[256];
	ssize_t n = read_file(d, "statm", buf, sizeof(buf));

	return n > 0 && sscanf(buf, "%llu %llu", size, resident) == 2;
}

/* Where it sleeps, as ps's WCHAN: false where running or hidden ("0"). */
bool procdir_wchan(const struct procdir *d, char *out, size_t size)
{
	ssize_t n = read_file(d, "wchan", out, size);

	return n > 0 && strcmp(out, "0") != 0;
}

/*
 * The whole command line, as ps -ww shows it: the file is read to its
 * end, however long (the kernel gives it a page at a time), never cut at
 * a buffer's size. Allocated, or NULL where there is none (a kernel
 * thread, a zombie) or it cannot be read.
 */
char *procdir_args(const struct procdir *d)
{
	int fd = procdir_file(d, "cmdline");
	size_t len = 0, cap = 4096;
	char *buf = fd < 0 ? NULL : malloc(cap), *out = NULL;
	ssize_t n = 0;

	if (fd >= 0 && !buf)
		abort();
	while (buf && (n = read(fd, buf + len, cap - len)) > 0) {
		len += (size_t)n;
		if (len == cap && !(buf = realloc(buf, cap *= 2)))
			abort();
	}
	if (fd >= 0)
		close(fd);
	if (buf && n == 0 && len && !(out = malloc(len + 1)))
		abort();
	if (out && lpfd_parse_cmdline(buf, len, out, len + 1) <= 0) {
		free(out);
		out = NULL;
	}
	free(buf);
	return out;
}

bool procfs_link(int pidfd, const char *name, char *out, size_t size)
{
	ssize_t n = libpidfd_proc_readlink(pidfd, name, out, size - 1);

	if (n < 0)
		return false;
	out[n] = '\0';
	return true;
}

/*
 * The cgroup2 path of the process, as its own cgroup file names it (from
 * our cgroup namespace), read through its directory: the process's own.
 */
bool procdir_cgroup(const struct procdir *d, char *out, size_t size)
{
	char buf[4096];
	ssize_t n = read_file(d, "cgroup", buf, sizeof(buf));

	return n > 0 && lpfd_parse_cgroup(buf, (size_t)n, out, size) == 0;
}
