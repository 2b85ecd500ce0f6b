/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The /proc readers of the emulation. No heap, no stdio: fixed buffers on
 * the stack and raw system calls, so that they are async-signal-safe.
 */
#include <fcntl.h>
#include <string.h>

#include "internal.h"
#include "syscall.h"

void __lpfd_proc_path(char *buf, size_t size, const char *pre, long n,
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
 * Read a small file whole. If it does not fit, only whole lines are kept,
 * so that a parser never sees a number cut short.
 */
ssize_t __lpfd_read_file(const char *path, char *buf, size_t size)
{
	size_t len = 0;
	ssize_t n = 0;
	int fd;

	fd = __lpfd_sys_openat(AT_FDCWD, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return fd;
	while (len + 1 < size) {
		n = __lpfd_sys_read(fd, buf + len, size - 1 - len);
		if (n == -EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	__lpfd_sys_close(fd);
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
 * not there: fcntl() tells them apart.
 */
static int missing_fdinfo_errno(int fd, int err)
{
	if (err != -ENOENT)
		return err;
	if (__lpfd_sys_fcntl(fd, F_GETFD, 0) < 0)
		return -EBADF;
	return -ENOSYS;
}

/*
 * The emulation reads pids through /proc, which speaks for the pid namespace
 * it was mounted in: it must be ours, or every pid read would be another's.
 * /proc/self names us in procfs's namespace, getpid() in ours.
 */
int __lpfd_proc_is_ours(void)
{
	char buf[24];
	const char *p = buf;
	long long pid;
	int n;

	n = (int)__lpfd_sc(__NR_readlinkat, AT_FDCWD, "/proc/self", buf,
			   sizeof(buf) - 1, 0, 0);
	if (n < 0)
		return n == -ENOENT ? -ENOSYS : n;
	if (__lpfd_parse_int(&p, buf + n, &pid) < 0 || p != buf + n ||
	    pid != __lpfd_sys_getpid())
		return -ENOSYS;
	return 0;
}

int __lpfd_read_fdinfo(int fd, struct __lpfd_fdinfo *out)
{
	char path[48], buf[512];
	ssize_t n;

	__lpfd_proc_path(path, sizeof(path), "/proc/self/fdinfo/", fd, "");
	n = __lpfd_read_file(path, buf, sizeof(buf));
	if (n < 0)
		return missing_fdinfo_errno(fd, (int)n);
	(void)__lpfd_parse_fdinfo(buf, (size_t)n, out);
	return 0;
}

int __lpfd_read_status(int pid, struct __lpfd_status *out)
{
	char path[48], buf[1024];
	ssize_t n;

	__lpfd_proc_path(path, sizeof(path), "/proc/", pid, "/status");
	n = __lpfd_read_file(path, buf, sizeof(buf));
	if (n < 0)
		return n == -ENOENT ? -ESRCH : (int)n;
	return __lpfd_parse_status(buf, (size_t)n, out);
}

/*
 * Whether the process behind a pidfd is still unreaped, so that its pid
 * cannot have been reused: signal 0 reaches a live process or a zombie
 * and gives ESRCH only after the reap. Anything else falls back to the
 * fdinfo, EPERM included: the kernel says EPERM only for a process it
 * found, but a seccomp filter or an LSM can say it for any, and taking it
 * as proof let a reused pid's data through.
 */
int __lpfd_pidfd_unreaped(int pidfd)
{
	struct __lpfd_fdinfo fi;
	int r = __lpfd_sys_pidfd_send_signal(pidfd, 0, NULL, 0);

	if (r == 0)
		return 1;
	if (r == -ESRCH)
		return 0;
	r = __lpfd_read_fdinfo(pidfd, &fi);
	if (r < 0)
		return r;
	return fi.is_pidfd && fi.pid != -1;
}
