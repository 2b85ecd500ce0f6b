/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The library never does anything behind its caller's back: every public
 * function, on both paths, gives the same answers in a process that may
 * not create processes as in one that may.
 *   - A seccomp filter that kills on fork, vfork, clone and clone3 (the
 *     default action of systemd's SystemCallFilter= for a service that
 *     denies @process).
 *   - An unprivileged user at RLIMIT_NPROC 0 (a full pids cgroup answers
 *     the same EAGAIN).
 *   - The container runtimes' default seccomp profile, which answers EPERM
 *     to kcmp, pidfd_getfd and process_madvise without CAP_SYS_PTRACE:
 *     every path the library emulates still works there.
 *   - The pidfd tool's info, kill, features and wait under the first filter.
 * Each case runs in a fresh process, so that the library's kernel probes
 * run under the restriction too. The children leave with _exit(): under
 * LeakSanitizer a normal exit clones a tracer, which the filter would kill
 * (the tool, exec'd, gets detect_leaks=0 for the same reason).
 */
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <stddef.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>

#include "cli.h"
#include "internal.h"
#include "util.h"

#define NOBODY 65534

/* ------------------------------------------------------------------------
 * The filters.
 */
struct rule {
	int nr;
	unsigned int action;
};

static void install_filter(const struct rule *rules, int n)
{
	struct sock_filter f[2 + 2 * 8 + 1];
	struct sock_fprog prog = { .filter = f };
	int k = 0;

	ASSERT_TRUE(n <= 8);
	f[k++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
					      offsetof(struct seccomp_data, nr));
	for (int i = 0; i < n; i++) {
		f[k++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
						      (unsigned int)rules[i].nr, 0, 1);
		f[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
						      rules[i].action);
	}
	f[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	prog.len = (unsigned short)k;
	ASSERT_EQ(prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), 0);
	ASSERT_EQ(syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog), 0);
}

static const struct rule no_process[] = {
	{ SYS_clone, SECCOMP_RET_KILL_PROCESS },
	{ SYS_clone3, SECCOMP_RET_KILL_PROCESS },
#ifdef SYS_fork /* aarch64 has neither: its fork() and vfork() are clone */
	{ SYS_fork, SECCOMP_RET_KILL_PROCESS },
	{ SYS_vfork, SECCOMP_RET_KILL_PROCESS },
#endif
};

static const struct rule container_profile[] = {
	{ SYS_kcmp, SECCOMP_RET_ERRNO | EPERM },
	{ SYS_pidfd_getfd, SECCOMP_RET_ERRNO | EPERM },
	{ SYS_process_madvise, SECCOMP_RET_ERRNO | EPERM },
	{ SYS_clone3, SECCOMP_RET_ERRNO | ENOSYS },
};

/* ------------------------------------------------------------------------
 * Every public function, on a child of the test and on the caller itself.
 */
static struct {
	int live;    /* a child of the test process, alive */
	int zombie;  /* a child that exited, unreaped */
	pid_t live_pid;
} F;

#define NCALLS 18

static long call(int i, struct pidfd_info *info, void *arg)
{
	siginfo_t si;
	long r;

	(void)arg;
	info->mask = PIDFD_INFO_CGROUPID | PIDFD_INFO_EXIT | PIDFD_INFO_SUPPORTED_MASK;
	switch (i) {
	case 0: return libpidfd_get_info(F.live, info, sizeof(*info));
	case 1: return libpidfd_get_info(F.zombie, info, sizeof(*info));
	case 2:
		r = libpidfd_get_info(PIDFD_SELF_PROCESS, info, sizeof(*info));
		/* Each table runs in a process of its own. */
		info->pid = info->pid == (uint32_t)getpid();
		info->tgid = info->tgid == (uint32_t)getpid();
		return r;
	case 3: return libpidfd_getpid(F.live);
	case 4: return libpidfd_getpid(PIDFD_SELF_PROCESS) == getpid();
	case 5: return libpidfd_send_signal(F.live, 0, NULL, 0);
	case 6: return libpidfd_send_signal(PIDFD_SELF, 0, NULL, 0);
	case 7: return util_fd_answer(libpidfd_getfd(PIDFD_SELF, 0, 0));
	case 8: return util_fd_answer(libpidfd_getfd(PIDFD_SELF_PROCESS, 0, 0));
	case 9: return util_madvise_page(PIDFD_SELF, MADV_WILLNEED, 0);
	case 10: return libpidfd_process_mrelease(PIDFD_SELF, 0);
	case 11: return libpidfd_waitid(PIDFD_SELF, &si, WEXITED, NULL);
	case 12: return libpidfd_waitid(F.live, &si, WEXITED | WNOHANG, NULL);
	case 13: return util_fd_answer(libpidfd_get_namespace(F.live, PIDFD_GET_UTS_NAMESPACE));
	case 14: return util_fd_answer(libpidfd_get_namespace(PIDFD_SELF, PIDFD_GET_UTS_NAMESPACE));
	case 15: return util_fd_answer(libpidfd_open(F.live_pid, 0));
	case 16: return util_features_answer(info);
	default: return util_fd_answer(libpidfd_open(getpid(), PIDFD_THREAD));
	}
}


/*
 * An ordinary user: nobody where the test runs as root; elsewhere the
 * user it runs as already is one (a package builder's, whatever its
 * uid), and stays who it is.
 */
static void become_ordinary(void)
{
	if (geteuid() != 0)
		return;
	ASSERT_EQ(setresgid(NOBODY, NOBODY, NOBODY), 0);
	ASSERT_EQ(setresuid(NOBODY, NOBODY, NOBODY), 0);
}

/*
 * The table in a fresh child: as an ordinary user, nobody for root
 * (RLIMIT_NPROC 0 if limited), or as the caller under a filter; results
 * go to shared memory.
 */
struct sandbox {
	bool nobody, nproc0;
	const struct rule *rules;
	int nrules;
	int dumpable; /* as nobody: PR_SET_DUMPABLE to this, if 0 or 1 */
};

static void run_sandboxed(const struct sandbox *sb, struct util_answer *out)
{
	int status;
	pid_t pid = fork();

	ASSERT_GE(pid, 0);
	if (pid == 0) {
		if (sb->nobody) {
			struct rlimit rl = { 0, 0 };

			become_ordinary();
			if (sb->nproc0)
				ASSERT_EQ(setrlimit(RLIMIT_NPROC, &rl), 0);
			if (sb->dumpable == 0 || sb->dumpable == 1)
				ASSERT_EQ(prctl(PR_SET_DUMPABLE, sb->dumpable,
						0, 0, 0), 0);
		}
		if (sb->rules)
			install_filter(sb->rules, sb->nrules);
		*(bool *)&out[2 * NCALLS] = util_own_fdinfo_refused();
		util_answer_table(out, NCALLS, call, NULL);
		fflush(stdout);
		_exit(0);
	}
	ASSERT_EQ(waitpid(pid, &status, 0), pid);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		FAIL("sandboxed child: status 0x%x%s", status,
		     WIFSIGNALED(status) && WTERMSIG(status) == SIGSYS ?
		     " (SIGSYS: it tried to create a process)" : "");
}

static void fixtures(void)
{
	util_spawn(NULL, NULL, &F.live);
	F.live_pid = libpidfd_getpid(F.live);
	util_zombie(3, &F.zombie);
}

/* Every call on fresh fixtures, in sb against outside it; what names sb. */
static void compare(const struct sandbox *sb, const char *what)
{
	/* Each table, then whether its process could read its own fdinfo. */
	size_t n = (2 * NCALLS + 1) * sizeof(struct util_answer);
	struct util_answer *ref = mmap(NULL, 2 * n, PROT_READ | PROT_WRITE,
				  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	struct util_answer *got = ref + 2 * NCALLS + 1;
	const bool *refused = (const bool *)&got[2 * NCALLS];
	struct sandbox free_sb = { sb->nobody, false, NULL, 0,
				   sb->dumpable == 0 ? 1 : -1 };
	int bad = 0;

	fixtures();
	ASSERT_TRUE(ref != MAP_FAILED);
	run_sandboxed(&free_sb, ref);
	run_sandboxed(sb, got);
	for (int i = 0; i < 2 * NCALLS; i++) {
		if (got[i].ret == ref[i].ret && got[i].err == ref[i].err &&
		    !memcmp(&got[i].info, &ref[i].info, sizeof(ref[i].info)))
			continue;
		/* Not dumpable where the fdinfo is refused: EACCES, documented. */
		if (sb->dumpable == 0 && *refused && got[i].ret == -1 &&
		    got[i].err == EACCES)
			continue;
		printf("# %s, call %d (%s path): %ld/%s, unrestricted %ld/%s\n",
		       what, i % NCALLS, i < NCALLS ? "native" : "emulated",
		       got[i].ret, lpfd_errno_name(got[i].err) ?: "0",
		       ref[i].ret, lpfd_errno_name(ref[i].err) ?: "0");
		bad++;
	}
	ASSERT_EQ(bad, 0);
	/*
	 * The calls worked at all: the live child answers on both paths, or,
	 * for a caller that is not dumpable on a kernel whose fdinfo it may
	 * not read (before 5.14), the documented EACCES.
	 */
	for (int path = 0; path < 2; path++) {
		const struct util_answer *r = &got[path * NCALLS];

		if (sb->nobody && *refused && r->ret == -1 && r->err == EACCES)
			continue;
		ASSERT_EQ(r->ret, 0);
	}
	munmap(ref, 2 * n);
}

TEST(every_function_answers_the_same_where_clone_kills)
{
	compare(&(struct sandbox){ false, false, no_process, 4, -1 },
		"kill-on-clone filter");
}

TEST(every_function_answers_the_same_as_nobody_at_nproc_0)
{
	compare(&(struct sandbox){ true, true, NULL, 0, -1 },
		"nobody, RLIMIT_NPROC 0");
}

/*
 * A caller that is not dumpable: nobody made dumpable again, against
 * nobody with PR_SET_DUMPABLE 0 (the other way, changed ids, is every
 * nobody table above). The same answers, but EACCES for what needs the
 * caller's own fdinfo where the kernel refuses it (before 5.14).
 */
TEST(every_function_answers_the_same_when_not_dumpable)
{
	compare(&(struct sandbox){ true, false, NULL, 0, 0 },
		"nobody, PR_SET_DUMPABLE 0");
}

TEST(every_function_answers_the_same_as_nobody_where_clone_kills)
{
	compare(&(struct sandbox){ true, true, no_process, 4, -1 },
		"nobody, RLIMIT_NPROC 0, kill-on-clone filter");
}

/* ------------------------------------------------------------------------
 * The container runtimes' default profile: the self paths still work.
 */
static int leader_fd = -1;

/* A thread of its own: getfd and madvise on the process, from there. */
static void *from_thread(void *arg)
{
	long *out = arg;
	int fd = libpidfd_getfd(PIDFD_SELF_PROCESS, leader_fd, 0);
	struct stat a, b;

	out[0] = fd >= 0 && fstat(fd, &a) == 0 && fstat(leader_fd, &b) == 0 &&
		 a.st_ino == b.st_ino && a.st_dev == b.st_dev;
	if (fd >= 0)
		close(fd);
	out[1] = util_madvise_page(PIDFD_SELF_PROCESS, MADV_WILLNEED, 0);
	errno = 0;
	out[2] = libpidfd_process_madvise(PIDFD_SELF, (struct iovec *)1, 1,
					  MADV_WILLNEED, 0);
	out[3] = errno;
	return NULL;
}

static void container_profile_child(void)
{
	long out[4];
	pthread_t t;

	leader_fd = memfd_create("leader", MFD_CLOEXEC);
	ASSERT_GE(leader_fd, 0);
	install_filter(container_profile, 4);
	ASSERT_EQ(pthread_create(&t, NULL, from_thread, out), 0);
	ASSERT_EQ(pthread_join(t, NULL), 0);
	ASSERT_EQ(out[0], 1);
	ASSERT_EQ(out[1], 4096);
	ASSERT_EQ(out[2], -1);
	ASSERT_EQ(out[3], EFAULT);
}

static void container_profile_on(void *emulated)
{
	util_set_path(*(const bool *)emulated);
	container_profile_child();
}

TEST(self_paths_work_under_the_container_seccomp_profile)
{
	static const bool path[] = { false, true };

	util_in_child(container_profile_on, (void *)&path[0]);
	util_in_child(container_profile_on, (void *)&path[1]);
}

/* ------------------------------------------------------------------------
 * The tool under the kill-on-clone filter.
 */
static void filtered(char **argv, void *arg)
{
	(void)argv;
	(void)arg;
	setenv("ASAN_OPTIONS", "detect_leaks=0", 1);
	install_filter(no_process, 4);
}

static int tool(struct cli_out *o, char **argv)
{
	int r = cli_run_pre(o, argv, filtered, NULL);

	if (WIFSIGNALED(o->status))
		FAIL("%s %s: killed by signal %d", argv[0], argv[1],
		     WTERMSIG(o->status));
	return r;
}

#define TOOL(o, ...) tool((o), (char *[]){ __VA_ARGS__, NULL })

TEST(the_tool_makes_no_process_either)
{
	static struct cli_out o;
	char pid[16];
	int pidfd;
	pid_t child;

	ASSERT_EQ(TOOL(&o, "pidfd", "features"), 0);
	ASSERT_EQ(TOOL(&o, "pidfd", "info", "self"), 0);
	ASSERT_TRUE(strstr(o.out, "PID") != NULL);
	child = util_spawn(NULL, NULL, &pidfd);
	snprintf(pid, sizeof(pid), "%d", child);
	ASSERT_EQ(TOOL(&o, "pidfd", "info", pid), 0);
	ASSERT_EQ(TOOL(&o, "pidfd", "kill", "-s", "0", pid), 0);
	ASSERT_EQ(TOOL(&o, "pidfd", "kill", "-s", "KILL", pid), 0);
	util_wait_exit(pidfd);
	/* A zombie by now: wait sees it end at once. */
	ASSERT_EQ(TOOL(&o, "pidfd", "wait", pid), 0);
}
