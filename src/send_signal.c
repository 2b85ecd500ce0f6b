/* SPDX-License-Identifier: LGPL-2.1-or-later OR MIT */
/*
 * libpidfd_send_signal(): pidfd_send_signal(2), sentinels on every kernel.
 *
 * Native: a real pidfd goes to the kernel as it is; a sentinel too, as the
 * value the running kernel understands (6.15 on).
 *
 * Emulated: a signal to oneself needs no pidfd. The kernel's rules are
 * those of the system calls that signal by number, so each scope maps to
 * one of them with the same checks, the same siginfo and the same errors:
 *   thread:        tkill()        / rt_tgsigqueueinfo() with a siginfo
 *   thread group:  kill(n)        / rt_sigqueueinfo()
 *   process group: kill(-n)       / pidfd_send_signal() on an opened pidfd
 * where n is the caller's tid (PIDFD_SELF_THREAD) or pid (the group).
 */
#include <sys/uio.h>

#include "internal.h"
#include "syscall.h"

#define SEND_SIGNAL_FLAGS                                                      \
	(PIDFD_SIGNAL_THREAD | PIDFD_SIGNAL_THREAD_GROUP |                     \
	 PIDFD_SIGNAL_PROCESS_GROUP)

/* The part of a siginfo the kernel always copies in (kernel_siginfo_t). */
#define KERNEL_SIGINFO_SIZE (sizeof(long) == 8 ? 48 : 32)

enum scope { SCOPE_THREAD, SCOPE_GROUP, SCOPE_PGRP };

/* The kernel's flag checks, which come before it looks at the fd. */
static int check_flags(unsigned int flags)
{
	if (flags & ~SEND_SIGNAL_FLAGS)
		return -EINVAL;
	if (__builtin_popcount(flags) > 1)
		return -EINVAL;
	return 0;
}

/*
 * rt_tgsigqueueinfo() with no target copies the siginfo exactly as
 * pidfd_send_signal() does (EFAULT, and E2BIG for an unknown layout with
 * a nonzero tail, judged for signo) and then fails on the target: EINVAL.
 */
static int siginfo_copy_check(int signo, siginfo_t *info)
{
	int r = lpfd_sys_rt_tgsigqueueinfo(0, 0, signo, info);

	return r == -EINVAL ? 0 : r;
}

/*
 * The caller's siginfo, judged as the kernel judges it, in its order:
 * EFAULT from the copy of its fixed part, EFAULT or E2BIG from its tail
 * (judged with the caller's own si_signo), then EINVAL if si_signo is not
 * sig. The fixed part is read once, into *head; the tail only by the
 * kernel: here where the siginfo is refused, else by the call that sends.
 */
static int check_siginfo(pid_t tid, int sig, siginfo_t *info,
			 siginfo_t *head)
{
	int r = lpfd_user_read(tid, head, info, KERNEL_SIGINFO_SIZE);

	if (r < 0 || head->si_signo == sig)
		return r;
	r = siginfo_copy_check(head->si_signo, info);
	return r < 0 ? r : -EINVAL;
}

/* Only a thread may send itself what looks like kill() or the kernel. */
static bool may_send(pid_t id, pid_t tid, enum scope scope, int code)
{
	return (id == tid && scope != SCOPE_PGRP) ||
	       (code < 0 && code != SI_TKILL);
}

static enum scope scope_of(const struct lpfd_route *t, unsigned int flags)
{
	switch (flags) {
	case PIDFD_SIGNAL_THREAD:
		return SCOPE_THREAD;
	case PIDFD_SIGNAL_THREAD_GROUP:
		return SCOPE_GROUP;
	case PIDFD_SIGNAL_PROCESS_GROUP:
		return SCOPE_PGRP;
	default:
		return t->kind == LPFD_ROUTE_SELF_THREAD ? SCOPE_THREAD :
							       SCOPE_GROUP;
	}
}

/*
 * A process group with the caller's siginfo: no call signals a group by
 * number with a siginfo, so the kernel's own scope flag (6.9, with
 * PIDFD_THREAD) is used on a pidfd for the id; older kernels reject the
 * flag, and so does the library there.
 */
static int pgrp_with_info(pid_t id, int sig, siginfo_t *info)
{
	int fd, r;

	r = lpfd_kernel_has(LPFD_FEAT_PIDFD_THREAD);
	if (r <= 0)
		return r < 0 ? r : -EINVAL;
	/* A thread pidfd names the same struct pid for a tid and a pid. */
	fd = lpfd_sys_pidfd_open(id, PIDFD_THREAD);
	if (fd < 0)
		return fd;
	r = lpfd_sys_pidfd_send_signal(fd, sig, info,
					 PIDFD_SIGNAL_PROCESS_GROUP);
	lpfd_sys_close(fd);
	return r;
}

/*
 * Without a siginfo, one system call past the id: tkill() for a thread
 * (the target is the caller's own thread or leader, which no reuse can
 * replace, so tgkill()'s guard has nothing to guard), kill() for the
 * thread group or the process group. Same si_code, si_pid, si_uid, errors.
 */
static int send_signal_self_plain(const struct lpfd_route *t, int sig,
			     enum scope scope)
{
	pid_t id = lpfd_route_self_id(t);

	if (id < 0)
		return id; /* refused: kill(-1) or kill(1) would signal others */
	if (scope == SCOPE_THREAD)
		return lpfd_sys_tkill(id, sig);
	return lpfd_sys_kill(scope == SCOPE_GROUP ? id : -id, sig);
}

/*
 * With a siginfo, the system call that sends it copies it again and judges
 * that copy as pidfd_send_signal() would (EFAULT, E2BIG), so the library
 * reads only the fixed part, for si_signo and si_code; the tail is asked
 * about first only where the library refuses the siginfo itself (EINVAL,
 * EPERM), which the kernel decides after the copy.
 */
static int send_signal_self(const struct lpfd_route *t, int sig,
		       siginfo_t *info, unsigned int flags)
{
	enum scope scope = scope_of(t, flags);
	siginfo_t head = { 0 };
	pid_t tid, tgid, id;
	int r;

	if (!info)
		return send_signal_self_plain(t, sig, scope);
	tid = lpfd_sys_gettid();
	if (tid < 0)
		return tid;
	tgid = lpfd_sys_getpid();
	if (tgid < 0)
		return tgid;
	id = t->kind == LPFD_ROUTE_SELF_THREAD ? tid : tgid;
	r = check_siginfo(tid, sig, info, &head);
	if (r < 0)
		return r;
	if (!may_send(id, tid, scope, head.si_code)) {
		r = siginfo_copy_check(sig, info);
		return r < 0 ? r : -EPERM;
	}
	if (scope == SCOPE_THREAD)
		return lpfd_sys_rt_tgsigqueueinfo(tgid, id, sig, info);
	if (scope == SCOPE_GROUP)
		return lpfd_sys_rt_sigqueueinfo(id, sig, info);
	return pgrp_with_info(id, sig, info);
}

static int do_send_signal(int pidfd, int sig, siginfo_t *info, unsigned int flags)
{
	struct lpfd_route t;
	int err = check_flags(flags);

	if (err < 0)
		return err;
	t = lpfd_route(pidfd, LPFD_FEAT_SEND_SIGNAL);
	if (t.kind == LPFD_ROUTE_ERROR)
		return t.err;
	if (lpfd_route_is_self(&t))
		return send_signal_self(&t, sig, info, flags);
	return lpfd_sys_pidfd_send_signal(t.fd, sig, info, flags);
}

LIBPIDFD_API int libpidfd_send_signal(int pidfd, int sig, siginfo_t *info,
				      unsigned int flags)
{
	int saved = errno;

	return (int)lpfd_return(saved, do_send_signal(pidfd, sig, info, flags));
}
