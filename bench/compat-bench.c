/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * make bench: what libpidfd-compat.so costs a program for an ioctl, against
 * the same call made without it, in one run.
 *
 *   compat-bench BUILD_DIR      (the shim is BUILD_DIR/libpidfd-compat.so)
 *
 * The program runs itself again with the shim preloaded, as any program
 * the shim is meant for: its ioctl() is then the shim's. It also holds the
 * C library's own ioctl(), which the shim calls on, and times the two in
 * alternating batches in the one process (same descriptors, same pages,
 * same caches), which goes first changing each round. Each row reports
 * the median and minimum ns/op over the rounds; its ratio, which the
 * target judges, is the median over the rounds of shim/no shim within a
 * round, as in the main table: a burst of load spoils one round, not the
 * ratio. The ratio of the minimums is shown beside it. (Two processes, one
 * preloaded, differed by up to 3% with no shim in either.)
 *
 *   ioctl(FIONREAD) on a pipe   a call the shim passes on after one compare
 *   ioctl(PIDFD_GET_INFO)       the pidfs command, on a kernel that has it
 *
 * The program knows only the kernel interface: its own pidfd_info buffer.
 */
#include <dlfcn.h>
#include <errno.h>
#include <linux/ioctl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/pidfd.h>
#include <time.h>
#include <unistd.h>

#include "stats.h"

/* CPPFLAGS=-DROUNDS=301 for a longer, steadier run. */
#ifndef ROUNDS
#define ROUNDS 101
#endif
#define BATCH 4000 /* about 1.5 ms of the slower call */
#define GET_INFO_V0 _IOC(_IOC_READ | _IOC_WRITE, 0xFF, 11, 64)

enum op { OP_FIONREAD, OP_GET_INFO, OP_COUNT };
static const char *const op_name[OP_COUNT] = {
	"ioctl(FIONREAD) on a pipe",
	"ioctl(PIDFD_GET_INFO), native",
};

/* The shim's budget: GET_INFO 1.30x the bare ioctl, others 1.05x. */
static const double limit[OP_COUNT] = { 1.05, 1.30 };

typedef int (*ioctl_fn)(int, unsigned long, ...);

static void __attribute__((noreturn)) die(const char *what)
{
	fprintf(stderr, "compat-bench: %s: %s\n", what, strerror(errno));
	exit(1);
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* ns/op of one batch of op through f. */
static double batch(ioctl_fn f, enum op op, int pipe_rd, int pidfd)
{
	unsigned char info[64];
	double t0 = now_ns();
	int n;

	for (int i = 0; i < BATCH; i++) {
		if (op == OP_FIONREAD) {
			if (f(pipe_rd, FIONREAD, &n) < 0)
				die("FIONREAD");
		} else {
			memset(info, 0, 8);
			if (f(pidfd, GET_INFO_V0, info) < 0)
				die("PIDFD_GET_INFO");
		}
	}
	return (now_ns() - t0) / BATCH;
}

/* The C library's ioctl(), found through its write(), which no shim takes. */
static ioctl_fn libc_ioctl(void)
{
	void *w = dlsym(RTLD_DEFAULT, "write"), *h, *f;
	Dl_info dl;

	if (!w || !dladdr(w, &dl) || !dl.dli_fname)
		die("the C library");
	h = dlopen(dl.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
	f = h ? dlsym(h, "ioctl") : NULL;
	if (!f || f == dlsym(RTLD_DEFAULT, "ioctl"))
		die("libpidfd-compat.so not preloaded");
	return (ioctl_fn)f;
}

/* One row: its ns/op and ratios, and whether it meets its limit. */
static bool report(enum op op, double ns[2][ROUNDS])
{
	double q[ROUNDS], m[2], lo[2], x;

	for (int r = 0; r < ROUNDS; r++)
		q[r] = ns[1][r] / ns[0][r];
	x = median(q, ROUNDS);
	for (int s = 0; s < 2; s++) {
		m[s] = median(ns[s], ROUNDS);
		lo[s] = ns[s][0]; /* sorted by median() */
	}
	printf("%-32s %8.1f/%8.1f %8.1f/%8.1f %7.3fx %7.3fx <=%5.2fx %s\n",
	       op_name[op], m[0], lo[0], m[1], lo[1], x, lo[1] / lo[0],
	       limit[op], x <= limit[op] ? "PASS" : "MISS");
	return x <= limit[op];
}

/* In the preloaded process: the table. */
static int measure(void)
{
	static double ns[OP_COUNT][2][ROUNDS];
	ioctl_fn f[2] = { libc_ioctl(), (ioctl_fn)ioctl }; /* without, with the shim */
	int p[2], pidfd = pidfd_open(getpid(), 0), missed = 0;

	if (pidfd < 0 || pipe(p) || write(p[1], "x", 1) != 1)
		die("setup");
	for (int op = 0; op < OP_COUNT; op++) /* warm-up */
		for (int i = 0; i < 4; i++)
			batch(f[i & 1], (enum op)op, p[0], pidfd);
	for (int r = 0; r < ROUNDS; r++)
		for (int op = 0; op < OP_COUNT; op++)
			for (int k = 0; k < 2; k++) {
				int s = (r + k) & 1;

				ns[op][s][r] = batch(f[s], (enum op)op, p[0],
						     pidfd);
			}
	printf("# libpidfd-compat.so: ns/op, %d interleaved rounds of %d "
	       "calls; x: median of the rounds' ratios\n", ROUNDS, BATCH);
	printf("%-32s %17s %17s %8s %8s %8s\n", "call", "no shim med/min",
	       "shim med/min", "x", "x min", "target");
	for (int op = 0; op < OP_COUNT; op++)
		missed += !report((enum op)op, ns[op]);
	printf("\n# %d target(s) missed\n", missed);
	return 0;
}

int main(int argc, char **argv)
{
	char path[4096], shim[4096];

	if (argc == 3 && strcmp(argv[2], "--preloaded") == 0)
		return measure();
	if (argc != 2) {
		fprintf(stderr, "usage: %s BUILD_DIR\n", argv[0]);
		return 2;
	}
	snprintf(path, sizeof(path), "%s/libpidfd-compat.so", argv[1]);
	if (!realpath(path, shim) || access(shim, R_OK))
		die(path);
	setenv("LD_PRELOAD", shim, 1);
	execl("/proc/self/exe", argv[0], argv[1], "--preloaded", (char *)NULL);
	die("exec");
}
