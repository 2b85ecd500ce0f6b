/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A handle a shell can carry: PID:INODE operands (util-linux 2.42's form,
 * the inode that of the process's pidfd on pidfs, Linux 6.9), the INODE
 * column, and "pidfd open PID -- COMMAND", which hands COMMAND the pidfd
 * on the descriptor named in $PIDFD. Before 6.9 (no pidfs) the form is
 * refused as unsupported, and INODE is unknown: each test asserts what
 * the running kernel's pidfds allow, found by fstatfs() here.
 */
#include <sys/stat.h>
#include <sys/vfs.h>

#include <libpidfd.h>

#include "cli.h"
#include "util.h"

#define PIDFS_SUPER_MAGIC 0x50494446

/* Whether this kernel's pidfds are files of pidfs (Linux 6.9). */
static bool kernel_has_pidfs(int pidfd)
{
	struct statfs sfs;

	ASSERT_EQ(fstatfs(pidfd, &sfs), 0);
	return sfs.f_type == PIDFS_SUPER_MAGIC;
}

static unsigned long long inode_of(int pidfd)
{
	struct stat st;

	ASSERT_EQ(fstat(pidfd, &st), 0);
	return (unsigned long long)st.st_ino;
}

/* A child's "PID:INODE", as getino -p prints it. */
static const char *handle_of(pid_t pid, int pidfd)
{
	static char h[48];

	snprintf(h, sizeof(h), "%d:%llu", pid, inode_of(pidfd));
	return h;
}

static bool alive(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, 0) == 0;
}

static void default_signals(void *arg)
{
	(void)arg;
	signal(SIGTERM, SIG_DFL);
	signal(SIGKILL, SIG_DFL);
}

TEST(info_shows_the_pidfs_inode)
{
	char pidstr[16], want[96];
	struct cli_out o;
	int fd;
	pid_t pid = util_spawn_text(NULL, NULL, &fd, pidstr);

	ASSERT_EQ(CLI(&o, "pidfd", "info", "-j", "-o", "PID,INODE", pidstr), 0);
	if (kernel_has_pidfs(fd))
		snprintf(want, sizeof(want), "{\"pid\":%d,\"inode\":%llu}\n", pid,
			 inode_of(fd));
	else
		snprintf(want, sizeof(want), "{\"pid\":%d,\"inode\":null}\n", pid);
	if (strcmp(o.out, want) != 0)
		FAIL("got %s want %s", o.out, want);
	/* Its own, for self too. */
	ASSERT_EQ(CLI(&o, "pidfd", "info", "-j", "-o", "INODE", "self"), 0);
	ASSERT_TRUE(strcmp(o.out, "{\"inode\":null}\n") != 0 || !kernel_has_pidfs(fd));
	util_kill_reap(fd);
}

TEST(pid_inode_operands_name_that_process_only)
{
	char pidstr[16], handle[48], wrong[48], err[256];
	struct cli_out o;
	int fd;
	pid_t pid = util_spawn_text(default_signals, NULL, &fd, pidstr);
	bool pidfs = kernel_has_pidfs(fd);

	snprintf(handle, sizeof(handle), "%s", handle_of(pid, fd));
	snprintf(wrong, sizeof(wrong), "%d:%llu", pid, inode_of(fd) + 1);
	/* Another inode at that PID: no such process, nobody signalled. */
	ASSERT_EQ(CLI(&o, "pidfd", "kill", wrong), pidfs ? 1 : 2);
	snprintf(err, sizeof(err), "pidfd: kill: cannot open process %s: %s\n", wrong,
		 pidfs ? "No such process (the PID is free, or another process's)" :
			 "PID:INODE needs pidfs (Linux 6.9)");
	ASSERT_EQ(strcmp(o.err, err), 0);
	ASSERT_TRUE(alive(fd));
	ASSERT_EQ(CLI(&o, "pidfd", "wait", "-t", "0", handle), pidfs ? 3 : 2);
	ASSERT_EQ(CLI(&o, "pidfd", "info", "-j", "-o", "PID", handle), pidfs ? 0 : 2);
	if (!pidfs) {
		/* Before 6.9: refused, and the process left alone. */
		ASSERT_EQ(CLI(&o, "pidfd", "kill", handle), 2);
		ASSERT_TRUE(strstr(o.err, "PID:INODE needs pidfs (Linux 6.9)") != NULL);
		ASSERT_TRUE(alive(fd));
		util_kill_reap(fd);
		return;
	}
	ASSERT_EQ(CLI(&o, "pidfd", "kill", "-s", "KILL", handle), 0);
	ASSERT_EQ(o.err[0], '\0');
	util_wait_exit(fd);
	util_kill_reap(fd);
}

/*
 * The HANDLE column, in tables and JSON, is the PID:INODE that getino
 * prints, and wait and kill take it back; null before pidfs.
 */
TEST(handle_column_given_back_to_wait_and_kill)
{
	char pidstr[16], handle[48], want[96];
	struct cli_out o;
	int fd;
	pid_t pid = util_spawn_text(default_signals, NULL, &fd, pidstr);
	bool pidfs = kernel_has_pidfs(fd);

	snprintf(handle, sizeof(handle), "%s", handle_of(pid, fd));
	ASSERT_EQ(CLI(&o, "pidfd", "info", "-j", "-o", "HANDLE", pidstr), 0);
	if (pidfs)
		snprintf(want, sizeof(want), "{\"handle\":\"%s\"}\n", handle);
	else
		snprintf(want, sizeof(want), "{\"handle\":null}\n");
	if (strcmp(o.out, want) != 0)
		FAIL("got %s want %s", o.out, want);
	ASSERT_EQ(CLI(&o, "pidfd", "info", "-n", "-o", "HANDLE", pidstr), 0);
	snprintf(want, sizeof(want), "%s\n", pidfs ? handle : "-");
	ASSERT_EQ(strcmp(o.out, want), 0);
	if (!pidfs) {
		util_kill_reap(fd);
		return;
	}
	ASSERT_EQ(CLI(&o, "pidfd", "wait", "-t", "0", handle), 3);
	ASSERT_EQ(CLI(&o, "pidfd", "kill", "-s", "TERM", handle), 0);
	ASSERT_EQ(CLI(&o, "pidfd", "wait", handle), 0);
	util_wait_exit(fd);
	util_kill_reap(fd);
}

/* The handle of a process whose PID was then recycled names nobody. */
static void recycled(void)
{
	struct util_gen gen;
	char handle[48];
	struct cli_out o;
	int fd, newcomer;
	pid_t pid = util_spawn(NULL, NULL, &fd);
	bool pidfs = kernel_has_pidfs(fd);

	snprintf(handle, sizeof(handle), "%s", handle_of(pid, fd));
	util_kill_reap(fd);
	ASSERT_EQ(util_spawn_gen(&gen, 3333, pid, &newcomer), pid);
	ASSERT_EQ(CLI(&o, "pidfd", "kill", "-s", "KILL", handle), pidfs ? 1 : 2);
	/* Refused for the inode, not taken for a malformed operand. */
	if (!strstr(o.err, pidfs ? "No such process (the PID is free" :
				   "PID:INODE needs pidfs (Linux 6.9)"))
		FAIL("%s: %s", handle, o.err);
	ASSERT_TRUE(alive(newcomer));
	util_kill_reap(newcomer);
}

TEST(pid_inode_of_a_recycled_pid_signals_nobody)
{
	util_in_pidns(recycled, true);
}

TEST(pid_inode_syntax)
{
	static const char *const bad[] = { "1:0", "1:", ":5", "1:x", "0:5",
					   "1:5:6", "1:-5" };
	struct cli_out o;

	for (size_t i = 0; i < UTIL_COUNT(bad); i++) {
		ASSERT_EQ(CLI(&o, "pidfd", "kill", (char *)bad[i]), 1);
		if (!strstr(o.err, "(a PID, PID:INODE, 'self' or 'fd:N')"))
			FAIL("%s: %s", bad[i], o.err);
	}
}

TEST(open_runs_a_command_with_the_pidfd)
{
	char pidstr[16], script[PATH_MAX + 64], want[64];
	struct cli_out o;
	int fd;
	pid_t pid = util_spawn_text(default_signals, NULL, &fd, pidstr);

	/* $PIDFD names an inherited pidfd of the process: fd:$PIDFD works. */
	snprintf(script, sizeof(script), "exec '%s' info -j -o PID fd:$PIDFD",
		 cli_path("pidfd"));
	ASSERT_EQ(CLI(&o, "pidfd", "open", pidstr, "--", "sh", "-c", script), 0);
	snprintf(want, sizeof(want), "{\"pid\":%d}\n", pid);
	ASSERT_EQ(strcmp(o.out, want), 0);
	snprintf(script, sizeof(script), "exec '%s' kill -s KILL fd:$PIDFD",
		 cli_path("pidfd"));
	ASSERT_EQ(CLI(&o, "pidfd", "open", pidstr, "sh", "-c", script), 0);
	util_wait_exit(fd);
	/* The command's status; 127 where it is not found, as env(1). */
	ASSERT_EQ(CLI(&o, "pidfd", "open", "self", "--", "sh", "-c", "exit 7"), 7);
	ASSERT_EQ(CLI(&o, "pidfd", "open", "self", "--", "/nonexistent/x"), 127);
	ASSERT_TRUE(strstr(o.err, "pidfd: open: cannot run '/nonexistent/x'") != NULL);
	CLI_FAILS(&o, "open: no command specified", "pidfd", "open", "self");
	/* A process that is gone: the command never runs. */
	util_kill_reap(fd);
	CLI_FAILS(&o, "No such process", "pidfd", "open", pidstr, "--", "sh",
		  "-c", "exit 7");
}
