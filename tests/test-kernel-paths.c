/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Which path each call takes follows what the kernel has (the probe
 * table), on every kernel make check runs: the host, the user-mode-linux
 * guests and the personalities. Each mix shows here: 6.1 emulates all,
 * 6.12 has the namespace ioctls and PIDFD_THREAD beside an emulated
 * PIDFD_GET_INFO, 7.2 has everything, in the 88-byte layout.
 *
 * The proof of a path is /proc: with an empty tmpfs in its place the
 * emulation cannot answer (ENOSYS), the kernel's own path still does.
 */
#include <fcntl.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include <libpidfd.h>

#include "harness.h"
#include "internal.h"
#include "util.h"

static const struct {
	enum lpfd_feature feat;
	uint64_t bit;
} kernel_bits[] = {
#define KERNEL_BIT(NAME, name, since, emulable, what)                          \
	{ LPFD_FEAT_##NAME, LIBPIDFD_KERNEL_##NAME },
	LPFD_FEATURES(KERNEL_BIT)
#undef KERNEL_BIT
};

/* Each operation, its field, its feature and what it is without. */
static const struct {
	const char *name;
	size_t offset;
	enum lpfd_feature feat;
	unsigned without;
} operations[] = {
#define OPERATION(field, feat, without, how)                                   \
	{ #field, offsetof(struct libpidfd_features, field), LPFD_FEAT_##feat,  \
	  LIBPIDFD_##without },
	LPFD_OPERATIONS(OPERATION)
#undef OPERATION
};

/* What the probe table says an operation is: native, or what it is without. */
static unsigned want_support(enum lpfd_feature feat, unsigned without)
{
	return util_native(feat) ? LIBPIDFD_NATIVE : without;
}

/* Print the kernel's mix once, so that each run's log shows it. */
static void say_kernel(const struct libpidfd_features *f)
{
	printf("# kernel has:");
	for (size_t i = 0; i < lpfd_array_size(kernel_bits); i++)
		printf(" %d", util_kernel_has(kernel_bits[i].feat));
	printf(" (probe table order); emulation forced: %u\n",
	       f->emulate_forced);
}

TEST(features_follow_the_probe_table)
{
	struct libpidfd_features f;

	ASSERT_EQ(libpidfd_features(&f, sizeof(f)), 0);
	say_kernel(&f);
	for (size_t i = 0; i < lpfd_array_size(kernel_bits); i++)
		ASSERT_EQ(!!(f.kernel & kernel_bits[i].bit),
			  util_kernel_has(kernel_bits[i].feat));
	for (size_t i = 0; i < lpfd_array_size(operations); i++) {
		uint32_t got;

		memcpy(&got, (char *)&f + operations[i].offset, sizeof(got));
		if (got != want_support(operations[i].feat, operations[i].without))
			FAIL("%s: the library says %u, the probe table %u",
			     operations[i].name, got,
			     want_support(operations[i].feat,
					  operations[i].without));
	}
	ASSERT_EQ(!!(f.info_mask & PIDFD_INFO_EXIT),
		  util_native(LPFD_FEAT_INFO_EXIT));
}

/* In a mount namespace of our own, an empty tmpfs where /proc was. */
static void hide_proc(void)
{
	ASSERT_EQ(unshare(CLONE_NEWNS), 0);
	ASSERT_EQ(mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL), 0);
	ASSERT_EQ(mount("none", "/proc", "tmpfs", 0, NULL), 0);
}

TEST(without_proc_exactly_the_native_paths_answer)
{
	struct pidfd_info info = { .mask = PIDFD_INFO_CGROUPID };
	struct stat uts, got;
	int fd, tfd, ns;

	REQUIRE_PRIVILEGE("hides /proc in a mount namespace of its own");
	ASSERT_EQ(stat("/proc/self/ns/uts", &uts), 0);
	fd = libpidfd_open(getpid(), 0);
	ASSERT_GE(fd, 0);
	hide_proc();

	if (util_native(LPFD_FEAT_GET_INFO)) {
		ASSERT_EQ(libpidfd_get_info(fd, &info, sizeof(info)), 0);
		ASSERT_EQ(info.pid, getpid());
		ASSERT_EQ(libpidfd_getpid(fd), getpid());
	} else {
		ASSERT_ERRNO(libpidfd_get_info(fd, &info, sizeof(info)), ENOSYS);
		ASSERT_ERRNO(libpidfd_getpid(fd), ENOSYS);
	}

	ns = libpidfd_get_namespace(fd, PIDFD_GET_UTS_NAMESPACE);
	if (util_native(LPFD_FEAT_NS_IOCTLS)) {
		ASSERT_GE(ns, 0);
		ASSERT_EQ(fstat(ns, &got), 0);
		ASSERT_EQ(got.st_ino, uts.st_ino);
		close(ns);
	} else {
		ASSERT_EQ(ns, -1);
		ASSERT_EQ(errno, ENOSYS);
	}

	/* PIDFD_THREAD is the kernel's or nobody's. */
	tfd = libpidfd_open((pid_t)syscall(SYS_gettid), PIDFD_THREAD);
	if (util_kernel_has(LPFD_FEAT_PIDFD_THREAD)) {
		ASSERT_GE(tfd, 0);
		close(tfd);
	} else {
		ASSERT_EQ(tfd, -1);
		ASSERT_EQ(errno, EINVAL);
	}
	close(fd);
	/* /proc back, for LeakSanitizer's check at exit. */
	ASSERT_EQ(umount2("/proc", MNT_DETACH), 0);
}

/*
 * A kernel that writes the 88-byte layout (7.1 on) gives through the
 * library exactly what it gives through the ioctl, which is what the
 * layout translation's unit tests (tests/test-layout.c) expect of it. The
 * structs may be larger (a field newer than the kernel): both calls leave
 * those bytes zero.
 */
TEST(native_info_is_the_kernels_in_the_newest_layout)
{
	const uint64_t want = PIDFD_INFO_PID | PIDFD_INFO_CREDS |
		PIDFD_INFO_CGROUPID | PIDFD_INFO_EXIT | PIDFD_INFO_COREDUMP |
		PIDFD_INFO_SUPPORTED_MASK | PIDFD_INFO_COREDUMP_SIGNAL |
		PIDFD_INFO_COREDUMP_CODE;
	struct pidfd_info raw, lib;
	struct libpidfd_info again;
	int fd;

	if (!util_native(LPFD_FEAT_INFO_CODE)) {
		/* Elsewhere the library's own mask stands for the kernel's. */
		memset(&lib, 0, sizeof(lib));
		lib.mask = PIDFD_INFO_SUPPORTED_MASK;
		fd = libpidfd_open(getpid(), 0);
		ASSERT_GE(fd, 0);
		ASSERT_EQ(libpidfd_get_info(fd, &lib, sizeof(lib)), 0);
		ASSERT_TRUE(lib.mask & PIDFD_INFO_SUPPORTED_MASK);
		ASSERT_EQ(lib.supported_mask, lpfd_info_supported_mask());
		ASSERT_EQ(lib.supported_mask & PIDFD_INFO_COREDUMP_CODE, 0);
		close(fd);
		return;
	}
	ASSERT_GE(sizeof(raw), PIDFD_INFO_SIZE_VER3);
	fd = libpidfd_open(getpid(), 0);
	ASSERT_GE(fd, 0);
	memset(&raw, 0, sizeof(raw));
	raw.mask = PIDFD_INFO_SUPPORTED_MASK | PIDFD_INFO_COREDUMP;
	ASSERT_EQ(ioctl(fd, PIDFD_GET_INFO, &raw), 0);
	ASSERT_TRUE(raw.mask & PIDFD_INFO_SUPPORTED_MASK);
	ASSERT_EQ(raw.supported_mask, want);
	ASSERT_EQ(lpfd_info_supported_mask(), want);

	memset(&lib, 0, sizeof(lib));
	lib.mask = PIDFD_INFO_SUPPORTED_MASK | PIDFD_INFO_COREDUMP;
	ASSERT_EQ(libpidfd_get_info(fd, &lib, sizeof(lib)), 0);
	ASSERT_EQ(memcmp(&lib, &raw, sizeof(raw)), 0);

	/* The translation keeps the kernel's own bytes as they are. */
	memcpy(&again, &raw, sizeof(raw));
	lpfd_info_to_newest(&again, sizeof(again), PIDFD_INFO_SUPPORTED_MASK,
			      PIDFD_INFO_SIZE_VER3);
	ASSERT_EQ(memcmp(&again, &raw, sizeof(raw)), 0);
	close(fd);
}
