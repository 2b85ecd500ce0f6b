/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libpidfd_get_namespace: all ten commands on the sentinels, real pidfds,
 * a child, a zombie and a reaped process, on both paths; the fd is the
 * same namespace as the /proc/<pid>/ns/ entry (st_dev and st_ino).
 */
#include <fcntl.h>
#include <sched.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>

#include "util.h"

static const struct {
	unsigned long cmd;
	const char *name;
} ns_cmds[] = {
	{ PIDFD_GET_CGROUP_NAMESPACE, "cgroup" },
	{ PIDFD_GET_IPC_NAMESPACE, "ipc" },
	{ PIDFD_GET_MNT_NAMESPACE, "mnt" },
	{ PIDFD_GET_NET_NAMESPACE, "net" },
	{ PIDFD_GET_PID_NAMESPACE, "pid" },
	{ PIDFD_GET_PID_FOR_CHILDREN_NAMESPACE, "pid_for_children" },
	{ PIDFD_GET_TIME_NAMESPACE, "time" },
	{ PIDFD_GET_TIME_FOR_CHILDREN_NAMESPACE, "time_for_children" },
	{ PIDFD_GET_USER_NAMESPACE, "user" },
	{ PIDFD_GET_UTS_NAMESPACE, "uts" },
};
#define N_CMDS (sizeof(ns_cmds) / sizeof(ns_cmds[0]))

/*
 * get_namespace(value, cmd) is the namespace /proc/<dir>/ns/<name> shows,
 * or, where this kernel was built without that type, EOPNOTSUPP.
 */
static void expect_ns(int value, size_t i, const char *dir)
{
	char path[96];
	struct stat want, got;
	int fd;

	snprintf(path, sizeof(path), "%s/ns/%s", dir, ns_cmds[i].name);
	if (stat(path, &want) < 0) {
		ASSERT_EQ(errno, ENOENT);
		ASSERT_ERRNO(libpidfd_get_namespace(value, ns_cmds[i].cmd),
			     EOPNOTSUPP);
		return;
	}
	fd = libpidfd_get_namespace(value, ns_cmds[i].cmd);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(fcntl(fd, F_GETFD), FD_CLOEXEC);
	ASSERT_EQ(fstat(fd, &got), 0);
	ASSERT_EQ(got.st_dev, want.st_dev);
	ASSERT_EQ(got.st_ino, want.st_ino);
	close(fd);
}

static void check_self(void *arg)
{
	int pfd = libpidfd_open(getpid(), 0);

	(void)arg;
	ASSERT_GE(pfd, 0);
	for (size_t i = 0; i < N_CMDS; i++) {
		expect_ns(PIDFD_SELF_THREAD, i, "/proc/thread-self");
		expect_ns(PIDFD_SELF_THREAD_GROUP, i, "/proc/self");
		expect_ns(LIBPIDFD_SELF_THREAD_GROUP_OLD, i, "/proc/self");
		expect_ns(pfd, i, "/proc/self");
	}
	close(pfd);
}

TEST(ns_self_all_commands)
{
	util_both_paths(check_self, NULL);
}

/* The inode of the UTS namespace get_namespace gives for value. */
static ino_t uts_ino(int value)
{
	int fd = libpidfd_get_namespace(value, PIDFD_GET_UTS_NAMESPACE);
	struct stat st;

	ASSERT_GE(fd, 0);
	ASSERT_EQ(fstat(fd, &st), 0);
	close(fd);
	return st.st_ino;
}

/* A thread in a UTS namespace of its own: the thread's, or the leader's. */
static void *own_uts_thread(void *arg)
{
	struct stat mine, leaders;

	(void)arg;
	ASSERT_EQ(unshare(CLONE_NEWUTS), 0);
	ASSERT_EQ(stat("/proc/thread-self/ns/uts", &mine), 0);
	ASSERT_EQ(stat("/proc/self/ns/uts", &leaders), 0);
	ASSERT_NE(mine.st_ino, leaders.st_ino);
	for (int emulate = 1; emulate >= 0; emulate--) {
		util_set_path(emulate);
		ASSERT_EQ(uts_ino(PIDFD_SELF_THREAD), mine.st_ino);
		ASSERT_EQ(uts_ino(PIDFD_SELF_THREAD_GROUP), leaders.st_ino);
	}
	return NULL;
}

TEST(ns_thread_versus_leader)
{
	REQUIRE_PRIVILEGE("creates a UTS namespace");
	util_in_thread(own_uts_thread, NULL);
}

/* A child in new UTS and IPC namespaces, through its pidfd. */
static void enter_new_ns(void *arg)
{
	(void)arg;
	if (unshare(CLONE_NEWUTS | CLONE_NEWIPC) < 0)
		_exit(3);
}

static void check_child(void *arg)
{
	int *cfd_pid = arg;
	char dir[32];

	snprintf(dir, sizeof(dir), "/proc/%d", cfd_pid[1]);
	for (size_t i = 0; i < N_CMDS; i++)
		expect_ns(cfd_pid[0], i, dir);
}

TEST(ns_child_all_commands)
{
	int a[2];
	struct stat mine, theirs;
	char path[64];

	REQUIRE_PRIVILEGE("creates UTS and IPC namespaces");
	a[1] = util_spawn(enter_new_ns, NULL, &a[0]);
	snprintf(path, sizeof(path), "/proc/%d/ns/uts", a[1]);
	ASSERT_EQ(stat(path, &theirs), 0);
	ASSERT_EQ(stat("/proc/self/ns/uts", &mine), 0);
	ASSERT_NE(mine.st_ino, theirs.st_ino);
	util_both_paths(check_child, a);
	util_kill_reap(a[0]);
}

/* A zombie has no namespaces left (ESRCH), a reaped process neither. */
static void check_gone(void *arg)
{
	int fd = *(int *)arg;

	for (size_t i = 0; i < N_CMDS; i++)
		ASSERT_ERRNO(libpidfd_get_namespace(fd, ns_cmds[i].cmd), ESRCH);
}

TEST(ns_zombie_and_reaped_are_esrch)
{
	siginfo_t si;
	int fd;

	util_zombie(0, &fd);
	util_wait_exit(fd);
	util_both_paths(check_gone, &fd);
	ASSERT_EQ(waitid(P_PIDFD, (id_t)fd, &si, WEXITED), 0);
	util_both_paths(check_gone, &fd);
	close(fd);
}

static void check_bad_commands(void *arg)
{
	int pfd = libpidfd_open(getpid(), 0), null = open("/dev/null", O_RDONLY);
	const unsigned long bad[] = { 0, _IO(PIDFS_IOCTL_MAGIC, 0),
				      _IO(PIDFS_IOCTL_MAGIC, 12),
				      _IO(PIDFS_IOCTL_MAGIC + 0UL - 1, 10),
				      _IOR(PIDFS_IOCTL_MAGIC, 10, int) };
	int fd;

	(void)arg;
	ASSERT_GE(pfd, 0);
	ASSERT_GE(null, 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ASSERT_ERRNO(libpidfd_get_namespace(pfd, bad[i]), ENOTTY);
		ASSERT_ERRNO(libpidfd_get_namespace(PIDFD_SELF, bad[i]), ENOTTY);
		ASSERT_ERRNO(libpidfd_get_namespace(PIDFD_SELF_PROCESS, bad[i]),
			     ENOTTY);
		ASSERT_ERRNO(libpidfd_get_namespace(-10002, bad[i]), EBADF);
		ASSERT_ERRNO(libpidfd_get_namespace(999, bad[i]), EBADF);
	}
	/* Not a pidfd: that file's answer to the ioctl. */
	ASSERT_ERRNO(libpidfd_get_namespace(null, PIDFD_GET_UTS_NAMESPACE), ENOTTY);
	ASSERT_ERRNO(libpidfd_get_namespace(999, PIDFD_GET_UTS_NAMESPACE), EBADF);
	/*
	 * ioctl commands are 32 bits wide: the high half is not looked at.
	 * Where long is 32 bits there is no high half, and this is bit 0.
	 */
	fd = libpidfd_get_namespace(PIDFD_SELF,
				    (unsigned long)(1ULL << 32) |
				    PIDFD_GET_UTS_NAMESPACE);
	ASSERT_GE(fd, 0);
	close(fd);
	close(null);
	close(pfd);
}

TEST(ns_bad_commands_and_fds)
{
	util_both_paths(check_bad_commands, NULL);
}

/* Nothing cached: after fork() the sentinels name the child. */
TEST(ns_after_fork_names_the_child)
{
	int status;
	pid_t pid;

	REQUIRE_PRIVILEGE("creates a UTS namespace");
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		ASSERT_EQ(unshare(CLONE_NEWUTS), 0);
		for (int emulate = 0; emulate < 2; emulate++) {
			util_set_path(emulate);
			expect_ns(PIDFD_SELF_PROCESS, 9, "/proc/self");
			expect_ns(PIDFD_SELF, 9, "/proc/thread-self");
		}
		_exit(0);
	}
	ASSERT_EQ(waitpid(pid, &status, 0), pid);
	ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}
