/* SPDX-License-Identifier: LGPL-2.1-or-later OR MIT */
/*
 * The library's global state, all of it, and why each piece is safe without
 * a lock (the library takes none: it is called from signal handlers) and
 * right across a fork, unshare(2) and exec. None of it is a descriptor.
 *
 *  1. The probe table (src/probe.c: feature_cache, info_word). Words
 *     written with relaxed atomics; two threads racing on a first probe
 *     store the same answer, and a signal handler that probes in the middle
 *     of another probe does the same. A forked child runs on the same
 *     kernel, so what the parent found holds.
 *  2. LIBPIDFD_EMULATE (src/probe.c: emulate_cache). One word, read once
 *     from environ at load; exec loads the library afresh.
 *  3. "May not look at /proc/1" (src/proc.c: init_ns_refused) and "the
 *     kernel has no unique mount ids" (no_unique_mount_ids). Words that
 *     only ever go from 0 to 1; each makes the library take a slower path
 *     that is as sound, so a stale 1 costs time, never correctness.
 *  4. The remembered proof that /proc is ours (src/proc.c: proof_seq,
 *     proof_words) and the cgroup2 mount (src/cgroup.c: cache_seq,
 *     cache_data). Seqlocks whose writer never waits (below): a reader sees a
 *     whole, stable copy or none; each copy is checked against what it
 *     names in the call that uses it (the arguments are in proc.c and
 *     cgroup.c, and in docs/architecture.md).
 *  5. "process_vm_readv() on oneself is refused" (src/user.c:
 *     vm_refused): 0 to 1 only, as a seccomp filter, once installed, stays
 *     (and a forked child inherits it); the pipe it then takes is as sound.
 *  6. The shim's dlsym() results (compat/libpidfd-compat.c). Pointer words
 *     with relaxed atomics: whoever looks them up stores the same value.
 *
 * lpfd_state_reset() returns 1 to 5 to their state at load, for tests;
 * tests/static.sh fails where a writable object of the library is not
 * named here or not set again by the reset of its own file.
 */
#include "internal.h"

/*
 * A seqlock over a few words. A writer that finds the sequence odd leaves:
 * another thread, or the code a signal handler interrupted, is writing (a
 * fork in the middle of a write leaves the child's copy odd, hence unused:
 * slower, right). The words are copied one by one with relaxed atomics, the
 * sequence ordering them.
 */
bool lpfd_seqcache_load(const unsigned int *seq, const uint64_t *words,
			uint64_t *out, size_t n)
{
	unsigned int s = __atomic_load_n(seq, __ATOMIC_ACQUIRE);

	if (s == 0 || (s & 1))
		return false;
	for (size_t i = 0; i < n; i++)
		out[i] = __atomic_load_n(&words[i], __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	return __atomic_load_n(seq, __ATOMIC_RELAXED) == s;
}

void lpfd_seqcache_store(unsigned int *seq, uint64_t *words,
			 const uint64_t *in, size_t n)
{
	unsigned int s = __atomic_load_n(seq, __ATOMIC_RELAXED);

	if ((s & 1) || !__atomic_compare_exchange_n(seq, &s, s + 1, false,
						    __ATOMIC_RELAXED,
						    __ATOMIC_RELAXED))
		return;
	__atomic_thread_fence(__ATOMIC_RELEASE);
	for (size_t i = 0; i < n; i++)
		__atomic_store_n(&words[i], in[i], __ATOMIC_RELAXED);
	__atomic_store_n(seq, s + 2, __ATOMIC_RELEASE);
}

void lpfd_seqcache_reset(unsigned int *seq, uint64_t *words, size_t n)
{
	__atomic_store_n(seq, 0, __ATOMIC_RELAXED);
	for (size_t i = 0; i < n; i++)
		__atomic_store_n(&words[i], 0, __ATOMIC_RELAXED);
}

void lpfd_state_reset(void)
{
	lpfd_probe_reset();
	lpfd_proc_reset();
	lpfd_cgroup_reset();
	lpfd_user_reset();
}
