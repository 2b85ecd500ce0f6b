/* SPDX-License-Identifier: LGPL-2.1-or-later OR MIT */
/*
 * The one place where a pidfd argument is routed: a file descriptor goes to
 * the kernel; a sentinel naming the caller goes to the kernel where it
 * takes sentinels in that call (6.15 on), as the value it understands, and
 * to the library's own path elsewhere. Every function goes through it.
 */
#include <fcntl.h>
#include <string.h>

#include "internal.h"
#include "syscall.h"

/* 1 if the kernel takes the sentinels in this call, 0 if not, -errno. */
static int kernel_takes_sentinels(enum lpfd_feature call)
{
	int r;

	if (call == LPFD_NO_SENTINELS)
		return 0;
	r = lpfd_native(LPFD_FEAT_SELF_SENTINELS);
	return r <= 0 ? r : lpfd_kernel_has(call);
}

/*
 * The sentinel value the running kernel takes: -10000 for the thread; for
 * the thread group -10001 since 6.17, -20000 in 6.15 and 6.16.
 */
static struct lpfd_route self_route(enum lpfd_route_kind kind,
				    enum lpfd_feature call)
{
	int takes = kernel_takes_sentinels(call), is_10001 = 1;

	if (takes > 0 && kind == LPFD_ROUTE_SELF_PROCESS)
		is_10001 = lpfd_native(LPFD_FEAT_SELF_GROUP_10001);
	if (takes < 0 || is_10001 < 0)
		return (struct lpfd_route){ LPFD_ROUTE_ERROR, -1,
					    takes < 0 ? takes : is_10001 };
	if (!takes)
		return (struct lpfd_route){ kind, -1, 0 };
	if (kind == LPFD_ROUTE_SELF_THREAD)
		return (struct lpfd_route){ LPFD_ROUTE_KERNEL, PIDFD_SELF_THREAD, 0 };
	return (struct lpfd_route){ LPFD_ROUTE_KERNEL,
		is_10001 ? PIDFD_SELF_THREAD_GROUP : LIBPIDFD_SELF_THREAD_GROUP_OLD, 0 };
}

struct lpfd_route lpfd_route(int pidfd, enum lpfd_feature call)
{
	switch (pidfd) {
	case PIDFD_SELF_THREAD:
		return self_route(LPFD_ROUTE_SELF_THREAD, call);
	case PIDFD_SELF_THREAD_GROUP:
	case LIBPIDFD_SELF_THREAD_GROUP_OLD:
		return self_route(LPFD_ROUTE_SELF_PROCESS, call);
	default:
		if (pidfd < 0)
			return (struct lpfd_route){ LPFD_ROUTE_BAD, -1, 0 };
		return (struct lpfd_route){ LPFD_ROUTE_KERNEL, pidfd, 0 };
	}
}

/*
 * getpid() and gettid() cannot fail in the kernel, but a seccomp filter can
 * refuse them with any errno: the result is then -errno, which every
 * caller returns rather than take for an id (kill(-1) would signal every
 * process the caller may signal).
 */
pid_t lpfd_route_self_id(const struct lpfd_route *t)
{
	if (t->kind == LPFD_ROUTE_SELF_THREAD)
		return lpfd_sys_gettid();
	return lpfd_sys_getpid();
}

/*
 * A pidfd for ourselves, by the id lpfd_route_self_id() gave; the thread
 * one needs PIDFD_THREAD (6.9).
 */
int lpfd_route_open_self_as(const struct lpfd_route *t, pid_t id)
{
	if (id < 0)
		return id;
	return lpfd_sys_pidfd_open(id, t->kind == LPFD_ROUTE_SELF_THREAD ?
						PIDFD_THREAD : 0);
}

int lpfd_route_open_self(const struct lpfd_route *t)
{
	return lpfd_route_open_self_as(t, lpfd_route_self_id(t));
}

/*
 * The newest kernel hands a pidfs ioctl on any other file to that file:
 * no file at all for an O_PATH descriptor (EBADF), epoll's own ioctls
 * (EINVAL for any other command, since 6.9), and ENOTTY from the rest of
 * the kinds a pidfd argument can meet. The emulation gives those answers
 * on every kernel.
 */
int lpfd_not_pidfd_errno(int fd, const struct lpfd_fdinfo *fi)
{
	if (fi->flags & O_PATH)
		return -EBADF;
	return lpfd_fd_link_is(fd, "anon_inode:[eventpoll]") ? -EINVAL : -ENOTTY;
}
