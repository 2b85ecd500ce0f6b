/* SPDX-License-Identifier: LGPL-2.1-or-later OR MIT */
/*
 * libpidfd_proc_open() and libpidfd_proc_readlink(): openat() and
 * readlinkat() under the /proc/<pid>/ directory of the process a pidfd
 * names, bound to that process.
 *
 * There is no kernel counterpart, so there is one path on every kernel:
 * the pid the pidfd names (PIDFD_GET_INFO where the kernel has it, else
 * the pidfd's fdinfo), /proc/<pid>/<name> opened through a procfs proven
 * to be of the caller's pid namespace, then the check that the process is
 * still unreaped. A pid is only reused after its process is reaped, so a
 * process unreaped after the open was the one /proc/<pid> named during
 * it; and a procfs inode keeps the struct pid it was made for, so what is
 * read through the descriptor later is that process's or the kernel's
 * error (ESRCH, an empty read), never a newcomer's.
 */
#include <fcntl.h>
#include <string.h>

#include "internal.h"
#include "syscall.h"

/* Longest name taken: deeper than any entry of /proc/<pid>/ needs. */
#define PROC_NAME_MAX 256
/* "<tgid>/task/<tid>/" before the name. */
#define PROC_BASE_MAX 40

#define PROC_OPEN_FLAGS (O_ACCMODE | O_PATH | O_DIRECTORY | O_NOFOLLOW | \
			 O_NONBLOCK | O_CLOEXEC)

/* Whose /proc directory: base is "<pid>" or "<tgid>/task/<tid>". */
struct proc_target {
	int pidfd;          /* checked unreaped at the end; -1 for oneself */
	char base[PROC_BASE_MAX];
};

/*
 * The name, copied in as the kernel's getname() does (EFAULT for memory it
 * cannot read), a page's piece at a time so that a name ending before an
 * unreadable page is read whole; then judged: a relative path without "..".
 */
static int copy_name(char *out, const char *name)
{
	pid_t tid = lpfd_sys_gettid();
	size_t n = 0;
	int r;

	if (tid < 0)
		return tid;
	while (n < PROC_NAME_MAX) {
		size_t piece = 4096 - ((uintptr_t)(name + n) & 4095);

		if (piece > PROC_NAME_MAX - n)
			piece = PROC_NAME_MAX - n;
		/* EFAULT, or a refused copy's errno: never taken for one */
		r = lpfd_user_read(tid, out + n, name + n, piece);
		if (r < 0)
			return r;
		for (size_t end = n + piece; n < end; n++)
			if (!out[n])
				return 0;
	}
	return -ENAMETOOLONG;
}

static int judge_name(const char *name)
{
	const char *c = name;

	if (*name == '/')
		return -EINVAL;
	while (*c) {
		const char *end = c;

		while (*end && *end != '/')
			end++;
		if (end - c == 2 && c[0] == '.' && c[1] == '.')
			return -EINVAL;
		c = *end ? end + 1 : end;
	}
	return 0;
}

static int take_name(char *out, const char *name)
{
	int r;

	if (!name)
		return -EFAULT;
	r = copy_name(out, name);
	return r < 0 ? r : judge_name(out);
}

/*
 * open(2)'s flags that make sense for a /proc file; every descriptor the
 * library returns is close-on-exec. O_PATH opens a final link itself, and
 * takes only the flags O_PATH takes (openat2 refuses others).
 */
static int judge_flags(int flags)
{
	if ((flags & ~PROC_OPEN_FLAGS) || (flags & O_ACCMODE) == O_ACCMODE)
		return -EINVAL;
	if (flags & O_PATH)
		flags = (flags & (O_PATH | O_DIRECTORY)) | O_NOFOLLOW;
	return flags | O_CLOEXEC;
}

/* The pid a real pidfd names, in our pid namespace: > 0 or -errno. */
static int pidfd_pid(struct lpfd_proc *p, int pidfd)
{
	int native = lpfd_native(LPFD_FEAT_GET_INFO), pid, r;

	if (native < 0)
		return native;
	if (native) {
		pid = lpfd_getpid_native(pidfd);
		if (pid < 0)
			return pid;
		r = lpfd_proc_open(p, LPFD_PROC_OUR_PIDS);
		return r < 0 ? lpfd_proc_fd_errno(pidfd, r) : pid;
	}
	r = lpfd_proc_open_pidfd(p, pidfd, &pid);
	if (r < 0)
		return lpfd_not_a_pidfd_is_ebadf(r);
	r = lpfd_fdinfo_pid_errno(pid);
	if (r < 0)
		lpfd_proc_close(p);
	return r < 0 ? r : pid;
}

/* "<tgid>/task/<tid>" for a thread (tid > 0), "<pid>" for a process. */
static void name_base(struct proc_target *t, pid_t pid, pid_t tid)
{
	size_t n;

	if (!tid) {
		lpfd_proc_path(t->base, sizeof(t->base), "", pid, "");
		return;
	}
	lpfd_proc_path(t->base, sizeof(t->base), "", pid, "/task/");
	n = strlen(t->base);
	lpfd_proc_path(t->base + n, sizeof(t->base) - n, "", tid, "");
}

/*
 * The procfs instance and the directory for a pidfd or a sentinel. The
 * sentinels name the caller by number, whose entries in a procfs proven
 * ours are those of "self" and "thread-self", without a link to follow.
 */
static int open_target(struct lpfd_proc *p, int pidfd, struct proc_target *t)
{
	struct lpfd_route route = lpfd_route(pidfd, LPFD_NO_SENTINELS);
	pid_t pid, tid;
	int r;

	if (route.kind == LPFD_ROUTE_BAD)
		return -EBADF;
	if (route.kind == LPFD_ROUTE_ERROR)
		return route.err;
	if (!lpfd_route_is_self(&route)) {
		r = pidfd_pid(p, route.fd);
		if (r < 0)
			return r;
		t->pidfd = route.fd;
		name_base(t, r, 0);
		return 0;
	}
	/* Refused (a seccomp filter): no made-up id names a directory. */
	pid = lpfd_sys_getpid();
	tid = route.kind == LPFD_ROUTE_SELF_THREAD ? lpfd_sys_gettid() : 0;
	if (pid < 0 || tid < 0)
		return pid < 0 ? pid : tid;
	r = lpfd_proc_open(p, LPFD_PROC_OUR_PIDS);
	if (r < 0)
		return r;
	t->pidfd = -1;
	name_base(t, pid, tid);
	return 0;
}

/*
 * "<base>/<name>", or "<base>" for the directory itself: where the name
 * starts in it.
 */
static size_t full_path(char *path, size_t size, const struct proc_target *t,
			const char *name)
{
	lpfd_proc_join(path, size, t->base, *name ? "/" : "", name);
	return strlen(t->base) + (*name ? 1 : 0);
}

/*
 * Whether a component before the last is a link: all links under
 * /proc/<pid>/ are magic (exe, cwd, root, fd/N, ns/ *, map_files/ *),
 * and through one the name would leave the process's directory, which
 * openat2's RESOLVE_BENEATH answers with EXDEV. Each component in turn,
 * so that the first link found is judged before anything past it.
 * path is "<base>/<name>" and name starts at path + from.
 */
static int link_inside(struct lpfd_proc *p, char *path, size_t from)
{
	char one;

	for (size_t i = from; path[i]; i++) {
		ssize_t n;

		if (path[i] != '/')
			continue;
		path[i] = '\0';
		n = lpfd_proc_readlink(p, path, &one, 1);
		path[i] = '/';
		if (n >= 0)
			return -EXDEV;
		if (n != -EINVAL)
			return (int)n;
	}
	return 0;
}

/*
 * Open path under the procfs instance without crossing a mount, a final
 * magic link followed unless flags say O_NOFOLLOW. openat2 (5.6) refuses
 * any magic link on the way (ELOOP), and then, as without openat2, the
 * links before the last are looked for (EXDEV), and a last one is
 * followed on its own (lpfd_proc_open_last()). The path is
 * "<base>/<name>".
 */
static int open_path(struct lpfd_proc *p, const struct proc_target *t,
		     const char *name, int flags)
{
	char path[PROC_BASE_MAX + PROC_NAME_MAX];
	size_t from = full_path(path, sizeof(path), t, name);
	int fd = -ELOOP, r;

	if (lpfd_surely_has(LPFD_FEAT_OPENAT2))
		fd = lpfd_proc_openat(p, path, flags);
	if (fd != -ELOOP)
		return fd;
	r = link_inside(p, path, from);
	if (r < 0)
		return r;
	return lpfd_proc_open_last(p, path, flags);
}

/*
 * Whether /proc hides the process's directory from us: hidepid=2 lets us
 * find the directory but not look inside (ENOENT), hidepid=1 says EPERM.
 * Its "stat" is always there for one who may look.
 */
static bool hidden(struct lpfd_proc *p, const struct proc_target *t)
{
	char path[PROC_BASE_MAX + 8], one;
	ssize_t n;

	lpfd_proc_join(path, sizeof(path), t->base, "/stat", "");
	n = lpfd_proc_readlink(p, path, &one, 1);
	return n == -ENOENT || n == -EPERM;
}

/*
 * The answer stands only if the process is still unreaped: then the pid
 * was its own all along. An answer for oneself always stands. A process
 * /proc hides from us while it is unreaped is EACCES, as the kernel's
 * other refusals to look are.
 */
static int settle(struct lpfd_proc *p, const struct proc_target *t, int r)
{
	int unreaped;

	if (t->pidfd < 0)
		return r;
	unreaped = lpfd_proc_unreaped(p, t->pidfd);
	if (unreaped <= 0)
		return unreaped < 0 ? unreaped : -ESRCH;
	if ((r == -ENOENT || r == -EPERM) && hidden(p, t))
		return -EACCES;
	return r;
}

/*
 * The caller's name copied into copy and judged, then the process's
 * directory found, in the kernel's order.
 */
static int take_target(struct lpfd_proc *p, struct proc_target *t, int pidfd,
		       const char *name, char *copy)
{
	int r = take_name(copy, name);

	return r < 0 ? r : open_target(p, pidfd, t);
}

static int do_proc_open(int pidfd, const char *name, int flags)
{
	char copy[PROC_NAME_MAX];
	struct proc_target t;
	struct lpfd_proc p;
	int held, fd, r;

	flags = judge_flags(flags);
	if (flags < 0)
		return flags;
	r = take_target(&p, &t, pidfd, name, copy);
	if (r < 0)
		return r;
	/*
	 * The files the proof read are closed as read: the answer takes the
	 * same number whatever the proof read.
	 */
	held = p.dir;
	fd = open_path(&p, &t, copy, flags);
	r = settle(&p, &t, fd);
	if (r < 0 && fd >= 0)
		lpfd_sys_close(fd);
	lpfd_proc_close(&p);
	return lpfd_fd_lowest(r, held);
}

LIBPIDFD_API int libpidfd_proc_open(int pidfd, const char *name, int flags)
{
	int saved = errno;

	return (int)lpfd_return(saved, do_proc_open(pidfd, name, flags));
}

/*
 * The link is read through a descriptor of its own (O_PATH, bound to the
 * process like any procfs file) after the process is found unreaped, so
 * that the caller's buffer gets the process's link or nothing; what is
 * no link says EINVAL, as readlinkat() of its name does.
 */
static ssize_t read_bound_link(struct lpfd_proc *p, const struct proc_target *t,
			       int fd, char *buf, size_t size)
{
	ssize_t n = settle(p, t, fd);

	if (n < 0)
		return n;
	n = lpfd_fd_readlink(fd, buf, size);
	return n < 0 && n != -EINVAL ? settle(p, t, (int)n) : n;
}

static ssize_t do_proc_readlink(int pidfd, const char *name, char *buf,
				size_t size)
{
	char copy[PROC_NAME_MAX];
	struct proc_target t;
	struct lpfd_proc p;
	ssize_t n;
	int fd;

	if ((int)size <= 0)
		return -EINVAL; /* the kernel's bufsiz is an int, judged first */
	n = take_target(&p, &t, pidfd, name, copy);
	if (n < 0)
		return n;
	fd = open_path(&p, &t, copy, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	n = fd < 0 ? settle(&p, &t, fd) : read_bound_link(&p, &t, fd, buf, size);
	if (fd >= 0)
		lpfd_sys_close(fd);
	lpfd_proc_close(&p);
	return n;
}

LIBPIDFD_API ssize_t libpidfd_proc_readlink(int pidfd, const char *name,
					    char *buf, size_t size)
{
	int saved = errno;

	return (ssize_t)lpfd_return(saved, do_proc_readlink(pidfd, name, buf, size));
}
