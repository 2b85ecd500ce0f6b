/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/filter.h>
#include <linux/futex.h>
#include <linux/seccomp.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "internal.h"
#include "syscall.h"
#include "util.h"

/* fork(), with a pipe between parent and child. */
static pid_t fork_piped(int p[2])
{
	pid_t pid;

	ASSERT_EQ(pipe2(p, O_CLOEXEC), 0);
	pid = fork();
	ASSERT_GE(pid, 0);
	return pid;
}

static int pidfd_of(pid_t pid)
{
	int fd = libpidfd_open(pid, 0);

	ASSERT_GE(fd, 0);
	return fd;
}

pid_t util_spawn(void (*fn)(void *), void *arg, int *pidfd)
{
	int ready[2];
	char c = 0;
	pid_t pid = fork_piped(ready);

	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (fn)
			fn(arg);
		if (write(ready[1], &c, 1) != 1)
			_exit(99);
		for (;;)
			pause();
	}
	close(ready[1]);
	ASSERT_EQ(read(ready[0], &c, 1), 1);
	close(ready[0]);
	*pidfd = pidfd_of(pid);
	return pid;
}

pid_t util_spawn_text(void (*fn)(void *), void *arg, int *pidfd,
		      char text[16])
{
	pid_t pid = util_spawn(fn, arg, pidfd);

	snprintf(text, 16, "%d", pid);
	return pid;
}

void util_dump_core(const char *dir)
{
	struct rlimit unlimited = { RLIM_INFINITY, RLIM_INFINITY };

	if (chdir(dir) || setrlimit(RLIMIT_CORE, &unlimited))
		_exit(92);
	prctl(PR_SET_DUMPABLE, 1);
	signal(SIGSEGV, SIG_DFL); /* not a sanitizer's handler */
	raise(SIGSEGV);
	_exit(93);
}

pid_t util_zombie(int code, int *pidfd)
{
	int go[2];
	char c = 0;
	pid_t pid = fork_piped(go);

	if (pid == 0) {
		if (read(go[0], &c, 1) != 1)
			_exit(98);
		_exit(code);
	}
	close(go[0]);
	*pidfd = pidfd_of(pid);
	ASSERT_EQ(write(go[1], &c, 1), 1);
	close(go[1]);
	util_wait_exit(*pidfd);
	return pid;
}

void util_wait_exit(int pidfd)
{
	struct pollfd p = { .fd = pidfd, .events = POLLIN };

	/* No time limit of its own: the harness's timeout, which scales. */
	ASSERT_EQ(poll(&p, 1, -1), 1);
}

/* By its pidfd; before 5.4, which has no waitid(P_PIDFD), by its pid. */
void util_kill_reap_keep_fd(int pidfd)
{
	idtype_t type = P_PIDFD;
	id_t id = (id_t)pidfd;
	siginfo_t si;
	int r;

	syscall(SYS_pidfd_send_signal, pidfd, SIGKILL, NULL, 0);
	if (!util_kernel_has(LPFD_FEAT_WAITID_PIDFD)) {
		pid_t pid = libpidfd_getpid(pidfd);

		ASSERT_GE(pid, 1);
		type = P_PID;
		id = (id_t)pid;
	}
	while ((r = waitid(type, id, &si, WEXITED)) < 0 && errno == EINTR)
		;
	ASSERT_EQ(r, 0);
}

void util_kill_reap(int pidfd)
{
	util_kill_reap_keep_fd(pidfd);
	close(pidfd);
}

void util_in_thread(void *(*fn)(void *), void *arg)
{
	pthread_t th;

	ASSERT_EQ(pthread_create(&th, NULL, fn, arg), 0);
	ASSERT_EQ(pthread_join(th, NULL), 0);
}

static void *parked(void *arg)
{
	struct util_parked *p = arg;

	p->tid = gettid();
	pthread_barrier_wait(&p->started);
	pthread_barrier_wait(&p->may_exit);
	return NULL;
}

pid_t util_park_thread(struct util_parked *p)
{
	pthread_barrier_init(&p->started, NULL, 2);
	pthread_barrier_init(&p->may_exit, NULL, 2);
	ASSERT_EQ(pthread_create(&p->thread, NULL, parked, p), 0);
	pthread_barrier_wait(&p->started);
	return p->tid;
}

void util_unpark_thread(struct util_parked *p)
{
	pthread_barrier_wait(&p->may_exit);
	ASSERT_EQ(pthread_join(p->thread, NULL), 0);
}

void util_set_path(bool emulated)
{
	lpfd_emulate_override(emulated);
}

void util_answer_table(struct util_answer *out, int n, util_call_fn *call,
		       void *arg)
{
	for (int path = 0; path < 2; path++) {
		util_set_path(path);
		for (int i = 0; i < n; i++) {
			struct util_answer *a = &out[path * n + i];

			memset(&a->info, 0, sizeof(a->info));
			errno = 0;
			a->ret = call(i, &a->info, arg);
			a->err = a->ret < 0 ? errno : 0;
		}
	}
}

long util_fd_answer(long r)
{
	if (r >= 0) {
		close((int)r);
		return 0;
	}
	return r;
}

long util_features_answer(struct pidfd_info *info)
{
	struct libpidfd_features f = { 0 };
	long r = libpidfd_features(&f, sizeof(f));

	memcpy(info, &f, sizeof(f) < sizeof(*info) ? sizeof(f) : sizeof(*info));
	return r;
}

long util_madvise_page(int pidfd, int advice, unsigned int flags)
{
	static char page[4096] __attribute__((aligned(4096)));
	struct iovec iov = { .iov_base = page, .iov_len = sizeof(page) };

	return libpidfd_process_madvise(pidfd, &iov, 1, advice, flags);
}

bool util_own_fdinfo_refused(void)
{
	int fd = open("/proc/thread-self/fdinfo/0", O_RDONLY | O_CLOEXEC);

	if (fd >= 0)
		close(fd);
	return fd < 0 && errno == EACCES;
}

void util_both_paths(void (*check)(void *), void *arg)
{
	util_set_path(true);
	check(arg);
	util_set_path(false);
	check(arg);
}

void util_get_info(int fd, uint64_t mask, size_t size, bool emulate,
		   struct util_res *r)
{
	struct pidfd_info *info = (struct pidfd_info *)(void *)r->buf;

	memset(r->buf, 0xa5, sizeof(r->buf));
	info->mask = mask;
	util_set_path(emulate);
	errno = 0;
	r->ret = libpidfd_get_info(fd, info, size);
	r->err = errno;
}

bool util_have_native_info(void)
{
	return lpfd_kernel_has(LPFD_FEAT_GET_INFO) > 0;
}

typedef int (*shim_ioctl_fn)(int, unsigned long, ...);

static shim_ioctl_fn shim_ioctl(void)
{
	static shim_ioctl_fn f;
	char path[4200];
	ssize_t n;
	void *h;

	if (f)
		return f;
	n = readlink("/proc/self/exe", path, sizeof(path) - 64);
	ASSERT_TRUE(n > 0);
	path[n] = '\0';
	ASSERT_TRUE(strrchr(path, '/') != NULL);
	strcpy(strrchr(path, '/'), "/../libpidfd-compat.so");
	h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	ASSERT_TRUE(h != NULL);
	f = (shim_ioctl_fn)dlsym(h, "ioctl");
	ASSERT_TRUE(f != NULL);
	return f;
}

int util_shim_get_info(int fd, void *info, size_t size)
{
	unsigned long cmd = _IOC(_IOC_READ | _IOC_WRITE, PIDFS_IOCTL_MAGIC, 11,
				 size);

	return shim_ioctl()(fd, cmd, info);
}

bool util_shim_emulated(void)
{
	const char *e = getenv("LIBPIDFD_EMULATE");

	return (e && strcmp(e, "1") == 0) || !util_have_native_info();
}

const int util_self_values[3] = { PIDFD_SELF_THREAD, PIDFD_SELF_THREAD_GROUP,
				  LIBPIDFD_SELF_THREAD_GROUP_OLD };
const int util_bad_values[6] = { -10002, -20001, -1, INT_MIN, -10003, -19999 };

bool util_kernel_has(int feat)
{
	return lpfd_kernel_has((enum lpfd_feature)feat) > 0;
}

bool util_native(int feat)
{
	return lpfd_native((enum lpfd_feature)feat) > 0;
}

bool util_kernel_gives_exit_after_reap(void)
{
	struct pidfd_info info = { .mask = PIDFD_INFO_EXIT };
	siginfo_t si;
	int fd, r;

	util_zombie(0, &fd);
	ASSERT_EQ(waitid(P_PIDFD, (id_t)fd, &si, WEXITED), 0);
	r = ioctl(fd, PIDFD_GET_INFO, &info);
	close(fd);
	return r == 0 && (info.mask & PIDFD_INFO_EXIT);
}

bool util_exit_after_reap(void)
{
	if (util_native(LPFD_FEAT_INFO_EXIT))
		return true;
	if (!getenv("TEST_PERSONALITY") || !util_native(LPFD_FEAT_GET_INFO))
		return false;
	return util_kernel_gives_exit_after_reap();
}

/* pidfd_open's PIDFD_NONBLOCK (5.10), asked of the kernel itself. */
bool util_kernel_has_open_nonblock(void)
{
	int fd = (int)syscall(SYS_pidfd_open, getpid(), O_NONBLOCK);

	if (fd < 0)
		ASSERT_EQ(errno, EINVAL);
	else
		close(fd);
	return fd >= 0;
}

bool util_kernel_has_peerpidfd(void)
{
	int sv[2], fd = -1;
	socklen_t len = sizeof(fd);
	int r;

	ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
	r = getsockopt(sv[0], SOL_SOCKET, 77 /* SO_PEERPIDFD */, &fd, &len);
	if (r < 0)
		ASSERT_EQ(errno, ENOPROTOOPT);
	else
		close(fd);
	close(sv[0]);
	close(sv[1]);
	return r == 0;
}

bool util_is_group_value(int v)
{
	return v != PIDFD_SELF_THREAD;
}

pid_t util_clone(uint64_t flags, pid_t want, int *pidfd)
{
	pid_t tid[1] = { want };
	struct util_clone_args a = {
		.flags = flags | CLONE_PIDFD,
		.pidfd = (uint64_t)(uintptr_t)pidfd,
		.exit_signal = SIGCHLD,
		.set_tid = want > 0 ? (uint64_t)(uintptr_t)tid : 0,
		.set_tid_size = want > 0 ? 1 : 0,
	};
	long r = syscall(SYS_clone3, &a, sizeof(a));

	return r < 0 ? -errno : (pid_t)r;
}

#if defined(__i386__)
/*
 * The generation's system calls, made without libc. Here int $0x80 with
 * the arguments in registers: the library's lpfd_syscall6() passes the
 * sixth through memory on the stack, which ASan would poison and unpoison
 * in the uninstrumented generation.
 */
static long raw3(long n, long a, long b, long c)
{
	long r;

	__asm__ volatile("int $0x80"
			 : "=a"(r)
			 : "a"(n), "b"(a), "c"(b), "d"(c)
			 : "memory");
	return r;
}
#else
/*
 * The generation's system calls, made without libc: the library's own,
 * all in registers (the unused ones 0: ppoll's signal mask, NULL).
 */
static long raw3(long n, long a, long b, long c)
{
	return lpfd_syscall6(n, a, b, c, 0, 0, 0);
}
#endif

#if defined(__x86_64__)
/* clone3 whose child calls fn(arg) on the stack in args and exits. */
static long clone3_fn(struct util_clone_args *a, int (*fn)(void *), void *arg)
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

#define SYS_SLEEP SYS_pause
#elif defined(__aarch64__)
/*
 * clone3 whose child calls fn(arg) on the stack in args and exits. The
 * child starts with sp at the top of that stack and every other register
 * as the parent had it; x0 is 0 in the child only.
 */
static long clone3_fn(struct util_clone_args *a, int (*fn)(void *), void *arg)
{
	register long x8 __asm__("x8") = SYS_clone3;
	register long x0 __asm__("x0") = (long)a;
	register long x1 __asm__("x1") = sizeof(*a);
	register void *x10 __asm__("x10") = (void *)fn;
	register void *x11 __asm__("x11") = arg;

	__asm__ volatile("svc 0\n\t"
			 "cbnz x0, 1f\n\t"
			 "mov x29, xzr\n\t"
			 "mov x30, xzr\n\t"
			 "mov x0, x11\n\t"
			 "blr x10\n\t"
			 "mov x8, #93\n\t" /* exit */
			 "svc 0\n\t"
			 "brk #0\n"
			 "1:"
			 : "+r"(x0)
			 : "r"(x8), "r"(x1), "r"(x10), "r"(x11)
			 : "memory", "cc");
	return x0;
}

/* No pause(2) here: ppoll with no descriptors and no timeout sleeps alike. */
#define SYS_SLEEP SYS_ppoll
#elif defined(__i386__)
/*
 * clone3 whose child calls fn(arg) on the stack in args and exits. The
 * child starts with esp at the top of that stack and eax 0; it passes
 * arg on the stack (cdecl), 16-byte aligned at the call as the ABI wants.
 */
static long clone3_fn(struct util_clone_args *a, int (*fn)(void *), void *arg)
{
	long r;

	__asm__ volatile("int $0x80\n\t"
			 "test %%eax, %%eax\n\t"
			 "jnz 1f\n\t"
			 "xor %%ebp, %%ebp\n\t"
			 "and $-16, %%esp\n\t"
			 "sub $12, %%esp\n\t"
			 "push %%edi\n\t"
			 "call *%%esi\n\t"
			 "mov %%eax, %%ebx\n\t"
			 "mov $1, %%eax\n\t" /* exit */
			 "int $0x80\n\t"
			 "hlt\n"
			 "1:"
			 : "=a"(r)
			 : "a"((long)SYS_clone3), "b"(a), "c"(sizeof(*a)),
			   "S"(fn), "D"(arg)
			 : "memory", "cc");
	return r;
}

#define SYS_SLEEP SYS_pause
#else
#error "tests/util.c: util_spawn_gen needs a clone3 trampoline for this architecture"
#endif

/*
 * The generation's body. Not instrumented: a killed generation leaves its
 * frame behind on a stack the next one reuses, where ASan's redzone
 * poisoning would be stale.
 *
 * It starts with a copy of the spawner's descriptor table, taken at any
 * moment, from any thread: a pipe's write end that another thread has
 * just handed to a child and not yet closed (cli_start()'s) would be kept
 * open as long as the generation lives, and its reader would never see
 * the end. So it closes every descriptor before anything else.
 */
__attribute__((no_sanitize("address", "undefined"), noinline, used))
static int gen_main(void *arg)
{
	struct util_gen *g = arg;
	unsigned int u = g->uid, gid = u + UTIL_GID_OFF;
	int ok;

	if (raw3(SYS_close_range, 0, (long)~0U, 0) != 0)
		for (long fd = 0; fd < 4096; fd++)
			raw3(SYS_close, fd, 0, 0);
	ok = raw3(UTIL_SYS_setresgid, gid, gid, gid) == 0 &&
	     raw3(UTIL_SYS_setresuid, u, u, u) == 0;

	__atomic_store_n(&g->ready, ok ? 1 : 2, __ATOMIC_RELEASE);
	raw3(SYS_futex, (long)&g->ready, FUTEX_WAKE_PRIVATE, 1);
	for (;;)
		raw3(SYS_SLEEP, 0, 0, 0);
	return 0;
}

pid_t util_spawn_gen(struct util_gen *g, unsigned int uid, pid_t want,
		     int *pidfd)
{
	pid_t tid[1] = { want };
	struct util_clone_args a = {
		.flags = CLONE_VM | CLONE_PIDFD,
		.pidfd = (uint64_t)(uintptr_t)pidfd,
		.exit_signal = SIGCHLD,
		.stack = (uint64_t)(uintptr_t)g->stack,
		.stack_size = sizeof(g->stack),
		.set_tid = want > 0 ? (uint64_t)(uintptr_t)tid : 0,
		.set_tid_size = want > 0 ? 1 : 0,
	};
	long r;

	g->uid = uid;
	__atomic_store_n(&g->ready, 0, __ATOMIC_RELAXED);
	r = clone3_fn(&a, gen_main, g);
	if (r < 0)
		return (pid_t)r;
	while (__atomic_load_n(&g->ready, __ATOMIC_ACQUIRE) == 0)
		syscall(SYS_futex, &g->ready, FUTEX_WAIT_PRIVATE, 0, NULL);
	if (g->ready != 1) {
		util_kill_reap(*pidfd);
		return -EPERM;
	}
	return (pid_t)r;
}

/* A private mount namespace, and with fresh_proc a /proc of our own. */
static void private_mounts(bool fresh_proc)
{
	if (unshare(CLONE_NEWNS) != 0 ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
		FAIL("private mounts: %s", strerror(errno));
	if (fresh_proc && mount("proc", "/proc", "proc", 0, NULL) != 0)
		FAIL("private /proc: %s", strerror(errno));
}

void util_in_pidns(void (*fn)(void), bool fresh_proc)
{
	int status;
	pid_t pid;

	REQUIRE_PRIVILEGE("creates a pid namespace");
	ASSERT_EQ(unshare(CLONE_NEWPID), 0);
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		if (fresh_proc)
			private_mounts(true);
		fn();
		fflush(stdout);
		_exit(0);
	}
	ASSERT_EQ(waitpid(pid, &status, 0), pid);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		FAIL("pid namespace init failed (status 0x%x)", status);
}

int util_child_status(void (*fn)(void *), void *arg)
{
	int status;
	pid_t pid = fork();

	ASSERT_GE(pid, 0);
	if (pid == 0) {
		fn(arg);
		fflush(stdout);
		_exit(0);
	}
	ASSERT_EQ(waitpid(pid, &status, 0), pid);
	return status;
}

void util_in_child(void (*fn)(void *), void *arg)
{
	ASSERT_EQ(util_child_status(fn, arg), 0);
}

static void private_mounts_then(void *fn)
{
	private_mounts(false);
	(*(void (**)(void))fn)();
}

void util_in_private_mounts(void (*fn)(void))
{
	REQUIRE_PRIVILEGE("mounts in a mount namespace of its own");
	util_in_child(private_mounts_then, &fn);
}

int util_notif_filter(long nr)
{
	return util_notif_filter2(nr, nr);
}

int util_errno_filter(long nr, int err)
{
	return util_action_filter(nr, SECCOMP_RET_ERRNO |
					      ((uint32_t)err & SECCOMP_RET_DATA));
}

int util_action_filter(long nr, uint32_t action)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)nr, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, action),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = UTIL_COUNT(f), .filter = f };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
		return -1;
	return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog);
}

int util_notif_filter2(long nr, long nr2)
{
	struct sock_filter two[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)nr, 2, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)nr2, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF),
	};
	struct sock_fprog prog = {
		.len = nr < 0 ? 1 : UTIL_COUNT(two),
		.filter = nr < 0 ? two + 4 : two,
	};

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
		return -1;
	return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
			    SECCOMP_FILTER_FLAG_NEW_LISTENER, &prog);
}

int util_notif_serve(const int *listener, util_stop_hook at_stop, void *arg)
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
			break; /* POLLHUP: the filtered process is gone */
		memset(&req, 0, sizeof(req));
		if (ioctl(p.fd, SECCOMP_IOCTL_NOTIF_RECV, &req) < 0)
			continue; /* the call was interrupted meanwhile */
		memset(&resp, 0, sizeof(resp));
		resp.id = req.id;
		if (!at_stop(stops++, &req, &resp, arg))
			resp.flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
		(void)ioctl(p.fd, SECCOMP_IOCTL_NOTIF_SEND, &resp);
	}
	close(p.fd);
	return stops;
}

int util_open_fds(uint64_t map[UTIL_FDS / 64])
{
	struct pollfd p[UTIL_FDS];
	struct rlimit rl, wide;
	int n = 0, r;

	/* poll() takes no more entries than the limit, which a test may lower. */
	if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
		return -1;
	wide = rl;
	if (wide.rlim_cur < UTIL_FDS)
		wide.rlim_cur = UTIL_FDS;
	if (wide.rlim_cur != rl.rlim_cur && setrlimit(RLIMIT_NOFILE, &wide) != 0)
		return -1;
	for (int i = 0; i < UTIL_FDS; i++)
		p[i] = (struct pollfd){ .fd = i, .events = 0 };
	r = poll(p, UTIL_FDS, 0);
	if (wide.rlim_cur != rl.rlim_cur)
		setrlimit(RLIMIT_NOFILE, &rl);
	if (r < 0)
		return -1;
	memset(map, 0, UTIL_FDS / 8);
	for (int i = 0; i < UTIL_FDS; i++)
		if (!(p[i].revents & POLLNVAL)) {
			map[i / 64] |= 1ULL << (i % 64);
			n++;
		}
	return n;
}

int util_count_fds(void)
{
	uint64_t map[UTIL_FDS / 64];

	return util_open_fds(map);
}

char *util_pages(int n)
{
	long page = sysconf(_SC_PAGESIZE);
	char *m = mmap(NULL, (size_t)n * page, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	ASSERT_TRUE(m != MAP_FAILED);
	for (int i = 0; i < n; i++)
		memset(m + i * page, i + 1, page);
	return m;
}

const char *util_cgroup2_mount(void)
{
	static char mnt[512];
	char line[1024], dev[256], dir[512], type[64];
	FILE *f = fopen("/proc/self/mounts", "re");

	mnt[0] = '\0';
	if (!f)
		return mnt;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%255s %511s %63s", dev, dir, type) == 3 &&
		    strcmp(type, "cgroup2") == 0) {
			snprintf(mnt, sizeof(mnt), "%s", dir);
			break;
		}
	}
	fclose(f);
	return mnt;
}

uint64_t util_cgroup_id(const char *dir)
{
	struct {
		struct file_handle fh;
		unsigned char bytes[64];
	} h = { .fh.handle_bytes = 64 };
	int mnt;
	uint64_t id;

	ASSERT_EQ(name_to_handle_at(AT_FDCWD, dir, &h.fh, &mnt, 0), 0);
	ASSERT_EQ(h.fh.handle_bytes, 8);
	memcpy(&id, h.fh.f_handle, sizeof(id));
	return id;
}

void util_cgroup_move(const char *dir, pid_t pid)
{
	char procs[4096], s[16];
	int fd, len;

	snprintf(procs, sizeof(procs), "%s/cgroup.procs", dir);
	len = snprintf(s, sizeof(s), "%d", pid);
	fd = open(procs, O_WRONLY | O_CLOEXEC);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(write(fd, s, (size_t)len), len);
	close(fd);
}

/* Whether a cgroup.events file, read from its start, says "populated 0". */
static bool cgroup_events_say_empty(int events)
{
	char buf[256];
	ssize_t n = pread(events, buf, sizeof(buf) - 1, 0);

	ASSERT_GE(n, 0);
	buf[n] = '\0';
	return strstr(buf, "populated 0\n") != NULL;
}

void util_cgroup_remove(const char *dir)
{
	struct pollfd p = { .events = POLLPRI };
	char path[4096];

	snprintf(path, sizeof(path), "%s/cgroup.events", dir);
	p.fd = open(path, O_RDONLY | O_CLOEXEC);
	ASSERT_GE(p.fd, 0);
	/*
	 * A read arms the file's next notification, so a change between the
	 * read and the poll wakes the poll: no change is missed.
	 */
	while (!cgroup_events_say_empty(p.fd))
		ASSERT_TRUE(poll(&p, 1, -1) == 1 || errno == EINTR);
	close(p.fd);
	ASSERT_EQ(rmdir(dir), 0);
}

ssize_t util_read_close(int fd, char *buf, size_t size)
{
	ssize_t n = fd < 0 ? -1 : read(fd, buf, size - 1);

	if (fd >= 0)
		close(fd);
	buf[n < 0 ? 0 : n] = '\0';
	return n;
}

char *util_read_text(const char *path)
{
	FILE *f = fopen(path, "re");
	char *text = NULL;
	size_t size = 0, n = 0;

	if (!f)
		FAIL("%s (run from the source tree): %s", path, strerror(errno));
	do {
		size = size ? 2 * size : 65536;
		text = realloc(text, size);
		ASSERT_TRUE(text != NULL);
		n += fread(text + n, 1, size - n - 1, f);
	} while (n == size - 1);
	fclose(f);
	text[n] = '\0';
	return text;
}

/* ------------------------------------------------------------------------
 * The painted stack.
 */
#define PAINT 0xa5

/*
 * 64 KiB, or the C library's least thread stack where that is more:
 * glibc's PTHREAD_STACK_MIN is 128 KiB on arm64 (64 KiB pages), and a
 * runtime value under _GNU_SOURCE.
 */
static size_t painted_size(void)
{
	size_t least = (size_t)PTHREAD_STACK_MIN;

	return least > 64 * 1024 ? least : 64 * 1024;
}

static char *g_painted;
static size_t g_painted_size;
static void (*g_paint_fn)(void);
static uintptr_t g_paint_entry;

static inline uintptr_t stack_pointer(void)
{
	uintptr_t sp;

#if defined(__x86_64__)
	__asm__ volatile("mov %%rsp, %0" : "=r"(sp));
#elif defined(__aarch64__)
	__asm__ volatile("mov %0, sp" : "=r"(sp));
#else
	sp = (uintptr_t)__builtin_frame_address(0);
#endif
	return sp;
}

static void *on_painted_stack(void *unused)
{
	(void)unused;
	g_paint_entry = stack_pointer();
	g_paint_fn();
	return NULL;
}

size_t util_stack_used(void (*fn)(void))
{
	pthread_attr_t attr;
	pthread_t thread;
	size_t i = 0;

	if (!g_painted) {
		g_painted_size = painted_size();
		g_painted = mmap(NULL, g_painted_size, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
		ASSERT_TRUE(g_painted != MAP_FAILED);
	}
	memset(g_painted, PAINT, g_painted_size);
	g_paint_fn = fn;
	/*
	 * A thread on the painted stack, not makecontext(): musl has no
	 * <ucontext.h> functions. Whatever the C library keeps at the top of a
	 * thread's stack lies above the entry, outside the measure.
	 */
	ASSERT_EQ(pthread_attr_init(&attr), 0);
	ASSERT_EQ(pthread_attr_setstack(&attr, g_painted, g_painted_size), 0);
	ASSERT_EQ(pthread_create(&thread, &attr, on_painted_stack, NULL), 0);
	ASSERT_EQ(pthread_join(thread, NULL), 0);
	pthread_attr_destroy(&attr);
	while (i < g_painted_size && (unsigned char)g_painted[i] == PAINT)
		i++;
	return (size_t)(g_paint_entry - (uintptr_t)(g_painted + i));
}

size_t util_stack_budget(void)
{
#if defined(__SANITIZE_ADDRESS__)
	return 4 * 4096; /* ASan's redzones around every local */
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
	return 4 * 4096;
#endif
#endif
	return 4096;
}

/*
 * A 32-bit program on a 64-bit kernel (the compat path) has its siginfo
 * copied whole (128 bytes, so a readable fixed part alone is EFAULT) and
 * converted field by field, its tail never looked at: no E2BIG there.
 */
bool util_siginfo_tail_checked(void)
{
#if __SIZEOF_LONG__ == 4
	struct utsname u;

	return uname(&u) != 0 || strstr(u.machine, "64") == NULL;
#else
	return true;
#endif
}

const char *util_tests_dir(void)
{
	static char dir[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", dir, sizeof(dir) - 1);
	char *slash;

	ASSERT_TRUE(n > 0);
	dir[n] = '\0';
	slash = strrchr(dir, '/');
	ASSERT_TRUE(slash != NULL);
	*slash = '\0';
	return dir;
}
