/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * pidfd wait, end to end: processes that end in different ways (an exit
 * code, a signal, a core dump), as children of the tool (waitid knows
 * every status, on every kernel) and of someone else (the status exists
 * once reaped, where the kernel has PIDFD_INFO_EXIT), and the timeout.
 */
#include <pthread.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include <libpidfd.h>

#include "cli.h"
#include "internal.h"
#include "util.h"

/* The exit status of a process reaped by another is the kernel's alone. */
static bool native(void)
{
	return util_native(__LPFD_FEAT_INFO_EXIT);
}

/* How each victim ends; the core one dumps in a directory of its own. */
enum end { EXIT0, EXIT3, KILLED, CORE, COUNT };
static const char *const expected[COUNT] = {
	"exited 0", "exited 3", "killed by SIGKILL",
	"killed by SIGSEGV (core dumped)",
};
static char core_dir[] = "/tmp/libpidfd-core.XXXXXX";

static void victim(enum end e)
{
	struct rlimit unlimited = { RLIM_INFINITY, RLIM_INFINITY };

	/* One after the other, far enough apart for a loaded 6.1 guest. */
	usleep(250000 * (unsigned)(e + 1));
	switch (e) {
	case EXIT0:
		_exit(0);
	case EXIT3:
		_exit(3);
	case KILLED:
		raise(SIGKILL);
		break;
	default:
		if (chdir(core_dir) || setrlimit(RLIMIT_CORE, &unlimited))
			_exit(92);
		prctl(PR_SET_DUMPABLE, 1);
		signal(SIGSEGV, SIG_DFL); /* not a sanitizer's handler */
		raise(SIGSEGV);
	}
	_exit(93);
}

static char pids[COUNT][16];

/* In the tool's process before exec: its children-to-be, named in argv. */
static void start_victims(char **argv, void *arg)
{
	int first = *(int *)arg;

	for (int e = 0; e < COUNT; e++) {
		pid_t pid = fork();

		if (pid < 0)
			_exit(94);
		if (pid == 0)
			victim((enum end)e);
		snprintf(pids[e], sizeof(pids[e]), "%d", pid);
		argv[first + e] = pids[e];
	}
}

TEST(wait_children_of_the_tool_every_ending)
{
	char *argv[] = { "pidfd", "wait", "--json", "X", "X", "X", "X", NULL };
	int first = 3;
	struct cli_out o;
	char cmd[64];

	ASSERT_TRUE(mkdtemp(core_dir) != NULL);
	ASSERT_EQ(chmod(core_dir, 0777), 0);
	ASSERT_EQ(cli_run_pre(&o, argv, start_victims, &first), 0);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", core_dir);
	ASSERT_EQ(system(cmd), 0);
	ASSERT_EQ(o.err[0], '\0');
	/* One line per process, in the order they ended. */
	for (int e = 0; e < COUNT; e++) {
		const char *l = line_of(o.out, e);

		if (strcmp(json_get(l, "status"), expected[e]) != 0)
			FAIL("line %d: want '%s': %s", e, expected[e], l);
		ASSERT_EQ(strcmp(json_get(l, "source"), "waitid"), 0);
	}
	ASSERT_EQ(strcmp(json_get(line_of(o.out, 1), "code"), "3"), 0);
	ASSERT_EQ(strcmp(json_get(line_of(o.out, 2), "signal"), "SIGKILL"), 0);
	ASSERT_EQ(strcmp(json_get(line_of(o.out, 3), "core_dumped"), "true"), 0);
	ASSERT_EQ(line_of(o.out, COUNT)[0], '\0');
}

static void *reaper(void *arg)
{
	int status;

	waitpid(*(pid_t *)arg, &status, 0);
	return NULL;
}

/*
 * Someone else's process (this test's child, reaped by a thread of the
 * test): its status once reaped where the kernel keeps it, else unknown.
 */
TEST(wait_other_process_reaped_by_its_parent)
{
	struct cli_out o;
	char pidstr[16], want[64];
	pthread_t th;
	pid_t pid = fork();

	ASSERT_GE(pid, 0);
	if (pid == 0) {
		usleep(1000000); /* long enough for the tool to start, loaded */
		_exit(5);
	}
	ASSERT_EQ(pthread_create(&th, NULL, reaper, &pid), 0);
	snprintf(pidstr, sizeof(pidstr), "%d", pid);
	ASSERT_EQ(CLI(&o, "pidfd", "wait", pidstr), 0);
	pthread_join(th, NULL);
	snprintf(want, sizeof(want), "%s: %s", pidstr,
		 native() ? "exited 5" : "exited (status unknown)");
	ASSERT_EQ(strcmp(line_of(o.out, 0), want), 0);
}

/* A zombie nobody reaps: its end is told after a grace, status unknown. */
TEST(wait_unreaped_zombie_is_told_unknown)
{
	struct cli_out o;
	char pidstr[16];
	int fd;
	pid_t pid = util_zombie(9, &fd);

	snprintf(pidstr, sizeof(pidstr), "%d", pid);
	ASSERT_EQ(CLI(&o, "pidfd", "wait", "--json", pidstr), 0);
	ASSERT_EQ(atoi(json_get(o.out, "pid")), pid);
	ASSERT_EQ(strcmp(json_get(o.out, "ending"), "unknown"), 0);
	ASSERT_EQ(strcmp(json_get(o.out, "source"), "null"), 0);
	util_kill_reap(fd);
}

TEST(wait_timeout_exits_3)
{
	struct cli_out o;
	char pidstr[16];
	int fd;
	pid_t pid = util_spawn(NULL, NULL, &fd);

	snprintf(pidstr, sizeof(pidstr), "%d", pid);
	ASSERT_EQ(CLI(&o, "pidfd", "wait", "--timeout", "0.2", pidstr), 3);
	ASSERT_EQ(o.out[0], '\0');
	ASSERT_TRUE(strstr(o.err, "timed out") != NULL);
	ASSERT_TRUE(strstr(o.err, pidstr) != NULL);
	/* Still alive: wait never touched it. */
	ASSERT_EQ(libpidfd_send_signal(fd, 0, NULL, 0), 0);
	ASSERT_EQ(CLI(&o, "pidfd", "wait", "-t", "0", pidstr), 3);
	util_kill_reap(fd);
}

TEST(wait_gone_process_fails_others_still_waited)
{
	struct cli_out o;
	char gone[16], live[16];
	int fd;
	pid_t pid = util_zombie(0, &fd);

	util_kill_reap(fd);
	snprintf(gone, sizeof(gone), "%d", pid);
	pid = util_zombie(4, &fd);
	snprintf(live, sizeof(live), "%d", pid);
	ASSERT_EQ(CLI(&o, "pidfd", "wait", gone, live), 1);
	ASSERT_TRUE(strstr(o.err, gone) != NULL);
	ASSERT_TRUE(strstr(o.out, live) == o.out);
	util_kill_reap(fd);
}

TEST(wait_self_is_refused)
{
	struct cli_out o;

	ASSERT_EQ(CLI(&o, "pidfd", "wait", "self"), 1);
	ASSERT_TRUE(strstr(o.err, "self") != NULL);
}
