/* SPDX-License-Identifier: LGPL-2.1-or-later OR MIT */
/*
 * libpidfd_getpid(): the pid a pidfd names, in the caller's pid namespace.
 *
 * Native: PIDFD_GET_INFO, which checks the namespace itself. Emulated: the
 * "Pid:" line of /proc/thread-self/fdinfo/<fd>, which the kernel writes as
 * 0 when the process lies outside our pid namespace (and, from 5.5 on, as
 * -1 once it is reaped), then the check that it is still unreaped.
 * Either way an fd that is not a pidfd is EBADF, as in glibc's
 * pidfd_getpid(), and the sentinels need no system call beyond get[tp]id.
 */
#include "internal.h"
#include "syscall.h"

/* A file that is not a pidfd is EBADF, whatever it answers the ioctl. */
pid_t lpfd_not_a_pidfd_is_ebadf(int r)
{
	return r == -ENOTTY || r == -EINVAL ? -EBADF : r;
}

pid_t lpfd_getpid_native(int pidfd)
{
	struct libpidfd_info info = { .mask = 0 };
	int r = lpfd_get_info(pidfd, &info, PIDFD_INFO_SIZE_VER0);

	return r < 0 ? lpfd_not_a_pidfd_is_ebadf(r) : (pid_t)info.pid;
}

/*
 * The pid is read through a procfs proven ours, and stands only if the
 * process is still unreaped afterwards: on Linux 5.3 and 5.4 the fdinfo kept
 * showing the pid of a reaped process, which may already be another's.
 */
static pid_t getpid_emulated(int pidfd)
{
	struct lpfd_proc p;
	int pid, r = lpfd_proc_open_pidfd(&p, pidfd, &pid);

	if (r < 0)
		return lpfd_not_a_pidfd_is_ebadf(r);
	r = lpfd_fdinfo_pid_errno(pid);
	if (r == 0)
		r = lpfd_proc_unreaped(&p, pidfd);
	lpfd_proc_close(&p);
	if (r < 0)
		return r;
	return r ? pid : -ESRCH;
}

static pid_t do_getpid(int pidfd)
{
	struct lpfd_route t = lpfd_route(pidfd, LPFD_NO_SENTINELS);
	int native;

	if (t.kind == LPFD_ROUTE_BAD)
		return -EBADF;
	if (lpfd_route_is_self(&t))
		return lpfd_route_self_id(&t);
	native = lpfd_native(LPFD_FEAT_GET_INFO);
	if (native < 0)
		return native;
	return native ? lpfd_getpid_native(t.fd) : getpid_emulated(t.fd);
}

LIBPIDFD_API pid_t libpidfd_getpid(int pidfd)
{
	int saved = errno;

	return (pid_t)lpfd_return(saved, do_getpid(pidfd));
}
