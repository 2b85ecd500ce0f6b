/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libpidfd_getfd(): pidfd_getfd(2), and the sentinels, which no mainline
 * kernel takes here (6.18 answers EBADF): the library's path on every one.
 *
 * A duplicate from one's own file table is fcntl(F_DUPFD_CLOEXEC): the
 * lowest free fd, close-on-exec, EBADF for a bad one, as pidfd_getfd()
 * gives. PIDFD_SELF_THREAD reads the calling thread's table. The
 * thread-group leader's table is the same one unless the caller (or the
 * leader) did unshare(CLONE_FILES); kcmp() tells, and only then does the
 * kernel do it, through a pidfd on the leader, opened for this one call.
 */
#include <fcntl.h>
#include <linux/kcmp.h>

#include "internal.h"
#include "syscall.h"

static int dup_own(int targetfd)
{
	return lpfd_sys_fcntl(targetfd, F_DUPFD_CLOEXEC, 0);
}

/* Whether the caller surely shares the leader's file table (no kcmp: no). */
static bool shares_leader_files(pid_t tgid, pid_t tid)
{
	if (tid == tgid)
		return true;
	return lpfd_sys_kcmp(tgid, tid, KCMP_FILES, 0, 0) == 0;
}

static int getfd_leader(int targetfd)
{
	pid_t tgid = lpfd_sys_getpid();
	int pidfd, r;

	if (shares_leader_files(tgid, lpfd_sys_gettid()))
		return dup_own(targetfd);
	pidfd = lpfd_sys_pidfd_open(tgid, 0);
	if (pidfd < 0)
		return pidfd;
	r = lpfd_sys_pidfd_getfd(pidfd, targetfd, 0);
	lpfd_sys_close(pidfd);
	return r;
}

static int getfd(int pidfd, int targetfd, unsigned int flags)
{
	struct lpfd_target t;
	int r = lpfd_target_resolve(pidfd, &t);

	if (r < 0 || t.kind == LPFD_TARGET_FD)
		return lpfd_sys_pidfd_getfd(t.fd, targetfd, flags);
	if (flags)
		return -EINVAL;
	if (t.kind == LPFD_TARGET_SELF_THREAD)
		return dup_own(targetfd);
	return getfd_leader(targetfd);
}

LIBPIDFD_API int libpidfd_getfd(int pidfd, int targetfd, unsigned int flags)
{
	int saved = errno;

	return (int)lpfd_return(saved, getfd(pidfd, targetfd, flags));
}
