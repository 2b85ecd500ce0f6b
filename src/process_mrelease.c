/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libpidfd_process_mrelease(): process_mrelease(2), sentinels on every
 * kernel. Real pidfds go to the kernel as they are, and so do the
 * sentinels where the kernel takes them (6.15 on). Elsewhere a sentinel
 * gets the kernel's answer for a pidfd of a live process whose memory is
 * not being freed, which the caller, running this call, always is: EINVAL.
 */
#include "internal.h"
#include "syscall.h"

static int process_mrelease(int pidfd, unsigned int flags)
{
	struct lpfd_target t;
	int r = lpfd_target_resolve(pidfd, &t);

	if (r < 0 || t.kind == LPFD_TARGET_FD)
		return lpfd_sys_process_mrelease(t.fd, flags);
	r = lpfd_target_kernel_sentinel(&t);
	if (r == -EBADF)
		return -EINVAL; /* flags or not, the kernel says EINVAL */
	if (lpfd_is_errno(r))
		return r;
	return lpfd_sys_process_mrelease(r, flags);
}

LIBPIDFD_API int libpidfd_process_mrelease(int pidfd, unsigned int flags)
{
	int saved = errno;

	return (int)lpfd_return(saved, process_mrelease(pidfd, flags));
}
