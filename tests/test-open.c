/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libpidfd_open: pidfd_open(2), which every supported kernel has, so there
 * is one path. A pidfd for oneself, a child, a zombie and a thread, with
 * each flag; the kernel's errors for flags, pids that name nothing and a
 * process that is gone. PIDFD_THREAD (6.9) is judged by the probe table.
 */
#include <fcntl.h>

#include "internal.h"
#include "util.h"

TEST(open_self_and_getpid)
{
	int fd = libpidfd_open(getpid(), 0);

	ASSERT_GE(fd, 0);
	ASSERT_EQ(libpidfd_getpid(fd), getpid());
	close(fd);
}

/* A pidfd of pid, opened with flags: close-on-exec, naming pid. */
static int expect_pidfd(pid_t pid, unsigned int flags, pid_t named)
{
	int fd = libpidfd_open(pid, flags);

	ASSERT_GE(fd, 0);
	ASSERT_EQ(fcntl(fd, F_GETFD), FD_CLOEXEC);
	ASSERT_EQ(!!(fcntl(fd, F_GETFL) & O_NONBLOCK),
		  !!(flags & PIDFD_NONBLOCK));
	ASSERT_EQ(libpidfd_getpid(fd), named);
	return fd;
}

TEST(open_live_child_and_zombie)
{
	int cfd;
	pid_t pid = util_spawn(NULL, NULL, &cfd);

	close(expect_pidfd(pid, 0, pid));
	util_kill_reap(cfd);
	pid = util_zombie(0, &cfd);
	close(expect_pidfd(pid, 0, pid)); /* not reaped: still there */
	util_kill_reap(cfd);
}

/* PIDFD_NONBLOCK: waiting on a live process is EAGAIN, not a hang. */
TEST(open_nonblock)
{
	int cfd, fd;
	pid_t pid = util_spawn(NULL, NULL, &cfd);
	siginfo_t si;

	if (!util_kernel_has_open_nonblock()) { /* before 5.10 */
		ASSERT_ERRNO(libpidfd_open(pid, PIDFD_NONBLOCK), EINVAL);
		util_kill_reap(cfd);
		return;
	}
	fd = expect_pidfd(pid, PIDFD_NONBLOCK, pid);
	ASSERT_ERRNO(libpidfd_waitid(fd, &si, WEXITED, NULL), EAGAIN);
	ASSERT_EQ(kill(pid, SIGKILL), 0);
	ASSERT_EQ(libpidfd_waitid(cfd, &si, WEXITED, NULL), 0);
	ASSERT_EQ(si.si_pid, pid);
	close(fd);
	close(cfd);
}

/*
 * A thread that is not the leader: only PIDFD_THREAD names it, and only
 * from 6.9; before, that flag is unknown (EINVAL) like any other. Without
 * the flag the thread is no process: ENOENT on every kernel, the newest's
 * answer (6.16; older kernels say EINVAL, which the library converts).
 * A flag the kernel does not know is EINVAL first (PIDFD_NONBLOCK before
 * 5.10).
 */
static void expect_not_a_process(pid_t tid, unsigned int flags, int want)
{
	int r;

	errno = 0;
	r = libpidfd_open(tid, flags);
	if (r != -1 || errno != want)
		FAIL("open(thread %d, %#x): want -1/%s, got %d/%s", tid, flags,
		     lpfd_errno_name(want), r, lpfd_errno_name(errno) ?: "0");
}

TEST(open_thread)
{
	struct util_parked t;
	pid_t thread_tid = util_park_thread(&t);

	expect_not_a_process(thread_tid, 0, ENOENT);
	expect_not_a_process(thread_tid, PIDFD_NONBLOCK,
			     util_kernel_has_open_nonblock() ? ENOENT : EINVAL);
	if (lpfd_kernel_has(LPFD_FEAT_PIDFD_THREAD) > 0) {
		close(expect_pidfd(thread_tid, PIDFD_THREAD, thread_tid));
		close(expect_pidfd(thread_tid, PIDFD_THREAD | PIDFD_NONBLOCK,
				   thread_tid));
		/* The leader is a thread too. */
		close(expect_pidfd(getpid(), PIDFD_THREAD, getpid()));
	} else {
		ASSERT_ERRNO(libpidfd_open(thread_tid, PIDFD_THREAD), EINVAL);
		ASSERT_ERRNO(libpidfd_open(getpid(), PIDFD_THREAD), EINVAL);
	}
	util_unpark_thread(&t);
}

/* Flags the kernel does not know, alone or beside known ones: EINVAL. */
TEST(open_bad_flags)
{
	static const unsigned int bad[] = { 1, O_CLOEXEC, 0x40000000, ~0u };

	for (size_t i = 0; i < UTIL_COUNT(bad); i++) {
		ASSERT_ERRNO(libpidfd_open(getpid(), bad[i]), EINVAL);
		ASSERT_ERRNO(libpidfd_open(getpid(), bad[i] | PIDFD_NONBLOCK),
			     EINVAL);
		ASSERT_ERRNO(libpidfd_open(getpid(), bad[i] | PIDFD_THREAD),
			     EINVAL);
	}
	/* Flags are judged before the pid. */
	ASSERT_ERRNO(libpidfd_open(0, 0x40000000), EINVAL);
}

/* A pid that cannot name a process is EINVAL; one naming none, ESRCH. */
TEST(open_bad_pid)
{
	static const pid_t bad[] = { 0, -1, -3, INT_MIN };
	siginfo_t si;
	pid_t gone;
	int fd;

	for (size_t i = 0; i < UTIL_COUNT(bad); i++) {
		ASSERT_ERRNO(libpidfd_open(bad[i], 0), EINVAL);
		ASSERT_ERRNO(libpidfd_open(bad[i], PIDFD_NONBLOCK), EINVAL);
	}
	ASSERT_ERRNO(libpidfd_open(INT_MAX, 0), ESRCH); /* above pid_max */
	gone = util_zombie(0, &fd);
	ASSERT_EQ(waitid(P_PIDFD, (id_t)fd, &si, WEXITED), 0);
	ASSERT_ERRNO(libpidfd_open(gone, 0), ESRCH);
	close(fd);
}

TEST(success_leaves_errno_alone)
{
	unsigned int flags = util_kernel_has_open_nonblock() ? PIDFD_NONBLOCK : 0;
	int fd;

	errno = 4242;
	fd = libpidfd_open(getpid(), flags);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(errno, 4242);
	close(fd);
}
