/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * pidfd kill, end to end: signals by name and number, a missing process,
 * and a pid that has been reused: the tool, handed the pidfd of the
 * process that had the pid, signals nobody, while the new owner lives on.
 */
#include <linux/sched.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/syscall.h>

#include <libpidfd.h>

#include "cli.h"
#include "util.h"

/*
 * Every signal's default action, unblocked: a test run under nohup, or
 * from a shell's background job, inherits SIGHUP or SIGINT ignored.
 */
static void default_signals(void *arg)
{
	sigset_t none;

	(void)arg;
	for (int sig = 1; sig < NSIG; sig++)
		signal(sig, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

/* Kill a child through the tool; how the child ended, as waitpid says. */
static int kill_child_with(const char *opt, const char *sig)
{
	struct cli_out o;
	char pidstr[16];
	siginfo_t si;
	int fd;

	util_spawn_text(default_signals, NULL, &fd, pidstr);
	if (opt && !sig)
		ASSERT_EQ(CLI(&o, "pidfd", "kill", (char *)opt, pidstr), 0);
	else if (opt)
		ASSERT_EQ(CLI(&o, "pidfd", "kill", (char *)opt, (char *)sig, pidstr), 0);
	else
		ASSERT_EQ(CLI(&o, "pidfd", "kill", pidstr), 0);
	ASSERT_EQ(o.out[0], '\0');
	ASSERT_EQ(o.err[0], '\0');
	ASSERT_EQ(waitid(P_PIDFD, (id_t)fd, &si, WEXITED), 0);
	close(fd);
	ASSERT_EQ(si.si_code, CLD_KILLED);
	return si.si_status;
}

TEST(kill_by_name_number_and_default)
{
	ASSERT_EQ(kill_child_with(NULL, NULL), SIGTERM);
	ASSERT_EQ(kill_child_with("-s", "KILL"), SIGKILL);
	ASSERT_EQ(kill_child_with("-s", "sigusr1"), SIGUSR1);
	ASSERT_EQ(kill_child_with("--signal", "SIGHUP"), SIGHUP);
	ASSERT_EQ(kill_child_with("-s", "10"), 10);
	ASSERT_EQ(kill_child_with("--signal", "RTMIN+2"), SIGRTMIN + 2);
}

/* kill(1)'s forms: the signal as the first option. */
TEST(kill_dash_signal_forms)
{
	ASSERT_EQ(kill_child_with("-9", NULL), SIGKILL);
	ASSERT_EQ(kill_child_with("-KILL", NULL), SIGKILL);
	ASSERT_EQ(kill_child_with("-SIGKILL", NULL), SIGKILL);
	ASSERT_EQ(kill_child_with("-hup", NULL), SIGHUP);
	ASSERT_EQ(kill_child_with("-RTMIN+1", NULL), SIGRTMIN + 1);
}

TEST(kill_signal_0_checks_existence)
{
	struct cli_out o;
	char pidstr[16];
	int fd;

	util_spawn_text(NULL, NULL, &fd, pidstr);
	ASSERT_EQ(CLI(&o, "pidfd", "kill", "-s", "0", pidstr, "self"), 0);
	ASSERT_EQ(libpidfd_send_signal(fd, 0, NULL, 0), 0);
	util_kill_reap(fd);
}

TEST(kill_missing_process_signals_the_others)
{
	struct cli_out o;
	char gone[16], live[16];
	siginfo_t si;
	int fd;
	pid_t pid = util_zombie(0, &fd);

	util_kill_reap(fd);
	snprintf(gone, sizeof(gone), "%d", pid);
	pid = util_spawn(NULL, NULL, &fd);
	snprintf(live, sizeof(live), "%d", pid);
	/* Partial success, as util-linux's kill has it: 64. */
	ASSERT_EQ(CLI(&o, "pidfd", "kill", "-s", "KILL", gone, live), 64);
	ASSERT_TRUE(strstr(o.err, "pidfd: cannot open process ") != NULL);
	ASSERT_TRUE(strstr(o.err, gone) != NULL);
	ASSERT_TRUE(strstr(o.err, "no such process") != NULL);
	ASSERT_EQ(waitid(P_PIDFD, (id_t)fd, &si, WEXITED), 0);
	ASSERT_EQ(si.si_status, SIGKILL);
	close(fd);
	/* None signalled: a failure, 1. */
	ASSERT_EQ(CLI(&o, "pidfd", "kill", "-s", "KILL", gone, gone), 1);
}

/* fork() with a chosen pid; the child waits to be signalled. */
static pid_t spawn_at(pid_t want)
{
	struct clone_args args = {
		.exit_signal = SIGCHLD,
		.set_tid = (uint64_t)(uintptr_t)&want,
		.set_tid_size = 1,
	};
	long pid = syscall(SYS_clone3, &args, sizeof(args));

	if (pid == 0)
		for (;;)
			pause();
	return (pid_t)pid;
}

static void pass_fd3(char **argv, void *arg)
{
	int fd = *(int *)arg;

	(void)argv;
	if (fd == 3 ? fcntl(3, F_SETFD, 0) < 0 : dup2(fd, 3) != 3)
		_exit(91);
}

/* pid 1 of a fresh pid namespace: the reuse, and the tool run on it. */
static void reuse_and_kill(void)
{
	struct cli_out o;
	char pidstr[16];
	int fd, status;
	pid_t old, reused;

	old = fork();
	ASSERT_GE(old, 0);
	if (old == 0)
		_exit(0);
	fd = libpidfd_open(old, 0);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(waitpid(old, &status, 0), old);
	reused = spawn_at(old);
	ASSERT_EQ(reused, old);

	/* The old process's pidfd: nothing is signalled, the error says why. */
	ASSERT_EQ(cli_run_pre(&o, (char *[]){ "pidfd", "kill", "-s", "KILL",
					      "fd:3", NULL }, pass_fd3, &fd), 1);
	ASSERT_TRUE(strstr(o.err, "fd:3") != NULL);
	ASSERT_TRUE(strstr(o.err, "no such process") != NULL);
	ASSERT_EQ(waitpid(reused, &status, WNOHANG), 0);
	ASSERT_EQ(kill(reused, 0), 0);

	/* The pid itself names the new owner now, which is signalled. */
	snprintf(pidstr, sizeof(pidstr), "%d", reused);
	ASSERT_EQ(CLI(&o, "pidfd", "kill", "-s", "KILL", pidstr), 0);
	ASSERT_EQ(waitpid(reused, &status, 0), reused);
	ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	close(fd);
}

TEST_TIMEOUT(kill_reused_pid_signals_nobody, 60)
{
	util_in_pidns(reuse_and_kill, true);
}

TEST(kill_list_names_signals)
{
	struct cli_out o;

	ASSERT_EQ(CLI(&o, "pidfd", "kill", "--list"), 0);
	ASSERT_TRUE(strstr(o.out, " 9 SIGKILL\n") != NULL);
	ASSERT_TRUE(strstr(o.out, "15 SIGTERM\n") != NULL);
}

/* kill -l with operands, as util-linux's: a number names, a name numbers. */
TEST(kill_list_one_signal)
{
	struct cli_out o;

	ASSERT_EQ(CLI(&o, "pidfd", "kill", "-l", "9"), 0);
	ASSERT_EQ(strcmp(o.out, "KILL\n"), 0);
	ASSERT_EQ(CLI(&o, "pidfd", "kill", "-l", "137", "SIGTERM", "hup"), 0);
	ASSERT_EQ(strcmp(o.out, "KILL\n15\n1\n"), 0);
	ASSERT_EQ(CLI(&o, "pidfd", "kill", "--list", "nosuch"), 1);
	ASSERT_EQ(strcmp(o.out, ""), 0);
	ASSERT_TRUE(strstr(o.err, "unknown signal 'nosuch'") != NULL);
}

/* In the tool's process: a descriptor limit of 16, the hard one *arg. */
static void fd_limit_16(char **argv, void *arg)
{
	struct rlimit rl = { 16, *(rlim_t *)arg };

	(void)argv;
	if (setrlimit(RLIMIT_NOFILE, &rl) < 0)
		_exit(95);
}

/*
 * More processes than the soft descriptor limit (raised to the hard one),
 * and than the hard one (in batches): every one is signalled.
 */
TEST(kill_more_processes_than_descriptors)
{
	static const rlim_t hard[] = { 64, 16 };

	for (size_t h = 0; h < sizeof(hard) / sizeof(hard[0]); h++) {
		enum { N = 24 };
		static char pids[N][16];
		char *argv[N + 5] = { "pidfd", "kill", "-s", "KILL" };
		int fds[N];
		struct cli_out o;
		rlim_t lim = hard[h];

		for (int i = 0; i < N; i++) {
			util_spawn_text(NULL, NULL, &fds[i], pids[i]);
			argv[4 + i] = pids[i];
		}
		ASSERT_EQ(cli_run_pre(&o, argv, fd_limit_16, &lim), 0);
		ASSERT_EQ(o.err[0], '\0');
		for (int i = 0; i < N; i++) {
			siginfo_t si;

			ASSERT_EQ(waitid(P_PIDFD, (id_t)fds[i], &si, WEXITED), 0);
			ASSERT_EQ(si.si_code, CLD_KILLED);
			close(fds[i]);
		}
	}
}
