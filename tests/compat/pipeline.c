/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * "seq 1 N | sort -n | tail -1; exit STATUS" without a shell: each stage a
 * process of its own, exec'd afresh (so each loads the preloaded shim),
 * joined by pipes and reaped with waitid(). tests/test-compat runs it with
 * and without libpidfd-compat.so where /bin/sh is of another C library
 * than the shim (a musl build on a glibc system), which cannot load it.
 *
 *   pipeline N STATUS    prints the largest of 1..N, exits STATUS
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int by_value(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

/* seq, backwards, so that sort has work to do. */
static int stage_seq(long n)
{
	for (long i = n; i >= 1; i--)
		printf("%ld\n", i);
	return fflush(stdout) ? 1 : 0;
}

static int stage_sort(void)
{
	static long v[100000];
	size_t n = 0;

	while (n < sizeof(v) / sizeof(v[0]) && scanf("%ld", &v[n]) == 1)
		n++;
	qsort(v, n, sizeof(v[0]), by_value);
	for (size_t i = 0; i < n; i++)
		printf("%ld\n", v[i]);
	return fflush(stdout) ? 1 : 0;
}

/* Run "pipeline STAGE [N]" with in and out as its stdin and stdout. */
static pid_t start(const char *stage, char *n, int in, int out)
{
	char *argv[] = { "pipeline", (char *)stage, n, NULL };
	pid_t pid = fork();

	if (pid == 0) {
		if (dup2(in, 0) < 0 || dup2(out, 1) < 0)
			_exit(126);
		execv("/proc/self/exe", argv);
		_exit(127);
	}
	return pid;
}

static int reaped_ok(pid_t pid)
{
	siginfo_t si;

	return pid > 0 && waitid(P_PID, (id_t)pid, &si, WEXITED) == 0 &&
	       si.si_code == CLD_EXITED && si.si_status == 0;
}

int main(int argc, char **argv)
{
	int a[2], b[2];
	long last = -1, x;
	pid_t seq, sort;
	FILE *in;

	if (argc == 3 && strcmp(argv[1], "seq") == 0)
		return stage_seq(atol(argv[2]));
	if (argc == 2 && strcmp(argv[1], "sort") == 0)
		return stage_sort();
	if (argc != 3 || pipe(a) || pipe(b))
		return 2;
	seq = start("seq", argv[1], 0, a[1]);
	close(a[1]);
	sort = start("sort", NULL, a[0], b[1]);
	close(a[0]);
	close(b[1]);
	in = fdopen(b[0], "r");
	while (in && fscanf(in, "%ld", &x) == 1)
		last = x;
	if (!reaped_ok(seq) || !reaped_ok(sort))
		return 2;
	printf("%ld\n", last);
	return atoi(argv[2]);
}
