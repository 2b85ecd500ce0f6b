/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * make bench: what libpidfd-compat.so costs a program for the calls it
 * does not change, measured in one run against the same calls without it.
 *
 *   compat-bench BUILD_DIR      (the shim is BUILD_DIR/libpidfd-compat.so)
 *
 * Two copies of this program run as workers, one with the shim preloaded
 * and one without, each a plain program calling libc's ioctl() (bound to
 * the shim's in the first, as in any preloaded program). The parent has
 * them time one batch of one call in turn, alternating which goes first,
 * so that the machine's noise falls on both alike; each row reports the
 * median and minimum ns/op over the rounds, and the ratio shim/no shim of
 * the medians and of the minimums.
 *
 *   ioctl(FIONREAD) on a pipe   a call the shim passes on after one compare
 *   ioctl(PIDFD_GET_INFO)       the pidfs command on a kernel that has it:
 *                               the library's native path, one cached probe
 *
 * The program knows only the kernel interface: its own pidfd_info buffer.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/ioctl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/pidfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "stats.h"

#define ROUNDS 31
#define BATCH 20000
#define GET_INFO_V0 _IOC(_IOC_READ | _IOC_WRITE, 0xFF, 11, 64)

enum op { OP_FIONREAD, OP_GET_INFO, OP_COUNT };
static const char *const op_name[OP_COUNT] = {
	"ioctl(FIONREAD) on a pipe",
	"ioctl(PIDFD_GET_INFO), native",
};

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

/* ---- a worker: reads an op number, answers ns/op of one batch ---------- */

static double batch(enum op op, int pipe_rd, int pidfd)
{
	unsigned char info[64];
	double t0 = now_ns();
	int n;

	for (int i = 0; i < BATCH; i++) {
		if (op == OP_FIONREAD) {
			if (ioctl(pipe_rd, FIONREAD, &n) < 0)
				die("FIONREAD");
		} else {
			memset(info, 0, 8);
			if (ioctl(pidfd, GET_INFO_V0, info) < 0)
				die("PIDFD_GET_INFO");
		}
	}
	return (now_ns() - t0) / BATCH;
}

static int worker(void)
{
	int p[2], pidfd = pidfd_open(getpid(), 0);
	unsigned char op;
	double ns;

	if (pidfd < 0 || pipe(p) || write(p[1], "x", 1) != 1)
		die("worker setup");
	while (read(0, &op, 1) == 1 && op < OP_COUNT) {
		ns = batch((enum op)op, p[0], pidfd);
		if (write(1, &ns, sizeof(ns)) != sizeof(ns))
			die("worker write");
	}
	return 0;
}

/* ---- the parent --------------------------------------------------------- */

struct peer {
	pid_t pid;
	int to, from;
};

static void spawn(struct peer *w, const char *self, const char *preload)
{
	int in[2], out[2];

	/* Close-on-exec: the other worker must not hold this one's pipes. */
	if (pipe2(in, O_CLOEXEC) || pipe2(out, O_CLOEXEC))
		die("pipe");
	w->pid = fork();
	if (w->pid < 0)
		die("fork");
	if (w->pid == 0) {
		dup2(in[0], 0);
		dup2(out[1], 1);
		close(in[1]);
		close(out[0]);
		if (preload)
			setenv("LD_PRELOAD", preload, 1);
		else
			unsetenv("LD_PRELOAD");
		execl(self, self, "--worker", (char *)NULL);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	w->to = in[1];
	w->from = out[0];
}

static double ask(const struct peer *w, enum op op)
{
	unsigned char c = (unsigned char)op;
	double ns;

	if (write(w->to, &c, 1) != 1 ||
	    read(w->from, &ns, sizeof(ns)) != sizeof(ns))
		die("worker");
	return ns;
}

int main(int argc, char **argv)
{
	/* The shim's budget: GET_INFO 1.30x the bare ioctl, others 1.05x. */
	static const double limit[OP_COUNT] = { 1.05, 1.30 };
	static double ns[OP_COUNT][2][ROUNDS];
	int missed = 0;
	char self[4096], path[4096], shim[4096];
	struct peer w[2]; /* [0] without the shim, [1] with it */
	ssize_t len;

	if (argc == 2 && strcmp(argv[1], "--worker") == 0)
		return worker();
	if (argc != 2) {
		fprintf(stderr, "usage: %s BUILD_DIR\n", argv[0]);
		return 2;
	}
	len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (len < 0)
		die("/proc/self/exe");
	self[len] = '\0';
	snprintf(path, sizeof(path), "%s/libpidfd-compat.so", argv[1]);
	if (!realpath(path, shim) || access(shim, R_OK))
		die(path);
	spawn(&w[0], self, NULL);
	spawn(&w[1], self, shim);
	for (int op = 0; op < OP_COUNT; op++) /* warm-up */
		for (int i = 0; i < 4; i++)
			ask(&w[i & 1], (enum op)op);
	for (int r = 0; r < ROUNDS; r++)
		for (int op = 0; op < OP_COUNT; op++)
			for (int k = 0; k < 2; k++) {
				int which = (r + k) & 1;

				ns[op][which][r] = ask(&w[which], (enum op)op);
			}
	printf("# libpidfd-compat.so pass-through: ns/op, %d interleaved "
	       "rounds of %d calls\n", ROUNDS, BATCH);
	printf("%-32s %17s %17s %8s %8s %8s\n", "call", "no shim med/min",
	       "shim med/min", "x med", "x min", "target");
	for (int op = 0; op < OP_COUNT; op++) {
		double m[2], lo[2];
		bool ok;

		for (int s = 0; s < 2; s++) {
			m[s] = median(ns[op][s], ROUNDS);
			lo[s] = ns[op][s][0]; /* sorted by median() */
		}
		ok = m[1] / m[0] <= limit[op];
		missed += !ok;
		printf("%-32s %8.1f/%8.1f %8.1f/%8.1f %7.3fx %7.3fx <=%5.2fx %s\n",
		       op_name[op], m[0], lo[0], m[1], lo[1], m[1] / m[0],
		       lo[1] / lo[0], limit[op], ok ? "PASS" : "MISS");
	}
	printf("\n# %d target(s) missed\n", missed);
	fflush(stdout);
	for (int i = 0; i < 2; i++) {
		close(w[i].to);
		waitpid(w[i].pid, NULL, 0);
	}
	return 0;
}
