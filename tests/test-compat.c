/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libpidfd-compat.so on unmodified programs. The programs under
 * tests/compat/ know only the kernel interface; each case runs twice, with
 * and without the shim preloaded, and must give exactly the answer this
 * kernel gives without it and the newest kernel's answer with it. What
 * the kernel gives follows from what it has (the library's probe table):
 * Linux 6.1 fails every pidfd case without the shim, 6.12 has the
 * namespace ioctls but judges their argument before the process, 7.2
 * passes every case but the sentinels in getfd and waitid, which mainline
 * refuses and the shim adds.
 *
 * Programs that make no pidfd call behave identically either way.
 */
#include <dlfcn.h>
#include <sys/ioctl.h>
#include <sys/statfs.h>
#include <sys/utsname.h>
#include <sys/wait.h>

#include <libpidfd.h>

#include "harness.h"
#include "internal.h"
#include "util.h"

#define NO_SHIM 0
#define SHIM 1

struct run {
	char out[4096];
	int status;
};

/* Run argv with or without the shim; its stdout and wait status. */
static void run(char *const argv[], int shim, struct run *r)
{
	char dir[4200], shim_path[4300];
	size_t len = 0;
	int out[2];
	ssize_t n;
	pid_t pid;

	snprintf(dir, sizeof(dir), "%s/..", util_tests_dir());
	snprintf(shim_path, sizeof(shim_path), "%s/libpidfd-compat.so", dir);
	ASSERT_EQ(access(shim_path, R_OK), 0);
	ASSERT_EQ(pipe(out), 0);
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		/*
		 * By name, found in the build directory: the loader splits
		 * LD_PRELOAD at spaces, and the tree's path may have one.
		 */
		if (shim) {
			setenv("LD_PRELOAD", "libpidfd-compat.so", 1);
			setenv("LD_LIBRARY_PATH", dir, 1);
		} else {
			unsetenv("LD_PRELOAD");
		}
		dup2(out[1], 1);
		close(out[0]);
		close(out[1]);
		execv(argv[0], argv);
		_exit(127);
	}
	close(out[1]);
	while ((n = read(out[0], r->out + len, sizeof(r->out) - 1 - len)) > 0)
		len += (size_t)n;
	r->out[len] = '\0';
	close(out[0]);
	ASSERT_EQ(waitpid(pid, &r->status, 0), pid);
}

/*
 * The kernel-interface program, built twice: as is, and with a 64-bit
 * time_t, which on a 32-bit glibc system makes its ioctl() calls
 * __ioctl_time64 (elsewhere the two are the same program).
 */
static const char *const kapi_builds[] = { "kapi", "kapi-time64" };

static void run_kapi_build(const char *build, const char *name, int shim,
			   struct run *r)
{
	char prog[4200];
	char *argv[] = { prog, (char *)name, NULL };

	snprintf(prog, sizeof(prog), "%s/compat/%s", util_tests_dir(), build);
	run(argv, shim, r);
	r->out[strcspn(r->out, "\n")] = '\0';
}

static void run_kapi(const char *name, int shim, struct run *r)
{
	run_kapi_build("kapi", name, shim, r);
}

static bool has(enum lpfd_feature feat)
{
	return util_kernel_has(feat);
}

/*
 * A pidfd ioctl on a kernel without PIDFD_GET_INFO: before 6.11 a pidfd
 * has no ioctls at all (ENOTTY); 6.11 and 6.12 have the namespace ones,
 * which refuse any argument first (EINVAL).
 */
static const char *info_ioctl_refused(const char *before_6_11,
				      const char *on_6_11)
{
	return has(LPFD_FEAT_NS_IOCTLS) ? on_6_11 : before_6_11;
}

/* The self sentinels, as 6.17 has them (-10001), or EBADF. */
static const char *sentinels(const char *without)
{
	return has(LPFD_FEAT_SELF_SENTINELS) &&
	       has(LPFD_FEAT_SELF_GROUP_10001) ? "ok" : without;
}

/*
 * One case both ways. Without the shim the answer is the kernel's own,
 * given by the caller from what this kernel has. With it, "ok".
 */
static void expect_case_with(const char *name, const char *without,
			     const char *with);

static void expect_case(const char *name, const char *without)
{
	expect_case_with(name, without, "ok");
}

static void expect_case_with(const char *name, const char *without,
			     const char *with)
{
	struct run r;

	for (size_t i = 0; i < UTIL_COUNT(kapi_builds); i++) {
		const char *b = kapi_builds[i];

		run_kapi_build(b, name, NO_SHIM, &r);
		if (strcmp(r.out, without) != 0)
			FAIL("%s %s without the shim: want \"%s\", got \"%s\"",
			     b, name, without, r.out);
		ASSERT_EQ(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 0,
			  strcmp(without, "ok") == 0);
		run_kapi_build(b, name, SHIM, &r);
		if (strcmp(r.out, with) != 0 || !WIFEXITED(r.status) ||
		    (WEXITSTATUS(r.status) != 0) != (strcmp(with, "ok") != 0))
			FAIL("%s %s with the shim: want \"%s\", got \"%s\" (status %#x)",
			     b, name, with, r.out, r.status);
	}
}

TEST(compat_info_self)
{
	expect_case("info-self", has(LPFD_FEAT_GET_INFO) ? "ok" :
		    info_ioctl_refused("v0:ENOTTY", "v0:EINVAL"));
}

/*
 * The supported mask: the kernel's from 6.19, the library's with the shim,
 * also for a 32-bit program with a 64-bit time_t (__ioctl_time64).
 */
TEST(compat_info_supported_mask)
{
	expect_case("info-supported",
		    has(LPFD_FEAT_INFO_SUPPORTED) ? "ok" :
		    has(LPFD_FEAT_GET_INFO) ? "no-supported-mask" :
		    info_ioctl_refused("v3:ENOTTY", "v3:EINVAL"));
}

TEST(compat_info_child)
{
	REQUIRE_PRIVILEGE("gives a child other credentials");
	expect_case("info-child", has(LPFD_FEAT_GET_INFO) ? "ok" :
		    info_ioctl_refused("child:ENOTTY", "child:EINVAL"));
}

/*
 * 6.13 to 6.17 judge a struct below 64 bytes in pidfd_info() (EINVAL),
 * 6.18 by the command (ENOTTY); the probe table does not tell them apart.
 */
static bool small_struct_is_einval(void)
{
	unsigned char buf[64] = { 0 };
	int fd = libpidfd_open(getpid(), 0), r;

	ASSERT_GE(fd, 0);
	r = ioctl(fd, _IOC(_IOC_READ | _IOC_WRITE, PIDFS_IOCTL_MAGIC, 11, 32), buf);
	ASSERT_EQ(r, -1);
	r = errno;
	close(fd);
	ASSERT_TRUE(r == EINVAL || r == ENOTTY);
	return r == EINVAL;
}

TEST(compat_info_encoding)
{
	if (!has(LPFD_FEAT_GET_INFO))
		expect_case("info-encoding",
			    info_ioctl_refused("null:ENOTTY", "size32:EINVAL"));
	else
		expect_case("info-encoding",
			    small_struct_is_einval() ? "size32:EINVAL" : "ok");
}

/* 6.11 and 6.12 refuse an argument before they look for the process. */
TEST(compat_ns_ioctls)
{
	REQUIRE_PRIVILEGE("creates a UTS namespace");
	expect_case("ns", !has(LPFD_FEAT_NS_IOCTLS) ? "cgroup:ENOTTY" :
		    has(LPFD_FEAT_GET_INFO) ? "ok" : "reaped-arg:EINVAL");
}

/* The sentinels in every call, from the main thread and from a thread. */
TEST(compat_send_signal_sentinels)
{
	expect_case("send-signal", sentinels("group:EBADF"));
}

/*
 * Before 5.6 the kernel has no pidfd_getfd: without the shim ENOSYS; with
 * it the sentinels, but for the leader's table seen from a thread that
 * has its own, which only the kernel can read.
 */
TEST(compat_getfd_sentinels_after_unshare)
{
	if (has(LPFD_FEAT_GETFD))
		expect_case("getfd", "group:EBADF");
	else
		expect_case_with("getfd", "group:ENOSYS", "leader-table:ENOSYS");
}

/* Before 5.10 the shim has the sentinels, and no call for another process. */
TEST(compat_process_madvise_sentinels)
{
	if (has(LPFD_FEAT_PROCESS_MADVISE))
		expect_case("madvise", sentinels("group:EBADF"));
	else
		expect_case_with("madvise", "group:ENOSYS", "fd:ENOSYS");
}

/* Before 5.15 the shim has the sentinels, and no call for another process. */
TEST(compat_process_mrelease_sentinels)
{
	if (has(LPFD_FEAT_PROCESS_MRELEASE))
		expect_case("mrelease", sentinels("group:EBADF"));
	else
		expect_case_with("mrelease", "group:ENOSYS", "child:ENOSYS");
}

TEST(compat_waitid_sentinels_echild)
{
	expect_case("waitid", "group:EINVAL");
}

TEST(compat_setns_refuses_sentinels)
{
	expect_case("setns", "ok");
}

/*
 * After the reap only the kernel knows the exit status: the shim passes it
 * on where the kernel has it natively (6.15+), and where the library
 * emulates (before 6.15, LIBPIDFD_EMULATE=1) it answers ESRCH.
 */
TEST(compat_info_reaped_exit)
{
	struct libpidfd_features f;
	const char *with, *without;
	struct run r;

	ASSERT_EQ(libpidfd_features(&f, sizeof(f)), 0);
	ASSERT_EQ(!!(f.info_mask & PIDFD_INFO_EXIT),
		  util_native(LPFD_FEAT_INFO_EXIT));
	with = util_exit_after_reap() ? "exit" : "ESRCH";
	without = has(LPFD_FEAT_INFO_EXIT) ? "exit" :
		  has(LPFD_FEAT_GET_INFO) ?
		  (util_kernel_gives_exit_after_reap() ? "exit" : "ESRCH") :
		  info_ioctl_refused("zombie:ENOTTY", "zombie:EINVAL");
	run_kapi("info-reaped", NO_SHIM, &r);
	if (strcmp(r.out, without) != 0)
		FAIL("without the shim: want \"%s\", got \"%s\"", without,
		     r.out);
	run_kapi("info-reaped", SHIM, &r);
	if (strcmp(r.out, with) != 0)
		FAIL("with the shim: want \"%s\", got \"%s\"", with, r.out);
	ASSERT_TRUE(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 0);
}

/*
 * What a file system does is the running kernel's, whatever personality
 * a seccomp filter gives the test: these answers follow its release.
 */
static bool release_at_least(int major, int minor)
{
	struct utsname u;
	int ma = 0, mi = 0;

	ASSERT_EQ(uname(&u), 0);
	ASSERT_EQ(sscanf(u.release, "%d.%d", &ma, &mi), 2);
	return ma > major || (ma == major && mi >= minor);
}

/* Whether pidfds are pidfs's (6.9), not the one shared anonymous inode. */
static bool pidfs(void)
{
	int fd = libpidfd_open(getpid(), 0);
	struct statfs sf;

	ASSERT_GE(fd, 0);
	ASSERT_EQ(fstatfs(fd, &sf), 0);
	close(fd);
	return sf.f_type != 0x09041934; /* ANON_INODE_FS_MAGIC */
}

/* A thread that leads no group: ENOENT since 6.16, EINVAL before. */
TEST(compat_pidfd_open_thread_enoent)
{
	expect_case("open-thread",
		    release_at_least(6, 16) ? "ok" : "thread:EINVAL");
}

/*
 * fchown() and fchmod() of a pidfd: before pidfs they succeed (and would
 * change the inode every pidfd, eventfd and epoll descriptor shares), 6.9
 * to 6.14 refuse EPERM, later kernels EOPNOTSUPP, as the shim does.
 */
TEST(compat_pidfd_inode_unchangeable)
{
	expect_case("inode", !pidfs() ? "fchown" :
		    release_at_least(6, 15) ? "ok" : "fchown:EPERM");
}

/*
 * execveat() of a pidfd is EACCES, but before pidfs only while the shared
 * inode's mode (0600) has no execute bit: once a program has made it
 * executable, the exec goes on to open it, ENXIO. Where the test owns the
 * machine (a throwaway guest), it makes it so, and puts the mode back.
 */
TEST(compat_pidfd_exec_eacces)
{
	struct stat st;
	int fd;

	expect_case("exec", "ok");
	if (pidfs() || !getenv("TEST_OWNS_MACHINE"))
		return;
	fd = libpidfd_open(getpid(), 0);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(fstat(fd, &st), 0);
	ASSERT_EQ(fchmod(fd, 0700), 0);
#ifdef __GLIBC__
	expect_case("exec", "execveat:ENXIO");
#else
	expect_case("exec", "fexecve:ENXIO");
#endif
	ASSERT_EQ(fchmod(fd, st.st_mode & 07777), 0);
	close(fd);
}

/* Same stdout and exit status with and without the shim. */
static void expect_identical(char *const argv[], const char *want_out,
			     int want_exit)
{
	const char *what = argv[1] ? argv[2] : argv[0];
	struct run a, b;

	run(argv, NO_SHIM, &a);
	run(argv, SHIM, &b);
	if (strcmp(a.out, b.out) != 0 || a.status != b.status)
		FAIL("%s differs: \"%s\"/%#x without the shim, \"%s\"/%#x with",
		     what, a.out, a.status, b.out, b.status);
	if (want_out && strcmp(a.out, want_out) != 0)
		FAIL("%s: want \"%s\", got \"%s\"", what, want_out, a.out);
	ASSERT_TRUE(WIFEXITED(a.status));
	ASSERT_EQ(WEXITSTATUS(a.status), want_exit);
}

TEST(compat_shell_pipeline_untouched)
{
#ifdef __GLIBC__
	char *ok[] = { "/bin/sh", "-c", "seq 1 1000 | sort -n | tail -1", NULL };
	char *fails[] = { "/bin/sh", "-c",
			  "seq 1 100 | sort -rn | head -3; exit 3", NULL };

	expect_identical(ok, "1000\n", 0);
	expect_identical(fails, "100\n99\n98\n", 3);
#else
	/*
	 * /bin/sh may be another C library's (glibc's on Debian), which
	 * cannot load this shim: the pipeline is built with the shim's own
	 * (tests/compat/pipeline), a process for each stage.
	 */
	char prog[4200];
	char *ok[] = { prog, "1000", "0", NULL };
	char *fails[] = { prog, "100", "3", NULL };

	snprintf(prog, sizeof(prog), "%s/compat/pipeline", util_tests_dir());
	expect_identical(ok, "1000\n", 0);
	expect_identical(fails, "100\n", 3);
#endif
}

TEST(compat_ioctl_syscall_traffic_untouched)
{
	char prog[4200];
	char *argv[] = { prog, NULL };

	snprintf(prog, sizeof(prog), "%s/compat/traffic", util_tests_dir());
	expect_identical(argv, NULL, 3);
}

/* A program with its own copy of the library: the shim changes nothing. */
TEST(compat_libpidfd_program_untouched)
{
	char prog[4200];
	char *argv[] = { prog, "features", NULL };

	snprintf(prog, sizeof(prog), "%s/../pidfd", util_tests_dir());
	expect_identical(argv, NULL, 0);
}

/*
 * The shim exports the calls it interposes and nothing else (the library
 * inside it stays private, so a program's own libpidfd.so.0 never binds to
 * it), and needs no libpidfd.so.0 of its own.
 */
TEST(compat_exports_only_the_interposed_calls)
{
	static const char *const exported[] = {
		"ioctl", "syscall", "waitid", "pidfd_open", "pidfd_send_signal",
		"pidfd_getfd", "process_madvise", "process_mrelease", "fchown",
		"fchownat", "fchmod", "execveat", "fexecve",
#if defined(__GLIBC__) && defined(__TIMESIZE) && __TIMESIZE == 32
		"__ioctl_time64",
#endif
	};
	static const char *const hidden[] = {
		"libpidfd_get_info", "libpidfd_send_signal", "libpidfd_features",
		"lpfd_get_info", "lpfd_native", "__wrap_syscall",
	};
	char path[4200];
	void *h;
	Dl_info di;

	snprintf(path, sizeof(path), "%s/../libpidfd-compat.so", util_tests_dir());
	h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	ASSERT_TRUE(h != NULL);
	for (size_t i = 0; i < sizeof(exported) / sizeof(*exported); i++) {
		void *f = dlsym(h, exported[i]);

		ASSERT_TRUE(f != NULL);
		ASSERT_TRUE(dladdr(f, &di) && di.dli_fname);
		if (!strstr(di.dli_fname, "libpidfd-compat.so"))
			FAIL("%s comes from %s", exported[i], di.dli_fname);
	}
	for (size_t i = 0; i < sizeof(hidden) / sizeof(*hidden); i++)
		if (dlsym(h, hidden[i]))
			FAIL("the shim exports %s", hidden[i]);
	ASSERT_TRUE(dlopen("libpidfd.so.0", RTLD_NOW | RTLD_NOLOAD) == NULL);
}

/*
 * The shim's entry points within 4 KiB of stack too (test-stack measures
 * the library's): each on a painted stack, after a first call that
 * resolves what the shim looks up (dlsym(RTLD_NEXT), the dynamic linker's,
 * which comes on top of the budget).
 */
typedef int (*shim_ioctl_fn)(int, unsigned long, ...);
typedef long (*shim_syscall_fn)(long, ...);
typedef int (*shim_waitid_fn)(idtype_t, id_t, siginfo_t *, int);
static shim_ioctl_fn g_shim_ioctl;
static shim_syscall_fn g_shim_syscall;
static shim_waitid_fn g_shim_waitid;
static int g_shim_fd;

static void shim_info(void)
{
	struct pidfd_info info = { .mask = PIDFD_INFO_EXIT | PIDFD_INFO_SUPPORTED_MASK };

	(void)g_shim_ioctl(g_shim_fd, PIDFD_GET_INFO, &info);
}

static void shim_ns(void)
{
	int fd = g_shim_ioctl(g_shim_fd, PIDFD_GET_UTS_NAMESPACE, 0);

	if (fd >= 0)
		close(fd);
}

static void shim_signal(void)
{
	(void)g_shim_syscall(SYS_pidfd_send_signal, PIDFD_SELF, 0, NULL, 0);
}

static void shim_getfd(void)
{
	long fd = g_shim_syscall(SYS_pidfd_getfd, PIDFD_SELF_PROCESS, 0, 0);

	if (fd >= 0)
		close((int)fd);
}

static void shim_waitid(void)
{
	siginfo_t si;

	(void)g_shim_waitid(P_PIDFD, (id_t)PIDFD_SELF, &si, WEXITED | WNOHANG);
}

TEST(compat_entry_points_within_4_kib_of_stack)
{
	static const struct { const char *name; void (*fn)(void); } calls[] = {
		{ "ioctl(PIDFD_GET_INFO)", shim_info },
		{ "ioctl(PIDFD_GET_UTS_NAMESPACE)", shim_ns },
		{ "syscall(pidfd_send_signal, PIDFD_SELF)", shim_signal },
		{ "syscall(pidfd_getfd, PIDFD_SELF_PROCESS)", shim_getfd },
		{ "waitid(P_PIDFD, PIDFD_SELF)", shim_waitid },
	};
	char path[4200];
	void *h;

	snprintf(path, sizeof(path), "%s/../libpidfd-compat.so", util_tests_dir());
	h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	ASSERT_TRUE(h != NULL);
	g_shim_ioctl = (shim_ioctl_fn)dlsym(h, "ioctl");
	g_shim_syscall = (shim_syscall_fn)dlsym(h, "syscall");
	g_shim_waitid = (shim_waitid_fn)dlsym(h, "waitid");
	ASSERT_TRUE(g_shim_ioctl && g_shim_syscall && g_shim_waitid);
	util_spawn(NULL, NULL, &g_shim_fd);
	for (size_t i = 0; i < sizeof(calls) / sizeof(*calls); i++) {
		size_t n;

		calls[i].fn();
		n = util_stack_used(calls[i].fn);
		if (n > util_stack_budget())
			FAIL("the shim's %s: %zu bytes of stack, over %zu",
			     calls[i].name, n, util_stack_budget());
	}
	util_kill_reap(g_shim_fd);
}
