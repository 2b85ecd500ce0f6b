/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Helpers for the reliability tests (issue 7): processes at a chosen pid in
 * a private pid namespace, counting open file descriptors, and the
 * emulation switch. Header-only, since each test is its own binary.
 */
#ifndef LIBPIDFD_TEST_RELIAB_H
#define LIBPIDFD_TEST_RELIAB_H

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <linux/futex.h>
#include <linux/seccomp.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"

/* Tests link the static library, so they reach its emulation switch. */
void __lpfd_emulate_override(int on);

/* clone3's argument struct, version 1 (set_tid, 5.5), spelled out here. */
struct reliab_clone_args {
	uint64_t flags, pidfd, child_tid, parent_tid, exit_signal, stack,
		stack_size, tls, set_tid, set_tid_size;
};

/*
 * A fork-like clone3: the child (which returns 0) must keep to raw system
 * calls if the caller has threads, since glibc does not know about it.
 * *pidfd gets a pidfd; a pid > 0 in want forces the pid (set_tid) in the
 * caller's own pid namespace. Returns the pid, or -errno.
 */
static inline pid_t reliab_clone(uint64_t flags, pid_t want, int *pidfd)
{
	pid_t tid[1] = { want };
	struct reliab_clone_args a = {
		.flags = flags | CLONE_PIDFD,
		.pidfd = (uint64_t)(uintptr_t)pidfd,
		.exit_signal = SIGCHLD,
		.set_tid = (uint64_t)(uintptr_t)tid,
		.set_tid_size = want > 0 ? 1 : 0,
	};
	long r = syscall(SYS_clone3, &a, sizeof(a));

	return r < 0 ? -errno : (pid_t)r;
}

/* Kill through the pidfd and reap: the pid is free again afterwards. */
static inline void reliab_kill_reap(int pidfd)
{
	siginfo_t si;

	syscall(SYS_pidfd_send_signal, pidfd, SIGKILL, NULL, 0);
	while (waitid(P_PIDFD, (id_t)pidfd, &si, WEXITED) < 0 &&
	       errno == EINTR)
		;
}

/*
 * A "generation": a process at a forced pid whose ids tell it apart from
 * every other (uid, and gid = uid + RELIAB_GID_OFF), so that an answer
 * describing another process is seen at once. It shares our memory
 * (CLONE_VM): under user-mode-linux a new address space costs ~6 ms and a
 * shared one ~0.8 ms, which is what makes thousands of reuses affordable.
 * It runs on its own stack, makes raw system calls only, sets its ids,
 * says so through a futex word and sleeps until it is killed.
 */
#define RELIAB_GID_OFF 50000u
#define RELIAB_STACK 16384

struct reliab_gen {
	unsigned int uid;
	int ready; /* futex word: 1 ids set, 2 failed */
	char stack[RELIAB_STACK] __attribute__((aligned(16)));
};

#if defined(__x86_64__)
static inline long reliab_raw3(long n, long a, long b, long c)
{
	long r;

	__asm__ volatile("syscall"
			 : "=a"(r)
			 : "a"(n), "D"(a), "S"(b), "d"(c)
			 : "rcx", "r11", "memory");
	return r;
}

/*
 * The generation's body. Not instrumented: a killed generation leaves its
 * frame behind on a stack the next one reuses, where ASan's redzone
 * poisoning would be stale.
 */
__attribute__((no_sanitize("address", "undefined"), noinline, used))
static int reliab_gen_main(void *arg)
{
	struct reliab_gen *g = arg;
	unsigned int u = g->uid, gid = u + RELIAB_GID_OFF;
	int ok = reliab_raw3(SYS_setresgid, gid, gid, gid) == 0 &&
		 reliab_raw3(SYS_setresuid, u, u, u) == 0;

	__atomic_store_n(&g->ready, ok ? 1 : 2, __ATOMIC_RELEASE);
	reliab_raw3(SYS_futex, (long)&g->ready, FUTEX_WAKE_PRIVATE, 1);
	for (;;)
		reliab_raw3(SYS_pause, 0, 0, 0);
	return 0;
}

/* clone3 whose child calls fn(arg) on the stack in args and exits. */
static inline long reliab_clone3_fn(struct reliab_clone_args *a,
				    int (*fn)(void *), void *arg)
{
	register void *r12 __asm__("r12") = (void *)fn;
	register void *r13 __asm__("r13") = arg;
	long r;

	__asm__ volatile("syscall\n\t"
			 "test %%rax, %%rax\n\t"
			 "jnz 1f\n\t"
			 "xor %%ebp, %%ebp\n\t"
			 "mov %%r13, %%rdi\n\t"
			 "call *%%r12\n\t"
			 "mov %%eax, %%edi\n\t"
			 "mov $60, %%eax\n\t"
			 "syscall\n\t"
			 "hlt\n"
			 "1:"
			 : "=a"(r)
			 : "a"((long)SYS_clone3), "D"(a), "S"(sizeof(*a)),
			   "r"(r12), "r"(r13)
			 : "rcx", "r11", "memory");
	return r;
}

/* Start a generation at pid want (0: any) and wait until its ids are set. */
static inline pid_t reliab_spawn_gen(struct reliab_gen *g, unsigned int uid,
				     pid_t want, int *pidfd)
{
	pid_t tid[1] = { want };
	struct reliab_clone_args a = {
		.flags = CLONE_VM | CLONE_PIDFD,
		.pidfd = (uint64_t)(uintptr_t)pidfd,
		.exit_signal = SIGCHLD,
		.stack = (uint64_t)(uintptr_t)g->stack,
		.stack_size = sizeof(g->stack),
		.set_tid = (uint64_t)(uintptr_t)tid,
		.set_tid_size = want > 0 ? 1 : 0,
	};
	long r;

	g->uid = uid;
	__atomic_store_n(&g->ready, 0, __ATOMIC_RELAXED);
	r = reliab_clone3_fn(&a, reliab_gen_main, g);
	if (r < 0)
		return (pid_t)r;
	while (__atomic_load_n(&g->ready, __ATOMIC_ACQUIRE) == 0)
		syscall(SYS_futex, &g->ready, FUTEX_WAIT_PRIVATE, 0, NULL);
	if (g->ready != 1) {
		reliab_kill_reap(*pidfd);
		close(*pidfd);
		return -EPERM;
	}
	return (pid_t)r;
}
#else
#error "tests/reliab.h: reliab_spawn_gen needs a clone3 trampoline for this architecture"
#endif


/*
 * Run fn in pid 1 of a new pid namespace and fail the test unless it exits
 * 0. With fresh_proc, the init has a private mount namespace and a /proc
 * of its own (so that /proc speaks for its namespace); without, it keeps
 * the parent namespace's /proc. The calling test process is a forked child
 * of the harness, so unsharing its pid namespace touches nothing else.
 */
static inline void reliab_in_pidns(void (*fn)(void), bool fresh_proc)
{
	int status;
	pid_t pid;

	ASSERT_EQ(unshare(CLONE_NEWPID), 0);
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		if (fresh_proc &&
		    (unshare(CLONE_NEWNS) != 0 ||
		     mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0 ||
		     mount("proc", "/proc", "proc", 0, NULL) != 0))
			FAIL("private /proc: %s", strerror(errno));
		fn();
		fflush(stdout);
		_exit(0);
	}
	ASSERT_EQ(waitpid(pid, &status, 0), pid);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		FAIL("pid namespace init failed (status 0x%x)", status);
}

/* Run fn in a forked child with a private mount namespace; it must exit 0. */
static inline void reliab_in_private_mounts(void (*fn)(void))
{
	int status;
	pid_t pid = fork();

	ASSERT_GE(pid, 0);
	if (pid == 0) {
		if (unshare(CLONE_NEWNS) ||
		    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
			FAIL("private mounts: %s", strerror(errno));
		fn();
		fflush(stdout);
		_exit(0);
	}
	ASSERT_EQ(waitpid(pid, &status, 0), pid);
	ASSERT_EQ(status, 0);
}

/*
 * Which file descriptors below 1024 are open, as a bitmap, found in one
 * poll() (POLLNVAL marks a closed one) without /proc, which may be gone,
 * and cheaply: a system call costs ~75 us under user-mode-linux.
 */
#define RELIAB_FDS 1024
static inline int reliab_open_fds(uint64_t map[RELIAB_FDS / 64])
{
	struct pollfd p[RELIAB_FDS];
	struct rlimit rl, wide;
	int n = 0, r;

	/* poll() takes no more entries than the limit, which a test may lower. */
	if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
		return -1;
	wide = rl;
	if (wide.rlim_cur < RELIAB_FDS)
		wide.rlim_cur = RELIAB_FDS;
	if (wide.rlim_cur != rl.rlim_cur && setrlimit(RLIMIT_NOFILE, &wide) != 0)
		return -1;
	for (int i = 0; i < RELIAB_FDS; i++)
		p[i] = (struct pollfd){ .fd = i, .events = 0 };
	r = poll(p, RELIAB_FDS, 0);
	if (wide.rlim_cur != rl.rlim_cur)
		setrlimit(RLIMIT_NOFILE, &rl);
	if (r < 0)
		return -1;
	memset(map, 0, RELIAB_FDS / 8);
	for (int i = 0; i < RELIAB_FDS; i++)
		if (!(p[i].revents & POLLNVAL)) {
			map[i / 64] |= 1ULL << (i % 64);
			n++;
		}
	return n;
}

static inline int reliab_count_fds(void)
{
	uint64_t map[RELIAB_FDS / 64];

	return reliab_open_fds(map);
}

/*
 * A seccomp user-notification supervisor for a worker thread that stores
 * its listener fd in *listener (-1 until then, -2 if it failed): each
 * stop of the worker goes to hook(stop, req, resp, ctx), which may answer
 * it itself (returns true, resp filled) or let the system call go on.
 * Returns the number of stops once the worker is gone.
 */
typedef bool (*reliab_stop_hook)(int stop, const struct seccomp_notif *req,
				 struct seccomp_notif_resp *resp, void *ctx);

static inline int reliab_supervise(const int *listener, reliab_stop_hook hook,
				   void *ctx)
{
	struct pollfd p = { .events = POLLIN };
	int stops = 0;

	while ((p.fd = __atomic_load_n(listener, __ATOMIC_SEQ_CST)) == -1)
		sched_yield();
	if (p.fd < 0)
		FAIL("seccomp user notification filter: %s", strerror(errno));
	for (;;) {
		struct seccomp_notif req;
		struct seccomp_notif_resp resp;

		if (poll(&p, 1, -1) < 0 && errno == EINTR)
			continue;
		if (!(p.revents & POLLIN))
			break; /* POLLHUP: the worker is gone */
		memset(&req, 0, sizeof(req));
		if (ioctl(p.fd, SECCOMP_IOCTL_NOTIF_RECV, &req) < 0)
			continue; /* the call was interrupted meanwhile */
		memset(&resp, 0, sizeof(resp));
		resp.id = req.id;
		if (!hook(stops++, &req, &resp, ctx))
			resp.flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
		(void)ioctl(p.fd, SECCOMP_IOCTL_NOTIF_SEND, &resp);
	}
	close(p.fd);
	return stops;
}

/* Every mode runs both library paths: the native one where the kernel has it. */
static inline void reliab_set_path(int emulated)
{
	__lpfd_emulate_override(emulated);
}

#endif
