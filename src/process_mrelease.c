/* SPDX-License-Identifier: LGPL-2.1-or-later OR MIT */
/*
 * libpidfd_process_mrelease(): process_mrelease(2), sentinels on every
 * kernel. Real pidfds go to the kernel as they are, and so do the
 * sentinels where the kernel takes them (6.15 on). Elsewhere a sentinel
 * gets the kernel's answer for a pidfd of a live process whose memory is
 * not being freed, which the caller, running this call, always is: EINVAL.
 */
#include "internal.h"
#include "syscall.h"

static int do_process_mrelease(int pidfd, unsigned int flags)
{
	struct lpfd_route t = lpfd_route(pidfd, LPFD_FEAT_PROCESS_MRELEASE);

	if (t.kind == LPFD_ROUTE_ERROR)
		return t.err;
	if (lpfd_route_is_self(&t))
		return -EINVAL; /* flags or not, the kernel says EINVAL */
	return lpfd_sys_process_mrelease(t.fd, flags);
}

LIBPIDFD_API int libpidfd_process_mrelease(int pidfd, unsigned int flags)
{
	int saved = errno;

	return (int)lpfd_return(saved, do_process_mrelease(pidfd, flags));
}
