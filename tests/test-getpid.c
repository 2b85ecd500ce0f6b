/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* libpidfd_getpid: both paths, every answer the contract lists. */
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>

#include "harness.h"
#include "internal.h"
#include "util.h"

static void check_child(void *arg)
{
	int *fd_and_pid = arg;

	ASSERT_EQ(libpidfd_getpid(fd_and_pid[0]), fd_and_pid[1]);
}

TEST(live_child_and_zombie)
{
	int a[2];

	a[1] = util_spawn(NULL, NULL, &a[0]);
	util_both_paths(check_child, a);
	util_kill_reap(a[0]);
	a[1] = util_zombie(0, &a[0]);
	util_both_paths(check_child, a); /* a zombie still has its pid */
	util_kill_reap(a[0]);
}

static void check_reaped(void *arg)
{
	ASSERT_ERRNO(libpidfd_getpid(*(int *)arg), ESRCH);
}

TEST(reaped_child_is_esrch)
{
	siginfo_t si;
	int fd;

	util_zombie(0, &fd);
	ASSERT_EQ(waitid(P_PIDFD, (id_t)fd, &si, WEXITED), 0);
	util_both_paths(check_reaped, &fd);
	close(fd);
}

static void check_sentinels(void *arg)
{
	(void)arg;
	ASSERT_EQ(libpidfd_getpid(PIDFD_SELF_THREAD), gettid());
	ASSERT_EQ(libpidfd_getpid(PIDFD_SELF_THREAD_GROUP), getpid());
	ASSERT_EQ(libpidfd_getpid(LIBPIDFD_SELF_THREAD_GROUP_OLD), getpid());
	ASSERT_ERRNO(libpidfd_getpid(-10002), EBADF);
	ASSERT_ERRNO(libpidfd_getpid(-20001), EBADF);
	ASSERT_ERRNO(libpidfd_getpid(-1), EBADF);
	ASSERT_ERRNO(libpidfd_getpid(INT32_MIN), EBADF);
}

TEST(sentinels)
{
	util_both_paths(check_sentinels, NULL);
}

static void check_not_pidfds(void *arg)
{
	int *fds = arg;

	ASSERT_ERRNO(libpidfd_getpid(fds[0]), EBADF); /* a pipe */
	ASSERT_ERRNO(libpidfd_getpid(fds[1]), EBADF); /* a regular file */
	ASSERT_ERRNO(libpidfd_getpid(fds[2]), EBADF); /* closed */
}

TEST(fds_that_are_not_pidfds)
{
	int p[2], fds[3];

	ASSERT_EQ(pipe2(p, O_CLOEXEC), 0);
	fds[0] = p[0];
	fds[1] = open("/proc/self/status", O_RDONLY | O_CLOEXEC);
	ASSERT_GE(fds[1], 0);
	fds[2] = p[1];
	close(p[1]);
	util_both_paths(check_not_pidfds, fds);
}

static void check_errno_kept(void *arg)
{
	int fd = *(int *)arg;

	errno = 4242;
	ASSERT_EQ(libpidfd_getpid(fd), getpid());
	ASSERT_EQ(errno, 4242);
}

TEST(success_leaves_errno_alone)
{
	int fd = libpidfd_open(getpid(), 0);

	ASSERT_GE(fd, 0);
	util_both_paths(check_errno_kept, &fd);
	close(fd);
}
