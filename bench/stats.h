/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the bench programs share: the median of their rounds. */
#ifndef LIBPIDFD_BENCH_STATS_H
#define LIBPIDFD_BENCH_STATS_H

#include <stdlib.h>

static inline int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median of v[0..n), which it sorts in place. */
static inline double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return v[n / 2];
}

#endif
