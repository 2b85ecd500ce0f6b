/* SPDX-License-Identifier: LGPL-2.1-or-later OR MIT */
/*
 * libpidfd_open(): pidfd_open(2). Every kernel the library supports (5.3
 * on) has it, so there is nothing to emulate: a pidfd is a kernel object.
 * PIDFD_THREAD (6.9) cannot be emulated either; older kernels answer
 * EINVAL, as they do for any unknown flag.
 */
#include "internal.h"
#include "syscall.h"

LIBPIDFD_API int libpidfd_open(pid_t pid, unsigned int flags)
{
	int saved = errno;

	return (int)lpfd_return(saved, lpfd_sys_pidfd_open(pid, flags));
}
