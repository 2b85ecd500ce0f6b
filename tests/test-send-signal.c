/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libpidfd_send_signal on the sentinels: which thread gets the signal, its
 * siginfo, the caller's siginfo, the PIDFD_SIGNAL_* scopes, and the errors,
 * on both paths (the seeds' pidfd_test.c checks, and more).
 */
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "internal.h"
#include "util.h"

/* What the SIGUSR1 handler saw last. */
static volatile pthread_t got_thread;
static volatile int got_count, got_code, got_pid, got_uid, got_value;

static void on_usr1(int sig, siginfo_t *si, void *uc)
{
	(void)sig, (void)uc;
	got_thread = pthread_self();
	got_code = si->si_code;
	got_pid = si->si_pid;
	got_uid = (int)si->si_uid;
	got_value = si->si_value.sival_int;
	got_count++;
}

static void install_handler(void)
{
	struct sigaction sa = { .sa_sigaction = on_usr1, .sa_flags = SA_SIGINFO };

	sigemptyset(&sa.sa_mask);
	ASSERT_EQ(sigaction(SIGUSR1, &sa, NULL), 0);
}

/* Send SIGUSR1 to value from the calling thread; it arrives before the return. */
static void send_and_check(int value, int code)
{
	int before = got_count;

	ASSERT_EQ(libpidfd_send_signal(value, SIGUSR1, NULL, 0), 0);
	ASSERT_EQ(got_count, before + 1);
	ASSERT_TRUE(pthread_equal(got_thread, pthread_self()));
	ASSERT_EQ(got_code, code);
	ASSERT_EQ(got_pid, getpid());
	ASSERT_EQ(got_uid, getuid());
}

static void check_main_thread(void *arg)
{
	(void)arg;
	send_and_check(PIDFD_SELF_THREAD, SI_TKILL);
	send_and_check(PIDFD_SELF_THREAD_GROUP, SI_USER);
	send_and_check(LIBPIDFD_SELF_THREAD_GROUP_OLD, SI_USER);
	send_and_check(PIDFD_SELF, SI_TKILL);
	send_and_check(PIDFD_SELF_PROCESS, SI_USER);
	ASSERT_EQ(libpidfd_send_signal(PIDFD_SELF_THREAD, 0, NULL, 0), 0);
}

TEST(signal_from_main_thread)
{
	install_handler();
	util_both_paths(check_main_thread, NULL);
}

static void *second_thread(void *arg)
{
	(void)arg;
	send_and_check(PIDFD_SELF_THREAD, SI_TKILL);
	ASSERT_TRUE(gettid() != getpid());
	return NULL;
}

static void in_second_thread(void *fn)
{
	util_in_thread(*(void *(**)(void *))fn, NULL);
}

/* With the handler installed, fn on a second thread, on each path. */
static void both_paths_in_thread(void *(*fn)(void *))
{
	install_handler();
	util_both_paths(in_second_thread, &fn);
}

TEST(signal_from_second_thread_reaches_it)
{
	both_paths_in_thread(second_thread);
}

/*
 * Which pending set a blocked SIGUSR1 lands in: the thread's own (SigPnd of
 * /proc/self/task/<tid>/status) or the process's (ShdPnd).
 */
static bool pending_in(pid_t tid, const char *field)
{
	char path[64], buf[4096], *p;
	unsigned long long mask;
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%d/status", tid);
	f = fopen(path, "r");
	ASSERT_TRUE(f != NULL);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	p = strstr(buf, field);
	ASSERT_TRUE(p != NULL);
	mask = strtoull(p + strlen(field), NULL, 16);
	return mask & (1ULL << (SIGUSR1 - 1));
}

static const sigset_t *usr1_set(void)
{
	static sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	return &set;
}

/*
 * Take a blocked SIGUSR1 with its siginfo. The raw call: glibc's
 * sigwaitinfo() reports the kernel's SI_TKILL as SI_USER.
 */
static int take_usr1(siginfo_t *si)
{
	return (int)syscall(SYS_rt_sigtimedwait, usr1_set(), si, NULL,
			    _NSIG / 8);
}

static void block_usr1(void)
{
	ASSERT_EQ(sigprocmask(SIG_BLOCK, usr1_set(), NULL), 0);
}

enum where { OWN_THREAD, LEADER_THREAD, PROCESS };

struct scope_case {
	int value;
	unsigned int flags;
	enum where where;
	int code;
};

static const struct scope_case scope_cases[] = {
	{ PIDFD_SELF_THREAD, 0, OWN_THREAD, SI_TKILL },
	{ PIDFD_SELF_THREAD, PIDFD_SIGNAL_THREAD, OWN_THREAD, SI_TKILL },
	{ PIDFD_SELF_THREAD, PIDFD_SIGNAL_THREAD_GROUP, PROCESS, SI_USER },
	{ PIDFD_SELF_THREAD_GROUP, 0, PROCESS, SI_USER },
	{ PIDFD_SELF_THREAD_GROUP, PIDFD_SIGNAL_THREAD, LEADER_THREAD, SI_TKILL },
	{ PIDFD_SELF_THREAD_GROUP, PIDFD_SIGNAL_THREAD_GROUP, PROCESS, SI_USER },
	{ LIBPIDFD_SELF_THREAD_GROUP_OLD, 0, PROCESS, SI_USER },
	{ LIBPIDFD_SELF_THREAD_GROUP_OLD, PIDFD_SIGNAL_THREAD, LEADER_THREAD, SI_TKILL },
};

/* One case from a second thread, SIGUSR1 blocked everywhere: where it waits. */
static void *scope_thread(void *arg)
{
	const struct scope_case *c = arg;
	pid_t self = gettid(), leader = getpid();

	ASSERT_EQ(libpidfd_send_signal(c->value, SIGUSR1, NULL, c->flags), 0);
	ASSERT_EQ(pending_in(self, "SigPnd:"), c->where == OWN_THREAD);
	ASSERT_EQ(pending_in(leader, "SigPnd:"), c->where == LEADER_THREAD);
	ASSERT_EQ(pending_in(self, "ShdPnd:"), c->where == PROCESS);
	if (c->where != LEADER_THREAD) {
		siginfo_t si;

		ASSERT_EQ(take_usr1(&si), SIGUSR1);
		ASSERT_EQ(si.si_code, c->code);
		ASSERT_EQ(si.si_pid, getpid());
		ASSERT_EQ(si.si_uid, getuid());
	}
	return NULL;
}

static void check_scopes(void *arg)
{
	(void)arg;
	for (size_t i = 0; i < sizeof(scope_cases) / sizeof(scope_cases[0]); i++) {
		const struct scope_case *c = &scope_cases[i];

		util_in_thread(scope_thread, (void *)c);
		if (c->where == LEADER_THREAD) {
			siginfo_t si;

			ASSERT_EQ(take_usr1(&si), SIGUSR1);
			ASSERT_EQ(si.si_code, c->code);
		}
		ASSERT_TRUE(!pending_in(getpid(), "SigPnd:"));
		ASSERT_TRUE(!pending_in(getpid(), "ShdPnd:"));
	}
}

TEST(signal_scope_flags_from_second_thread)
{
	block_usr1();
	util_both_paths(check_scopes, NULL);
}

static void check_process_group(void *arg)
{
	siginfo_t si;

	(void)arg;
	/* The harness made us a process group leader: the group is ours. */
	ASSERT_EQ(getpgrp(), getpid());
	for (size_t i = 1; i < UTIL_COUNT(util_self_values); i++) {
		ASSERT_EQ(libpidfd_send_signal(util_self_values[i], SIGUSR1,
					       NULL, PIDFD_SIGNAL_PROCESS_GROUP),
			  0);
		ASSERT_TRUE(pending_in(getpid(), "ShdPnd:"));
		ASSERT_EQ(take_usr1(&si), SIGUSR1);
		ASSERT_EQ(si.si_code, SI_USER);
		ASSERT_EQ(si.si_pid, getpid());
	}
	/* The main thread's tid is the group's id too. */
	ASSERT_EQ(libpidfd_send_signal(PIDFD_SELF_THREAD, SIGUSR1, NULL,
				       PIDFD_SIGNAL_PROCESS_GROUP), 0);
	ASSERT_EQ(take_usr1(&si), SIGUSR1);
}

static void *pgrp_of_thread_id(void *arg)
{
	(void)arg;
	/* No process group has a non-leader thread's id: the kernel's ESRCH. */
	ASSERT_ERRNO(libpidfd_send_signal(PIDFD_SELF_THREAD, SIGUSR1, NULL,
					  PIDFD_SIGNAL_PROCESS_GROUP), ESRCH);
	return NULL;
}

TEST(signal_process_group)
{
	block_usr1();
	util_both_paths(check_process_group, NULL);
	util_set_path(1);
	util_in_thread(pgrp_of_thread_id, NULL);
	util_set_path(0);
	util_in_thread(pgrp_of_thread_id, NULL);
}

static void queue_info(siginfo_t *si, int signo, int code, int value)
{
	memset(si, 0, sizeof(*si));
	si->si_signo = signo;
	si->si_code = code;
	si->si_pid = 4242; /* a caller's siginfo keeps what it says */
	si->si_uid = 77;
	si->si_value.sival_int = value;
}

static void check_caller_siginfo_main(void *arg)
{
	siginfo_t si;

	(void)arg;
	for (size_t i = 0; i < UTIL_COUNT(util_self_values); i++) {
		int before = got_count;

		queue_info(&si, SIGUSR1, SI_QUEUE, 100 + (int)i);
		ASSERT_EQ(libpidfd_send_signal(util_self_values[i], SIGUSR1, &si, 0), 0);
		ASSERT_EQ(got_count, before + 1);
		ASSERT_EQ(got_code, SI_QUEUE);
		ASSERT_EQ(got_pid, 4242);
		ASSERT_EQ(got_uid, 77);
		ASSERT_EQ(got_value, 100 + (int)i);
		/* To yourself, even what looks like kill() or tkill() goes. */
		queue_info(&si, SIGUSR1, SI_USER, 7);
		ASSERT_EQ(libpidfd_send_signal(util_self_values[i], SIGUSR1, &si, 0), 0);
		ASSERT_EQ(got_code, SI_USER);
		queue_info(&si, SIGUSR1, SI_TKILL, 7);
		ASSERT_EQ(libpidfd_send_signal(util_self_values[i], SIGUSR1, &si, 0), 0);
		ASSERT_EQ(got_code, SI_TKILL);
		/* si_signo must be sig. */
		queue_info(&si, SIGUSR2, SI_QUEUE, 1);
		ASSERT_ERRNO(libpidfd_send_signal(util_self_values[i], SIGUSR1, &si, 0),
			     EINVAL);
	}
	/* A process group is never "yourself". */
	queue_info(&si, SIGUSR1, SI_USER, 1);
	ASSERT_ERRNO(libpidfd_send_signal(PIDFD_SELF_THREAD_GROUP, SIGUSR1, &si,
					  PIDFD_SIGNAL_PROCESS_GROUP), EPERM);
	queue_info(&si, SIGUSR1, SI_TKILL, 1);
	ASSERT_ERRNO(libpidfd_send_signal(PIDFD_SELF_THREAD, SIGUSR1, &si,
					  PIDFD_SIGNAL_PROCESS_GROUP), EPERM);
}

TEST(signal_caller_siginfo_main_thread)
{
	install_handler();
	util_both_paths(check_caller_siginfo_main, NULL);
}

static void *caller_siginfo_thread(void *arg)
{
	siginfo_t si;
	int before = got_count;

	(void)arg;
	queue_info(&si, SIGUSR1, SI_USER, 1);
	ASSERT_EQ(libpidfd_send_signal(PIDFD_SELF_THREAD, SIGUSR1, &si, 0), 0);
	ASSERT_EQ(got_count, before + 1);
	ASSERT_TRUE(pthread_equal(got_thread, pthread_self()));
	/* The group is the leader's pid, which is not this thread. */
	ASSERT_ERRNO(libpidfd_send_signal(PIDFD_SELF_THREAD_GROUP, SIGUSR1, &si, 0),
		     EPERM);
	/* Its own pid, though to the whole group: still "yourself". */
	ASSERT_EQ(libpidfd_send_signal(PIDFD_SELF_THREAD, SIGUSR1, &si,
				       PIDFD_SIGNAL_THREAD_GROUP), 0);
	queue_info(&si, SIGUSR1, SI_QUEUE, 9);
	ASSERT_EQ(libpidfd_send_signal(PIDFD_SELF_THREAD, SIGUSR1, &si,
				       PIDFD_SIGNAL_THREAD), 0);
	ASSERT_EQ(got_value, 9);
	return NULL;
}

TEST(signal_caller_siginfo_second_thread)
{
	both_paths_in_thread(caller_siginfo_thread);
}

/* SI_QUEUE to our own process group: the kernel's flag, where it has it. */
static void check_pgrp_queue(void *arg)
{
	siginfo_t si, got;
	int r;

	(void)arg;
	queue_info(&si, SIGUSR1, SI_QUEUE, 5);
	r = libpidfd_send_signal(PIDFD_SELF_THREAD_GROUP, SIGUSR1, &si,
				 PIDFD_SIGNAL_PROCESS_GROUP);
	if (!util_kernel_has(LPFD_FEAT_PIDFD_THREAD)) {
		/* Before 6.9 no PIDFD_SIGNAL_PROCESS_GROUP to do it with. */
		ASSERT_EQ(r, -1);
		ASSERT_EQ(errno, EINVAL);
		return;
	}
	ASSERT_EQ(r, 0);
	ASSERT_EQ(take_usr1(&got), SIGUSR1);
	ASSERT_EQ(got.si_code, SI_QUEUE);
	ASSERT_EQ(got.si_value.sival_int, 5);
}

TEST(signal_process_group_caller_siginfo)
{
	block_usr1();
	util_both_paths(check_pgrp_queue, NULL);
}

/*
 * A siginfo at the end of a readable page, the next one unreadable: the
 * kernel copies its fixed part (48 bytes), and the rest only for a layout
 * it does not know, so the answers differ by si_code and si_signo.
 */
static siginfo_t *siginfo_at_edge(void)
{
	long page = sysconf(_SC_PAGESIZE);
	char *m = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	ASSERT_TRUE(m != MAP_FAILED);
	ASSERT_EQ(mprotect(m + page, page, PROT_NONE), 0);
	return (siginfo_t *)(m + page - (sizeof(long) == 8 ? 48 : 32));
}

static void check_siginfo_errors(void *arg)
{
	siginfo_t si, *edge = siginfo_at_edge();
	int before;

	(void)arg;
	ASSERT_ERRNO(libpidfd_send_signal(PIDFD_SELF_THREAD, SIGUSR1,
					  (siginfo_t *)8, 0), EFAULT);
	/* An unknown si_code with a nonzero tail: E2BIG, even before EINVAL. */
	queue_info(&si, SIGUSR1, 100, 0);
	((char *)&si)[100] = 1;
	if (util_siginfo_tail_checked()) {
		ASSERT_ERRNO(libpidfd_send_signal(PIDFD_SELF_THREAD, SIGUSR1,
						  &si, 0), E2BIG);
		ASSERT_ERRNO(libpidfd_send_signal(PIDFD_SELF_THREAD, SIGUSR2,
						  &si, 0), E2BIG);
	} else {
		before = got_count;
		ASSERT_EQ(libpidfd_send_signal(PIDFD_SELF_THREAD, SIGUSR1,
					       &si, 0), 0);
		ASSERT_EQ(got_count, before + 1);
		ASSERT_ERRNO(libpidfd_send_signal(PIDFD_SELF_THREAD, SIGUSR2,
						  &si, 0), EINVAL);
	}
	/* Only the fixed part readable. */
	edge->si_signo = SIGUSR1;
	edge->si_errno = 0;
	edge->si_code = SI_QUEUE;
	if (util_siginfo_tail_checked()) {
		before = got_count;
		ASSERT_EQ(libpidfd_send_signal(PIDFD_SELF_THREAD, SIGUSR1,
					       edge, 0), 0);
		ASSERT_EQ(got_count, before + 1);
		ASSERT_ERRNO(libpidfd_send_signal(PIDFD_SELF_THREAD, SIGUSR2,
						  edge, 0), EINVAL);
	} else {
		/* The compat path copies all 128 bytes first. */
		ASSERT_ERRNO(libpidfd_send_signal(PIDFD_SELF_THREAD, SIGUSR1,
						  edge, 0), EFAULT);
	}
	edge->si_code = -100; /* unknown: the tail is read, and faults */
	ASSERT_ERRNO(libpidfd_send_signal(PIDFD_SELF_THREAD, SIGUSR1, edge, 0),
		     EFAULT);
	ASSERT_ERRNO(libpidfd_send_signal(PIDFD_SELF_THREAD, SIGUSR2, edge, 0),
		     EFAULT);
	/* Bad signals, bad flags (before the fd is looked at). */
	ASSERT_ERRNO(libpidfd_send_signal(PIDFD_SELF_THREAD, 65, NULL, 0), EINVAL);
	ASSERT_ERRNO(libpidfd_send_signal(PIDFD_SELF_THREAD_GROUP, -1, NULL, 0),
		     EINVAL);
	ASSERT_ERRNO(libpidfd_send_signal(PIDFD_SELF_THREAD, SIGUSR1, NULL,
					  PIDFD_SIGNAL_THREAD |
						  PIDFD_SIGNAL_THREAD_GROUP),
		     EINVAL);
	ASSERT_ERRNO(libpidfd_send_signal(PIDFD_SELF_THREAD, SIGUSR1, NULL,
					  1U << 3), EINVAL);
	ASSERT_ERRNO(libpidfd_send_signal(-10002, SIGUSR1, NULL, 1U << 3),
		     EINVAL);
	for (size_t i = 0; i < UTIL_COUNT(util_bad_values); i++)
		ASSERT_ERRNO(libpidfd_send_signal(util_bad_values[i], 0, NULL, 0),
			     EBADF);
}

TEST(signal_errors_match_kernel)
{
	install_handler();
	util_both_paths(check_siginfo_errors, NULL);
}

/* A real pidfd is the kernel's call, flags and all. */
TEST(signal_real_pidfd_is_plain_kernel_call)
{
	int fd = libpidfd_open(getpid(), 0), r;

	install_handler();
	ASSERT_GE(fd, 0);
	ASSERT_EQ(libpidfd_send_signal(fd, SIGUSR1, NULL, 0), 0);
	ASSERT_EQ(got_code, SI_USER);
	r = libpidfd_send_signal(fd, SIGUSR1, NULL, PIDFD_SIGNAL_THREAD);
	if (!util_kernel_has(LPFD_FEAT_PIDFD_THREAD))
		ASSERT_TRUE(r == -1 && errno == EINVAL); /* flags: 6.9 */
	else
		ASSERT_TRUE(r == 0 && got_code == SI_TKILL);
	close(fd);
}

/* Nothing is cached: after fork() the sentinels name the child. */
TEST(signal_after_fork_names_the_child)
{
	pid_t pid;
	int status;

	install_handler();
	ASSERT_EQ(libpidfd_send_signal(PIDFD_SELF_PROCESS, SIGUSR1, NULL, 0), 0);
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		for (int emulate = 0; emulate < 2; emulate++) {
			util_set_path(emulate);
			send_and_check(PIDFD_SELF_PROCESS, SI_USER);
			send_and_check(PIDFD_SELF_THREAD, SI_TKILL);
		}
		_exit(0);
	}
	ASSERT_EQ(waitpid(pid, &status, 0), pid);
	ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}
