/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libpidfd_get_info(): PIDFD_GET_INFO on every kernel.
 *
 * Native: the ioctl straight into the caller's struct, its size encoded in
 * the command as the kernel's extensible-struct rules want, then the
 * running kernel's layout and errno brought to the newest kernel's.
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

/* The largest size an ioctl command can carry (14 bits). */
#define INFO_CMD_SIZE_MAX ((1UL << _IOC_SIZEBITS) - 1)
#define OFF_SUPPORTED_V2 72 /* where 6.19 and 7.0 put supported_mask */

static unsigned long info_cmd(size_t size)
{
	if (size > INFO_CMD_SIZE_MAX)
		size = sizeof(struct pidfd_info);
	return _IOC(_IOC_READ | _IOC_WRITE, PIDFS_IOCTL_MAGIC, 11, size);
}

/* What libpidfd_get_info() can return on this kernel, by the path it takes. */
uint64_t __lpfd_info_supported_mask(void)
{
	uint64_t m = PIDFD_INFO_PID | PIDFD_INFO_CREDS | PIDFD_INFO_CGROUPID |
		     PIDFD_INFO_SUPPORTED_MASK;

	if (__lpfd_kernel_has(__LPFD_FEAT_GET_INFO) <= 0)
		return m | PIDFD_INFO_COREDUMP; /* the caller's own, emulated */
	if (__lpfd_kernel_has(__LPFD_FEAT_INFO_EXIT) > 0)
		m |= PIDFD_INFO_EXIT;
	if (__lpfd_kernel_has(__LPFD_FEAT_INFO_COREDUMP) > 0)
		m |= PIDFD_INFO_COREDUMP;
	if (__lpfd_kernel_has(__LPFD_FEAT_INFO_SUPPORTED) > 0)
		m |= PIDFD_INFO_COREDUMP_SIGNAL;
	if (__lpfd_kernel_has(__LPFD_FEAT_INFO_CODE) > 0)
		m |= PIDFD_INFO_COREDUMP_CODE;
	return m;
}

/*
 * The native path turns the kernel's layout and supported mask into the
 * newest by what the probes found: each must have run (it is cached from
 * then on), since one that could not run (EMFILE) is not a feature absent.
 */
static int info_probes_done(void)
{
	static const enum __lpfd_feature probes[] = {
		__LPFD_FEAT_INFO_EXIT, __LPFD_FEAT_INFO_COREDUMP,
		__LPFD_FEAT_INFO_SUPPORTED, __LPFD_FEAT_INFO_CODE,
	};

	for (size_t i = 0; i < __lpfd_array_size(probes); i++) {
		int r = __lpfd_kernel_has_raw(probes[i]);

		if (r < 0)
			return r;
	}
	return 0;
}

static void put_supported(struct pidfd_info *info, size_t size)
{
	info->mask |= PIDFD_INFO_SUPPORTED_MASK;
	if (size >= PIDFD_INFO_SIZE_VER3)
		info->supported_mask = __lpfd_info_supported_mask();
}

/* The size of struct pidfd_info in the running kernel, as far as it matters. */
static size_t kernel_info_size(void)
{
	if (__lpfd_kernel_has_raw(__LPFD_FEAT_INFO_CODE) > 0)
		return PIDFD_INFO_SIZE_VER3;
	if (__lpfd_kernel_has_raw(__LPFD_FEAT_INFO_SUPPORTED) > 0)
		return PIDFD_INFO_SIZE_VER2;
	return PIDFD_INFO_SIZE_VER1;
}

/*
 * Bring what a kernel with a ksize-byte struct wrote to the newest layout:
 * 6.19 and 7.0 (80 bytes) put supported_mask at 72, where 7.1 has
 * coredump_code; kernels before 6.19 have no supported_mask, which the
 * library then supplies. size is the caller's struct size.
 */
void __lpfd_info_to_newest(struct pidfd_info *info, size_t size, uint64_t req,
			   size_t ksize)
{
	uint64_t v;

	if (!(info->mask & PIDFD_INFO_SUPPORTED_MASK)) {
		if (req & PIDFD_INFO_SUPPORTED_MASK)
			put_supported(info, size);
		return;
	}
	if (ksize != PIDFD_INFO_SIZE_VER2 || size <= OFF_SUPPORTED_V2)
		return;
	if (size < PIDFD_INFO_SIZE_VER2) {
		/* Only part of the moved field reached the caller: drop it. */
		memset((char *)info + OFF_SUPPORTED_V2, 0, size - OFF_SUPPORTED_V2);
		return;
	}
	memcpy(&v, (char *)info + OFF_SUPPORTED_V2, sizeof(v));
	memset((char *)info + OFF_SUPPORTED_V2, 0, sizeof(v));
	if (size >= PIDFD_INFO_SIZE_VER3)
		info->supported_mask = v;
}

static void info_to_newest(struct pidfd_info *info, size_t size, uint64_t req)
{
	size_t ksize = info->mask & PIDFD_INFO_SUPPORTED_MASK ?
		kernel_info_size() : 0;

	__lpfd_info_to_newest(info, size, req, ksize);
}

/*
 * ESRCH covers both a reaped process and, before the kernel said EREMOTE,
 * one outside our pid namespace; the fdinfo tells which.
 */
static int newest_errno(int pidfd, int err)
{
	struct __lpfd_fdinfo fi;

	if (err != -ESRCH || __lpfd_read_fdinfo(pidfd, &fi) < 0)
		return err;
	return fi.is_pidfd && fi.pid == 0 ? -EREMOTE : err;
}

/*
 * Where the kernel fills or poisons the return-stack predictor on every
 * system call (AMD's SRSO "safe RET", RSB filling), each return into a
 * frame that was live across the syscall mispredicts. The native path
 * therefore makes its ioctl from libpidfd_get_info()'s own frame, as
 * libc's ioctl() does: one such return, not three (measured: make bench).
 */
#define SYSCALL_FRAME inline __attribute__((always_inline))

/* The kernel path on a real pidfd; info and size are valid. */
static SYSCALL_FRAME int info_native_fd(int pidfd, struct pidfd_info *info,
					size_t size)
{
	uint64_t req = info->mask;
	int r = __lpfd_sys_ioctl(pidfd, info_cmd(size), info);

	if (r < 0)
		return newest_errno(pidfd, r);
	if (size > INFO_CMD_SIZE_MAX)
		memset((char *)info + sizeof(*info), 0, size - sizeof(*info));
	info_to_newest(info, size, req);
	return 0;
}

static SYSCALL_FRAME int info_native(const struct __lpfd_target *t,
				     struct pidfd_info *info, size_t size)
{
	int fd, r;

	if (t->kind == __LPFD_TARGET_FD)
		return info_native_fd(t->fd, info, size);
	fd = __lpfd_target_open_self(t);
	if (fd < 0)
		return fd;
	r = info_native_fd(fd, info, size);
	__lpfd_sys_close(fd);
	return r;
}

static uint32_t coredump_mask_of_dumpable(int dumpable)
{
	switch (dumpable) {
	case 0:
		return PIDFD_COREDUMP_SKIP;
	case 1:
		return PIDFD_COREDUMP_USER;
	case 2:
		return PIDFD_COREDUMP_ROOT;
	default:
		return 0;
	}
}

/*
 * Whether a process may dump core is a property of its memory, which only
 * its own threads can ask about (PR_GET_DUMPABLE); for any other process
 * the bit stays clear.
 */
static void emulate_coredump(struct pidfd_info *k, bool own_process)
{
	int d;

	if (!own_process)
		return;
	d = __lpfd_sys_prctl(PR_GET_DUMPABLE, 0);
	if (d < 0)
		return;
	k->coredump_mask = coredump_mask_of_dumpable(d);
	k->mask |= PIDFD_INFO_COREDUMP;
}

/*
 * A cgroup that cannot be resolved leaves the bit clear; running out of
 * descriptors or memory on the way is an error, not a missing cgroup.
 */
static int cgroup_error(int r)
{
	return r == -EMFILE || r == -ENFILE || r == -ENOMEM ? r : 0;
}

static int emulate_cgroupid(const struct __lpfd_proc *p, struct pidfd_info *k,
			    const char *cgroup_file)
{
	uint64_t id;
	int r = __lpfd_read_cgroupid(p, cgroup_file, &id);

	if (r < 0)
		return cgroup_error(r);
	if (r == 0) {
		k->cgroupid = id;
		k->mask |= PIDFD_INFO_CGROUPID;
	}
	return 0;
}

/* The caller itself: every id and credential comes from a system call. */
static int info_emulated_self(const struct __lpfd_target *t, uint64_t req,
			      struct pidfd_info *k)
{
	unsigned int id[3];
	struct __lpfd_proc p;
	int r;

	k->tgid = (uint32_t)__lpfd_sys_getpid();
	k->pid = t->kind == __LPFD_TARGET_SELF_THREAD ?
		(uint32_t)__lpfd_sys_gettid() : k->tgid;
	k->ppid = (uint32_t)__lpfd_sys_getppid();
	__lpfd_sys_getresuid(id);
	k->ruid = id[0], k->euid = id[1], k->suid = id[2];
	__lpfd_sys_getresgid(id);
	k->rgid = id[0], k->egid = id[1], k->sgid = id[2];
	k->fsuid = __lpfd_sys_getfsuid();
	k->fsgid = __lpfd_sys_getfsgid();
	k->mask = PIDFD_INFO_PID | PIDFD_INFO_CREDS;
	if (req & PIDFD_INFO_COREDUMP)
		emulate_coredump(k, true);
	if (!(req & PIDFD_INFO_CGROUPID))
		return 0;
	/* The caller's own cgroup file: any procfs names it alike. */
	r = __lpfd_proc_open(&p, __LPFD_PROC_ANY);
	if (r < 0)
		return cgroup_error(r);
	r = emulate_cgroupid(&p, k, t->kind == __LPFD_TARGET_SELF_THREAD ?
			     "thread-self/cgroup" : "self/cgroup");
	__lpfd_proc_close(&p);
	return r;
}

/*
 * Another process, through /proc. The emulation resolves the cgroup id
 * (three more /proc reads) only when asked for it.
 */
static int info_emulated_fd(const struct __lpfd_proc *p, int pidfd, int pid,
			    uint64_t req, struct pidfd_info *k)
{
	struct __lpfd_status st;
	char path[48];
	int r;

	if (pid == 0)
		return -EREMOTE;
	if (pid < 0)
		return -ESRCH; /* reaped: only the kernel kept the exit status */
	r = __lpfd_proc_status(p, pid, &st);
	if (r == -ESRCH)
		return __lpfd_proc_missing_errno(p, pidfd);
	if (r < 0)
		return r;
	if ((st.have & __LPFD_ST_ALL) != __LPFD_ST_ALL || st.pid != pid ||
	    st.tgid == 0)
		return -ESRCH;
	k->pid = (uint32_t)pid;
	k->tgid = (uint32_t)st.tgid;
	k->ppid = (uint32_t)st.ppid;
	k->ruid = st.uid[0], k->euid = st.uid[1];
	k->suid = st.uid[2], k->fsuid = st.uid[3];
	k->rgid = st.gid[0], k->egid = st.gid[1];
	k->sgid = st.gid[2], k->fsgid = st.gid[3];
	k->mask = PIDFD_INFO_PID | PIDFD_INFO_CREDS;
	if (req & PIDFD_INFO_CGROUPID) {
		__lpfd_proc_path(path, sizeof(path), "", pid, "/cgroup");
		r = emulate_cgroupid(p, k, path);
		if (r < 0)
			return r;
	}
	if (req & PIDFD_INFO_COREDUMP)
		emulate_coredump(k, st.tgid == __lpfd_sys_getpid());
	r = __lpfd_proc_unreaped(p, pidfd);
	if (r < 0)
		return r;
	return r ? 0 : -ESRCH;
}

/*
 * The kernel's errors for a bad fd come before those for bad arguments.
 * /proc is opened, and proven ours, before the fdinfo is read.
 */
static int check_emulated_fd(struct __lpfd_proc *p, int pidfd,
			     struct __lpfd_fdinfo *fi)
{
	int r = __lpfd_proc_open(p, __LPFD_PROC_OUR_PIDS);

	if (r < 0)
		return __lpfd_proc_fd_errno(pidfd, r);
	r = __lpfd_proc_fdinfo(p, pidfd, fi);
	if (r == 0 && !fi->is_pidfd)
		r = -ENOTTY;
	if (r < 0)
		__lpfd_proc_close(p);
	return r;
}

static int info_emulated(const struct __lpfd_target *t,
			 struct pidfd_info *info, size_t size)
{
	struct __lpfd_proc p = { .dir = -1 };
	struct pidfd_info k = { 0 };
	struct __lpfd_fdinfo fi;
	uint64_t req;
	int r;

	if (t->kind == __LPFD_TARGET_FD) {
		r = check_emulated_fd(&p, t->fd, &fi);
		if (r < 0)
			return r;
	}
	if (!info || size < PIDFD_INFO_SIZE_VER0) {
		__lpfd_proc_close(&p);
		return -EINVAL;
	}
	req = info->mask;
	if (t->kind == __LPFD_TARGET_FD)
		r = info_emulated_fd(&p, t->fd, fi.pid, req, &k);
	else
		r = info_emulated_self(t, req, &k);
	__lpfd_proc_close(&p);
	if (r < 0)
		return r;
	if (req & PIDFD_INFO_SUPPORTED_MASK)
		put_supported(&k, sizeof(k));
	memcpy(info, &k, size < sizeof(k) ? size : sizeof(k));
	if (size > sizeof(k))
		memset((char *)info + sizeof(k), 0, size - sizeof(k));
	return 0;
}

/* NULL or a struct below the first layout: the kernel still judges the fd. */
static int info_bad_args(const struct __lpfd_target *t)
{
	int r;

	if (t->kind != __LPFD_TARGET_FD)
		return -EINVAL;
	r = __lpfd_sys_ioctl(t->fd, info_cmd(PIDFD_INFO_SIZE_VER0), NULL);
	return r == -EBADF || r == -ENOTTY ? r : -EINVAL;
}

static SYSCALL_FRAME int get_info(int pidfd, struct pidfd_info *info,
				  size_t size)
{
	struct __lpfd_target t;
	int r = __lpfd_target_resolve(pidfd, &t);

	if (r < 0)
		return r;
	r = __lpfd_kernel_has(__LPFD_FEAT_GET_INFO);
	if (r < 0)
		return r;
	if (!r)
		return info_emulated(&t, info, size);
	r = info_probes_done();
	if (r < 0)
		return r;
	if (!info || size < PIDFD_INFO_SIZE_VER0)
		return info_bad_args(&t);
	return info_native(&t, info, size);
}

int __lpfd_get_info(int pidfd, struct pidfd_info *info, size_t size)
{
	return get_info(pidfd, info, size);
}

LIBPIDFD_API int libpidfd_get_info(int pidfd, struct pidfd_info *info,
				   size_t size)
{
	int saved = errno;

	return (int)__lpfd_return(saved, get_info(pidfd, info, size));
}
