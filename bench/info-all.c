/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * make bench: "pidfd info --all" against "ps -e", the same columns, in the
 * same run: pidfd info --all -o PID,PPID,EUID,EGID,COMM and
 * ps -e -o pid,ppid,uid,gid,comm, each a whole program run (exec to exit),
 * output to /dev/null. The rounds alternate which one goes first; the
 * ratio is the median of the per-round ratios, ps's time over pidfd's.
 * Twice: with the machine's own processes, and with EXTRA more idle ones
 * (children of this program), where the cost per process dominates.
 * The target, natively: pidfd at least 2x faster.
 *   build/bench/info-all BUILD_DIR
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
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "stats.h"

#define ROUNDS 21
#define EXTRA 1000
#define TARGET 2.0

extern char **environ;

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* One run of argv, stdout to out_fd: its wall time in ns, or -1. */
static double run(char *const argv[], int out_fd)
{
	posix_spawn_file_actions_t fa;
	double t0 = now_ns();
	int status;
	pid_t pid;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, out_fd, 1);
	if (posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ) != 0) {
		posix_spawn_file_actions_destroy(&fa);
		return -1;
	}
	posix_spawn_file_actions_destroy(&fa);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0)
		return -1;
	return now_ns() - t0;
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

/* Idle children, gone with this program. */
static void spawn_idle(pid_t *pids, int n)
{
	for (int i = 0; i < n; i++) {
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

/* Both programs ROUNDS times, alternating; false if one failed. */
static bool measure(char *const tool[], char *const ps[], const char *what,
		    bool *pass)
{
	double t_tool[ROUNDS], t_ps[ROUNDS], ratio[ROUNDS];
	int null = open("/dev/null", O_WRONLY | O_CLOEXEC);

	for (int w = 0; w < 3; w++) /* warm the caches */
		if (run(tool, null) < 0 || run(ps, null) < 0)
			return false;
	for (int r = 0; r < ROUNDS; r++) {
		bool tool_first = r % 2 == 0;

		if (tool_first)
			t_tool[r] = run(tool, null);
		t_ps[r] = run(ps, null);
		if (!tool_first)
			t_tool[r] = run(tool, null);
		if (t_tool[r] < 0 || t_ps[r] < 0)
			return false;
		ratio[r] = t_ps[r] / t_tool[r];
	}
	close(null);
	printf("%-36s %4d/%4d procs  pidfd %6.2f ms  ps %6.2f ms  "
	       "%5.2fx  >= %.2fx  %s\n", what, lines_of(tool), lines_of(ps) - 1,
	       median(t_tool, ROUNDS) / 1e6, median(t_ps, ROUNDS) / 1e6,
	       median(ratio, ROUNDS), TARGET,
	       median(ratio, ROUNDS) >= TARGET ? "PASS" : "MISS");
	*pass = median(ratio, ROUNDS) >= TARGET;
	return true;
}

int main(int argc, char **argv)
{
	char tool_path[4096];
	char *tool[] = { tool_path, "info", "--all", "-n", "-o",
			 "PID,PPID,EUID,EGID,COMM", NULL };
	char *ps[] = { "ps", "-e", "-o", "pid,ppid,uid,gid,comm", NULL };
	static pid_t idle[EXTRA];
	bool pass_own = false, pass_many = false, ok;

	snprintf(tool_path, sizeof(tool_path), "%s/pidfd",
		 argc > 1 ? argv[1] : "build");
	unsetenv("LIBPIDFD_EMULATE");
	printf("pidfd info --all -o PID,PPID,EUID,EGID,COMM vs "
	       "ps -e -o pid,ppid,uid,gid,comm (median of %d rounds, "
	       "ratio = ps time / pidfd time)\n", ROUNDS);
	if (lines_of(ps) < 0) {
		printf("# ps is missing (apt-get install procps): not measured\n");
		return 0;
	}
	if (!measure(tool, ps, "the machine's processes", &pass_own))
		return printf("# a run failed\n"), 1;
	spawn_idle(idle, EXTRA);
	ok = measure(tool, ps, "with 1000 more idle processes", &pass_many);
	reap_idle(idle, EXTRA);
	if (!ok)
		return printf("# a run failed\n"), 1;
	printf("# %d target(s) missed\n", !pass_own + !pass_many);
	return 0;
}
