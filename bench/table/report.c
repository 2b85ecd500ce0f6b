/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* make bench: the table of rows and the ratios the targets judge. */

#include "bench.h"

void print_machine(void)
{
	char line[256], model[160] = "unknown CPU";
	struct utsname u;
	FILE *f = fopen("/proc/cpuinfo", "re");

	while (f && fgets(line, sizeof(line), f)) {
		char *c = strchr(line, ':');

		if (strncmp(line, "model name", 10) == 0 && c) {
			snprintf(model, sizeof(model), "%s", c + 2);
			model[strcspn(model, "\n")] = '\0';
			g_in_uml = strcmp(model, "UML") == 0;
			break;
		}
	}
	if (f)
		fclose(f);
	uname(&u);
	printf("# libpidfd bench: Linux %s %s, %s, %ld cores\n", u.release,
	       u.machine, model, sysconf(_SC_NPROCESSORS_ONLN));
	printf("# %d interleaved rounds, batches of ~%.1f ms per row; ns/op; "
	       "syscalls/op counted under ptrace (%d calls, empty loop "
	       "subtracted)\n",
	       ROUNDS, batch_ns() / 1e6, COUNT_ITERS);
}

void print_table(void)
{
	const char *group = NULL;

	printf("\n%-48s %9s %9s %8s  %s\n", "row (ns per call)", "median",
	       "min", "syscalls", "system calls per call, counted");
	for (int i = 0; i < nrows; i++) {
		const struct row *r = &rows[i];

		if (i == r_empty)
			continue;
		if (!group || strcmp(group, r->group) != 0)
			printf("-- %s\n", group = r->group);
		printf("%-48s %9.0f %9.0f %8.2f  %s\n", r->label, r->med, r->min,
		       r->syscalls, r->sclist);
	}
}

/*
 * The ratio of two rows: the median over the rounds of the ratio within
 * each round, so that slow and quiet stretches of the run cancel out.
 */
double ratio(int a, int b)
{
	double q[ROUNDS];

	for (int i = 0; i < ROUNDS; i++)
		q[i] = rows[a].ns[i] / rows[b].ns[i];
	qsort(q, ROUNDS, sizeof(q[0]), cmp_double);
	return q[ROUNDS / 2];
}

int misses;

/* Row a must cost at most limit times row b. */
void target(const char *what, int a, int b, double limit)
{
	double x = ratio(a, b);
	bool ok = x <= limit;

	misses += !ok;
	printf("%-66s %7.2fx  <= %5.2fx  %s\n", what, x, limit,
	       ok ? "PASS" : "MISS");
}

/* Row a must be at least `times` faster than row b. */
void target_faster(const char *what, int a, int b, double times)
{
	double x = ratio(b, a);
	bool ok = x >= times;

	misses += !ok;
	printf("%-66s %7.2fx  >= %5.2fx  %s\n", what, x, times,
	       ok ? "PASS" : "MISS");
}

/* Row a's system calls per call beside row b's: counted, never a target. */
void info_calls(const char *what, int a, int b)
{
	printf("%-66s %7.2f   vs %5.2f   %s\n", what, rows[a].syscalls,
	       rows[b].syscalls, "info");
}

/* A ratio shown for what it tells, with no target on it. */
void info_value(const char *what, double x)
{
	printf("%-66s %7.2fx  %9s  %s\n", what, x, "", "info");
}

void info_ratio(const char *what, int a, int b)
{
	info_value(what, ratio(a, b));
}
