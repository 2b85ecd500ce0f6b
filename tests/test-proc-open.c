/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libpidfd_proc_open() and libpidfd_proc_readlink(): a process's /proc
 * directory, bound to the process its pidfd names. Every test runs on both
 * library paths (the pid read natively or from the fdinfo). The pid-reuse
 * and /proc-swapping runs are in test-reuse and test-proc-swap, the
 * descriptor counts on every error path in test-fdleak.
 */
#include <fcntl.h>
#include <libpidfd.h>
#include <sched.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include "util.h"

/*
 * check(&pidfd) on a sleeping child, as run says (util_both_paths(),
 * util_in_child()); the child killed and reaped after.
 */
static void on_a_child(void (*run)(void (*)(void *), void *),
		       void (*check)(void *))
{
	int pidfd;

	ASSERT_GE(util_spawn(NULL, NULL, &pidfd), 1);
	run(check, &pidfd);
	util_kill_reap(pidfd);
}

/* The file read whole through the library, NUL-terminated. */
static ssize_t slurp(int pidfd, const char *name, char *buf, size_t size)
{
	return util_read_close(libpidfd_proc_open(pidfd, name, O_RDONLY), buf,
			       size);
}

/* The first field of a stat file: its task's id. */
static long stat_id(int pidfd, const char *name)
{
	char buf[512];

	ASSERT_GE(slurp(pidfd, name, buf, sizeof(buf)), 1);
	return strtol(buf, NULL, 10);
}

static void expect_link(int pidfd, const char *name, const char *path)
{
	char want[256], got[256];
	ssize_t n = readlink(path, want, sizeof(want) - 1), m;

	ASSERT_GE(n, 1);
	want[n] = '\0';
	memset(got, 0, sizeof(got));
	m = libpidfd_proc_readlink(pidfd, name, got, sizeof(got) - 1);
	if (m != n || strcmp(got, want) != 0)
		FAIL("readlink %s: %zd \"%s\", want \"%s\"", name, m, got, want);
}

static bool same_file(int fd, const char *path)
{
	struct stat a, b;

	return fstat(fd, &a) == 0 && stat(path, &b) == 0 &&
	       a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

/* ------------------------------------------------------------------------
 * What a live process's directory holds.
 */
static void own_files(void *arg)
{
	int pidfd = *(int *)arg, fd;
	pid_t pid = libpidfd_getpid(pidfd);
	char buf[4096], want[64], path[64], name[64];

	ASSERT_GE(slurp(pidfd, "status", buf, sizeof(buf)), 1);
	snprintf(want, sizeof(want), "\nPid:\t%d\n", pid);
	ASSERT_TRUE(strstr(buf, want) != NULL);
	ASSERT_EQ(stat_id(pidfd, "stat"), pid);
	snprintf(path, sizeof(path), "/proc/%d/exe", pid);
	expect_link(pidfd, "exe", path);
	snprintf(path, sizeof(path), "/proc/%d/cwd", pid);
	expect_link(pidfd, "cwd", path);
	snprintf(path, sizeof(path), "/proc/%d/ns/pid", pid);
	expect_link(pidfd, "ns/pid", path);
	snprintf(path, sizeof(path), "/proc/%d/fd/0", pid);
	expect_link(pidfd, "fd/0", path);
	snprintf(name, sizeof(name), "task/%d/./ns/uts", pid);
	expect_link(pidfd, name, "/proc/self/ns/uts");

	/* The directory itself, and every descriptor close-on-exec. */
	fd = libpidfd_proc_open(pidfd, "", O_PATH | O_DIRECTORY);
	ASSERT_GE(fd, 0);
	snprintf(path, sizeof(path), "/proc/%d", pid);
	ASSERT_TRUE(same_file(fd, path));
	ASSERT_EQ(fcntl(fd, F_GETFD), FD_CLOEXEC);
	close(fd);
	fd = libpidfd_proc_open(pidfd, "fd", O_RDONLY | O_DIRECTORY | O_NONBLOCK);
	ASSERT_GE(fd, 0);
	ASSERT_TRUE(fcntl(fd, F_GETFL) & O_NONBLOCK);
	ASSERT_EQ(fcntl(fd, F_GETFD), FD_CLOEXEC);
	close(fd);
	/* A supervisor writes, as through /proc/<pid>/oom_score_adj. */
	fd = libpidfd_proc_open(pidfd, "oom_score_adj", O_WRONLY);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(write(fd, "7", 1), 1);
	close(fd);
	ASSERT_GE(slurp(pidfd, "oom_score_adj", buf, sizeof(buf)), 1);
	ASSERT_EQ(atoi(buf), 7);
	fd = libpidfd_proc_open(pidfd, "oom_score_adj", O_RDWR);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(write(fd, "0", 1), 1);
	close(fd);
}

TEST(a_process_s_own_files_and_links)
{
	int pidfd;
	pid_t pid = util_spawn(NULL, NULL, &pidfd);

	ASSERT_GE(pid, 1);
	util_both_paths(own_files, &pidfd);
	util_kill_reap(pidfd);
}

/* A zombie's directory is still its own: its state says so. */
static void zombie_files(void *arg)
{
	char buf[512];

	ASSERT_GE(slurp(*(int *)arg, "stat", buf, sizeof(buf)), 1);
	ASSERT_TRUE(strstr(buf, ") Z ") != NULL);
}

TEST(a_zombie_s_files_are_its_own)
{
	int pidfd;

	ASSERT_GE(util_zombie(3, &pidfd), 1);
	util_wait_exit(pidfd);
	util_both_paths(zombie_files, &pidfd);
	util_kill_reap(pidfd);
}

/* Success leaves errno as it was, as every call of the library does. */
static void errno_kept(void *arg)
{
	int pidfd = *(int *)arg, fd;
	char link[64];

	errno = 4242;
	fd = libpidfd_proc_open(pidfd, "status", O_RDONLY);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(errno, 4242);
	close(fd);
	ASSERT_GE(libpidfd_proc_readlink(pidfd, "ns/pid", link, sizeof(link)), 1);
	ASSERT_EQ(errno, 4242);
}

TEST(success_leaves_errno_alone)
{
	on_a_child(util_both_paths, errno_kept);
}

/* ------------------------------------------------------------------------
 * Links: the last one followed unless O_NOFOLLOW or O_PATH; one in the
 * middle of the name is EXDEV, as RESOLVE_BENEATH answers.
 */
static void links(void *arg)
{
	int pidfd = *(int *)arg, fd;
	pid_t pid = libpidfd_getpid(pidfd);
	char path[64];
	struct stat st;

	fd = libpidfd_proc_open(pidfd, "exe", O_RDONLY);
	ASSERT_GE(fd, 0);
	ASSERT_TRUE(same_file(fd, "/proc/self/exe")); /* a fork of ours */
	close(fd);
	fd = libpidfd_proc_open(pidfd, "cwd", O_RDONLY | O_DIRECTORY);
	ASSERT_GE(fd, 0);
	ASSERT_TRUE(same_file(fd, "."));
	close(fd);
	fd = libpidfd_proc_open(pidfd, "exe", O_PATH);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(fstatat(fd, "", &st, AT_EMPTY_PATH), 0);
	ASSERT_TRUE(S_ISLNK(st.st_mode));
	close(fd);
	fd = libpidfd_proc_open(pidfd, "ns/pid", O_PATH | O_NOFOLLOW);
	ASSERT_GE(fd, 0);
	snprintf(path, sizeof(path), "/proc/%d/ns/pid", pid);
	{
		struct stat l;

		ASSERT_EQ(fstatat(fd, "", &st, AT_EMPTY_PATH), 0);
		ASSERT_EQ(lstat(path, &l), 0);
		ASSERT_TRUE(S_ISLNK(st.st_mode) && st.st_ino == l.st_ino);
	}
	close(fd);
	ASSERT_ERRNO(libpidfd_proc_open(pidfd, "exe", O_RDONLY | O_NOFOLLOW), ELOOP);
	ASSERT_ERRNO(libpidfd_proc_open(pidfd, "cwd", O_PATH | O_DIRECTORY), ENOTDIR);
	static const char *const through[] = { "cwd/x", "cwd/.", "root/etc",
		"fd/0/x", "exe/", "task/%d/cwd/x", "task/%d/root/proc" };
	for (size_t i = 0; i < UTIL_COUNT(through); i++) {
		char name[64];

		snprintf(name, sizeof(name), through[i], pid);
		ASSERT_ERRNO(libpidfd_proc_open(pidfd, name, O_RDONLY), EXDEV);
		ASSERT_ERRNO(libpidfd_proc_open(pidfd, name, O_PATH), EXDEV);
		ASSERT_ERRNO(libpidfd_proc_readlink(pidfd, name, path, sizeof(path)),
			     EXDEV);
	}
}

TEST(a_final_link_is_followed_and_one_in_the_middle_is_exdev)
{
	on_a_child(util_both_paths, links);
}

/* Without openat2 (before 5.6, or refused) the answers are the same. */
static void links_without_openat2(void *arg)
{
	ASSERT_EQ(util_errno_filter(SYS_openat2, ENOSYS), 0);
	util_both_paths(links, arg);
	util_both_paths(own_files, arg);
}

TEST(without_openat2_links_are_judged_alike)
{
	on_a_child(util_in_child, links_without_openat2);
}

/* ------------------------------------------------------------------------
 * Names, flags and sizes the library refuses, in the kernel's order:
 * flags, then the name, then the descriptor.
 */
static void refused(void *arg)
{
	static const char *const names[] = { "/proc/self/status", "..", "../1",
		"task/..", "task/../status", "fd/../../1/status", "/", "./.." };
	static const int flags[] = { O_CREAT, O_TRUNC, O_APPEND, O_EXCL,
		O_ACCMODE, O_TMPFILE, O_NOCTTY, O_SYNC, O_DIRECT, O_NOATIME,
		(int)0x80000000u };
	int pidfd = *(int *)arg;
	char buf[64];

	for (size_t i = 0; i < UTIL_COUNT(names); i++) {
		ASSERT_ERRNO(libpidfd_proc_open(pidfd, names[i], O_RDONLY), EINVAL);
		ASSERT_ERRNO(libpidfd_proc_readlink(pidfd, names[i], buf, sizeof(buf)),
			     EINVAL);
	}
	for (size_t i = 0; i < UTIL_COUNT(flags); i++)
		ASSERT_ERRNO(libpidfd_proc_open(pidfd, "status", flags[i]), EINVAL);
	ASSERT_ERRNO(libpidfd_proc_open(-1, "status", O_CREAT), EINVAL);
	ASSERT_ERRNO(libpidfd_proc_open(-1, "..", O_RDONLY), EINVAL);
	ASSERT_ERRNO(libpidfd_proc_readlink(pidfd, "exe", buf, 0), EINVAL);
	ASSERT_ERRNO(libpidfd_proc_readlink(pidfd, "status", buf, sizeof(buf)),
		     EINVAL);
	ASSERT_ERRNO(libpidfd_proc_readlink(pidfd, "", buf, sizeof(buf)), EINVAL);
	ASSERT_ERRNO(libpidfd_proc_open(pidfd, "no-such-file", O_RDONLY), ENOENT);
	ASSERT_ERRNO(libpidfd_proc_open(pidfd, "task/1/stat", O_RDONLY), ENOENT);
	ASSERT_ERRNO(libpidfd_proc_readlink(pidfd, "fd/777", buf, sizeof(buf)),
		     ENOENT);
	ASSERT_ERRNO(libpidfd_proc_open(pidfd, "status", O_RDONLY | O_DIRECTORY),
		     ENOTDIR);
	ASSERT_ERRNO(libpidfd_proc_open(pidfd, "status/x", O_RDONLY), ENOTDIR);
	ASSERT_ERRNO(libpidfd_proc_open(pidfd, "task", O_WRONLY), EISDIR);
	/* Allowed flags and "." components are fine. */
	int fd = libpidfd_proc_open(pidfd, "./task/.", O_RDONLY | O_CLOEXEC |
					O_DIRECTORY | O_NOFOLLOW);

	ASSERT_GE(fd, 0);
	close(fd);
}

TEST(bad_names_flags_and_sizes)
{
	on_a_child(util_both_paths, refused);
}

/* ------------------------------------------------------------------------
 * Bad pointers: EFAULT, never a crash; a failed call writes nothing.
 */
static void pointers(void *arg)
{
	int pidfd = *(int *)arg;
	long page = sysconf(_SC_PAGESIZE);
	char *m = mmap(NULL, (size_t)page * 2, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), buf[64];
	char *edge = m + page - 6;

	ASSERT_TRUE(m != MAP_FAILED);
	ASSERT_EQ(mprotect(m + page, (size_t)page, PROT_NONE), 0);
	ASSERT_ERRNO(libpidfd_proc_open(pidfd, NULL, O_RDONLY), EFAULT);
	ASSERT_ERRNO(libpidfd_proc_open(pidfd, (char *)1, O_RDONLY), EFAULT);
	ASSERT_ERRNO(libpidfd_proc_open(pidfd, m + page, O_RDONLY), EFAULT);
	ASSERT_ERRNO(libpidfd_proc_readlink(pidfd, NULL, buf, sizeof(buf)), EFAULT);
	/* A name that runs into the unreadable page. */
	memcpy(edge, "status", 6);
	ASSERT_ERRNO(libpidfd_proc_open(pidfd, edge, O_RDONLY), EFAULT);
	/* One that ends just before it. */
	memcpy(edge, "stat", 5);
	{
		int fd = libpidfd_proc_open(pidfd, edge, O_RDONLY);

		ASSERT_GE(fd, 0);
		close(fd);
	}
	ASSERT_ERRNO(libpidfd_proc_readlink(pidfd, "exe", m + page, 64), EFAULT);
	ASSERT_ERRNO(libpidfd_proc_readlink(pidfd, "exe", (char *)1, 64), EFAULT);
	ASSERT_EQ(mprotect(m, (size_t)page, PROT_READ), 0);
	ASSERT_ERRNO(libpidfd_proc_readlink(pidfd, "exe", m, 64), EFAULT);
	munmap(m, (size_t)page * 2);
}

TEST(bad_pointers_give_efault)
{
	on_a_child(util_both_paths, pointers);
}

/*
 * No descriptor left: EMFILE, from the call on a pidfd and on a sentinel,
 * whatever of /proc and the probes it had to open.
 */
static void no_descriptor_left(void *arg)
{
	int pidfd = *(int *)arg, lowest = dup(0);
	struct rlimit rl;
	char buf[64];

	ASSERT_GE(lowest, 0);
	close(lowest);
	ASSERT_EQ(getrlimit(RLIMIT_NOFILE, &rl), 0);
	rl.rlim_cur = (rlim_t)lowest;
	ASSERT_EQ(setrlimit(RLIMIT_NOFILE, &rl), 0);
	for (int em = 0; em < 2; em++) {
		util_set_path(em);
		ASSERT_ERRNO(libpidfd_proc_open(pidfd, "status", O_RDONLY), EMFILE);
		ASSERT_ERRNO(libpidfd_proc_open(PIDFD_SELF_THREAD, "stat", O_RDONLY),
			     EMFILE);
		ASSERT_ERRNO(libpidfd_proc_readlink(pidfd, "exe", buf, sizeof(buf)),
			     EMFILE);
	}
}

TEST(no_descriptor_left_is_emfile)
{
	on_a_child(util_in_child, no_descriptor_left);
}

/* ------------------------------------------------------------------------
 * The pidfd: EBADF for anything that is no pidfd, whatever its kind;
 * ESRCH once reaped, with the caller's buffer untouched.
 */
static void not_pidfds(void *arg)
{
	int fds[8], n = 0, p[2], reaped = *(int *)arg;
	char buf[64];

	ASSERT_EQ(pipe2(p, O_CLOEXEC), 0);
	fds[n++] = p[0];
	fds[n++] = open("/dev/null", O_RDONLY | O_CLOEXEC);
	fds[n++] = open("/proc/self/status", O_PATH | O_CLOEXEC);
	fds[n++] = epoll_create1(EPOLL_CLOEXEC);
	fds[n++] = eventfd(0, EFD_CLOEXEC);
	fds[n++] = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	fds[n++] = 999; /* closed */
	for (int i = 0; i < n; i++) {
		ASSERT_TRUE(fds[i] >= 0);
		ASSERT_ERRNO(libpidfd_proc_open(fds[i], "status", O_RDONLY), EBADF);
		ASSERT_ERRNO(libpidfd_proc_readlink(fds[i], "exe", buf, sizeof(buf)),
			     EBADF);
	}
	for (size_t i = 0; i < UTIL_COUNT(util_bad_values); i++)
		ASSERT_ERRNO(libpidfd_proc_open(util_bad_values[i], "status", 0),
			     EBADF);
	for (int i = 0; i < n - 1; i++)
		close(fds[i]);
	close(p[1]);

	memset(buf, 'x', sizeof(buf));
	ASSERT_ERRNO(libpidfd_proc_open(reaped, "status", O_RDONLY), ESRCH);
	ASSERT_ERRNO(libpidfd_proc_open(reaped, "", O_PATH), ESRCH);
	ASSERT_ERRNO(libpidfd_proc_readlink(reaped, "exe", buf, sizeof(buf)), ESRCH);
	for (size_t i = 0; i < sizeof(buf); i++)
		ASSERT_EQ(buf[i], 'x');
}

TEST(not_a_pidfd_is_ebadf_and_reaped_is_esrch)
{
	int pidfd;

	ASSERT_GE(util_spawn(NULL, NULL, &pidfd), 1);
	util_kill_reap_keep_fd(pidfd);
	util_both_paths(not_pidfds, &pidfd);
	close(pidfd);
}

/* Outside the caller's pid namespace: EREMOTE. */
static int g_outer;

static void remote(void)
{
	char buf[64];

	for (int em = 0; em < 2; em++) {
		util_set_path(em);
		ASSERT_ERRNO(libpidfd_proc_open(g_outer, "status", O_RDONLY), EREMOTE);
		ASSERT_ERRNO(libpidfd_proc_readlink(g_outer, "exe", buf, sizeof(buf)),
			     EREMOTE);
		ASSERT_EQ(stat_id(PIDFD_SELF_PROCESS, "stat"), 1);
	}
}

TEST(a_process_outside_our_pid_namespace_is_eremote)
{
	REQUIRE_PRIVILEGE("a pid namespace of its own");
	g_outer = libpidfd_open(getpid(), 0);
	ASSERT_GE(g_outer, 0);
	util_in_pidns(remote, true);
	close(g_outer);
}

/* No procfs of ours: nothing mounted, a tmpfs, another namespace's. */
static int g_target;

static void expect_enosys(const char *why)
{
	char buf[64];

	for (int em = 0; em < 2; em++) {
		util_set_path(em);
		errno = 0;
		if (libpidfd_proc_open(g_target, "status", O_RDONLY) != -1 ||
		    errno != ENOSYS)
			FAIL("%s: proc_open errno %d", why, errno);
		if (libpidfd_proc_readlink(PIDFD_SELF_PROCESS, "exe", buf,
					   sizeof(buf)) != -1 || errno != ENOSYS)
			FAIL("%s: proc_readlink errno %d", why, errno);
	}
}

static void no_proc(void)
{
	ASSERT_EQ(umount2("/proc", MNT_DETACH), 0);
	expect_enosys("no /proc");
	ASSERT_EQ(mount("tmpfs", "/proc", "tmpfs", 0, NULL), 0);
	expect_enosys("a tmpfs on /proc");
}

TEST(no_procfs_of_ours_is_enosys)
{
	REQUIRE_PRIVILEGE("a mount namespace of its own");
	ASSERT_GE(util_spawn(NULL, NULL, &g_target), 1);
	util_in_private_mounts(no_proc);
	util_kill_reap(g_target);
}

/* A procfs of a child pid namespace over ours: not ours either. */
static void child_ns_proc(void)
{
	pid_t q = fork();
	int status;

	ASSERT_GE(q, 0);
	if (q == 0) {
		/* The parent namespace's procfs, seen from its child: not ours. */
		char buf[64];

		util_set_path(0);
		errno = 0;
		if (libpidfd_proc_readlink(PIDFD_SELF_PROCESS, "exe", buf,
					   sizeof(buf)) != -1 || errno != ENOSYS)
			_exit(1);
		_exit(0);
	}
	ASSERT_EQ(waitpid(q, &status, 0), q);
	ASSERT_EQ(status, 0);
}

static void in_new_pidns_with_old_proc(void)
{
	child_ns_proc();
}

TEST(another_pid_namespace_s_procfs_is_enosys)
{
	REQUIRE_PRIVILEGE("a pid namespace of its own");
	util_in_pidns(in_new_pidns_with_old_proc, false);
}

/* ------------------------------------------------------------------------
 * The sentinels from a thread that is not the leader: /proc/thread-self
 * and /proc/self, and the thread's own entry under task/.
 */
static void *from_a_thread(void *arg)
{
	pid_t tid = gettid(), pid = getpid();
	char name[64], path[64];
	int fd;

	(void)arg;
	ASSERT_NE(tid, pid);
	ASSERT_EQ(stat_id(PIDFD_SELF_THREAD, "stat"), tid);
	ASSERT_EQ(stat_id(PIDFD_SELF_THREAD_GROUP, "stat"), pid);
	ASSERT_EQ(stat_id(LIBPIDFD_SELF_THREAD_GROUP_OLD, "stat"), pid);
	snprintf(name, sizeof(name), "task/%d/stat", tid);
	ASSERT_EQ(stat_id(PIDFD_SELF_THREAD_GROUP, name), tid);
	ASSERT_ERRNO(libpidfd_proc_open(PIDFD_SELF_THREAD, "task", O_RDONLY), ENOENT);
	fd = libpidfd_proc_open(PIDFD_SELF_THREAD, "", O_PATH | O_DIRECTORY);
	ASSERT_GE(fd, 0);
	ASSERT_TRUE(same_file(fd, "/proc/thread-self"));
	close(fd);
	fd = libpidfd_proc_open(PIDFD_SELF_THREAD_GROUP, "", O_RDONLY | O_DIRECTORY);
	ASSERT_GE(fd, 0);
	ASSERT_TRUE(same_file(fd, "/proc/self"));
	close(fd);
	snprintf(path, sizeof(path), "/proc/thread-self/ns/pid");
	expect_link(PIDFD_SELF_THREAD, "ns/pid", path);
	expect_link(PIDFD_SELF_THREAD_GROUP, "exe", "/proc/self/exe");
	snprintf(name, sizeof(name), "task/%d/exe", tid);
	expect_link(PIDFD_SELF_THREAD_GROUP, name, "/proc/thread-self/exe");
	return NULL;
}

static void sentinels(void *arg)
{
	(void)arg;
	util_in_thread(from_a_thread, NULL);
}

TEST(sentinels_from_a_thread_that_is_not_the_leader)
{
	util_both_paths(sentinels, NULL);
}

/* ------------------------------------------------------------------------
 * Bound: a directory or file opened through the library reaches only its
 * process, even once the pid is another's. Reading a procfs file of a
 * reaped process gives the kernel's error, whatever the kernel.
 */
#define BOUND_PID 500
#define UID_OLD 1111u
#define UID_NEW 2222u

/* A lookup in a reaped process's directory: ESRCH (6.18) or ENOENT. */
static void expect_gone(int fd)
{
	if (fd >= 0 || (errno != ESRCH && errno != ENOENT))
		FAIL("a lookup in a reaped process's directory: %d errno %d", fd, errno);
}

static void bound(void)
{
	static struct util_gen old, newer;
	int pidfd, newfd, dir, task, status, cmdline, fd;
	char buf[512], link[64];

	for (int em = 0; em < 2; em++) {
		util_set_path(em);
		ASSERT_EQ(util_spawn_gen(&old, UID_OLD, BOUND_PID, &pidfd), BOUND_PID);
		dir = libpidfd_proc_open(pidfd, "", O_PATH | O_DIRECTORY);
		task = libpidfd_proc_open(pidfd, "task", O_PATH | O_DIRECTORY);
		status = libpidfd_proc_open(pidfd, "status", O_RDONLY);
		cmdline = libpidfd_proc_open(pidfd, "cmdline", O_RDONLY);
		ASSERT_TRUE(dir >= 0 && task >= 0 && status >= 0 && cmdline >= 0);
		util_kill_reap_keep_fd(pidfd);
		ASSERT_EQ(util_spawn_gen(&newer, UID_NEW, BOUND_PID, &newfd), BOUND_PID);

		/* The newcomer is there, by number... */
		fd = open("/proc/500/status", O_RDONLY | O_CLOEXEC);
		ASSERT_GE(fd, 0);
		ASSERT_GE(read(fd, buf, sizeof(buf) - 1), 1);
		close(fd);
		ASSERT_TRUE(strstr(buf, "\nUid:\t2222\t") != NULL);
		/* ...but nothing bound to the old process reaches it. */
		expect_gone(openat(dir, "status", O_RDONLY | O_CLOEXEC));
		expect_gone(openat(task, "500/status", O_RDONLY | O_CLOEXEC));
		ASSERT_ERRNO(read(status, buf, sizeof(buf)), ESRCH);
		ASSERT_ERRNO(read(cmdline, buf, sizeof(buf)), ESRCH);
		ASSERT_ERRNO(libpidfd_proc_open(pidfd, "status", O_RDONLY), ESRCH);
		ASSERT_ERRNO(libpidfd_proc_readlink(pidfd, "exe", link, sizeof(link)),
			     ESRCH);
		close(dir);
		close(task);
		close(status);
		close(cmdline);
		close(pidfd);
		util_kill_reap(newfd);
	}
}

TEST(what_was_opened_stays_bound_to_its_process)
{
	REQUIRE_PRIVILEGE("processes at a chosen pid");
	util_in_pidns(bound, true);
}

/* ------------------------------------------------------------------------
 * hidepid: a process /proc hides from us is EACCES (it is alive), never
 * ESRCH; ptrace's refusal to read another's links is EACCES too.
 */
#define PLAIN_UID 1000u

static void as_plain_user(int mine, int other)
{
	char buf[256];

	ASSERT_EQ(setresgid(PLAIN_UID, PLAIN_UID, PLAIN_UID), 0);
	ASSERT_EQ(setresuid(PLAIN_UID, PLAIN_UID, PLAIN_UID), 0);
	prctl(PR_SET_DUMPABLE, 1);
	for (int em = 0; em < 2; em++) {
		util_set_path(em);
		ASSERT_GE(slurp(mine, "status", buf, sizeof(buf)), 1);
		ASSERT_GE(libpidfd_proc_readlink(mine, "ns/pid", buf, sizeof(buf)), 1);
		ASSERT_ERRNO(libpidfd_proc_open(other, "status", O_RDONLY), EACCES);
		ASSERT_ERRNO(libpidfd_proc_open(other, "", O_DIRECTORY), EACCES);
		ASSERT_ERRNO(libpidfd_proc_readlink(other, "exe", buf, sizeof(buf)),
			     EACCES);
		ASSERT_GE(slurp(PIDFD_SELF_PROCESS, "status", buf, sizeof(buf)), 1);
	}
}

static void hidepid(void)
{
	int mine, other, status;
	pid_t q;

	ASSERT_EQ(mount("proc", "/proc", "proc", 0, "hidepid=2"), 0);
	ASSERT_GE(util_spawn(NULL, NULL, &other), 1);
	q = fork();
	ASSERT_GE(q, 0);
	if (q == 0) {
		ASSERT_EQ(setresgid(PLAIN_UID, PLAIN_UID, PLAIN_UID), 0);
		ASSERT_EQ(setresuid(PLAIN_UID, PLAIN_UID, PLAIN_UID), 0);
		prctl(PR_SET_DUMPABLE, 1);
		ASSERT_GE(util_spawn(NULL, NULL, &mine), 1);
		as_plain_user(mine, other);
		util_kill_reap(mine);
		fflush(stdout);
		_exit(0);
	}
	ASSERT_EQ(waitpid(q, &status, 0), q);
	ASSERT_EQ(status, 0);
	util_kill_reap(other);
}

TEST(hidepid_is_eacces)
{
	REQUIRE_PRIVILEGE("a procfs mounted with hidepid=2");
	util_in_private_mounts(hidepid);
}

/* ptrace: another user's links and environ are EACCES, as open(2) says. */
static void ptrace_refused(void *arg)
{
	int other = *(int *)arg;
	char buf[64];

	ASSERT_EQ(setresgid(PLAIN_UID, PLAIN_UID, PLAIN_UID), 0);
	ASSERT_EQ(setresuid(PLAIN_UID, PLAIN_UID, PLAIN_UID), 0);
	for (int em = 0; em < 2; em++) {
		util_set_path(em);
		/*
		 * Not dumpable now, by the changed ids: before 5.14 not even
		 * its own fdinfo tells this process the pidfd's pid, and
		 * every file of another process is EACCES (test-dumpable).
		 */
		if (util_own_fdinfo_refused())
			ASSERT_ERRNO(slurp(other, "status", buf, sizeof(buf)),
				     EACCES);
		else
			ASSERT_GE(slurp(other, "status", buf, sizeof(buf)), 1);
		ASSERT_ERRNO(libpidfd_proc_open(other, "environ", O_RDONLY), EACCES);
		ASSERT_ERRNO(libpidfd_proc_readlink(other, "exe", buf, sizeof(buf)),
			     EACCES);
	}
}

TEST(another_user_s_links_are_eacces)
{
	int other;

	REQUIRE_PRIVILEGE("a process of another uid");
	ASSERT_GE(util_spawn(NULL, NULL, &other), 1);
	util_in_child(ptrace_refused, &other);
	util_kill_reap(other);
}

/*
 * A process that is not dumpable, of the caller's own uid: its status is
 * open to all, its links and environ only to a ptracer (EACCES).
 */
static void undumpable(void *arg)
{
	(void)arg;
	prctl(PR_SET_DUMPABLE, 0);
}

static void of_an_undumpable_process(void *arg)
{
	char buf[256];
	int other;

	(void)arg;
	ASSERT_EQ(setresgid(PLAIN_UID, PLAIN_UID, PLAIN_UID), 0);
	ASSERT_EQ(setresuid(PLAIN_UID, PLAIN_UID, PLAIN_UID), 0);
	prctl(PR_SET_DUMPABLE, 1);
	ASSERT_GE(util_spawn(undumpable, NULL, &other), 1);
	for (int em = 0; em < 2; em++) {
		util_set_path(em);
		ASSERT_GE(slurp(other, "status", buf, sizeof(buf)), 1);
		ASSERT_ERRNO(libpidfd_proc_open(other, "environ", O_RDONLY), EACCES);
		ASSERT_ERRNO(libpidfd_proc_readlink(other, "exe", buf, sizeof(buf)),
			     EACCES);
		ASSERT_ERRNO(libpidfd_proc_readlink(other, "cwd", buf, sizeof(buf)),
			     EACCES);
	}
	util_kill_reap(other);
}

TEST(an_undumpable_process_s_links_are_eacces)
{
	REQUIRE_PRIVILEGE("processes of another uid");
	util_in_child(of_an_undumpable_process, NULL);
}

/* A caller that is not dumpable reads its own and its child's files. */
static void not_dumpable(void *arg)
{
	int child = *(int *)arg;
	char buf[256];

	ASSERT_EQ(prctl(PR_SET_DUMPABLE, 0), 0);
	for (int em = 0; em < 2; em++) {
		util_set_path(em);
		ASSERT_GE(slurp(PIDFD_SELF_PROCESS, "status", buf, sizeof(buf)), 1);
		expect_link(PIDFD_SELF_PROCESS, "exe", "/proc/self/exe");
		expect_link(PIDFD_SELF_THREAD, "ns/pid", "/proc/thread-self/ns/pid");
		ASSERT_GE(slurp(child, "stat", buf, sizeof(buf)), 1);
	}
}

TEST(a_caller_that_is_not_dumpable)
{
	int child;

	ASSERT_GE(util_spawn(NULL, NULL, &child), 1);
	util_in_child(not_dumpable, &child);
	util_kill_reap(child);
}
