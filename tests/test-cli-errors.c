/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * pidfd's messages say what happened: a pid that never existed, a
 * descriptor that is no pidfd, a /proc the emulation cannot use; and
 * output that could not be written is an error, as util-linux has it.
 */
#include <sched.h>
#include <sys/mount.h>

#include "cli.h"
#include "util.h"

/* In the tool's process: /dev/full on its stdout, /dev/null on fd 3. */
static void open_onto(const char *path, int flags, int target)
{
	int fd = open(path, flags);

	if (fd < 0 || dup2(fd, target) != target)
		_exit(95);
}

static void stdout_full(char **argv, void *arg)
{
	(void)argv;
	(void)arg;
	open_onto("/dev/full", O_WRONLY, 1);
}

static void devnull_fd3(char **argv, void *arg)
{
	(void)argv;
	(void)arg;
	open_onto("/dev/null", O_RDONLY, 3);
}

TEST(write_error_exits_1)
{
	static const char *const cases[][4] = {
		{ "pidfd", "info", "self" }, { "pidfd", "--help" },
		{ "pidfd", "features" }, { "pidfd", "kill", "--list" },
		{ "pidfd", "--version" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct cli_out o;
		int r = cli_run_pre(&o, (char **)cases[i], stdout_full, NULL);

		if (r != 1 || strcmp(o.err, "pidfd: write error: No space left "
				     "on device\n") != 0)
			FAIL("%s %s: exit %d, err '%s'", cases[i][1],
			     cases[i][2] ? cases[i][2] : "", r, o.err);
	}
}

/* No process ever had this pid: nothing has "exited". */
TEST(never_existed_is_no_such_process)
{
	struct cli_out o;

	ASSERT_EQ(CLI(&o, "pidfd", "info", "2147483647"), 1);
	ASSERT_EQ(strcmp(o.err, "pidfd: info: cannot open process 2147483647: "
			 "No such process\n"), 0);
	ASSERT_EQ(CLI(&o, "pidfd", "kill", "-s", "0", "2147483647"), 1);
	ASSERT_EQ(strcmp(o.err, "pidfd: kill: cannot open process 2147483647: "
			 "No such process\n"), 0);
}

TEST(fd_not_a_pidfd_says_so)
{
	struct cli_out o;

	ASSERT_EQ(cli_run_pre(&o, (char *[]){ "pidfd", "info", "fd:3", NULL },
			      devnull_fd3, NULL), 1);
	ASSERT_EQ(strcmp(o.err, "pidfd: info: cannot open fd:3: not a pidfd\n"), 0);
	ASSERT_EQ(cli_run_pre(&o, (char *[]){ "pidfd", "kill", "fd:3", NULL },
			      devnull_fd3, NULL), 1);
	ASSERT_EQ(strcmp(o.err, "pidfd: kill: cannot open fd:3: not a pidfd\n"), 0);
	ASSERT_EQ(CLI(&o, "pidfd", "info", "fd:1000"), 1);
	ASSERT_EQ(strcmp(o.err, "pidfd: info: cannot open fd:1000: not an open file "
			 "descriptor\n"), 0);
}

/* The tool starts with nothing open past stderr (3>&- 4>&- ...). */
static void close_above_stderr(char **argv, void *arg)
{
	(void)argv;
	(void)arg;
	for (int fd = 3; fd < 1024; fd++)
		close(fd);
}

/*
 * "fd:N" names only what the caller passed: a number free at startup is
 * not open, though by the time it is looked at the tool itself may hold a
 * descriptor there (the pidfd of an earlier operand, its /proc).
 */
TEST(fd_closed_at_startup_is_not_the_tools_own)
{
	static const char not_open[] = ": cannot open fd:3: not an open "
				       "file descriptor\n";
	struct cli_out o;
	char pid[16];
	int fd;

	snprintf(pid, sizeof(pid), "%d", util_zombie(0, &fd));
	ASSERT_EQ(cli_run_pre(&o, (char *[]){ "pidfd", "wait", pid, "fd:3", NULL },
			      close_above_stderr, NULL), 1);
	ASSERT_TRUE(strncmp(o.err, "pidfd: wait", 11) == 0);
	ASSERT_EQ(strcmp(o.err + 11, not_open), 0);
	/* pid signalled, fd:3 not: kill's partial success. */
	ASSERT_EQ(cli_run_pre(&o, (char *[]){ "pidfd", "kill", "-s", "0", pid,
					      "fd:3", NULL },
			      close_above_stderr, NULL), 64);
	ASSERT_TRUE(strncmp(o.err, "pidfd: kill", 11) == 0);
	ASSERT_EQ(strcmp(o.err + 11, not_open), 0);
	for (int n = 3; n <= 6; n++) {
		char arg[16], want[80];

		snprintf(arg, sizeof(arg), "fd:%d", n);
		snprintf(want, sizeof(want), "pidfd: info: cannot open %s: not an open "
			 "file descriptor\n", arg);
		ASSERT_EQ(cli_run_pre(&o, (char *[]){ "pidfd", "info", pid, arg,
						      NULL },
				      close_above_stderr, NULL), 1);
		ASSERT_TRUE(strstr(o.err, want) != NULL);
	}
	util_kill_reap(fd);
}

/*
 * The tool as pid 1 of a new pid namespace that still sees the parent's
 * /proc ("unshare -p" without "--mount-proc"), emulating: argv[3] is "1".
 */
static void new_pidns(char **argv, void *arg)
{
	int status;
	pid_t pid;

	(void)arg;
	(void)argv;
	setenv("LIBPIDFD_EMULATE", "1", 1);
	if (unshare(CLONE_NEWPID) < 0)
		_exit(97);
	pid = fork();
	if (pid < 0)
		_exit(98);
	if (pid == 0)
		return; /* the tool */
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		_exit(99);
	_exit(WEXITSTATUS(status));
}

/* "pidfd info -o PID <process>", with pre() before the exec, fails with err. */
static void expect_info_fails(const char *process,
			      void (*pre)(char **argv, void *arg),
			      const char *err)
{
	struct cli_out o;

	ASSERT_EQ(cli_run_pre(&o, (char *[]){ "pidfd", "info", "-o", "PID",
					      (char *)process, NULL },
			      pre, NULL), 1);
	ASSERT_EQ(o.out[0], '\0');
	if (!strstr(o.err, err))
		FAIL("err: %s", o.err);
}

TEST(proc_of_another_pid_namespace_is_named)
{
	struct cli_out o;

	REQUIRE_PRIVILEGE("creates a pid namespace");
	expect_info_fails("1", new_pidns,
			  "pidfd: info: cannot get information on process 1: "
			  "/proc belongs to another pid namespace");
	/* Listing every process needs this namespace's /proc, native or not. */
	ASSERT_EQ(cli_run_pre(&o, (char *[]){ "pidfd", "info", "--all", NULL },
			      new_pidns, NULL), 1);
	if (strcmp(o.err, "pidfd: info: cannot list processes: /proc belongs "
		   "to another pid namespace (mount this namespace's: mount -t "
		   "proc proc /proc)\n"))
		FAIL("err: %s", o.err);
}

/* The tool, emulating, in a mount namespace without /proc, on itself. */
static void no_proc(char **argv, void *arg)
{
	static char self[16];

	(void)arg;
	setenv("LIBPIDFD_EMULATE", "1", 1);
	if (unshare(CLONE_NEWNS) < 0 ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0 ||
	    umount2("/proc", MNT_DETACH) < 0)
		_exit(97);
	snprintf(self, sizeof(self), "%d", getpid());
	argv[4] = self;
}

/* As new_pidns(), on the native path where the kernel has it. */
static void new_pidns_native(char **argv, void *arg)
{
	unsetenv("LIBPIDFD_EMULATE");
	new_pidns(argv, arg);
	unsetenv("LIBPIDFD_EMULATE");
}

/*
 * "unshare -pf pidfd info 1": what the pidfd tells is shown, and what
 * /proc would have told is said to be missing, and why, with status 1.
 */
TEST(proc_of_another_pid_namespace_fails_the_fields_it_holds)
{
	struct cli_out o;

	REQUIRE_PRIVILEGE("creates a pid namespace");
	cli_run_pre(&o, (char *[]){ "pidfd", "info", "-o", "PID,COMM", "1",
				    NULL }, new_pidns_native, NULL);
	ASSERT_EQ(WEXITSTATUS(o.status), 1);
	/* Where the kernel has no PIDFD_GET_INFO, the PID too needs /proc. */
	if (!strstr(o.err, "pidfd: info: ") ||
	    !strstr(o.err, "/proc belongs to another pid namespace"))
		FAIL("err: %s", o.err);
}

TEST(proc_not_mounted_is_named)
{
	REQUIRE_PRIVILEGE("unmounts /proc in a mount namespace of its own");
	expect_info_fails("X", no_proc, ": /proc is not mounted");
}

/*
 * An operand's control bytes (a terminal's escape sequences) reach the
 * terminal only escaped, in every error that quotes it.
 */
TEST(error_messages_escape_control_bytes)
{
	static char *const bad[][4] = {
		{ "info", "\033[2J1", NULL },
		{ "kill", "-s", "\033]0;title\a", "1" },
		{ "wait", "-t", "\033[2J", "1" },
		{ "info", "-o", "PID,\033[2J", "1" },
		{ "nosuch\033[2J", NULL },
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *argv[6] = { "pidfd" };
		struct cli_out o;

		for (int k = 0; k < 4 && bad[i][k]; k++)
			argv[k + 1] = bad[i][k];
		ASSERT_EQ(cli_run(&o, argv), 1);
		ASSERT_TRUE(strchr(o.err, '\033') == NULL);
		ASSERT_TRUE(strchr(o.err, '\a') == NULL);
		ASSERT_TRUE(strstr(o.err, "\\x1b") != NULL);
	}
}

/* In the tool's process: descriptor *(int *)arg closed, as by ">&-". */
static void close_fd(char **argv, void *arg)
{
	(void)argv;
	close(*(int *)arg);
}

/*
 * A closed stdout or stderr with nothing to write to it is no error
 * (util-linux's close_stdout() ignores EBADF then): kill delivers its
 * signal and exits 0. With output pending, a closed stdout is an error.
 */
TEST(closed_std_stream_is_no_error_when_unused)
{
	for (int stream = 1; stream <= 2; stream++) {
		char pidstr[16], *argv[] = { "pidfd", "kill", "-s", "KILL",
					     pidstr, NULL };
		struct cli_out o;
		siginfo_t si;
		int fd;

		util_spawn_text(NULL, NULL, &fd, pidstr);
		ASSERT_EQ(cli_run_pre(&o, argv, close_fd, &stream), 0);
		ASSERT_EQ(o.err[0], '\0');
		ASSERT_EQ(waitid(P_PIDFD, (id_t)fd, &si, WEXITED), 0);
		ASSERT_EQ(si.si_code, CLD_KILLED);
		ASSERT_EQ(si.si_status, SIGKILL);
		close(fd);
	}
	int one = 1;
	struct cli_out o;

	ASSERT_EQ(cli_run_pre(&o, (char *[]){ "pidfd", "info", "self", NULL },
			      close_fd, &one), 1);
	ASSERT_EQ(strcmp(o.err, "pidfd: write error: Bad file descriptor\n"), 0);
}
