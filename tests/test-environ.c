/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Hostile environments: /proc missing, /proc of another pid namespace,
 * /proc with hidepid=2 seen by an unprivileged uid, no cgroup2 mount. Each
 * must give the right answer or a clear errno, never another process's
 * data, on both library paths. Every environment is set up in a child with
 * a private mount namespace, so the rest of the system never sees it.
 */
#include <fcntl.h>
#include <libpidfd.h>
#include <linux/magic.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/vfs.h>

#include "util.h"

#define TARGET_UID 4321u

static void become_target(void *arg)
{
	unsigned int uid = (unsigned int)(uintptr_t)arg;

	if (setresgid(uid, uid, uid) || setresuid(uid, uid, uid))
		_exit(97);
	prctl(PR_SET_DUMPABLE, 1); /* visible to its own uid under hidepid */
}

/* A child with uids and gids of its own, and a pidfd for it. */
static pid_t spawn_target(unsigned int uid, int *pidfd)
{
	return util_spawn(become_target, (void *)(uintptr_t)uid, pidfd);
}

static bool kernel_answers(void)
{
	return util_have_native_info();
}

/*
 * get_info and getpid on a pidfd, on one path: either the target's own
 * pid and uid, or exactly the errno the environment calls for.
 */
static void expect_right_or(int fd, pid_t pid, unsigned int uid, int emulate,
			    int err)
{
	struct pidfd_info info = { .mask = PIDFD_INFO_CGROUPID };
	int r;
	pid_t p;

	util_set_path(emulate);
	errno = 0;
	r = libpidfd_get_info(fd, &info, sizeof(info));
	if (r == 0) {
		if (info.pid != (uint32_t)pid || info.ruid != uid ||
		    info.rgid != uid)
			FAIL("%s path: get_info answered pid %u uid %u gid %u "
			     "for pid %d uid %u", emulate ? "emulated" : "native",
			     info.pid, info.ruid, info.rgid, pid, uid);
	} else if (errno != err) {
		FAIL("%s path: get_info errno %d (%s), want %s",
		     emulate ? "emulated" : "native", errno,
		     lpfd_errno_name(errno), lpfd_errno_name(err));
	}
	errno = 0;
	p = libpidfd_getpid(fd);
	if (p != pid && !(p == -1 && errno == err))
		FAIL("%s path: getpid %d errno %s for pid %d, want it or %s",
		     emulate ? "emulated" : "native", p,
		     lpfd_errno_name(errno), pid, lpfd_errno_name(err));
}

/*
 * A namespace of the caller's, on both paths: its own (the inode of the
 * one it was in before /proc went odd), or a clear errno.
 */
static ino_t uts_before;

static void expect_own_uts_or(int err)
{
	for (int em = 0; em < 2; em++) {
		struct stat st;
		int ns;

		util_set_path(em);
		errno = 0;
		ns = libpidfd_get_namespace(PIDFD_SELF_PROCESS,
					    PIDFD_GET_UTS_NAMESPACE);
		if (ns < 0) {
			if (errno != err)
				FAIL("%s path: get_namespace(PIDFD_SELF_PROCESS): %s, want %s",
				     em ? "emulated" : "native",
				     lpfd_errno_name(errno), lpfd_errno_name(err));
			continue;
		}
		ASSERT_EQ(fstat(ns, &st), 0);
		if (st.st_ino != uts_before)
			FAIL("%s path: get_namespace(PIDFD_SELF_PROCESS) gave inode %lu, not the uts namespace %lu",
			     em ? "emulated" : "native",
			     (unsigned long)st.st_ino, (unsigned long)uts_before);
		close(ns);
	}
}

static void remember_uts(void)
{
	struct stat st;

	ASSERT_EQ(stat("/proc/self/ns/uts", &st), 0);
	uts_before = st.st_ino;
}

/* The caller itself needs no /proc for its ids. */
static void expect_self_works(void)
{
	for (int em = 0; em < 2; em++) {
		struct pidfd_info info = { .mask = PIDFD_INFO_CGROUPID };

		util_set_path(em);
		ASSERT_EQ(libpidfd_get_info(PIDFD_SELF_PROCESS, &info,
					    sizeof(info)), 0);
		ASSERT_EQ(info.pid, getpid());
		ASSERT_EQ(info.ruid, getuid());
		ASSERT_EQ(libpidfd_getpid(PIDFD_SELF_PROCESS), getpid());
		ASSERT_EQ(libpidfd_getpid(PIDFD_SELF_THREAD), gettid());
	}
}

/* ------------------------------------------------------------------------
 * No /proc at all: the kernel's path answers, the emulation says ENOSYS.
 */
static void no_proc(void)
{
	struct statfs sfs;
	pid_t pid;
	int fd;

	pid = spawn_target(TARGET_UID, &fd);
	remember_uts();
	ASSERT_EQ(umount2("/proc", MNT_DETACH), 0);
	/*
	 * What is left is no procfs: nothing, or under user-mode-linux the
	 * host's own /proc, which hostfs shows in the root directory.
	 */
	ASSERT_TRUE(statfs("/proc/self", &sfs) != 0 ||
		    sfs.f_type != PROC_SUPER_MAGIC);
	for (int em = 0; em < 2; em++)
		expect_right_or(fd, pid, TARGET_UID, em, ENOSYS);
	/* A native answer where the kernel has one. */
	if (kernel_answers()) {
		util_set_path(0);
		ASSERT_EQ(libpidfd_getpid(fd), pid);
	}
	expect_self_works();
	expect_own_uts_or(ENOSYS);
	/* A closed fd is still EBADF, not ENOSYS. */
	util_set_path(1);
	ASSERT_ERRNO(libpidfd_getpid(999), EBADF);
	util_kill_reap(fd);
}

TEST(proc_not_mounted_gives_enosys_or_the_right_answer)
{
	util_in_private_mounts(no_proc);
}

/*
 * A forged /proc: a tmpfs whose files look like procfs's and name another
 * process (pid 1, uid 9999) as the pidfd's. Only procfs is believed.
 */
static void put_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	ASSERT_GE(fd, 0);
	ASSERT_EQ(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

static void forged_proc(void)
{
	char path[64], text[128];
	pid_t pid;
	int fd;

	pid = spawn_target(TARGET_UID, &fd);
	remember_uts();
	ASSERT_EQ(mount("tmpfs", "/proc", "tmpfs", 0, NULL), 0);
	ASSERT_EQ(mkdir("/proc/self", 0755), 0);
	ASSERT_EQ(mkdir("/proc/self/fdinfo", 0755), 0);
	ASSERT_EQ(mkdir("/proc/1", 0755), 0);
	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	put_file(path, "pos:\t0\nflags:\t02000002\nPid:\t1\nNSpid:\t1\n");
	snprintf(text, sizeof(text), "Name:\tx\nPid:\t%d\nNSpid:\t%d\n",
		 getpid(), getpid());
	put_file("/proc/self/status", text);
	put_file("/proc/1/status", "Name:\tforged\nState:\tS\nTgid:\t1\n"
		 "Pid:\t1\nPPid:\t0\nUid:\t9999\t9999\t9999\t9999\n"
		 "Gid:\t9999\t9999\t9999\t9999\nNSpid:\t1\n");
	ASSERT_EQ(mkdir("/proc/self/ns", 0755), 0);
	put_file("/proc/self/ns/uts", "not a namespace");
	ASSERT_EQ(mkdir("/proc/thread-self", 0755), 0);
	ASSERT_EQ(mkdir("/proc/thread-self/ns", 0755), 0);
	put_file("/proc/thread-self/ns/mnt", "not a namespace");
	for (int em = 0; em < 2; em++)
		expect_right_or(fd, pid, TARGET_UID, em, ENOSYS);
	expect_self_works();
	expect_own_uts_or(ENOSYS);
	util_kill_reap(fd);
}

TEST(proc_forged_on_another_file_system_is_not_believed)
{
	util_in_private_mounts(forged_proc);
}

/* ------------------------------------------------------------------------
 * /proc of an ancestor pid namespace: its pids are not ours.
 */
static void ancestor_proc(void)
{
	/* pid 1 of a new namespace, with the parent namespace's /proc */
	pid_t pid;
	int fd;

	pid = spawn_target(TARGET_UID, &fd);
	ASSERT_EQ(getpid(), 1);
	for (int em = 0; em < 2; em++)
		expect_right_or(fd, pid, TARGET_UID, em, ENOSYS);
	expect_self_works();
	util_kill_reap(fd);
}

TEST(proc_of_the_parent_pid_namespace_gives_enosys)
{
	util_in_pidns(ancestor_proc, false);
}

/*
 * The same, for a process whose pid happens to be the same in its own
 * namespace and in the parent's (forced here with clone3's set_tid): /proc
 * then even names it as "self" by its own pid, yet every other pid read
 * there belongs to the parent namespace.
 */
static void same_pid_child(void)
{
	pid_t pid;
	int fd;

	/* In this process (pid P in both namespaces) a child: pid 2 or so here. */
	pid = spawn_target(TARGET_UID, &fd);
	for (int em = 0; em < 2; em++)
		expect_right_or(fd, pid, TARGET_UID, em, ENOSYS);
	util_kill_reap(fd);
}

static void same_pid(void)
{
	pid_t tid[2], got = -1;
	struct util_clone_args a = {
		.exit_signal = SIGCHLD,
		.set_tid = (uint64_t)(uintptr_t)tid,
		.set_tid_size = 2,
	};
	int status;

	/* A pid free both here and in the parent namespace. */
	for (pid_t p = 500 + getppid() % 3000; got < 0 && p < 30000; p += 7) {
		tid[0] = tid[1] = p;
		got = (pid_t)syscall(SYS_clone3, &a, sizeof(a));
		if (got == 0) {
			if (getpid() != p)
				_exit(90);
			same_pid_child();
			fflush(stdout);
			_exit(0);
		}
		if (got < 0 && errno != EEXIST)
			FAIL("clone3 with set_tid {%d, %d}: %s", p, p,
			     strerror(errno));
	}
	ASSERT_GE(got, 1);
	ASSERT_EQ(waitpid(got, &status, 0), got);
	ASSERT_EQ(status, 0);
}

TEST(proc_of_the_parent_pid_namespace_with_the_same_own_pid_gives_enosys)
{
	util_in_pidns(same_pid, false);
}

/*
 * /proc of a child pid namespace: the caller is not in it, so /proc/self
 * does not exist there.
 */
static void descendant_proc(void)
{
	int ready[2], fd, status;
	pid_t init, pid;
	char c;

	pid = spawn_target(TARGET_UID, &fd);
	ASSERT_EQ(pipe(ready), 0);
	ASSERT_EQ(unshare(CLONE_NEWPID), 0);
	init = fork();
	ASSERT_GE(init, 0);
	if (init == 0) {
		/* Same mount namespace as the parent: it gets our /proc. */
		if (mount("proc", "/proc", "proc", 0, NULL) || write(ready[1], "x", 1) != 1)
			_exit(91);
		pause();
		_exit(0);
	}
	ASSERT_EQ(read(ready[0], &c, 1), 1);
	ASSERT_TRUE(access("/proc/self", F_OK) != 0);
	for (int em = 0; em < 2; em++)
		expect_right_or(fd, pid, TARGET_UID, em, ENOSYS);
	expect_self_works();
	kill(init, SIGKILL);
	ASSERT_EQ(waitpid(init, &status, 0), init);
	util_kill_reap(fd);
}

TEST(proc_of_a_child_pid_namespace_gives_enosys)
{
	util_in_private_mounts(descendant_proc);
}

/* ------------------------------------------------------------------------
 * hidepid=2 (invisible) and hidepid=1 (no access), seen by an
 * unprivileged uid: its own processes are answered, others' (another
 * uid's, pid 1, its own uid's when not dumpable) are there but hidden,
 * which is EACCES on the emulated path, never ESRCH (the process is
 * alive), EPERM (hidepid=1's word for the files) nor wrong data.
 */
#define PLAIN_UID 1000u

static void become_undumpable(void *arg)
{
	become_target(arg);
	prctl(PR_SET_DUMPABLE, 0);
}

static void expect_ns_eacces(int fd)
{
	ASSERT_ERRNO(libpidfd_get_namespace(fd, PIDFD_GET_UTS_NAMESPACE),
		     EACCES);
}

static void hidepid_as(const char *opt)
{
	int mine, other, undumpable, init, status;
	pid_t my_pid, other_pid, undumpable_pid, q;
	struct stat st;

	ASSERT_EQ(mount("proc", "/proc", "proc", 0, opt), 0);
	my_pid = spawn_target(PLAIN_UID, &mine);
	other_pid = spawn_target(TARGET_UID, &other);
	undumpable_pid = util_spawn(become_undumpable,
				    (void *)(uintptr_t)PLAIN_UID, &undumpable);
	init = libpidfd_open(1, 0);
	ASSERT_GE(init, 0);
	q = fork();
	ASSERT_GE(q, 0);
	if (q == 0) {
		become_target((void *)(uintptr_t)PLAIN_UID);
		/* Hidden indeed: no entry (2), or one whose files are refused (1). */
		ASSERT_EQ(stat("/proc/1", &st) == 0, strcmp(opt, "hidepid=1") == 0);
		ASSERT_TRUE(access("/proc/1/status", R_OK) != 0);
		for (int em = 0; em < 2; em++) {
			int ns;

			expect_right_or(mine, my_pid, PLAIN_UID, em, 0);
			expect_right_or(other, other_pid, TARGET_UID, em,
					EACCES);
			expect_right_or(undumpable, undumpable_pid, PLAIN_UID,
					em, EACCES);
			expect_right_or(init, 1, 0, em, EACCES);
			/* The kernel's own answer there: ptrace says EACCES. */
			expect_ns_eacces(other);
			expect_ns_eacces(undumpable);
			expect_ns_eacces(init);
			ns = libpidfd_get_namespace(mine, PIDFD_GET_UTS_NAMESPACE);
			ASSERT_GE(ns, 0);
			close(ns);
		}
		expect_self_works();
		fflush(stdout);
		_exit(0);
	}
	ASSERT_EQ(waitpid(q, &status, 0), q);
	ASSERT_EQ(status, 0);
	close(init);
	util_kill_reap(mine);
	util_kill_reap(other);
	util_kill_reap(undumpable);
}

static void hidepid(void)
{
	hidepid_as("hidepid=2");
}

static void hidepid_noaccess(void)
{
	hidepid_as("hidepid=1");
}

TEST(proc_with_hidepid_noaccess_seen_unprivileged_is_eacces)
{
	util_in_private_mounts(hidepid_noaccess);
}

TEST(proc_with_hidepid_seen_unprivileged_never_misleads)
{
	util_in_private_mounts(hidepid);
}

/* ------------------------------------------------------------------------
 * No cgroup2 mount: the emulation cannot resolve a cgroup id and leaves
 * PIDFD_INFO_CGROUPID clear; a cgroup2 mounted anywhere else serves again.
 * The target sits in a cgroup of its own, so that a wrong id shows.
 */
static uint64_t cgroupid_of(int fd, int emulate, bool *have)
{
	struct pidfd_info info = { .mask = PIDFD_INFO_CGROUPID };

	util_set_path(emulate);
	ASSERT_EQ(libpidfd_get_info(fd, &info, sizeof(info)), 0);
	*have = info.mask & PIDFD_INFO_CGROUPID;
	return info.cgroupid;
}

static void no_cgroup2(void)
{
	char dir[600], mnt[] = "/tmp/libpidfd-cg2.XXXXXX";
	const char *m = util_cgroup2_mount();
	uint64_t want, got;
	bool have;
	pid_t pid;
	int fd;

	ASSERT_TRUE(m[0]);
	snprintf(dir, sizeof(dir), "%s/libpidfd-env-%d", m, getpid());
	ASSERT_EQ(mkdir(dir, 0755), 0);
	want = util_cgroup_id(dir);
	pid = spawn_target(TARGET_UID, &fd);
	util_cgroup_move(dir, pid);
	for (int em = 0; em < 2; em++) {
		got = cgroupid_of(fd, em, &have);
		ASSERT_TRUE(have);
		ASSERT_EQ(got, want);
	}
	/* Every cgroup2 mount gone. */
	while ((m = util_cgroup2_mount())[0])
		ASSERT_EQ(umount2(m, MNT_DETACH), 0);
	for (int em = 0; em < 2; em++) {
		got = cgroupid_of(fd, em, &have);
		if (have)
			ASSERT_EQ(got, want);
		else
			ASSERT_TRUE(em || !kernel_answers());
	}
	/* One somewhere else. */
	ASSERT_TRUE(mkdtemp(mnt) != NULL);
	ASSERT_EQ(mount("cgroup2", mnt, "cgroup2", 0, NULL), 0);
	for (int em = 0; em < 2; em++) {
		got = cgroupid_of(fd, em, &have);
		ASSERT_TRUE(have);
		ASSERT_EQ(got, want);
	}
	util_kill_reap(fd);
	snprintf(dir, sizeof(dir), "%s/libpidfd-env-%d", mnt, getpid());
	util_cgroup_remove(dir);
	umount2(mnt, MNT_DETACH);
	rmdir(mnt);
}

TEST(no_cgroup2_mount_leaves_cgroupid_clear_never_wrong)
{
	util_in_private_mounts(no_cgroup2);
}
