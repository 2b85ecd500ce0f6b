/* SPDX-License-Identifier: LGPL-2.1-or-later OR MIT */
/*
 * Raw system calls, returning >= 0 or -errno and never touching errno.
 *
 * The library makes its system calls itself, not through libc: glibc has
 * no wrappers for most pidfd calls, and libpidfd-compat.so interposes
 * ioctl(), waitid(), syscall() and the pidfd wrappers, which must not find
 * the library's own calls coming back to them.
 */
#ifndef LIBPIDFD_SYSCALL_H
#define LIBPIDFD_SYSCALL_H

#include <sys/syscall.h>

#include "internal.h"

/* The unified system call table numbers these alike on every architecture. */
#ifndef __NR_pidfd_send_signal
#define __NR_pidfd_send_signal 424
#endif
#ifndef __NR_pidfd_open
#define __NR_pidfd_open 434
#endif
#ifndef __NR_pidfd_getfd
#define __NR_pidfd_getfd 438
#endif
#ifndef __NR_process_madvise
#define __NR_process_madvise 440
#endif
#ifndef __NR_openat2
#define __NR_openat2 437
#endif
#ifndef __NR_close_range
#define __NR_close_range 436
#endif
#ifndef __NR_process_mrelease
#define __NR_process_mrelease 448
#endif

/*
 * Flags older system headers lack, each after the header that has it
 * where that is new enough, so that its own definition comes first.
 */
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>

#ifndef P_PIDFD /* <sys/wait.h> (glibc's is an idtype_t, no macro): 5.4 */
#define P_PIDFD 3
#endif
#ifndef MADV_COLD /* <sys/mman.h>: 5.4 */
#define MADV_COLD 20
#endif
#ifndef STATX_MNT_ID_UNIQUE /* <sys/stat.h>: 6.8 */
#define STATX_MNT_ID_UNIQUE 0x4000U
#endif
#ifndef STATX_MNT_ID /* <sys/stat.h>: 5.8 */
#define STATX_MNT_ID 0x1000U
#endif
#ifndef STATX_INO
#define STATX_INO 0x0100U
#endif
#ifndef STATX_TYPE
#define STATX_TYPE 0x0001U
#endif
#ifndef AT_HANDLE_MNT_ID_UNIQUE /* <fcntl.h>: 6.12 */
#define AT_HANDLE_MNT_ID_UNIQUE 0x001
#endif

#if defined(__x86_64__)
static inline long lpfd_syscall6(long n, long a1, long a2, long a3, long a4,
				   long a5, long a6)
{
	register long r10 __asm__("r10") = a4;
	register long r8 __asm__("r8") = a5;
	register long r9 __asm__("r9") = a6;
	long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "a"(n), "D"(a1), "S"(a2), "d"(a3), "r"(r10), "r"(r8),
			   "r"(r9)
			 : "rcx", "r11", "memory");
	return ret;
}
#elif defined(__aarch64__)
static inline long lpfd_syscall6(long n, long a1, long a2, long a3, long a4,
				   long a5, long a6)
{
	register long x8 __asm__("x8") = n;
	register long x0 __asm__("x0") = a1;
	register long x1 __asm__("x1") = a2;
	register long x2 __asm__("x2") = a3;
	register long x3 __asm__("x3") = a4;
	register long x4 __asm__("x4") = a5;
	register long x5 __asm__("x5") = a6;

	__asm__ volatile("svc 0"
			 : "+r"(x0)
			 : "r"(x8), "r"(x1), "r"(x2), "r"(x3), "r"(x4), "r"(x5)
			 : "memory", "cc");
	return x0;
}
#elif defined(__i386__)
/*
 * int $0x80 takes the sixth argument in ebp, which may be the frame
 * pointer and cannot be named as an operand: eax brings the number and the
 * sixth argument in memory, and ebp is saved around the call.
 */
static inline long lpfd_syscall6(long n, long a1, long a2, long a3, long a4,
				   long a5, long a6)
{
	long na6[2] = { n, a6 };
	long ret;

	__asm__ volatile("push %%ebp\n\t"
			 "mov 4(%%eax), %%ebp\n\t"
			 "mov (%%eax), %%eax\n\t"
			 "int $0x80\n\t"
			 "pop %%ebp"
			 : "=a"(ret)
			 : "a"(na6), "b"(a1), "c"(a2), "d"(a3), "S"(a4), "D"(a5)
			 : "memory");
	return ret;
}
#else
#include <unistd.h>
/* Elsewhere libc's syscall(2); errno is restored at the public boundary. */
static inline long lpfd_syscall6(long n, long a1, long a2, long a3, long a4,
				   long a5, long a6)
{
	long r = syscall(n, a1, a2, a3, a4, a5, a6);

	return r < 0 ? -errno : r;
}
#endif

#define lpfd_sc(n, a1, a2, a3, a4, a5, a6)                                   \
	lpfd_syscall6((n), (long)(a1), (long)(a2), (long)(a3), (long)(a4),   \
			(long)(a5), (long)(a6))

static inline int lpfd_sys_pidfd_open(pid_t pid, unsigned int flags)
{
	return (int)lpfd_sc(__NR_pidfd_open, pid, flags, 0, 0, 0, 0);
}

static inline int lpfd_sys_pidfd_send_signal(int pidfd, int sig,
					       siginfo_t *info,
					       unsigned int flags)
{
	return (int)lpfd_sc(__NR_pidfd_send_signal, pidfd, sig, info, flags,
			      0, 0);
}

static inline int lpfd_sys_pidfd_getfd(int pidfd, int targetfd,
					 unsigned int flags)
{
	return (int)lpfd_sc(__NR_pidfd_getfd, pidfd, targetfd, flags, 0, 0, 0);
}

static inline long lpfd_sys_process_madvise(int pidfd,
					      const struct iovec *iov,
					      size_t vlen, int advice,
					      unsigned int flags)
{
	return lpfd_sc(__NR_process_madvise, pidfd, iov, vlen, advice, flags,
			 0);
}

static inline int lpfd_sys_process_mrelease(int pidfd, unsigned int flags)
{
	return (int)lpfd_sc(__NR_process_mrelease, pidfd, flags, 0, 0, 0, 0);
}

static inline int lpfd_sys_waitid(int idtype, int id, siginfo_t *info,
				    int options, struct rusage *ru)
{
	return (int)lpfd_sc(__NR_waitid, idtype, id, info, options, ru, 0);
}

static inline int lpfd_sys_ioctl(int fd, unsigned long cmd, void *arg)
{
	return (int)lpfd_sc(__NR_ioctl, fd, cmd, arg, 0, 0, 0);
}

static inline int lpfd_sys_openat(int dirfd, const char *path, int flags)
{
	return (int)lpfd_sc(__NR_openat, dirfd, path, flags, 0, 0, 0);
}

/* struct open_how, as <linux/openat2.h> has it (Linux 5.6). */
struct lpfd_open_how {
	uint64_t flags, mode, resolve;
};

#define LPFD_RESOLVE_NO_XDEV       0x01
#define LPFD_RESOLVE_NO_MAGICLINKS 0x02

static inline int lpfd_sys_openat2(int dirfd, const char *path,
				   const struct lpfd_open_how *how)
{
	return (int)lpfd_sc(__NR_openat2, dirfd, path, how, sizeof(*how), 0, 0);
}

static inline int lpfd_sys_close_range(unsigned int first, unsigned int last)
{
	return (int)lpfd_sc(__NR_close_range, first, last, 0, 0, 0, 0);
}

static inline ssize_t lpfd_sys_read(int fd, void *buf, size_t len)
{
	return (ssize_t)lpfd_sc(__NR_read, fd, buf, len, 0, 0, 0);
}

static inline ssize_t lpfd_sys_write(int fd, const void *buf, size_t len)
{
	return (ssize_t)lpfd_sc(__NR_write, fd, buf, len, 0, 0, 0);
}

static inline int lpfd_sys_pipe2(int fd[2], int flags)
{
	return (int)lpfd_sc(__NR_pipe2, fd, flags, 0, 0, 0, 0);
}

/* close() always releases the descriptor on Linux, whatever it returns. */
static inline void lpfd_sys_close(int fd)
{
	(void)lpfd_sc(__NR_close, fd, 0, 0, 0, 0, 0);
}

static inline int lpfd_sys_fcntl(int fd, int cmd, long arg)
{
	return (int)lpfd_sc(__NR_fcntl, fd, cmd, arg, 0, 0, 0);
}

static inline int lpfd_sys_name_to_handle_at(int dirfd, const char *path,
					       void *handle, int *mnt_id,
					       int flags)
{
	return (int)lpfd_sc(__NR_name_to_handle_at, dirfd, path, handle,
			      mnt_id, flags, 0);
}

static inline int lpfd_sys_prctl(int option, unsigned long a2)
{
	return (int)lpfd_sc(__NR_prctl, option, a2, 0, 0, 0, 0);
}

static inline pid_t lpfd_sys_getpid(void)
{
	return (pid_t)lpfd_sc(__NR_getpid, 0, 0, 0, 0, 0, 0);
}

static inline pid_t lpfd_sys_gettid(void)
{
	return (pid_t)lpfd_sc(__NR_gettid, 0, 0, 0, 0, 0, 0);
}

static inline pid_t lpfd_sys_getppid(void)
{
	return (pid_t)lpfd_sc(__NR_getppid, 0, 0, 0, 0, 0, 0);
}

/*
 * Where an architecture kept the 16-bit id calls of old (i386, arm, m68k,
 * sh, sparc), the 32-bit ones carry a suffix: the plain getresuid would
 * write 16-bit ids into these 32-bit slots, and setfsuid(-1) answer 16 bits.
 */
#ifdef __NR_getresuid32
#define LPFD_NR_getresuid __NR_getresuid32
#define LPFD_NR_getresgid __NR_getresgid32
#define LPFD_NR_setfsuid __NR_setfsuid32
#define LPFD_NR_setfsgid __NR_setfsgid32
#else
#define LPFD_NR_getresuid __NR_getresuid
#define LPFD_NR_getresgid __NR_getresgid
#define LPFD_NR_setfsuid __NR_setfsuid
#define LPFD_NR_setfsgid __NR_setfsgid
#endif

static inline int lpfd_sys_getresuid(unsigned int id[3])
{
	return (int)lpfd_sc(LPFD_NR_getresuid, &id[0], &id[1], &id[2], 0, 0, 0);
}

static inline int lpfd_sys_getresgid(unsigned int id[3])
{
	return (int)lpfd_sc(LPFD_NR_getresgid, &id[0], &id[1], &id[2], 0, 0, 0);
}

/* setfs[ug]id(-1) changes nothing and returns the current value. */
static inline unsigned int lpfd_sys_getfsuid(void)
{
	return (unsigned int)lpfd_sc(LPFD_NR_setfsuid, -1, 0, 0, 0, 0, 0);
}

static inline unsigned int lpfd_sys_getfsgid(void)
{
	return (unsigned int)lpfd_sc(LPFD_NR_setfsgid, -1, 0, 0, 0, 0, 0);
}

/* Signals by number, for the self-signal emulation (src/send_signal.c). */
static inline int lpfd_sys_kill(pid_t pid, int sig)
{
	return (int)lpfd_sc(__NR_kill, pid, sig, 0, 0, 0, 0);
}

static inline int lpfd_sys_tkill(pid_t tid, int sig)
{
	return (int)lpfd_sc(__NR_tkill, tid, sig, 0, 0, 0, 0);
}


static inline int lpfd_sys_rt_sigqueueinfo(pid_t pid, int sig,
					     siginfo_t *info)
{
	return (int)lpfd_sc(__NR_rt_sigqueueinfo, pid, sig, info, 0, 0, 0);
}

static inline int lpfd_sys_rt_tgsigqueueinfo(pid_t tgid, pid_t tid, int sig,
					       siginfo_t *info)
{
	return (int)lpfd_sc(__NR_rt_tgsigqueueinfo, tgid, tid, sig, info, 0,
			      0);
}

static inline int lpfd_sys_madvise(void *addr, size_t len, int advice)
{
	return (int)lpfd_sc(__NR_madvise, addr, len, advice, 0, 0, 0);
}

static inline int lpfd_sys_kcmp(pid_t pid1, pid_t pid2, int type,
				  unsigned long idx1, unsigned long idx2)
{
	return (int)lpfd_sc(__NR_kcmp, pid1, pid2, type, idx1, idx2, 0);
}

static inline ssize_t lpfd_sys_process_vm_readv(pid_t pid,
						  const struct iovec *local,
						  unsigned long liovcnt,
						  const struct iovec *remote,
						  unsigned long riovcnt)
{
	return (ssize_t)lpfd_sc(__NR_process_vm_readv, pid, local, liovcnt,
				  remote, riovcnt, 0);
}

static inline ssize_t lpfd_sys_readlinkat(int dirfd, const char *path,
					    char *buf, size_t size)
{
	return (ssize_t)lpfd_sc(__NR_readlinkat, dirfd, path, buf, size, 0,
				  0);
}

#endif /* LIBPIDFD_SYSCALL_H */
