/* SPDX-License-Identifier: LGPL-2.1-or-later OR MIT */
/*
 * The caller's memory, read and written only by system calls, never by a
 * plain load or store: a bad pointer, or one that another thread unmaps
 * in the middle of the call, gets EFAULT from the kernel where the
 * library touches it, never a crash. No signal handler (that would be a
 * side effect on the caller) and no other process.
 *
 * A copy is process_vm_readv() on the calling thread's own id: its "local"
 * side (written) and "remote" side (read) are both this process's memory,
 * so it is a memcpy that the kernel makes, checking both sides as it goes.
 * The thread's id, or the process's where the caller holds it already:
 * process_vm_readv() finds a task by either, but the process's id names
 * its leader, which can have exited (pthread_exit()) while other threads
 * run; it has no memory then, and the copy is ESRCH, passed on so that the
 * caller asks for the thread's id. The id is asked on each call: a cached one
 * cannot be told stale without a system call (a vfork() child shares the
 * cache, the stack and the thread pointer with its parent, which may exec
 * or be reaped meanwhile), and a stale one names another process's memory.
 * A seccomp profile that refuses process_vm_readv() (EPERM, ENOSYS) is
 * remembered, and the copy then goes through a pipe: write(2) from the
 * source, read(2) into the destination, each EFAULT where it cannot.
 *
 * Nothing is looked at before it is used: what is read is read once, into
 * the library's own stack, and the answer is written when the call is
 * known to succeed. So a failing call writes nothing, and a page is never
 * dirtied by a look (a shared file mapping's mtime, a private mapping's
 * copy-on-write sharing). As with the kernel's copy_to_user(), a
 * destination that stops being writable part-way is EFAULT with the part
 * before it written.
 */
#include <fcntl.h>
#include <sys/uio.h>

#include "internal.h"
#include "syscall.h"

#define CHUNK 4096      /* what an empty pipe always takes whole */
#define MAX_SRC 8       /* source pieces of one copy */

/* Sources for a struct's zeroed tail; 16383 is the most an ioctl carries. */
static const char zeroes[4096];

/* Refused by a seccomp filter: one that is installed stays, so 0 to 1 only. */
static int vm_refused;

void lpfd_user_reset(void)
{
	__atomic_store_n(&vm_refused, 0, __ATOMIC_RELAXED);
}

static size_t iov_total(const struct iovec *v, int n)
{
	size_t t = 0;

	for (int i = 0; i < n; i++)
		t += v[i].iov_len;
	return t;
}

/*
 * -1: refused, use the pipe; -ESRCH: tid names no task with memory (a
 * process id whose leader has exited: the caller asks again by the
 * thread's); -EFAULT for a short copy or EFAULT itself; else 0, or the
 * errno the call failed with (EINTR, ENOMEM...), which is never taken for
 * a fault: the shim would then pass the program's call on as the kernel's.
 */
static int copy_vm_to(pid_t tid, const struct iovec *dst, int ndst,
		      const struct iovec *src, int nsrc)
{
	ssize_t n = lpfd_sys_process_vm_readv(tid, dst, (unsigned long)ndst,
					      src, (unsigned long)nsrc);

	if (n == (ssize_t)iov_total(dst, ndst))
		return 0;
	if (n == -EPERM || n == -ENOSYS || n == -EACCES) {
		__atomic_store_n(&vm_refused, 1, __ATOMIC_RELAXED);
		return -1;
	}
	return n >= 0 ? -EFAULT : (int)n;
}

static int copy_vm(pid_t tid, void *dst, const struct iovec *src, int nsrc)
{
	struct iovec local = { dst, iov_total(src, nsrc) };

	return copy_vm_to(tid, &local, 1, src, nsrc);
}

/* Piece after piece through an empty pipe, never more than it holds. */
static int pipe_pieces(const int fd[2], char *dst, const struct iovec *src,
		       int nsrc)
{
	for (int i = 0; i < nsrc; i++) {
		const char *s = src[i].iov_base;

		for (size_t o = 0; o < src[i].iov_len; o += CHUNK) {
			size_t want = src[i].iov_len - o;
			ssize_t n;

			want = want < CHUNK ? want : CHUNK;
			n = lpfd_sys_write(fd[1], s + o, want);
			if (n != (ssize_t)want)
				return n == -EFAULT || n >= 0 ? -EFAULT : (int)n;
			n = lpfd_sys_read(fd[0], dst, want);
			if (n != (ssize_t)want)
				return n == -EFAULT || n >= 0 ? -EFAULT : (int)n;
			dst += want;
		}
	}
	return 0;
}

static int copy_pipe(void *dst, const struct iovec *src, int nsrc)
{
	int fd[2], r;

	r = lpfd_sys_pipe2(fd, O_CLOEXEC | O_NONBLOCK);
	if (r < 0)
		return r;
	r = pipe_pieces(fd, dst, src, nsrc);
	lpfd_sys_close(fd[0]);
	lpfd_sys_close(fd[1]);
	return r;
}

static int copy(pid_t tid, void *dst, const struct iovec *src, int nsrc)
{
	int r = -1;

	if (!iov_total(src, nsrc))
		return 0;
	if (!__atomic_load_n(&vm_refused, __ATOMIC_RELAXED))
		r = copy_vm(tid, dst, src, nsrc);
	return r == -1 ? copy_pipe(dst, src, nsrc) : r;
}

int lpfd_user_read(pid_t tid, void *dst, const void *src, size_t n)
{
	struct iovec from = { (void *)(uintptr_t)src, n };

	if ((uintptr_t)src + n < (uintptr_t)src)
		return -EFAULT; /* wraps around: no such memory */
	return copy(tid, dst, &from, 1);
}

/* Sources for up to MAX_SRC - have pieces of the zeroed tail: how many. */
static int zero_pieces(struct iovec *v, int have, size_t *tail)
{
	int n = have;

	for (; *tail && n < MAX_SRC; n++) {
		size_t z = *tail < sizeof(zeroes) ? *tail : sizeof(zeroes);

		v[n] = (struct iovec){ (void *)(uintptr_t)zeroes, z };
		*tail -= z;
	}
	return n;
}

int lpfd_user_write(pid_t tid, void *dst, size_t size, const void *src,
		    size_t n)
{
	struct iovec from[MAX_SRC] = {
		{ (void *)(uintptr_t)src, n < size ? n : size }
	};
	size_t tail = size > n ? size - n : 0;
	char *d = dst;
	int nsrc, r;

	if ((uintptr_t)dst + size < (uintptr_t)dst)
		return -EFAULT;
	nsrc = zero_pieces(from, 1, &tail);
	for (;;) {
		r = copy(tid, d, from, nsrc);
		if (r < 0 || !tail)
			return r;
		d += iov_total(from, nsrc);
		nsrc = zero_pieces(from, 0, &tail);
	}
}
