/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* make bench: the PIDFD_SELF* calls, against opening a pidfd on oneself. */

#include "bench.h"

/*
 * The sentinel calls on oneself, against what a program does without
 * them: open a pidfd on itself, make the call, close it. The signal is
 * one the process ignores, so the kernel drops it at once.
 */
static char *g_page; /* one page of our own, for the advice */

void map_page(void)
{
	g_page = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (g_page == MAP_FAILED)
		die("mmap");
	g_page[0] = 1;
}

static int op_signal(const struct row *r)
{
	return libpidfd_send_signal(r->sentinel, SIG_IGNORED, NULL, 0);
}

static int op_open_signal_close(const struct row *r)
{
	int fd = sys_pidfd_open(g_pid[r->t], 0), ret;

	if (fd < 0)
		return -1;
	ret = (int)syscall(SYS_pidfd_send_signal, fd, SIG_IGNORED, NULL, 0);
	close(fd);
	return ret;
}

static int op_getfd(const struct row *r)
{
	int fd = libpidfd_getfd(r->sentinel, 0, 0);

	return fd < 0 ? -1 : close(fd);
}

static int op_open_getfd_close(const struct row *r)
{
	int pidfd = sys_pidfd_open(g_pid[r->t], 0), fd;

	if (pidfd < 0)
		return -1;
	fd = (int)syscall(SYS_pidfd_getfd, pidfd, 0, 0);
	close(pidfd);
	return fd < 0 ? -1 : close(fd);
}

static int op_dupfd(const struct row *r)
{
	int fd = fcntl(0, F_DUPFD_CLOEXEC, 0);

	(void)r;
	return fd < 0 ? -1 : close(fd);
}

static int op_madvise(const struct row *r)
{
	struct iovec iov = { g_page, 4096 };

	return libpidfd_process_madvise(r->sentinel, &iov, 1, MADV_COLD, 0) ==
		4096 ? 0 : -1;
}

/*
 * The least a sound emulation of process_madvise() on oneself does: the
 * iovec array read by the kernel (gettid, process_vm_readv: EFAULT, never
 * a crash, where another thread unmaps it meanwhile), then madvise(2) on
 * each range. The kernel's own checks of the array need no system call
 * for ranges below the stack (src/process_madvise.c).
 */
static int op_madvise_floor(const struct row *r)
{
	struct iovec iov = { g_page, 4096 }, v;

	(void)r;
	copy_by_kernel(&v, &iov, sizeof(v));
	return (int)syscall(SYS_madvise, v.iov_base, v.iov_len, MADV_COLD);
}

static int op_open_madvise_close(const struct row *r)
{
	struct iovec iov = { g_page, 4096 };
	int fd = sys_pidfd_open(g_pid[r->t], 0);
	long n;

	if (fd < 0)
		return -1;
	n = syscall(SYS_process_madvise, fd, &iov, 1, MADV_COLD, 0);
	close(fd);
	return n == 4096 ? 0 : -1;
}

enum sentinel_call { S_SIGNAL, S_GETFD, S_MADVISE, S_COUNT };
static const char *const call_name[S_COUNT] = { "send_signal", "getfd",
						"process_madvise" };
static const op_fn call_op[S_COUNT] = { op_signal, op_getfd, op_madvise };
static const op_fn call_open_op[S_COUNT] = { op_open_signal_close,
					     op_open_getfd_close,
					     op_open_madvise_close };
static int r_call[S_COUNT][2], r_call_open[S_COUNT], r_dupfd, r_madvise_floor;

void add_sentinel_rows(void)
{
	static const char g[] = "sentinels: the call on oneself";
	char l[96];

	for (int c = 0; c < S_COUNT; c++) {
		if (c == S_MADVISE)
			r_madvise_floor = add(g, "sound floor: iovecs copied + madvise",
					      op_madvise_floor, T_SELF, 0,
					      P_NONE, 0);
		for (int p = P_NATIVE; p <= P_EMULATED; p++) {
			snprintf(l, sizeof(l), "%s(PIDFD_SELF) %s",
				 call_name[c], p ? "emulated" : "native");
			r_call[c][p] = add(g, l, call_op[c], T_SELF, 0, p,
					   PIDFD_SELF);
		}
		snprintf(l, sizeof(l), "pidfd_open + %s + close", call_name[c]);
		r_call_open[c] = add(g, l, call_open_op[c], T_SELF, 0, P_NONE,
				     0);
	}
	r_dupfd = add(g, "fcntl(F_DUPFD_CLOEXEC) + close", op_dupfd, T_SELF,
		      0, P_NONE, 0);
	for (int p = P_NATIVE; p <= P_EMULATED; p++) {
		snprintf(l, sizeof(l), "send_signal(PIDFD_SELF_PROCESS) %s",
			 p ? "emulated" : "native");
		add(g, l, op_signal, T_SELF, 0, p, PIDFD_SELF_PROCESS);
		snprintf(l, sizeof(l), "getfd(PIDFD_SELF_PROCESS) %s",
			 p ? "emulated" : "native");
		add(g, l, op_getfd, T_SELF, 0, p, PIDFD_SELF_PROCESS);
	}
}

/*
 * process_madvise() is judged against its sound floor, on every kernel:
 * the copy of the iovecs that EFAULT, never a crash, needs costs about
 * what opening and closing a pidfd costs, so no sound emulation is 2.5x
 * faster than pidfd_open + call + close, nor within 1.2x of the one native
 * call; those ratios are shown (bench/README.md, "Targets retired").
 */
static void print_madvise_targets(void)
{
	const int emul = r_call[S_MADVISE][P_EMULATED];

	info_ratio("process_madvise(PIDFD_SELF) emulated / native", emul,
		   r_call[S_MADVISE][P_NATIVE]);
	info_ratio("process_madvise(PIDFD_SELF) emulated faster than pidfd_open+call+close",
		   r_call_open[S_MADVISE], emul);
	info_ratio("process_madvise sound floor / native", r_madvise_floor,
		   r_call[S_MADVISE][P_NATIVE]);
	target("process_madvise(PIDFD_SELF) emulated / its sound floor", emul,
	       r_madvise_floor, 1.1);
	target_calls("process_madvise(PIDFD_SELF) emulated: system calls <= its sound floor's",
		     emul, r_madvise_floor);
}

void print_sentinel_targets(void)
{
	static const double limit[S_COUNT] = { 1.3, 1.2, 1.2 };
	char w[128];

	for (int c = 0; c < S_COUNT; c++) {
		int base = c == S_GETFD ? r_dupfd : r_call[c][P_NATIVE];

		if (c == S_MADVISE) {
			print_madvise_targets();
			continue;
		}
		snprintf(w, sizeof(w), "%s(PIDFD_SELF) emulated / %s", call_name[c],
			 c == S_GETFD ? "bare fcntl(F_DUPFD_CLOEXEC) + close" :
					"native");
		if (g_in_uml)
			info_ratio(w, r_call[c][P_EMULATED], base);
		else
			target(w, r_call[c][P_EMULATED], base, limit[c]);
		snprintf(w, sizeof(w),
			 "%s(PIDFD_SELF) emulated faster than pidfd_open+call+close",
			 call_name[c]);
		if (g_in_uml)
			info_ratio(w, r_call_open[c], r_call[c][P_EMULATED]);
		else
			target_faster(w, r_call[c][P_EMULATED], r_call_open[c], 2.5);
	}
}
