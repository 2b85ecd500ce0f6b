/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * make bench: what libpidfd costs, measured side by side in one run against
 * the kernel's own calls and against what user code does today.
 *
 * Every row is one operation, timed in batches of a few thousand calls
 * (about BATCH_NS each). After a warm-up, each round times one batch of
 * every row, starting at a different row each round, so that whatever
 * noise the machine makes falls on all rows alike; each row reports the
 * median and the minimum ns/op over the rounds, and every ratio is the
 * median over the rounds of the two rows' ratio within each round.
 *
 * The system calls per call are counted, not guessed: a forked child runs
 * COUNT_ITERS calls of one row under ptrace(PTRACE_SYSCALL) between two
 * marker calls, the parent counts the syscall-entry stops in between, and
 * the count of an empty loop is subtracted.
 *
 * Linked with the static library, so that one process can switch between
 * the native and the emulated path (lpfd_emulate_override).
 *
 * A new row goes in the file of what it measures (bench.h lists them),
 * added by that file's add_*_rows() and judged by its print_*_targets();
 * a new kind of measurement is a new file, called from build_table() and
 * print_targets() below.
 */

#include "bench.h"

/* The processes the rows ask about. */
const char *const target_name[T_COUNT] = { "self", "child", "zombie" };
int g_fd[T_COUNT];
pid_t g_pid[T_COUNT];

void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "bench: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, " (errno %d: %s)\n", errno, strerror(errno));
	va_end(ap);
	exit(1);
}

int sys_pidfd_open(pid_t pid, unsigned int flags)
{
	return (int)syscall(SYS_pidfd_open, pid, flags);
}

void open_self(void)
{
	g_pid[T_SELF] = getpid();
	g_fd[T_SELF] = sys_pidfd_open(g_pid[T_SELF], 0);
	if (g_fd[T_SELF] < 0)
		die("pidfd_open(self)");
}

/* A child that sleeps until killed, and one that exits at once, unreaped. */
static void make_targets(void)
{
	siginfo_t si;
	pid_t pid;

	open_self();
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		for (;;)
			pause();
	}
	g_pid[T_CHILD] = pid;
	g_fd[T_CHILD] = sys_pidfd_open(pid, 0);
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0)
		_exit(0);
	g_pid[T_ZOMBIE] = pid;
	g_fd[T_ZOMBIE] = sys_pidfd_open(pid, 0);
	if (g_fd[T_CHILD] < 0 || g_fd[T_ZOMBIE] < 0)
		die("pidfd_open(child)");
	if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOWAIT) < 0)
		die("waitid(zombie)");
}

static void end_targets(void)
{
	kill(g_pid[T_CHILD], SIGKILL);
	waitpid(g_pid[T_CHILD], NULL, 0);
	waitpid(g_pid[T_ZOMBIE], NULL, 0);
}

/* ------------------------------------------------------------------------
 * The rows. Each op makes one call and returns 0, or -1 when the call
 * failed (which stops the benchmark: a failing call is not measured).
 */
static int op_empty(const struct row *r)
{
	(void)r;
	return 0;
}

static int op_floor(const struct row *r)
{
	(void)r;
	return syscall(SYS_getppid) > 0 ? 0 : -1;
}

/* ------------------------------------------------------------------------
 * The table, built at start-up; the targets name rows by index.
 */
struct row rows[MAX_ROWS];
int nrows;

int add(const char *group, const char *label, op_fn op, enum target t,
	uint64_t mask, enum path path, int sentinel)
{
	struct row *r = &rows[nrows];

	if (nrows == MAX_ROWS)
		die("too many rows");
	r->group = group;
	snprintf(r->label, sizeof(r->label), "%s", label);
	r->op = op;
	r->t = t;
	r->mask = mask;
	r->path = path;
	r->sentinel = sentinel;
	return nrows++;
}

int r_empty, r_floor;
bool g_have_ioctl;

static void build_table(void)
{
	r_empty = add("", "empty loop", op_empty, T_SELF, 0, P_NONE, 0);
	r_floor = add("floor", "getppid() via syscall()", op_floor, T_SELF, 0,
		      P_NONE, 0);
	add_get_info_rows();
	add_user_rows();
	add_sentinel_rows();
	add_kernel_rows();
	add_proof_rows();
	add_proc_open_rows();
}

static void print_targets(void)
{
	printf("\n%-66s %8s  %9s  %s\n", "target (median of per-round ratios)",
	       "ratio", "limit", "result");
	print_native_targets();
	print_emulated_targets();
	print_sentinel_targets();
	print_proc_open_targets();
	print_floors();
}

static bool probe_ioctl(void)
{
	struct pidfd_info info = { .mask = 0 };

	return ioctl(g_fd[T_SELF], PIDFD_GET_INFO, &info) == 0;
}

int main(void)
{
	double t0 = now_ns();

	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIG_IGNORED, SIG_IGN);
	map_page();
	make_targets();
	g_have_ioctl = probe_ioctl();
	find_proofs();
	floor_paths();
	build_table();
	find_cgroup_dir();
	open_status_fd();
	print_machine();
	measure_all();
	count_all();
	end_targets();
	print_table();
	print_targets();
	printf("\n# %d target(s) missed; the run took %.1f s\n", misses,
	       (now_ns() - t0) / 1e9);
	return 0;
}
