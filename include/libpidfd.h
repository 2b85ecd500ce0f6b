/* SPDX-License-Identifier: LGPL-2.1-or-later OR MIT */
/*
 * libpidfd - the modern pidfd interface (PIDFD_GET_INFO, PIDFD_SELF*) on
 * every Linux kernel from 5.3 on: the kernel's own implementation where the
 * running kernel has it, a race-free emulation where it does not.
 *
 * This is the one public header. It compiles as C99 and later and as C++11
 * and later, with -pedantic, and needs no feature macro on glibc. It
 * provides the mainline UAPI names, each only where the system headers lack
 * it, so that it can be included in any order with <linux/pidfd.h>,
 * <sys/pidfd.h>, <sys/wait.h>, <signal.h>, <linux/fcntl.h> and <fcntl.h>
 * (<fcntl.h> and <linux/fcntl.h> conflict with each other, and so each
 * with the pidfd header of the other family; neither with this one). Two
 * devices make that hold:
 *
 * - The system's <linux/pidfd.h>, where it exists, is included first, so
 *   that whatever it defines wins and a later inclusion is a no-op. Its own
 *   <linux/fcntl.h> is skipped (by its include guard, for the time of that
 *   inclusion only), so that <fcntl.h> may still follow; include
 *   <linux/fcntl.h> yourself for its names. A compiler without
 *   __has_include (GCC before 5) skips this: there, include <linux/pidfd.h>
 *   of Linux 6.13 or later before this header, not after it.
 * - Only where that header declared a shorter struct pidfd_info (Linux 6.13
 *   to 7.0), the name is macro-renamed to libpidfd_pidfd_info, the newest
 *   layout (88 bytes); see below.
 *
 * PIDFD_NONBLOCK and PIDFD_THREAD are the kernel's O_NONBLOCK and O_EXCL
 * values, spelled as numbers where <fcntl.h> has not defined those, so that
 * this header defines no O_* name. A later <sys/pidfd.h> redefines them as
 * O_NONBLOCK and O_EXCL, the same values, silently: it is a system header.
 *
 * siginfo_t comes from glibc's <bits/types/siginfo_t.h>, as for glibc's own
 * <sys/pidfd.h>, which declares it whatever the feature macros. On other C
 * libraries <signal.h> may declare it only for POSIX programs: a strict
 * build there (-std=c99 and the like) defines _POSIX_C_SOURCE as 199309L or
 * later before its first #include.
 */
#ifndef LIBPIDFD_H
#define LIBPIDFD_H

#include <linux/ioctl.h>
#include <linux/types.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 26)
# include <bits/types/siginfo_t.h>
#endif

/*
 * glibc declares its own struct pidfd_info in <sys/pidfd.h> from 2.43 on
 * (glibc commit c0c9524a11; 72 bytes), which then cannot be combined with
 * <linux/pidfd.h>, nor with a struct of this header's. There that header
 * is included first instead (unless it already was), and wins as
 * <linux/pidfd.h> does elsewhere; with it come <fcntl.h> and
 * <sys/ioctl.h>, as for every user of glibc's <sys/pidfd.h>, and
 * <linux/pidfd.h> or <linux/fcntl.h> cannot follow (where one of them came
 * first, <linux/pidfd.h> is taken instead, as on older C libraries). Its
 * include guard, _PIDFD_H, is tested there but never defined: it is
 * defined here, so that a later #include <sys/pidfd.h> is the no-op it is
 * meant to be rather than a second struct pidfd_info.
 * LIBPIDFD_SYS_PIDFD_H says that this path was taken.
 */
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 43) && \
	!defined(_LINUX_FCNTL_H) && !defined(_LINUX_PIDFD_H)
# define LIBPIDFD_SYS_PIDFD_H 1
#endif

#ifdef __has_include
# if defined(LIBPIDFD_SYS_PIDFD_H) && __has_include(<sys/pidfd.h>)
#  if !defined(PIDFD_NONBLOCK) && !defined(_PIDFD_H)
#   include <sys/pidfd.h>
#  endif
#  ifndef _PIDFD_H
#   define _PIDFD_H 1
#  endif
# elif __has_include(<linux/pidfd.h>)
#  ifndef _LINUX_FCNTL_H
#   define _LINUX_FCNTL_H
#   define LIBPIDFD_SKIPPED_LINUX_FCNTL_H
#  endif
#  include <linux/pidfd.h>
#  ifdef LIBPIDFD_SKIPPED_LINUX_FCNTL_H
#   undef _LINUX_FCNTL_H
#   undef LIBPIDFD_SKIPPED_LINUX_FCNTL_H
/* Spelled O_NONBLOCK and O_EXCL there, which nothing has defined here. */
#   ifndef O_NONBLOCK
#    undef PIDFD_NONBLOCK
#   endif
#   ifndef O_EXCL
#    undef PIDFD_THREAD
#   endif
#  endif
# endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

struct iovec;
struct rusage;

/* The kernel's O_NONBLOCK and O_EXCL (asm/fcntl.h of each architecture). */
#ifndef PIDFD_NONBLOCK
# if defined(__alpha__)
#  define PIDFD_NONBLOCK 04
# elif defined(__mips__)
#  define PIDFD_NONBLOCK 0200
# elif defined(__sparc__)
#  define PIDFD_NONBLOCK 040000
# elif defined(__hppa__)
#  define PIDFD_NONBLOCK 0200000
# else
#  define PIDFD_NONBLOCK 04000
# endif
#endif
#ifndef PIDFD_THREAD
# if defined(__alpha__) || defined(__sparc__)
#  define PIDFD_THREAD 04000
# elif defined(__mips__) || defined(__hppa__)
#  define PIDFD_THREAD 02000
# else
#  define PIDFD_THREAD 0200
# endif
#endif

#ifndef PIDFD_SIGNAL_THREAD
#define PIDFD_SIGNAL_THREAD (1UL << 0)
#endif
#ifndef PIDFD_SIGNAL_THREAD_GROUP
#define PIDFD_SIGNAL_THREAD_GROUP (1UL << 1)
#endif
#ifndef PIDFD_SIGNAL_PROCESS_GROUP
#define PIDFD_SIGNAL_PROCESS_GROUP (1UL << 2)
#endif

/*
 * Sentinels naming the caller in every call that takes a pidfd. Linux 6.15
 * and 6.16 spelled the thread group -20000; the library accepts that value
 * too and hands the running kernel the one it understands.
 */
#ifndef PIDFD_SELF_THREAD
#define PIDFD_SELF_THREAD -10000 /* Current thread. */
#endif
#ifndef PIDFD_SELF_THREAD_GROUP
#define PIDFD_SELF_THREAD_GROUP -10001 /* Current thread group leader. */
#endif
#ifndef PIDFD_SELF
#define PIDFD_SELF PIDFD_SELF_THREAD
#endif
#ifndef PIDFD_SELF_PROCESS
#define PIDFD_SELF_PROCESS PIDFD_SELF_THREAD_GROUP
#endif
/* The thread-group sentinel of Linux 6.15 and 6.16. */
#define LIBPIDFD_SELF_THREAD_GROUP_OLD -20000

#ifndef PIDFD_INFO_PID
#define PIDFD_INFO_PID (1UL << 0) /* Always returned, even if not requested */
#endif
#ifndef PIDFD_INFO_CREDS
#define PIDFD_INFO_CREDS (1UL << 1) /* Always returned, even if not requested */
#endif
#ifndef PIDFD_INFO_CGROUPID
#define PIDFD_INFO_CGROUPID (1UL << 2) /* Always returned if available, even if not requested */
#endif
#ifndef PIDFD_INFO_EXIT
#define PIDFD_INFO_EXIT (1UL << 3) /* Only returned if requested. */
#endif
#ifndef PIDFD_INFO_COREDUMP
#define PIDFD_INFO_COREDUMP (1UL << 4) /* Only returned if requested. */
#endif
#ifndef PIDFD_INFO_SUPPORTED_MASK
#define PIDFD_INFO_SUPPORTED_MASK (1UL << 5) /* Want/got supported mask flags */
#endif
#ifndef PIDFD_INFO_COREDUMP_SIGNAL
#define PIDFD_INFO_COREDUMP_SIGNAL (1UL << 6) /* Always returned if PIDFD_INFO_COREDUMP is requested. */
#endif
#ifndef PIDFD_INFO_COREDUMP_CODE
#define PIDFD_INFO_COREDUMP_CODE (1UL << 7) /* Always returned if PIDFD_INFO_COREDUMP is requested. */
#endif

#ifndef PIDFD_INFO_SIZE_VER0
#define PIDFD_INFO_SIZE_VER0 64 /* sizeof first published struct */
#endif
#ifndef PIDFD_INFO_SIZE_VER1
#define PIDFD_INFO_SIZE_VER1 72 /* sizeof second published struct */
#endif
#ifndef PIDFD_INFO_SIZE_VER2
#define PIDFD_INFO_SIZE_VER2 80 /* sizeof third published struct */
#endif
#ifndef PIDFD_INFO_SIZE_VER3
# define LIBPIDFD_NEED_INFO_VER3 1
# define PIDFD_INFO_SIZE_VER3 88 /* sizeof fourth published struct */
#endif

#ifndef PIDFD_COREDUMPED
#define PIDFD_COREDUMPED (1U << 0) /* Did crash and... */
#endif
#ifndef PIDFD_COREDUMP_SKIP
#define PIDFD_COREDUMP_SKIP (1U << 1) /* coredumping generation was skipped. */
#endif
#ifndef PIDFD_COREDUMP_USER
#define PIDFD_COREDUMP_USER (1U << 2) /* coredump was done as the user. */
#endif
#ifndef PIDFD_COREDUMP_ROOT
#define PIDFD_COREDUMP_ROOT (1U << 3) /* coredump was done as root. */
#endif

#ifdef LIBPIDFD_NEED_INFO_VER3
/*
 * The newest mainline layout (Linux 7.1, 88 bytes). Where the system header
 * declared a shorter struct pidfd_info (Linux 6.13 to 7.0: PIDFD_GET_INFO
 * without PIDFD_INFO_SIZE_VER3), the name is macro-renamed to this one,
 * libpidfd_pidfd_info, so that every later use of "struct pidfd_info", the
 * system's own PIDFD_GET_INFO included, sees the newest layout. With any
 * other system header no macro is defined.
 */
# ifdef PIDFD_GET_INFO
#  define pidfd_info libpidfd_pidfd_info
# endif
struct pidfd_info {
	__u64 mask;
	__u64 cgroupid;
	__u32 pid;
	__u32 tgid;
	__u32 ppid;
	__u32 ruid;
	__u32 rgid;
	__u32 euid;
	__u32 egid;
	__u32 suid;
	__u32 sgid;
	__u32 fsuid;
	__u32 fsgid;
	__s32 exit_code;
	__u32 coredump_mask;
	__u32 coredump_signal;
	__u32 coredump_code;
	__u32 coredump_pad;
	__u64 supported_mask;
};
#endif

#ifndef PIDFS_IOCTL_MAGIC
#define PIDFS_IOCTL_MAGIC 0xFF
#endif
#ifndef PIDFD_GET_CGROUP_NAMESPACE
#define PIDFD_GET_CGROUP_NAMESPACE            _IO(PIDFS_IOCTL_MAGIC, 1)
#define PIDFD_GET_IPC_NAMESPACE               _IO(PIDFS_IOCTL_MAGIC, 2)
#define PIDFD_GET_MNT_NAMESPACE               _IO(PIDFS_IOCTL_MAGIC, 3)
#define PIDFD_GET_NET_NAMESPACE               _IO(PIDFS_IOCTL_MAGIC, 4)
#define PIDFD_GET_PID_NAMESPACE               _IO(PIDFS_IOCTL_MAGIC, 5)
#define PIDFD_GET_PID_FOR_CHILDREN_NAMESPACE  _IO(PIDFS_IOCTL_MAGIC, 6)
#define PIDFD_GET_TIME_NAMESPACE              _IO(PIDFS_IOCTL_MAGIC, 7)
#define PIDFD_GET_TIME_FOR_CHILDREN_NAMESPACE _IO(PIDFS_IOCTL_MAGIC, 8)
#define PIDFD_GET_USER_NAMESPACE              _IO(PIDFS_IOCTL_MAGIC, 9)
#define PIDFD_GET_UTS_NAMESPACE               _IO(PIDFS_IOCTL_MAGIC, 10)
#endif
#ifndef PIDFD_GET_INFO
#define PIDFD_GET_INFO                        _IOWR(PIDFS_IOCTL_MAGIC, 11, struct pidfd_info)
#endif

/*
 * How the library does an operation on the running kernel.
 */
enum libpidfd_support {
	LIBPIDFD_UNAVAILABLE = 0, /* neither the kernel nor the library can */
	LIBPIDFD_NATIVE = 1,      /* the kernel's own implementation */
	LIBPIDFD_EMULATED = 2     /* the library's emulation */
};

/*
 * Kernel features, as probed (bits of libpidfd_features.kernel), with the
 * first mainline release of each. Each is found out by a harmless call,
 * never by the kernel version. (make header-blocks writes this block from
 * the library's list, lib/feature_list.h; make never does.)
 */
/* BEGIN KERNEL: generated by make */
#define LIBPIDFD_KERNEL_PIDFD_OPEN        (1ULL << 0)  /* 5.3 */
#define LIBPIDFD_KERNEL_SEND_SIGNAL       (1ULL << 1)  /* 5.1 */
#define LIBPIDFD_KERNEL_WAITID_PIDFD      (1ULL << 2)  /* 5.4 */
#define LIBPIDFD_KERNEL_GETFD             (1ULL << 3)  /* 5.6 */
#define LIBPIDFD_KERNEL_PROCESS_MADVISE   (1ULL << 4)  /* 5.10 */
#define LIBPIDFD_KERNEL_PROCESS_MRELEASE  (1ULL << 5)  /* 5.15 */
#define LIBPIDFD_KERNEL_PIDFD_THREAD      (1ULL << 6)  /* 6.9 */
#define LIBPIDFD_KERNEL_NS_IOCTLS         (1ULL << 7)  /* 6.11 */
#define LIBPIDFD_KERNEL_GET_INFO          (1ULL << 8)  /* 6.13 */
#define LIBPIDFD_KERNEL_INFO_EXIT         (1ULL << 9)  /* 6.15 */
#define LIBPIDFD_KERNEL_SELF_SENTINELS    (1ULL << 10) /* 6.15 */
#define LIBPIDFD_KERNEL_INFO_COREDUMP     (1ULL << 11) /* 6.16 */
#define LIBPIDFD_KERNEL_SELF_GROUP_10001  (1ULL << 12) /* 6.17 */
#define LIBPIDFD_KERNEL_INFO_SUPPORTED    (1ULL << 13) /* 6.19 */
#define LIBPIDFD_KERNEL_INFO_CODE         (1ULL << 14) /* 7.1 */
#define LIBPIDFD_KERNEL_OPENAT2           (1ULL << 15) /* 5.6 */
#define LIBPIDFD_KERNEL_CLOSE_RANGE       (1ULL << 16) /* 5.9 */
/* END KERNEL */

/*
 * What the library does on this kernel, filled by libpidfd_features() up to
 * the size the caller passes (fields are only ever appended).
 */
struct libpidfd_features {
	__u32 open;             /* enum libpidfd_support, for each call */
	__u32 get_info;
	__u32 getpid;
	__u32 send_signal;
	__u32 getfd;
	__u32 process_madvise;
	__u32 process_mrelease;
	__u32 waitid;
	__u32 get_namespace;
	__u32 self_sentinels;   /* the PIDFD_SELF* sentinels */
	__u32 thread_pidfds;    /* PIDFD_THREAD in libpidfd_open() */
	__u32 emulate_forced;   /* 1 when LIBPIDFD_EMULATE=1 is in force */
	__u64 info_mask;        /* PIDFD_INFO_* bits libpidfd_get_info can return */
	__u64 kernel;           /* LIBPIDFD_KERNEL_* bits the kernel has */
};

int libpidfd_open(pid_t pid, unsigned int flags);
int libpidfd_get_info(int pidfd, struct pidfd_info *info, size_t size);
pid_t libpidfd_getpid(int pidfd);
int libpidfd_send_signal(int pidfd, int sig, siginfo_t *info,
			 unsigned int flags);
int libpidfd_getfd(int pidfd, int targetfd, unsigned int flags);
ssize_t libpidfd_process_madvise(int pidfd, const struct iovec *iov,
				 size_t vlen, int advice, unsigned int flags);
int libpidfd_process_mrelease(int pidfd, unsigned int flags);
int libpidfd_waitid(int pidfd, siginfo_t *info, int options,
		    struct rusage *ru);
int libpidfd_get_namespace(int pidfd, unsigned long ioctl_cmd);
int libpidfd_features(struct libpidfd_features *out, size_t size);

/*
 * A file of the /proc/<pid>/ directory of the process a pidfd names (the
 * sentinels: /proc/thread-self, /proc/self), bound to that process: what
 * is read through it never belongs to another (libpidfd_proc_open(3)).
 */
int libpidfd_proc_open(int pidfd, const char *name, int flags);
ssize_t libpidfd_proc_readlink(int pidfd, const char *name, char *buf,
			       size_t size);

/*
 * The version of this header, written by make from the one VERSION in the
 * Makefile (libpidfd_major_version() and friends give the running library's).
 */
/* BEGIN VERSION: generated by make */
#define LIBPIDFD_VERSION_MAJOR 0
#define LIBPIDFD_VERSION_MINOR 3
#define LIBPIDFD_VERSION_PATCH 0
/* END VERSION */

/* Nonzero when this header is version major.minor.patch or later. */
#define LIBPIDFD_CHECK_VERSION(major, minor, patch)                         \
	(LIBPIDFD_VERSION_MAJOR > (major) ||                                \
	 (LIBPIDFD_VERSION_MAJOR == (major) &&                              \
	  (LIBPIDFD_VERSION_MINOR > (minor) ||                              \
	   (LIBPIDFD_VERSION_MINOR == (minor) &&                            \
	    LIBPIDFD_VERSION_PATCH >= (patch)))))

int libpidfd_major_version(void);
int libpidfd_minor_version(void);
int libpidfd_patch_version(void);
int libpidfd_check_version(int major, int minor, int patch);

#ifdef __cplusplus
}
#endif

#endif /* LIBPIDFD_H */
