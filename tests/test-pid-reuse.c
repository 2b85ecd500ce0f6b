/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A pidfd never names another process: in a fresh pid namespace a child is
 * reaped and a new process made to take its pid (clone3 with set_tid, which
 * both kernels have; Linux 6.1 under user-mode-linux has no ns_last_pid),
 * then the stale pidfd is queried on both paths. The new process has other
 * credentials, so an answer describing it would be seen.
 */
#include <linux/sched.h>
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <fcntl.h>

#include "harness.h"
#include "internal.h"
#include "util.h"

#define ROUNDS 200

/*
 * fork() with a chosen pid (0: any); the child sets its uid, says so
 * through a pipe and waits. Returns once the uid is set.
 */
static pid_t spawn_with_pid(pid_t want, uid_t uid)
{
	struct clone_args args = {
		.exit_signal = SIGCHLD,
		.set_tid = want ? (uint64_t)(uintptr_t)&want : 0,
		.set_tid_size = want ? 1 : 0,
	};
	int ready[2];
	char c = 0;
	long pid;

	ASSERT_EQ(pipe2(ready, O_CLOEXEC), 0);
	pid = syscall(SYS_clone3, &args, sizeof(args));
	if (pid == 0) {
		syscall(SYS_setresuid, uid, uid, uid);
		if (write(ready[1], &c, 1) != 1)
			_exit(98);
		for (;;)
			syscall(SYS_pause);
	}
	close(ready[1]);
	if (pid > 0)
		ASSERT_EQ(read(ready[0], &c, 1), 1);
	close(ready[0]);
	return (pid_t)pid;
}

static void expect_stale(int fd, bool emulate)
{
	struct pidfd_info info = { .mask = PIDFD_INFO_CGROUPID };

	lpfd_emulate_override(emulate);
	ASSERT_ERRNO(libpidfd_get_info(fd, &info, sizeof(info)), ESRCH);
	ASSERT_ERRNO(libpidfd_getpid(fd), ESRCH);
}

static void reuse_rounds(void)
{
	for (int i = 0; i < ROUNDS; i++) {
		pid_t victim, reused;
		int fd, status;

		victim = spawn_with_pid(0, 1000);
		ASSERT_GE(victim, 2);
		fd = libpidfd_open(victim, 0);
		ASSERT_GE(fd, 0);
		kill(victim, SIGKILL);
		ASSERT_EQ(waitpid(victim, &status, 0), victim);
		reused = spawn_with_pid(victim, 2000);
		ASSERT_EQ(reused, victim);
		expect_stale(fd, true);
		if (util_have_native_info())
			expect_stale(fd, false);
		/* The fresh process is there and is the other one. */
		{
			struct pidfd_info info = { .mask = 0 };
			int nfd = libpidfd_open(reused, 0);

			ASSERT_GE(nfd, 0);
			ASSERT_EQ(libpidfd_get_info(nfd, &info, sizeof(info)), 0);
			ASSERT_EQ(info.ruid, 2000);
			close(nfd);
		}
		kill(reused, SIGKILL);
		ASSERT_EQ(waitpid(reused, &status, 0), reused);
		close(fd);
	}
}

TEST_TIMEOUT(stale_pidfd_after_forced_reuse, 120)
{
	util_as_pidns_init(reuse_rounds);
}
