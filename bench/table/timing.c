/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* make bench: timing the rows, in interleaved rounds. */

#include "bench.h"

double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

void set_path(const struct row *r)
{
	if (r->path != P_NONE)
		lpfd_emulate_override(r->path == P_EMULATED);
}

double run_batch(struct row *r, unsigned n)
{
	double t0, t1;

	set_path(r);
	t0 = now_ns();
	for (unsigned i = 0; i < n; i++)
		if (__builtin_expect(r->op(r) < 0, 0))
			die("row \"%s\" failed", r->label);
	t1 = now_ns();
	return (t1 - t0) / n;
}

/*
 * Under user-mode-linux every system call costs about the same tens of
 * microseconds, so a ratio there is the ratio of system call counts: the
 * sentinel targets, set on real hardware, are shown but not judged.
 */
bool g_in_uml;

/*
 * Under user-mode-linux a call to the emulation costs ~300 us: a 1.5 ms
 * batch would be five calls, and one hiccup of the host would move a
 * whole round's ratio. There a batch is eight times longer.
 */
double batch_ns(void)
{
	return g_in_uml ? 8 * BATCH_NS : BATCH_NS;
}

/* Warm up every row and size its batches to about batch_ns(). */
static void warm_up(struct row *r)
{
	double t0 = now_ns(), per;
	unsigned n = 16;

	while (now_ns() - t0 < WARMUP_NS) {
		per = run_batch(r, n);
		if (n < (1u << 20))
			n *= 2;
	}
	per = run_batch(r, 256);
	r->iters = per > 0 ? (unsigned)(batch_ns() / per) : 100000;
	if (r->iters < 8)
		r->iters = 8;
}

int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

void measure_all(void)
{
	for (int i = 0; i < nrows; i++)
		warm_up(&rows[i]);
	for (int round = 0; round < ROUNDS; round++)
		for (int k = 0; k < nrows; k++) {
			struct row *r = &rows[(k + round) % nrows];

			r->ns[round] = run_batch(r, r->iters);
		}
	for (int i = 0; i < nrows; i++) {
		struct row *r = &rows[i];
		double sorted[ROUNDS];

		memcpy(sorted, r->ns, sizeof(sorted));
		qsort(sorted, ROUNDS, sizeof(sorted[0]), cmp_double);
		r->med = sorted[ROUNDS / 2];
		r->min = sorted[0];
	}
}
