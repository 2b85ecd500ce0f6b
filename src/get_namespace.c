/* SPDX-License-Identifier: LGPL-2.1-or-later OR MIT */
/*
 * libpidfd_get_namespace(): the PIDFD_GET_*_NAMESPACE ioctls (6.11) on
 * every kernel, and on the sentinels, which no kernel takes in ioctl().
 *
 * Native: the ioctl on the pidfd. Emulated: the same namespace opened
 * through /proc/<pid>/ns/<name>, which the kernel guards with the same
 * ptrace check (EACCES) and opens the same way (read-only, close-on-exec).
 * The pid comes from the pidfd's fdinfo, and the answer stands only if the
 * process is still unreaped after the open: until then its pid cannot have
 * been reused, so the fd names the namespace of the pidfd's process.
 *
 * The caller itself needs neither pid nor pidfd: /proc/thread-self/ns is
 * the calling thread's (PIDFD_SELF_THREAD), /proc/self/ns the leader's
 * (PIDFD_SELF_THREAD_GROUP), one open. Only where that fails and the
 * kernel has the ioctls is a pidfd on oneself opened, to get its answer.
 */
#include <fcntl.h>
#include <linux/magic.h>

#include "internal.h"
#include "syscall.h"

#define NS_CMD_FIRST 1
#define NS_CMD_LAST 10

struct ns_desc {
	const char *name;  /* its /proc/<pid>/ns/ entry */
	bool own_lifetime; /* not in the task's nsproxy: /proc has it longer */
};

static const struct ns_desc ns_table[NS_CMD_LAST + 1] = {
	[_IOC_NR(PIDFD_GET_CGROUP_NAMESPACE)] = { "cgroup", false },
	[_IOC_NR(PIDFD_GET_IPC_NAMESPACE)] = { "ipc", false },
	[_IOC_NR(PIDFD_GET_MNT_NAMESPACE)] = { "mnt", false },
	[_IOC_NR(PIDFD_GET_NET_NAMESPACE)] = { "net", false },
	[_IOC_NR(PIDFD_GET_PID_NAMESPACE)] = { "pid", true },
	[_IOC_NR(PIDFD_GET_PID_FOR_CHILDREN_NAMESPACE)] =
		{ "pid_for_children", false },
	[_IOC_NR(PIDFD_GET_TIME_NAMESPACE)] = { "time", false },
	[_IOC_NR(PIDFD_GET_TIME_FOR_CHILDREN_NAMESPACE)] =
		{ "time_for_children", false },
	[_IOC_NR(PIDFD_GET_USER_NAMESPACE)] = { "user", true },
	[_IOC_NR(PIDFD_GET_UTS_NAMESPACE)] = { "uts", false },
};

/*
 * The namespace a command names, or NULL for any other command. The kernel
 * takes ioctl commands as 32-bit values; so does the library.
 */
static const struct ns_desc *ns_of_cmd(unsigned int cmd)
{
	unsigned int nr = _IOC_NR(cmd);

	if (nr < NS_CMD_FIRST || nr > NS_CMD_LAST ||
	    cmd != (unsigned int)_IO(PIDFS_IOCTL_MAGIC, nr))
		return NULL;
	return &ns_table[nr];
}

/* "<dir>/ns/<name>" into buf. */
static void ns_path(char *buf, size_t size, const char *dir, const char *name)
{
	size_t o = 0;

	for (const char *p = dir; *p && o + 1 < size; p++)
		buf[o++] = *p;
	for (const char *p = "/ns/"; *p && o + 1 < size; p++)
		buf[o++] = *p;
	for (const char *p = name; *p && o + 1 < size; p++)
		buf[o++] = *p;
	buf[o] = '\0';
}

/*
 * Without /proc the emulation cannot answer; nor with another file system
 * in its place (under user-mode-linux, with /proc unmounted, hostfs shows
 * the host's).
 */
static bool proc_missing(void)
{
	char link[32];
	int fd;
	bool ours;

	if (lpfd_sys_readlinkat(AT_FDCWD, "/proc/thread-self", link,
				  sizeof(link)) == -ENOENT)
		return true;
	fd = lpfd_sys_openat(AT_FDCWD, "/proc", O_RDONLY | O_CLOEXEC | O_DIRECTORY);
	if (fd < 0)
		return true;
	ours = lpfd_fd_on_fs(fd, PROC_SUPER_MAGIC);
	lpfd_sys_close(fd);
	return !ours;
}

/*
 * Whether the task of a /proc directory still has its namespaces: a task
 * that exits drops them (and the kernel says ESRCH from then on), but
 * /proc keeps its user and pid namespaces until it is reaped. The mount
 * namespace, which every task has until then, tells.
 */
static int has_namespaces(const char *dir)
{
	char path[64], link[64];
	ssize_t r;

	ns_path(path, sizeof(path), dir, "mnt");
	r = lpfd_sys_readlinkat(AT_FDCWD, path, link, sizeof(link));
	if (r == -ENOENT)
		return proc_missing() ? -ENOSYS : -ESRCH;
	return r < 0 ? (int)r : 0;
}

/*
 * /proc says ENOENT where the kernel says ESRCH (the task is gone or has
 * dropped its namespaces) or, after that check, EOPNOTSUPP (a type this
 * kernel was built without, which the calling thread lacks too).
 */
static int missing_ns_errno(const char *dir, const char *name)
{
	char path[64], link[64];
	int r;

	if (proc_missing())
		return -ENOSYS;
	r = has_namespaces(dir);
	if (r < 0)
		return r;
	ns_path(path, sizeof(path), "/proc/thread-self", name);
	if (lpfd_sys_readlinkat(AT_FDCWD, path, link, sizeof(link)) == -ENOENT)
		return -EOPNOTSUPP;
	return -ESRCH;
}

/*
 * Open a namespace of the task whose /proc directory is dir; may_be_dead
 * unless it is the calling thread.
 */
static int open_ns(const char *dir, const struct ns_desc *ns, bool may_be_dead)
{
	char path[64];
	int fd, r;

	if (ns->own_lifetime && may_be_dead) {
		r = has_namespaces(dir);
		if (r < 0)
			return r;
	}
	ns_path(path, sizeof(path), dir, ns->name);
	fd = lpfd_sys_openat(AT_FDCWD, path, O_RDONLY | O_CLOEXEC);
	if (fd == -ENOENT)
		return missing_ns_errno(dir, ns->name);
	/* A namespace, not a file a /proc look-alike put there. */
	if (fd >= 0 && !lpfd_fd_on_fs(fd, NSFS_MAGIC)) {
		lpfd_sys_close(fd);
		return -ENOSYS;
	}
	return fd;
}

/* The kernel's ioctl on a pidfd opened on ourselves for this one call. */
static int ns_self_by_pidfd(const struct lpfd_route *t, unsigned int cmd)
{
	int pidfd = lpfd_route_open_self(t), r;

	if (pidfd < 0)
		return pidfd;
	r = lpfd_sys_ioctl(pidfd, cmd, NULL);
	lpfd_sys_close(pidfd);
	return r;
}

static int ns_self(const struct lpfd_route *t, unsigned int cmd,
		   const struct ns_desc *ns)
{
	bool thread = t->kind == LPFD_ROUTE_SELF_THREAD;
	int fd = open_ns(thread ? "/proc/thread-self" : "/proc/self", ns, !thread);

	if (fd >= 0 || fd == -EACCES)
		return fd;
	/* No /proc, or an error the kernel may word otherwise: ask it. */
	if (lpfd_native(LPFD_FEAT_NS_IOCTLS) <= 0)
		return fd;
	return ns_self_by_pidfd(t, cmd);
}

/*
 * ESRCH from open_ns() means that the task has no namespaces left (its ns
 * directory is still there) or that nothing in its /proc directory can be
 * found: it is gone, or, while unreaped, /proc hides it from us
 * (hidepid=2). A directory is no link: readlink() finds it (EINVAL) or not.
 */
static bool proc_dir_hidden_or_gone(const char *dir)
{
	char path[64], link[8];

	ns_path(path, sizeof(path), dir, "");
	return lpfd_sys_readlinkat(AT_FDCWD, path, link, sizeof(link)) ==
	       -ENOENT;
}

/* Another process, by the pid its pidfd's fdinfo gives. */
static int ns_emulated_fd(int pidfd, const struct ns_desc *ns)
{
	struct lpfd_fdinfo fi;
	char dir[32];
	int fd, r;

	r = lpfd_read_fdinfo(pidfd, &fi);
	if (r < 0)
		return r;
	if (!fi.is_pidfd)
		return lpfd_not_pidfd_errno(pidfd, &fi);
	if (fi.pid < 0)
		return -ESRCH;
	if (fi.pid == 0)
		return -EREMOTE; /* no /proc entry to open from here */
	r = lpfd_proc_is_ours();
	if (r < 0)
		return r;
	lpfd_proc_path(dir, sizeof(dir), "/proc/", fi.pid, "");
	fd = open_ns(dir, ns, true);
	/*
	 * EACCES is the ptrace check's, or /proc's for a link whose task was
	 * reaped during the look-up (proc_ns_get_link() finds no task): the
	 * pidfd tells which, as for a directory hidden or gone.
	 */
	if (fd == -EACCES || (fd == -ESRCH && proc_dir_hidden_or_gone(dir)))
		return lpfd_proc_missing_errno(pidfd);
	if (fd < 0)
		return fd;
	r = lpfd_pidfd_unreaped(pidfd);
	if (r > 0)
		return fd;
	lpfd_sys_close(fd);
	return r < 0 ? r : -ESRCH;
}

/* Not a namespace command: after the kernel's EBADF for a closed fd, ENOTTY. */
static int unknown_cmd(const struct lpfd_route *t)
{
	if (t->kind == LPFD_ROUTE_BAD ||
	    (t->kind == LPFD_ROUTE_KERNEL && lpfd_sys_fcntl(t->fd, F_GETFD, 0) < 0))
		return -EBADF;
	return -ENOTTY;
}

static int get_namespace(int pidfd, unsigned int cmd)
{
	const struct ns_desc *ns = ns_of_cmd(cmd);
	struct lpfd_route t = lpfd_route(pidfd, LPFD_NO_SENTINELS);
	int r;

	if (!ns)
		return unknown_cmd(&t);
	if (lpfd_route_is_self(&t))
		return ns_self(&t, cmd, ns);
	if (t.kind == LPFD_ROUTE_BAD)
		return -EBADF;
	r = lpfd_native(LPFD_FEAT_NS_IOCTLS);
	if (r < 0)
		return r;
	if (r)
		return lpfd_sys_ioctl(t.fd, cmd, NULL);
	return ns_emulated_fd(t.fd, ns);
}

LIBPIDFD_API int libpidfd_get_namespace(int pidfd, unsigned long ioctl_cmd)
{
	int saved = errno;

	return (int)lpfd_return(saved,
				  get_namespace(pidfd, (unsigned int)ioctl_cmd));
}
