/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * make bench: "pidfd info --all" against "ps -e", the same columns, in the
 * same run, each a whole program run (exec to exit), output to /dev/null:
 *   PID,PPID,EUID,EGID,COMM     against  pid,ppid,uid,gid,comm
 *   the default columns         against  pid,ppid,ruid,euid,euser,egid,
 *                                        egroup,cgroup,comm (EXIT: none)
 *   ps aux's columns            against  ps aux
 *   the same, --sort=-rss       against  ps aux --sort=-rss
 * each natively and with LIBPIDFD_EMULATE=1 (what every kernel before 6.13
 * gets). The rounds alternate which one goes first; the time of a run is
 * its CPU time (user + system, from wait4), which the other programs of a
 * shared machine move less than the wall time (shown too); a ratio is the
 * median of the per-round ratios, ps's time over pidfd's. With the
 * machine's own processes, then with EXTRA more idle ones (children of
 * this program, started again where something ends them), where the
 * cost per process dominates: those rows are judged. Targets: pidfd no
 * slower than ps on every row; natively, with get_info in the kernel, the
 * first columns at least 2x faster.
 *   build/bench/info-all BUILD_DIR [ROUNDS]
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "stats.h"

#define ROUNDS_MAX 61
#define EXTRA 1000

#include <libpidfd.h>

static int rounds = 21;

extern char **environ;

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

struct cost {
	double cpu, wall; /* ns */
};

static double ns_of(const struct timeval *tv)
{
	return tv->tv_sec * 1e9 + tv->tv_usec * 1e3;
}

/* One run of argv, stdout to out_fd: its cost, or false. */
static bool run_cost(char *const argv[], int out_fd, struct cost *c)
{
	posix_spawn_file_actions_t fa;
	double t0 = now_ns();
	struct rusage ru;
	int status;
	pid_t pid;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, out_fd, 1);
	if (posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ) != 0) {
		posix_spawn_file_actions_destroy(&fa);
		return false;
	}
	posix_spawn_file_actions_destroy(&fa);
	if (wait4(pid, &status, 0, &ru) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0)
		return false;
	c->wall = now_ns() - t0;
	c->cpu = ns_of(&ru.ru_utime) + ns_of(&ru.ru_stime);
	return true;
}

static double run(char *const argv[], int out_fd)
{
	struct cost c;

	return run_cost(argv, out_fd, &c) ? c.wall : -1;
}

/* The lines a program writes: how many processes it listed. */
static int lines_of(char *const argv[])
{
	char tmpl[] = "/tmp/libpidfd-bench.XXXXXX", buf[65536];
	int fd = mkstemp(tmpl), lines = 0;
	ssize_t n;

	if (fd < 0)
		return -1;
	unlink(tmpl);
	if (run(argv, fd) < 0)
		return -1;
	lseek(fd, 0, SEEK_SET);
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		for (ssize_t i = 0; i < n; i++)
			lines += buf[i] == '\n';
	close(fd);
	return lines;
}

/*
 * Idle children, gone with this program; those that something else
 * ended (a shared machine) started again, before each row.
 */
static void spawn_idle(pid_t *pids, int n)
{
	for (int i = 0; i < n; i++) {
		if (pids[i] > 0 && waitpid(pids[i], NULL, WNOHANG) == 0)
			continue;
		pids[i] = fork();
		if (pids[i] == 0) {
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			for (;;)
				pause();
		}
	}
}

static void reap_idle(pid_t *pids, int n)
{
	for (int i = 0; i < n; i++)
		if (pids[i] > 0)
			kill(pids[i], SIGKILL);
	for (int i = 0; i < n; i++)
		if (pids[i] > 0)
			waitpid(pids[i], NULL, 0);
}

/*
 * What is measured: pidfd info --all -n -o tool_cols (then tool_more), or
 * ps -e -o ps_cols; or, where ps_args is set, ps with those arguments.
 */
struct row {
	const char *what;
	char *tool_cols, *ps_cols;
	bool emulate;
	char *tool_more, *ps_args[3];
};

/* The median of the per-round ratios a[r] / b[r]. */
static double median_ratio(const double *a, const double *b)
{
	double ratio[ROUNDS_MAX];

	for (int r = 0; r < rounds; r++)
		ratio[r] = a[r] / (b[r] > 0 ? b[r] : 1);
	return median(ratio, rounds);
}

/* The spread of the per-round ratios: the lowest and highest. */
static void spread(const double *a, const double *b, double *lo, double *hi)
{
	*lo = 1e300, *hi = 0;
	for (int r = 0; r < rounds; r++) {
		double x = a[r] / (b[r] > 0 ? b[r] : 1);

		*lo = x < *lo ? x : *lo, *hi = x > *hi ? x : *hi;
	}
}

/* Both programs ROUNDS times, alternating; false if one failed. */
static bool measure(const char *tool_path, const struct row *w,
		    const char *procs, double target, bool judged, bool *pass)
{
	char *tool[] = { (char *)tool_path, "info", "--all", "-n", "-o",
			 w->tool_cols, w->tool_more, NULL };
	char *ps_e[] = { "ps", "-e", "-o", w->ps_cols, NULL };
	char *ps_args[] = { "ps", w->ps_args[0], w->ps_args[1],
			    w->ps_args[2], NULL };
	char **ps = w->ps_args[0] ? ps_args : ps_e;
	double tc[ROUNDS_MAX], pc[ROUNDS_MAX], tw[ROUNDS_MAX], pw[ROUNDS_MAX];
	double ratio, wall, lo, hi;
	int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	struct cost t, p;
	int listed;

	if (w->emulate)
		setenv("LIBPIDFD_EMULATE", "1", 1);
	else
		unsetenv("LIBPIDFD_EMULATE");
	for (int i = 0; i < 3; i++) /* warm the caches */
		if (!run_cost(tool, null, &t) || !run_cost(ps, null, &p))
			return false;
	for (int r = 0; r < rounds; r++) {
		bool tool_first = r % 2 == 0;

		if ((tool_first && !run_cost(tool, null, &t)) ||
		    !run_cost(ps, null, &p) ||
		    (!tool_first && !run_cost(tool, null, &t)))
			return false;
		tc[r] = t.cpu, pc[r] = p.cpu, tw[r] = t.wall, pw[r] = p.wall;
	}
	close(null);
	listed = lines_of(tool);
	ratio = median_ratio(pc, tc);
	wall = median_ratio(pw, tw);
	spread(pc, tc, &lo, &hi);
	*pass = !judged || ratio >= target;
	printf("| %s, %s | %s | %d | %.2f | %.2f | %.2fx (%.2f-%.2f) | %.2fx "
	       "| >= %.2fx | %s |\n", w->what, w->emulate ? "emulated" : "native",
	       procs, listed, median(tc, rounds) / 1e6, median(pc, rounds) / 1e6,
	       ratio, lo, hi, wall, target,
	       !judged ? "not judged" : *pass ? "PASS" : "MISS");
	fflush(stdout);
	return true;
}

/* ps aux's columns, by ps's names. */
#define AUX "user,pid,pcpu,pmem,vsz,rss,tty,stat,start,time,args"

static const struct row rows[] = {
	{ "PID,PPID,EUID,EGID,COMM", "PID,PPID,EUID,EGID,COMM",
	  "pid,ppid,uid,gid,comm", false, NULL, { NULL } },
	{ "PID,PPID,EUID,EGID,COMM", "PID,PPID,EUID,EGID,COMM",
	  "pid,ppid,uid,gid,comm", true, NULL, { NULL } },
	{ "default columns",
	  "PID,PPID,RUID,EUID,EUSER,EGID,EGROUP,CGROUP,EXIT,COMM",
	  "pid,ppid,ruid,euid,euser,egid,egroup,cgroup,comm", false, NULL,
	  { NULL } },
	{ "default columns",
	  "PID,PPID,RUID,EUID,EUSER,EGID,EGROUP,CGROUP,EXIT,COMM",
	  "pid,ppid,ruid,euid,euser,egid,egroup,cgroup,comm", true, NULL,
	  { NULL } },
	{ "ps aux's, against ps aux", AUX, NULL, false, NULL, { "aux" } },
	{ "ps aux's, against ps aux", AUX, NULL, true, NULL, { "aux" } },
	{ "ps aux's --sort=-rss, against ps aux --sort=-rss", AUX, NULL, false,
	  "--sort=-rss", { "aux", "--sort=-rss" } },
	{ "ps aux's --sort=-rss, against ps aux --sort=-rss", AUX, NULL, true,
	  "--sort=-rss", { "aux", "--sort=-rss" } },
};

/*
 * 2x for the first columns where get_info is the kernel's; else (the
 * emulation, or the default columns, whose cgroup path and user names
 * ps reads too) no slower than ps.
 */
static double target_of(const struct row *w, bool kernel_info)
{
	return w == &rows[0] && kernel_info ? 2.0 : 1.0;
}

/*
 * Every row with the processes there are now, and idle ones kept there;
 * the misses counted. Judged with the idle ones only: the machine's own
 * may be a few dozen (a guest's), a few clock ticks, which is all a
 * guest's CPU times count in.
 */
static int measure_all(const char *tool_path, const char *procs,
		       pid_t *idle, int n_idle, bool kernel_info, int *failed)
{
	int missed = 0;

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		bool pass;

		spawn_idle(idle, n_idle);

		if (!measure(tool_path, &rows[i], procs,
			     target_of(&rows[i], kernel_info), n_idle > 0,
			     &pass))
			return ++*failed, missed;
		missed += !pass;
	}
	return missed;
}

int main(int argc, char **argv)
{
	struct libpidfd_features f = { 0 };
	char tool_path[4096], extra[32];
	static pid_t idle[EXTRA];
	int missed, failed = 0;
	bool kernel_info;

	snprintf(tool_path, sizeof(tool_path), "%s/pidfd",
		 argc > 1 ? argv[1] : "build");
	/* The tool is linked with the build's libpidfd.so, not installed. */
	setenv("LD_LIBRARY_PATH", argc > 1 ? argv[1] : "build", 1);
	if (argc > 2)
		rounds = atoi(argv[2]);
	if (rounds < 1 || rounds > ROUNDS_MAX)
		rounds = 21;
	unsetenv("LIBPIDFD_EMULATE");
	kernel_info = libpidfd_features(&f, sizeof(f)) == 0 &&
		      f.get_info == LIBPIDFD_NATIVE;
	if (lines_of((char *[]){ "ps", "-e", NULL }) < 0) {
		printf("# ps is missing (apt-get install procps): not measured\n");
		return 0;
	}
	printf("pidfd info --all -o COLUMNS against ps -e -o columns, the same "
	       "(median of %d rounds; ratio = ps CPU time / pidfd CPU time, "
	       "lowest-highest round; wall-time ratio shown)\n\n", rounds);
	printf("| columns, path | processes | listed | pidfd ms | ps ms | "
	       "ratio | wall | target | |\n");
	printf("| --- | --- | ---: | ---: | ---: | ---: | ---: | --- | --- |\n");
	missed = measure_all(tool_path, "the machine's", idle, 0, kernel_info,
			     &failed);
	snprintf(extra, sizeof(extra), "+%d idle", EXTRA);
	if (!failed)
		missed += measure_all(tool_path, extra, idle, EXTRA,
				      kernel_info, &failed);
	reap_idle(idle, EXTRA);
	if (failed)
		return printf("# a run failed\n"), 1;
	printf("\n# %d target(s) missed\n", missed);
	return 0;
}
