/* SPDX-License-Identifier: LGPL-2.1-or-later OR MIT */
/*
 * libpidfd_getfd(): pidfd_getfd(2), and the sentinels, which no mainline
 * kernel takes here (6.18 answers EBADF): the library's path on every one.
 *
 * A duplicate from one's own file table is fcntl(F_DUPFD_CLOEXEC): the
 * lowest free fd, close-on-exec, EBADF for a bad one, as pidfd_getfd()
 * gives. PIDFD_SELF_THREAD reads the calling thread's table. The
 * thread-group leader's table is the same one unless the caller (or the
 * leader) did unshare(CLONE_FILES). Only then does the kernel do it,
 * through a pidfd on the leader, opened for this one call.
 */
#include <fcntl.h>
#include <linux/kcmp.h>
#include <poll.h>
#include <string.h>

#include "internal.h"
#include "syscall.h"

static int getfd_self_thread(int targetfd)
{
	return lpfd_sys_fcntl(targetfd, F_DUPFD_CLOEXEC, 0);
}

/* The flags of fd in the leader's table, as /proc/self/fdinfo shows them. */
static int leader_fd_flags(struct lpfd_proc *p, int fd,
			   unsigned int *flags)
{
	struct lpfd_fdinfo fi;
	char path[40], buf[512];
	ssize_t n;

	lpfd_proc_path(path, sizeof(path), "self/fdinfo/", fd, "");
	n = lpfd_proc_read(p, path, buf, sizeof(buf));
	if (n < 0)
		return (int)n;
	(void)lpfd_parse_fdinfo(buf, (size_t)n, &fi);
	*flags = fi.flags;
	return 0;
}

/*
 * Whether fd, just made in the caller's table, is in the leader's table
 * too: the leader's fdinfo must follow a change of the close-on-exec flag,
 * which lives in the table, not in the open file. Where kcmp() is denied
 * (the default seccomp profile of container runtimes) or missing
 * (user-mode-linux), this tells a shared table without it.
 */
static bool leader_sees(int fd)
{
	unsigned int before, after;
	struct lpfd_proc p;
	bool followed = false;

	if (lpfd_proc_open(&p, LPFD_PROC_ANY) < 0)
		return false;
	if (leader_fd_flags(&p, fd, &before) == 0 && (before & O_CLOEXEC) &&
	    lpfd_sys_fcntl(fd, F_SETFD, 0) == 0) {
		followed = leader_fd_flags(&p, fd, &after) == 0 &&
			   !(after & O_CLOEXEC);
		lpfd_sys_fcntl(fd, F_SETFD, FD_CLOEXEC);
	}
	lpfd_proc_close(&p);
	return followed;
}

/* The caller's table is the leader's: kcmp() says so, or the leader sees fd. */
static bool shares_leader_files(pid_t tgid, pid_t tid, int fd)
{
	int r = lpfd_sys_kcmp(tgid, tid, KCMP_FILES, 0, 0);

	if (r >= 0)
		return r == 0;
	return leader_sees(fd);
}

/*
 * pidfd_getfd() on a pidfd of the leader, opened for this one call at a
 * number other than targetfd: where that number was free in our table, it
 * could be free in the leader's (the same table) and get the pidfd itself.
 */
static int getfd_through_leader(pid_t tgid, int targetfd)
{
	int pidfd = lpfd_sys_pidfd_open(tgid, 0), fd;

	if (pidfd == targetfd) {
		fd = lpfd_sys_fcntl(pidfd, F_DUPFD_CLOEXEC, targetfd + 1);
		lpfd_sys_close(pidfd);
		pidfd = fd;
	}
	if (pidfd < 0)
		return pidfd;
	fd = lpfd_sys_pidfd_getfd(pidfd, targetfd, 0);
	lpfd_sys_close(pidfd);
	return lpfd_fd_lowest(fd, pidfd);
}

static int getfd_self_process(int targetfd)
{
	pid_t tgid = lpfd_sys_getpid(), tid = lpfd_sys_gettid();
	int fd;

	if (tgid < 0 || tid < 0)
		return tgid < 0 ? tgid : tid;
	fd = getfd_self_thread(targetfd);

	if (tid == tgid || (fd >= 0 && shares_leader_files(tgid, tid, fd)))
		return fd;
	if (fd >= 0)
		lpfd_sys_close(fd);
	return getfd_through_leader(tgid, targetfd);
}

#define PF_EXITING_ 0x00000004 /* the kernel's PF_EXITING */

/* Whether the task of /proc/<pid> is exiting (PF_EXITING): 1, 0, -errno. */
static int pid_exiting(struct lpfd_proc *p, int pid)
{
	char path[48], buf[512];
	unsigned int flags;
	ssize_t n;

	lpfd_proc_path(path, sizeof(path), "", pid, "/stat");
	n = lpfd_proc_read(p, path, buf, sizeof(buf));
	if (n < 0)
		return (int)n;
	return lpfd_parse_stat_flags(buf, (size_t)n, &flags) == 0 &&
	       (flags & PF_EXITING_);
}

/*
 * Whether the process of a pidfd has exited, where its fdinfo may not be
 * read (a caller that is not dumpable, before 5.14): its own fd link says
 * that it is a pidfd, and a pidfd polls readable once its thread group
 * has exited.
 */
static bool pidfd_polls_exited(int pidfd)
{
	struct pollfd pfd = { .fd = pidfd, .events = POLLIN };
	struct timespec now = { 0, 0 };

	if (!lpfd_fd_link_is(pidfd, "anon_inode:[pidfd]"))
		return false;
	return lpfd_sc(__NR_ppoll, &pfd, 1, &now, NULL, 0, 0) == 1 &&
	       (pfd.revents & POLLIN);
}

/*
 * pidfd_getfd() on a target that is exiting, its file table already let
 * go, is ESRCH since Linux 6.9 (0c9bd6bc4bb2 "pidfd: getfd should always
 * report ESRCH if a task is exiting", in 6.1.y and 6.6.y too); older
 * kernels say EBADF. The library gives ESRCH where the target's
 * PF_EXITING says so (/proc/<pid>/stat, by the pid the fdinfo gives, which
 * counts only while the pidfd is unreaped) or the pidfd polls exited.
 */
static int getfd_newest_errno(int pidfd, int err)
{
	struct lpfd_fdinfo fi;
	struct lpfd_proc p;
	int r;

	if (err != -EBADF)
		return err;
	if (lpfd_proc_open(&p, LPFD_PROC_OUR_PIDS) < 0)
		return err;
	r = lpfd_proc_fdinfo(&p, pidfd, &fi);
	if (r == 0 && fi.is_pidfd && fi.pid > 0)
		r = pid_exiting(&p, fi.pid) > 0 ||
		    lpfd_proc_unreaped(&p, pidfd) == 0;
	else if (r == 0)
		r = fi.is_pidfd && fi.pid == -1;
	else
		r = r == -EACCES && pidfd_polls_exited(pidfd);
	lpfd_proc_close(&p);
	return r > 0 ? -ESRCH : err;
}

static int do_getfd(int pidfd, int targetfd, unsigned int flags)
{
	struct lpfd_route t = lpfd_route(pidfd, LPFD_NO_SENTINELS);

	if (!lpfd_route_is_self(&t))
		return getfd_newest_errno(t.fd, lpfd_sys_pidfd_getfd(t.fd,
							targetfd, flags));
	if (flags)
		return -EINVAL;
	if (t.kind == LPFD_ROUTE_SELF_THREAD)
		return getfd_self_thread(targetfd);
	return getfd_self_process(targetfd);
}

LIBPIDFD_API int libpidfd_getfd(int pidfd, int targetfd, unsigned int flags)
{
	int saved = errno;

	return (int)lpfd_return(saved, do_getfd(pidfd, targetfd, flags));
}
