/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * pidfd wait, end to end: processes that end in different ways (an exit
 * code, a signal, a core dump), as children of the tool (waitid knows
 * every status, on every kernel) and of someone else (the status exists
 * once reaped, where the kernel has PIDFD_INFO_EXIT), and the timeout.
 */
#include <dirent.h>
#include <pthread.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include <libpidfd.h>

#include "cli.h"
#include "internal.h"
#include "util.h"

/* The exit status of a process reaped by another is the kernel's alone. */
static bool native(void)
{
	return util_native(LPFD_FEAT_INFO_EXIT);
}

/* How each victim ends; the core one dumps in a directory of its own. */
enum end { EXIT0, EXIT3, KILLED, CORE, COUNT };
static const char *const expected[COUNT] = {
	"exited 0", "exited 3", "killed by SIGKILL",
	"killed by SIGSEGV (core dumped)",
};
static char core_dir[] = "/tmp/libpidfd-core.XXXXXX";

/* Block until the process of a pidfd has ended (polls readable). */
static void await_end(int pidfd)
{
	struct pollfd p = { .fd = pidfd, .events = POLLIN };

	while (poll(&p, 1, -1) < 0)
		if (errno != EINTR)
			_exit(95);
}

/* Ends after the victim before it (prev, a pidfd; -1 for the first). */
static void victim(enum end e, int prev)
{
	/* One after the other, each once the one before is a zombie. */
	if (prev >= 0)
		await_end(prev);
	switch (e) {
	case EXIT0:
		_exit(0);
	case EXIT3:
		_exit(3);
	case KILLED:
		raise(SIGKILL);
		break;
	default:
		util_dump_core(core_dir);
	}
	_exit(93);
}

static char pids[COUNT][16];

/* In the tool's process before exec: its children-to-be, named in argv. */
static void start_victims(char **argv, void *arg)
{
	int first = *(int *)arg, prev = -1;

	for (int e = 0; e < COUNT; e++) {
		pid_t pid = fork();

		if (pid < 0)
			_exit(94);
		if (pid == 0)
			victim((enum end)e, prev);
		snprintf(pids[e], sizeof(pids[e]), "%d", pid);
		argv[first + e] = pids[e];
		/* Close-on-exec: the tool never sees it. Our child: no reuse. */
		prev = (int)syscall(SYS_pidfd_open, pid, 0);
		if (prev < 0)
			_exit(96);
	}
}

TEST(wait_children_of_the_tool_every_ending)
{
	char *argv[] = { "pidfd", "wait", "-j", "X", "X", "X", "X", NULL };
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

		if (strcmp(json_get(l, "exit"), expected[e]) != 0)
			FAIL("line %d: want '%s': %s", e, expected[e], l);
		ASSERT_EQ(strcmp(json_get(l, "source"), "waitid"), 0);
	}
	/* The wait status, as info's EXITCODE: 3 << 8. */
	ASSERT_EQ(strcmp(json_get(line_of(o.out, 1), "exitcode"), "768"), 0);
	ASSERT_EQ(strcmp(json_get(line_of(o.out, 2), "exitcode"), "9"), 0);
	ASSERT_EQ(strcmp(json_get(line_of(o.out, 2), "signal"), "SIGKILL"), 0);
	ASSERT_EQ(strcmp(json_get(line_of(o.out, 3), "core_dumped"), "true"), 0);
	ASSERT_EQ(line_of(o.out, COUNT)[0], '\0');
}

/* The tool's pid, sent from its process just before the exec. */
static void send_own_pid(char **argv, void *arg)
{
	pid_t self = getpid();

	(void)argv;
	if (write(*(int *)arg, &self, sizeof(self)) != sizeof(self))
		_exit(97);
}

/* Whether process holder has a pidfd of target open (its fdinfo says). */
static bool holds_pidfd_of(pid_t holder, pid_t target)
{
	char dir[64], want[32], buf[512];
	struct dirent *d;
	bool found = false;
	DIR *fds;

	snprintf(dir, sizeof(dir), "/proc/%d/fdinfo", holder);
	snprintf(want, sizeof(want), "\nPid:\t%d\n", target);
	fds = opendir(dir);
	if (!fds)
		return false;
	while (!found && (d = readdir(fds)) != NULL) {
		int f;
		ssize_t n;

		f = openat(dirfd(fds), d->d_name, O_RDONLY | O_CLOEXEC);
		if (f < 0)
			continue;
		n = read(f, buf, sizeof(buf) - 1);
		close(f);
		buf[n > 0 ? n : 0] = '\0';
		found = strstr(buf, want) != NULL;
	}
	closedir(fds);
	return found;
}

static struct {
	pid_t child;
	int tool_pid, go;
} other;

/*
 * The child's parent, as a thread: let the child end only once the tool
 * holds a pidfd of it, then reap. No event tells that another process
 * opened a pidfd, so the tool's fdinfo is read again each millisecond
 * that the tool's own pidfd stays quiet: the tool ending first is a
 * failure told at once, and however long the rest takes, the harness's
 * timeout bounds it; the test's outcome depends on no time.
 */
static void *release_then_reap(void *arg)
{
	struct pollfd tool = { .events = POLLIN };
	pid_t pid;
	int status;

	(void)arg;
	ASSERT_EQ(read(other.tool_pid, &pid, sizeof(pid)), sizeof(pid));
	/* Our child, not reaped before the child below ends: no reuse. */
	tool.fd = (int)syscall(SYS_pidfd_open, pid, 0);
	ASSERT_GE(tool.fd, 0);
	while (!holds_pidfd_of(pid, other.child))
		if (poll(&tool, 1, 1) > 0)
			FAIL("the tool ended before it held a pidfd of %d",
			     other.child);
	close(tool.fd);
	ASSERT_EQ(write(other.go, "", 1), 1);
	ASSERT_EQ(waitpid(other.child, &status, 0), other.child);
	return NULL;
}

/*
 * Someone else's process (this test's child, reaped by a thread of the
 * test): its status once reaped where the kernel keeps it, else unknown.
 */
TEST(wait_other_process_reaped_by_its_parent)
{
	struct cli_out o;
	char pidstr[16], want[64], c;
	char *argv[] = { "pidfd", "wait", pidstr, NULL };
	int go[2], tool[2];
	pthread_t th;

	ASSERT_EQ(pipe2(go, O_CLOEXEC), 0);
	ASSERT_EQ(pipe2(tool, O_CLOEXEC), 0);
	other.child = fork();
	ASSERT_GE(other.child, 0);
	if (other.child == 0)
		_exit(read(go[0], &c, 1) == 1 ? 5 : 98);
	other.tool_pid = tool[0];
	other.go = go[1];
	ASSERT_EQ(pthread_create(&th, NULL, release_then_reap, NULL), 0);
	snprintf(pidstr, sizeof(pidstr), "%d", other.child);
	ASSERT_EQ(cli_run_pre(&o, argv, send_own_pid, &tool[1]), 0);
	pthread_join(th, NULL);
	snprintf(want, sizeof(want), "%s: exited 5", pidstr);
	/*
	 * Without PIDFD_INFO_EXIT the status is known only if the tool read
	 * it while the process was a zombie (its /proc stat): whether it
	 * did so before the reap is a race there.
	 */
	if (!native() && strcmp(line_of(o.out, 0), want) != 0)
		snprintf(want, sizeof(want), "%s: exited (status unknown)",
			 pidstr);
	ASSERT_EQ(strcmp(line_of(o.out, 0), want), 0);
}

TEST(wait_timeout_exits_3)
{
	struct cli_out o;
	char pidstr[16];
	int fd;

	util_spawn_text(NULL, NULL, &fd, pidstr);
	ASSERT_EQ(CLI(&o, "pidfd", "wait", "--timeout", "0.2", pidstr), 3);
	ASSERT_EQ(o.out[0], '\0');
	/* The document is whole even then, with no process in it. */
	ASSERT_EQ(CLI(&o, "pidfd", "wait", "-J", "-t", "0", pidstr), 3);
	ASSERT_TRUE(json_valid(o.out));
	ASSERT_TRUE(strstr(o.out, "\"processes\": [") != NULL);
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
	CLI_FAILS(&o, gone, "pidfd", "wait", gone, live);
	ASSERT_TRUE(strstr(o.out, live) == o.out);
	util_kill_reap(fd);
}

TEST(wait_self_is_refused)
{
	struct cli_out o;

	CLI_FAILS(&o, "self", "pidfd", "wait", "self");
}

/*
 * More processes than descriptors: the tool's children-to-be, all exiting
 * at once, and a descriptor limit of 16 (the hard limit in *arg).
 */
#define MANY 40
static char many_pids[MANY][16];

static void many_children_low_limit(char **argv, void *arg)
{
	struct rlimit rl = { 16, *(rlim_t *)arg };

	for (int i = 0; i < MANY; i++) {
		pid_t pid = fork();

		if (pid < 0)
			_exit(94);
		if (pid == 0)
			_exit(i % 7);
		snprintf(many_pids[i], sizeof(many_pids[i]), "%d", pid);
		argv[2 + i] = many_pids[i];
	}
	if (setrlimit(RLIMIT_NOFILE, &rl) < 0)
		_exit(95);
}

static int count_lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

TEST(wait_more_processes_than_descriptors)
{
	char *argv[MANY + 3] = { "pidfd", "wait" };
	struct cli_out o;
	rlim_t hard = 64;
	int watched;
	const char *list;

	/* The soft limit is raised to the hard one: all are watched. */
	ASSERT_EQ(cli_run_pre(&o, argv, many_children_low_limit, &hard), 0);
	ASSERT_EQ(o.err[0], '\0');
	ASSERT_EQ(count_lines(o.out), MANY);

	/* Still short: the rest are named, the others watched to the end. */
	hard = 16;
	ASSERT_EQ(cli_run_pre(&o, argv, many_children_low_limit, &hard), 1);
	list = strstr(o.err, "pidfd: wait: cannot watch ");
	ASSERT_TRUE(list != NULL);
	ASSERT_TRUE(strstr(o.err, "(too many open files, limit 16):") != NULL);
	watched = count_lines(o.out);
	ASSERT_TRUE(watched >= 5 && watched < MANY);
	ASSERT_EQ(atoi(list + strlen("pidfd: wait: cannot watch ")), MANY - watched);
	/* The last one named on the command line is among those left over. */
	ASSERT_TRUE(strstr(o.err, many_pids[MANY - 1]) != NULL);
	ASSERT_TRUE(strstr(o.out, many_pids[0]) != NULL);
}

/* In the tool's process: every signal's default action, none blocked. */
static void signals_default(char **argv, void *arg)
{
	sigset_t none;

	(void)argv;
	(void)arg;
	for (int sig = 1; sig < NSIG; sig++)
		signal(sig, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

/*
 * wait -J ended by SIGINT, SIGTERM or SIGHUP: one valid JSON document
 * still, and the tool ends by that signal, as a filter does.
 */
TEST(wait_json_closed_on_signal_then_reraised)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };

	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		char pidstr[16], head[256] = "";
		char *argv[] = { "pidfd", "wait", "-J", pidstr, NULL };
		struct cli_out o;
		size_t len = 0;
		int fd, out, err;
		pid_t tool;

		util_spawn_text(NULL, NULL, &fd, pidstr);
		tool = cli_start(argv, signals_default, NULL, &out, &err);
		/* The document's head is written before the tool polls. */
		while (!strchr(head, '[')) {
			ssize_t r = read(out, head + len, sizeof(head) - 1 - len);

			ASSERT_TRUE(r > 0);
			len += (size_t)r;
			head[len] = '\0';
		}
		ASSERT_EQ(kill(tool, sigs[i]), 0);
		cli_drain(out, err, &o);
		ASSERT_EQ(cli_wait(&o, tool), -1);
		ASSERT_TRUE(WIFSIGNALED(o.status));
		ASSERT_EQ(WTERMSIG(o.status), sigs[i]);
		ASSERT_TRUE(strlen(head) + strlen(o.out) < sizeof(head));
		strcat(head, o.out);
		if (!json_valid(head))
			FAIL("signal %d: not one JSON document: '%s'", sigs[i], head);
		util_kill_reap(fd);
	}
}
