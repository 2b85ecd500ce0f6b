/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Selection by name (--name, --full, --exact) in info, kill and wait, as
 * pgrep selects, and never a recycled pid: the tool runs under a seccomp
 * filter that stops it at pidfd_open(); when it opens the pid it matched,
 * this test kills and reaps that process and starts a differently named
 * one at the same pid, then lets the open go on. The tool must find the
 * newcomer's name wrong through the pidfd, and signal nobody.
 *
 * Each test runs as pid 1 of a pid namespace with a /proc of its own, so
 * that the only processes a name can match are the test's.
 */
#include <libpidfd.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>

#include "cli.h"
#include "util.h"

#define ASSERT_STR_EQ(got, want)                                              \
	do {                                                                  \
		if (strcmp((got), (want)) != 0)                               \
			FAIL("got '%s', want '%s'", (got), (want));           \
	} while (0)

static void name_child(void *name)
{
	cli_default_signals();
	prctl(PR_SET_NAME, (unsigned long)name, 0, 0, 0);
}

/* A child named name (its comm), sleeping; its pid as text. */
static pid_t named(const char *name, int *fd, char text[16])
{
	return util_spawn_text(name_child, (void *)name, fd, text);
}

/* Three children: their pidfds, and their pids as text. */
struct trio {
	int fd[3];
	char pid[3][16];
};

/* Three children named names[i]. */
static void three_named(struct trio *t, const char *const names[3])
{
	for (int i = 0; i < 3; i++)
		named(names[i], &t->fd[i], t->pid[i]);
}

/*
 * A child whose arguments are argv0 and "3600", its comm "sleep"; returned
 * once it has run execv (its end of a close-on-exec pipe is closed), so
 * that the arguments it shows are the new ones.
 */
static pid_t with_args(const char *argv0, int *fd, char text[16])
{
	int exec_done[2];
	char byte;
	pid_t pid;

	ASSERT_EQ(pipe2(exec_done, O_CLOEXEC), 0);
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		cli_default_signals();
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		execv("/bin/sleep", (char *[]){ (char *)argv0, "3600", NULL });
		_exit(127);
	}
	close(exec_done[1]);
	ASSERT_EQ(read(exec_done[0], &byte, 1), 0);
	close(exec_done[0]);
	*fd = libpidfd_open(pid, 0);
	ASSERT_GE(*fd, 0);
	snprintf(text, 16, "%d", pid);
	return pid;
}

/* How a child ended (reaped, closed): the signal that killed it, or -1. */
static int killed_by(int fd)
{
	int sig = cli_killed_by(fd);

	close(fd);
	return sig;
}

/* The pids a JSON-lines info printed, in order, as "a b c". */
static const char *pids_of(const char *out)
{
	static char pids[512];
	size_t o = 0;

	pids[0] = '\0';
	for (int i = 0; *line_of(out, i); i++)
		o += (size_t)snprintf(pids + o, sizeof(pids) - o, "%s%s",
				      o ? " " : "", json_get(line_of(out, i), "pid"));
	return pids;
}

static void by_comm_and_exact(void)
{
	struct trio t;
	char want[128];
	struct cli_out o;

	three_named(&t, (const char *const[]){ "alpha-one", "alpha-two", "beta" });
	/* An extended regular expression on the command name, as pgrep. */
	ASSERT_EQ(CLI(&o, "pidfd", "info", "-j", "-o", "PID", "--name",
		      "alpha-(one|two)"), 0);
	snprintf(want, sizeof(want), "%s %s", t.pid[0], t.pid[1]);
	ASSERT_STR_EQ(pids_of(o.out), want);
	ASSERT_EQ(CLI(&o, "pidfd", "info", "-j", "-o", "PID", "-N", "^bet"), 0);
	ASSERT_STR_EQ(pids_of(o.out), t.pid[2]);
	/* --exact: the whole name. */
	ASSERT_EQ(CLI(&o, "pidfd", "info", "-j", "-o", "PID", "-x", "-N", "alpha"), 1);
	ASSERT_STR_EQ(o.out, "");
	ASSERT_STR_EQ(o.err, "");
	ASSERT_EQ(CLI(&o, "pidfd", "info", "-j", "-o", "PID", "--exact",
		      "--name", "alpha-two"), 0);
	ASSERT_STR_EQ(pids_of(o.out), t.pid[1]);
	/* Among the processes named, where there are any. */
	ASSERT_EQ(CLI(&o, "pidfd", "info", "-j", "-o", "PID", "-N", "alpha",
		      t.pid[2], t.pid[1]), 0);
	ASSERT_STR_EQ(pids_of(o.out), t.pid[1]);
	ASSERT_EQ(CLI(&o, "pidfd", "info", "-j", "-o", "PID", "-N", "alpha",
		      t.pid[2]), 1);
	/* Never the tool itself, as pgrep; unless named. */
	ASSERT_EQ(CLI(&o, "pidfd", "info", "-j", "-o", "COMM", "-x", "-N", "pidfd"), 1);
	ASSERT_EQ(CLI(&o, "pidfd", "info", "-j", "-o", "COMM", "-x", "-N", "pidfd",
		      "self"), 0);
	ASSERT_STR_EQ(o.out, "{\"comm\":\"pidfd\"}\n");
	util_kill_reap(t.fd[0]);
	util_kill_reap(t.fd[1]);
	util_kill_reap(t.fd[2]);
}

TEST(info_selects_by_name_and_exact_as_pgrep)
{
	util_in_pidns(by_comm_and_exact, true);
}

/* --full: the arguments, with the name, as pgrep -f; the name alone without. */
static void by_args(void)
{
	char f[16], want[128];
	int ff;
	struct cli_out o;

	with_args("marker-xyz", &ff, f);
	ASSERT_EQ(CLI(&o, "pidfd", "info", "-j", "-o", "PID", "-N", "marker"), 1);
	ASSERT_EQ(CLI(&o, "pidfd", "info", "-j", "-o", "PID,COMM", "--full",
		      "-N", "marker-xyz 36"), 0);
	snprintf(want, sizeof(want), "{\"pid\":%s,\"comm\":\"sleep\"}\n", f);
	ASSERT_STR_EQ(o.out, want);
	ASSERT_EQ(CLI(&o, "pidfd", "info", "-j", "-o", "PID", "-f", "-x", "-N",
		      "marker-xyz"), 1);
	ASSERT_EQ(CLI(&o, "pidfd", "info", "-j", "-o", "PID", "-f", "-x", "-N",
		      "marker-xyz 3600"), 0);
	ASSERT_STR_EQ(pids_of(o.out), f);
	util_kill_reap(ff);
}

TEST(info_selects_by_full_arguments_as_pgrep)
{
	util_in_pidns(by_args, true);
}

static void kill_and_wait_by_name(void)
{
	struct trio t;
	char err[128];
	struct cli_out o;

	three_named(&t, (const char *const[]){ "victim-a", "victim-b",
						"bystander" });
	/* wait: both victims watched, the bystander not. */
	ASSERT_EQ(CLI(&o, "pidfd", "wait", "-t", "0", "-N", "^victim"), 3);
	snprintf(err, sizeof(err), "pidfd: wait: timed out; still running: %s %s\n",
		 t.pid[0], t.pid[1]);
	ASSERT_STR_EQ(o.err, err);
	ASSERT_EQ(CLI(&o, "pidfd", "wait", "-N", "nobody-here"), 1);
	ASSERT_STR_EQ(o.err, "");
	/* As pgrep, a warning where a name cannot match (at most 15 bytes). */
	CLI_FAILS(&o, "longer than 15 bytes", "pidfd", "wait", "-N",
		  "nobody-by-this-name");
	/* kill: both victims, by SIGKILL, and nobody else. */
	ASSERT_EQ(CLI(&o, "pidfd", "kill", "-s", "KILL", "--name", "^victim"), 0);
	ASSERT_STR_EQ(o.out, "");
	ASSERT_STR_EQ(o.err, "");
	ASSERT_EQ(killed_by(t.fd[0]), SIGKILL);
	ASSERT_EQ(killed_by(t.fd[1]), SIGKILL);
	ASSERT_TRUE(cli_alive(t.fd[2]));
	/* Nothing matched: 1, as pkill, and nobody signalled. */
	ASSERT_EQ(CLI(&o, "pidfd", "kill", "-x", "-N", "bystande"), 1);
	ASSERT_STR_EQ(o.err, "");
	ASSERT_TRUE(cli_alive(t.fd[2]));
	util_kill_reap(t.fd[2]);
}

TEST(kill_and_wait_select_by_name)
{
	util_in_pidns(kill_and_wait_by_name, true);
}

TEST(selection_usage_errors)
{
	struct cli_out o;

	CLI_FAILS(&o, "--full and --exact need --name", "pidfd", "kill",
		  "--full", "1");
	CLI_FAILS(&o, "--full and --exact need --name", "pidfd", "info", "-x",
		  "self");
	CLI_FAILS(&o, "pidfd: wait: invalid --name '(unclosed'", "pidfd",
		  "wait", "--name", "(unclosed");
	ASSERT_TRUE(strstr(o.err, "Try 'pidfd wait --help'") != NULL);
}

/* ------------------------------------------------------------------------
 * A pid recycled between the match and the open.
 */
/* The process matched by name, and the newcomer at its pid. */
static struct cli_reuse ctx;

/* The reuse, when the tool opens the pid it matched. */
static bool maybe_reuse(int stop, const struct seccomp_notif *req,
			struct seccomp_notif_resp *resp, void *arg)
{
	(void)stop, (void)resp, (void)arg;
	if ((pid_t)req->data.args[0] == ctx.victim)
		cli_reuse_now(&ctx);
	return false;
}

static void reuse_under_kill(void)
{
	struct cli_trap trap;
	struct cli_out o;
	char comm[16];
	pthread_t th;

	/* The tool stops at every pidfd_open. */
	cli_trap_init(&trap, SYS_pidfd_open, SYS_pidfd_open, maybe_reuse, NULL);
	ctx.victim = util_spawn(name_child, "old-owner", &ctx.victim_fd);
	ASSERT_EQ(pthread_create(&th, NULL, cli_trap_serve, &trap), 0);
	ASSERT_EQ(cli_run_pre(&o, (char *[]){ "pidfd", "kill", "-s", "KILL",
					      "--exact", "--name", "old-owner",
					      NULL }, cli_trap_pre, &trap), 1);
	pthread_join(th, NULL);
	ASSERT_TRUE(ctx.reused);
	/* The newcomer is named otherwise (this thread's name, copied). */
	ASSERT_EQ(prctl(PR_GET_NAME, (unsigned long)comm, 0, 0, 0), 0);
	ASSERT_TRUE(strcmp(comm, "old-owner") != 0);
	/* Nothing matched once checked through the pidfd: nobody signalled. */
	ASSERT_STR_EQ(o.err, "");
	ASSERT_TRUE(cli_alive(ctx.newcomer_fd));
	ASSERT_EQ(syscall(SYS_pidfd_send_signal, ctx.newcomer_fd, 0, NULL, 0), 0);
	util_kill_reap_keep_fd(ctx.newcomer_fd);
}

TEST_TIMEOUT(kill_by_name_never_signals_a_recycled_pid, 60)
{
	util_in_pidns(reuse_under_kill, true);
}
