/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The library where it is used: many threads at once while the targets
 * die, signal handlers that interrupt a call in progress, a child right
 * after fork() (no state of the parent's may leak into its answers), a
 * thread with a file table of its own (unshare(CLONE_FILES)), and a
 * program after exec. Both library paths, every mode.
 */
#include <fcntl.h>
#include <libpidfd.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdarg.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/uio.h>

#include "internal.h"
#include "util.h"

#ifndef MADV_COLD
#define MADV_COLD 20
#endif

#define UID_BASE 7000u

static void become(void *arg)
{
	unsigned int uid = (unsigned int)(uintptr_t)arg;

	if (setresgid(uid, uid, uid) || setresuid(uid, uid, uid))
		_exit(97);
}

/* Wrong answers seen by many threads at once: how many, and the first. */
struct wrongs {
	int count;
	char first[200];
};

static void __attribute__((format(printf, 2, 3)))
note_wrong(struct wrongs *w, const char *fmt, ...)
{
	va_list ap;

	if (__atomic_fetch_add(&w->count, 1, __ATOMIC_SEQ_CST) != 0)
		return;
	va_start(ap, fmt);
	vsnprintf(w->first, sizeof(w->first), fmt, ap);
	va_end(ap);
}

/* After the threads are joined. */
static void expect_no_wrongs(const struct wrongs *w)
{
	if (w->count)
		FAIL("%d wrong answers, the first: %s", w->count, w->first);
}

static void futex_wait(int *word, int seen)
{
	syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, seen, NULL, NULL, 0);
}

static void futex_wake(int *word)
{
	syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}

/* ------------------------------------------------------------------------
 * Threads: every function, on shared pidfds and on each thread's own,
 * while the main thread kills and reaps the targets one by one. Each
 * target goes through three stages (alive, a zombie, reaped), and the
 * main thread moves it on only once every thread has made its calls on it
 * in the stage it is in: counted calls, not a time that a loaded machine
 * may outlast.
 */
#define TARGETS 6
#define THREADS 6
enum stage { ALIVE, ZOMBIE, REAPED, STAGES };

static struct {
	int fd[TARGETS];
	pid_t pid[TARGETS];
	int step;   /* target step / STAGES, in stage step % STAGES */
	int behind; /* futex word: threads yet to make their calls this step */
	int calls;  /* the calls each thread makes on the target of a step */
	int stop;
	struct wrongs wrongs;
} S;

static void wrong(const char *what, int i, long r, int err)
{
	note_wrong(&S.wrongs, "%s on target %d: %ld %s", what, i, r,
		   lpfd_errno_name(err));
}

/* r is the answer for target i, alive or gone. */
static void check_gone_or(const char *what, int i, long r, long ok, int err)
{
	if (r == ok || (r == -1 && err == ESRCH))
		return;
	wrong(what, i, r, err);
}

static void calls_on(int fd, int i)
{
	struct pidfd_info info = { .mask = PIDFD_INFO_CGROUPID };
	siginfo_t si;
	long r;

	r = libpidfd_get_info(fd, &info, sizeof(info));
	if (r == 0 && (info.pid != (uint32_t)S.pid[i] ||
		       info.ruid != UID_BASE + (unsigned)i))
		wrong("get_info data", i, info.pid, 0);
	check_gone_or("get_info", i, r, 0, errno);
	r = libpidfd_getpid(fd);
	check_gone_or("getpid", i, r, S.pid[i], errno);
	r = libpidfd_send_signal(fd, 0, NULL, 0);
	check_gone_or("send_signal", i, r, 0, errno);
	r = libpidfd_get_namespace(fd, PIDFD_GET_UTS_NAMESPACE);
	if (r >= 0)
		close((int)r);
	check_gone_or("get_namespace", i, r < 0 ? r : 0, 0, errno);
	/* A zombie has no file table left: EBADF. */
	r = libpidfd_getfd(fd, 0, 0);
	if (r >= 0)
		close((int)r);
	if (!util_kernel_has(LPFD_FEAT_GETFD)) {
		if (r != -1 || errno != ENOSYS)
			wrong("getfd", i, r, errno);
	} else if (!(r >= 0 || (r == -1 && (errno == ESRCH || errno == EBADF))))
		wrong("getfd", i, r, errno);
	/* Live: EINVAL; a zombie without memory: 0; reaped: ESRCH (5.15). */
	r = libpidfd_process_mrelease(fd, 0);
	if (!util_kernel_has(LPFD_FEAT_PROCESS_MRELEASE)) {
		if (!(r == -1 && errno == ENOSYS))
			wrong("process_mrelease", i, r, errno);
	} else if (!(r == 0 || (r == -1 && (errno == EINVAL || errno == ESRCH))))
		wrong("process_mrelease", i, r, errno);
	/* A child of this process (any thread's): 0 until reaped, then ECHILD. */
	memset(&si, 0, sizeof(si));
	r = libpidfd_waitid(fd, &si, WEXITED | WNOHANG | WNOWAIT, NULL);
	if (!(r == 0 || (r == -1 && errno == ECHILD)))
		wrong("waitid", i, r, errno);
	r = util_madvise_page(fd, MADV_COLD, 0);
	if (!util_kernel_has(LPFD_FEAT_PROCESS_MADVISE)) {
		if (r != -1 || errno != ENOSYS)
			wrong("process_madvise", i, r, errno);
	} else if (!(r >= 0 || (r == -1 && errno == ESRCH)))
		wrong("process_madvise", i, r, errno);
}

static void self_calls(void)
{
	struct pidfd_info info = { .mask = 0 };
	struct libpidfd_features f;
	int r;

	r = libpidfd_get_info(PIDFD_SELF_THREAD, &info, sizeof(info));
	if (r != 0 || info.pid != (uint32_t)gettid() ||
	    info.tgid != (uint32_t)getpid())
		wrong("get_info(PIDFD_SELF_THREAD)", -1, r, errno);
	if (libpidfd_getpid(PIDFD_SELF_THREAD) != gettid())
		wrong("getpid(PIDFD_SELF_THREAD)", -1, r, errno);
	if (libpidfd_send_signal(PIDFD_SELF_THREAD, 0, NULL, 0) != 0)
		wrong("send_signal(PIDFD_SELF_THREAD)", -1, -1, errno);
	if (libpidfd_features(&f, sizeof(f)) != 0 || f.open != LIBPIDFD_NATIVE)
		wrong("features", -1, -1, errno);
}

/* Target i's shared pidfd, then one of this thread's own, opened now. */
static void calls_on_target(int i, unsigned int *seed)
{
	int own;

	util_set_path(rand_r(seed) & 1);
	calls_on(S.fd[i], i);
	own = libpidfd_open(S.pid[i], 0);
	if (own >= 0) {
		calls_on(own, i);
		close(own);
	} else if (errno != ESRCH) {
		wrong("open", i, own, errno);
	}
}

/* Threads are created inside the namespace init, a process of their own. */
static void *hammer(void *arg)
{
	unsigned int seed = (unsigned int)(uintptr_t)arg;
	int step = -1, made = 0;

	while (!__atomic_load_n(&S.stop, __ATOMIC_SEQ_CST)) {
		int now = __atomic_load_n(&S.step, __ATOMIC_SEQ_CST);

		if (now != step) {
			step = now;
			made = 0;
		}
		calls_on_target(now / STAGES, &seed);
		/* And any target, in whatever stage it is. */
		calls_on_target((int)(rand_r(&seed) % TARGETS), &seed);
		self_calls();
		/* The last thread to make its calls wakes the main thread. */
		if (++made == S.calls &&
		    __atomic_sub_fetch(&S.behind, 1, __ATOMIC_SEQ_CST) == 0)
			futex_wake(&S.behind);
	}
	return NULL;
}

/* Until every thread has made its calls on the target of this step. */
static void await_calls(void)
{
	int behind;

	while ((behind = __atomic_load_n(&S.behind, __ATOMIC_SEQ_CST)) != 0)
		futex_wait(&S.behind, behind);
}

static void next_step(void)
{
	__atomic_store_n(&S.behind, THREADS, __ATOMIC_SEQ_CST);
	__atomic_add_fetch(&S.step, 1, __ATOMIC_SEQ_CST);
}

static void threads_while_targets_exit(void)
{
	pthread_t th[THREADS];
	int before = util_count_fds();

	for (int i = 0; i < TARGETS; i++)
		S.pid[i] = util_spawn(become, (void *)(uintptr_t)(UID_BASE + i),
				      &S.fd[i]);
	S.calls = strcmp(harness_mode(), "uml") == 0 ? 2 : 5;
	S.behind = THREADS;
	for (int t = 0; t < THREADS; t++)
		ASSERT_EQ(pthread_create(&th[t], NULL, hammer,
					 (void *)(uintptr_t)(t + 1)), 0);
	for (int i = 0; i < TARGETS; i++) {
		siginfo_t si;

		await_calls();
		ASSERT_EQ(kill(S.pid[i], SIGKILL), 0);
		/* Until it is a zombie, which this leaves unreaped. */
		ASSERT_EQ(waitid(P_PIDFD, (id_t)S.fd[i], &si,
				 WEXITED | WNOWAIT), 0);
		next_step();
		await_calls();
		ASSERT_EQ(waitid(P_PIDFD, (id_t)S.fd[i], &si, WEXITED), 0);
		next_step();
		await_calls();
		if (i + 1 < TARGETS)
			next_step();
	}
	__atomic_store_n(&S.stop, 1, __ATOMIC_SEQ_CST);
	for (int t = 0; t < THREADS; t++)
		pthread_join(th[t], NULL);
	expect_no_wrongs(&S.wrongs);
	for (int i = 0; i < TARGETS; i++)
		close(S.fd[i]);
	ASSERT_EQ(util_count_fds(), before);
}

TEST_TIMEOUT(threads_call_everything_while_targets_exit, 60)
{
	/* In a pid namespace of its own, so that no pid is reused meanwhile. */
	util_in_pidns(threads_while_targets_exit, true);
}

/* ------------------------------------------------------------------------
 * Signal handlers: a thread keeps signalling the main thread, whose
 * handler calls the library while the main thread is itself in the middle
 * of library calls.
 */
static struct {
	int fd;
	pid_t pid;
	char status_pid[32]; /* its status file's Pid line */
	int handled, round; /* futex words: the handler's runs, the main loop's */
	volatile sig_atomic_t bad;
	int stop;
} H;

/* The target's status through libpidfd_proc_open(), and a link of it. */
static bool proc_files_ok(void)
{
	char buf[2048];

	return util_read_close(libpidfd_proc_open(H.fd, "status", O_RDONLY),
			       buf, sizeof(buf)) > 0 &&
	       strstr(buf, H.status_pid) &&
	       libpidfd_proc_readlink(H.fd, "ns/pid", buf, sizeof(buf)) > 0;
}

static void handler(int sig)
{
	struct pidfd_info info = { .mask = PIDFD_INFO_CGROUPID };
	int saved = errno;

	(void)sig;
	if (libpidfd_get_info(H.fd, &info, sizeof(info)) != 0 ||
	    info.pid != (uint32_t)H.pid || info.ruid != UID_BASE)
		H.bad = 1;
	if (libpidfd_getpid(PIDFD_SELF_THREAD) != gettid() ||
	    libpidfd_getpid(H.fd) != H.pid)
		H.bad = 2;
	if (libpidfd_send_signal(H.fd, 0, NULL, 0) != 0)
		H.bad = 3;
	if (!proc_files_ok())
		H.bad = 5;
	if (errno != saved)
		H.bad = 4; /* success leaves errno alone */
	__atomic_add_fetch(&H.handled, 1, __ATOMIC_SEQ_CST);
	futex_wake(&H.handled);
	errno = saved;
}

/*
 * The next signal once the last one was handled and the main thread has
 * since begun a round: it is interrupted in about every round, and never
 * starved, however slow the handler (~1.5 ms under UML).
 */
static void *pester(void *arg)
{
	pthread_t main_thread = *(pthread_t *)arg;

	while (!__atomic_load_n(&H.stop, __ATOMIC_SEQ_CST)) {
		int handled = __atomic_load_n(&H.handled, __ATOMIC_SEQ_CST);
		int round;

		pthread_kill(main_thread, SIGUSR1);
		while (__atomic_load_n(&H.handled, __ATOMIC_SEQ_CST) == handled)
			futex_wait(&H.handled, handled);
		/* The main thread sets stop before its last next_round(). */
		round = __atomic_load_n(&H.round, __ATOMIC_SEQ_CST);
		while (__atomic_load_n(&H.round, __ATOMIC_SEQ_CST) == round &&
		       !__atomic_load_n(&H.stop, __ATOMIC_SEQ_CST))
			futex_wait(&H.round, round);
	}
	return NULL;
}

static void next_round(void)
{
	__atomic_add_fetch(&H.round, 1, __ATOMIC_SEQ_CST);
	futex_wake(&H.round);
}

TEST_TIMEOUT(calls_from_a_signal_handler_interrupting_calls, 60)
{
	struct sigaction sa = { .sa_handler = handler };
	pthread_t self = pthread_self(), th;
	int rounds = strcmp(harness_mode(), "uml") == 0 ? 500 : 3000;

	REQUIRE_PRIVILEGE("gives a child other credentials");
	H.pid = util_spawn(become, (void *)(uintptr_t)UID_BASE, &H.fd);
	snprintf(H.status_pid, sizeof(H.status_pid), "\nPid:\t%d\n", (int)H.pid);
	ASSERT_EQ(sigaction(SIGUSR1, &sa, NULL), 0);
	ASSERT_EQ(pthread_create(&th, NULL, pester, &self), 0);
	/* Until the handler has run, however late the pester thread starts. */
	for (int i = 0; (i < rounds || !__atomic_load_n(&H.handled,
						      __ATOMIC_SEQ_CST)) && !H.bad;
	     i++) {
		struct pidfd_info info = { .mask = PIDFD_INFO_CGROUPID };

		util_set_path(i & 1);
		errno = 0;
		if (libpidfd_get_info(H.fd, &info, sizeof(info)) != 0) {
			int err = errno;
			struct lpfd_fdinfo fi = { 0 };
			struct lpfd_status st = { 0 };
			int a = lpfd_read_fdinfo(H.fd, &fi);
			int b = lpfd_read_status(H.pid, &st);

			/* A handler ran inside: EINTR is no answer of ours. */
			FAIL("get_info (%s path, round %d): %s, handler state %d; "
			     "now: fdinfo %d pid %d, status %d have %#x, unreaped %d",
			     i & 1 ? "emulated" : "native", i,
			     lpfd_errno_name(err), (int)H.bad, a, fi.pid, b,
			     st.have, lpfd_pidfd_unreaped(H.fd));
		}
		ASSERT_EQ(info.pid, H.pid);
		ASSERT_EQ(info.ruid, UID_BASE);
		ASSERT_EQ(libpidfd_getpid(H.fd), H.pid);
		ASSERT_TRUE(proc_files_ok());
		next_round();
	}
	__atomic_store_n(&H.stop, 1, __ATOMIC_SEQ_CST);
	next_round(); /* the pester thread may be waiting for one */
	pthread_join(th, NULL);
	printf("# %d handler runs\n", (int)H.handled);
	ASSERT_EQ(H.bad, 0);
	ASSERT_TRUE(H.handled > 0);
	util_kill_reap(H.fd);
}

/* ------------------------------------------------------------------------
 * fork(): the child's answers are its own, whatever the parent had done
 * (and cached) before, even when the child changes namespaces and
 * cgroups at once.
 */
static void fork_child_checks(pid_t parent, uint64_t parent_uts)
{
	struct pidfd_info info = { .mask = PIDFD_INFO_CGROUPID };
	char dir[512];
	const char *m = util_cgroup2_mount();
	struct stat st;
	int ns, fd;

	for (int em = 0; em < 2; em++) {
		util_set_path(em);
		ASSERT_EQ(libpidfd_getpid(PIDFD_SELF_PROCESS), getpid());
		ASSERT_EQ(libpidfd_getpid(PIDFD_SELF_THREAD), getpid());
		ASSERT_EQ(libpidfd_get_info(PIDFD_SELF_PROCESS, &info,
					    sizeof(info)), 0);
		ASSERT_EQ(info.pid, getpid());
		ASSERT_EQ(info.ppid, parent);
	}
	/* A namespace and a cgroup of its own. */
	ASSERT_EQ(unshare(CLONE_NEWUTS), 0);
	snprintf(dir, sizeof(dir), "%s/libpidfd-fork-%d", m, getpid());
	ASSERT_EQ(mkdir(dir, 0755), 0);
	util_cgroup_move(dir, getpid());
	for (int em = 0; em < 2; em++) {
		util_set_path(em);
		ns = libpidfd_get_namespace(PIDFD_SELF_PROCESS,
					    PIDFD_GET_UTS_NAMESPACE);
		ASSERT_GE(ns, 0);
		ASSERT_EQ(fstat(ns, &st), 0);
		ASSERT_NE(st.st_ino, parent_uts);
		close(ns);
		memset(&info, 0, sizeof(info));
		info.mask = PIDFD_INFO_CGROUPID;
		ASSERT_EQ(libpidfd_get_info(PIDFD_SELF_PROCESS, &info,
					    sizeof(info)), 0);
		ASSERT_TRUE(info.mask & PIDFD_INFO_CGROUPID);
		ASSERT_EQ(info.cgroupid, util_cgroup_id(dir));
		fd = libpidfd_open(getpid(), 0);
		ASSERT_GE(fd, 0);
		memset(&info, 0, sizeof(info));
		info.mask = PIDFD_INFO_CGROUPID;
		ASSERT_EQ(libpidfd_get_info(fd, &info, sizeof(info)), 0);
		ASSERT_EQ(info.cgroupid, util_cgroup_id(dir));
		close(fd);
	}
	/* Back to the parent's cgroup, so that the directory can go. */
	{
		char procs[600], pid[16];
		int p;

		snprintf(procs, sizeof(procs), "%s/cgroup.procs", m);
		snprintf(pid, sizeof(pid), "%d", getpid());
		p = open(procs, O_WRONLY);
		if (p >= 0) {
			if (write(p, pid, strlen(pid)) < 0)
				FAIL("cgroup.procs: %s", strerror(errno));
			close(p);
		}
		util_cgroup_remove(dir);
	}
}

TEST(calls_right_after_fork_answer_for_the_child)
{
	struct pidfd_info info = { .mask = PIDFD_INFO_CGROUPID };
	struct stat st;
	int ns, status;
	pid_t child;

	REQUIRE_PRIVILEGE("creates a UTS namespace and a cgroup");
	/* Every cache the library has, warmed in the parent. */
	for (int em = 0; em < 2; em++) {
		util_set_path(em);
		ASSERT_EQ(libpidfd_get_info(PIDFD_SELF_PROCESS, &info,
					    sizeof(info)), 0);
		ns = libpidfd_get_namespace(PIDFD_SELF_PROCESS,
					    PIDFD_GET_UTS_NAMESPACE);
		ASSERT_GE(ns, 0);
		ASSERT_EQ(fstat(ns, &st), 0);
		close(ns);
	}
	child = fork();
	ASSERT_GE(child, 0);
	if (child == 0) {
		fork_child_checks(getppid(), st.st_ino);
		fflush(stdout);
		_exit(0);
	}
	ASSERT_EQ(waitpid(child, &status, 0), child);
	ASSERT_EQ(status, 0);
}

/* ------------------------------------------------------------------------
 * unshare(CLONE_FILES): a thread with a file table of its own asks about
 * a pidfd in it, while the same number names another process's pidfd in
 * the rest of the process.
 */
struct own_table {
	int number;      /* the same fd number in both tables */
	pid_t mine;      /* the process behind it in the thread's table */
	pid_t theirs;    /* and in the process's */
	int ok;
};

static void *with_own_table(void *arg)
{
	struct own_table *o = arg;
	int fd;

	if (unshare(CLONE_FILES) != 0)
		return NULL;
	fd = libpidfd_open(o->mine, 0);
	if (fd < 0 || dup2(fd, o->number) != o->number)
		return NULL;
	close(fd);
	for (int em = 0; em < 2; em++) {
		struct pidfd_info info = { .mask = 0 };

		util_set_path(em);
		if (libpidfd_getpid(o->number) != o->mine)
			return NULL;
		if (libpidfd_get_info(o->number, &info, sizeof(info)) != 0 ||
		    info.pid != (uint32_t)o->mine ||
		    info.ruid != UID_BASE + 1)
			return NULL;
		fd = libpidfd_get_namespace(o->number, PIDFD_GET_UTS_NAMESPACE);
		if (fd < 0)
			return NULL;
		close(fd);
		if (libpidfd_send_signal(o->number, 0, NULL, 0) != 0)
			return NULL;
	}
	o->ok = 1;
	return NULL;
}

TEST(thread_with_its_own_file_table_is_answered_from_it)
{
	struct own_table o = { .number = 200 };
	int mine, theirs;
	pthread_t th;

	REQUIRE_PRIVILEGE("gives children other credentials");
	o.mine = util_spawn(become, (void *)(uintptr_t)(UID_BASE + 1), &mine);
	o.theirs = util_spawn(become, (void *)(uintptr_t)(UID_BASE + 2), &theirs);
	ASSERT_EQ(dup2(theirs, o.number), o.number);
	ASSERT_EQ(pthread_create(&th, NULL, with_own_table, &o), 0);
	ASSERT_EQ(pthread_join(th, NULL), 0);
	ASSERT_EQ(o.ok, 1);
	/* And the process's own table still answers for its own pidfd. */
	for (int em = 0; em < 2; em++) {
		util_set_path(em);
		ASSERT_EQ(libpidfd_getpid(o.number), o.theirs);
	}
	util_kill_reap(mine);
	util_kill_reap(theirs);
}

/* ------------------------------------------------------------------------
 * exec: a pidfd inherited across exec, asked about by the new program
 * (this test binary again, running this very test with the environment
 * telling it so), in the caller's mode and on both paths.
 */
#define EXEC_ENV "LIBPIDFD_TEST_EXEC"

static void after_exec(const char *how)
{
	int fd, pid, uid;
	struct pidfd_info info = { .mask = PIDFD_INFO_CGROUPID };

	ASSERT_EQ(sscanf(how, "%d %d %d", &fd, &pid, &uid), 3);
	for (int em = 0; em < 2; em++) {
		util_set_path(em);
		ASSERT_EQ(libpidfd_getpid(fd), pid);
		ASSERT_EQ(libpidfd_get_info(fd, &info, sizeof(info)), 0);
		ASSERT_EQ(info.pid, pid);
		ASSERT_EQ(info.ruid, uid);
		ASSERT_EQ(libpidfd_getpid(PIDFD_SELF_PROCESS), getpid());
		ASSERT_EQ(libpidfd_send_signal(fd, 0, NULL, 0), 0);
	}
}

TEST(calls_after_exec_on_an_inherited_pidfd)
{
	const char *how = getenv(EXEC_ENV);
	char env[64], self[4096];
	int fd, status;
	pid_t pid, child;
	ssize_t n;

	if (how) {
		after_exec(how);
		return;
	}
	REQUIRE_PRIVILEGE("gives a child other credentials");
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	ASSERT_GE(n, 1);
	self[n] = '\0';
	pid = util_spawn(become, (void *)(uintptr_t)(UID_BASE + 3), &fd);
	/* The library's pidfds are close-on-exec; this one is passed on. */
	ASSERT_EQ(fcntl(fd, F_SETFD, 0), 0);
	snprintf(env, sizeof(env), "%d %d %u", fd, pid, UID_BASE + 3);
	child = fork();
	ASSERT_GE(child, 0);
	if (child == 0) {
		setenv(EXEC_ENV, env, 1);
		execl(self, self, "calls_after_exec_on_an_inherited_pidfd",
		      (char *)NULL);
		_exit(127);
	}
	ASSERT_EQ(waitpid(child, &status, 0), child);
	ASSERT_EQ(status, 0);
	util_kill_reap(fd);
}

/* ------------------------------------------------------------------------
 * The lock-free caches (the probe table, LIBPIDFD_EMULATE's, the cgroup2
 * mount's seqlock), filled from cold by threads released at once, then
 * rewritten while the others read: the threads switch between two cgroup
 * namespaces whose lookups go through two different cgroup2 mounts, so
 * every switch stores the other mount. make check runs this under
 * ThreadSanitizer too.
 */
#define CACHE_THREADS 4

static struct {
	pthread_barrier_t start;
	int fd, ns[2], rounds;
	pid_t pid;
	uint64_t id;
	struct wrongs wrongs;
} C;

static void cache_wrong(const char *what, int round, long r, int err)
{
	note_wrong(&C.wrongs, "%s, round %d: %ld %s", what, round, r,
		   err ? lpfd_errno_name(err) : "0");
}

static void *cache_user(void *arg)
{
	int t = (int)(uintptr_t)arg;
	struct libpidfd_features f;
	long r;

	pthread_barrier_wait(&C.start);
	/* Cold caches: every thread may probe and read the environment. */
	if ((r = libpidfd_features(&f, sizeof(f))) != 0)
		cache_wrong("features", -1, r, errno);
	if ((r = libpidfd_getpid(C.fd)) != C.pid)
		cache_wrong("getpid", -1, r, errno);
	if ((r = libpidfd_send_signal(C.fd, 0, NULL, 0)) != 0)
		cache_wrong("send_signal", -1, r, errno);
	/* The cgroup2 mount is cached by the emulation only. */
	util_set_path(1);
	for (int i = 0; i < C.rounds; i++) {
		struct pidfd_info info = { .mask = PIDFD_INFO_CGROUPID };

		if (setns(C.ns[(i + t) & 1], CLONE_NEWCGROUP) != 0)
			cache_wrong("setns", i, -1, errno);
		r = libpidfd_get_info(C.fd, &info, sizeof(info));
		if (r != 0 || info.pid != (uint32_t)C.pid)
			cache_wrong("get_info", i, r, errno);
		else if (!(info.mask & PIDFD_INFO_CGROUPID) ||
			 info.cgroupid != C.id)
			cache_wrong("cgroupid", i, (long)info.cgroupid, 0);
	}
	return NULL;
}

static void write_pid_to(const char *dir, pid_t pid)
{
	char procs[700], buf[16];
	int f, n = snprintf(buf, sizeof(buf), "%d\n", pid);

	snprintf(procs, sizeof(procs), "%s/cgroup.procs", dir);
	f = open(procs, O_WRONLY | O_CLOEXEC);
	ASSERT_GE(f, 0);
	ASSERT_EQ(write(f, buf, (size_t)n), n);
	close(f);
}

/* In a child of the test: base is its cgroup, base/t its target's. */
static void threads_share_cold_caches(const char *base, const char *t,
				      const char *mnt)
{
	pthread_t th[CACHE_THREADS];

	write_pid_to(base, getpid());
	C.pid = util_spawn(become, (void *)(uintptr_t)UID_BASE, &C.fd);
	write_pid_to(t, C.pid);
	C.id = util_cgroup_id(t);
	C.rounds = strcmp(harness_mode(), "uml") == 0 ? 50 : 300;
	/* A second namespace rooted at base, with a cgroup2 mount of its own. */
	ASSERT_EQ(unshare(CLONE_NEWNS), 0);
	ASSERT_EQ(mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL), 0);
	C.ns[0] = open("/proc/thread-self/ns/cgroup", O_RDONLY | O_CLOEXEC);
	ASSERT_EQ(unshare(CLONE_NEWCGROUP), 0);
	C.ns[1] = open("/proc/thread-self/ns/cgroup", O_RDONLY | O_CLOEXEC);
	ASSERT_TRUE(C.ns[0] >= 0 && C.ns[1] >= 0);
	ASSERT_EQ(mount("cgroup2", mnt, "cgroup2", 0, NULL), 0);
	ASSERT_EQ(setns(C.ns[0], CLONE_NEWCGROUP), 0);
	ASSERT_EQ(pthread_barrier_init(&C.start, NULL, CACHE_THREADS), 0);
	for (int i = 0; i < CACHE_THREADS; i++)
		ASSERT_EQ(pthread_create(&th[i], NULL, cache_user,
					 (void *)(uintptr_t)i), 0);
	for (int i = 0; i < CACHE_THREADS; i++)
		pthread_join(th[i], NULL);
	util_kill_reap(C.fd);
	umount2(mnt, MNT_DETACH);
	expect_no_wrongs(&C.wrongs);
}

TEST_TIMEOUT(threads_fill_and_rewrite_the_caches_at_once, 60)
{
	const char *root = util_cgroup2_mount();
	char base[600], t[620], mnt[64];
	int status;
	pid_t child;

	REQUIRE_PRIVILEGE("creates cgroups and mounts");
	ASSERT_TRUE(root[0]); /* the suite mounts cgroup2 where there is none */
	snprintf(base, sizeof(base), "%s/libpidfd-caches-%d", root, getpid());
	snprintf(t, sizeof(t), "%s/t", base);
	snprintf(mnt, sizeof(mnt), "/tmp/libpidfd-caches-%d", getpid());
	ASSERT_EQ(mkdir(base, 0755), 0);
	ASSERT_EQ(mkdir(t, 0755), 0);
	ASSERT_EQ(mkdir(mnt, 0755), 0);
	fflush(stdout);
	child = fork();
	ASSERT_GE(child, 0);
	if (child == 0) {
		threads_share_cold_caches(base, t, mnt);
		fflush(stdout);
		_exit(0);
	}
	ASSERT_EQ(waitpid(child, &status, 0), child);
	rmdir(mnt);
	util_cgroup_remove(t);
	util_cgroup_remove(base);
	ASSERT_EQ(status, 0);
}
