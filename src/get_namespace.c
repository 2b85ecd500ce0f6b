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

/* "<dir>/ns/<name>" into buf, relative to /proc. */
static void ns_path(char *buf, size_t size, const char *dir, const char *name)
{
	lpfd_proc_join(buf, size, dir, "/ns/", name);
}

/*
 * A procfs in which the calling thread is not visible (a child pid
 * namespace's) has no thread-self: the emulation cannot answer there.
 */
static bool proc_blind_to_us(struct lpfd_proc *p)
{
	char link[32];

	return lpfd_proc_readlink(p, "thread-self", link, sizeof(link)) ==
	       -ENOENT;
}

/*
 * Whether the task of a /proc directory still has its namespaces: a task
 * that exits drops them (and the kernel says ESRCH from then on), but
 * /proc keeps its user and pid namespaces until it is reaped. The mount
 * namespace, which every task has until then, tells.
 */
static int has_namespaces(struct lpfd_proc *p, const char *dir)
{
	char path[64], link[64];
	ssize_t r;

	ns_path(path, sizeof(path), dir, "mnt");
	r = lpfd_proc_readlink(p, path, link, sizeof(link));
	if (r == -ENOENT)
		return proc_blind_to_us(p) ? -ENOSYS : -ESRCH;
	return r < 0 ? (int)r : 0;
}

/*
 * /proc says ENOENT where the kernel says ESRCH (the task is gone or has
 * dropped its namespaces) or, after that check, EOPNOTSUPP (a type this
 * kernel was built without, which the calling thread lacks too). Where
 * the calling thread's link cannot be reached (a mount covers it), which
 * it is cannot be told: ENOSYS.
 */
static int missing_ns_errno(struct lpfd_proc *p, const char *dir,
			    const char *name)
{
	char path[64], link[64];
	int r;

	r = has_namespaces(p, dir);
	if (r < 0)
		return r;
	ns_path(path, sizeof(path), "thread-self", name);
	r = (int)lpfd_proc_readlink(p, path, link, sizeof(link));
	if (r == -ENOENT)
		return -EOPNOTSUPP;
	return r == -ENOSYS ? -ENOSYS : -ESRCH;
}

/*
 * Open a namespace of the task whose /proc directory is dir; may_be_dead
 * unless it is the calling thread.
 */
static int open_ns(struct lpfd_proc *p, const char *dir,
		   const struct ns_desc *ns, bool may_be_dead)
{
	char path[64];
	int fd, r;

	if (ns->own_lifetime && may_be_dead) {
		r = has_namespaces(p, dir);
		if (r < 0)
			return r;
	}
	ns_path(path, sizeof(path), dir, ns->name);
	fd = lpfd_proc_open_ns(p, path);
	if (fd == -ENOENT)
		return missing_ns_errno(p, dir, ns->name);
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
	return lpfd_fd_lowest(r, pidfd);
}

/*
 * The calling thread's own namespace links name the same namespaces in
 * every procfs that shows the thread at all: any procfs will do.
 */
static int ns_self_by_proc(const struct lpfd_route *t,
			   const struct ns_desc *ns)
{
	bool thread = t->kind == LPFD_ROUTE_SELF_THREAD;
	struct lpfd_proc p;
	int held, fd = lpfd_proc_open(&p, LPFD_PROC_ANY);

	if (fd < 0)
		return fd;
	held = p.dir;
	fd = open_ns(&p, thread ? "thread-self" : "self", ns, !thread);
	lpfd_proc_close(&p);
	return lpfd_fd_lowest(fd, held);
}

static int get_namespace_self(const struct lpfd_route *t, unsigned int cmd,
		   const struct ns_desc *ns)
{
	int fd = ns_self_by_proc(t, ns);
	int r;

	if (fd >= 0)
		return fd;
	/*
	 * No /proc, or an error the kernel may word otherwise: ask it. A
	 * caller that is not dumpable (and not root) may not look into its
	 * own ns directory, mode 0500 and owned by root then, on any kernel,
	 * while the kernel's ioctl lets every process see its own (6.11):
	 * EACCES only where there is no ioctl.
	 */
	r = lpfd_native(LPFD_FEAT_NS_IOCTLS);
	if (r <= 0)
		return r < 0 ? r : fd;
	return ns_self_by_pidfd(t, cmd);
}

/*
 * The namespace of the process whose pid the fdinfo gave, standing only if
 * the process is still unreaped after the open. ESRCH from open_ns() means
 * that the task has no namespaces left (its ns directory is still there)
 * or that nothing in its /proc directory can be found: it is gone, or,
 * while unreaped, /proc hides it from us (hidepid=2).
 */
static int ns_of_pid(struct lpfd_proc *p, int pidfd, int pid,
		     const struct ns_desc *ns)
{
	char dir[24];
	int fd, r;

	lpfd_proc_path(dir, sizeof(dir), "", pid, "");
	fd = open_ns(p, dir, ns, true);
	/*
	 * EACCES is the ptrace check's, or /proc's for a link whose task was
	 * reaped during the look-up (proc_ns_get_link() finds no task); EPERM
	 * is hidepid=1's for a directory whose files we may not see, where
	 * the kernel's ioctl makes the same ptrace check. The pidfd tells
	 * which, as for a directory hidden or gone.
	 */
	if (fd == -EACCES || fd == -EPERM ||
	    (fd == -ESRCH && lpfd_proc_dir_gone(p, dir, "/ns/")))
		return lpfd_proc_missing_errno(p, pidfd);
	if (fd < 0)
		return fd;
	r = lpfd_proc_unreaped(p, pidfd);
	if (r > 0)
		return fd;
	lpfd_sys_close(fd);
	return r < 0 ? r : -ESRCH;
}

/* Another process, by the pid its pidfd's fdinfo gives. */
static int get_namespace_emulated(int pidfd, const struct ns_desc *ns)
{
	struct lpfd_proc p;
	int held, pid, r = lpfd_proc_open_pidfd(&p, pidfd, &pid);

	if (r < 0)
		return r;
	/* Outside our pid namespace there is no /proc entry to open. */
	r = lpfd_fdinfo_pid_errno(pid);
	held = p.dir;
	if (r == 0)
		r = ns_of_pid(&p, pidfd, pid, ns);
	lpfd_proc_close(&p);
	return lpfd_fd_lowest(r, held);
}

/* Not a namespace command: after the kernel's EBADF for a closed fd, ENOTTY. */
static int unknown_cmd(const struct lpfd_route *t)
{
	if (t->kind == LPFD_ROUTE_BAD ||
	    (t->kind == LPFD_ROUTE_KERNEL && lpfd_sys_fcntl(t->fd, F_GETFD, 0) < 0))
		return -EBADF;
	return -ENOTTY;
}

static int do_get_namespace(int pidfd, unsigned int cmd)
{
	const struct ns_desc *ns = ns_of_cmd(cmd);
	struct lpfd_route t = lpfd_route(pidfd, LPFD_NO_SENTINELS);
	int r;

	if (!ns)
		return unknown_cmd(&t);
	if (lpfd_route_is_self(&t))
		return get_namespace_self(&t, cmd, ns);
	if (t.kind == LPFD_ROUTE_BAD)
		return -EBADF;
	r = lpfd_native(LPFD_FEAT_NS_IOCTLS);
	if (r < 0)
		return r;
	if (r)
		return lpfd_sys_ioctl(t.fd, cmd, NULL);
	return get_namespace_emulated(t.fd, ns);
}

LIBPIDFD_API int libpidfd_get_namespace(int pidfd, unsigned long ioctl_cmd)
{
	int saved = errno;

	return (int)lpfd_return(saved,
				  do_get_namespace(pidfd, (unsigned int)ioctl_cmd));
}
