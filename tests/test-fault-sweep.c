// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The fault sweep: a refused system call never becomes an answer, from
 * any public call on any of its paths (a pidfd, PIDFD_SELF_THREAD,
 * PIDFD_SELF_PROCESS; the binary runs natively and with
 * LIBPIDFD_EMULATE=1). tests/fault-sweep.h refuses each system call of a
 * normal call in turn and judges the answers.
 *
 * Each child starts with the library's probe cache cold (the sweeping
 * process never calls the library), so the probes are swept too.
 */
#include "fault-sweep.h"

/* A call on the world's pidfd, then on each sentinel. */
#define ON_EACH_TARGET(name, fn, kind, errnos)                                \
	{ name, fn, 0, kind, errnos },                                        \
	{ name, fn, PIDFD_SELF_THREAD, kind, errnos },                        \
	{ name, fn, PIDFD_SELF_PROCESS, kind, errnos }

static const struct call calls[] = {
	{ "open", FN_OPEN, 0, RET_FD, open_errnos },
	{ "open nonblock", FN_OPEN_NONBLOCK, 0, RET_FD, open_errnos },
	ON_EACH_TARGET("get_info", FN_GET_INFO, RET_INT, info_errnos),
	ON_EACH_TARGET("getpid", FN_GETPID, RET_INT, getpid_errnos),
	ON_EACH_TARGET("send_signal", FN_SEND, RET_INT, signal_errnos),
	{ "send_signal pgrp", FN_SEND_PGRP, 0, RET_INT, signal_errnos },
	{ "send_signal pgrp", FN_SEND_PGRP, PIDFD_SELF_PROCESS, RET_INT,
	  signal_errnos },
	{ "send_signal info", FN_SEND_INFO, PIDFD_SELF_THREAD, RET_INT,
	  signal_errnos },
	{ "send_signal info", FN_SEND_INFO, PIDFD_SELF_PROCESS, RET_INT,
	  signal_errnos },
	ON_EACH_TARGET("getfd", FN_GETFD, RET_FD, getfd_errnos),
	{ "process_madvise", FN_MADVISE, 0, RET_INT, madvise_errnos },
	{ "process_madvise", FN_MADVISE, PIDFD_SELF_PROCESS, RET_INT,
	  madvise_errnos },
	{ "process_mrelease", FN_MRELEASE, 0, RET_INT, mrelease_errnos },
	{ "waitid", FN_WAITID, 0, RET_INT, waitid_errnos },
	{ "waitid", FN_WAITID, PIDFD_SELF_PROCESS, RET_INT, waitid_errnos },
	ON_EACH_TARGET("get_namespace", FN_NAMESPACE, RET_FD, namespace_errnos),
	{ "features", FN_FEATURES, 0, RET_INT, features_errnos },
	ON_EACH_TARGET("proc_open", FN_PROC_OPEN, RET_FD, proc_open_errnos),
	{ "proc_readlink", FN_PROC_READLINK, 0, RET_INT, readlink_errnos },
	{ "proc_readlink", FN_PROC_READLINK, PIDFD_SELF_PROCESS, RET_INT,
	  readlink_errnos },
};

/* The call itself, between the filter and the marker: nothing else. */
static long make_call(const struct world *w, const struct call *c,
		      pid_t target, unsigned char *out)
{
	int pidfd = pidfd_arg(w, c);
	struct iovec iov = { w->page, 4096 };
	siginfo_t si;
	int sig = c->pidfd ? SIGUSR1 : SIGUSR2;

	switch (c->fn) {
	case FN_OPEN:
		return libpidfd_open(w->target, 0);
	case FN_OPEN_NONBLOCK:
		return libpidfd_open(w->target, PIDFD_NONBLOCK);
	case FN_GET_INFO:
		return libpidfd_get_info(pidfd, (struct pidfd_info *)out,
					 sizeof(struct libpidfd_info));
	case FN_GETPID:
		return libpidfd_getpid(pidfd);
	case FN_SEND:
		return libpidfd_send_signal(pidfd, sig, NULL, 0);
	case FN_SEND_PGRP:
		return libpidfd_send_signal(pidfd, sig, NULL,
					    PIDFD_SIGNAL_PROCESS_GROUP);
	case FN_SEND_INFO:
		memset(&si, 0, sizeof(si));
		si.si_signo = sig;
		si.si_code = SI_QUEUE;
		si.si_pid = target;
		return libpidfd_send_signal(pidfd, sig, &si, 0);
	case FN_GETFD:
		return libpidfd_getfd(pidfd, w->file, 0);
	case FN_MADVISE:
		return libpidfd_process_madvise(pidfd, &iov, 1, MADV_COLD, 0);
	case FN_MRELEASE:
		return libpidfd_process_mrelease(pidfd, 0);
	case FN_WAITID:
		return libpidfd_waitid(pidfd, (siginfo_t *)out,
				       WEXITED | WNOHANG, NULL);
	case FN_NAMESPACE:
		return libpidfd_get_namespace(pidfd, PIDFD_GET_UTS_NAMESPACE);
	case FN_FEATURES:
		return libpidfd_features((struct libpidfd_features *)out,
					 sizeof(struct libpidfd_features));
	case FN_PROC_OPEN:
		return libpidfd_proc_open(pidfd, "stat", O_RDONLY | O_CLOEXEC);
	case FN_PROC_READLINK:
		return libpidfd_proc_readlink(pidfd, "exe", (char *)out,
					      OUT_SIZE);
	default:
		return -1;
	}
}

static void prepare_child(bool emulate)
{
	if (emulate)
		lpfd_emulate_override(1);
}

static void sweep_library(void)
{
	sweep(calls, UTIL_COUNT(calls));
}

TEST_TIMEOUT(every_refused_system_call_fails_or_answers_right, 900)
{
	util_in_pidns(sweep_library, true);
}

/* Each errno the sweep accepts is on the call's manual page. */
TEST(manual_pages_list_every_errno_judged)
{
	pages_list_all(calls, UTIL_COUNT(calls));
}
