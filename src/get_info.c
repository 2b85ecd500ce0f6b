/* SPDX-License-Identifier: LGPL-2.1-or-later OR MIT */
/*
 * libpidfd_get_info(): PIDFD_GET_INFO on every kernel.
 *
 * Native: the ioctl straight into the caller's struct, its size encoded in
 * the command as the kernel's extensible-struct rules want, then the
 * running kernel's layout (src/info_layout.c) and errno brought to the
 * newest kernel's.
 *
 * Emulated: the pid from /proc/thread-self/fdinfo, the rest from
 * /proc/<pid>, and last a check through the pidfd that the process is
 * still unreaped: until then its pid cannot have been reused, so nothing
 * read can describe another process.
 */
#include <string.h>
#include <sys/prctl.h>

#include "internal.h"
#include "syscall.h"

/* The largest size an ioctl command can carry (14 bits): above, E2BIG. */
#define INFO_SIZE_MAX ((1UL << _IOC_SIZEBITS) - 1)

static unsigned long info_cmd(size_t size)
{
	return _IOC(_IOC_READ | _IOC_WRITE, PIDFS_IOCTL_MAGIC, 11, size);
}

/*
 * ESRCH covers both a reaped process and, before the kernel said EREMOTE,
 * one outside our pid namespace; the fdinfo tells which.
 */
int lpfd_info_newest_errno(int pidfd, int err)
{
	struct lpfd_fdinfo fi;

	if (err != -ESRCH || lpfd_read_fdinfo(pidfd, &fi) < 0)
		return err;
	return fi.is_pidfd && fi.pid == 0 ? -EREMOTE : err;
}

/*
 * The kernel path on a real pidfd; size is valid. The kernel reads the
 * request and writes the answer only on success; a kernel older than the
 * newest layout drops PIDFD_INFO_SUPPORTED_MASK from the request (before
 * 6.19) or puts supported_mask elsewhere (6.19, 7.0), so the request is
 * kept to bring the answer to the newest layout where it lies.
 */
static int get_info_native_fd(int pidfd, struct libpidfd_info *info,
			      size_t size)
{
	struct lpfd_kernel_info k;
	uint64_t req = lpfd_info_mask(info);
	int r = lpfd_sys_ioctl(pidfd, info_cmd(size), info);

	if (r < 0)
		return lpfd_info_newest_errno(pidfd, r);
	lpfd_kernel_info(&k);
	if (k.size < PIDFD_INFO_SIZE_VER3)
		lpfd_info_to_newest(info, size, req, k.size);
	return 0;
}

/* A sentinel is a pidfd of the caller's own, opened for the call. */
static int get_info_native(const struct lpfd_route *t,
			   struct libpidfd_info *info, size_t size)
{
	int fd, err;

	if (!lpfd_route_is_self(t))
		return get_info_native_fd(t->fd, info, size);
	fd = lpfd_route_open_self(t);
	if (fd < 0)
		return fd;
	err = get_info_native_fd(fd, info, size);
	lpfd_sys_close(fd);
	return err;
}

/*
 * Whether a process may dump core is a property of its memory, which only
 * its own threads can ask about (PR_GET_DUMPABLE); for any other process
 * the bit stays clear.
 */
static void emulate_coredump(struct libpidfd_info *k)
{
	static const uint32_t by_dumpable[] = {
		PIDFD_COREDUMP_SKIP, PIDFD_COREDUMP_USER, PIDFD_COREDUMP_ROOT,
	};
	int d = lpfd_sys_prctl(PR_GET_DUMPABLE, 0);

	if (d < 0 || d >= (int)lpfd_array_size(by_dumpable))
		return;
	k->coredump_mask = by_dumpable[d];
	k->mask |= PIDFD_INFO_COREDUMP;
}

/*
 * The calling thread's credentials, from the system calls that tell them:
 * 0, -errno where one was refused, 1 where a file system id is to be read
 * from the thread's status file instead. setfs[ug]id() has no error
 * return: a seccomp filter's refusal comes back as -errno, an id in the
 * top 4095, where only a user namespace mapping such ids puts a real one.
 */
static int thread_creds(struct libpidfd_info *k)
{
	unsigned int id[3];
	int r = lpfd_sys_getresuid(id);

	if (r < 0)
		return r;
	k->ruid = id[0], k->euid = id[1], k->suid = id[2];
	r = lpfd_sys_getresgid(id);
	if (r < 0)
		return r;
	k->rgid = id[0], k->egid = id[1], k->sgid = id[2];
	k->fsuid = lpfd_sys_getfsuid();
	k->fsgid = lpfd_sys_getfsgid();
	return k->fsuid >= (uint32_t)-4095 || k->fsgid >= (uint32_t)-4095;
}

static void status_creds(const struct lpfd_status *st, struct libpidfd_info *k)
{
	k->ruid = st->uid[0], k->euid = st->uid[1];
	k->suid = st->uid[2], k->fsuid = st->uid[3];
	k->rgid = st->gid[0], k->egid = st->gid[1];
	k->sgid = st->gid[2], k->fsgid = st->gid[3];
}

/*
 * The leader's credentials ("self/status"), which the kernel reports for
 * the process: each thread has its own (a raw setresuid() in one changes
 * no other's), and the system calls tell only the calling thread's.
 * /proc/self is the leader in any procfs that shows us at all; in one that
 * does not, the emulation cannot answer. Or the calling thread's
 * ("thread-self/status"), where a system call's answer may be a refusal.
 */
static int status_file_creds(struct lpfd_proc *p, const char *file,
			     struct libpidfd_info *k)
{
	struct lpfd_status st;
	char buf[512];
	ssize_t n = lpfd_proc_read(p, file, buf, sizeof(buf));

	if (n < 0)
		return n == -ENOENT ? -ENOSYS : (int)n;
	(void)lpfd_parse_status(buf, (size_t)n, &st);
	if (!(st.have & LPFD_ST_UID) || !(st.have & LPFD_ST_GID))
		return -ENOSYS;
	status_creds(&st, k);
	return 0;
}

/* One emulated call: its /proc, open or not, and the process it names. */
struct emulated {
	const struct lpfd_route *t;
	pid_t tid, tgid; /* the calling thread's and process's */
	int pid;    /* the target's, in our pid namespace; 0 for a sentinel */
	bool proc_open;
	struct lpfd_proc p;
};

/*
 * The cgroup id, where it can be had; an answer without it is still the
 * caller's, so a cgroup that cannot be resolved, for whatever reason (no
 * descriptor to spare included), leaves the bit clear. For another
 * process, a liveness check must follow.
 */
static bool read_cgroupid(struct emulated *e, uint64_t *id)
{
	bool thread = e->t->kind == LPFD_ROUTE_SELF_THREAD;
	const char *file = thread ? "thread-self/cgroup" : "self/cgroup";
	char path[48];

	if (!e->proc_open) {
		if (lpfd_proc_open(&e->p, LPFD_PROC_ANY) < 0)
			return false;
		e->proc_open = true;
	}
	if (!lpfd_route_is_self(e->t)) {
		lpfd_proc_path(path, sizeof(path), "", e->pid, "/cgroup");
		file = path;
	}
	return lpfd_read_cgroupid(&e->p, file, id) == 0;
}

/*
 * The caller itself: ids from system calls, and so are the credentials
 * where the calling thread is the one asked about (PIDFD_SELF_THREAD, or
 * the leader asking about its process); a process asked about from
 * another thread has its leader's, from /proc.
 */
static int self_base(struct emulated *e, struct libpidfd_info *k)
{
	bool thread = e->t->kind == LPFD_ROUTE_SELF_THREAD;
	pid_t ppid = lpfd_sys_getppid(); /* 0 is an answer; < 0 a refusal */
	int r;

	if (ppid < 0)
		return ppid;
	k->tgid = (uint32_t)e->tgid;
	k->pid = thread ? (uint32_t)e->tid : k->tgid;
	k->ppid = (uint32_t)ppid;
	r = k->pid == (uint32_t)e->tid ? thread_creds(k) : 1;
	if (r > 0) {
		/* Our own files: any procfs that shows us names them alike. */
		r = lpfd_proc_open(&e->p, LPFD_PROC_ANY);
		if (r < 0)
			return r;
		e->proc_open = true;
		r = status_file_creds(&e->p, k->pid == (uint32_t)e->tid ?
			"thread-self/status" : "self/status", k);
	}
	return r;
}

/* Another process's ids and credentials, from its status file. */
static int status_answer(struct emulated *e, struct libpidfd_info *k)
{
	struct lpfd_status st;
	int r = lpfd_proc_status(&e->p, e->pid, &st);

	/* hidepid=1 shows the directory and refuses its files: EPERM. */
	if (r == -ESRCH || r == -EPERM)
		return lpfd_proc_missing_errno(&e->p, e->t->fd);
	if (r < 0)
		return r;
	if ((st.have & LPFD_ST_INFO) != LPFD_ST_INFO || st.pid != e->pid ||
	    st.tgid == 0)
		return -ESRCH;
	k->pid = (uint32_t)e->pid;
	k->tgid = (uint32_t)st.tgid;
	k->ppid = (uint32_t)st.ppid;
	status_creds(&st, k);
	return 0;
}

/*
 * The ids and credentials: the caller's own, or another process's, its
 * /proc open and its pid read from the fdinfo.
 */
static int base(struct emulated *e, struct libpidfd_info *k)
{
	if (lpfd_route_is_self(e->t))
		return self_base(e, k);
	if (e->pid == 0)
		return -EREMOTE;
	if (e->pid < 0)
		return -ESRCH; /* reaped: only the kernel kept the exit status */
	return status_answer(e, k);
}

/*
 * The answer: the base, the cgroup where asked and, for another process,
 * last the check that it is still unreaped, which proves all it read.
 */
static int answer(struct emulated *e, uint64_t req, struct libpidfd_info *k)
{
	uint64_t id;
	int r = base(e, k);

	if (r < 0)
		return r;
	k->mask = PIDFD_INFO_PID | PIDFD_INFO_CREDS;
	if ((req & PIDFD_INFO_CGROUPID) && read_cgroupid(e, &id)) {
		k->cgroupid = id;
		k->mask |= PIDFD_INFO_CGROUPID;
	}
	/* Until the process is reaped its pid cannot name another one. */
	if (!lpfd_route_is_self(e->t) &&
	    (r = lpfd_proc_unreaped(&e->p, e->t->fd)) <= 0)
		return r < 0 ? r : -ESRCH;
	if ((req & PIDFD_INFO_COREDUMP) && k->tgid == (uint32_t)e->tgid)
		emulate_coredump(k);
	if (req & PIDFD_INFO_SUPPORTED_MASK) {
		lpfd_info_put_supported(k, sizeof(*k));
		/*
		 * It claims what this call can answer, nothing more: only a
		 * process's own threads can tell whether it would dump core.
		 */
		if (k->tgid != (uint32_t)e->tgid)
			k->supported_mask &= ~(uint64_t)PIDFD_INFO_COREDUMP;
	}
	return 0;
}

/*
 * The answer is made on the stack and copied to the caller only on
 * success, as the kernel's copy_struct_to_user() does: the answer, then
 * zeroes up to the caller's size.
 */
static int get_info_emulated(const struct lpfd_route *t,
			     struct libpidfd_info *info, size_t size)
{
	struct emulated e = { .t = t };
	struct libpidfd_info k = { 0 };
	uint64_t req = lpfd_info_mask(info);
	int r;

	if (t->kind == LPFD_ROUTE_BAD)
		return -EBADF;
	/* Refused (a seccomp filter): no made-up id is ever compared. */
	e.tid = lpfd_sys_gettid();
	if (e.tid < 0)
		return e.tid;
	e.tgid = lpfd_sys_getpid();
	if (e.tgid < 0)
		return e.tgid;
	if (!lpfd_route_is_self(t)) {
		r = lpfd_proc_open_pidfd(&e.p, t->fd, &e.pid);
		if (r < 0)
			return r;
		e.proc_open = true;
	}
	r = answer(&e, req, &k);
	if (e.proc_open)
		lpfd_proc_close(&e.p);
	if (r == 0) {
		memcpy(info, &k, size < sizeof(k) ? size : sizeof(k));
		if (size > sizeof(k))
			memset((char *)info + sizeof(k), 0, size - sizeof(k));
	}
	return r;
}

/*
 * Whether fd is a pidfd, in the kernel's words: 0, or its answer for any
 * other file or none.
 */
static int pidfd_or_errno(const struct lpfd_route *t)
{
	struct lpfd_fdinfo fi;
	int r;

	if (t->kind == LPFD_ROUTE_BAD)
		return -EBADF;
	if (lpfd_route_is_self(t))
		return 0;
	r = lpfd_native(LPFD_FEAT_GET_INFO);
	if (r < 0)
		return r;
	if (r) {
		r = lpfd_sys_ioctl(t->fd, info_cmd(PIDFD_INFO_SIZE_VER0), NULL);
		return r == -EBADF || r == -ENOTTY ? r : 0;
	}
	r = lpfd_read_fdinfo(t->fd, &fi);
	if (r < 0)
		return r;
	return fi.is_pidfd ? 0 : lpfd_not_pidfd_errno(t->fd, &fi);
}

/*
 * The arguments, judged once for both paths. The kernel judges the fd
 * before the struct; NULL and a struct below the first layout are EINVAL
 * (the size is an argument here, as for clone3), one larger than an ioctl
 * can carry E2BIG.
 */
static int check_args(const struct lpfd_route *t, struct libpidfd_info *info,
		      size_t size)
{
	int r;

	if (lpfd_likely(info && size >= PIDFD_INFO_SIZE_VER0 &&
			size <= INFO_SIZE_MAX))
		return 0;
	r = pidfd_or_errno(t);
	if (r < 0)
		return r;
	return size > INFO_SIZE_MAX ? -E2BIG : -EINVAL;
}

int lpfd_get_info(int pidfd, struct libpidfd_info *info, size_t size)
{
	struct lpfd_route t = lpfd_route(pidfd, LPFD_NO_SENTINELS);
	int r = check_args(&t, info, size);

	if (r < 0)
		return r;
	r = lpfd_native(LPFD_FEAT_GET_INFO);
	if (r < 0)
		return r;
	if (r)
		return get_info_native(&t, info, size);
	return get_info_emulated(&t, info, size);
}

/*
 * The exported type is struct pidfd_info, the header's own (the same
 * layout) where the library is built with kernel headers before 6.13; the
 * library itself works on struct libpidfd_info, complete with any headers.
 * Parenthesised: the header's macro of the same name takes either.
 */
LIBPIDFD_API int (libpidfd_get_info)(int pidfd, struct pidfd_info *info,
				     size_t size)
{
	int saved = errno;
	struct libpidfd_info *full = (struct libpidfd_info *)(void *)info;

	return (int)lpfd_return(saved, lpfd_get_info(pidfd, full, size));
}
