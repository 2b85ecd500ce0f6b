/* SPDX-License-Identifier: LGPL-2.1-or-later OR MIT */
/*
 * libpidfd_getpid(): the pid a pidfd names, in the caller's pid namespace.
 *
 * Native: PIDFD_GET_INFO, which checks the namespace itself. Emulated: the
 * "Pid:" line of /proc/self/fdinfo/<fd>, which the kernel writes as -1 once
 * the process is reaped and 0 when it lies outside our pid namespace.
 * Either way an fd that is not a pidfd is EBADF, whatever the file itself
 * answers, as in glibc's pidfd_getpid(), and the sentinels need no system
 * call beyond get[tp]id.
 */
#include "internal.h"
#include "syscall.h"

static pid_t getpid_native(int pidfd)
{
	struct pidfd_info info = { .mask = 0 };
	int r = lpfd_get_info(pidfd, &info, PIDFD_INFO_SIZE_VER0);

	if (r < 0)
		return r == -ESRCH || r == -EREMOTE ? r : -EBADF;
	return (pid_t)info.pid;
}

static pid_t getpid_emulated(int pidfd)
{
	struct lpfd_fdinfo fi;
	int r = lpfd_read_fdinfo(pidfd, &fi);

	if (r < 0)
		return r;
	if (!fi.is_pidfd)
		return -EBADF;
	r = lpfd_proc_is_ours();
	if (r < 0)
		return r;
	if (fi.pid == 0)
		return -EREMOTE;
	return fi.pid < 0 ? -ESRCH : fi.pid;
}

static pid_t do_getpid(int pidfd)
{
	struct lpfd_route r = lpfd_route(pidfd, LPFD_NO_SENTINELS);
	int native;

	if (r.kind == LPFD_ROUTE_BAD)
		return -EBADF;
	if (lpfd_route_is_self(&r))
		return lpfd_route_self_id(&r);
	native = lpfd_native(LPFD_FEAT_GET_INFO);
	if (native < 0)
		return native;
	return native ? getpid_native(r.fd) : getpid_emulated(r.fd);
}

LIBPIDFD_API pid_t libpidfd_getpid(int pidfd)
{
	int saved = errno;

	return (pid_t)lpfd_return(saved, do_getpid(pidfd));
}
