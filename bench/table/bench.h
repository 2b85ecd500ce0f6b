/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the files of make bench's main table share: the rows, the
 * processes they ask about, and each file's entry points. main.c says how
 * the table is measured; each other file holds the rows of one thing
 * measured (get_info.c, floors.c, kernel.c, user.c, sentinels.c) or one
 * step of the run (timing.c, syscalls.c, report.c).
 */
#ifndef LIBPIDFD_BENCH_TABLE_H
#define LIBPIDFD_BENCH_TABLE_H

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/vfs.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <libpidfd.h>
#include <linux/futex.h>
#include <linux/magic.h>

#include "internal.h"
#include "syscall.h"

/* CPPFLAGS=-DROUNDS=181 for a longer, steadier run. */
#ifndef ROUNDS
#define ROUNDS 61
#endif
#define BATCH_NS 1500000.0   /* one batch of one row: about 1.5 ms */
#define WARMUP_NS 20000000.0 /* per row, before the rounds */
#define COUNT_ITERS 64       /* calls per row under ptrace */
#define MARK_START 0x5354415254ul
#define MARK_END 0x454e44ul

enum target { T_SELF, T_CHILD, T_ZOMBIE, T_COUNT };
extern const char *const target_name[T_COUNT];
extern int g_fd[T_COUNT];    /* a pidfd of each */
extern pid_t g_pid[T_COUNT]; /* its pid */

/* ------------------------------------------------------------------------
 * The rows. Each op makes one call and returns 0, or -1 when the call
 * failed (which stops the benchmark: a failing call is not measured).
 */
struct row;
typedef int (*op_fn)(const struct row *r);

enum path { P_NONE = -1, P_NATIVE = 0, P_EMULATED = 1 };

struct row {
	const char *group; /* rows of one group print together */
	char label[64];
	op_fn op;
	enum target t;
	uint64_t mask;
	enum path path; /* which library path the row forces */
	int sentinel;   /* PIDFD_SELF* for rows that pass one, else 0 */
	/* results */
	unsigned iters;
	double ns[ROUNDS]; /* ns/op of each round, in round order */
	double med, min;
	double syscalls;
	char sclist[160];
};

/* main.c: the run, the processes, the table. */
#define MAX_ROWS 96
extern struct row rows[MAX_ROWS];
extern int nrows;
extern int r_empty, r_floor;
extern bool g_have_ioctl; /* the kernel has PIDFD_GET_INFO */
void die(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
int sys_pidfd_open(pid_t pid, unsigned int flags);
void open_self(void);
int add(const char *group, const char *label, op_fn op, enum target t,
	uint64_t mask, enum path path, int sentinel);

/* timing.c */
extern bool g_in_uml;
double now_ns(void);
void set_path(const struct row *r);
double run_batch(struct row *r, unsigned n);
double batch_ns(void);
int cmp_double(const void *a, const void *b);
void measure_all(void);

/* syscalls.c */
void count_all(void);

/* report.c */
extern int misses;
void print_machine(void);
void print_table(void);
double ratio(int a, int b);
void target(const char *what, int a, int b, double limit);
void target_faster(const char *what, int a, int b, double times);
void info_calls(const char *what, int a, int b);
void info_value(const char *what, double x);
void info_ratio(const char *what, int a, int b);

/* get_info.c: the library's get_info, the kernel's ioctl, the floors. */
extern const char *const cg_name[2];
extern int r_ioctl[T_COUNT][2], r_native[T_COUNT][2], r_emul[T_COUNT][2];
extern int r_snative[2], r_semul[2];
void add_get_info_rows(void);
void print_native_targets(void);
void print_emulated_targets(void);

/* floors.c: the least a race-free /proc answer costs, and its proofs. */
enum proof { PR_REMEMBERED, PR_INIT, PR_NSPID, PR_COUNT };
extern const char *const proof_name[PR_COUNT];
extern enum proof g_proof; /* the cheapest one allowed here */
extern char g_cgroup_dir[512];
int op_floor_info(const struct row *r);
int op_sound_floor(const struct row *r);
/* A copy by the kernel, process_vm_readv on oneself, as the library makes. */
void copy_by_kernel(void *dst, const void *src, size_t n);
void find_proofs(void);
void floor_paths(void);
void find_cgroup_dir(void);
/* Whether name_to_handle_at() gives a never-reused mount id (6.12). */
bool handle_names_unique_mount(void);
void add_proof_rows(void);
int sound_proc_dir(void);

/* proc_open.c: libpidfd_proc_open() against open("/proc/<pid>/...") and its floor. */
void add_proc_open_rows(void);
void print_proc_open_targets(void);

/* kernel.c: the kernel work under the emulation, each piece alone. */
void add_kernel_rows(void);
void open_status_fd(void);
void print_floors(void);

/* user.c: what user code does today. */
extern int r_racy[T_COUNT];
void add_user_rows(void);

/* sentinels.c: the PIDFD_SELF* calls against opening a pidfd. */
#define SIG_IGNORED SIGURG
void map_page(void);
void add_sentinel_rows(void);
void print_sentinel_targets(void);

#endif
