// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The fault sweep through libpidfd-compat.so: a refused system call never
 * becomes an answer from the shim's entry points either. Each call the
 * shim catches is made through the shim's own definition, by name
 * (pidfd_open, ioctl, waitid, pidfd_send_signal, ...) and by number
 * (syscall), on a pidfd and on each sentinel the kernel's call takes;
 * tests/fault-sweep.h refuses each of its system calls in turn and judges
 * the answers.
 *
 * Each child loads the shim afresh (dlopen, before the filter), so that its
 * probes start cold and it reads LIBPIDFD_EMULATE as a preloaded shim
 * would; the sweeping process never loads it. The shim is a shared library:
 * the static cross-builds leave this test out (Makefile: STATIC_TESTS).
 */
#include <dlfcn.h>
#include <sys/ioctl.h>

#include "fault-sweep.h"
#include "syscall.h" /* __NR_ numbers a C library may lack (musl) */

/* The shim's entry points, looked up in each child. */
static struct {
	long (*syscall)(long, ...);
	int (*ioctl)(int, unsigned long, ...);
	int (*pidfd_open)(pid_t, unsigned int);
	int (*waitid)(idtype_t, id_t, siginfo_t *, int);
	int (*send_signal)(int, int, siginfo_t *, unsigned int);
	int (*getfd)(int, int, unsigned int);
	ssize_t (*madvise)(int, const struct iovec *, size_t, int,
			   unsigned int);
	int (*mrelease)(int, unsigned int);
	int (*fchmod)(int, mode_t);
	int (*fchown)(int, uid_t, gid_t);
	int (*fchownat)(int, const char *, uid_t, gid_t, int);
	int (*fexecve)(int, char *const[], char *const[]);
	int (*execveat)(int, const char *, char *const[], char *const[], int);
} shim;

/* What the exec calls would run, were a pidfd executable. */
static char *const no_args[] = { "true", NULL };

/* A name that starts "syscall" is made through syscall(2), by number. */
#define BOTH(name, fn, pidfd, kind, errnos)                                    \
	{ name, fn, pidfd, kind, errnos },                                     \
	{ "syscall " name, fn, pidfd, kind, errnos }

static const struct call calls[] = {
	BOTH("pidfd_open", FN_OPEN, 0, RET_FD, open_errnos),
	{ "syscall pidfd_open nonblock", FN_OPEN_NONBLOCK, 0, RET_FD,
	  open_errnos },
	BOTH("ioctl PIDFD_GET_INFO", FN_GET_INFO, 0, RET_INT, info_errnos),
	BOTH("ioctl PIDFD_GET_UTS_NAMESPACE", FN_NAMESPACE, 0, RET_FD,
	     namespace_errnos),
	BOTH("waitid", FN_WAITID, 0, RET_INT, waitid_errnos),
	BOTH("waitid", FN_WAITID, PIDFD_SELF_PROCESS, RET_INT, waitid_errnos),
	BOTH("pidfd_send_signal", FN_SEND, 0, RET_INT, signal_errnos),
	BOTH("pidfd_send_signal", FN_SEND, PIDFD_SELF_THREAD, RET_INT,
	     signal_errnos),
	BOTH("pidfd_send_signal", FN_SEND, PIDFD_SELF_PROCESS, RET_INT,
	     signal_errnos),
	/* the flag and the siginfo by number only: the same code by name */
	{ "syscall pidfd_send_signal pgrp", FN_SEND_PGRP, 0, RET_INT,
	  signal_errnos },
	{ "syscall pidfd_send_signal pgrp", FN_SEND_PGRP, PIDFD_SELF_PROCESS,
	  RET_INT, signal_errnos },
	{ "syscall pidfd_send_signal info", FN_SEND_INFO, PIDFD_SELF_THREAD,
	  RET_INT, signal_errnos },
	{ "syscall pidfd_send_signal info", FN_SEND_INFO, PIDFD_SELF_PROCESS,
	  RET_INT, signal_errnos },
	BOTH("pidfd_getfd", FN_GETFD, 0, RET_FD, getfd_errnos),
	BOTH("pidfd_getfd", FN_GETFD, PIDFD_SELF_THREAD, RET_FD,
	     getfd_errnos),
	BOTH("pidfd_getfd", FN_GETFD, PIDFD_SELF_PROCESS, RET_FD,
	     getfd_errnos),
	BOTH("process_madvise", FN_MADVISE, 0, RET_INT, madvise_errnos),
	BOTH("process_madvise", FN_MADVISE, PIDFD_SELF_PROCESS, RET_INT,
	     madvise_errnos),
	BOTH("process_mrelease", FN_MRELEASE, 0, RET_INT, mrelease_errnos),
	/* a pidfd's inode: changed to what it is, so a wrong pass changes
	 * nothing, yet answers 0 where the shim owes EOPNOTSUPP */
	BOTH("fchmod", FN_FCHMOD, 0, RET_INT, inode_errnos),
	BOTH("fchown", FN_FCHOWN, 0, RET_INT, inode_errnos),
	BOTH("fchownat", FN_FCHOWNAT, 0, RET_INT, inode_errnos),
	{ "fexecve", FN_FEXECVE, 0, RET_INT, exec_errnos },
	BOTH("execveat", FN_EXECVEAT, 0, RET_INT, exec_errnos),
};

static long by_name(const struct world *w, const struct call *c, int pidfd,
		    int sig, siginfo_t *si, unsigned char *out)
{
	struct iovec iov = { w->page, 4096 };

	switch (c->fn) {
	case FN_OPEN:
		return shim.pidfd_open(w->target, 0);
	case FN_GET_INFO:
		return shim.ioctl(pidfd, PIDFD_GET_INFO, out);
	case FN_NAMESPACE:
		return shim.ioctl(pidfd, PIDFD_GET_UTS_NAMESPACE, 0);
	case FN_WAITID:
		return shim.waitid(P_PIDFD, (id_t)pidfd, (siginfo_t *)out,
				   WEXITED | WNOHANG);
	case FN_SEND:
	case FN_SEND_INFO:
		return shim.send_signal(pidfd, sig, si, 0);
	case FN_SEND_PGRP:
		return shim.send_signal(pidfd, sig, NULL,
					PIDFD_SIGNAL_PROCESS_GROUP);
	case FN_GETFD:
		return shim.getfd(pidfd, w->file, 0);
	case FN_MADVISE:
		return shim.madvise(pidfd, &iov, 1, MADV_COLD, 0);
	case FN_MRELEASE:
		return shim.mrelease(pidfd, 0);
	case FN_FCHMOD:
		return shim.fchmod(pidfd, 0600);
	case FN_FCHOWN:
		return shim.fchown(pidfd, (uid_t)-1, (gid_t)-1);
	case FN_FCHOWNAT:
		return shim.fchownat(pidfd, "", (uid_t)-1, (gid_t)-1,
				     AT_EMPTY_PATH);
	case FN_FEXECVE:
		return shim.fexecve(pidfd, no_args, no_args + 1);
	case FN_EXECVEAT:
		return shim.execveat(pidfd, "", no_args, no_args + 1,
				     AT_EMPTY_PATH);
	default:
		return -1;
	}
}

/* The same through syscall(): the kernel reads an int pidfd, a long here. */
static long by_number(const struct world *w, const struct call *c, int pidfd,
		      int sig, siginfo_t *si, unsigned char *out)
{
	struct iovec iov = { w->page, 4096 };

	switch (c->fn) {
	case FN_OPEN:
		return shim.syscall(__NR_pidfd_open, w->target, 0);
	case FN_OPEN_NONBLOCK:
		return shim.syscall(__NR_pidfd_open, w->target, PIDFD_NONBLOCK);
	case FN_GET_INFO:
		return shim.syscall(__NR_ioctl, pidfd, PIDFD_GET_INFO, out);
	case FN_NAMESPACE:
		return shim.syscall(__NR_ioctl, pidfd, PIDFD_GET_UTS_NAMESPACE,
				    0);
	case FN_WAITID:
		return shim.syscall(__NR_waitid, P_PIDFD, pidfd, out,
				    WEXITED | WNOHANG, NULL);
	case FN_SEND:
	case FN_SEND_INFO:
		return shim.syscall(__NR_pidfd_send_signal, pidfd, sig, si, 0);
	case FN_SEND_PGRP:
		return shim.syscall(__NR_pidfd_send_signal, pidfd, sig, NULL,
				    PIDFD_SIGNAL_PROCESS_GROUP);
	case FN_GETFD:
		return shim.syscall(__NR_pidfd_getfd, pidfd, w->file, 0);
	case FN_MADVISE:
		return shim.syscall(__NR_process_madvise, pidfd, &iov, 1,
				    MADV_COLD, 0);
	case FN_MRELEASE:
		return shim.syscall(__NR_process_mrelease, pidfd, 0);
	case FN_FCHMOD:
		return shim.syscall(__NR_fchmod, pidfd, 0600);
	case FN_FCHOWN:
		return shim.syscall(__NR_fchown, pidfd, -1, -1);
	case FN_FCHOWNAT:
		return shim.syscall(__NR_fchownat, pidfd, "", -1, -1,
				    AT_EMPTY_PATH);
	case FN_EXECVEAT:
		return shim.syscall(__NR_execveat, pidfd, "", no_args,
				    no_args + 1, AT_EMPTY_PATH);
	default:
		return -1;
	}
}

static long make_call(const struct world *w, const struct call *c,
		      pid_t target, unsigned char *out)
{
	int sig = c->pidfd ? SIGUSR1 : SIGUSR2;
	siginfo_t si, *sip = NULL;

	if (c->fn == FN_SEND_INFO) {
		memset(&si, 0, sizeof(si));
		si.si_signo = sig;
		si.si_code = SI_QUEUE;
		si.si_pid = target;
		sip = &si;
	}
	if (strncmp(c->name, "syscall", 7) == 0)
		return by_number(w, c, pidfd_arg(w, c), sig, sip, out);
	return by_name(w, c, pidfd_arg(w, c), sig, sip, out);
}

/* The build directory's libpidfd-compat.so, above this binary's tests/. */
static const char *shim_path(void)
{
	static char path[PATH_MAX + 32];

	snprintf(path, sizeof(path), "%s/../libpidfd-compat.so",
		 util_tests_dir());
	return path;
}

static void *entry(void *so, const char *name)
{
	void *f = dlsym(so, name);

	if (!f)
		FAIL("libpidfd-compat.so has no %s: %s", name, dlerror());
	return f;
}

static void prepare_child(bool emulate)
{
	void *so;

	if (emulate)
		ASSERT_EQ(setenv("LIBPIDFD_EMULATE", "1", 1), 0);
	so = dlopen(shim_path(), RTLD_NOW | RTLD_LOCAL);
	if (!so)
		FAIL("dlopen: %s", dlerror());
	shim.syscall = (long (*)(long, ...))entry(so, "syscall");
	shim.ioctl = (int (*)(int, unsigned long, ...))entry(so, "ioctl");
	shim.pidfd_open = (int (*)(pid_t, unsigned int))entry(so, "pidfd_open");
	shim.waitid = (int (*)(idtype_t, id_t, siginfo_t *, int))
		entry(so, "waitid");
	shim.send_signal = (int (*)(int, int, siginfo_t *, unsigned int))
		entry(so, "pidfd_send_signal");
	shim.getfd = (int (*)(int, int, unsigned int))entry(so, "pidfd_getfd");
	shim.madvise = (ssize_t (*)(int, const struct iovec *, size_t, int,
				    unsigned int))entry(so, "process_madvise");
	shim.mrelease = (int (*)(int, unsigned int))entry(so,
							   "process_mrelease");
	shim.fchmod = (int (*)(int, mode_t))entry(so, "fchmod");
	shim.fchown = (int (*)(int, uid_t, gid_t))entry(so, "fchown");
	shim.fchownat = (int (*)(int, const char *, uid_t, gid_t, int))
		entry(so, "fchownat");
	shim.fexecve = (int (*)(int, char *const[], char *const[]))
		entry(so, "fexecve");
	shim.execveat = (int (*)(int, const char *, char *const[],
				 char *const[], int))entry(so, "execveat");
}

static void sweep_shim(void)
{
	sweep(calls, UTIL_COUNT(calls));
}

TEST_TIMEOUT(every_refused_system_call_through_the_shim, 900)
{
	ASSERT_EQ(access(shim_path(), R_OK), 0);
	util_in_pidns(sweep_shim, true);
}

/* Each errno the sweep accepts is on a manual page: the call's, or libpidfd(7). */
TEST(manual_pages_list_every_errno_judged)
{
	pages_list_all(calls, UTIL_COUNT(calls));
}
