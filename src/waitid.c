/* SPDX-License-Identifier: LGPL-2.1-or-later OR MIT */
/*
 * libpidfd_waitid(): waitid(P_PIDFD, ...), sentinels on every kernel.
 *
 * Real pidfds, and negative values that are no sentinel, go to the kernel
 * as they are (it says EINVAL for the latter, as for any negative id). No
 * mainline kernel takes a sentinel here (6.18: EINVAL); the seeds did, and
 * there a process waiting on itself got ECHILD, being nobody's child of
 * its own. The library gives that answer on every kernel by asking the
 * kernel to wait for the caller's own pid: the same checks of the options
 * first (EINVAL), then ECHILD at once, never a wait, with *info cleared
 * (or EFAULT) exactly as waitid(2) does on any error.
 */
#include <sys/wait.h>

#include "internal.h"
#include "syscall.h"

static int do_waitid(int pidfd, siginfo_t *info, int options,
		     struct rusage *ru)
{
	struct lpfd_route t = lpfd_route(pidfd, LPFD_NO_SENTINELS);
	pid_t self;

	if (lpfd_route_is_self(&t)) {
		self = lpfd_sys_getpid();
		if (self < 0)
			return self; /* refused: never P_PID of a made-up id */
		return lpfd_sys_waitid(P_PID, self, info, options, ru);
	}
	return lpfd_sys_waitid(P_PIDFD, pidfd, info, options, ru);
}

LIBPIDFD_API int libpidfd_waitid(int pidfd, siginfo_t *info, int options,
				 struct rusage *ru)
{
	int saved = errno;

	return (int)lpfd_return(saved, do_waitid(pidfd, info, options, ru));
}
