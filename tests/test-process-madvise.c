/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libpidfd_process_madvise on oneself (the PIDFD_SELF* sentinels): any
 * advice, the destructive kinds included, with the kernel's partial
 * progress and errors, on both paths.
 */
#include <sys/mman.h>
#include <sys/uio.h>
#include <sys/wait.h>

#include "internal.h"
#include "util.h"

#ifndef MADV_COLD
#define MADV_COLD 20
#endif
#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT 21
#endif

static long page;

static void check_advice(void *arg)
{
	int value = *(int *)arg;
	char *m = util_pages(4);
	struct iovec iov[2] = { { m, page }, { m + 2 * page, 2 * page } };

	/* Hints: the data stays. */
	ASSERT_EQ(libpidfd_process_madvise(value, iov, 2, MADV_COLD, 0), 3 * page);
	ASSERT_EQ(libpidfd_process_madvise(value, iov, 2, MADV_PAGEOUT, 0),
		  3 * page);
	ASSERT_EQ(libpidfd_process_madvise(value, iov, 2, MADV_WILLNEED, 0),
		  3 * page);
	ASSERT_EQ(m[0], 1);
	ASSERT_EQ(m[3 * page], 4);
	/* Destructive advice on oneself: the pages read back as zeros. */
	ASSERT_EQ(libpidfd_process_madvise(value, iov, 2, MADV_DONTNEED, 0),
		  3 * page);
	ASSERT_EQ(m[0], 0);
	ASSERT_EQ(m[page], 2); /* not in the vector */
	ASSERT_EQ(m[2 * page], 0);
	ASSERT_EQ(m[4 * page - 1], 0);
	munmap(m, 4 * page);
}

static void check_advice_every_value(void *arg)
{
	(void)arg;
	for (size_t i = 0; i < UTIL_COUNT(util_self_values); i++)
		check_advice((void *)&util_self_values[i]);
}

TEST(madvise_self_any_advice)
{
	page = sysconf(_SC_PAGESIZE);
	util_both_paths(check_advice_every_value, NULL);
}

/* MADV_WIPEONFORK on oneself: a child sees zeros, we keep the data. */
static void check_wipeonfork(void *arg)
{
	char *m = util_pages(1);
	struct iovec iov = { m, page };
	int status;
	pid_t pid;

	(void)arg;
	ASSERT_EQ(libpidfd_process_madvise(PIDFD_SELF, &iov, 1, MADV_WIPEONFORK,
					   0), page);
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0)
		_exit(m[0] == 0 ? 0 : 1);
	ASSERT_EQ(waitpid(pid, &status, 0), pid);
	ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	ASSERT_EQ(m[0], 1);
	munmap(m, page);
}

TEST(madvise_self_wipeonfork)
{
	page = sysconf(_SC_PAGESIZE);
	util_both_paths(check_wipeonfork, NULL);
}

/*
 * What the kernel answers for iov on a pidfd of ourselves, and the first
 * byte of m after it: the emulation must agree, partial progress included.
 */
static long kernel_madvise(char *m, const struct iovec *iov, size_t n,
			   int advice, int *err, char *first)
{
	int self = libpidfd_open(getpid(), 0);
	long r;

	ASSERT_GE(self, 0);
	m[0] = 5;
	errno = 0;
	r = syscall(__NR_process_madvise, self, iov, n, advice, 0);
	*err = r < 0 ? errno : 0;
	*first = m[0];
	close(self);
	m[0] = 5;
	return r;
}

/*
 * A range past the user address space is EFAULT (import_iovec()'s
 * access_ok()) before anything is advised, also after a good one: the
 * emulation, which judges the rest itself, asks the kernel for these.
 * A 32-bit program on a 64-bit kernel has no such address (access_ok()
 * takes the 64-bit bound): there the second range is just unmapped, and
 * the kernel's partial progress is the answer, as the raw call shows.
 */
static void check_beyond_user_space(char *m)
{
	struct iovec iov[2] = { { m, page }, { (void *)-page, page } };
	int want_err = EFAULT, want_err1 = EFAULT;
	char want_first = 5, want_first1;
	long want = -1, want1 = -1;

	/* The raw call only where it can differ: older kernels (and their
	 * personalities) refuse MADV_DONTNEED through a pidfd altogether. */
	if (sizeof(void *) < 8) {
		want = kernel_madvise(m, iov, 2, MADV_DONTNEED, &want_err,
				      &want_first);
		want1 = kernel_madvise(m, iov + 1, 1, MADV_COLD, &want_err1,
				       &want_first1);
	}
	m[0] = 5;
	errno = 0;
	ASSERT_EQ(libpidfd_process_madvise(PIDFD_SELF, iov, 2, MADV_DONTNEED, 0),
		  want);
	ASSERT_EQ(errno, want_err);
	ASSERT_EQ(m[0], want_first);
	errno = 0;
	ASSERT_EQ(libpidfd_process_madvise(PIDFD_SELF, iov + 1, 1, MADV_COLD, 0),
		  want1);
	ASSERT_EQ(errno, want_err1);
}

/* What the library answers for no iovec with unknown advice: -1 is EINVAL. */
/* Partial progress and errors, as vector_madvise() counts them. */
static void check_madvise_errors(void *arg)
{
	char *m = util_pages(3);
	struct iovec iov[3];
	int self, nosys = util_kernel_has(LPFD_FEAT_PROCESS_MADVISE) ? 0 : ENOSYS;

	(void)arg;
	ASSERT_EQ(munmap(m + 2 * page, page), 0); /* a hole after two pages */
	iov[0] = (struct iovec){ m, page };
	iov[1] = (struct iovec){ m + 2 * page, page };
	iov[2] = (struct iovec){ m + page, page };
	/* The second fails: the first counts, the third is never reached. */
	m[page] = 5;
	ASSERT_EQ(libpidfd_process_madvise(PIDFD_SELF, iov, 3, MADV_DONTNEED, 0),
		  page);
	ASSERT_EQ(m[page], 5);
	/* Failing first: its error. */
	ASSERT_ERRNO(libpidfd_process_madvise(PIDFD_SELF, iov + 1, 2,
					      MADV_DONTNEED, 0), ENOMEM);
	/* Unknown advice, unaligned start, flags, too many or bad iovecs. */
	ASSERT_ERRNO(libpidfd_process_madvise(PIDFD_SELF, iov, 1, 12345, 0),
		     EINVAL);
	iov[0].iov_base = m + 1;
	ASSERT_ERRNO(libpidfd_process_madvise(PIDFD_SELF, iov, 1, MADV_COLD, 0),
		     EINVAL);
	iov[0].iov_base = m;
	ASSERT_ERRNO(libpidfd_process_madvise(PIDFD_SELF, iov, 1, MADV_COLD, 1),
		     EINVAL);
	ASSERT_ERRNO(libpidfd_process_madvise(PIDFD_SELF, iov, 1025, MADV_COLD,
					      0), EINVAL);
	ASSERT_ERRNO(libpidfd_process_madvise(PIDFD_SELF, (struct iovec *)8, 1,
					      MADV_COLD, 0), EFAULT);
	iov[0].iov_len = (size_t)-1;
	ASSERT_ERRNO(libpidfd_process_madvise(PIDFD_SELF, iov, 1, MADV_COLD, 0),
		     EINVAL);
	if (util_kernel_has(LPFD_FEAT_PROCESS_MADVISE))
		check_beyond_user_space(m);
	/*
	 * Nothing to do is 0 for good advice; unknown advice is EINVAL, as
	 * Linux 7.2 has it, on every path and through a pidfd on oneself
	 * too (6.13 to 7.1 said 0 there). Empty iovecs are skipped.
	 */
	ASSERT_EQ(libpidfd_process_madvise(PIDFD_SELF, NULL, 0, MADV_COLD, 0), 0);
	iov[0] = (struct iovec){ m, 0 };
	for (size_t i = 0; i < UTIL_COUNT(util_self_values); i++) {
		ASSERT_ERRNO(libpidfd_process_madvise(util_self_values[i], NULL,
						      0, 12345, 0), EINVAL);
		ASSERT_ERRNO(libpidfd_process_madvise(util_self_values[i], iov,
						      1, 12345, 0), EINVAL);
	}
	self = libpidfd_open(getpid(), 0);
	ASSERT_GE(self, 0);
	if (util_kernel_has(LPFD_FEAT_PROCESS_MADVISE)) {
		ASSERT_ERRNO(libpidfd_process_madvise(self, iov, 1, 12345, 0),
			     EINVAL);
		ASSERT_EQ(libpidfd_process_madvise(self, iov, 1, MADV_COLD, 0),
			  0);
	} else { /* before 5.10 only the sentinels have it, the library's */
		ASSERT_ERRNO(libpidfd_process_madvise(self, iov, 1, 12345, 0),
			     ENOSYS);
	}
	close(self);
	iov[0] = (struct iovec){ m, 0 };
	iov[1] = (struct iovec){ m + 1, 0 };
	iov[2] = (struct iovec){ m, page };
	ASSERT_EQ(libpidfd_process_madvise(PIDFD_SELF, iov, 3, MADV_COLD, 0),
		  page);
	iov[0] = (struct iovec){ m + 1, 0 }; /* the first is looked at */
	ASSERT_ERRNO(libpidfd_process_madvise(PIDFD_SELF, iov, 3, MADV_COLD, 0),
		     EINVAL);
	/* Flags before the fd, the iovecs before the fd (no call before 5.10). */
	ASSERT_ERRNO(libpidfd_process_madvise(-10002, NULL, 0, MADV_COLD, 1),
		     nosys ?: EINVAL);
	ASSERT_ERRNO(libpidfd_process_madvise(-10002, (struct iovec *)8, 1,
					      MADV_COLD, 0), nosys ?: EFAULT);
	munmap(m, 2 * page);
}

TEST(madvise_self_errors_match_kernel)
{
	page = sysconf(_SC_PAGESIZE);
	util_both_paths(check_madvise_errors, NULL);
}
