/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Errno parity, fd kind by fd kind: every kind of descriptor a caller may
 * hand over by mistake (and a thread's pidfd) against every function that
 * takes a pidfd, on both library paths, in every mode. Each cell must give
 * what the newest kernel we run gives natively, measured on Linux 6.18
 * with the raw system calls and ioctls (below). libpidfd_getpid has no
 * kernel counterpart: its column is its man page's (EBADF for anything
 * that is not a pidfd). Where the kernel lacks a call altogether (the
 * probe table says so, never the version), the library passes the call
 * on and the kernel's ENOSYS is the answer for every kind.
 *
 * Every failing cell is printed, then the test fails.
 */
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/wait.h>

#include <libpidfd.h>

#include "harness.h"
#include "internal.h"
#include "util.h"

#ifndef MADV_COLD
#define MADV_COLD 20
#endif

enum kind {
	K_OPATH, K_DIR, K_REGULAR, K_SOCKET, K_EPOLL, K_MEMFD, K_PIPE,
	K_EVENTFD, K_PROC_SELF, K_THREAD, K_CLOSED, KINDS
};

static const char *const kind_name[KINDS] = {
	"an O_PATH file", "a directory", "a regular file", "a socket",
	"an epoll", "a memfd", "a pipe", "an eventfd", "/proc/self",
	"a thread's pidfd", "a closed number",
};

enum fn {
	C_GET_INFO, C_GETPID, C_SEND_SIGNAL, C_GETFD, C_MADVISE, C_MRELEASE,
	C_WAITID, C_GET_NAMESPACE, C_PROC_OPEN, C_PROC_READLINK, CALLS
};

#define OK 0

/*
 * Linux 6.18, raw: ioctl(PIDFD_GET_INFO), pidfd_send_signal(fd, 0, NULL,
 * 0), pidfd_getfd(fd, 0, 0), process_madvise(fd, one page, MADV_COLD, 0),
 * process_mrelease(fd, 0), waitid(P_PIDFD, fd, WEXITED | WNOHANG) and
 * ioctl(PIDFD_GET_UTS_NAMESPACE). The thread is another thread of the
 * caller's, not its leader: the process-wide calls find no process there.
 * libpidfd_proc_open ("status") and libpidfd_proc_readlink ("ns/uts")
 * have none either: theirs are their man pages' (EBADF for anything that
 * is not a pidfd; a thread's pidfd names /proc/<tid>).
 */
static const int want[KINDS][CALLS] = {
	/*              get_info getpid send_sig getfd  madvise mrelease waitid  get_ns  proc_open p_readlink */
	[K_OPATH]     = { EBADF,  EBADF, EBADF,   EBADF, EBADF,  EBADF,   EBADF,  EBADF,  EBADF, EBADF },
	[K_DIR]       = { ENOTTY, EBADF, EBADF,   EBADF, EBADF,  EBADF,   EBADF,  ENOTTY, EBADF, EBADF },
	[K_REGULAR]   = { ENOTTY, EBADF, EBADF,   EBADF, EBADF,  EBADF,   EBADF,  ENOTTY, EBADF, EBADF },
	[K_SOCKET]    = { ENOTTY, EBADF, EBADF,   EBADF, EBADF,  EBADF,   EBADF,  ENOTTY, EBADF, EBADF },
	[K_EPOLL]     = { EINVAL, EBADF, EBADF,   EBADF, EBADF,  EBADF,   EBADF,  EINVAL, EBADF, EBADF },
	[K_MEMFD]     = { ENOTTY, EBADF, EBADF,   EBADF, EBADF,  EBADF,   EBADF,  ENOTTY, EBADF, EBADF },
	[K_PIPE]      = { ENOTTY, EBADF, EBADF,   EBADF, EBADF,  EBADF,   EBADF,  ENOTTY, EBADF, EBADF },
	[K_EVENTFD]   = { ENOTTY, EBADF, EBADF,   EBADF, EBADF,  EBADF,   EBADF,  ENOTTY, EBADF, EBADF },
	/* A /proc/<pid> directory names a process to pidfd_send_signal(2). */
	[K_PROC_SELF] = { ENOTTY, EBADF, OK,      EBADF, EBADF,  EBADF,   EBADF,  ENOTTY, EBADF, EBADF },
	[K_THREAD]    = { OK,     OK,    OK,      OK,    ESRCH,  ESRCH,   ECHILD, OK,     OK,    OK },
	[K_CLOSED]    = { EBADF,  EBADF, EBADF,   EBADF, EBADF,  EBADF,   EBADF,  EBADF,  EBADF, EBADF },
};

/* The kernel call behind each function, where there is one to lack. */
static const int needs[CALLS] = {
	[C_GET_INFO] = -1, [C_GETPID] = -1, [C_GET_NAMESPACE] = -1,
	[C_PROC_OPEN] = -1, [C_PROC_READLINK] = -1,
	[C_SEND_SIGNAL] = LPFD_FEAT_SEND_SIGNAL,
	[C_GETFD] = LPFD_FEAT_GETFD,
	[C_MADVISE] = LPFD_FEAT_PROCESS_MADVISE,
	[C_MRELEASE] = LPFD_FEAT_PROCESS_MRELEASE,
	[C_WAITID] = LPFD_FEAT_WAITID_PIDFD,
};

static struct {
	int fd[KINDS];
	bool have[KINDS];
	pid_t tid;
	int wake[2];
} T;

static void *idle_thread(void *arg)
{
	(void)arg;
	T.tid = gettid();
	if (write(T.wake[1], "", 1) != 1)
		abort();
	for (;;)
		pause();
	return NULL;
}

/* A pidfd of a thread that is not the leader, if the kernel has them. */
static void open_thread_pidfd(void)
{
	pthread_t th;
	char c;
	int has = lpfd_kernel_has(LPFD_FEAT_PIDFD_THREAD);

	ASSERT_EQ(pipe2(T.wake, O_CLOEXEC), 0);
	ASSERT_EQ(pthread_create(&th, NULL, idle_thread, NULL), 0);
	ASSERT_EQ(read(T.wake[0], &c, 1), 1);
	ASSERT_GE(has, 0);
	if (!has) {
		/* No such descriptor can exist: the row is the kernel's EINVAL. */
		ASSERT_ERRNO(libpidfd_open(T.tid, PIDFD_THREAD), EINVAL);
		return;
	}
	T.fd[K_THREAD] = libpidfd_open(T.tid, PIDFD_THREAD);
	ASSERT_GE(T.fd[K_THREAD], 0);
	T.have[K_THREAD] = true;
}

static void open_every_kind(void)
{
	int p[2];

	ASSERT_EQ(pipe2(p, O_CLOEXEC), 0);
	T.fd[K_OPATH] = open("/proc/self/exe", O_PATH | O_CLOEXEC);
	T.fd[K_DIR] = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	T.fd[K_REGULAR] = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	T.fd[K_SOCKET] = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	T.fd[K_EPOLL] = epoll_create1(EPOLL_CLOEXEC);
	T.fd[K_MEMFD] = memfd_create("errno-table", MFD_CLOEXEC);
	T.fd[K_PIPE] = p[0];
	T.fd[K_EVENTFD] = eventfd(0, EFD_CLOEXEC);
	T.fd[K_PROC_SELF] = open("/proc/self", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	/* Above any descriptor this test opens, and closed. */
	T.fd[K_CLOSED] = 900;
	close(T.fd[K_CLOSED]);
	for (int k = 0; k < KINDS; k++) {
		if (k == K_THREAD)
			continue;
		if (k != K_CLOSED && T.fd[k] < 0)
			FAIL("cannot open %s: %s", kind_name[k], strerror(errno));
		T.have[k] = true;
	}
	open_thread_pidfd();
}

/* The status file of what fd names, its Pid checked; read and closed. */
static long proc_open_status(int fd, const char *kind)
{
	char buf[2048], want[32];
	int s = libpidfd_proc_open(fd, "status", O_RDONLY);

	if (s < 0)
		return -1;
	util_read_close(s, buf, sizeof(buf));
	snprintf(want, sizeof(want), "\nPid:\t%d\n", (int)T.tid);
	if (!strstr(buf, want))
		FAIL("proc_open on %s: not the thread's status", kind);
	return 0;
}

/*
 * One call; its result as OK (with the value checked where one is known)
 * or its errno. A descriptor it returns is closed.
 */
static int call(enum fn f, enum kind k)
{
	struct pidfd_info info = { .mask = PIDFD_INFO_CREDS };
	siginfo_t si;
	char link[64];
	int fd = T.fd[k];
	long r = -1;

	errno = 0;
	switch (f) {
	case C_GET_INFO:
		r = libpidfd_get_info(fd, &info, sizeof(info));
		if (r == 0 && info.pid != (uint32_t)T.tid)
			FAIL("get_info on %s: pid %u", kind_name[k], info.pid);
		break;
	case C_GETPID:
		r = libpidfd_getpid(fd);
		if (r >= 0 && r != T.tid)
			FAIL("getpid on %s: %ld", kind_name[k], r);
		break;
	case C_SEND_SIGNAL:
		r = libpidfd_send_signal(fd, 0, NULL, 0);
		break;
	case C_GETFD:
		r = libpidfd_getfd(fd, 0, 0);
		break;
	case C_MADVISE:
		r = util_madvise_page(fd, MADV_COLD, 0);
		break;
	case C_MRELEASE:
		r = libpidfd_process_mrelease(fd, 0);
		break;
	case C_WAITID:
		r = libpidfd_waitid(fd, &si, WEXITED | WNOHANG, NULL);
		break;
	case C_GET_NAMESPACE:
		r = libpidfd_get_namespace(fd, PIDFD_GET_UTS_NAMESPACE);
		break;
	case C_PROC_OPEN:
		r = proc_open_status(fd, kind_name[k]);
		break;
	case C_PROC_READLINK:
		r = libpidfd_proc_readlink(fd, "ns/uts", link, sizeof(link));
		break;
	default:
		FAIL("no function %d", f);
	}
	if (r >= 0 && (f == C_GETFD || f == C_GET_NAMESPACE))
		close((int)r);
	if (r >= 0)
		return OK;
	if (r != -1 || errno == 0)
		FAIL("%ld with errno %d", r, errno);
	return errno;
}

static const char *name_of(int e)
{
	return e == OK ? "success" : lpfd_errno_name(e) ? lpfd_errno_name(e) : "?";
}

/* One function's column, every kind, both paths; every wrong cell told. */
static void column(enum fn f, const char *fname)
{
	int wrong = 0, lacks = 0;

	if (needs[f] >= 0) {
		int has = lpfd_kernel_has((enum lpfd_feature)needs[f]);

		ASSERT_GE(has, 0);
		lacks = !has;
	}
	open_every_kind();
	for (int path = 0; path < 2; path++) {
		util_set_path(path);
		for (int k = 0; k < KINDS; k++) {
			int w = lacks ? ENOSYS : want[k][f], got;

			if (!T.have[k])
				continue;
			got = call(f, (enum kind)k);
			if (got == w)
				continue;
			printf("# %s on %s (%s path): want %s, got %s\n", fname,
			       kind_name[k], path ? "emulated" : "native",
			       name_of(w), name_of(got));
			wrong++;
		}
	}
	if (wrong)
		FAIL("%s: %d cell(s) differ from the reference", fname, wrong);
}

TEST(errno_table_get_info) { column(C_GET_INFO, "get_info"); }
TEST(errno_table_getpid) { column(C_GETPID, "getpid"); }
TEST(errno_table_send_signal) { column(C_SEND_SIGNAL, "send_signal"); }
TEST(errno_table_getfd) { column(C_GETFD, "getfd"); }
TEST(errno_table_process_madvise) { column(C_MADVISE, "process_madvise"); }
TEST(errno_table_process_mrelease) { column(C_MRELEASE, "process_mrelease"); }
TEST(errno_table_waitid) { column(C_WAITID, "waitid"); }
TEST(errno_table_get_namespace) { column(C_GET_NAMESPACE, "get_namespace"); }
TEST(errno_table_proc_open) { column(C_PROC_OPEN, "proc_open"); }
TEST(errno_table_proc_readlink) { column(C_PROC_READLINK, "proc_readlink"); }

/* ------------------------------------------------------------------------
 * libpidfd_open, pid by pid: the newest kernel's answer on every kernel.
 * A thread that is not its group's leader is ENOENT since 6.16 ("pidfd:
 * improve uapi when task isn't found"; EINVAL before, which the library
 * converts); a pid that names nothing ESRCH, one that cannot name a
 * process EINVAL, and an unknown flag EINVAL before the pid is looked at.
 */
static int open_errno(pid_t pid, unsigned int flags)
{
	int fd;

	errno = 0;
	fd = libpidfd_open(pid, flags);
	if (fd >= 0) {
		close(fd);
		return OK;
	}
	return errno;
}

static void open_rows(void *arg)
{
	int thread_pidfds = lpfd_kernel_has(LPFD_FEAT_PIDFD_THREAD) > 0;
	pid_t gone, me = getpid();
	int fd, bad = 0, nb;

	(void)arg;
	gone = util_zombie(0, &fd);
	ASSERT_EQ(waitpid(gone, NULL, 0), gone);
	close(fd);
	/* PIDFD_NONBLOCK came in 5.10: before, it is unknown, EINVAL. */
	fd = (int)syscall(SYS_pidfd_open, me, PIDFD_NONBLOCK);
	nb = fd >= 0 ? OK : EINVAL;
	if (fd >= 0)
		close(fd);
	const struct { pid_t pid; unsigned int flags; int want; const char *what; } row[] = {
		{ me, 0, OK, "itself" },
		{ me, PIDFD_NONBLOCK, nb, "itself, PIDFD_NONBLOCK" },
		{ T.tid, 0, ENOENT, "a thread, not the leader" },
		{ T.tid, PIDFD_NONBLOCK, nb == OK ? ENOENT : EINVAL,
		  "a thread, PIDFD_NONBLOCK" },
		{ T.tid, PIDFD_THREAD, thread_pidfds ? OK : EINVAL,
		  "a thread, PIDFD_THREAD" },
		{ gone, 0, ESRCH, "a reaped child" },
		{ INT_MAX, 0, ESRCH, "above pid_max" },
		{ 0, 0, EINVAL, "pid 0" },
		{ -1, 0, EINVAL, "pid -1" },
		{ INT_MIN, PIDFD_NONBLOCK, EINVAL, "INT_MIN" },
		{ me, 1, EINVAL, "an unknown flag" },
		{ me, O_CLOEXEC, EINVAL, "O_CLOEXEC" },
		{ T.tid, 0x40000000, EINVAL, "a thread, an unknown flag" },
		{ 0, 0x40000000, EINVAL, "pid 0, an unknown flag" },
	};

	for (size_t i = 0; i < UTIL_COUNT(row); i++) {
		int got = open_errno(row[i].pid, row[i].flags);

		if (got == row[i].want)
			continue;
		printf("# open(%s): %s, want %s\n", row[i].what,
		       lpfd_errno_name(got) ?: "OK",
		       lpfd_errno_name(row[i].want) ?: "OK");
		bad++;
	}
	ASSERT_EQ(bad, 0);
}

TEST(errno_table_open)
{
	pthread_t th;
	char c;

	ASSERT_EQ(pipe2(T.wake, O_CLOEXEC), 0);
	ASSERT_EQ(pthread_create(&th, NULL, idle_thread, NULL), 0);
	ASSERT_EQ(read(T.wake[0], &c, 1), 1);
	util_both_paths(open_rows, NULL);
}

/*
 * Flags no kernel takes, on a live child's pidfd and on a sentinel: EINVAL
 * from every call, or, for the child's pidfd, ENOSYS where the kernel
 * lacks the call altogether (a sentinel is the library's own: EINVAL).
 */
static int call_flags(int fd, int f, unsigned int flags)
{
	siginfo_t si;
	long r;

	errno = 0;
	switch (f) {
	case C_SEND_SIGNAL: r = libpidfd_send_signal(fd, 0, NULL, flags); break;
	case C_GETFD: r = libpidfd_getfd(fd, 0, flags); break;
	case C_MADVISE: r = util_madvise_page(fd, MADV_COLD, flags); break;
	case C_MRELEASE: r = libpidfd_process_mrelease(fd, flags); break;
	default: r = libpidfd_waitid(fd, &si, (int)flags, NULL); break;
	}
	if (r >= 0 && f == C_GETFD)
		close((int)r);
	return r < 0 ? errno : OK;
}

static void flag_rows(void *arg)
{
	static const unsigned int bad_flags[] = {
		8, 0x40000000, PIDFD_SIGNAL_THREAD | PIDFD_SIGNAL_PROCESS_GROUP,
	};
	static const enum fn calls[] = {
		C_SEND_SIGNAL, C_GETFD, C_MADVISE, C_MRELEASE, C_WAITID,
	};
	int child, fds[2], bad = 0;

	(void)arg;
	util_spawn(NULL, NULL, &child);
	fds[0] = child;
	fds[1] = PIDFD_SELF_PROCESS;
	for (size_t c = 0; c < UTIL_COUNT(calls); c++) {
		/* waitid(P_PIDFD) unknown (before 5.4) is EINVAL as well. */
		bool lacks = lpfd_kernel_has(needs[calls[c]]) == 0 &&
			     calls[c] != C_WAITID;

		for (size_t i = 0; i < UTIL_COUNT(bad_flags); i++)
			for (int k = 0; k < 2; k++) {
				int want = lacks && k == 0 ? ENOSYS : EINVAL;
				/* waitid's flags are its options: no WEXITED etc. */
				int got = call_flags(fds[k], calls[c],
					calls[c] == C_WAITID ? 0x40000000 : bad_flags[i]);

				if (got == want)
					continue;
				printf("# %d(%s, flags %#x): %s, want %s\n", calls[c],
				       k ? "PIDFD_SELF_PROCESS" : "a child",
				       bad_flags[i], lpfd_errno_name(got) ?: "OK",
				       lpfd_errno_name(want));
				bad++;
			}
	}
	libpidfd_send_signal(child, SIGKILL, NULL, 0);
	close(child);
	ASSERT_EQ(bad, 0);
}

TEST(errno_table_flags)
{
	util_both_paths(flag_rows, NULL);
}
