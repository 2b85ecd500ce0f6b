/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The emulation reads one procfs per call and proves it ours before it
 * believes a pid. These tests take /proc away from it in the middle of a
 * call, fork it into another pid namespace, and lie to it in the fdinfo;
 * every answer must be the right one or a clear errno, never another pid
 * namespace's pids or another process's data.
 *
 * The middle of a call: the calling thread runs under a seccomp filter
 * that stops every system call it makes (user notification); at stop k
 * the supervising thread replaces /proc, in the test's private mount
 * namespace, by the parent pid namespace's procfs, a child pid namespace's
 * (with a decoy process at the target's pid), an empty tmpfs or nothing,
 * then lets the call go on.
 */
#include <libpidfd.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <sys/ioctl.h>
#include <sys/stat.h>

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <sys/mount.h>

#include "internal.h"
#include "util.h"

#define TARGET_PID 400
#define TARGET_UID 3333u
#define DECOY_UID 4444u
#define REUSED_UID 5555u

/* ------------------------------------------------------------------------
 * A stopped call: one worker thread, stopped at every system call (or at
 * reads only), and the supervisor's hook run at each stop.
 */
enum call_kind { C_GETPID, C_INFO, C_INFO_CGROUP, C_NAMESPACE, C_PROC_OPEN,
		 C_PROC_READLINK, C_COUNT };
static const char *const call_name[C_COUNT] = { "getpid", "get_info",
						"get_info +CGROUPID",
						"get_namespace(uts)",
						"proc_open(status)",
						"proc_readlink(ns/uts)" };

struct call {
	enum call_kind kind;
	int pidfd;
	bool reads_only; /* stop read() only; everything else runs */
	int listener;    /* -1 until the worker has its filter, -2 failed */
	int ret, err;
	struct pidfd_info info;
	char text[512]; /* what proc_open's file or proc_readlink's link said */
};

/* The status file read whole (a read after the call, as a caller's). */
static void read_status(struct call *c)
{
	ssize_t n = read(c->ret, c->text, sizeof(c->text) - 1);

	if (n < 0)
		c->err = errno;
	close(c->ret);
	c->ret = n < 0 ? -1 : 0;
	c->text[n < 0 ? 0 : n] = '\0';
}

static void make_call(struct call *c)
{
	memset(&c->info, 0, sizeof(c->info));
	c->info.mask = c->kind == C_INFO_CGROUP ? PIDFD_INFO_CGROUPID : 0;
	switch (c->kind) {
	case C_GETPID:
		c->ret = libpidfd_getpid(c->pidfd);
		break;
	case C_NAMESPACE:
		c->ret = libpidfd_get_namespace(c->pidfd, PIDFD_GET_UTS_NAMESPACE);
		break;
	case C_PROC_OPEN:
		memset(c->text, 0, sizeof(c->text));
		c->ret = libpidfd_proc_open(c->pidfd, "status", O_RDONLY);
		c->err = errno;
		if (c->ret >= 0)
			read_status(c);
		return;
	case C_PROC_READLINK:
		memset(c->text, 0, sizeof(c->text));
		c->ret = (int)libpidfd_proc_readlink(c->pidfd, "ns/uts", c->text,
						     sizeof(c->text) - 1);
		break;
	default:
		c->ret = libpidfd_get_info(c->pidfd, &c->info, sizeof(c->info));
	}
	c->err = errno;
}

static void *worker(void *arg)
{
	struct call *c = arg;
	int l = util_notif_filter(c->reads_only ? SYS_read : -1);

	__atomic_store_n(&c->listener, l < 0 ? -2 : l, __ATOMIC_SEQ_CST);
	if (l >= 0)
		make_call(c);
	return NULL;
}

/* Run the call on a worker, hook at each stop; returns the number of stops. */
static int run_call(struct call *c, util_stop_hook hook, void *ctx)
{
	pthread_t w;
	int stops;

	c->listener = -1;
	ASSERT_EQ(pthread_create(&w, NULL, worker, c), 0);
	stops = util_notif_serve(&c->listener, hook, ctx);
	pthread_join(w, NULL);
	return stops;
}

/* ------------------------------------------------------------------------
 * The procfs instances to swap in, under a private staging directory.
 */
enum proc_kind { K_PARENT, K_CHILD, K_TMPFS, K_NONE, K_COUNT };
static const char *const kind_name[K_COUNT] = { "the parent pid namespace's procfs",
						"a child pid namespace's procfs",
						"an empty tmpfs", "nothing" };
static char g_stage[64];
static char g_dir[K_COUNT + 1][96]; /* the kinds, then our own procfs */
#define OWN K_COUNT
static pid_t g_child_ns_init; /* killed at the end: its namespace with it */

/* The child namespace's init: its procfs, a decoy at the target's pid. */
static void child_ns_init(int ready)
{
	static struct util_gen decoy;
	int fd;

	if (mount("proc", g_dir[K_CHILD], "proc", 0, NULL) != 0 ||
	    util_spawn_gen(&decoy, DECOY_UID, TARGET_PID, &fd) != TARGET_PID ||
	    write(ready, "r", 1) != 1)
		_exit(1);
	for (;;)
		pause();
}

static void start_child_ns(void)
{
	int pid_pipe[2], ready[2];
	char c;
	pid_t helper;

	ASSERT_EQ(pipe(pid_pipe), 0);
	ASSERT_EQ(pipe(ready), 0);
	helper = fork();
	ASSERT_GE(helper, 0);
	if (helper == 0) {
		pid_t init;

		if (unshare(CLONE_NEWPID) != 0)
			_exit(1);
		init = fork();
		if (init == 0)
			child_ns_init(ready[1]);
		_exit(write(pid_pipe[1], &init, sizeof(init)) == sizeof(init) ? 0 : 1);
	}
	ASSERT_EQ(waitpid(helper, NULL, 0), helper);
	ASSERT_EQ(read(pid_pipe[0], &g_child_ns_init, sizeof(g_child_ns_init)),
		  (ssize_t)sizeof(g_child_ns_init));
	ASSERT_EQ(read(ready[0], &c, 1), 1);
	close(pid_pipe[0]);
	close(pid_pipe[1]);
	close(ready[0]);
	close(ready[1]);
}

static void stop_child_ns(void)
{
	kill(g_child_ns_init, SIGKILL);
	waitpid(g_child_ns_init, NULL, 0);
}

/*
 * Called in the init of our pid namespace, in a private mount namespace,
 * while /proc is still the parent namespace's.
 */
static void stage_procs(void)
{
	ASSERT_EQ(unshare(CLONE_NEWNS), 0);
	ASSERT_EQ(mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL), 0);
	ASSERT_EQ(mkdir(g_stage, 0700), 0);
	ASSERT_EQ(mount("tmpfs", g_stage, "tmpfs", 0, NULL), 0);
	for (int k = 0; k <= K_COUNT; k++) {
		static const char *const sub[] = { "parent", "child", "tmpfs",
						   "none", "own" };

		snprintf(g_dir[k], sizeof(g_dir[k]), "%s/%s", g_stage, sub[k]);
		ASSERT_EQ(mkdir(g_dir[k], 0700), 0);
	}
	ASSERT_EQ(mount("/proc", g_dir[K_PARENT], NULL, MS_BIND | MS_REC, NULL), 0);
	ASSERT_EQ(mount("tmpfs", g_dir[K_TMPFS], "tmpfs", 0, NULL), 0);
	ASSERT_EQ(mount("proc", g_dir[OWN], "proc", 0, NULL), 0);
	start_child_ns();
}

/* Make /proc what kind says (our own procfs for OWN). */
static void set_proc(int kind)
{
	while (umount2("/proc", MNT_DETACH) == 0)
		;
	if (kind != K_NONE &&
	    mount(g_dir[kind], "/proc", NULL, MS_BIND, NULL) != 0)
		FAIL("bind %s on /proc: %s", g_dir[kind], strerror(errno));
}

/* Our pid namespace's init: stage the procfs instances, then run fn. */
static void in_staged_pidns(void (*fn)(void))
{
	int status;
	pid_t pid;

	REQUIRE_PRIVILEGE("creates a pid namespace");
	snprintf(g_stage, sizeof(g_stage), "/tmp/libpidfd-swap-%d", (int)getpid());
	ASSERT_EQ(unshare(CLONE_NEWPID), 0);
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		stage_procs();
		set_proc(OWN);
		fn();
		stop_child_ns();
		fflush(stdout);
		_exit(0);
	}
	ASSERT_EQ(waitpid(pid, &status, 0), pid);
	rmdir(g_stage);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		FAIL("pid namespace init failed (status 0x%x)", status);
}

/* ------------------------------------------------------------------------
 * Judging answers.
 */
static uint64_t g_cgroupid; /* the target's, as an undisturbed call says */
static ino_t g_uts;         /* the target's uts namespace (ours) */

static void fail_call(const struct call *c, const char *when, const char *what)
{
	FAIL("%s %s: %s (ret %d errno %s, pid %u uid %u mask %#llx)",
	     call_name[c->kind], when, what, c->ret, lpfd_errno_name(c->err),
	     c->info.pid, c->info.ruid, (unsigned long long)c->info.mask);
}

/* The target's own answer; or, if allowed, a failure with errno err. */
static void expect_right(const struct call *c, const char *when, int err)
{
	char want[64];
	struct stat st;

	if (c->ret < 0) {
		if (!err || c->err != err)
			fail_call(c, when, "failed");
		return;
	}
	switch (c->kind) {
	case C_GETPID:
		if (c->ret != TARGET_PID)
			fail_call(c, when, "another pid");
		return;
	case C_NAMESPACE:
		ASSERT_EQ(fstat(c->ret, &st), 0);
		close(c->ret);
		if (st.st_ino != g_uts)
			fail_call(c, when, "another namespace");
		return;
	case C_PROC_OPEN:
		snprintf(want, sizeof(want), "\nPid:\t%d\n", TARGET_PID);
		if (!strstr(c->text, want))
			fail_call(c, when, "another process's status");
		snprintf(want, sizeof(want), "\nUid:\t%u\t", TARGET_UID);
		if (!strstr(c->text, want))
			fail_call(c, when, "another process's status");
		return;
	case C_PROC_READLINK:
		snprintf(want, sizeof(want), "uts:[%llu]", (unsigned long long)g_uts);
		if (strcmp(c->text, want) != 0)
			fail_call(c, when, "another process's link");
		return;
	default:
		if (c->info.pid != TARGET_PID || c->info.ruid != TARGET_UID ||
		    c->info.rgid != TARGET_UID + UTIL_GID_OFF)
			fail_call(c, when, "another process's pid or ids");
		if ((c->info.mask & PIDFD_INFO_CGROUPID) &&
		    c->info.cgroupid != g_cgroupid)
			fail_call(c, when, "another cgroup");
	}
}

static void learn_target(int pidfd)
{
	struct pidfd_info info = { .mask = PIDFD_INFO_CGROUPID };
	struct stat st;

	ASSERT_EQ(stat("/proc/self/ns/uts", &st), 0);
	g_uts = st.st_ino;
	ASSERT_EQ(libpidfd_get_info(pidfd, &info, sizeof(info)), 0);
	ASSERT_EQ(info.pid, TARGET_PID);
	g_cgroupid = info.cgroupid;
}

/* Every call kind on both paths, undisturbed: the kernel probed, caches warm. */
static void warm_up(int pidfd)
{
	for (int em = 0; em < 2; em++)
		for (int k = 0; k < C_COUNT; k++) {
			struct call c = { .kind = (enum call_kind)k, .pidfd = pidfd };

			util_set_path(em);
			make_call(&c);
			expect_right(&c, "undisturbed", 0);
		}
}

/* ------------------------------------------------------------------------
 * /proc swapped at every stop.
 */
struct swap {
	int at, kind;
};

static bool swap_at(int stop, const struct seccomp_notif *req,
		    struct seccomp_notif_resp *resp, void *ctx)
{
	const struct swap *s = ctx;

	(void)req;
	(void)resp;
	if (stop == s->at)
		set_proc(s->kind);
	return false;
}

static void swap_every_stop(void)
{
	static struct util_gen target;
	int pidfd, scenarios = 0;
	char when[160];

	ASSERT_EQ(util_spawn_gen(&target, TARGET_UID, TARGET_PID, &pidfd),
		  TARGET_PID);
	learn_target(pidfd);
	warm_up(pidfd);
	for (int em = 0; em < 2; em++)
		for (int k = 0; k < C_COUNT; k++) {
			struct call c = { .kind = (enum call_kind)k, .pidfd = pidfd };
			struct swap none = { -1, OWN };
			int n;

			util_set_path(em);
			n = run_call(&c, swap_at, &none);
			expect_right(&c, "undisturbed", 0);
			for (int kind = 0; kind < K_COUNT; kind++)
				for (int at = 0; at < n; at++, scenarios++) {
					struct swap s = { at, kind };

					run_call(&c, swap_at, &s);
					set_proc(OWN);
					snprintf(when, sizeof(when),
						 "(%s path) with /proc swapped for %s at stop %d of %d",
						 em ? "emulated" : "native",
						 kind_name[kind], at, n);
					expect_right(&c, when, ENOSYS);
				}
		}
	printf("# %d calls with /proc swapped in their middle: each right or ENOSYS\n",
	       scenarios);
	ASSERT_TRUE(scenarios >= 4 * K_COUNT * 10);
	util_kill_reap_keep_fd(pidfd);
	close(pidfd);
}

TEST_TIMEOUT(proc_swapped_at_every_system_call_never_misleads, 240)
{
	in_staged_pidns(swap_every_stop);
}

/* ------------------------------------------------------------------------
 * A fork into a new pid namespace: nothing the parent learnt may mislead
 * the child, which is pid 1 like its parent and sees the parent's /proc.
 */
static void expect_not_ours(int pidfd, const char *when)
{
	for (int em = 0; em < 2; em++)
		for (int k = 0; k < C_COUNT; k++) {
			struct call c = { .kind = (enum call_kind)k, .pidfd = pidfd };

			util_set_path(em);
			make_call(&c);
			/* Outside our pid namespace: no pid, no ids; its namespace may be. */
			if (c.ret >= 0 && k == C_NAMESPACE)
				expect_right(&c, when, 0);
			else if (c.ret >= 0)
				fail_call(&c, when, "answered for a process outside the namespace");
			else if (c.err != ENOSYS && c.err != EREMOTE &&
				 c.err != ESRCH)
				fail_call(&c, when, "unexpected errno");
		}
}

static void forked_child(void *parent_pidfd)
{
	static struct util_gen own;
	int parent_target = *(int *)parent_pidfd;
	int pidfd;

	ASSERT_EQ(getpid(), 1);
	expect_not_ours(parent_target, "in the child, through the parent's /proc");
	ASSERT_EQ(unshare(CLONE_NEWNS), 0);
	ASSERT_EQ(mount("proc", "/proc", "proc", 0, NULL), 0);
	expect_not_ours(parent_target, "in the child, through its own /proc");
	/* A process of its own at the same pid, with the same ids. */
	ASSERT_EQ(util_spawn_gen(&own, TARGET_UID, TARGET_PID, &pidfd),
		  TARGET_PID);
	warm_up(pidfd);
	util_kill_reap_keep_fd(pidfd);
}

static void fork_into_pidns(void)
{
	static struct util_gen target;
	int pidfd;

	ASSERT_EQ(getpid(), 1);
	ASSERT_EQ(util_spawn_gen(&target, TARGET_UID, TARGET_PID, &pidfd),
		  TARGET_PID);
	learn_target(pidfd);
	warm_up(pidfd);
	ASSERT_EQ(unshare(CLONE_NEWPID), 0);
	util_in_child(forked_child, &pidfd);
	warm_up(pidfd); /* and the parent is still right */
	util_kill_reap_keep_fd(pidfd);
}

TEST(fork_into_a_new_pid_namespace_keeps_nothing_that_misleads)
{
	util_in_pidns(fork_into_pidns, true);
}

/* ------------------------------------------------------------------------
 * On Linux 5.3 and 5.4 a pidfd's fdinfo kept the pid of a reaped process. The
 * supervisor answers the worker's read of the fdinfo itself with such a
 * "Pid:" line (the same address space: it writes the worker's buffer),
 * while the pid already belongs to another process.
 */
struct fake {
	int pidfd;
	int faked;
};

static bool fake_fdinfo(int stop, const struct seccomp_notif *req,
			struct seccomp_notif_resp *resp, void *ctx)
{
	struct fake *f = ctx;
	char link[64], want[64], text[128];
	ssize_t n;
	int len;

	(void)stop;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", (int)req->data.args[0]);
	n = readlink(link, want, sizeof(want) - 1);
	if (n < 0)
		return false;
	want[n] = '\0';
	snprintf(link, sizeof(link), "/fdinfo/%d", f->pidfd);
	n = (ssize_t)strlen(want) - (ssize_t)strlen(link);
	if (n < 0 || strcmp(want + n, link) != 0)
		return false;
	len = snprintf(text, sizeof(text), "pos:\t0\nflags:\t02000002\nmnt_id:\t15\nPid:\t%d\n",
		       TARGET_PID);
	if ((size_t)len > req->data.args[2])
		return false;
	memcpy((void *)(uintptr_t)req->data.args[1], text, (size_t)len);
	resp->val = len;
	f->faked++;
	return true;
}

static void reaped_but_fdinfo_says_alive(void)
{
	static struct util_gen old, reuse;
	int stale, fresh;

	ASSERT_EQ(util_spawn_gen(&old, TARGET_UID, TARGET_PID, &stale),
		  TARGET_PID);
	learn_target(stale);
	warm_up(stale);
	util_kill_reap_keep_fd(stale);
	ASSERT_EQ(util_spawn_gen(&reuse, REUSED_UID, TARGET_PID, &fresh),
		  TARGET_PID);
	for (int k = 0; k < C_COUNT; k++) {
		struct call c = { .kind = (enum call_kind)k, .pidfd = stale,
				  .reads_only = true };
		struct fake f = { .pidfd = stale };

		util_set_path(1);
		run_call(&c, fake_fdinfo, &f);
		if (f.faked == 0)
			FAIL("%s read no fdinfo to fake", call_name[k]);
		if (c.ret >= 0 || c.err != ESRCH)
			fail_call(&c, "on a reaped process whose fdinfo shows its old pid",
				  "not ESRCH");
	}
	util_kill_reap_keep_fd(fresh);
	close(fresh);
	close(stale);
}

TEST(emulated_answers_check_liveness_whatever_the_fdinfo_says)
{
	util_in_pidns(reaped_but_fdinfo_says_alive, true);
}

/* ------------------------------------------------------------------------
 * A mount inside the proven procfs: a forged status or fdinfo file, or
 * another process's directory, bound over the ones a call reads. The
 * procfs instance is ours and proven; the file is not of it. Where the
 * kernel has openat2 (5.6) the emulation refuses to cross the mount.
 */
#define DECOY_PID (TARGET_PID + 1)

/* A file g_stage/name holding text. */
static void forge(const char *name, const char *text)
{
	char file[96];
	int fd;

	snprintf(file, sizeof(file), "%s/%s", g_stage, name);
	fd = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

static void bind_over(const char *what, const char *over)
{
	if (mount(what, over, NULL, MS_BIND, NULL) != 0)
		FAIL("bind %s on %s: %s", what, over, strerror(errno));
}

static void every_call_right_or_enosys(int pidfd, const char *when)
{
	for (int em = 0; em < 2; em++)
		for (int k = 0; k < C_COUNT; k++) {
			struct call c = { .kind = (enum call_kind)k, .pidfd = pidfd };
			char w[160];

			util_set_path(em);
			make_call(&c);
			snprintf(w, sizeof(w), "(%s path) %s",
				 em ? "emulated" : "native", when);
			/* The "native" path is /proc's too where the kernel lacks the call. */
			expect_right(&c, w, ENOSYS);
		}
}

static void mounts_inside_proc(void)
{
	static struct util_gen target, decoy;
	char over[96], what[96], text[128];
	int pidfd, decoy_fd;

	ASSERT_EQ(util_spawn_gen(&target, TARGET_UID, TARGET_PID, &pidfd),
		  TARGET_PID);
	ASSERT_EQ(util_spawn_gen(&decoy, DECOY_UID, DECOY_PID, &decoy_fd),
		  DECOY_PID);
	learn_target(pidfd);
	warm_up(pidfd);
	if (!util_kernel_has(LPFD_FEAT_OPENAT2))
		FAIL("openat2 missing: the emulation would cross these mounts");

	forge("status", "Name:\tforged\nState:\tS (sleeping)\nTgid:\t400\n"
		"Pid:\t400\nPPid:\t1\nUid:\t0\t0\t0\t0\nGid:\t0\t0\t0\t0\n");
	snprintf(what, sizeof(what), "%s/status", g_stage);
	snprintf(over, sizeof(over), "/proc/%d/status", TARGET_PID);
	bind_over(what, over);
	every_call_right_or_enosys(pidfd, "with a forged status bound over the target's");
	ASSERT_EQ(umount2(over, MNT_DETACH), 0);

	/* procfs takes no mount on an fd's own file: on its directory, then. */
	snprintf(what, sizeof(what), "%s/fdinfo", g_stage);
	ASSERT_EQ(mkdir(what, 0755), 0);
	snprintf(over, sizeof(over), "fdinfo/%d", pidfd);
	snprintf(text, sizeof(text), "pos:\t0\nflags:\t02000002\nmnt_id:\t15\n"
		 "Pid:\t%d\nNSpid:\t%d\n", DECOY_PID, DECOY_PID);
	forge(over, text);
	snprintf(over, sizeof(over), "/proc/%d/task/%d/fdinfo", getpid(), gettid());
	bind_over(what, over);
	every_call_right_or_enosys(pidfd, "with a forged fdinfo bound over the pidfd's");
	ASSERT_EQ(umount2(over, MNT_DETACH), 0);

	snprintf(what, sizeof(what), "/proc/%d", DECOY_PID);
	snprintf(over, sizeof(over), "/proc/%d", TARGET_PID);
	bind_over(what, over);
	every_call_right_or_enosys(pidfd, "with another process's directory bound over the target's");
	ASSERT_EQ(umount2(over, MNT_DETACH), 0);

	warm_up(pidfd); /* and right again once the mounts are gone */
	util_kill_reap_keep_fd(decoy_fd);
	util_kill_reap_keep_fd(pidfd);
	close(decoy_fd);
	close(pidfd);
}

TEST(mounts_inside_proc_never_mislead)
{
	in_staged_pidns(mounts_inside_proc);
}

/*
 * Where openat2 is missing (before 5.6) or refused by a filter, the
 * emulation opens /proc's files with openat, says so in its features, and
 * still answers right.
 */
static void without_openat2(void *arg)
{
	struct pidfd_info info = { .mask = PIDFD_INFO_CGROUPID };
	struct libpidfd_features feat;
	int pidfd = *(int *)arg;

	ASSERT_EQ(util_errno_filter(SYS_openat2, ENOSYS), 0);
	lpfd_state_reset();
	ASSERT_EQ(libpidfd_features(&feat, sizeof(feat)), 0);
	ASSERT_EQ(feat.kernel & LIBPIDFD_KERNEL_OPENAT2, 0);
	util_set_path(1);
	ASSERT_EQ(libpidfd_get_info(pidfd, &info, sizeof(info)), 0);
	ASSERT_EQ(info.pid, TARGET_PID);
	ASSERT_EQ(info.ruid, TARGET_UID);
	ASSERT_EQ(info.cgroupid, g_cgroupid);
	ASSERT_EQ(libpidfd_getpid(pidfd), TARGET_PID);
}

static void fall_back_to_openat(void)
{
	static struct util_gen target;
	int pidfd;

	ASSERT_EQ(util_spawn_gen(&target, TARGET_UID, TARGET_PID, &pidfd),
		  TARGET_PID);
	learn_target(pidfd);
	util_in_child(without_openat2, &pidfd);
	util_kill_reap_keep_fd(pidfd);
	close(pidfd);
}

TEST(without_openat2_the_emulation_uses_openat)
{
	util_in_pidns(fall_back_to_openat, true);
}
