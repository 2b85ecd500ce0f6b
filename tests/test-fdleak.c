/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * File descriptors: every public function, on success and on each error
 * path, on both library paths, leaves exactly the descriptors it found
 * (plus the one it returns, if it returns one). And with the descriptor
 * limit reached (no free descriptor, or only one to three), every call
 * gives the answer it gives with descriptors to spare, or EMFILE: never
 * another errno, never other data, never a leak. A kernel probe that
 * cannot run gives up after a few calls and the feature counts as absent
 * from then on: a call on the native path may then give the emulated
 * path's answer, and libpidfd_features() show fewer kernel features. The
 * limited runs start in fresh processes, so that the probes run there too.
 */
#include <fcntl.h>
#include <libpidfd.h>
#include <linux/seccomp.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/uio.h>

#include "util.h"

#ifndef MADV_COLD
#define MADV_COLD 20
#endif

/* The processes and descriptors the calls are made on. */
static struct fixture {
	int live, zombie, reaped, remote, pipe_fd, closed;
	int own_zombie; /* a zombie child of the process running the calls */
	pid_t live_pid, reaped_pid;
} F;

enum { RET_FD = 1, SELF_REL = 2 }; /* returns an fd; answer depends on the caller */

struct call {
	const char *name;
	long (*fn)(struct pidfd_info *info);
	int flags;
};

static long info_of(int fd, uint64_t mask, size_t size, struct pidfd_info *i)
{
	i->mask = mask;
	return libpidfd_get_info(fd, i, size);
}

#define INFO(id, fd, mask, size)                                               \
	static long id(struct pidfd_info *i)                                   \
	{                                                                      \
		return info_of(fd, mask, size, i);                             \
	}
INFO(info_live, F.live, 0, sizeof(*i))
INFO(info_live_cg, F.live, PIDFD_INFO_CGROUPID, sizeof(*i))
INFO(info_live_all, F.live, ~0ULL, sizeof(*i))
INFO(info_live_v0, F.live, PIDFD_INFO_CGROUPID, PIDFD_INFO_SIZE_VER0)
INFO(info_live_small, F.live, 0, 32)
INFO(info_zombie, F.zombie, PIDFD_INFO_EXIT | PIDFD_INFO_CGROUPID, sizeof(*i))
INFO(info_reaped, F.reaped, 0, sizeof(*i))
INFO(info_reaped_exit, F.reaped, PIDFD_INFO_EXIT, sizeof(*i))
INFO(info_remote, F.remote, 0, sizeof(*i))
INFO(info_pipe, F.pipe_fd, 0, sizeof(*i))
INFO(info_closed, F.closed, 0, sizeof(*i))
INFO(info_self, PIDFD_SELF_PROCESS, PIDFD_INFO_CGROUPID | PIDFD_INFO_COREDUMP, sizeof(*i))
INFO(info_self_thread, PIDFD_SELF_THREAD, PIDFD_INFO_CGROUPID, sizeof(*i))
INFO(info_bad_value, -5, 0, sizeof(*i))

static long info_null(struct pidfd_info *i)
{
	(void)i;
	return libpidfd_get_info(F.live, NULL, sizeof(*i));
}

#define GETPID(id, fd)                                                         \
	static long id(struct pidfd_info *i)                                   \
	{                                                                      \
		(void)i;                                                       \
		return libpidfd_getpid(fd);                                    \
	}
GETPID(getpid_live, F.live)
GETPID(getpid_zombie, F.zombie)
GETPID(getpid_reaped, F.reaped)
GETPID(getpid_remote, F.remote)
GETPID(getpid_pipe, F.pipe_fd)
GETPID(getpid_closed, F.closed)
GETPID(getpid_self, PIDFD_SELF_PROCESS)
GETPID(getpid_bad_value, -7)

#define CALL(id, expr)                                                         \
	static long id(struct pidfd_info *i)                                   \
	{                                                                      \
		(void)i;                                                       \
		return (long)(expr);                                           \
	}
CALL(open_live, libpidfd_open(F.live_pid, 0))
CALL(open_nonblock, libpidfd_open(F.live_pid, PIDFD_NONBLOCK))
CALL(open_thread, libpidfd_open(gettid(), PIDFD_THREAD))
CALL(open_reaped, libpidfd_open(F.reaped_pid, 0))
CALL(open_bad_pid, libpidfd_open(-3, 0))
CALL(open_bad_flags, libpidfd_open(F.live_pid, 0x40000000))
CALL(signal_live, libpidfd_send_signal(F.live, 0, NULL, 0))
CALL(signal_zombie, libpidfd_send_signal(F.zombie, 0, NULL, 0))
CALL(signal_reaped, libpidfd_send_signal(F.reaped, 0, NULL, 0))
CALL(signal_remote, libpidfd_send_signal(F.remote, 0, NULL, 0))
CALL(signal_pipe, libpidfd_send_signal(F.pipe_fd, 0, NULL, 0))
CALL(signal_self, libpidfd_send_signal(PIDFD_SELF_PROCESS, 0, NULL, 0))
CALL(signal_self_thread, libpidfd_send_signal(PIDFD_SELF_THREAD, 0, NULL,
					      PIDFD_SIGNAL_THREAD))
CALL(signal_bad_flags, libpidfd_send_signal(F.live, 0, NULL, 0x80))
CALL(getfd_live, libpidfd_getfd(F.live, 0, 0))
CALL(getfd_no_such_fd, libpidfd_getfd(F.live, 777, 0))
CALL(getfd_reaped, libpidfd_getfd(F.reaped, 0, 0))
CALL(getfd_pipe, libpidfd_getfd(F.pipe_fd, 0, 0))
CALL(getfd_self_thread, libpidfd_getfd(PIDFD_SELF_THREAD, 0, 0))
CALL(getfd_self, libpidfd_getfd(PIDFD_SELF_PROCESS, 1, 0))
CALL(getfd_bad_flags, libpidfd_getfd(F.live, 0, 1))
CALL(mrelease_live, libpidfd_process_mrelease(F.live, 0))
CALL(mrelease_reaped, libpidfd_process_mrelease(F.reaped, 0))
CALL(mrelease_self, libpidfd_process_mrelease(PIDFD_SELF_PROCESS, 0))
CALL(mrelease_bad_flags, libpidfd_process_mrelease(F.live, 1))
CALL(ns_live, libpidfd_get_namespace(F.live, PIDFD_GET_UTS_NAMESPACE))
CALL(ns_live_pid, libpidfd_get_namespace(F.live, PIDFD_GET_PID_NAMESPACE))
CALL(ns_zombie, libpidfd_get_namespace(F.zombie, PIDFD_GET_NET_NAMESPACE))
CALL(ns_reaped, libpidfd_get_namespace(F.reaped, PIDFD_GET_MNT_NAMESPACE))
CALL(ns_remote, libpidfd_get_namespace(F.remote, PIDFD_GET_UTS_NAMESPACE))
CALL(ns_pipe, libpidfd_get_namespace(F.pipe_fd, PIDFD_GET_UTS_NAMESPACE))
CALL(ns_self, libpidfd_get_namespace(PIDFD_SELF_PROCESS, PIDFD_GET_USER_NAMESPACE))
CALL(ns_self_thread, libpidfd_get_namespace(PIDFD_SELF_THREAD, PIDFD_GET_IPC_NAMESPACE))
CALL(ns_bad_cmd, libpidfd_get_namespace(F.live, 0x12345))

static long madvise_on(int fd, int advice)
{
	return util_madvise_page(fd, advice, 0);
}
CALL(madvise_self, madvise_on(PIDFD_SELF_PROCESS, MADV_COLD))
CALL(madvise_live, madvise_on(F.live, MADV_COLD))
CALL(madvise_reaped, madvise_on(F.reaped, MADV_COLD))
CALL(madvise_bad_advice, madvise_on(F.live, 12345))

static long wait_on(int fd, int options)
{
	siginfo_t si;

	memset(&si, 0, sizeof(si));
	return libpidfd_waitid(fd, &si, options, NULL);
}
/* WNOWAIT and WNOHANG: no call changes what the next one sees. */
CALL(wait_live, wait_on(F.live, WEXITED | WNOHANG))
CALL(wait_zombie, wait_on(F.zombie, WEXITED | WNOWAIT))
CALL(wait_own_zombie, wait_on(F.own_zombie, WEXITED | WNOWAIT))
CALL(wait_reaped, wait_on(F.reaped, WEXITED | WNOHANG))
CALL(wait_self, wait_on(PIDFD_SELF_PROCESS, WEXITED | WNOHANG))
CALL(wait_pipe, wait_on(F.pipe_fd, WEXITED | WNOHANG))
CALL(wait_bad_options, wait_on(F.live, 0))

static long features_ok(struct pidfd_info *i)
{
	struct libpidfd_features f;
	long r = libpidfd_features(&f, sizeof(f));

	/* The answer itself goes into the compared bytes. */
	memcpy(i, &f, sizeof(f) < sizeof(*i) ? sizeof(f) : sizeof(*i));
	return r;
}
CALL(features_null, libpidfd_features(NULL, 64))

#define PROC_OPEN(id, fd, name, flags) \
	CALL(id, libpidfd_proc_open(fd, name, flags))
PROC_OPEN(proc_open_live, F.live, "status", O_RDONLY)
PROC_OPEN(proc_open_exe, F.live, "exe", O_RDONLY)
PROC_OPEN(proc_open_dir, F.live, "", O_PATH | O_DIRECTORY)
PROC_OPEN(proc_open_task, F.live, "task", O_RDONLY | O_DIRECTORY)
PROC_OPEN(proc_open_zombie, F.zombie, "stat", O_RDONLY)
PROC_OPEN(proc_open_reaped, F.reaped, "status", O_RDONLY)
PROC_OPEN(proc_open_remote, F.remote, "status", O_RDONLY)
PROC_OPEN(proc_open_pipe, F.pipe_fd, "status", O_RDONLY)
PROC_OPEN(proc_open_closed, F.closed, "status", O_RDONLY)
PROC_OPEN(proc_open_self, PIDFD_SELF_PROCESS, "status", O_RDONLY)
PROC_OPEN(proc_open_self_thread, PIDFD_SELF_THREAD, "stat", O_RDONLY)
PROC_OPEN(proc_open_bad_value, -5, "status", O_RDONLY)
PROC_OPEN(proc_open_no_such, F.live, "no-such-file", O_RDONLY)
PROC_OPEN(proc_open_through_link, F.live, "cwd/x", O_RDONLY)
PROC_OPEN(proc_open_nofollow, F.live, "exe", O_RDONLY | O_NOFOLLOW)
PROC_OPEN(proc_open_not_dir, F.live, "status", O_RDONLY | O_DIRECTORY)
PROC_OPEN(proc_open_dotdot, F.live, "task/../status", O_RDONLY)
PROC_OPEN(proc_open_bad_flags, F.live, "status", O_RDONLY | O_CREAT)
PROC_OPEN(proc_open_null, F.live, NULL, O_RDONLY)

#define PROC_READLINK(id, fd, name) \
	CALL(id, libpidfd_proc_readlink(fd, name, (char *)i, sizeof(*i)))
PROC_READLINK(proc_readlink_live, F.live, "ns/pid")
PROC_READLINK(proc_readlink_zombie, F.zombie, "ns/pid")
PROC_READLINK(proc_readlink_reaped, F.reaped, "ns/pid")
PROC_READLINK(proc_readlink_remote, F.remote, "ns/pid")
PROC_READLINK(proc_readlink_pipe, F.pipe_fd, "ns/pid")
PROC_READLINK(proc_readlink_self, PIDFD_SELF_PROCESS, "exe")
PROC_READLINK(proc_readlink_not_link, F.live, "status")
PROC_READLINK(proc_readlink_through_link, F.live, "cwd/x")
PROC_READLINK(proc_readlink_no_such, F.live, "fd/777")

#define C(fn, fl) { #fn, fn, fl }
static const struct call calls[] = {
	C(info_live, 0), C(info_live_cg, 0), C(info_live_all, 0),
	C(info_live_v0, 0), C(info_live_small, 0), C(info_zombie, 0),
	C(info_reaped, 0), C(info_reaped_exit, 0), C(info_remote, 0),
	C(info_pipe, 0), C(info_closed, 0), C(info_self, SELF_REL),
	C(info_self_thread, SELF_REL), C(info_bad_value, 0), C(info_null, 0),
	C(getpid_live, 0), C(getpid_zombie, 0), C(getpid_reaped, 0),
	C(getpid_remote, 0), C(getpid_pipe, 0), C(getpid_closed, 0),
	C(getpid_self, SELF_REL), C(getpid_bad_value, 0),
	C(open_live, RET_FD), C(open_nonblock, RET_FD),
	C(open_thread, RET_FD), C(open_reaped, 0), C(open_bad_pid, 0),
	C(open_bad_flags, 0),
	C(signal_live, 0), C(signal_zombie, 0), C(signal_reaped, 0),
	C(signal_remote, 0), C(signal_pipe, 0), C(signal_self, 0),
	C(signal_self_thread, 0), C(signal_bad_flags, 0),
	C(getfd_live, RET_FD), C(getfd_no_such_fd, 0), C(getfd_reaped, 0),
	C(getfd_pipe, 0), C(getfd_self_thread, RET_FD), C(getfd_self, RET_FD),
	C(getfd_bad_flags, 0),
	C(mrelease_live, 0), C(mrelease_reaped, 0), C(mrelease_self, 0),
	C(mrelease_bad_flags, 0),
	C(ns_live, RET_FD), C(ns_live_pid, RET_FD), C(ns_zombie, 0),
	C(ns_reaped, 0), C(ns_remote, RET_FD), C(ns_pipe, 0),
	C(ns_self, RET_FD), C(ns_self_thread, RET_FD), C(ns_bad_cmd, 0),
	C(madvise_self, 0), C(madvise_live, 0), C(madvise_reaped, 0),
	C(madvise_bad_advice, 0),
	C(wait_live, 0), C(wait_zombie, 0), C(wait_own_zombie, 0), C(wait_reaped, 0), C(wait_self, 0),
	C(wait_pipe, 0), C(wait_bad_options, 0),
	C(features_ok, 0), C(features_null, 0),
	C(proc_open_live, RET_FD), C(proc_open_exe, RET_FD),
	C(proc_open_dir, RET_FD), C(proc_open_task, RET_FD),
	C(proc_open_zombie, RET_FD), C(proc_open_reaped, 0),
	C(proc_open_remote, 0), C(proc_open_pipe, 0), C(proc_open_closed, 0),
	C(proc_open_self, RET_FD | SELF_REL),
	C(proc_open_self_thread, RET_FD | SELF_REL),
	C(proc_open_bad_value, 0), C(proc_open_no_such, 0),
	C(proc_open_through_link, 0), C(proc_open_nofollow, 0),
	C(proc_open_not_dir, 0), C(proc_open_dotdot, 0),
	C(proc_open_bad_flags, 0), C(proc_open_null, 0),
	C(proc_readlink_live, 0), C(proc_readlink_zombie, 0),
	C(proc_readlink_reaped, 0), C(proc_readlink_remote, 0),
	C(proc_readlink_pipe, 0), C(proc_readlink_self, SELF_REL),
	C(proc_readlink_not_link, 0), C(proc_readlink_through_link, 0),
	C(proc_readlink_no_such, 0),
};
#define NCALLS (sizeof(calls) / sizeof(calls[0]))

struct result {
	long ret;
	int err;
	bool leaked;
	struct pidfd_info info;
};

/* One call, its fds counted around it; a returned fd is closed first. */
static void run_call(const struct call *c, struct result *r)
{
	uint64_t before[UTIL_FDS / 64], after[UTIL_FDS / 64];

	memset(&r->info, 0, sizeof(r->info));
	ASSERT_GE(util_open_fds(before), 0);
	errno = 0;
	r->ret = c->fn(&r->info);
	r->err = r->ret < 0 ? errno : 0;
	if ((c->flags & RET_FD) && r->ret >= 0) {
		ASSERT_TRUE(!(before[r->ret / 64] & (1ULL << (r->ret % 64))));
		close((int)r->ret);
		r->ret = 0;
	}
	if (c->flags & SELF_REL) {
		/* Ids of the calling process: the same in every run. */
		if (r->ret == getpid())
			r->ret = 1;
		if (r->info.pid == (uint32_t)getpid() ||
		    r->info.pid == (uint32_t)gettid())
			r->info.pid = r->info.tgid = 1;
	}
	ASSERT_GE(util_open_fds(after), 0);
	r->leaked = memcmp(before, after, sizeof(before)) != 0;
}

/* Every call on both paths, results into out[2][NCALLS]. */
static void run_table(struct result *out)
{
	for (int em = 0; em < 2; em++)
		for (size_t i = 0; i < NCALLS; i++) {
			util_set_path(em);
			run_call(&calls[i], &out[em * NCALLS + i]);
		}
}

static void make_fixtures(void)
{
	int p[2];

	/* The harness's process, outside this pid namespace: set by the caller. */
	F.live_pid = util_spawn(NULL, NULL, &F.live);
	util_zombie(7, &F.zombie);
	F.reaped_pid = util_spawn(NULL, NULL, &F.reaped);
	{
		siginfo_t si;

		kill(F.reaped_pid, SIGKILL);
		ASSERT_EQ(waitid(P_PIDFD, (id_t)F.reaped, &si, WEXITED), 0);
	}
	ASSERT_EQ(pipe(p), 0);
	F.pipe_fd = p[0];
	F.closed = 900;
}

/* The table in a fresh process (its probes not yet run), after setup(arg). */
static void fresh_run(struct result *out, void (*setup)(int), int arg)
{
	int status;
	pid_t pid = fork();

	ASSERT_GE(pid, 0);
	if (pid == 0) {
		util_zombie(3, &F.own_zombie);
		if (setup)
			setup(arg);
		run_table(out);
		fflush(stdout);
		_exit(0);
	}
	ASSERT_EQ(waitpid(pid, &status, 0), pid);
	ASSERT_EQ(status, 0);
}

static int lowest_free_fd(void)
{
	int lowest = dup(0);

	ASSERT_GE(lowest, 0);
	close(lowest);
	return lowest;
}

/*
 * Under a descriptor limit, arg spare descriptors above the lowest free
 * one; warm (arg + 256), after one call (which probes the kernel for
 * PIDFD_GET_INFO alone), so that the limit finds some probes done and
 * others not.
 */
static void limit_fds(int arg)
{
	struct rlimit rl;

	if (arg >= 256)
		ASSERT_EQ(libpidfd_getpid(F.live), F.live_pid);
	ASSERT_EQ(getrlimit(RLIMIT_NOFILE, &rl), 0);
	rl.rlim_cur = (rlim_t)(lowest_free_fd() + arg % 256);
	ASSERT_EQ(setrlimit(RLIMIT_NOFILE, &rl), 0);
}

static void limited_run(struct result *out, int spare, bool warm)
{
	fresh_run(out, limit_fds, spare + (warm ? 256 : 0));
}

/* Runs: the reference, then 0 to 3 spare descriptors, cold and warm. */
#define RUNS 9
#define SPARE(run) (((run) - 1) % 4)

static bool same_result(const struct result *r, const struct result *want)
{
	return r->ret == want->ret && r->err == want->err &&
	       memcmp(&r->info, &want->info, sizeof(r->info)) == 0;
}

/*
 * The emulation's answer without the cgroup id: a cgroup that wants a
 * descriptor more than the limit leaves the bit clear, as the contract
 * allows for a cgroup that cannot be resolved, rather than failing the
 * whole call. Only the bit and its field may differ.
 */
static bool cgroupid_dropped(const struct result *r, const struct result *want)
{
	struct pidfd_info got = r->info;

	if (r->ret != 0 || want->ret != 0 ||
	    !(want->info.mask & PIDFD_INFO_CGROUPID) ||
	    (got.mask & PIDFD_INFO_CGROUPID) || got.cgroupid != 0)
		return false;
	got.mask |= PIDFD_INFO_CGROUPID;
	got.cgroupid = want->info.cgroupid;
	return memcmp(&got, &want->info, sizeof(got)) == 0;
}

/* libpidfd_features() after a probe gave up: the same, less some kernel bits. */
static bool fewer_features(size_t call, const struct result *r,
			   const struct result *want)
{
	struct libpidfd_features got, ref;

	if (calls[call].fn != features_ok || r->ret != 0 || want->ret != 0)
		return false;
	memcpy(&got, &r->info, sizeof(got) < sizeof(r->info) ? sizeof(got) : sizeof(r->info));
	memcpy(&ref, &want->info, sizeof(ref) < sizeof(want->info) ? sizeof(ref) : sizeof(want->info));
	return (got.kernel & ~ref.kernel) == 0;
}

static void fdleak_all(void)
{
	size_t n = 2 * NCALLS;
	struct result *ref = mmap(NULL, RUNS * n * sizeof(*ref),
				  PROT_READ | PROT_WRITE,
				  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int failures = 0, emfile = 0;

	ASSERT_TRUE(ref != MAP_FAILED);
	make_fixtures();
	/* The reference: a fresh process with descriptors to spare. */
	limited_run(ref, 64, false);
	for (int run = 1; run < RUNS; run++)
		limited_run(ref + (size_t)run * n, SPARE(run), run > 4);
	for (int run = 0; run < RUNS; run++)
		for (size_t i = 0; i < n; i++) {
			const struct result *r = &ref[(size_t)run * n + i];
			const struct result *want = &ref[i];
			const char *name = calls[i % NCALLS].name;
			const char *path = i < NCALLS ? "native" : "emulated";

			if (r->leaked) {
				printf("# %s (%s path, %d spare fds): fd leak\n",
				       name, path, SPARE(run));
				failures++;
			}
			if (run == 0)
				continue;
			if (r->ret == -1 && r->err == EMFILE) {
				emfile++;
				continue;
			}
			if (!same_result(r, want) &&
			    !(i < NCALLS && same_result(r, want + NCALLS)) &&
			    !cgroupid_dropped(r, want) &&
			    !fewer_features(i % NCALLS, r, want)) {
				printf("# %s (%s path, %d spare fds): %ld/%s, "
				       "with fds to spare %ld/%s\n", name, path,
				       SPARE(run), r->ret, lpfd_errno_name(r->err),
				       want->ret, lpfd_errno_name(want->err));
				failures++;
			}
		}
	printf("# %zu calls x 2 paths x %d limits, %d gave EMFILE\n", NCALLS,
	       RUNS, emfile);
	ASSERT_EQ(failures, 0);
	ASSERT_TRUE(emfile > 0);
	util_kill_reap(F.live);
}

/*
 * The caller's descriptors between free numbers: the library's /proc
 * directory and its files then cannot be neighbours, and are closed one
 * by one. A descriptor of the caller's between them stays open (run_call
 * compares the whole table around each call).
 */
static void interleave_fds(int holes)
{
	int lowest = lowest_free_fd();

	for (int i = 0; i < 2 * holes; i++)
		ASSERT_EQ(dup2(0, lowest + i), lowest + i);
	for (int i = 0; i < holes; i++)
		close(lowest + 2 * i);
}

/*
 * close_range(2) refused: before the first probe (the feature is absent)
 * or after it (the library was told it exists; each call that tries it
 * finds it refused and closes its descriptors one by one).
 */
static void refuse_close_range(int after_probe)
{
	struct libpidfd_features f;

	if (after_probe) {
		ASSERT_EQ(libpidfd_features(&f, sizeof(f)), 0);
		ASSERT_TRUE(f.kernel & LIBPIDFD_KERNEL_CLOSE_RANGE);
	}
	ASSERT_EQ(util_errno_filter(SYS_close_range, after_probe ? EPERM : ENOSYS), 0);
}

static void closing_variants(void)
{
	enum { REF, HOLES, REFUSED, REFUSED_LATE, NRUNS };
	static const char *const what[NRUNS] = {
		"", "caller's fds between", "close_range refused",
		"close_range refused after the probe",
	};
	size_t n = 2 * NCALLS;
	struct result *res = mmap(NULL, NRUNS * n * sizeof(*res),
				  PROT_READ | PROT_WRITE,
				  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int failures = 0;

	ASSERT_TRUE(res != MAP_FAILED);
	make_fixtures();
	fresh_run(res, NULL, 0);
	fresh_run(res + HOLES * n, interleave_fds, 8);
	fresh_run(res + REFUSED * n, refuse_close_range, 0);
	fresh_run(res + REFUSED_LATE * n, refuse_close_range, 1);
	for (int run = 0; run < NRUNS; run++)
		for (size_t i = 0; i < n; i++) {
			const struct result *r = &res[(size_t)run * n + i];
			const char *path = i < NCALLS ? "native" : "emulated";
			bool differs = run > 0 && !same_result(r, &res[i]) &&
				       !fewer_features(i % NCALLS, r, &res[i]);

			if (r->leaked)
				printf("# %s (%s path%s%s): fd leak or fd closed\n",
				       calls[i % NCALLS].name, path,
				       run ? ", " : "", what[run]);
			if (differs)
				printf("# %s (%s path, %s): %ld/%s, else %ld/%s\n",
				       calls[i % NCALLS].name, path, what[run],
				       r->ret, lpfd_errno_name(r->err), res[i].ret,
				       lpfd_errno_name(res[i].err));
			failures += r->leaked || differs;
		}
	ASSERT_EQ(failures, 0);
	util_kill_reap(F.live);
}

TEST_TIMEOUT(the_caller_s_fds_between_and_a_refused_close_range_change_nothing, 60)
{
	F.remote = libpidfd_open(getpid(), 0);
	ASSERT_GE(F.remote, 0);
	util_in_pidns(closing_variants, true);
}

TEST_TIMEOUT(every_function_leaks_no_fd_and_says_emfile_or_right, 60)
{
	/* Opened here, it names a process outside the namespace below. */
	F.remote = libpidfd_open(getpid(), 0);
	ASSERT_GE(F.remote, 0);
	util_in_pidns(fdleak_all, true);
}
