/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libpidfd_features() and the probe table behind it, against the kernel
 * asked directly: every LIBPIDFD_KERNEL_* bit must be what a plain system
 * call on this kernel says, on every kernel the suite runs on. The test
 * may create processes (a reaped child is the only direct proof of
 * PIDFD_INFO_EXIT); the library may not, and infers that one.
 */
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include <linux/openat2.h>

#include "harness.h"
#include "internal.h"
#include "syscall.h"
#include "util.h"

static long sys(long nr, long a, long b, long c, long d)
{
	return syscall(nr, a, b, c, d, 0, 0);
}

/* The call exists: anything but ENOSYS (and EBADF for fd -1 proves it). */
static bool exists(long r)
{
	return r >= 0 || errno != ENOSYS;
}

static int self_pidfd(void)
{
	int fd = (int)sys(SYS_pidfd_open, getpid(), 0, 0, 0);

	ASSERT_GE(fd, 0);
	return fd;
}

static bool info_answer(uint64_t mask, struct pidfd_info *info)
{
	int fd = self_pidfd();
	int r;

	memset(info, 0, sizeof(*info));
	info->mask = mask;
	r = ioctl(fd, PIDFD_GET_INFO, info);
	close(fd);
	return r == 0;
}

static bool open_works(unsigned int flags, pid_t pid)
{
	int fd = (int)sys(SYS_pidfd_open, pid, flags, 0, 0);

	if (fd < 0)
		return false;
	close(fd);
	return true;
}

static bool ns_ioctl_works(void)
{
	int fd = self_pidfd(), ns = ioctl(fd, PIDFD_GET_UTS_NAMESPACE, 0);

	close(fd);
	if (ns < 0)
		return false;
	close(ns);
	return true;
}

/* The supported mask, where the kernel has one, wherever it puts it. */
static uint64_t supported_mask(void)
{
	struct pidfd_info info;

	if (!info_answer(PIDFD_INFO_SUPPORTED_MASK, &info) ||
	    !(info.mask & PIDFD_INFO_SUPPORTED_MASK))
		return 0;
	return info.supported_mask ? info.supported_mask :
		info.coredump_code | (uint64_t)info.coredump_pad << 32;
}

/*
 * A feature that brings a PIDFD_INFO_* bit and has no check of its own
 * above: the kernel lists the bit in its supported mask (Linux 6.19 on,
 * older than any such feature). So a new field's feature needs no line
 * here.
 */
static void info_bits_from_the_mask(int want[], uint64_t sup)
{
#define INFO_BIT(NAME, feat, emulated, last)                                   \
	if (want[LPFD_FEAT_##feat] < 0)                                        \
		want[LPFD_FEAT_##feat] = (sup & PIDFD_INFO_##NAME) != 0;
	LPFD_INFO_BITS(INFO_BIT)
#undef INFO_BIT
}

/* A child, exited and reaped: does the kernel still tell its status? */
static bool exit_after_reap(void)
{
	struct pidfd_info info = { .mask = PIDFD_INFO_EXIT };
	siginfo_t si;
	int fd;

	util_zombie(9, &fd);
	ASSERT_EQ(waitid(P_PIDFD, (id_t)fd, &si, WEXITED), 0);
	if (ioctl(fd, PIDFD_GET_INFO, &info) < 0) {
		close(fd);
		return false;
	}
	close(fd);
	return (info.mask & PIDFD_INFO_EXIT) && info.exit_code == 9 << 8;
}

/* "/proc" itself is a mount point: crossing into it is refused. */
static bool openat2_stays_on_mount(void)
{
	struct open_how how = { .flags = O_PATH | O_CLOEXEC,
				.resolve = RESOLVE_NO_XDEV };
	long fd = syscall(SYS_openat2, AT_FDCWD, "/", &how, sizeof(how));

	if (fd < 0)
		return false;
	close((int)fd);
	return syscall(SYS_openat2, AT_FDCWD, "/proc/self", &how,
		       sizeof(how)) < 0 && errno == EXDEV;
}

TEST(every_kernel_bit_is_what_the_kernel_says)
{
	struct libpidfd_features f;
	struct pidfd_info info;
	siginfo_t si;
	static const char *const name[] = {
#define NAME(NAME, name, since, emulable, what) #NAME,
		LPFD_FEATURES(NAME)
#undef NAME
	};
	int want[LPFD_FEAT_COUNT]; /* -1: no check of the kernel's below */
	bool have_info = info_answer(PIDFD_INFO_COREDUMP, &info);
	uint64_t sup = supported_mask();

	for (int i = 0; i < LPFD_FEAT_COUNT; i++)
		want[i] = -1;
	want[LPFD_FEAT_PIDFD_OPEN] = open_works(0, getpid());
	want[LPFD_FEAT_SEND_SIGNAL] = exists(sys(SYS_pidfd_send_signal, -1, 0, 0, 0));
	want[LPFD_FEAT_WAITID_PIDFD] =
		waitid(P_PIDFD, INT_MAX, &si, WEXITED) < 0 && errno == EBADF;
	want[LPFD_FEAT_GETFD] = exists(sys(SYS_pidfd_getfd, -1, 0, 0, 0));
	want[LPFD_FEAT_PROCESS_MADVISE] =
		exists(sys(SYS_process_madvise, -1, 0, 0, 0));
	want[LPFD_FEAT_PROCESS_MRELEASE] =
		exists(sys(__NR_process_mrelease, -1, 0, 0, 0));
	want[LPFD_FEAT_PIDFD_THREAD] = open_works(PIDFD_THREAD, gettid());
	want[LPFD_FEAT_NS_IOCTLS] = ns_ioctl_works();
	want[LPFD_FEAT_GET_INFO] = have_info;
	want[LPFD_FEAT_SELF_SENTINELS] =
		sys(SYS_pidfd_send_signal, PIDFD_SELF_THREAD, 0, 0, 0) == 0;
	want[LPFD_FEAT_INFO_EXIT] = have_info && exit_after_reap();
	want[LPFD_FEAT_INFO_COREDUMP] =
		have_info && (info.mask & PIDFD_INFO_COREDUMP);
	want[LPFD_FEAT_SELF_GROUP_10001] =
		sys(SYS_pidfd_send_signal, -10001, 0, 0, 0) == 0;
	want[LPFD_FEAT_INFO_SUPPORTED] = sup != 0;
	want[LPFD_FEAT_INFO_CODE] = (sup & PIDFD_INFO_COREDUMP_CODE) != 0;
	want[LPFD_FEAT_OPENAT2] = openat2_stays_on_mount();
	want[LPFD_FEAT_CLOSE_RANGE] = sys(SYS_close_range, ~0U, ~0U, 0, 0) == 0;
	info_bits_from_the_mask(want, sup);
	/*
	 * Under a kernel personality (a seccomp filter playing an older
	 * kernel, TEST_PERSONALITY) a reaped child still shows this kernel's
	 * exit status: there the library's inference from the sentinels is
	 * what can be checked.
	 */
	if (getenv("TEST_PERSONALITY"))
		want[LPFD_FEAT_INFO_EXIT] = have_info &&
					    want[LPFD_FEAT_SELF_SENTINELS];

	ASSERT_EQ(libpidfd_features(&f, sizeof(f)), 0);
	for (int i = 0; i < LPFD_FEAT_COUNT; i++) {
		int got = (f.kernel >> i) & 1;

		if (want[i] < 0)
			FAIL("%s: a new feature needs its direct check here",
			     name[i]);
		if (got != want[i])
			FAIL("%s: the library says %d, the kernel %d", name[i],
			     got, want[i]);
	}
}

/* The public table in this mode: the paths of get_info and open, the switch. */
TEST(features_match_mode)
{
	struct libpidfd_features f;

	ASSERT_EQ(libpidfd_features(&f, sizeof(f)), 0);
	if (util_native(LPFD_FEAT_GET_INFO))
		ASSERT_EQ(f.get_info, LIBPIDFD_NATIVE);
	else
		ASSERT_EQ(f.get_info, LIBPIDFD_EMULATED);
	ASSERT_EQ(f.open, LIBPIDFD_NATIVE);
	ASSERT_EQ(f.emulate_forced, strcmp(harness_mode(), "emulated") == 0);
}

/* The names the tool prints come from the same list as the bits. */
TEST(every_feature_has_a_name_and_a_release)
{
	static const char *const names[] = {
#define NAME(NAME, name, since, emulable, what) what,
		LPFD_FEATURES(NAME)
#undef NAME
	};
	static const char *const since[] = {
#define SINCE(NAME, name, since, emulable, what) since,
		LPFD_FEATURES(SINCE)
#undef SINCE
	};

	ASSERT_EQ(sizeof(names) / sizeof(names[0]), LPFD_FEAT_COUNT);
	for (int i = 0; i < LPFD_FEAT_COUNT; i++) {
		int major, minor;

		ASSERT_TRUE(names[i][0] != '\0');
		ASSERT_EQ(sscanf(since[i], "%d.%d", &major, &minor), 2);
		ASSERT_TRUE(major >= 5 && major <= 7);
	}
}

/* A probe that cannot run gives up: the answer is "absent" from then on. */
TEST(a_probe_that_cannot_run_gives_up_after_three_calls)
{
	struct pidfd_info info = { .mask = 0 };
	struct rlimit saved;
	int fd, r;

	util_set_path(0); /* the native path asks the probe, in every mode */
	fd = self_pidfd();
	/* No descriptor left: pidfd_open (the GET_INFO probe) cannot run. */
	ASSERT_EQ(getrlimit(RLIMIT_NOFILE, &saved), 0);
	{
		struct rlimit rl = saved;
		int lowest = dup(0);

		ASSERT_GE(lowest, 0);
		close(lowest);
		rl.rlim_cur = (rlim_t)lowest;
		ASSERT_EQ(setrlimit(RLIMIT_NOFILE, &rl), 0);
	}
	for (int i = 0; i < LPFD_PROBE_TRIES; i++) {
		errno = 0;
		r = libpidfd_get_info(fd, &info, sizeof(info));
		/* The probe's EMFILE, or the emulation's own. */
		ASSERT_TRUE(r == -1 && errno == EMFILE);
	}
	ASSERT_EQ(lpfd_kernel_has(LPFD_FEAT_GET_INFO), 0);
	/* LeakSanitizer's check at exit needs descriptors of its own. */
	ASSERT_EQ(setrlimit(RLIMIT_NOFILE, &saved), 0);
	ASSERT_EQ(lpfd_kernel_has(LPFD_FEAT_GET_INFO), 0);
}

/* One reset returns every cache and flag to its state at load. */
TEST(the_state_reset_forgets_every_cache)
{
	struct libpidfd_features before, after;
	struct pidfd_info info = { .mask = PIDFD_INFO_CGROUPID };

	ASSERT_EQ(libpidfd_features(&before, sizeof(before)), 0);
	util_set_path(1);
	ASSERT_EQ(libpidfd_get_info(PIDFD_SELF, &info, sizeof(info)), 0);
	lpfd_state_reset();
	/* The environment's LIBPIDFD_EMULATE again, whatever was forced. */
	ASSERT_EQ(lpfd_emulate_forced(), strcmp(harness_mode(), "emulated") == 0);
	ASSERT_EQ(libpidfd_features(&after, sizeof(after)), 0);
	ASSERT_EQ(memcmp(&before, &after, sizeof(before)), 0);
	ASSERT_EQ(libpidfd_get_info(PIDFD_SELF, &info, sizeof(info)), 0);
}
