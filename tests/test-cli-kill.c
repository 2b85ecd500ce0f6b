/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * pidfd kill, end to end: signals by name and number, a missing process,
 * and a pid that has been reused: the tool, handed the pidfd of the
 * process that had the pid, signals nobody, while the new owner lives on.
 */
#include <linux/sched.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/prctl.h>
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

/* How a child ended, by its pidfd (closed). */
static int killed_by(int fd)
{
	siginfo_t si;

	ASSERT_EQ(waitid(P_PIDFD, (id_t)fd, &si, WEXITED), 0);
	close(fd);
	ASSERT_EQ(si.si_code, CLD_KILLED);
	return si.si_status;
}

/* Kill a child through the tool; how the child ended, as waitpid says. */
static int kill_child_with(const char *opt, const char *sig)
{
	struct cli_out o;
	char pidstr[16];
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
	return killed_by(fd);
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
	ASSERT_TRUE(strstr(o.err, "pidfd: kill: cannot open process ") != NULL);
	ASSERT_TRUE(strstr(o.err, gone) != NULL);
	ASSERT_TRUE(strstr(o.err, "No such process") != NULL);
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
	ASSERT_TRUE(strstr(o.err, "No such process") != NULL);
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

/* ------------------------------------------------------------------------
 * util-linux's kill options: --timeout, -q, --verbose, -L, the scopes.
 */

/* In a child: every signal's default action, but TERM and INT ignored. */
static void ignore_term_int(void *arg)
{
	default_signals(arg);
	signal(SIGTERM, SIG_IGN);
	signal(SIGINT, SIG_IGN);
}

/* Where the child's pid stands in kill_saying()'s arguments. */
static char the_pid[] = "PID";

/*
 * A child that runs setup, then "pidfd kill" with args (the_pid standing
 * for the child's pid): the child was killed by sig, and the tool said on
 * stdout what want says (the pid for each %s in it), nothing on stderr.
 */
static void kill_saying(void (*setup)(void *), char *const args[], int sig,
			const char *want)
{
	char pid[16], said[160], *argv[16] = { "pidfd", "kill" };
	struct cli_out o;
	int fd, n = 2;

	util_spawn_text(setup, NULL, &fd, pid);
	for (; *args; args++)
		argv[n++] = *args == the_pid ? pid : *args;
	ASSERT_EQ(cli_run(&o, argv), 0);
	ASSERT_EQ(killed_by(fd), sig);
	snprintf(said, sizeof(said), want, pid, pid, pid);
	ASSERT_EQ(strcmp(o.out, said), 0);
	ASSERT_EQ(o.err[0], '\0');
}

/* --timeout: TERM ignored, KILL follows the grace period. */
TEST(kill_timeout_follows_up)
{
	kill_saying(ignore_term_int, (char *[]){ "--verbose", "--timeout", "20",
						 "KILL", the_pid, NULL },
		    SIGKILL, "sending signal 15 to pid %s\n"
		    "timeout, sending signal 9 to pid %s\n");
	/* Repeatable, as util-linux's: INT (ignored too), then KILL. */
	kill_saying(ignore_term_int, (char *[]){ the_pid, "--timeout", "10",
						 "INT", "--verbose",
						 "--timeout=5", "9", NULL },
		    SIGKILL, "sending signal 15 to pid %s\n"
		    "timeout, sending signal 2 to pid %s\n"
		    "timeout, sending signal 9 to pid %s\n");
}

/*
 * A process that ends on the first signal gets no follow-up, and the
 * tool ends with it, not after the grace period (the test's 20 seconds
 * would run out first): it waits on the pidfd, never sleeps.
 */
TEST(kill_timeout_ends_when_the_process_does)
{
	kill_saying(default_signals, (char *[]){ "--verbose", "--timeout",
						 "600000", "KILL", "--timeout",
						 "600000", "KILL", the_pid,
						 NULL },
		    SIGTERM, "sending signal 15 to pid %s\n");
}

/*
 * The process ends on TERM, is reaped, and its pid goes to another
 * process, all within the grace period: the follow-up KILL, sent
 * through the same pidfd, never reaches the new owner.
 */
static void reuse_during_timeout(void)
{
	char pidstr[16];
	struct cli_out o;
	int out, err, status;
	pid_t old, tool, reused;

	old = fork();
	ASSERT_GE(old, 0);
	if (old == 0) {
		default_signals(NULL);
		for (;;)
			pause();
	}
	snprintf(pidstr, sizeof(pidstr), "%d", old);
	tool = cli_start((char *[]){ "pidfd", "kill", "--timeout", "300000",
				     "KILL", pidstr, NULL }, NULL, NULL, &out, &err);
	ASSERT_EQ(waitpid(old, &status, 0), old);
	ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM);
	reused = spawn_at(old);
	ASSERT_EQ(reused, old);
	cli_drain(out, err, &o);
	ASSERT_EQ(cli_wait(&o, tool), 0);
	ASSERT_EQ(waitpid(reused, &status, WNOHANG), 0);
	ASSERT_EQ(kill(reused, SIGKILL), 0);
	ASSERT_EQ(waitpid(reused, &status, 0), reused);
}

TEST_TIMEOUT(kill_timeout_never_reaches_a_recycled_pid, 60)
{
	util_in_pidns(reuse_during_timeout, true);
}

/* -q: the value arrives with the signal, as sigqueue(3) sends it. */
TEST(kill_queue_sends_a_value)
{
	static const char *const values[] = { "42", "-7", "2147483647" };
	sigset_t usr1;
	char self[16];

	snprintf(self, sizeof(self), "%d", getpid());
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	ASSERT_EQ(sigprocmask(SIG_BLOCK, &usr1, NULL), 0);
	for (size_t i = 0; i < UTIL_COUNT(values); i++) {
		struct cli_out o;
		siginfo_t si;

		ASSERT_EQ(CLI(&o, "pidfd", "kill", "-s", "USR1", "-q",
			      (char *)values[i], self), 0);
		/* Sent before the tool exited: pending now. */
		ASSERT_EQ(sigwaitinfo(&usr1, &si), SIGUSR1);
		ASSERT_EQ(si.si_code, SI_QUEUE);
		ASSERT_EQ(si.si_value.sival_int, atoi(values[i]));
		ASSERT_EQ(si.si_uid, getuid());
		ASSERT_TRUE(si.si_pid > 0 && si.si_pid != getpid());
	}
}

/* --verbose names each process signalled, as util-linux's kill. */
TEST(kill_verbose_names_each_process)
{
	struct cli_out o;
	char a[16], b[16], want[128];
	int fa, fb;

	util_spawn_text(default_signals, NULL, &fa, a);
	util_spawn_text(default_signals, NULL, &fb, b);
	ASSERT_EQ(CLI(&o, "pidfd", "kill", "--verbose", "-s", "KILL", a, b), 0);
	snprintf(want, sizeof(want), "sending signal 9 to pid %s\n"
		 "sending signal 9 to pid %s\n", a, b);
	ASSERT_EQ(strcmp(o.out, want), 0);
	ASSERT_EQ(killed_by(fa), SIGKILL);
	ASSERT_EQ(killed_by(fb), SIGKILL);
}

/* In the tool's process: stdout on the terminal of master *arg, 40 columns. */
static void stdout_on_pty(char **argv, void *arg)
{
	struct winsize ws = { .ws_row = 24, .ws_col = 40 };
	int fd = ioctl(*(int *)arg, TIOCGPTPEER, O_RDWR | O_NOCTTY);

	(void)argv;
	if (fd < 0 || ioctl(fd, TIOCSWINSZ, &ws) < 0 || dup2(fd, 1) != 1)
		_exit(96);
	unsetenv("COLUMNS");
}

/*
 * A terminal's master side: the system's, or where no devpts is mounted
 * (a UML guest has none), a devpts of our own, in private mounts.
 */
static int pty_master(char dir[32])
{
	char ptmx[64];
	int m = posix_openpt(O_RDWR | O_NOCTTY);

	dir[0] = '\0';
	if (m < 0) {
		snprintf(dir, 32, "/tmp/libpidfd-pts.XXXXXX");
		ASSERT_TRUE(mkdtemp(dir) != NULL);
		ASSERT_EQ(mount("devpts", dir, "devpts", 0,
				"newinstance,ptmxmode=0600"), 0);
		snprintf(ptmx, sizeof(ptmx), "%s/ptmx", dir);
		m = open(ptmx, O_RDWR | O_NOCTTY);
	}
	ASSERT_GE(m, 0);
	ASSERT_EQ(unlockpt(m), 0);
	return m;
}

static void table_on_pty(void)
{
	char tty[4096] = "", dir[32];
	struct cli_out o;
	size_t n = 0;
	ssize_t r;
	int m = pty_master(dir);

	ASSERT_EQ(cli_run_pre(&o, (char *[]){ "pidfd", "kill", "--table", NULL },
			      stdout_on_pty, &m), 0);
	/* The tool has ended: all it wrote is there to read. */
	while (n < sizeof(tty) - 1 && !strstr(tty, "RTMAX") &&
	       (r = read(m, tty + n, sizeof(tty) - 1 - n)) > 0) {
		n += (size_t)r;
		tty[n] = '\0';
	}
	close(m);
	if (dir[0]) {
		umount2(dir, MNT_DETACH);
		rmdir(dir);
	}
	/* 40 columns: three signals of 11 columns a line (the last trimmed). */
	if (strncmp(tty, " 1 HUP      2 INT      3 QUIT\r\n"
		    " 4 ILL      5 TRAP     6 ABRT\r\n", 62))
		FAIL("on a 40-column terminal:\n%s", tty);
}

/* -L: a table as wide as the terminal; one signal a line for a pipe. */
TEST(kill_table_of_signals)
{
	char rt[32];
	struct cli_out o;

	ASSERT_EQ(CLI(&o, "pidfd", "kill", "-L"), 0);
	ASSERT_EQ(strncmp(o.out, " 1 HUP\n 2 INT\n 3 QUIT\n", 22), 0);
	ASSERT_TRUE(strstr(o.out, "\n 9 KILL\n10 USR1\n") != NULL);
	snprintf(rt, sizeof(rt), "\n%d RTMIN\n%d RTMAX\n", SIGRTMIN, SIGRTMAX);
	ASSERT_TRUE(strstr(o.out, rt) != NULL);
	util_in_private_mounts(table_on_pty);
}

/* The state of one of our threads' signals in /proc: SigPnd or ShdPnd. */
static bool pending_in(pid_t pid, pid_t tid, const char *key, int sig)
{
	char path[64], *text, *p;
	unsigned long long mask;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/status", pid, tid);
	text = util_read_text(path);
	p = strstr(text, key);
	ASSERT_TRUE(p != NULL);
	mask = strtoull(p + strlen(key) + 1, NULL, 16);
	free(text);
	return mask & (1ULL << (sig - 1));
}

static bool scope_flags(void)
{
	struct libpidfd_features f;

	ASSERT_EQ(libpidfd_features(&f, sizeof(f)), 0);
	return f.kernel & LIBPIDFD_KERNEL_PIDFD_THREAD;
}

/* Before Linux 6.9: a usage's like refusal, exit 2, nobody signalled. */
static void assert_refused(struct cli_out *o, int rc, const char *opt)
{
	ASSERT_EQ(rc, 2);
	ASSERT_TRUE(strstr(o->err, opt) != NULL);
	ASSERT_TRUE(strstr(o->err, "not supported by this kernel") != NULL);
}

/*
 * --thread: a thread-directed signal, pending for that thread alone (USR1
 * is blocked in every thread): the one named by a thread id, or the first
 * thread of a process named by its pid.
 */
TEST(kill_thread_signals_that_thread)
{
	struct util_parked th;
	struct cli_out o;
	sigset_t usr1;
	char tid[16], self[16];
	pid_t me = getpid();
	int rc;

	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	ASSERT_EQ(sigprocmask(SIG_BLOCK, &usr1, NULL), 0);
	snprintf(tid, sizeof(tid), "%d", util_park_thread(&th));
	snprintf(self, sizeof(self), "%d", me);
	rc = CLI(&o, "pidfd", "kill", "--thread", "-s", "USR1", tid);
	if (!scope_flags()) {
		assert_refused(&o, rc, "--thread");
		ASSERT_TRUE(!pending_in(me, th.tid, "SigPnd:", SIGUSR1));
		ASSERT_TRUE(!pending_in(me, me, "ShdPnd:", SIGUSR1));
		util_unpark_thread(&th);
		return;
	}
	ASSERT_EQ(rc, 0);
	ASSERT_EQ(o.err[0], '\0');
	ASSERT_TRUE(pending_in(me, th.tid, "SigPnd:", SIGUSR1));
	ASSERT_TRUE(!pending_in(me, me, "SigPnd:", SIGUSR1));
	ASSERT_TRUE(!pending_in(me, me, "ShdPnd:", SIGUSR1));

	/* A pid: its first thread, this one, not the process. */
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR2);
	ASSERT_EQ(sigprocmask(SIG_BLOCK, &usr1, NULL), 0);
	ASSERT_EQ(CLI(&o, "pidfd", "kill", "--thread", "-s", "USR2", self), 0);
	ASSERT_TRUE(pending_in(me, me, "SigPnd:", SIGUSR2));
	ASSERT_TRUE(!pending_in(me, me, "ShdPnd:", SIGUSR2));
	ASSERT_TRUE(!pending_in(me, th.tid, "SigPnd:", SIGUSR2));
	util_unpark_thread(&th);
}

/* --thread-group: the thread's process, on every kernel. */
TEST(kill_thread_group_signals_the_process)
{
	struct util_parked th;
	struct cli_out o;
	sigset_t usr1;
	char tid[16];
	pid_t me = getpid();

	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	ASSERT_EQ(sigprocmask(SIG_BLOCK, &usr1, NULL), 0);
	snprintf(tid, sizeof(tid), "%d", util_park_thread(&th));
	ASSERT_EQ(CLI(&o, "pidfd", "kill", "--thread-group", "-s", "USR1", tid), 0);
	ASSERT_EQ(o.err[0], '\0');
	ASSERT_TRUE(pending_in(me, me, "ShdPnd:", SIGUSR1));
	ASSERT_TRUE(!pending_in(me, th.tid, "SigPnd:", SIGUSR1));
	util_unpark_thread(&th);
	/* One scope at a time. */
	CLI_FAILS(&o, "--thread and --pgrp: choose one", "pidfd", "kill",
		  "--thread", "--pgrp", tid);
}

/*
 * A child in a process group of its own, with a member it forked, whose
 * pid it writes to the pipe *arg; USR1 blocked in both.
 */
static void group_leader(void *arg)
{
	int fd = *(int *)arg;
	sigset_t usr1;
	pid_t pid;

	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	sigprocmask(SIG_BLOCK, &usr1, NULL);
	if (setpgid(0, 0) < 0)
		_exit(97);
	pid = fork();
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		for (;;)
			pause();
	}
	if (pid < 0 || write(fd, &pid, sizeof(pid)) != sizeof(pid))
		_exit(98);
}

TEST(kill_pgrp_signals_the_group)
{
	struct cli_out o;
	char leader[16];
	int fd, rc, p[2];
	pid_t member, lead;

	ASSERT_EQ(pipe(p), 0);
	lead = util_spawn_text(group_leader, &p[1], &fd, leader);
	ASSERT_EQ(read(p[0], &member, sizeof(member)), (ssize_t)sizeof(member));
	close(p[0]);
	close(p[1]);
	rc = CLI(&o, "pidfd", "kill", "--pgrp", "-s", "USR1", leader);
	if (!scope_flags()) {
		assert_refused(&o, rc, "--pgrp");
		ASSERT_TRUE(!pending_in(lead, lead, "ShdPnd:", SIGUSR1));
		ASSERT_TRUE(!pending_in(member, member, "ShdPnd:", SIGUSR1));
	} else {
		ASSERT_EQ(rc, 0);
		ASSERT_TRUE(pending_in(lead, lead, "ShdPnd:", SIGUSR1));
		ASSERT_TRUE(pending_in(member, member, "ShdPnd:", SIGUSR1));
	}
	ASSERT_EQ(kill(-lead, SIGKILL), 0);
	util_kill_reap(fd);
}

/*
 * A live process that leads no group: the kernel's ESRCH says no group
 * has its id, never that the process has exited.
 */
TEST(kill_pgrp_of_a_non_leader_says_no_group)
{
	struct cli_out o;
	char pid[16];
	int fd, rc;

	util_spawn_text(NULL, NULL, &fd, pid);
	rc = CLI(&o, "pidfd", "kill", "--pgrp", "-s", "USR1", pid);
	if (!scope_flags()) {
		assert_refused(&o, rc, "--pgrp");
	} else {
		ASSERT_EQ(rc, 1);
		ASSERT_TRUE(strstr(o.err, "No process group with its id") != NULL);
		ASSERT_TRUE(strstr(o.err, "it has exited)") == NULL);
	}
	util_kill_reap(fd);
}
