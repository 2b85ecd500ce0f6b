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

/*
 * The least a sound emulation of send_signal(PIDFD_SELF) does: learn the
 * calling thread's id, then signal it. The id cannot be remembered (a
 * vfork() child shares the parent's memory, a raw clone() runs no fork
 * handler: glibc dropped its cached pid for that), so it costs a call.
 */
static int op_signal_floor(const struct row *r)
{
	(void)r;
	return (int)syscall(SYS_tkill, (pid_t)syscall(SYS_gettid), SIG_IGNORED);
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
static int r_call[S_COUNT][2], r_call_open[S_COUNT], r_dupfd, r_madvise_floor,
	   r_signal_floor;

void add_sentinel_rows(void)
{
	static const char g[] = "sentinels: the call on oneself";
	char l[96];

	for (int c = 0; c < S_COUNT; c++) {
		if (c == S_SIGNAL)
			r_signal_floor = add(g, "sound floor: gettid + tkill",
					     op_signal_floor, T_SELF, 0, P_NONE,
					     0);
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
 * A call on PIDFD_SELF judged against its sound floor, what no sound
 * emulation can do without; its ratios to the native call and to
 * pidfd_open + call + close are shown, not judged, for the reasons each
 * call's comment gives.
 *
 * send_signal() on the calling thread: the thread's id costs one system
 * call more than the native call, so where a system call costs more than
 * the signal (under a hypervisor that traps each, as PVM does) no sound
 * emulation is within 1.3x of the native call nor 2.5x faster than
 * pidfd_open + call + close.
 */
static void print_floor_targets(int c, int floor)
{
	const int emul = r_call[c][P_EMULATED];
	const char *n = call_name[c];
	char w[96];

	snprintf(w, sizeof(w), "%s(PIDFD_SELF) emulated / native", n);
	info_ratio(w, emul, r_call[c][P_NATIVE]);
	snprintf(w, sizeof(w),
		 "%s(PIDFD_SELF) emulated faster than pidfd_open+call+close", n);
	info_ratio(w, r_call_open[c], emul);
	snprintf(w, sizeof(w), "%s(PIDFD_SELF) emulated / its sound floor", n);
	target(w, emul, floor, 1.1);
	snprintf(w, sizeof(w),
		 "%s(PIDFD_SELF) emulated: system calls, its sound floor's", n);
	info_calls(w, emul, floor);
}

/*
 * process_madvise() is judged against its sound floor, on every kernel:
 * the copy of the iovecs that EFAULT, never a crash, needs costs about
 * what opening and closing a pidfd costs, so no sound emulation is 2.5x
 * faster than pidfd_open + call + close, nor within 1.2x of the one native
 * call.
 */
static void print_madvise_targets(void)
{
	print_floor_targets(S_MADVISE, r_madvise_floor);
	info_ratio("process_madvise sound floor / native", r_madvise_floor,
		   r_call[S_MADVISE][P_NATIVE]);
}

/*
 * getfd() on oneself is judged against what it does, a bare fcntl(): how
 * much faster that is than pidfd_open + pidfd_getfd + close depends on
 * what pidfd_open costs against a system call on the host (2.4-2.8x
 * here), so that ratio is shown.
 */
static void print_getfd_targets(void)
{
	const int emul = r_call[S_GETFD][P_EMULATED];
	const char *w = "getfd(PIDFD_SELF) emulated / bare fcntl(F_DUPFD_CLOEXEC) + close";

	info_ratio("getfd(PIDFD_SELF) emulated faster than pidfd_open+call+close",
		   r_call_open[S_GETFD], emul);
	if (g_in_uml)
		info_ratio(w, emul, r_dupfd);
	else
		target(w, emul, r_dupfd, 1.2);
}

void print_sentinel_targets(void)
{
	print_floor_targets(S_SIGNAL, r_signal_floor);
	print_getfd_targets();
	print_madvise_targets();
}
