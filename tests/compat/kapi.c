/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A program written against the kernel alone, as the kernel's own pidfd
 * selftests are: raw ioctl(), syscall() and the libc wrappers, with its own
 * struct pidfd_info, never the libpidfd header or library. It checks one
 * case of the newest kernel's pidfd interface, given by name:
 *
 *   kapi CASE      prints "ok" (or, for info-reaped, what it got) and
 *                  exits 0 when the call behaves as on the newest kernel;
 *                  otherwise prints "LABEL:ERRNO" for the first step that
 *                  did not, and exits 1.
 *
 * tests/test-compat.c runs every case with and without libpidfd-compat.so
 * and asserts the exact answer expected on each kernel.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/ioctl.h>
#include <linux/types.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../lib/names.h"

#ifdef __GLIBC__
#include <sys/pidfd.h>
#else
/*
 * musl has no wrapper for these calls: a program written for it makes them
 * through syscall(), which the shim interposes, and gets the same answers.
 */
#define pidfd_open(pid, flags) ((int)syscall(SYS_pidfd_open, pid, flags))
#define pidfd_send_signal(fd, sig, info, flags)                               \
	((int)syscall(SYS_pidfd_send_signal, fd, sig, info, flags))
#define pidfd_getfd(fd, target, flags)                                        \
	((int)syscall(SYS_pidfd_getfd, fd, target, flags))
#define process_madvise(fd, iov, n, advice, flags)                            \
	syscall(SYS_process_madvise, fd, iov, n, advice, flags)
#define process_mrelease(fd, flags)                                           \
	((int)syscall(SYS_process_mrelease, fd, flags))
#endif
#ifndef SYS_process_mrelease /* musl 1.2.3's <sys/syscall.h> stops before it */
#define SYS_process_mrelease 448
#endif

/* What the newest <linux/pidfd.h> has and Debian 12's lacks. */
#ifndef PIDFD_SELF_THREAD
#define PIDFD_SELF_THREAD -10000
#endif
#ifndef PIDFD_SELF_THREAD_GROUP
#define PIDFD_SELF_THREAD_GROUP -10001
#endif
#define PIDFS_MAGIC 0xFF
#define INFO_PID (1ULL << 0)
#define INFO_CREDS (1ULL << 1)
#define INFO_EXIT (1ULL << 3)
#define INFO_SUPPORTED_MASK (1ULL << 5)

struct info_v0 { /* the first published layout, 64 bytes */
	__u64 mask, cgroupid;
	__u32 pid, tgid, ppid, ruid, rgid, euid, egid, suid, sgid, fsuid, fsgid;
	__s32 exit_code;
};

struct info_v3 { /* the newest, 88 bytes */
	struct info_v0 v0;
	__u32 coredump_mask, coredump_signal, coredump_code, coredump_pad;
	__u64 supported_mask;
};

#define GET_INFO(size) _IOC(_IOC_READ | _IOC_WRITE, PIDFS_MAGIC, 11, size)
#define GET_INFO_V0 GET_INFO(sizeof(struct info_v0))
#define GET_INFO_V3 GET_INFO(sizeof(struct info_v3))
#define GET_NS(n) _IO(PIDFS_MAGIC, n)
#define NS_USER 9
#define NS_UTS 10

static const char *const ns_names[] = {
	NULL, "cgroup", "ipc", "mnt", "net", "pid", "pid_for_children",
	"time", "time_for_children", "user", "uts",
};

/* Report the first step that differs from the newest kernel, and stop. */
static void __attribute__((noreturn)) fail(const char *label, int err)
{
	if (err)
		printf("%s:%s\n", label, lpfd_errno_name(err));
	else
		printf("%s\n", label);
	fflush(stdout);
	exit(1);
}

/* A call that must succeed. */
#define MUST(label, call)                                                     \
	do {                                                                  \
		errno = 0;                                                    \
		if ((long)(call) < 0)                                         \
			fail(label, errno);                                   \
	} while (0)

/* A call that must fail with this errno. */
#define MUST_FAIL(label, call, err)                                           \
	do {                                                                  \
		errno = 0;                                                    \
		long _r = (long)(call);                                       \
		if (_r >= 0)                                                  \
			fail(label, 0);                                       \
		if (errno != (err))                                           \
			fail(label, errno);                                   \
	} while (0)

#define EXPECT(label, cond)                                                   \
	do {                                                                  \
		if (!(cond))                                                  \
			fail(label, 0);                                       \
	} while (0)

static int open_pidfd(pid_t pid)
{
	int fd = pidfd_open(pid, 0);

	if (fd < 0)
		fail("pidfd_open", errno);
	return fd;
}

/* Run fn in a new thread and fail with its label if it returned one. */
static void in_thread(void *(*fn)(void *), void *arg)
{
	pthread_t t;
	void *res;

	if (pthread_create(&t, NULL, fn, arg) || pthread_join(t, &res))
		fail("pthread", errno);
	if (res)
		fail((const char *)res, 0);
}

/* A child that waits until its end of the pipe closes (or it is killed). */
static pid_t spawn_waiting_child(int *release_fd, void (*setup)(void))
{
	int go[2], ready[2];
	char c = 0;
	pid_t pid;

	if (pipe(go) || pipe(ready))
		fail("pipe", errno);
	pid = fork();
	if (pid < 0)
		fail("fork", errno);
	if (pid == 0) {
		close(go[1]);
		close(ready[0]);
		if (setup)
			setup();
		if (write(ready[1], &c, 1) != 1)
			_exit(2);
		(void)!read(go[0], &c, 1);
		_exit(0);
	}
	close(go[0]);
	close(ready[1]);
	if (read(ready[0], &c, 1) != 1)
		fail("child-ready", errno);
	close(ready[0]);
	*release_fd = go[1];
	return pid;
}

static void release_and_reap(int release_fd, pid_t pid)
{
	close(release_fd);
	waitpid(pid, NULL, 0);
}

/* ---- PIDFD_GET_INFO ---------------------------------------------------- */

static void expect_self_info(const char *label, const struct info_v0 *i)
{
	uid_t r, e, s;

	getresuid(&r, &e, &s);
	EXPECT(label, (i->mask & (INFO_PID | INFO_CREDS)) ==
			      (INFO_PID | INFO_CREDS));
	EXPECT(label, i->pid == (__u32)getpid() && i->tgid == (__u32)getpid());
	EXPECT(label, i->ppid == (__u32)getppid());
	EXPECT(label, i->ruid == r && i->euid == e && i->suid == s);
	EXPECT(label, i->rgid == getgid() && i->egid == getegid());
}

static int case_info_self(void)
{
	int fd = open_pidfd(getpid());
	struct info_v0 v0 = { 0 };
	struct info_v3 v3 = { 0 };

	MUST("v0", ioctl(fd, GET_INFO_V0, &v0));
	expect_self_info("v0", &v0);
	MUST("v3", ioctl(fd, GET_INFO_V3, &v3));
	expect_self_info("v3", &v3.v0);
	memset(&v3, 0, sizeof(v3));
	MUST("syscall", syscall(SYS_ioctl, fd, GET_INFO_V3, &v3));
	expect_self_info("syscall", &v3.v0);
	/* The kernel takes the command as 32 bits (where long has more). */
	memset(&v3, 0, sizeof(v3));
#ifdef __GLIBC__
	MUST("high-bits",
	     ioctl(fd, GET_INFO_V3 | (unsigned long)(1ULL << 32), &v3));
#else
	/* musl's ioctl() takes an int: high bits come through syscall() alone. */
	MUST("high-bits", syscall(SYS_ioctl, fd,
				  GET_INFO_V3 | (unsigned long)(1ULL << 32), &v3));
#endif
	expect_self_info("high-bits", &v3.v0);
	return 0;
}

/* The newest kernel says what it supports when asked (6.19). */
static int case_info_supported(void)
{
	int fd = open_pidfd(getpid());
	struct info_v3 v3 = { 0 };

	v3.v0.mask = INFO_PID | INFO_SUPPORTED_MASK;
	MUST("v3", ioctl(fd, GET_INFO_V3, &v3));
	if (!(v3.v0.mask & INFO_SUPPORTED_MASK) ||
	    !(v3.supported_mask & INFO_PID))
		fail("no-supported-mask", 0);
	return 0;
}

static void become_other_user(void)
{
	if (setresgid(4, 5, 6) || setresuid(1, 2, 3))
		_exit(3);
}

static int case_info_child(void)
{
	struct info_v3 v3 = { 0 };
	int release, fd;
	pid_t pid = spawn_waiting_child(&release, become_other_user);

	fd = open_pidfd(pid);
	MUST("child", ioctl(fd, GET_INFO_V3, &v3));
	EXPECT("child-pid", v3.v0.pid == (__u32)pid && v3.v0.tgid == (__u32)pid);
	EXPECT("child-ppid", v3.v0.ppid == (__u32)getpid());
	EXPECT("child-uid", v3.v0.ruid == 1 && v3.v0.euid == 2 &&
				    v3.v0.suid == 3 && v3.v0.fsuid == 2);
	EXPECT("child-gid", v3.v0.rgid == 4 && v3.v0.egid == 5 &&
				    v3.v0.sgid == 6 && v3.v0.fsgid == 5);
	release_and_reap(release, pid);
	return 0;
}

/*
 * Exit status exists only once the process is reaped, never for a zombie.
 * Prints what the reaped process gave: "exit" (the status), or the errno.
 */
static int case_info_reaped(void)
{
	struct info_v3 v3 = { .v0.mask = INFO_EXIT };
	siginfo_t si;
	pid_t pid = fork();
	int fd;

	if (pid == 0)
		_exit(42);
	fd = open_pidfd(pid);
	MUST("zombie-wait", waitid(P_PID, pid, &si, WEXITED | WNOWAIT));
	MUST("zombie", ioctl(fd, GET_INFO_V3, &v3));
	EXPECT("zombie-exit", !(v3.v0.mask & INFO_EXIT));
	EXPECT("zombie-pid", v3.v0.pid == (__u32)pid);
	MUST("reap", waitpid(pid, NULL, 0));
	memset(&v3, 0, sizeof(v3));
	MUST_FAIL("reaped-noexit", ioctl(fd, GET_INFO_V3, &v3), ESRCH);
	v3.v0.mask = INFO_EXIT;
	if (ioctl(fd, GET_INFO_V3, &v3) < 0) {
		printf("%s\n", lpfd_errno_name(errno));
		return 0;
	}
	EXPECT("reaped-mask", v3.v0.mask & INFO_EXIT);
	EXPECT("reaped-code", WIFEXITED(v3.v0.exit_code) &&
				      WEXITSTATUS(v3.v0.exit_code) == 42);
	printf("exit\n");
	return 0;
}

/* The extensible-ioctl rules: the size comes from the command. */
static int case_info_encoding(void)
{
	unsigned char big[128], small[64];
	int fd = open_pidfd(getpid()), p[2];
	void *ro;
	struct info_v0 *v0 = (struct info_v0 *)big;

	MUST_FAIL("size32", ioctl(fd, GET_INFO(32), small), ENOTTY);
	MUST_FAIL("size63", ioctl(fd, GET_INFO(63), small), ENOTTY);
	MUST_FAIL("size32-null", ioctl(fd, GET_INFO(32), NULL), ENOTTY);
	MUST_FAIL("null", ioctl(fd, GET_INFO_V3, NULL), EINVAL);
	MUST_FAIL("syscall-null", syscall(SYS_ioctl, fd, GET_INFO_V0, NULL),
		  EINVAL);
	MUST_FAIL("syscall-size32", syscall(SYS_ioctl, fd, GET_INFO(32), small),
		  ENOTTY);
	MUST_FAIL("dir-read", ioctl(fd, _IOC(_IOC_READ, PIDFS_MAGIC, 11, 88),
				    big), ENOTTY);
	memset(big, 0xa5, sizeof(big));
	v0->mask = 0;
	MUST("tail", ioctl(fd, GET_INFO(sizeof(big)), big));
	expect_self_info("tail", v0);
	for (size_t i = sizeof(struct info_v3); i < sizeof(big); i++)
		EXPECT("tail-zeroed", big[i] == 0);
	if (pipe(p))
		fail("pipe", errno);
	MUST_FAIL("pipe", ioctl(p[0], GET_INFO_V3, big), ENOTTY);
	MUST_FAIL("pipe-null", ioctl(p[0], GET_INFO_V3, NULL), ENOTTY);
	MUST_FAIL("pipe-ns", ioctl(p[0], GET_NS(NS_UTS), 0), ENOTTY);
	close(p[1]);
	MUST_FAIL("closed", ioctl(p[1], GET_INFO_V3, big), EBADF);
	MUST_FAIL("sentinel", ioctl(PIDFD_SELF_THREAD, GET_INFO_V3, big), EBADF);
	MUST_FAIL("other-nr", ioctl(fd, _IO(PIDFS_MAGIC, 12), 0), ENOTTY);
	/* Memory the kernel faults on is EFAULT, never a crash. */
	MUST_FAIL("bad-pointer", ioctl(fd, GET_INFO_V3, (void *)1), EFAULT);
	ro = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (ro == MAP_FAILED)
		fail("mmap", errno);
	MUST_FAIL("read-only", ioctl(fd, GET_INFO_V3, ro), EFAULT);
	return 0;
}

/* ---- the sentinels in every call -------------------------------------- */

static volatile pthread_t signalled;

static void on_usr1(int sig)
{
	(void)sig;
	signalled = pthread_self();
}

/* The signal must have reached exactly the calling thread. */
static const char *signal_self(const char *label, int pidfd, bool via_syscall)
{
	long r;

	signalled = 0;
	r = via_syscall ? syscall(SYS_pidfd_send_signal, pidfd, SIGUSR1, NULL, 0)
			: pidfd_send_signal(pidfd, SIGUSR1, NULL, 0);
	if (r < 0) {
		static char buf[64];

		snprintf(buf, sizeof(buf), "%s:%s", label, lpfd_errno_name(errno));
		return buf;
	}
	return pthread_equal(signalled, pthread_self()) ? NULL : label;
}

static void *signal_thread(void *arg)
{
	(void)arg;
	const char *r = signal_self("thread", PIDFD_SELF_THREAD, false);

	return (void *)(r ? r : signal_self("thread-syscall", PIDFD_SELF_THREAD,
					    true));
}

static void expect_none(const char *res)
{
	if (res) {
		printf("%s\n", res);
		exit(1);
	}
}

static int case_send_signal(void)
{
	int fd = open_pidfd(getpid());

	signal(SIGUSR1, on_usr1);
	expect_none(signal_self("group", PIDFD_SELF_THREAD_GROUP, false));
	expect_none(signal_self("self", PIDFD_SELF_THREAD, false));
	expect_none(signal_self("group-syscall", PIDFD_SELF_THREAD_GROUP, true));
	expect_none(signal_self("fd", fd, false));
	in_thread(signal_thread, NULL);
	return 0;
}

/* A memfd holding one byte, as the seeds' getfd test uses. */
static int memfd_with(char c)
{
	int fd = memfd_create("compat", 0);

	if (fd < 0 || pwrite(fd, &c, 1, 0) != 1)
		fail("memfd", errno);
	return fd;
}

static bool same_file_holding(int fd, char c)
{
	char got = 0;

	return pread(fd, &got, 1, 0) == 1 && got == c;
}

static void *getfd_thread(void *arg)
{
	int memfd, newfd;

	(void)arg;
	/* Its own file table: the leader's no longer has what it opens. */
	if (unshare(CLONE_FILES))
		return "unshare";
	memfd = memfd_with('y');
	newfd = pidfd_getfd(PIDFD_SELF_THREAD, memfd, 0);
	if (newfd < 0)
		return errno == EBADF ? "thread:EBADF" : "thread";
	if (newfd == memfd || !same_file_holding(newfd, 'y'))
		return "thread-file";
	errno = 0;
	if (pidfd_getfd(PIDFD_SELF_THREAD_GROUP, memfd, 0) >= 0 || errno != EBADF)
		return "leader-table";
	close(newfd);
	close(memfd);
	return NULL;
}

static int case_getfd(void)
{
	int memfd = memfd_with('x'), newfd;

	MUST("group", newfd = pidfd_getfd(PIDFD_SELF_THREAD_GROUP, memfd, 0));
	EXPECT("group-file", newfd != memfd && same_file_holding(newfd, 'x'));
	close(newfd);
	MUST("self", newfd = pidfd_getfd(PIDFD_SELF_THREAD, memfd, 0));
	EXPECT("self-file", same_file_holding(newfd, 'x'));
	close(newfd);
	MUST("syscall", newfd = (int)syscall(SYS_pidfd_getfd,
					     PIDFD_SELF_THREAD_GROUP, memfd, 0));
	EXPECT("syscall-file", same_file_holding(newfd, 'x'));
	close(newfd);
	in_thread(getfd_thread, NULL);
	return 0;
}

static struct iovec madvise_range(void)
{
	size_t len = 4 * (size_t)sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		fail("mmap", errno);
	memset(p, 1, len);
	return (struct iovec){ .iov_base = p, .iov_len = len };
}

static void *madvise_thread(void *arg)
{
	struct iovec *iov = arg;

	if (process_madvise(PIDFD_SELF_THREAD, iov, 1, MADV_COLD, 0) !=
	    (ssize_t)iov->iov_len)
		return errno == EBADF ? "thread:EBADF" : "thread";
	return NULL;
}

static int case_madvise(void)
{
	struct iovec iov = madvise_range();
	int fd = open_pidfd(getpid());
	ssize_t n;

	MUST("group", n = process_madvise(PIDFD_SELF_THREAD_GROUP, &iov, 1,
					  MADV_COLD, 0));
	EXPECT("group-len", n == (ssize_t)iov.iov_len);
	MUST("syscall", n = syscall(SYS_process_madvise, PIDFD_SELF_THREAD,
				    &iov, 1, MADV_COLD, 0));
	EXPECT("syscall-len", n == (ssize_t)iov.iov_len);
	MUST("fd", n = process_madvise(fd, &iov, 1, MADV_COLD, 0));
	EXPECT("fd-len", n == (ssize_t)iov.iov_len);
	in_thread(madvise_thread, &iov);
	return 0;
}

/* A live process has no memory to release: EINVAL, the sentinels included. */
static void *mrelease_thread(void *arg)
{
	(void)arg;
	errno = 0;
	if (process_mrelease(PIDFD_SELF_THREAD, 0) == 0 || errno != EINVAL)
		return errno == EBADF ? "thread:EBADF" : "thread";
	return NULL;
}

static int case_mrelease(void)
{
	int release, fd;
	pid_t pid = spawn_waiting_child(&release, NULL);

	fd = open_pidfd(pid);
	MUST_FAIL("group", process_mrelease(PIDFD_SELF_THREAD_GROUP, 0), EINVAL);
	MUST_FAIL("self", process_mrelease(PIDFD_SELF_THREAD, 0), EINVAL);
	MUST_FAIL("syscall", syscall(SYS_process_mrelease,
				     PIDFD_SELF_THREAD_GROUP, 0), EINVAL);
	MUST_FAIL("child", process_mrelease(fd, 0), EINVAL);
	in_thread(mrelease_thread, NULL);
	release_and_reap(release, pid);
	return 0;
}

/* A process is never its own child: ECHILD at once, never a hang. */
static void *waitid_thread(void *arg)
{
	siginfo_t si;

	(void)arg;
	errno = 0;
	if (waitid(P_PIDFD, (id_t)PIDFD_SELF_THREAD, &si, WEXITED) == 0 ||
	    errno != ECHILD)
		return errno == EINVAL ? "thread:EINVAL" : "thread";
	return NULL;
}

static int case_waitid(void)
{
	siginfo_t si = { 0 };
	pid_t pid;
	int fd;

	MUST_FAIL("group", waitid(P_PIDFD, (id_t)PIDFD_SELF_THREAD_GROUP, &si,
				  WEXITED), ECHILD);
	MUST_FAIL("self-nohang", waitid(P_PIDFD, (id_t)PIDFD_SELF_THREAD, &si,
					WEXITED | WNOHANG), ECHILD);
	MUST_FAIL("syscall", syscall(SYS_waitid, P_PIDFD, PIDFD_SELF_THREAD, &si,
				     WEXITED, NULL), ECHILD);
	in_thread(waitid_thread, NULL);
	pid = fork();
	if (pid == 0)
		_exit(7);
	fd = open_pidfd(pid);
	MUST("child", waitid(P_PIDFD, (id_t)fd, &si, WEXITED));
	EXPECT("child-status", si.si_pid == pid && si.si_status == 7);
	MUST_FAIL("child-again", waitid(P_PIDFD, (id_t)fd, &si, WEXITED), ECHILD);
	return 0;
}

/* setns() is not wrapped: the kernel refuses the sentinels. */
static int case_setns(void)
{
	MUST_FAIL("thread", setns(PIDFD_SELF_THREAD, 0), EBADF);
	MUST_FAIL("group", setns(PIDFD_SELF_THREAD_GROUP, 0), EBADF);
	MUST_FAIL("syscall", syscall(SYS_setns, PIDFD_SELF_THREAD, 0), EBADF);
	return 0;
}

/* ---- PIDFD_GET_*_NAMESPACE --------------------------------------------- */

/* The namespace fd names what /proc/<pid>/ns/<name> names (if it exists). */
static void expect_ns(const char *label, int pidfd, pid_t pid, int n,
		      bool via_syscall)
{
	char path[64];
	struct stat want, got;
	long nsfd;
	int err;

	snprintf(path, sizeof(path), "/proc/%d/ns/%s", pid, ns_names[n]);
	errno = 0;
	nsfd = via_syscall ? syscall(SYS_ioctl, pidfd, GET_NS(n), 0)
			   : ioctl(pidfd, GET_NS(n), 0);
	err = errno;
	if (stat(path, &want) < 0) {
		/* A namespace type this kernel was built without. */
		if (nsfd >= 0 || err != EOPNOTSUPP)
			fail(label, nsfd >= 0 ? 0 : err);
		return;
	}
	if (nsfd < 0)
		fail(label, err);
	if (fstat((int)nsfd, &got) < 0)
		fail(label, errno);
	EXPECT(label, got.st_ino == want.st_ino && got.st_dev == want.st_dev);
	close((int)nsfd);
}

static void new_uts(void)
{
	if (unshare(CLONE_NEWUTS))
		_exit(3);
}

static int case_ns(void)
{
	int fd = open_pidfd(getpid()), release, cfd;
	struct stat mine, theirs;
	siginfo_t si;
	pid_t pid;
	long nsfd;

	for (int n = 1; n <= 10; n++)
		expect_ns(ns_names[n], fd, getpid(), n, false);
	expect_ns("syscall", fd, getpid(), NS_USER, true);
	MUST_FAIL("arg", ioctl(fd, GET_NS(NS_UTS), 1), EINVAL);
	pid = spawn_waiting_child(&release, new_uts);
	cfd = open_pidfd(pid);
	expect_ns("child", cfd, pid, NS_UTS, false);
	MUST("child-uts", nsfd = ioctl(cfd, GET_NS(NS_UTS), 0));
	if (fstat((int)nsfd, &theirs) || stat("/proc/self/ns/uts", &mine))
		fail("stat", errno);
	EXPECT("child-own-uts", theirs.st_ino != mine.st_ino);
	close(release);
	MUST("reap", waitid(P_PID, pid, &si, WEXITED));
	MUST_FAIL("reaped", ioctl(cfd, GET_NS(NS_UTS), 0), ESRCH);
	MUST_FAIL("reaped-arg", ioctl(cfd, GET_NS(NS_UTS), 1), ESRCH);
	return 0;
}

static const struct {
	const char *name;
	int (*fn)(void);
} cases[] = {
	{ "info-self", case_info_self },
	{ "info-child", case_info_child },
	{ "info-reaped", case_info_reaped },
	{ "info-supported", case_info_supported },
	{ "info-encoding", case_info_encoding },
	{ "send-signal", case_send_signal },
	{ "getfd", case_getfd },
	{ "madvise", case_madvise },
	{ "mrelease", case_mrelease },
	{ "waitid", case_waitid },
	{ "setns", case_setns },
	{ "ns", case_ns },
};

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s CASE\n", argv[0]);
		return 2;
	}
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (strcmp(argv[1], cases[i].name) == 0) {
			int r = cases[i].fn();

			if (r == 0 && strcmp(argv[1], "info-reaped") != 0)
				printf("ok\n");
			return r;
		}
	}
	fprintf(stderr, "%s: no case %s\n", argv[0], argv[1]);
	return 2;
}
