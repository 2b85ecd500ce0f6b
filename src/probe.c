/* SPDX-License-Identifier: LGPL-2.1-or-later OR MIT */
/*
 * The feature probe table, in the shape of libbpf's: one entry per kernel
 * feature (include/internal/feature_list.h), each found out by a real,
 * harmless call (never from the kernel version, which backports and distributions make
 * meaningless), cached in a tri-state with relaxed atomics. Two threads
 * racing on a first probe both probe and store the same answer, which
 * needs no lock.
 *
 * No probe creates a process or a thread, sends a signal other than 0 to
 * the caller, or keeps a descriptor: the caller may run under a seccomp
 * filter that kills on clone(), or at its pids limit. A probe that cannot
 * run at all (EMFILE, or EPERM from such a filter) is retried on the next
 * LPFD_PROBE_TRIES - 1 calls; then the feature counts as absent for good.
 * An emulator that does not know a call (qemu-user says ENOSYS, for an
 * unknown ioctl too) is a kernel without it.
 */
#include <fcntl.h>
#include <linux/sched.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>

#include "internal.h"
#include "syscall.h"

/* The probes' answers: 1 present, 0 absent, -errno could not find out. */
static int present_unless(long r, long absent1, long absent2)
{
	if (r == -ENOSYS || r == absent1 || r == absent2)
		return 0;
	return r < 0 ? (int)r : 1;
}

/* A system call that exists looks at the fd, -1: EBADF. */
static int answers_ebadf(long r)
{
	if (r == -EBADF)
		return 1;
	return r == -ENOSYS ? 0 : (int)r;
}

static int probe_pidfd_open(void)
{
	pid_t self = lpfd_sys_getpid();
	int fd;

	if (self < 0)
		return self; /* refused: could not find out */
	fd = lpfd_sys_pidfd_open(self, 0);
	if (fd >= 0)
		lpfd_sys_close(fd);
	return present_unless(fd, -ENOSYS, -ENOSYS);
}

static int probe_send_signal(void)
{
	return answers_ebadf(lpfd_sys_pidfd_send_signal(-1, 0, NULL, 0));
}

/*
 * A P_PIDFD-aware kernel looks the fd up (a negative one would be EINVAL);
 * an older one rejects the idtype.
 */
static int probe_waitid_pidfd(void)
{
	int r = lpfd_sys_waitid(P_PIDFD, 0x7fffffff, NULL, WEXITED, NULL);

	return r == -EINVAL ? 0 : answers_ebadf(r);
}

static int probe_getfd(void)
{
	return answers_ebadf(lpfd_sys_pidfd_getfd(-1, 0, 0));
}

static int probe_process_madvise(void)
{
	return answers_ebadf(lpfd_sys_process_madvise(-1, NULL, 0, MADV_COLD, 0));
}

static int probe_process_mrelease(void)
{
	return answers_ebadf(lpfd_sys_process_mrelease(-1, 0));
}

static int probe_pidfd_thread(void)
{
	pid_t tid = lpfd_sys_gettid();
	int fd;

	if (tid < 0)
		return tid;
	fd = lpfd_sys_pidfd_open(tid, PIDFD_THREAD);
	if (fd >= 0)
		lpfd_sys_close(fd);
	return present_unless(fd, -EINVAL, -EINVAL);
}

/* Whether the emulation's /proc reads can refuse to cross a mount. */
static int probe_openat2(void)
{
	struct lpfd_open_how how = { .flags = O_PATH | O_CLOEXEC,
				     .resolve = LPFD_RESOLVE_NO_XDEV };

	return answers_ebadf(lpfd_sys_openat2(-1, "x", &how));
}

/*
 * Whether one call can close the emulation's two descriptors. The range
 * past every possible descriptor closes nothing.
 */
static int probe_close_range(void)
{
	return present_unless(lpfd_sys_close_range(~0U, ~0U), -ENOSYS, -ENOSYS);
}

/* A pidfs ioctl on a pidfd of our own, opened for this one probe. */
static int ioctl_on_self(unsigned long cmd, void *arg)
{
	pid_t self = lpfd_sys_getpid();
	int pidfd = self < 0 ? self : lpfd_sys_pidfd_open(self, 0), r;

	if (pidfd < 0)
		return pidfd;
	r = lpfd_sys_ioctl(pidfd, cmd, arg);
	lpfd_sys_close(pidfd);
	return r;
}

static int probe_ns_ioctls(void)
{
	int nsfd = ioctl_on_self(PIDFD_GET_UTS_NAMESPACE, NULL);

	if (nsfd >= 0)
		lpfd_sys_close(nsfd);
	return present_unless(nsfd, -ENOTTY, -EINVAL);
}

/* ------------------------------------------------------------------------
 * PIDFD_GET_INFO: one ioctl on ourselves, asking for what later kernels
 * add, tells whether the kernel has it, its struct size and supported mask,
 * and whether it knows PIDFD_INFO_COREDUMP. Cached as one word: bit 0
 * "known", bit 1 COREDUMP, bits 8-15 the size, bits 32-63 the mask.
 */
static uint64_t info_word;

#define INFO_KNOWN 1ULL
#define INFO_COREDUMP 2ULL

static int info_probe(uint64_t *word)
{
	struct libpidfd_info info;
	uint64_t w = INFO_KNOWN;
	int r;

	memset(&info, 0, sizeof(info));
	info.mask = PIDFD_INFO_COREDUMP | PIDFD_INFO_SUPPORTED_MASK;
	/* PIDFD_GET_INFO of the newest size, whatever the system headers. */
	r = ioctl_on_self(_IOWR(PIDFS_IOCTL_MAGIC, 11, struct libpidfd_info),
			  &info);
	r = present_unless(r < 0 ? r : 1, -ENOTTY, -EINVAL);
	if (r < 0)
		return r;
	if (r) {
		size_t size = lpfd_info_kernel_size(&info);

		lpfd_info_to_newest(&info, sizeof(info), 0, size);
		w |= (uint64_t)size << 8;
		w |= (uint64_t)(uint32_t)info.supported_mask << 32;
		if (info.mask & PIDFD_INFO_COREDUMP)
			w |= INFO_COREDUMP;
	}
	*word = w;
	return 0;
}

/* The cached word, or -errno if the probe could not run this time. */
static int info_probed(uint64_t *word)
{
	uint64_t w = __atomic_load_n(&info_word, __ATOMIC_RELAXED);
	int r;

	if (lpfd_unlikely(!(w & INFO_KNOWN))) {
		r = info_probe(&w);
		if (r < 0)
			return r;
		__atomic_store_n(&info_word, w, __ATOMIC_RELAXED);
	}
	*word = w;
	return 0;
}

void lpfd_kernel_info(struct lpfd_kernel_info *out)
{
	/* A GET_INFO the probe found has its word cached. */
	uint64_t w = lpfd_surely_has(LPFD_FEAT_GET_INFO) ?
		     __atomic_load_n(&info_word, __ATOMIC_RELAXED) : 0;

	out->size = (uint32_t)((w >> 8) & 0xff);
	out->supported = w >> 32;
}

/* Each GET_INFO feature is one look at the cached word. */
static int info_bit(uint64_t bit, bool from_mask)
{
	uint64_t w;
	int r = info_probed(&w);

	if (r < 0)
		return r;
	return !!((from_mask ? w >> 32 : w) & bit);
}

static int probe_get_info(void)
{
	uint64_t w;
	int r = info_probed(&w);

	return r < 0 ? r : (w >> 8 & 0xff) != 0;
}

static int probe_info_coredump(void)
{
	return info_bit(INFO_COREDUMP, false);
}

static int probe_info_supported(void)
{
	return info_bit(PIDFD_INFO_SUPPORTED_MASK, true);
}

static int probe_info_code(void)
{
	return info_bit(PIDFD_INFO_COREDUMP_CODE, true);
}

/*
 * Exit status after the reap needs a reaped process to show itself, and
 * the library creates none. Kernels from 6.19 on list it in their
 * supported mask. Before, it is inferred from what came in the same
 * release, 6.15, and can be asked without a process: the PIDFD_SELF
 * sentinels. The inference is wrong only for a kernel that was given one
 * of the two without the other (a distribution's backport); the mask then
 * misses or claims EXIT, and only what the library reports is affected:
 * requests go to the kernel as they are.
 */
static int probe_info_exit(void)
{
	uint64_t w;
	int r = info_probed(&w);

	if (r < 0)
		return r;
	if (!(w >> 8 & 0xff))
		return 0;
	if ((w >> 32) & PIDFD_INFO_SUPPORTED_MASK)
		return !!((w >> 32) & PIDFD_INFO_EXIT);
	return lpfd_kernel_has(LPFD_FEAT_SELF_SENTINELS);
}

/* Signal 0 to ourselves through the sentinel: the kernel knows it or says EBADF. */
static int probe_sentinel(int sentinel)
{
	int r = lpfd_sys_pidfd_send_signal(sentinel, 0, NULL, 0);

	return r == -EBADF ? 0 : present_unless(r, -ENOSYS, -ENOSYS);
}

static int probe_self_sentinels(void)
{
	return probe_sentinel(PIDFD_SELF_THREAD);
}

static int probe_self_group_10001(void)
{
	return probe_sentinel(-10001);
}

/* ------------------------------------------------------------------------
 * The table and its cache.
 */
struct feature_desc {
	int (*probe)(void);
	bool emulable; /* LIBPIDFD_EMULATE=1 turns it off: the library has its own path */
};

static const struct feature_desc feature_table[LPFD_FEAT_COUNT] = {
#define LPFD_FEATURE_DESC(NAME, name, since, emulable, what) \
	[LPFD_FEAT_##NAME] = { probe_##name, emulable },
	LPFD_FEATURES(LPFD_FEATURE_DESC)
#undef LPFD_FEATURE_DESC
};

/* The public bits follow the list's order. */
#define LPFD_FEATURE_BIT(NAME, name, since, emulable, what)                    \
	_Static_assert(LIBPIDFD_KERNEL_##NAME == 1ULL << LPFD_FEAT_##NAME,       \
		       "LIBPIDFD_KERNEL_" #NAME " is not bit LPFD_FEAT_" #NAME);
LPFD_FEATURES(LPFD_FEATURE_BIT)
#undef LPFD_FEATURE_BIT

/*
 * A probe that could not run for want of a descriptor or memory gives that
 * error to its call, as the call itself would have given it. Anything else
 * (EPERM, from a seccomp filter or an LSM) will not go away: the call
 * answers as if the feature were absent, and the probe is tried again
 * later all the same.
 */
static bool out_of_resources(int err)
{
	return err == -EMFILE || err == -ENFILE || err == -ENOMEM ||
	       err == -EAGAIN;
}

/*
 * Per feature: PROBE_UNKNOWN, PROBE_YES, PROBE_NO, or a count of probes
 * that could not run, below PROBE_FAILED(0).
 */
enum { PROBE_UNKNOWN = 0, PROBE_YES = 1, PROBE_NO = 2 };
#define PROBE_FAILED(n) (-(n))

static int feature_cache[LPFD_FEAT_COUNT];

int lpfd_kernel_has(enum lpfd_feature feat)
{
	int v = __atomic_load_n(&feature_cache[feat], __ATOMIC_RELAXED);
	int r;

	if (lpfd_likely(v > 0))
		return v == PROBE_YES;
	r = feature_table[feat].probe();
	if (r >= 0)
		v = r ? PROBE_YES : PROBE_NO;
	else if (v - 1 <= PROBE_FAILED(LPFD_PROBE_TRIES))
		v = PROBE_NO; /* tried enough: absent from now on */
	else
		v--;
	__atomic_store_n(&feature_cache[feat], v, __ATOMIC_RELAXED);
	if (v > 0)
		return v == PROBE_YES;
	return out_of_resources(r) ? r : 0;
}

int lpfd_native(enum lpfd_feature feat)
{
	if (feature_table[feat].emulable && lpfd_emulate_forced())
		return 0;
	return lpfd_kernel_has(feat);
}

/* ------------------------------------------------------------------------
 * LIBPIDFD_EMULATE=1, read once at load from the environment as exec left
 * it: by a constructor, from environ, without getenv() (not listed as
 * async-signal-safe) or any lock. A library loaded later (dlopen) reads it
 * on its first call, the same way.
 */
extern char **environ;

static int emulate_cache;

static int emulate_from_environ(void)
{
	static const char key[] = "LIBPIDFD_EMULATE=";

	for (char **e = environ; e && *e; e++) {
		if (strncmp(*e, key, sizeof(key) - 1) == 0)
			return strcmp(*e + sizeof(key) - 1, "1") == 0 ?
				PROBE_YES : PROBE_NO;
	}
	return PROBE_NO;
}

__attribute__((constructor)) static void emulate_at_load(void)
{
	int unknown = PROBE_UNKNOWN;

	__atomic_compare_exchange_n(&emulate_cache, &unknown,
				    emulate_from_environ(), false,
				    __ATOMIC_RELAXED, __ATOMIC_RELAXED);
}

bool lpfd_emulate_forced(void)
{
	int v = __atomic_load_n(&emulate_cache, __ATOMIC_RELAXED);

	if (lpfd_unlikely(v == PROBE_UNKNOWN)) {
		v = emulate_from_environ();
		__atomic_store_n(&emulate_cache, v, __ATOMIC_RELAXED);
	}
	return v == PROBE_YES;
}

void lpfd_probe_reset(void)
{
	for (int i = 0; i < LPFD_FEAT_COUNT; i++)
		__atomic_store_n(&feature_cache[i], PROBE_UNKNOWN, __ATOMIC_RELAXED);
	__atomic_store_n(&info_word, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&emulate_cache, emulate_from_environ(), __ATOMIC_RELAXED);
}

/* For the differential tests, which run both paths in one process. */
void lpfd_emulate_override(int on)
{
	__atomic_store_n(&emulate_cache, on ? PROBE_YES : PROBE_NO,
			 __ATOMIC_RELAXED);
}
