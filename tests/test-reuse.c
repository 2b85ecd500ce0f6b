/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * PID reuse: a pidfd must never describe another process than its own.
 *
 * In a private pid namespace (with its own /proc) the tests force pids to
 * be reused with clone3's set_tid, which works on every kernel from 5.5
 * (ns_last_pid needs CONFIG_CHECKPOINT_RESTORE, which the 6.1 UML kernel
 * lacks). Each process ("generation") carries uids and gids of its own, so
 * any answer holding another generation's ids is a wrong answer. Every
 * answer must be ESRCH or the pidfd's own process's data; both library
 * paths are run in every mode: one reuse at a time, thousands while other
 * threads query, and one in the middle of a call.
 */
#include <fcntl.h>
#include <libpidfd.h>
#include <linux/filter.h>
#include <linux/futex.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>

#include "util.h"

/* ------------------------------------------------------------------------
 * One reuse at a time: a child is reaped and a new process made to take
 * its pid, then the stale pidfd is queried on both paths. The new process
 * has other credentials, so an answer describing it would be seen.
 */
#define ROUNDS 200

/*
 * fork() with a chosen pid (0: any); the child sets its uid, says so
 * through a pipe and waits. Returns once the uid is set.
 */
static pid_t spawn_with_pid(pid_t want, uid_t uid)
{
	int ready[2], pidfd;
	char c = 0;
	pid_t pid;

	ASSERT_EQ(pipe2(ready, O_CLOEXEC), 0);
	pid = util_clone(0, want, &pidfd);
	if (pid == 0) {
		syscall(UTIL_SYS_setresuid, uid, uid, uid);
		if (write(ready[1], &c, 1) != 1)
			_exit(98);
		for (;;)
			pause(); /* aarch64 has no SYS_pause */
	}
	close(ready[1]);
	if (pid > 0) {
		ASSERT_EQ(read(ready[0], &c, 1), 1);
		close(pidfd);
	}
	close(ready[0]);
	return pid;
}

static void expect_stale(int fd, bool emulate)
{
	struct pidfd_info info = { .mask = PIDFD_INFO_CGROUPID };

	char link[64];

	util_set_path(emulate);
	ASSERT_ERRNO(libpidfd_get_info(fd, &info, sizeof(info)), ESRCH);
	ASSERT_ERRNO(libpidfd_getpid(fd), ESRCH);
	ASSERT_ERRNO(libpidfd_proc_open(fd, "status", O_RDONLY), ESRCH);
	ASSERT_ERRNO(libpidfd_proc_open(fd, "", O_PATH | O_DIRECTORY), ESRCH);
	ASSERT_ERRNO(libpidfd_proc_readlink(fd, "ns/pid", link, sizeof(link)),
		     ESRCH);
}

static void reuse_rounds(void)
{
	for (int i = 0; i < ROUNDS; i++) {
		pid_t victim, reused;
		int fd, status;

		victim = spawn_with_pid(0, 1000);
		ASSERT_GE(victim, 2);
		fd = libpidfd_open(victim, 0);
		ASSERT_GE(fd, 0);
		kill(victim, SIGKILL);
		ASSERT_EQ(waitpid(victim, &status, 0), victim);
		reused = spawn_with_pid(victim, 2000);
		ASSERT_EQ(reused, victim);
		expect_stale(fd, true);
		if (util_have_native_info())
			expect_stale(fd, false);
		/* The fresh process is there and is the other one. */
		{
			struct pidfd_info info = { .mask = 0 };
			int nfd = libpidfd_open(reused, 0);

			ASSERT_GE(nfd, 0);
			ASSERT_EQ(libpidfd_get_info(nfd, &info, sizeof(info)), 0);
			ASSERT_EQ(info.ruid, 2000);
			close(nfd);
		}
		kill(reused, SIGKILL);
		ASSERT_EQ(waitpid(reused, &status, 0), reused);
		close(fd);
	}
}

TEST_TIMEOUT(stale_pidfd_after_forced_reuse, 120)
{
	util_in_pidns(reuse_rounds, true);
}

/* ------------------------------------------------------------------------
 * Torture: thousands of reuses while other threads query the stale pidfds.
 */
#define SLOTS 4                 /* pids reused side by side */
#define REUSES 2000             /* in all, across the slots */
#define QUERIERS 2
#define FIRST_PID 300           /* above the threads' own pids */
#define UID_BASE 100000u

/*
 * A published pidfd and the uid of its process. A writer retires an
 * entry by storing fd = -1 and waiting until no reader is inside it, so a
 * reader never queries an fd number that has been closed and reused.
 */
struct entry {
	int fd;
	unsigned int uid;
	int busy;
};

static struct {
	struct entry e[SLOTS][2]; /* per slot: the live and the stale pidfd */
	struct util_gen gen[SLOTS];
	int stop, epoch;
	long answers, esrch, wrong;
	char first_wrong[256];
} T;

static void note_wrong(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
static void note_wrong(const char *fmt, ...)
{
	va_list ap;

	if (__atomic_fetch_add(&T.wrong, 1, __ATOMIC_SEQ_CST) != 0)
		return;
	va_start(ap, fmt);
	vsnprintf(T.first_wrong, sizeof(T.first_wrong), fmt, ap);
	va_end(ap);
}

/* The answer for a pidfd of the process at pid with this uid. */
static void check_info(int r, int err, const struct pidfd_info *i, pid_t pid,
		       unsigned int uid)
{
	unsigned int gid = uid + UTIL_GID_OFF;

	if (r != 0) {
		if (err == ESRCH)
			__atomic_fetch_add(&T.esrch, 1, __ATOMIC_RELAXED);
		else
			note_wrong("get_info: errno %d", err);
		return;
	}
	__atomic_fetch_add(&T.answers, 1, __ATOMIC_RELAXED);
	if (i->pid != (uint32_t)pid || i->tgid != (uint32_t)pid ||
	    i->ppid != 1 || i->ruid != uid || i->euid != uid ||
	    i->suid != uid || i->fsuid != uid || i->rgid != gid ||
	    i->egid != gid || i->sgid != gid || i->fsgid != gid)
		note_wrong("get_info of pid %d uid %u: pid %u ppid %u uid %u/%u gid %u",
			   pid, uid, i->pid, i->ppid, i->ruid, i->euid, i->rgid);
}

/*
 * The status file through libpidfd_proc_open(), read after the call: the
 * process's own, or ESRCH from the call or from the read (the file is
 * bound to the process, reaped since).
 */
static void query_status(int fd, pid_t pid, unsigned int uid)
{
	char buf[2048], want[48];
	int f = libpidfd_proc_open(fd, "status", O_RDONLY);
	ssize_t n = f < 0 ? -1 : read(f, buf, sizeof(buf) - 1);
	int err = errno;

	if (f >= 0)
		close(f);
	if (n < 0) {
		if (err == ESRCH)
			__atomic_fetch_add(&T.esrch, 1, __ATOMIC_RELAXED);
		else
			note_wrong("proc_open: errno %d", err);
		return;
	}
	buf[n] = '\0';
	__atomic_fetch_add(&T.answers, 1, __ATOMIC_RELAXED);
	snprintf(want, sizeof(want), "\nPid:\t%d\n", pid);
	if (!strstr(buf, want))
		note_wrong("proc_open status of pid %d: another pid", pid);
	snprintf(want, sizeof(want), "\nUid:\t%u\t%u\t", uid, uid);
	if (!strstr(buf, want))
		note_wrong("proc_open status of pid %d uid %u: another uid", pid, uid);
}

static void query(int fd, pid_t pid, unsigned int uid, unsigned int what)
{
	struct pidfd_info info;
	int r;

	switch (what % 8) {
	case 3:
		query_status(fd, pid, uid);
		return;
	case 0:
	case 1:
	case 2:
		r = libpidfd_getpid(fd);
		if (r == pid)
			__atomic_fetch_add(&T.answers, 1, __ATOMIC_RELAXED);
		else if (r == -1 && errno == ESRCH)
			__atomic_fetch_add(&T.esrch, 1, __ATOMIC_RELAXED);
		else
			note_wrong("getpid of %d: %d errno %d", pid, r, errno);
		return;
	default:
		memset(&info, 0, sizeof(info));
		/* Now and then the cgroup too: three more /proc reads. */
		info.mask = what % 8 == 7 ? PIDFD_INFO_CGROUPID : 0;
		r = libpidfd_get_info(fd, &info, sizeof(info));
		check_info(r, errno, &info, pid, uid);
	}
}

/*
 * Queriers make a few calls after each reuse, racing the writer's next
 * kill, reap and respawn, then wait for the next reuse: left unbounded
 * they would starve the writer (a /proc call costs ~0.4 ms under UML).
 */
static void next_epoch(void)
{
	__atomic_fetch_add(&T.epoch, 1, __ATOMIC_SEQ_CST);
	syscall(SYS_futex, &T.epoch, FUTEX_WAKE_PRIVATE, QUERIERS, NULL);
}

static void *querier(void *arg)
{
	unsigned int seed = (unsigned int)(uintptr_t)arg;
	int per_epoch = strcmp(harness_mode(), "uml") == 0 ? 2 : 8;

	for (int n = 0; !__atomic_load_n(&T.stop, __ATOMIC_SEQ_CST); n++) {
		unsigned int x = rand_r(&seed);
		int epoch = __atomic_load_n(&T.epoch, __ATOMIC_SEQ_CST);
		int s = (int)(x % SLOTS);
		struct entry *e = &T.e[s][(x >> 8) & 1];
		int fd;

		util_set_path((x >> 9) & 1);
		__atomic_fetch_add(&e->busy, 1, __ATOMIC_SEQ_CST);
		fd = __atomic_load_n(&e->fd, __ATOMIC_SEQ_CST);
		if (fd >= 0)
			query(fd, FIRST_PID + s, e->uid, x >> 10);
		__atomic_fetch_sub(&e->busy, 1, __ATOMIC_SEQ_CST);
		if (n % per_epoch == per_epoch - 1)
			syscall(SYS_futex, &T.epoch, FUTEX_WAIT_PRIVATE, epoch,
				NULL);
	}
	return NULL;
}

static void retire(struct entry *e)
{
	int fd = __atomic_exchange_n(&e->fd, -1, __ATOMIC_SEQ_CST);

	while (__atomic_load_n(&e->busy, __ATOMIC_SEQ_CST))
		sched_yield();
	if (fd >= 0)
		close(fd);
}

static void publish(struct entry *e, int fd, unsigned int uid)
{
	e->uid = uid;
	__atomic_store_n(&e->fd, fd, __ATOMIC_SEQ_CST);
}

/*
 * One reuse of a slot's pid: kill and reap the live generation (its pidfd
 * stays published, now stale), start the next one at the same pid, then
 * publish it in place of the older stale pidfd.
 */
static void reuse(int s, int gen, int *live)
{
	pid_t pid = FIRST_PID + s;
	unsigned int uid = UID_BASE + (unsigned int)(gen * SLOTS + s);
	struct entry *older = &T.e[s][(gen + 1) & 1];
	int fd;

	retire(older);
	if (*live >= 0)
		util_kill_reap_keep_fd(*live);
	if (util_spawn_gen(&T.gen[s], uid, pid, &fd) != pid)
		FAIL("could not start generation %d at pid %d: %s", gen, pid,
		     strerror(errno));
	publish(older, fd, uid);
	*live = fd;
	next_epoch();
}

static void torture(void)
{
	pthread_t q[QUERIERS];
	int live[SLOTS], reuses = 0;

	for (int s = 0; s < SLOTS; s++) {
		live[s] = -1;
		T.e[s][0].fd = T.e[s][1].fd = -1;
	}
	for (int i = 0; i < QUERIERS; i++)
		ASSERT_EQ(pthread_create(&q[i], NULL, querier,
					 (void *)(uintptr_t)(i + 1)), 0);
	for (int gen = 0; reuses < REUSES; gen++)
		for (int s = 0; s < SLOTS; s++, reuses += gen > 0)
			reuse(s, gen, &live[s]);
	__atomic_store_n(&T.stop, 1, __ATOMIC_SEQ_CST);
	next_epoch();
	for (int i = 0; i < QUERIERS; i++)
		pthread_join(q[i], NULL);
	printf("# %d reuses: %ld answers, %ld ESRCH, %ld wrong\n", reuses,
	       T.answers, T.esrch, T.wrong);
	if (T.wrong)
		FAIL("%ld wrong answers, the first: %s", T.wrong, T.first_wrong);
	ASSERT_GE(reuses, REUSES);
	ASSERT_TRUE(T.answers > 0 && T.esrch > 0);
}

TEST_TIMEOUT(reuse_torture_never_answers_for_another_process, 120)
{
	util_in_pidns(torture, true);
}

/* ------------------------------------------------------------------------
 * A reuse in the middle of a call. The calling thread runs under a seccomp
 * filter that stops it at its /proc opens, its pidfd_send_signal (the
 * emulation's final liveness check) and its ioctls (the native path), one
 * stop after the other; at stop k the supervising thread kills and reaps
 * the target and starts another process at the same pid, then lets the
 * call go on. Whatever k, the answer must be ESRCH.
 */
#define MID_PID 400
#define UID_OLD 1111u
#define UID_NEW 2222u

struct mid_call {
	int what;           /* 0 getpid; 1-3 get_info with masks[what];
			       4 proc_open("status") and a read; 5 proc_readlink */
	int emulated;       /* library path */
	unsigned int sig_action; /* filter action for pidfd_send_signal */
	int pidfd;
	int listener;       /* -1 until the worker installed its filter */
	int ret, err;
	struct pidfd_info info;
	char text[1024];    /* what proc_open's file or proc_readlink said */
	bool pid_read_before_reuse; /* an fdinfo open came before stop k */
};

static const uint64_t masks[] = {
	0, 0, PIDFD_INFO_CGROUPID,
	PIDFD_INFO_EXIT | PIDFD_INFO_COREDUMP | PIDFD_INFO_SUPPORTED_MASK,
};

static int install_filter(unsigned int sig_action)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_openat, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_openat2, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_ioctl, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_pidfd_send_signal, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, sig_action),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = sizeof(f) / sizeof(f[0]), .filter = f };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
		return -1;
	return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
			    SECCOMP_FILTER_FLAG_NEW_LISTENER, &prog);
}

/* The worker: filter itself (this thread only), then make the one call. */
static void *mid_worker(void *arg)
{
	struct mid_call *c = arg;
	int l;

	l = install_filter(c->sig_action);

	__atomic_store_n(&c->listener, l < 0 ? -2 : l, __ATOMIC_SEQ_CST);
	if (l < 0)
		return NULL;
	memset(&c->info, 0, sizeof(c->info));
	memset(c->text, 0, sizeof(c->text));
	c->info.mask = masks[c->what % 4];
	if (c->what == 0)
		c->ret = libpidfd_getpid(c->pidfd);
	else if (c->what == 4)
		c->ret = libpidfd_proc_open(c->pidfd, "status", O_RDONLY);
	else if (c->what == 5)
		c->ret = (int)libpidfd_proc_readlink(c->pidfd, "ns/pid", c->text,
						     sizeof(c->text) - 1);
	else
		c->ret = libpidfd_get_info(c->pidfd, &c->info, sizeof(c->info));
	c->err = errno;
	if (c->what == 4 && c->ret >= 0) {
		ssize_t n = read(c->ret, c->text, sizeof(c->text) - 1);

		c->err = errno;
		close(c->ret);
		c->ret = n < 0 ? -1 : 0;
	}
	return NULL;
}

/* At stop k, the pid is reused; stops before it note an fdinfo open. */
struct reuse_at {
	struct mid_call *c;
	int k, *newfd;
	struct util_gen *g;
};

static bool reuse_at_stop(int stop, const struct seccomp_notif *req,
			  struct seccomp_notif_resp *resp, void *ctx)
{
	struct reuse_at *r = ctx;

	(void)resp;
	/* Same address space: the stopped thread's path is ours to read. */
	if (stop < r->k &&
	    (req->data.nr == SYS_openat || req->data.nr == SYS_openat2) &&
	    strstr((const char *)(uintptr_t)req->data.args[1], "/fdinfo/"))
		r->c->pid_read_before_reuse = true;
	if (stop == r->k) {
		util_kill_reap_keep_fd(r->c->pidfd);
		ASSERT_EQ(util_spawn_gen(r->g, UID_NEW, MID_PID, r->newfd),
			  MID_PID);
	}
	return false;
}

/*
 * Let the worker's stopped system calls go on, reusing the pid at stop k
 * (never if k < 0); returns the number of stops.
 */
static int supervise(struct mid_call *c, int k, struct util_gen *g,
		     int *newfd)
{
	struct reuse_at r = { c, k, newfd, g };

	return util_notif_serve(&c->listener, reuse_at_stop, &r);
}

/*
 * The one right answer once the process is reaped: ESRCH, or, where the
 * kernel keeps it (PIDFD_INFO_EXIT requested, native path), its exit
 * status alone, with no pid or credentials.
 */
static bool reaped_answer(const struct mid_call *c)
{
	if (c->ret == -1)
		return c->err == ESRCH;
	if (c->what >= 4)
		return false; /* the final check came after the reuse */
	/*
	 * A pid read while its process was alive was the right answer at
	 * that moment, as the kernel's own answer is: the number alone
	 * cannot be another process's.
	 */
	if (c->what == 0)
		return c->pid_read_before_reuse && c->ret == MID_PID;
	return c->what != 0 && c->ret == 0 &&
	       (c->info.mask & PIDFD_INFO_EXIT) &&
	       !(c->info.mask & (PIDFD_INFO_PID | PIDFD_INFO_CREDS)) &&
	       WIFSIGNALED(c->info.exit_code) &&
	       WTERMSIG(c->info.exit_code) == SIGKILL;
}

/* One call with a reuse at stop k; returns the number of stops. */
static int mid_call_once(struct mid_call *c, int k)
{
	static struct util_gen g[2];
	pthread_t w;
	int newfd = -1, stops;

	ASSERT_EQ(util_spawn_gen(&g[0], UID_OLD, MID_PID, &c->pidfd), MID_PID);
	c->listener = -1;
	c->pid_read_before_reuse = false;
	util_set_path(c->emulated);
	ASSERT_EQ(pthread_create(&w, NULL, mid_worker, c), 0);
	stops = supervise(c, k, &g[1], &newfd);
	pthread_join(w, NULL);
	if (k < 0) {
		/* No reuse: the call answers for the original process. */
		if (c->what == 0)
			ASSERT_EQ(c->ret, MID_PID);
		else if (c->what == 4)
			ASSERT_TRUE(c->ret == 0 && strstr(c->text, "\nUid:\t1111\t"));
		else if (c->what == 5)
			ASSERT_TRUE(c->ret > 0 && strncmp(c->text, "pid:[", 5) == 0);
		else if (c->ret != 0 || c->info.pid != MID_PID ||
			 c->info.ruid != UID_OLD)
			FAIL("undisturbed call %d: ret %d errno %d pid %u uid %u",
			     c->what, c->ret, c->err, c->info.pid, c->info.ruid);
		util_kill_reap_keep_fd(c->pidfd);
	} else if (stops <= k) {
		FAIL("call %d stopped %d times, never at stop %d", c->what,
		     stops, k);
	} else if (!reaped_answer(c)) {
		FAIL("call %d (%s path, signal action %#x) with reuse at stop %d of %d: "
		     "ret %d errno %d, mask %#llx pid %u uid %u (the new process has uid %u)",
		     c->what, c->emulated ? "emulated" : "native",
		     c->sig_action, k, stops, c->ret, c->err,
		     (unsigned long long)c->info.mask, c->info.pid,
		     c->info.ruid, UID_NEW);
	}
	if (newfd >= 0) {
		util_kill_reap(newfd);
	}
	close(c->pidfd);
	return stops;
}

static void mid_call_all(void)
{
	/* The liveness check stopped like the rest, or lied to with EPERM. */
	static const unsigned int sig_actions[] = {
		SECCOMP_RET_USER_NOTIF, SECCOMP_RET_ERRNO | EPERM,
	};
	int scenarios = 0, self = libpidfd_open(getpid(), 0);

	/* Probe the kernel before any filter is in place, on both paths. */
	for (int em = 0; em < 2; em++)
		for (size_t m = 0; m < sizeof(masks) / sizeof(masks[0]); m++) {
			struct pidfd_info warm = { .mask = masks[m] };

			util_set_path(em);
			ASSERT_EQ(libpidfd_get_info(self, &warm, sizeof(warm)), 0);
			ASSERT_EQ(libpidfd_getpid(self), getpid());
		}
	close(self);
	for (int em = 0; em < 2; em++)
		for (size_t a = 0; a < 2; a++)
			for (int what = 0; what < 6; what++) {
				struct mid_call c = {
					.what = what, .emulated = em,
					.sig_action = sig_actions[a],
				};
				int n = mid_call_once(&c, -1);

				for (int k = 0; k < n; k++, scenarios++)
					mid_call_once(&c, k);
			}
	printf("# %d calls with a reuse in their middle, none answered for the new process\n",
	       scenarios);
	ASSERT_TRUE(scenarios >= 16);
}

TEST_TIMEOUT(reuse_in_the_middle_of_a_call_gives_esrch, 60)
{
	util_in_pidns(mid_call_all, true);
}

/*
 * A generation keeps none of the descriptors it was copied: once we close
 * a pipe's write end, its reader sees the end while the generation lives.
 * (test-cli-reuse's newcomer, copied while another thread still held the
 * tool's stdout, once kept it open and the test waited for ever.)
 */
TEST(a_generation_keeps_no_descriptor)
{
	static struct util_gen g;
	struct pollfd p = { .events = POLLIN };
	int pipefd[2], fd;

	REQUIRE_PRIVILEGE("a generation sets its ids");
	ASSERT_EQ(pipe2(pipefd, O_CLOEXEC), 0);
	ASSERT_GE(util_spawn_gen(&g, 2000, 0, &fd), 1);
	close(pipefd[1]);
	p.fd = pipefd[0];
	ASSERT_EQ(poll(&p, 1, 0), 1); /* no waiting: it is over, or never */
	ASSERT_TRUE(p.revents & POLLHUP);
	close(pipefd[0]);
	util_kill_reap(fd);
}
