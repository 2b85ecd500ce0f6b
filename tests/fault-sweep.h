/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The fault sweep's machinery, shared by tests/test-fault-sweep.c (the
 * library's calls) and tests/test-fault-sweep-shim.c (the same calls
 * through libpidfd-compat.so's entry points).
 *
 * For every call of a table, on each of its paths, the system calls of a
 * normal call are counted, then each one in turn, alone, is refused with
 * each errno of the list, in a forked child whose calling thread runs
 * under a seccomp user-notification filter served by a second thread. Each
 * faulted call must give the unfaulted answer, field by field, or fail
 * with an errno its manual page lists; it must leave no descriptor behind
 * and, on failure, the caller's memory as it was; and no signal may reach
 * anyone but the process named: the sweep runs as pid 1 of a fresh pid
 * namespace (kill(1) would reach it), beside a bystander in a process
 * group of its own (kill(-1) would reach it), each with the signals blocked
 * and checked pending after every run.
 *
 * The including file defines the table and, below this header,
 * make_call() (the call itself) and prepare_child() (run in each child
 * before the filter: the emulation forced or not, the library loaded).
 * close() is never refused: the descriptor would stay open whatever the
 * library did. docs/testing.md says what this proves and what it does not.
 */
#ifndef LIBPIDFD_TESTS_FAULT_SWEEP_H
#define LIBPIDFD_TESTS_FAULT_SWEEP_H

#include <ctype.h>
#include <fcntl.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>

#include "harness.h"
#include "internal.h"
#include "util.h"

#define MARKER (-4242)   /* close(MARKER): the end of the call */
#define MAX_STOPS 256
/* Pids above any pid_max: the caller's own, its parent's. */
#define SELF_TOKEN 0x40000001L
#define PARENT_TOKEN 0x40000002L

/* What the children share with the sweeping process. */
struct world {
	pid_t target;     /* the process the pidfd names */
	int target_pidfd; /* a raw pidfd for it */
	int file;         /* a descriptor open in the target and in us */
	char *page;       /* a page mapped in the target and in us */
	pid_t bystander;
	int idle[2];      /* the pipe the idle processes wait on */
	bool target_hit;  /* a SIGUSR1 pending in the target, reported */
};

enum fn {
	FN_OPEN, FN_OPEN_NONBLOCK, FN_GET_INFO, FN_GETPID, FN_SEND,
	FN_SEND_PGRP, FN_SEND_INFO, FN_GETFD, FN_MADVISE, FN_MRELEASE,
	FN_WAITID, FN_NAMESPACE, FN_FEATURES, FN_PROC_OPEN, FN_PROC_READLINK,
	FN_FCHMOD, FN_FCHOWN, FN_FCHOWNAT, FN_FEXECVE, FN_EXECVEAT, FN_COUNT
};

/*
 * The errnos each call's manual page lists (man/libpidfd_*.3, ERRORS):
 * each page's own, and those of a refused system call, which every page
 * lists alike (the last entry) and which are the errnos swept.
 */
static const int refused[] = { EPERM, EACCES, ENOSYS, EINTR, EAGAIN,
			       ENOMEM, EMFILE, ENFILE, ESRCH, 0 };
/*
 * Inside a guest kernel (user-mode-linux or qemu's TCG, which
 * tests/guest-init.sh marks with TEST_OWNS_MACHINE), where a fork costs
 * ~50 ms: one errno of each kind the library tells apart (a refusal, a
 * call absent, an interruption, a resource, a process gone), so that the
 * sweep stays within ~2 minutes there. The host sweeps all nine, on its
 * kernel and under the older kernels' personalities.
 */
static const int refused_guest[] = { EPERM, ENOSYS, EINTR, EMFILE, ESRCH, 0 };

struct call {
	const char *name;
	enum fn fn;
	int pidfd; /* 0: the world's pidfd; else the sentinel */
	enum { RET_INT, RET_FD } kind;
	const int *errnos;
};

static const int open_errnos[] = { EINVAL, EMFILE, ENFILE, ENODEV, ENOENT,
				   ENOMEM, ENOSYS, ESRCH, 0 };
static const int info_errnos[] = { E2BIG, EACCES, EBADF, EFAULT, EINVAL,
				   EMFILE, ENFILE, ENOMEM, ENOSYS, ENOTTY,
				   EREMOTE, ESRCH, 0 };
static const int getpid_errnos[] = { EACCES, EBADF, EMFILE, ENFILE, ENOMEM,
				     ENOSYS, EREMOTE, ESRCH, 0 };
static const int signal_errnos[] = { E2BIG, EBADF, EFAULT, EINVAL, ENOSYS,
				     EPERM, ESRCH, 0 };
static const int getfd_errnos[] = { EBADF, EINVAL, EMFILE, ENOSYS, EPERM,
				    ESRCH, 0 };
static const int madvise_errnos[] = { EACCES, EAGAIN, EBADF, EFAULT, EINVAL,
				      EIO, ENOMEM, ENOSYS, EPERM, ESRCH, 0 };
static const int mrelease_errnos[] = { EBADF, EINTR, EINVAL, ENOSYS, ESRCH,
				       0 };
static const int waitid_errnos[] = { EAGAIN, EBADF, ECHILD, EFAULT, EINTR,
				     EINVAL, 0 };
static const int namespace_errnos[] = { EACCES, EBADF, EMFILE, ENFILE,
					ENOMEM, ENOSYS, ENOTTY, EOPNOTSUPP,
					EPERM, EREMOTE, ESRCH, 0 };
static const int features_errnos[] = { EFAULT, EMFILE, ENFILE, ENOMEM, 0 };
static const int proc_open_errnos[] = { EACCES, EBADF, EFAULT, EINVAL, EISDIR,
					ELOOP, EMFILE, ENAMETOOLONG, ENFILE,
					ENOENT, ENOMEM, ENOSYS, ENOTDIR,
					EREMOTE, ESRCH, EXDEV, 0 };
static const int readlink_errnos[] = { EACCES, EFAULT, EINVAL, ENOENT, 0 };
/* The shim's answers for a pidfd's inode, as the newest kernel's. */
static const int inode_errnos[] = { EBADF, EOPNOTSUPP, 0 };
static const int exec_errnos[] = { EACCES, EBADF, 0 };

/*
 * Where each list is the contract's: the ERRORS section of the call's
 * manual page, whose last entry names the refusals (refused[]); the
 * shim's answers on a pidfd's inode are libpidfd(7)'s. pages_list_all()
 * fails for an errno a page does not name, or a call whose list has no
 * page here.
 */
static const struct {
	const int *errnos;
	const char *page;
} errno_pages[] = {
	{ open_errnos, "man/libpidfd_open.3" },
	{ info_errnos, "man/libpidfd_get_info.3" },
	{ getpid_errnos, "man/libpidfd_getpid.3" },
	{ signal_errnos, "man/libpidfd_send_signal.3" },
	{ getfd_errnos, "man/libpidfd_getfd.3" },
	{ madvise_errnos, "man/libpidfd_process_madvise.3" },
	{ mrelease_errnos, "man/libpidfd_process_mrelease.3" },
	{ waitid_errnos, "man/libpidfd_waitid.3" },
	{ namespace_errnos, "man/libpidfd_get_namespace.3" },
	{ features_errnos, "man/libpidfd_features.3" },
	{ proc_open_errnos, "man/libpidfd_proc_open.3" },
	{ readlink_errnos, "man/libpidfd_proc_readlink.3" },
	{ inode_errnos, "man/libpidfd.7" },
	{ exec_errnos, "man/libpidfd.7" },
};

#define OUT_SIZE 256

/* One run's result, normalised so that runs in different children compare. */
struct outcome {
	long ret;
	int err;
	int stops;            /* system calls the call made */
	long nr[MAX_STOPS];   /* which, in order */
	long faulted;         /* the system call refused, -1 if none */
	bool leaked, poison_kept;
	unsigned char out[OUT_SIZE] __attribute__((aligned(16))); /* a struct */
	long what[3];         /* what a descriptor answer names */
};

/*
 * The refusal: err at stop at. A trace (nr -1) stops at every system call
 * until close(MARKER) and notes them; a faulted run stops only at those
 * of the one refused (the at-th of its kind), which is far cheaper under
 * user-mode-linux, where each stop costs two context switches.
 */
struct fault {
	long nr;
	int at, err;
	struct outcome *o;
	int listener, seen;
	bool done;
};

static bool at_stop(int stop, const struct seccomp_notif *req,
		    struct seccomp_notif_resp *resp, void *arg)
{
	struct fault *f = arg;

	if (__atomic_load_n(&f->done, __ATOMIC_SEQ_CST))
		return false;
	if (req->data.nr == SYS_close && (int)req->data.args[0] == MARKER) {
		f->o->stops = stop;
		__atomic_store_n(&f->done, true, __ATOMIC_SEQ_CST);
		return false;
	}
	if (f->nr < 0 && stop < MAX_STOPS)
		f->o->nr[stop] = req->data.nr;
	if (f->nr >= 0 && (long)req->data.nr != f->nr)
		return false; /* a close() that is no marker */
	if (f->seen++ != f->at)
		return false;
	f->o->faulted = req->data.nr;
	resp->error = -f->err;
	return true;
}

static void *serve(void *arg)
{
	struct fault *f = arg;
	sigset_t all;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	util_notif_serve(&f->listener, at_stop, f);
	return NULL;
}

static long normal_pid(long pid)
{
	if (pid > 0 && pid == getpid())
		return SELF_TOKEN;
	if (pid > 0 && pid == getppid())
		return PARENT_TOKEN;
	return pid;
}

static int pidfd_arg(const struct world *w, const struct call *c)
{
	return c->pidfd ? c->pidfd : w->target_pidfd;
}

/* The call itself, between the filter and the marker: nothing else. */
static long make_call(const struct world *w, const struct call *c,
		      pid_t target, unsigned char *out);
/* In each child, before the filter: the emulation forced if emulate. */
static void prepare_child(bool emulate);

/* The "Pid:" of a pidfd's fdinfo. */
static long pidfd_pid(int fd)
{
	char path[64], buf[1024], *l;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	ASSERT_TRUE(util_read_close(open(path, O_RDONLY | O_CLOEXEC), buf,
				    sizeof(buf)) > 0);
	l = strstr(buf, "Pid:");
	return l ? strtol(l + 4, NULL, 10) : -1000;
}

/* What a descriptor answer names, in terms that compare across children. */
static void describe_fd(const struct call *c, int fd, long what[3])
{
	struct stat st;
	char buf[256];
	ssize_t n;

	ASSERT_EQ(fstat(fd, &st), 0);
	/* not O_LARGEFILE: open() adds it, a namespace ioctl's file lacks it */
	what[0] = (fcntl(fd, F_GETFL) & (O_ACCMODE | O_NONBLOCK)) |
		  (fcntl(fd, F_GETFD) << 24);
	what[1] = (long)st.st_ino;
	if (c->fn == FN_OPEN || c->fn == FN_OPEN_NONBLOCK) {
		what[1] = normal_pid(pidfd_pid(fd));
	} else if (c->fn == FN_PROC_OPEN) {
		/* stat's first field is the pid, as that procfs numbers it */
		n = read(fd, buf, sizeof(buf) - 1);
		ASSERT_TRUE(n > 0);
		buf[n] = '\0';
		what[1] = normal_pid(strtol(buf, NULL, 10));
	}
	what[2] = 0;
}

static void normalise(const struct call *c, struct outcome *o)
{
	struct libpidfd_info *k = (struct libpidfd_info *)o->out;

	if (o->ret < 0)
		return;
	if (c->fn == FN_GETPID)
		o->ret = normal_pid(o->ret);
	if (c->fn == FN_GET_INFO) {
		k->pid = (uint32_t)normal_pid(k->pid);
		k->tgid = (uint32_t)normal_pid(k->tgid);
		k->ppid = (uint32_t)normal_pid(k->ppid);
	}
}

/* In the forked child: the call under the filter, refused at stop at. */
static void one_run(const struct world *w, const struct call *c, long nr,
		    int at, int err, bool emulate, struct outcome *o)
{
	struct fault f = { .nr = nr, .at = at, .err = err, .o = o,
			   .listener = -1 };
	uint64_t before[UTIL_FDS / 64], after[UTIL_FDS / 64];
	unsigned char poison[OUT_SIZE];
	pid_t self = getpid();
	pthread_t t;
	sigset_t usr;
	long ret;
	int e;

	prepare_child(emulate);
	sigemptyset(&usr);
	sigaddset(&usr, SIGUSR1);
	sigaddset(&usr, SIGUSR2);
	sigprocmask(SIG_BLOCK, &usr, NULL);
	ASSERT_EQ(setpgid(0, 0), 0); /* a process group of its own */
	memset(o->out, 0xa5, OUT_SIZE);
	if (c->fn == FN_GET_INFO) /* the request, then poison */
		((struct libpidfd_info *)o->out)->mask =
			PIDFD_INFO_PID | PIDFD_INFO_CREDS | PIDFD_INFO_CGROUPID |
			PIDFD_INFO_EXIT | PIDFD_INFO_COREDUMP |
			PIDFD_INFO_SUPPORTED_MASK;
	memcpy(poison, o->out, OUT_SIZE);
	o->faulted = -1;
	ASSERT_GE(util_open_fds(before), 0);
	ASSERT_EQ(pthread_create(&t, NULL, serve, &f), 0);
	__atomic_store_n(&f.listener, nr < 0 ? util_notif_filter(-1) :
				util_notif_filter2(nr, SYS_close), __ATOMIC_SEQ_CST);
	if (f.listener < 0)
		FAIL("seccomp user notification: %s", strerror(errno));
	errno = 0;
	ret = make_call(w, c, c->pidfd ? self : w->target, o->out);
	e = errno;
	syscall(SYS_close, MARKER);
	o->ret = ret;
	o->err = ret < 0 ? e : 0;
	o->poison_kept = memcmp(o->out, poison, OUT_SIZE) == 0;
	if (c->kind == RET_FD && ret >= 0)
		describe_fd(c, (int)ret, o->what);
	ASSERT_GE(util_open_fds(after), 0);
	before[f.listener / 64] |= 1ULL << (f.listener % 64);
	if (c->kind == RET_FD && ret >= 0 && ret < UTIL_FDS)
		before[ret / 64] |= 1ULL << (ret % 64);
	o->leaked = memcmp(before, after, sizeof(before)) != 0;
	normalise(c, o);
	_exit(0);
}

static void run(const struct world *w, const struct call *c, long nr, int at,
		int err, bool emulate, struct outcome *o)
{
	int status;
	pid_t pid;

	memset(o, 0, sizeof(*o));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0)
		one_run(w, c, nr, at, err, emulate, o);
	ASSERT_EQ(waitpid(pid, &status, 0), pid);
	if (status != 0)
		FAIL("%s (%d) refused at %d with %s: child status 0x%x",
		     c->name, c->pidfd, at, lpfd_errno_name(err), status);
}

static bool listed(const int *list, int err)
{
	for (; *list; list++)
		if (*list == err)
			return true;
	return false;
}

static const char *path_name(const struct call *c)
{
	if (c->pidfd == PIDFD_SELF_THREAD)
		return "PIDFD_SELF_THREAD";
	if (c->pidfd == PIDFD_SELF_PROCESS)
		return "PIDFD_SELF_PROCESS";
	return "pidfd";
}

/*
 * Wrong answers: each is counted, the first at each position of each call
 * printed (up to 60), and the test fails at the end.
 */
static int wrong, wrong_shown;
static const void *wrong_last;
static int wrong_last_at = -1;
#define WRONG(...)                                                             \
	do {                                                                   \
		wrong++;                                                       \
		if ((wrong_last != c || wrong_last_at != at) &&                \
		    wrong_shown++ < 60) {                                      \
			printf("# WRONG: " __VA_ARGS__);                       \
			printf("\n");                                          \
		}                                                              \
		wrong_last = c, wrong_last_at = at;                            \
		return;                                                        \
	} while (0)

/* A field that the answer has where its bit is set, and is 0 where not. */
static bool field_kept(uint64_t mask, uint64_t bit, uint64_t v, uint64_t ref)
{
	return (mask & bit) ? v == ref : v == 0;
}

/*
 * The answer of a kernel with less: bits the kernel sets only where it has
 * them clear and their fields 0; the ids and credentials the same.
 */
static bool smaller_info(const struct libpidfd_info *k,
			 const struct libpidfd_info *r)
{
	uint64_t m = k->mask;

	return (m & ~r->mask) == 0 &&
	       memcmp(&k->pid, &r->pid,
		      offsetof(struct libpidfd_info, exit_code) -
			      offsetof(struct libpidfd_info, pid)) == 0 &&
	       field_kept(m, PIDFD_INFO_CGROUPID, k->cgroupid, r->cgroupid) &&
	       field_kept(m, PIDFD_INFO_EXIT, (uint32_t)k->exit_code,
			  (uint32_t)r->exit_code) &&
	       field_kept(m, PIDFD_INFO_COREDUMP, k->coredump_mask,
			  r->coredump_mask) &&
	       field_kept(m, PIDFD_INFO_COREDUMP, k->coredump_signal,
			  r->coredump_signal) &&
	       field_kept(m, PIDFD_INFO_COREDUMP, k->coredump_code,
			  r->coredump_code) &&
	       (k->supported_mask & ~r->supported_mask) == 0;
}

/*
 * A probe that a filter refuses counts as the feature absent for that call
 * (src/probe.c: a sandbox's EPERM does not go away): the call then answers
 * as on a kernel without it, by the emulation (whose answer on this kernel
 * is the other one accepted) or with less: get_info() without the bits
 * that kernel would not set, features() with the feature absent. Fewer
 * bits, never another value.
 */
static bool same_answer(const struct call *c, const struct outcome *ref,
			const struct outcome *o)
{
	const struct libpidfd_features *f = (const void *)o->out;
	const struct libpidfd_features *r = (const void *)ref->out;

	if (o->ret != ref->ret ||
	    memcmp(o->what, ref->what, sizeof(o->what)) != 0)
		return false;
	if (c->fn == FN_GET_INFO)
		return smaller_info((const void *)o->out, (const void *)ref->out);
	if (c->fn != FN_FEATURES)
		return memcmp(o->out, ref->out, OUT_SIZE) == 0;
	return f->emulate_forced == r->emulate_forced &&
	       (f->kernel & ~r->kernel) == 0 &&
	       (f->info_mask & ~r->info_mask) == 0;
}

static void judge(const struct call *c, const struct outcome *ref,
		  const struct outcome *emulated, const struct outcome *o,
		  int at, int err)
{
	char what[160];

	snprintf(what, sizeof(what), "%s(%s), system call %d of %d (nr %ld) "
		 "refused with %s", c->name, path_name(c), at, ref->stops,
		 o->faulted, lpfd_errno_name(err));
	if (o->leaked)
		WRONG("%s: a descriptor leaked", what);
	if (o->ret < 0) {
		if (!listed(c->errnos, o->err) && !listed(refused, o->err))
			WRONG("%s: failed with %s, which its manual page does "
			     "not list", what, lpfd_errno_name(o->err));
		/* Every pointer handed over is valid: EFAULT would be a lie. */
		if (o->err == EFAULT && ref->err != EFAULT)
			WRONG("%s: EFAULT for memory that is there", what);
		/* waitid(2) clears *info on any error: the same is no harm */
		if (!o->poison_kept && !(o->err == ref->err &&
					 !memcmp(o->out, ref->out, OUT_SIZE)))
			WRONG("%s: failed (%s) but wrote the caller's memory",
			     what, lpfd_errno_name(o->err));
		return;
	}
	if (same_answer(c, ref, o) || same_answer(c, emulated, o))
		return;
	if (o->ret != ref->ret)
		WRONG("%s: answered %ld, the unfaulted call %ld (%s)", what,
		     o->ret, ref->ret, lpfd_errno_name(ref->err));
	for (int i = 0; i < OUT_SIZE; i += 8)
		if (memcmp(o->out + i, ref->out + i, 8) != 0)
			WRONG("%s: another answer in the caller's memory "
			     "(bytes %d-%d: %#llx, not %#llx)", what, i, i + 7,
			     *(unsigned long long *)(o->out + i),
			     *(unsigned long long *)(ref->out + i));
	if (memcmp(o->what, ref->what, sizeof(o->what)) != 0)
		WRONG("%s: a descriptor for something else (%ld %ld, not %ld %ld)",
		     what, o->what[0], o->what[1], ref->what[0], ref->what[1]);
}

/* A pending signal in a process's status file: "SigPnd:" or "ShdPnd:". */
static uint64_t pending(pid_t pid)
{
	char path[64], buf[4096], *l;
	uint64_t mask = 0;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	ASSERT_TRUE(util_read_close(open(path, O_RDONLY | O_CLOEXEC), buf,
				    sizeof(buf)) > 0);
	if ((l = strstr(buf, "SigPnd:")))
		mask |= strtoull(l + 7, NULL, 16);
	if ((l = strstr(buf, "ShdPnd:")))
		mask |= strtoull(l + 7, NULL, 16);
	return mask;
}

#define SIGBIT(s) (1ULL << ((s) - 1))

/* A process that blocks every signal and waits for its pipe to close. */
static pid_t idle_child(int rd, int wr)
{
	pid_t pid = fork();
	sigset_t all;
	char c;

	ASSERT_GE(pid, 0);
	if (pid)
		return pid;
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, NULL);
	setpgid(0, 0);
	close(wr);
	while (read(rd, &c, 1) < 0 && errno == EINTR)
		;
	_exit(0);
}

/* Nobody but the named process got a signal. */
static void check_signals(struct world *w, const struct call *c, int at,
			  int err)
{
	const struct timespec now = { 0, 0 };
	sigset_t set, usr;

	ASSERT_EQ(sigpending(&set), 0);
	if (sigismember(&set, SIGUSR1) || sigismember(&set, SIGUSR2)) {
		sigemptyset(&usr);
		sigaddset(&usr, SIGUSR1);
		sigaddset(&usr, SIGUSR2);
		while (sigtimedwait(&usr, NULL, &now) > 0)
			; /* taken, so that the next run is judged alone */
		WRONG("%s(%s) refused at %d with %s: pid 1 got a signal",
		     c->name, path_name(c), at, lpfd_errno_name(err));
	}
	if (pending(w->bystander)) {
		/* a new one, so that the next run is judged alone */
		kill(w->bystander, SIGKILL);
		waitpid(w->bystander, NULL, 0);
		w->bystander = idle_child(w->idle[0], w->idle[1]);
		WRONG("%s(%s) refused at %d with %s: the bystander got a signal",
		     c->name, path_name(c), at, lpfd_errno_name(err));
	}
	if (!w->target_hit && (pending(w->target) & SIGBIT(SIGUSR1))) {
		w->target_hit = true; /* it stays pending: reported once */
		WRONG("%s(%s) refused at %d with %s: the target got the "
		     "caller's own signal", c->name, path_name(c), at,
		     lpfd_errno_name(err));
	}
}

static void noted(int sig)
{
	(void)sig;
}


/* Which of the system calls of its kind the at-th of the trace is. */
static int same_before(const struct outcome *ref, int at)
{
	int n = 0;

	for (int i = 0; i < at; i++)
		n += ref->nr[i] == ref->nr[at];
	return n;
}

/* Whether roff text names an errno as a word (".B EPERM", "\\fBEPERM\\fR"). */
static bool names_errno(const char *text, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = text; (p = strstr(p, name)); p++) {
		bool font = p - text >= 3 && p[-3] == '\\' && p[-2] == 'f';

		if ((p == text || font || !isalnum((unsigned char)p[-1])) &&
		    !isalnum((unsigned char)p[n]))
			return true;
	}
	return false;
}

/* One page's ERRORS section (libpidfd(7), which has none: all of it). */
static void page_names(const char *page, const int *errnos, bool refusals)
{
	char *text = util_read_text(page), *errors = strstr(text, "\n.SH ERRORS\n");
	char *end = errors ? strstr(errors + 1, "\n.SH ") : NULL;

	if (end)
		*end = '\0';
	for (const int *e = errnos; *e; e++)
		if (!names_errno(errors ? errors : text, lpfd_errno_name(*e)))
			FAIL("%s does not list %s", page, lpfd_errno_name(*e));
	for (const int *e = refused; refusals && *e; e++)
		if (!names_errno(errors, lpfd_errno_name(*e)))
			FAIL("%s does not list the refusal %s", page, lpfd_errno_name(*e));
	free(text);
}

/* The manual pages list every errno the sweep accepts from these calls. */
static void pages_list_all(const struct call *calls, size_t ncalls)
{
	for (size_t i = 0; i < UTIL_COUNT(errno_pages); i++)
		page_names(errno_pages[i].page, errno_pages[i].errnos,
			   strstr(errno_pages[i].page, ".3") != NULL);
	for (size_t c = 0; c < ncalls; c++) {
		size_t i = 0;

		while (i < UTIL_COUNT(errno_pages) &&
		       errno_pages[i].errnos != calls[c].errnos)
			i++;
		if (i == UTIL_COUNT(errno_pages))
			FAIL("%s: its errnos name no manual page", calls[c].name);
	}
}

/* Every call of the table, on each of its paths, refused everywhere. */
static void sweep(const struct call *calls, size_t ncalls)
{
	struct world w = { 0 };
	struct outcome *ref, *emulated, *o;
	bool native = strcmp(harness_mode(), "emulated") != 0;
	struct sigaction sa = { .sa_handler = noted };
	bool guest = getenv("TEST_OWNS_MACHINE") != NULL;
	const int *errs = guest ? refused_guest : refused;
	int nerr = (int)(guest ? UTIL_COUNT(refused_guest) : UTIL_COUNT(refused)) - 1;
	int runs = 0;
	int positions = 0;
	sigset_t usr;

	/* pid 1 takes a signal only where it has a handler: watch with one. */
	sigaction(SIGUSR1, &sa, NULL);
	sigaction(SIGUSR2, &sa, NULL);
	sigemptyset(&usr);
	sigaddset(&usr, SIGUSR1);
	sigaddset(&usr, SIGUSR2);
	sigprocmask(SIG_BLOCK, &usr, NULL);
	ref = mmap(NULL, 3 * sizeof(*ref), PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(ref != MAP_FAILED);
	emulated = ref + 1;
	o = ref + 2;
	w.page = util_pages(1);
	w.file = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ASSERT_GE(w.file, 0);
	ASSERT_EQ(pipe2(w.idle, O_CLOEXEC), 0);
	w.target = idle_child(w.idle[0], w.idle[1]);
	w.bystander = idle_child(w.idle[0], w.idle[1]);
	w.target_pidfd = (int)syscall(SYS_pidfd_open, w.target, 0);
	ASSERT_GE(w.target_pidfd, 0);
	for (size_t i = 0; i < ncalls; i++) {
		const struct call *c = &calls[i];

		run(&w, c, -1, -1, 0, false, ref);
		run(&w, c, -1, -1, 0, native, emulated);
		ASSERT_TRUE(ref->stops < MAX_STOPS);
		for (int at = 0; at < ref->stops; at++) {
			if (ref->nr[at] == SYS_close)
				continue;
			positions++;
			for (int e = 0; e < nerr; e++) {
				run(&w, c, ref->nr[at], same_before(ref, at),
				    errs[e], false, o);
				judge(c, ref, emulated, o, at, errs[e]);
				check_signals(&w, c, at, errs[e]);
				runs++;
			}
		}
	}
	close(w.idle[1]);
	if (wrong)
		FAIL("%d wrong answers in %d faulted runs", wrong, runs);
	printf("# %d faulted runs: %zu calls x paths, %d positions in all, "
	       "x %d errnos (%s%s)\n", runs, ncalls, positions, nerr,
	       harness_mode(), guest ? ": 5 of the 9 errnos, for time" : "");
	waitpid(w.target, NULL, 0);
	waitpid(w.bystander, NULL, 0);
}

#endif
