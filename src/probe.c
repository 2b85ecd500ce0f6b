/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The feature probe table, in the shape of libbpf's: one entry per kernel
 * feature, each found out by a real, harmless call (never from the kernel
 * version, which backports and distributions make meaningless), cached in a
 * tri-state with relaxed atomics. Two threads racing on a first probe both
 * probe and store the same answer, which needs no lock.
 */
#include <linux/sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include "internal.h"
#include "syscall.h"

#ifndef P_PIDFD
#define P_PIDFD 3
#endif
#ifndef CLONE_PIDFD
#define CLONE_PIDFD 0x00001000
#endif
#ifndef MADV_COLD
#define MADV_COLD 20
#endif

enum { PROBE_UNKNOWN = 0, PROBE_YES = 1, PROBE_NO = 2 };

/* -ENOSYS means the system call does not exist; anything else that it does. */
static int exists_unless_enosys(long ret)
{
	return ret == -ENOSYS ? 0 : 1;
}

static int probe_pidfd_open(void)
{
	int fd = lpfd_sys_pidfd_open(lpfd_sys_getpid(), 0);

	if (fd < 0)
		return fd == -ENOSYS ? 0 : fd;
	lpfd_sys_close(fd);
	return 1;
}

static int probe_send_signal(void)
{
	return exists_unless_enosys(lpfd_sys_pidfd_send_signal(-1, 0, NULL, 0));
}

/* A P_PIDFD-aware kernel looks the fd up (EBADF); an older one rejects the idtype. */
static int probe_waitid_pidfd(void)
{
	int r = lpfd_sys_waitid(P_PIDFD, 0x7fffffff, NULL, WEXITED, NULL);

	return r == -EBADF;
}

static int probe_getfd(void)
{
	return exists_unless_enosys(lpfd_sys_pidfd_getfd(-1, 0, 0));
}

static int probe_process_madvise(void)
{
	return exists_unless_enosys(
		lpfd_sys_process_madvise(-1, NULL, 0, MADV_COLD, 0));
}

static int probe_process_mrelease(void)
{
	return exists_unless_enosys(lpfd_sys_process_mrelease(-1, 0));
}

static int probe_pidfd_thread(void)
{
	int fd = lpfd_sys_pidfd_open(lpfd_sys_gettid(), PIDFD_THREAD);

	if (fd < 0)
		return fd == -EINVAL || fd == -ENOSYS ? 0 : fd;
	lpfd_sys_close(fd);
	return 1;
}

static int probe_ns_ioctls(void)
{
	int pidfd, nsfd;

	pidfd = lpfd_sys_pidfd_open(lpfd_sys_getpid(), 0);
	if (pidfd < 0)
		return pidfd == -ENOSYS ? 0 : pidfd;
	nsfd = lpfd_sys_ioctl(pidfd, PIDFD_GET_UTS_NAMESPACE, NULL);
	lpfd_sys_close(pidfd);
	if (nsfd >= 0) {
		lpfd_sys_close(nsfd);
		return 1;
	}
	return nsfd == -EMFILE || nsfd == -ENFILE ? nsfd : 0;
}

/*
 * PIDFD_GET_INFO on our own pidfd, asking for what later kernels add, in a
 * buffer larger than any layout (the kernel zeroes what it does not know).
 */
static int info_on_self(struct pidfd_info *info)
{
	int pidfd, r;

	memset(info, 0, sizeof(*info));
	info->mask = PIDFD_INFO_COREDUMP | PIDFD_INFO_SUPPORTED_MASK;
	pidfd = lpfd_sys_pidfd_open(lpfd_sys_getpid(), 0);
	if (pidfd < 0)
		return pidfd == -ENOSYS ? 0 : pidfd;
	r = lpfd_sys_ioctl(pidfd, PIDFD_GET_INFO, info);
	lpfd_sys_close(pidfd);
	if (r < 0)
		return r == -ENOTTY || r == -EINVAL ? 0 : r;
	return 1;
}

static int probe_get_info(void)
{
	struct pidfd_info info;

	return info_on_self(&info);
}

static int probe_info_coredump(void)
{
	struct pidfd_info info;
	int r = info_on_self(&info);

	return r <= 0 ? r : !!(info.mask & PIDFD_INFO_COREDUMP);
}

static int probe_info_supported(void)
{
	struct pidfd_info info;
	int r = info_on_self(&info);

	return r <= 0 ? r : !!(info.mask & PIDFD_INFO_SUPPORTED_MASK);
}

/* 7.1 moved supported_mask from offset 72 to 80 and lists COREDUMP_CODE in it. */
static int probe_info_code(void)
{
	struct pidfd_info info;
	int r = info_on_self(&info);

	if (r <= 0)
		return r;
	return (info.mask & PIDFD_INFO_SUPPORTED_MASK) &&
	       (info.supported_mask & PIDFD_INFO_COREDUMP_CODE);
}

/*
 * Exit status of a reaped process: the only real test is a reaped process.
 * Kernels that list their supported bits say so directly; for 6.13 to 6.18
 * a child that exits at once is created (no exit signal, so the caller's
 * SIGCHLD handling never sees it), reaped through its pidfd and asked.
 */
static int probe_info_exit_by_child(void)
{
	struct pidfd_info info = { .mask = PIDFD_INFO_EXIT };
	siginfo_t si;
	int pidfd = -1, r;
	long pid;

	pid = lpfd_sc(__NR_clone, CLONE_PIDFD, 0, &pidfd, 0, 0, 0);
	if (pid == 0)
		for (;;)
			lpfd_sc(__NR_exit, 0, 0, 0, 0, 0, 0);
	if (pid < 0)
		return (int)pid;
	/* A signal handler may interrupt the wait: the child is still ours. */
	do
		r = lpfd_sys_waitid(P_PIDFD, pidfd, &si, WEXITED | __WALL,
				      NULL);
	while (r == -EINTR);
	if (r == 0)
		r = lpfd_sys_ioctl(pidfd, PIDFD_GET_INFO, &info);
	lpfd_sys_close(pidfd);
	if (r < 0)
		return r == -ESRCH ? 0 : r;
	return !!(info.mask & PIDFD_INFO_EXIT);
}

static int probe_info_exit(void)
{
	struct pidfd_info info;
	int r = info_on_self(&info);

	if (r <= 0)
		return r;
	if (info.mask & PIDFD_INFO_SUPPORTED_MASK) {
		uint64_t supported = info.supported_mask ? info.supported_mask :
			((const uint64_t *)(const void *)&info)[72 / 8];

		return !!(supported & PIDFD_INFO_EXIT);
	}
	return probe_info_exit_by_child();
}

/* Signal 0 to ourselves through the sentinel: the kernel knows it or says EBADF. */
static int probe_sentinel(int sentinel)
{
	int r = lpfd_sys_pidfd_send_signal(sentinel, 0, NULL, 0);

	return r == 0 ? 1 : (r == -EBADF || r == -ENOSYS ? 0 : r);
}

static int probe_self_sentinels(void)
{
	return probe_sentinel(PIDFD_SELF_THREAD);
}

static int probe_self_group_10001(void)
{
	return probe_sentinel(-10001);
}

struct feature_desc {
	int (*probe)(void);
	/* LIBPIDFD_EMULATE=1 turns it off: the library has its own path. */
	bool emulable;
};

static const struct feature_desc feature_table[LPFD_FEAT_COUNT] = {
	[LPFD_FEAT_PIDFD_OPEN]       = { probe_pidfd_open, false },
	[LPFD_FEAT_SEND_SIGNAL]      = { probe_send_signal, false },
	[LPFD_FEAT_WAITID_PIDFD]     = { probe_waitid_pidfd, false },
	[LPFD_FEAT_GETFD]            = { probe_getfd, false },
	[LPFD_FEAT_PROCESS_MADVISE]  = { probe_process_madvise, false },
	[LPFD_FEAT_PROCESS_MRELEASE] = { probe_process_mrelease, false },
	[LPFD_FEAT_PIDFD_THREAD]     = { probe_pidfd_thread, false },
	[LPFD_FEAT_NS_IOCTLS]        = { probe_ns_ioctls, true },
	[LPFD_FEAT_GET_INFO]         = { probe_get_info, true },
	[LPFD_FEAT_INFO_EXIT]        = { probe_info_exit, true },
	[LPFD_FEAT_SELF_SENTINELS]   = { probe_self_sentinels, true },
	[LPFD_FEAT_INFO_COREDUMP]    = { probe_info_coredump, true },
	[LPFD_FEAT_SELF_GROUP_10001] = { probe_self_group_10001, true },
	[LPFD_FEAT_INFO_SUPPORTED]   = { probe_info_supported, true },
	[LPFD_FEAT_INFO_CODE]        = { probe_info_code, true },
};

static int feature_cache[LPFD_FEAT_COUNT];
static int emulate_cache;

/* For the differential tests, which run both paths in one process. */
void lpfd_emulate_override(int on)
{
	__atomic_store_n(&emulate_cache, on ? PROBE_YES : PROBE_NO,
			 __ATOMIC_RELAXED);
}

bool lpfd_emulate_forced(void)
{
	int v = __atomic_load_n(&emulate_cache, __ATOMIC_RELAXED);

	if (lpfd_unlikely(v == PROBE_UNKNOWN)) {
		const char *e = getenv("LIBPIDFD_EMULATE");

		v = e && e[0] == '1' && e[1] == '\0' ? PROBE_YES : PROBE_NO;
		__atomic_store_n(&emulate_cache, v, __ATOMIC_RELAXED);
	}
	return v == PROBE_YES;
}

int lpfd_kernel_has(enum lpfd_feature feat)
{
	int v = __atomic_load_n(&feature_cache[feat], __ATOMIC_RELAXED);
	int r;

	if (lpfd_likely(v != PROBE_UNKNOWN))
		return v == PROBE_YES;
	r = feature_table[feat].probe();
	if (r < 0)
		return r; /* could not find out (EMFILE, say): ask again next time */
	__atomic_store_n(&feature_cache[feat], r ? PROBE_YES : PROBE_NO,
			 __ATOMIC_RELAXED);
	return r;
}

int lpfd_native(enum lpfd_feature feat)
{
	if (feature_table[feat].emulable && lpfd_emulate_forced())
		return 0;
	return lpfd_kernel_has(feat);
}
