/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Bad buffers get the kernel's EFAULT, never a crash: an unmapped pointer,
 * a read-only struct where the call writes, a struct that crosses into an
 * unmapped page. The library takes valid pointers, as glibc's wrappers
 * do; get_info's EFAULT is libpidfd-compat.so's, which stands in for the
 * kernel, and the other functions still give it on both paths. NULL keeps the kernel's meaning (EINVAL for get_info's struct,
 * "none" for send_signal's siginfo and waitid's infop and rusage), and a
 * size above what an ioctl can carry (16383) is E2BIG, never a write past
 * the caller's buffer.
 */
#include <signal.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <sys/wait.h>

#include "harness.h"
#include "internal.h"
#include "util.h"

#define PAGE 4096

/*
 * Three pages: read-write, read-only, and one that can be neither read
 * nor written (PROT_NONE: the kernel's EFAULT, as for a hole). A hole
 * made by munmap() is no such place: the next mapping may fill it, as the
 * shim's dlopen() under ASan did.
 */
static char *pages(void)
{
	char *p = mmap(NULL, 3 * PAGE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	ASSERT_TRUE(p != MAP_FAILED);
	ASSERT_EQ(mprotect(p + PAGE, PAGE, PROT_READ), 0);
	ASSERT_EQ(mprotect(p + 2 * PAGE, PAGE, PROT_NONE), 0);
	return p;
}

struct bad {
	const char *what;
	void *ptr;
};

/* The bad places for a struct of size bytes, from pages(). */
static int bad_places(char *p, size_t size, struct bad out[4])
{
	out[0] = (struct bad){ "(void *)1", (void *)1 };
	out[1] = (struct bad){ "inaccessible", p + 2 * PAGE };
	out[2] = (struct bad){ "read-only", p + PAGE };
	out[3] = (struct bad){ "crossing into it", p + 2 * PAGE - size / 2 };
	return 4;
}

/*
 * Through libpidfd-compat.so, which stands in for the kernel: its path is
 * the test's mode (native, or LIBPIDFD_EMULATE=1).
 */
static void info_efault_on(int fd, const char *target, char *p)
{
	struct bad bad[4];
	int n = bad_places(p, sizeof(struct pidfd_info), bad);

	for (int i = 0; i < n; i++) {
		/* The read-only page still holds a readable mask. */
		errno = 0;
		if (util_shim_get_info(fd, bad[i].ptr, sizeof(struct pidfd_info)) != -1 ||
		    errno != EFAULT)
			FAIL("shim get_info(%s, %s): errno %s", target,
			     bad[i].what, lpfd_errno_name(errno) ?: "0");
	}
}

static void both_paths(void (*fn)(bool emulate))
{
	fn(false);
	fn(true);
}

TEST(shim_get_info_bad_struct_is_efault)
{
	char *p = pages();
	int fd, self = libpidfd_open(getpid(), 0);

	ASSERT_GE(self, 0);
	util_spawn(NULL, NULL, &fd);
	info_efault_on(fd, "child", p);
	info_efault_on(self, "own process", p);
	close(self);
	util_kill_reap(fd);
}

/*
 * The kernel judges the fd, then reads the request before the work and
 * writes the answer after it: a closed fd is EBADF and a file that is no
 * pidfd the real ioctl's answer whatever the struct; a reaped process is
 * ESRCH in a struct that can be read but not written, and EFAULT in one
 * that cannot be read.
 */
TEST(shim_get_info_reads_before_and_writes_after_the_work)
{
	char *p = pages();
	int fd, null = open("/dev/null", O_RDONLY | O_CLOEXEC);

	util_spawn(NULL, NULL, &fd);
	util_kill_reap_keep_fd(fd);
	ASSERT_ERRNO(util_shim_get_info(fd, (void *)(p + PAGE),
					sizeof(struct pidfd_info)), ESRCH);
	ASSERT_ERRNO(util_shim_get_info(fd, (void *)(p + 2 * PAGE),
					sizeof(struct pidfd_info)), EFAULT);
	/* Readable mask, the rest in the read-only page: still the work's. */
	ASSERT_ERRNO(util_shim_get_info(fd, (void *)(p + PAGE - 8),
					sizeof(struct pidfd_info)), ESRCH);
	ASSERT_ERRNO(util_shim_get_info(987654, (void *)(p + 2 * PAGE),
					sizeof(struct pidfd_info)), EBADF);
	ASSERT_ERRNO(util_shim_get_info(null, (void *)(p + 2 * PAGE),
					sizeof(struct pidfd_info)), ENOTTY);
	close(null);
	close(fd);
	munmap(p, 3 * PAGE);
}

static void null_and_sizes(bool emulate)
{
	static unsigned char big[16384 + 64];
	int fd;

	util_spawn(NULL, NULL, &fd);
	util_set_path(emulate);
	ASSERT_ERRNO(libpidfd_get_info(fd, NULL, sizeof(struct pidfd_info)), EINVAL);
	ASSERT_ERRNO(libpidfd_get_info(fd, (void *)big, SIZE_MAX), E2BIG);
	ASSERT_ERRNO(libpidfd_get_info(fd, (void *)big, 16384), E2BIG);
	ASSERT_ERRNO(libpidfd_get_info(PIDFD_SELF, (void *)big, SIZE_MAX), E2BIG);
	/* The largest size an ioctl carries: the tail zeroed, nothing past it. */
	memset(big, 0xa5, sizeof(big));
	((struct pidfd_info *)(void *)big)->mask = 0;
	ASSERT_EQ(libpidfd_get_info(fd, (void *)big, 16383), 0);
	for (size_t i = sizeof(struct pidfd_info); i < 16383; i++)
		if (big[i] != 0)
			FAIL("byte %zu of the tail is %#x", i, big[i]);
	for (size_t i = 16383; i < sizeof(big); i++)
		ASSERT_EQ(big[i], 0xa5);
	/* A closed fd is judged before the struct, as by the kernel. */
	ASSERT_ERRNO(libpidfd_get_info(900, NULL, 0), EBADF);
	ASSERT_ERRNO(libpidfd_get_info(900, (void *)1, SIZE_MAX), EBADF);
	util_kill_reap(fd);
}

TEST(get_info_null_is_einval_and_huge_is_e2big)
{
	both_paths(null_and_sizes);
}

static void features_efault(bool emulate)
{
	char *p = pages();
	struct bad bad[4];
	int n = bad_places(p, sizeof(struct libpidfd_features), bad);

	util_set_path(emulate);
	for (int i = 0; i < n; i++)
		ASSERT_ERRNO(libpidfd_features(bad[i].ptr,
					       sizeof(struct libpidfd_features)),
			     EFAULT);
	ASSERT_ERRNO(libpidfd_features(NULL, 64), EFAULT);
}

TEST(features_bad_struct_is_efault)
{
	both_paths(features_efault);
}

static void signal_efault(bool emulate)
{
	char *p = pages();
	sigset_t usr1;

	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	ASSERT_EQ(sigprocmask(SIG_BLOCK, &usr1, NULL), 0);
	util_set_path(emulate);
	ASSERT_ERRNO(libpidfd_send_signal(PIDFD_SELF, SIGUSR1, (siginfo_t *)1, 0),
		     EFAULT);
	ASSERT_ERRNO(libpidfd_send_signal(PIDFD_SELF_PROCESS, SIGUSR1,
					  (siginfo_t *)(p + 2 * PAGE), 0),
		     EFAULT);
	/* NULL is no siginfo at all. */
	ASSERT_EQ(libpidfd_send_signal(PIDFD_SELF, SIGUSR1, NULL, 0), 0);
}

TEST(send_signal_bad_siginfo_is_efault)
{
	both_paths(signal_efault);
}

static void waitid_efault(bool emulate)
{
	char *p = pages();
	siginfo_t si;
	int fd;

	util_set_path(emulate);
	ASSERT_ERRNO(libpidfd_waitid(PIDFD_SELF, (siginfo_t *)(p + PAGE),
				     WEXITED, NULL), EFAULT);
	util_zombie(5, &fd);
	ASSERT_ERRNO(libpidfd_waitid(fd, (siginfo_t *)(p + PAGE), WEXITED | WNOWAIT,
				     NULL), EFAULT);
	ASSERT_ERRNO(libpidfd_waitid(fd, &si, WEXITED | WNOWAIT,
				     (struct rusage *)(p + 2 * PAGE)), EFAULT);
	/* NULL infop and rusage: none wanted. */
	ASSERT_EQ(libpidfd_waitid(fd, NULL, WEXITED, NULL), 0);
}

TEST(waitid_bad_infop_is_efault)
{
	both_paths(waitid_efault);
}

static void madvise_efault(bool emulate)
{
	char *p = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct iovec *half = (struct iovec *)(void *)(p + PAGE - sizeof(struct iovec));

	ASSERT_TRUE(p != MAP_FAILED);
	ASSERT_EQ(munmap(p + PAGE, PAGE), 0);

	half->iov_base = p;
	half->iov_len = PAGE;
	util_set_path(emulate);
	ASSERT_ERRNO(libpidfd_process_madvise(PIDFD_SELF, (struct iovec *)1, 1,
					      MADV_WILLNEED, 0), EFAULT);
	ASSERT_ERRNO(libpidfd_process_madvise(PIDFD_SELF_PROCESS, half, 2,
					      MADV_WILLNEED, 0), EFAULT);
	ASSERT_EQ(libpidfd_process_madvise(PIDFD_SELF, half, 1, MADV_WILLNEED, 0),
		  PAGE);
}

TEST(process_madvise_bad_iovec_is_efault)
{
	both_paths(madvise_efault);
}
