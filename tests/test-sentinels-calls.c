/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The sentinels in process_madvise, process_mrelease, waitid, get_info and
 * getpid; values that name nothing in every call; setns, which the library
 * does not wrap.
 */
#include <sched.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>

#include "sentinels.h"
#include "util.h"

#ifndef MADV_COLD
#define MADV_COLD 20
#endif
#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT 21
#endif

static long page;

/* n private anonymous pages, each filled with its index + 1. */
static char *pages(int n)
{
	char *m = mmap(NULL, (size_t)n * page, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	ASSERT_TRUE(m != MAP_FAILED);
	for (int i = 0; i < n; i++)
		memset(m + i * page, i + 1, page);
	return m;
}

static void check_advice(void *arg)
{
	int value = *(int *)arg;
	char *m = pages(4);
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
	for (size_t i = 0; i < sizeof(self_values) / sizeof(self_values[0]); i++)
		check_advice((void *)&self_values[i]);
}

TEST(madvise_self_any_advice)
{
	page = sysconf(_SC_PAGESIZE);
	sentinels_both_paths(check_advice_every_value, NULL);
}

/* MADV_WIPEONFORK on oneself: a child sees zeros, we keep the data. */
static void check_wipeonfork(void *arg)
{
	char *m = pages(1);
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
	sentinels_both_paths(check_wipeonfork, NULL);
}

/* What the library answers for no iovec with unknown advice: -1 is EINVAL. */
static long nothing_to_do_unknown_advice(void)
{
	int fd;
	long r;

	if (!lpfd_native(LPFD_FEAT_SELF_SENTINELS))
		return -1;
	fd = libpidfd_open(getpid(), 0);
	ASSERT_GE(fd, 0);
	r = syscall(SYS_process_madvise, fd, NULL, 0, 12345, 0);
	ASSERT_TRUE(r == 0 || errno == EINVAL);
	close(fd);
	return r;
}

/* Partial progress and errors, as vector_madvise() counts them. */
static void check_madvise_errors(void *arg)
{
	char *m = pages(3);
	struct iovec iov[3];

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
	/*
	 * Nothing to do is 0 for good advice; unknown advice is EINVAL in
	 * the emulation, as Linux 7.2 has it, and the kernel's own answer
	 * where it takes the sentinel (6.15 to 6.18 say 0). Empty iovecs
	 * are skipped.
	 */
	ASSERT_EQ(libpidfd_process_madvise(PIDFD_SELF, NULL, 0, MADV_COLD, 0), 0);
	errno = 0;
	ASSERT_EQ(libpidfd_process_madvise(PIDFD_SELF, NULL, 0, 12345, 0),
		  nothing_to_do_unknown_advice());
	iov[0] = (struct iovec){ m, 0 };
	iov[1] = (struct iovec){ m + 1, 0 };
	iov[2] = (struct iovec){ m, page };
	ASSERT_EQ(libpidfd_process_madvise(PIDFD_SELF, iov, 3, MADV_COLD, 0),
		  page);
	iov[0] = (struct iovec){ m + 1, 0 }; /* the first is looked at */
	ASSERT_ERRNO(libpidfd_process_madvise(PIDFD_SELF, iov, 3, MADV_COLD, 0),
		     EINVAL);
	/* Flags before the fd, the iovecs before the fd. */
	ASSERT_ERRNO(libpidfd_process_madvise(-10002, NULL, 0, MADV_COLD, 1),
		     EINVAL);
	ASSERT_ERRNO(libpidfd_process_madvise(-10002, (struct iovec *)8, 1,
					      MADV_COLD, 0), EFAULT);
	munmap(m, 2 * page);
}

TEST(madvise_self_errors_match_kernel)
{
	page = sysconf(_SC_PAGESIZE);
	sentinels_both_paths(check_madvise_errors, NULL);
}

static void check_mrelease(void *arg)
{
	(void)arg;
	for (size_t i = 0; i < sizeof(self_values) / sizeof(self_values[0]); i++) {
		ASSERT_ERRNO(libpidfd_process_mrelease(self_values[i], 0), EINVAL);
		ASSERT_ERRNO(libpidfd_process_mrelease(self_values[i], 1), EINVAL);
	}
	/* Not a sentinel: the kernel's answer, ENOSYS before 5.15. */
	ASSERT_ERRNO(libpidfd_process_mrelease(-10002, 1),
		     util_kernel_has(LPFD_FEAT_PROCESS_MRELEASE) ? EINVAL : ENOSYS);
}

TEST(mrelease_self_is_einval)
{
	sentinels_both_paths(check_mrelease, NULL);
}

/* waitid on oneself: ECHILD at once, even with a live child about. */
TEST(waitid_self_is_echild_at_once)
{
	int cfd;
	pid_t child = util_spawn(NULL, NULL, &cfd);
	siginfo_t si;

	/* A wait that blocked would never end: the harness's timeout. */
	for (size_t i = 0; i < sizeof(self_values) / sizeof(self_values[0]); i++) {
		memset(&si, 0x5a, sizeof(si));
		ASSERT_ERRNO(libpidfd_waitid(self_values[i], &si, WEXITED, NULL),
			     ECHILD);
		ASSERT_EQ(si.si_pid, 0); /* cleared, as waitid(2) does */
		ASSERT_EQ(si.si_signo, 0);
		ASSERT_ERRNO(libpidfd_waitid(self_values[i], NULL,
					     WEXITED | WSTOPPED | __WALL, NULL),
			     ECHILD);
		ASSERT_ERRNO(libpidfd_waitid(self_values[i], NULL, 0, NULL),
			     EINVAL);
		ASSERT_ERRNO(libpidfd_waitid(self_values[i], (siginfo_t *)8,
					     WEXITED, NULL), EFAULT);
	}
	/* The child is still there to be waited for through its pidfd. */
	ASSERT_EQ(kill(child, SIGKILL), 0);
	ASSERT_EQ(libpidfd_waitid(cfd, &si, WEXITED, NULL), 0);
	ASSERT_EQ(si.si_pid, child);
	close(cfd);
}

/* Negative values that name nothing: waitid's own answer is EINVAL. */
TEST(waitid_bad_values_are_kernels_einval)
{
	for (size_t i = 0; i < sizeof(bad_values) / sizeof(bad_values[0]); i++)
		ASSERT_ERRNO(libpidfd_waitid(bad_values[i], NULL, WEXITED, NULL),
			     EINVAL);
}

static void *check_info_thread(void *arg)
{
	struct pidfd_info info;

	(void)arg;
	for (size_t i = 0; i < sizeof(self_values) / sizeof(self_values[0]); i++) {
		memset(&info, 0, sizeof(info));
		ASSERT_EQ(libpidfd_get_info(self_values[i], &info, sizeof(info)), 0);
		ASSERT_EQ(info.pid, is_group_value(self_values[i]) ? getpid() :
								     gettid());
		ASSERT_EQ(info.tgid, getpid());
		ASSERT_EQ(info.ppid, getppid());
		ASSERT_EQ(libpidfd_getpid(self_values[i]),
			  is_group_value(self_values[i]) ? getpid() : gettid());
	}
	return NULL;
}

static void check_info(void *arg)
{
	(void)arg;
	check_info_thread(NULL);
	sentinels_in_thread(check_info_thread, NULL);
}

TEST(get_info_and_getpid_on_every_sentinel)
{
	sentinels_both_paths(check_info, NULL);
}

/* Every call answers EBADF to a negative value that names nothing. */
static void check_bad_values(void *arg)
{
	struct pidfd_info info = { .mask = 0 };
	char *m = pages(1);
	struct iovec iov = { m, page };

	(void)arg;
	for (size_t i = 0; i < sizeof(bad_values) / sizeof(bad_values[0]); i++) {
		int v = bad_values[i];

		ASSERT_ERRNO(libpidfd_get_info(v, &info, sizeof(info)), EBADF);
		ASSERT_ERRNO(libpidfd_getpid(v), EBADF);
		ASSERT_ERRNO(libpidfd_send_signal(v, 0, NULL, 0), EBADF);
		ASSERT_ERRNO(libpidfd_getfd(v, 0, 0), EBADF);
		ASSERT_ERRNO(libpidfd_process_madvise(v, &iov, 1, MADV_COLD, 0),
			     EBADF);
		ASSERT_ERRNO(libpidfd_process_mrelease(v, 0),
			     util_kernel_has(LPFD_FEAT_PROCESS_MRELEASE) ?
			     EBADF : ENOSYS);
		ASSERT_ERRNO(libpidfd_get_namespace(v, PIDFD_GET_UTS_NAMESPACE),
			     EBADF);
	}
	munmap(m, page);
}

TEST(bad_negative_values_are_ebadf_everywhere)
{
	page = sysconf(_SC_PAGESIZE);
	sentinels_both_paths(check_bad_values, NULL);
}

/* setns() is not wrapped; the kernel takes no sentinel there. */
TEST(setns_on_sentinels_is_ebadf)
{
	for (size_t i = 0; i < sizeof(self_values) / sizeof(self_values[0]); i++) {
		ASSERT_ERRNO(setns(self_values[i], 0), EBADF);
		ASSERT_ERRNO(syscall(SYS_setns, self_values[i], 0), EBADF);
	}
}
