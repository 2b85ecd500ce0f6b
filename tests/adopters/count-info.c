/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Preloaded before the shim (or alone) into an adopter's tests by
 * tests/adopters.sh: counts the program's own PIDFD_GET_INFO ioctls and
 * how many were answered, one byte per call ('a' answered, 'n' not)
 * appended to the file $COUNT_INFO_FILE, so that every forked child
 * counts too. Every call goes on to the next ioctl (the shim's or
 * libc's) untouched.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <unistd.h>

/* The request as the C library declares it: glibc's, else musl's. */
#ifdef __GLIBC__
typedef unsigned long ioctl_req;
#else
typedef int ioctl_req;
#endif

static void note(int r)
{
	const char *path = getenv("COUNT_INFO_FILE");
	int saved = errno, fd;

	if (!path)
		return;
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
	if (fd >= 0) {
		(void)!write(fd, r == 0 ? "a" : "n", 1);
		close(fd);
	}
	errno = saved;
}

int ioctl(int fd, ioctl_req request, ...)
{
	static __typeof__(ioctl) *next;
	va_list ap;
	void *arg;
	int r;

	va_start(ap, request);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (!next)
		next = (__typeof__(ioctl) *)dlsym(RTLD_NEXT, "ioctl");
	r = next(fd, request, arg);
	/* PIDFD_GET_INFO: type 0xFF, number 11, bits 8-15 and 0-7 on
	 * every architecture (musl has no _IOC_TYPE without the kernel's
	 * headers). */
	if ((((unsigned int)request >> 8) & 0xff) == 0xFF &&
	    ((unsigned int)request & 0xff) == 11)
		note(r);
	return r;
}
