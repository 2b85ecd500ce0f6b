/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The one place where a pidfd argument is resolved: a file descriptor, or
 * one of the sentinels naming the caller. Every function goes through it.
 */
#include "internal.h"
#include "syscall.h"

int lpfd_target_resolve(int pidfd, struct lpfd_target *t)
{
	t->fd = pidfd;
	if (pidfd >= 0) {
		t->kind = LPFD_TARGET_FD;
		return 0;
	}
	switch (pidfd) {
	case PIDFD_SELF_THREAD:
		t->kind = LPFD_TARGET_SELF_THREAD;
		return 0;
	case -10001: /* PIDFD_SELF_THREAD_GROUP since 6.17 */
	case LIBPIDFD_SELF_THREAD_GROUP_OLD:
		t->kind = LPFD_TARGET_SELF_GROUP;
		return 0;
	default:
		/* Still a usable target: -1, which the kernel calls EBADF. */
		t->kind = LPFD_TARGET_FD;
		t->fd = -1;
		return -EBADF;
	}
}

/*
 * The value the running kernel takes for a self target: -10000 for the
 * thread; -10001 or, on 6.15 and 6.16, -20000 for the thread group.
 */
int lpfd_target_kernel_sentinel(const struct lpfd_target *t)
{
	int r;

	if (t->kind == LPFD_TARGET_FD)
		return t->fd;
	r = lpfd_native(LPFD_FEAT_SELF_SENTINELS);
	if (r <= 0)
		return r < 0 ? r : -EBADF;
	if (t->kind == LPFD_TARGET_SELF_THREAD)
		return PIDFD_SELF_THREAD;
	r = lpfd_native(LPFD_FEAT_SELF_GROUP_10001);
	if (r < 0)
		return r;
	return r ? -10001 : LIBPIDFD_SELF_THREAD_GROUP_OLD;
}

/* A pidfd for ourselves; the thread one needs PIDFD_THREAD (6.9). */
int lpfd_target_open_self(const struct lpfd_target *t)
{
	if (t->kind == LPFD_TARGET_SELF_THREAD)
		return lpfd_sys_pidfd_open(lpfd_sys_gettid(), PIDFD_THREAD);
	return lpfd_sys_pidfd_open(lpfd_sys_getpid(), 0);
}
