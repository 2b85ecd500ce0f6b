/* SPDX-License-Identifier: LGPL-2.1-or-later OR MIT */
/*
 * libpidfd_open(): pidfd_open(2). Every kernel the library supports (5.3
 * on) has it, so there is nothing to emulate: a pidfd is a kernel object.
 * PIDFD_THREAD (6.9) cannot be emulated either; older kernels answer
 * EINVAL, as they do for any unknown flag.
 *
 * One answer moved: a pid that names a thread but no thread group (a
 * thread other than its leader) is ENOENT since Linux 6.16 ("pidfd:
 * improve uapi when task isn't found"), EINVAL before. With a valid pid
 * and no flag, an older kernel's EINVAL can mean nothing else, and is
 * given as the newest kernel's ENOENT; with PIDFD_NONBLOCK, where that
 * flag is known (5.10).
 */
#include "internal.h"
#include "syscall.h"

static int open_newest_errno(pid_t pid, unsigned int flags, int r)
{
	int fd;

	if (r != -EINVAL || pid <= 0 || (flags & ~(unsigned int)PIDFD_NONBLOCK))
		return r;
	if (!flags)
		return -ENOENT;
	/*
	 * Before 5.10 PIDFD_NONBLOCK is an unknown flag, EINVAL for any pid:
	 * without it, the pid tells. (A pidfd so opened is closed at once.)
	 */
	fd = lpfd_sys_pidfd_open(pid, 0);
	if (fd >= 0)
		lpfd_sys_close(fd);
	return fd == -EINVAL ? -ENOENT : r;
}

LIBPIDFD_API int libpidfd_open(pid_t pid, unsigned int flags)
{
	int saved = errno;

	return (int)lpfd_return(saved, open_newest_errno(pid, flags,
					lpfd_sys_pidfd_open(pid, flags)));
}
