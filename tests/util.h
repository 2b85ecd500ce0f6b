/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Helpers shared by the tests: children and threads to query, both library
 * paths, processes at a chosen pid, namespaces, open descriptors, cgroups.
 */
#ifndef LIBPIDFD_TEST_UTIL_H
#define LIBPIDFD_TEST_UTIL_H

#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <libpidfd.h>

/*
 * The 32-bit id calls, where the plain ones take 16-bit ids (i386 and
 * others that kept the old calls under the plain names).
 */
#ifdef SYS_setresuid32
#define UTIL_SYS_setresuid SYS_setresuid32
#define UTIL_SYS_setresgid SYS_setresgid32
#define UTIL_SYS_setfsuid SYS_setfsuid32
#define UTIL_SYS_setfsgid SYS_setfsgid32
#else
#define UTIL_SYS_setresuid SYS_setresuid
#define UTIL_SYS_setresgid SYS_setresgid
#define UTIL_SYS_setfsuid SYS_setfsuid
#define UTIL_SYS_setfsgid SYS_setfsgid
#endif

#include "harness.h"
#include "syscall.h" /* P_PIDFD where <sys/wait.h> lacks it */

#define UTIL_COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* ------------------------------------------------------------------------
 * Children and threads.
 */

/* A child that runs fn (if any) and then sleeps until killed; 0 when fn is done. */
pid_t util_spawn(void (*fn)(void *), void *arg, int *pidfd);
/* As util_spawn(), with the pid also as text, for a command line. */
pid_t util_spawn_text(void (*fn)(void *), void *arg, int *pidfd,
		      char text[16]);
/*
 * In a child: dump core (core_pattern "core") in dir; exits 92 where it
 * cannot enter dir or lift the core limit, 93 where it survives.
 */
void util_dump_core(const char *dir) __attribute__((noreturn));
/* A child that exits at once with this code, left unreaped (a zombie). */
pid_t util_zombie(int code, int *pidfd);
/* Block until the pidfd polls readable (the process exited). */
void util_wait_exit(int pidfd);
/* Kill a child through its pidfd, reap it (its pid is free again), close it. */
void util_kill_reap(int pidfd);
/* The same, leaving the pidfd open: another thread may be using it. */
void util_kill_reap_keep_fd(int pidfd);
/* Run fn in a new thread and wait for it; it fails the test itself. */
void util_in_thread(void *(*fn)(void *), void *arg);
/* A thread that is not the leader, parked until let go; returns its tid. */
struct util_parked {
	pthread_t thread;
	pthread_barrier_t started, may_exit;
	pid_t tid;
};
pid_t util_park_thread(struct util_parked *p);
void util_unpark_thread(struct util_parked *p);

/* ------------------------------------------------------------------------
 * The two library paths. The harness runs each test in a process of its
 * own, so the choice does not leak into other tests.
 */

/*
 * From now on, the emulated path, or the kernel's where it has one (else
 * the emulation again): every mode runs both.
 */
void util_set_path(bool emulated);
/*
 * A table of calls, made on both paths to be compared with another made
 * elsewhere (as another user, in a sandbox): out[path * n + i] is call i's
 * return, its errno where it failed (else 0) and the info it wrote, zeroed
 * before; the native path's first. A descriptor a call returns is closed
 * and answered as 0 (util_fd_answer()): its number depends on what else
 * is open.
 */
struct util_answer {
	long ret;
	int err;
	struct pidfd_info info;
};
typedef long util_call_fn(int i, struct pidfd_info *info, void *arg);
void util_answer_table(struct util_answer *out, int n, util_call_fn *call,
		       void *arg);
long util_fd_answer(long r);
/* libpidfd_features() into an answer's info, as far as it holds. */
long util_features_answer(struct pidfd_info *info);
/*
 * process_madvise() of one page of this program's data: mapped alike in
 * its forks, so that it names memory in every process the tests target.
 */
long util_madvise_page(int pidfd, int advice, unsigned int flags);

/*
 * Whether this process may not read its own /proc/thread-self/fdinfo: one
 * that is not dumpable, and not root, before Linux 5.14. Asked of the
 * kernel, by behaviour, never by its version.
 */
bool util_own_fdinfo_refused(void);
/* Run check on the emulated path, then on the kernel's. */
void util_both_paths(void (*check)(void *), void *arg);

/* Run libpidfd_get_info on one path (emulate or not), keeping errno. */
struct util_res {
	int ret;
	int err;
	unsigned char buf[256]; /* the struct, then bytes that must stay untouched */
};
void util_get_info(int fd, uint64_t mask, size_t size, bool emulate,
		   struct util_res *r);
bool util_have_native_info(void);
/*
 * ioctl(fd, PIDFD_GET_INFO of size bytes, info) through libpidfd-compat.so
 * (dlopened from the build directory), as a preloaded program makes it:
 * the shim takes the path LIBPIDFD_EMULATE gives (the test's mode).
 */
int util_shim_get_info(int fd, void *info, size_t size);
/* Whether that path is the emulated one. */
bool util_shim_emulated(void);
/*
 * What the running kernel has, from the library's probe table (an enum
 * lpfd_feature), whatever LIBPIDFD_EMULATE says: tests expect what the
 * kernel has, never what a mode name suggests.
 */
/* A file of the source tree (tests run from it), whole; free() it. */
char *util_read_text(const char *path);
/*
 * One read of fd into buf, NUL-terminated, then fd closed: the length, or
 * -1 (fd < 0 too). Async-signal-safe, for a handler's calls.
 */
ssize_t util_read_close(int fd, char *buf, size_t size);
bool util_kernel_has(int feat);
/* What the library uses: the kernel's feature, unless emulation is forced. */
bool util_native(int feat);
/*
 * Whether a reaped process's exit status comes through the native
 * PIDFD_GET_INFO (PIDFD_INFO_EXIT, 6.15). Under a kernel personality
 * (tests/personality.c) the struct is the host kernel's, exit status
 * included, which no filter can take away: then it is the host's answer.
 */
bool util_exit_after_reap(void);
/* The raw kernel's answer to that, asked with a child of our own. */
bool util_kernel_gives_exit_after_reap(void);
/* SO_PEERPIDFD (Linux 6.5), which the library does not probe. */
bool util_kernel_has_peerpidfd(void);
bool util_kernel_has_open_nonblock(void);
/* Whether the kernel checks a siginfo's tail (E2BIG): not for compat. */
bool util_siginfo_tail_checked(void);

/* ------------------------------------------------------------------------
 * The PIDFD_SELF* sentinels.
 */

/* Every value naming the caller, and the thread-group ones among them. */
extern const int util_self_values[3];
bool util_is_group_value(int v);
/* Negative values that name nothing. */
extern const int util_bad_values[6];

/* ------------------------------------------------------------------------
 * Processes at a chosen pid (clone3 with set_tid, 5.5).
 */

/* clone3's argument struct, version 1 (set_tid, 5.5), spelled out here. */
struct util_clone_args {
	uint64_t flags, pidfd, child_tid, parent_tid, exit_signal, stack,
		stack_size, tls, set_tid, set_tid_size;
};

/*
 * A fork-like clone3: the child (which returns 0) must keep to raw system
 * calls if the caller has threads, since glibc does not know about it.
 * *pidfd gets a pidfd; a pid > 0 in want forces the pid (set_tid) in the
 * caller's own pid namespace. Returns the pid, or -errno.
 */
pid_t util_clone(uint64_t flags, pid_t want, int *pidfd);

/*
 * A "generation": a process at a forced pid whose ids tell it apart from
 * every other (uid, and gid = uid + UTIL_GID_OFF), so that an answer
 * describing another process is seen at once. It shares our memory
 * (CLONE_VM): under user-mode-linux a new address space costs ~6 ms and a
 * shared one ~0.8 ms, which is what makes thousands of reuses affordable.
 * It runs on its own stack, makes raw system calls only, sets its ids,
 * says so through a futex word and sleeps until it is killed.
 */
#define UTIL_GID_OFF 50000u
#define UTIL_GEN_STACK 16384

struct util_gen {
	unsigned int uid;
	int ready; /* futex word: 1 ids set, 2 failed */
	char stack[UTIL_GEN_STACK] __attribute__((aligned(16)));
};

/* Start a generation at pid want (0: any) and wait until its ids are set. */
pid_t util_spawn_gen(struct util_gen *g, unsigned int uid, pid_t want,
		     int *pidfd);

/* ------------------------------------------------------------------------
 * Namespaces.
 */

/*
 * Run fn in pid 1 of a new pid namespace and fail the test unless it exits
 * 0. With fresh_proc, the init has a private mount namespace and a /proc
 * of its own (the emulation reads /proc from the caller's namespace, so
 * that /proc then speaks for the new one); without, it keeps the parent
 * namespace's /proc. The calling test process is a forked child of the
 * harness, so unsharing its pid namespace touches nothing else.
 */
void util_in_pidns(void (*fn)(void), bool fresh_proc);

/* The build directory's tests/, where the running test binary is. */
const char *util_tests_dir(void);
/* Run fn(arg) in a forked child, then exit 0: its wait status. */
int util_child_status(void (*fn)(void *), void *arg);
/* Run fn(arg) in a forked child; it must exit 0. */
void util_in_child(void (*fn)(void *), void *arg);
/* Run fn in a forked child with a private mount namespace; it must exit 0. */
void util_in_private_mounts(void (*fn)(void));

/* ------------------------------------------------------------------------
 * Stopping a process at its system calls (seccomp user notification).
 */

struct seccomp_notif;
struct seccomp_notif_resp;
/*
 * At the stop-th stopped system call: true if resp now answers the call
 * (the hook filled in val or error), false to let it go on.
 */
typedef bool (*util_stop_hook)(int stop, const struct seccomp_notif *req,
			       struct seccomp_notif_resp *resp, void *arg);
/*
 * Stop the calling thread (and what it execs) at each call of system call
 * nr, or at every system call where nr is -1: installs a seccomp filter
 * with a user notification listener, which it returns (close-on-exec), or
 * -1 with errno.
 */
int util_notif_filter(long nr);
/* The same for two system calls. */
int util_notif_filter2(long nr, long nr2);
/* Make system call nr fail with err in the calling thread: 0, or -1. */
int util_errno_filter(long nr, int err);
/* The same with any seccomp action (SECCOMP_RET_KILL_PROCESS, say). */
int util_action_filter(long nr, uint32_t action);
/*
 * Serve a listener until the filtered process or thread is gone, calling
 * at_stop at each stopped system call; close the listener. *listener may
 * still be -1 (another thread is installing the filter: wait) or -2 (it
 * failed). Returns the number of stops.
 */
int util_notif_serve(const int *listener, util_stop_hook at_stop, void *arg);

/* ------------------------------------------------------------------------
 * Open descriptors.
 */

/*
 * Which file descriptors below UTIL_FDS are open, as a bitmap, found in one
 * poll() (POLLNVAL marks a closed one) without /proc, which may be gone,
 * and cheaply: a system call costs ~75 us under user-mode-linux. Returns
 * how many, or -1.
 */
#define UTIL_FDS 1024
int util_open_fds(uint64_t map[UTIL_FDS / 64]);
int util_count_fds(void);

/* ------------------------------------------------------------------------
 * Memory and cgroups.
 */

/* n private anonymous pages, each filled with its index + 1. */
char *util_pages(int n);

/* The cgroup2 mount point of this system ("" if none). */
const char *util_cgroup2_mount(void);
/* The cgroup id (file handle) of a cgroup directory. */
uint64_t util_cgroup_id(const char *dir);
/* Move a process (0: the caller) into the cgroup directory dir. */
void util_cgroup_move(const char *dir, pid_t pid);
/*
 * Remove a cgroup directory whose processes are all reaped: wait until the
 * kernel says it is empty (cgroup.events, which it notifies on every
 * change) rather than assume so from the reaps, then rmdir it, which must
 * succeed.
 */
void util_cgroup_remove(const char *dir);

/*
 * The stack fn uses: run on a painted stack of its own (a thread's), the
 * bytes below the frame that calls it that it touched. The caller's frame
 * is counted too (a few words): an upper bound.
 */
size_t util_stack_used(void (*fn)(void));
/* What every public function may use (4 KiB), times ASan's redzones. */
size_t util_stack_budget(void);

#endif
