/* SPDX-License-Identifier: LGPL-2.1-or-later OR MIT */
/*
 * libpidfd_process_madvise(): process_madvise(2), sentinels on every kernel.
 *
 * Native: real pidfds go to the kernel as they are, and so do the
 * sentinels where the kernel takes them (6.15 on, which also takes any
 * advice on oneself, as from 6.13) and lets us call process_madvise.
 *
 * Emulated: advice on one's own memory is madvise(2), one call per iovec,
 * in the order and with the accounting of the kernel's vector_madvise():
 * the iovecs are imported as import_iovec() does (the total clipped to
 * MAX_RW_COUNT, empty iovecs after the first skipped), the first failure
 * stops, and the result is the bytes advised before it, or its error if
 * there were none. So oneself takes any advice on every kernel, without
 * CAP_SYS_NICE, as mainline allows since 6.13.
 */
#include <limits.h>
#include <sys/auxv.h>
#include <sys/uio.h>

#include "internal.h"
#include "syscall.h"

/* iovecs read from the caller at once: 512 bytes of stack. */
#define IOV_CHUNK 32

/*
 * The kernel's errors for the iovec array (EINVAL for too many or a
 * negative length, EFAULT), which come before it looks at the pidfd: it
 * reads the array for a pidfd of -1 and stops at EBADF. The library makes
 * import_iovec()'s checks itself, in its order, as it reads the array,
 * all but one: access_ok() of each range, EFAULT for a range that reaches
 * past the user address space, whose end the library does not know. The
 * kernel is asked only for that (see beyond_stack()), where it can be
 * (not before 5.10, nor where a seccomp filter denies process_madvise, as
 * the container runtimes' default profile does).
 */
static long kernel_check_iovecs(const struct iovec *iov, size_t vlen,
				int advice)
{
	long r;

	if (!lpfd_surely_has(LPFD_FEAT_PROCESS_MADVISE))
		return 1; /* not asked: the library checks */
	r = lpfd_sys_process_madvise(-1, iov, vlen, advice, 0);
	return r == -EBADF ? 0 : r;
}

/* import_iovec() clips the total to MAX_RW_COUNT. */
static size_t max_rw_count(void)
{
	unsigned long page = getauxval(AT_PAGESZ);

	return (size_t)INT_MAX & ~((page ? page : 4096) - 1);
}

/*
 * The caller's iovecs [first, first + n) into v, read once each time they
 * are needed (the array may be longer than the stack can hold): -EFAULT
 * where they cannot be read, -EINVAL for a negative length before it.
 */
static int read_iovecs(pid_t tid, const struct iovec *iov, size_t first,
		       size_t n, struct iovec *v)
{
	int r = lpfd_user_read(tid, v, iov + first, n * sizeof(*v));

	for (size_t i = 0; i < n; i++) {
		if (r < 0 && lpfd_user_read(tid, &v[i], iov + first + i,
					    sizeof(*v)) < 0)
			return r;
		if ((ssize_t)v[i].iov_len < 0)
			return -EINVAL;
	}
	return r;
}

/*
 * Whether a range may fail access_ok(): user space runs from 0 to an end
 * that depends on the architecture and its configuration, and the calling
 * thread's stack lies inside it, so a range that ends below the stack
 * (without wrapping) passes on every architecture. Only a range beyond
 * it, rare, costs the kernel's check, a system call.
 */
static bool beyond_stack(const struct iovec *v, size_t n, uintptr_t stack)
{
	for (size_t i = 0; i < n; i++) {
		uintptr_t base = (uintptr_t)v[i].iov_base;

		if (base + v[i].iov_len < base || base + v[i].iov_len > stack)
			return true;
	}
	return false;
}

/*
 * The first pass of vector_madvise() on oneself: the iovecs, read a chunk
 * at a time into v, totalled and judged in import_iovec()'s order. v keeps
 * the last chunk: an array of at most IOV_CHUNK is read once for both.
 */
static ssize_t total_iovecs(pid_t tid, const struct iovec *iov, size_t vlen,
			    int advice, struct iovec *v)
{
	size_t limit = max_rw_count(), total = 0;
	uintptr_t stack = (uintptr_t)__builtin_frame_address(0);
	bool beyond = false;
	long r;

	for (size_t c = 0; c < vlen; c += IOV_CHUNK) {
		size_t n = vlen - c < IOV_CHUNK ? vlen - c : IOV_CHUNK;

		r = read_iovecs(tid, iov, c, n, v);
		if (r < 0)
			return r;
		beyond = beyond || beyond_stack(v, n, stack);
		for (size_t i = 0; i < n; i++)
			total += v[i].iov_len < limit - total ?
					 v[i].iov_len : limit - total;
	}
	if (beyond && (r = kernel_check_iovecs(iov, vlen, advice)) < 0)
		return r;
	return (ssize_t)total;
}

/* vector_madvise() on oneself: totalled first, then advised in order. */
static ssize_t madvise_self(pid_t tid, const struct iovec *iov, size_t vlen,
			    int advice)
{
	size_t limit = max_rw_count(), total = 0, done = 0;
	struct iovec v[IOV_CHUNK];
	long r = total_iovecs(tid, iov, vlen, advice, v);

	if (r <= 0) /* nothing to do: the advice is still judged */
		return r < 0 ? r : lpfd_sys_madvise(NULL, 0, advice);
	for (size_t i = 0; i < vlen && total < limit; i++) {
		size_t len;

		if (vlen > IOV_CHUNK && i % IOV_CHUNK == 0) {
			size_t n = vlen - i < IOV_CHUNK ? vlen - i : IOV_CHUNK;

			r = read_iovecs(tid, iov, i, n, v);
			if (r < 0)
				return done ? (ssize_t)done : (ssize_t)r;
		}
		len = v[i % IOV_CHUNK].iov_len;
		if (len > limit - total)
			len = limit - total;
		total += len;
		if (!len && i > 0)
			continue;
		r = lpfd_sys_madvise(v[i % IOV_CHUNK].iov_base, len, advice);
		if (r < 0)
			break;
		done += len;
	}
	return done ? (ssize_t)done : (ssize_t)r;
}

static ssize_t process_madvise_self(const struct iovec *iov, size_t vlen,
				    int advice, unsigned int flags)
{
	pid_t tid;

	if (flags)
		return -EINVAL;
	if (vlen > UIO_MAXIOV)
		return -EINVAL;
	tid = lpfd_sys_gettid();
	if (tid < 0)
		return tid;
	return madvise_self(tid, iov, vlen, advice);
}

/*
 * Linux 7.2 judges the advice even where there is nothing to advise;
 * 6.13 to 7.1 did not on one's own memory, and answered 0 to unknown
 * advice over empty iovecs. A 0 from the kernel therefore gets the
 * newest kernel's look at the advice, which madvise(2) with no range
 * gives (it judges the advice first, then finds nothing to do). Only a
 * call that advised nothing returns 0, and only after the kernel's own
 * checks of the fd and the iovecs, which the newest kernel makes first.
 */
static ssize_t unknown_advice(ssize_t r, int advice)
{
	return r == 0 ? lpfd_sys_madvise(NULL, 0, advice) : r;
}

static ssize_t do_process_madvise(int pidfd, const struct iovec *iov,
				  size_t vlen, int advice, unsigned int flags)
{
	struct lpfd_route t = lpfd_route(pidfd, LPFD_FEAT_PROCESS_MADVISE);

	if (t.kind == LPFD_ROUTE_ERROR)
		return t.err;
	if (lpfd_route_is_self(&t))
		return process_madvise_self(iov, vlen, advice, flags);
	return unknown_advice(lpfd_sys_process_madvise(t.fd, iov, vlen, advice,
						       flags), advice);
}

LIBPIDFD_API ssize_t libpidfd_process_madvise(int pidfd,
					      const struct iovec *iov,
					      size_t vlen, int advice,
					      unsigned int flags)
{
	int saved = errno;

	return (ssize_t)lpfd_return(
		saved, do_process_madvise(pidfd, iov, vlen, advice, flags));
}
