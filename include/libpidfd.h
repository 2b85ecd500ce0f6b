/* SPDX-License-Identifier: LGPL-2.1-or-later OR MIT */
/*
 * libpidfd - the modern pidfd interface (PIDFD_GET_INFO, PIDFD_SELF*) on
 * every Linux kernel from 5.3 on: the kernel's own implementation where the
 * running kernel has it, a race-free emulation where it does not.
 *
 * This is the one public header. It compiles as C99 and later and as C++11
 * and later, with -pedantic, and needs no feature macro on glibc. It goes
 * before or after any set of system headers, <linux/pidfd.h>,
 * <sys/pidfd.h>, <linux/fcntl.h> and <fcntl.h> included, of any release
 * (but for one value of Linux 6.15 and 6.16, below):
 *
 * - It includes none of those four (the kernel's and the C library's pair
 *   clash with each other), defines no other header's include guard and
 *   renames nothing.
 * - Each mainline UAPI name is defined only where no system header defined
 *   it before, spelled token for token as <linux/pidfd.h> and glibc's
 *   <sys/pidfd.h> spell it, so that a system header that comes later
 *   defines it again identically (no warning, even with -Wsystem-headers).
 * - The newest struct pidfd_info layout (88 bytes) is always there as
 *   struct libpidfd_info. struct pidfd_info is this header's own, the same
 *   layout, only where no system header can declare it; elsewhere it is
 *   the system's (see below), and libpidfd_get_info() takes either.
 */
#ifndef LIBPIDFD_H
#define LIBPIDFD_H

/*
 * The kernel's headers where the system has them. A C library's own set
 * without them (Debian's musl-gcc) gets the kernel's fixed-size types
 * and its ioctl numbers from here instead, below: no kernel header can
 * come later there to define them differently.
 */
#if defined(__has_include)
# if __has_include(<linux/types.h>)
#  define LIBPIDFD_KERNEL_HEADERS 1
# endif
#else
# define LIBPIDFD_KERNEL_HEADERS 1
#endif
#ifdef LIBPIDFD_KERNEL_HEADERS
# include <linux/ioctl.h>
# include <linux/types.h>
# include <linux/version.h>
#else
/* As <asm-generic/int-ll64.h> has them. */
typedef unsigned int __u32;
typedef int __s32;
__extension__ typedef unsigned long long __u64;
#endif
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
/*
 * siginfo_t whatever the feature macros, as glibc's own <sys/pidfd.h> gets
 * it. On other C libraries <signal.h> may declare it only for POSIX
 * programs: a strict build there (-std=c99 and the like) defines
 * _POSIX_C_SOURCE as 199309L or later before its first #include.
 */
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 26)
# include <bits/types/siginfo_t.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

struct iovec;
struct rusage;

/*
 * Stands in for <linux/pidfd.h> and <sys/pidfd.h>: pidfd_open()'s flags,
 * spelled O_NONBLOCK and O_EXCL as both of them spell them. Where neither
 * <fcntl.h> nor <linux/fcntl.h> came first, those two names are given
 * here as enumeration constants, never as macros: the kernel's values of
 * each architecture (its asm/fcntl.h), so that the flags work without
 * either header, and either can still follow and define its macros.
 * Unavoidable: flags spelled as numbers would differ from a later system
 * header's definition, and including one fcntl header would clash with
 * the other.
 */
#ifndef PIDFD_NONBLOCK
# ifndef O_NONBLOCK
enum {
#  if defined(__alpha__)
	O_NONBLOCK = 04
#  elif defined(__mips__)
	O_NONBLOCK = 0200
#  elif defined(__sparc__)
	O_NONBLOCK = 040000
#  elif defined(__hppa__)
	O_NONBLOCK = 0200000
#  else
	O_NONBLOCK = 04000
#  endif
};
# endif
# define PIDFD_NONBLOCK O_NONBLOCK
#endif
#ifndef PIDFD_THREAD
# ifndef O_EXCL
enum {
#  if defined(__alpha__) || defined(__sparc__)
	O_EXCL = 04000
#  elif defined(__mips__) || defined(__hppa__)
	O_EXCL = 02000
#  else
	O_EXCL = 0200
#  endif
};
# endif
# define PIDFD_THREAD O_EXCL
#endif

/* Stands in for <linux/pidfd.h>: pidfd_send_signal()'s flags (Linux 6.9). */
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
 * Stands in for <linux/fcntl.h> (Linux 6.15; <sys/pidfd.h> of glibc 2.43)
 * and <linux/pidfd.h>: sentinels naming the caller in every call that
 * takes a pidfd. Linux 6.15 and 6.16 spelled the thread group -20000; the
 * library accepts that value too and hands the running kernel the one it
 * understands. (Those two releases' headers alone disagree on a value:
 * with them, <linux/fcntl.h> or <linux/pidfd.h> goes first.)
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

/* Stands in for <linux/pidfd.h> (Linux 6.13 to 7.1): PIDFD_GET_INFO's bits. */
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
#define PIDFD_INFO_SIZE_VER3 88 /* sizeof fourth published struct */
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

/*
 * The newest mainline struct pidfd_info layout (Linux 7.1, 88 bytes): the
 * members of both structs below, written once so that they stay the same.
 */
#define LIBPIDFD_INFO_MEMBERS \
	__u64 mask; \
	__u64 cgroupid; \
	__u32 pid; \
	__u32 tgid; \
	__u32 ppid; \
	__u32 ruid; \
	__u32 rgid; \
	__u32 euid; \
	__u32 egid; \
	__u32 suid; \
	__u32 sgid; \
	__u32 fsuid; \
	__u32 fsgid; \
	__s32 exit_code; \
	__u32 coredump_mask; \
	__u32 coredump_signal; \
	__u32 coredump_code; \
	__u32 coredump_pad; \
	__u64 supported_mask;

/*
 * That layout under the library's own name: the same whatever the system
 * headers, so that a C++ function taking it mangles the same everywhere.
 */
struct libpidfd_info {
	LIBPIDFD_INFO_MEMBERS
};

/*
 * Stands in for <linux/pidfd.h> of Linux 6.13 and later and for glibc
 * 2.43's <sys/pidfd.h>: struct pidfd_info, the same layout as struct
 * libpidfd_info, only where neither can declare it (older kernel headers,
 * by <linux/version.h>, and an older C library) and no other header
 * already did (PIDFD_GET_INFO undefined): either of them declares it
 * without a guard, so a declaration here would clash with theirs when
 * they came later. Elsewhere struct pidfd_info is the system's, of its
 * size (glibc 2.43's: 72 bytes; Linux 6.13 to 7.0's: 64 to 80), and
 * declared only once the system header that declares it is included.
 * LIBPIDFD_OWN_PIDFD_INFO says which.
 */
#if !defined(PIDFD_GET_INFO) && \
	(!defined(LIBPIDFD_KERNEL_HEADERS) || LINUX_VERSION_CODE < 0x060d00) && \
	!(defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 43))
# define LIBPIDFD_OWN_PIDFD_INFO 1
struct pidfd_info {
	LIBPIDFD_INFO_MEMBERS
};
#else
struct pidfd_info;
#endif
#undef LIBPIDFD_INFO_MEMBERS

/* Stands in for <linux/pidfd.h> (Linux 6.11 added the ten together). */
#ifndef PIDFS_IOCTL_MAGIC
#define PIDFS_IOCTL_MAGIC 0xFF
#endif
#ifndef LIBPIDFD_KERNEL_HEADERS
/*
 * Without the kernel's headers, their numbers: _IOC()'s encoding of
 * <asm-generic/ioctl.h>, and of the four architectures that have their
 * own (direction bits at 29, none 1, read 2, write 4).
 */
# if defined(__powerpc__) || defined(__mips__) || defined(__sparc__) || \
	defined(__alpha__)
#  define LIBPIDFD_IOC(dir, nr, size) \
	((((dir) == 0 ? 1U : (dir) * 2U) << 29) | ((unsigned)(size) << 16) | \
	 (PIDFS_IOCTL_MAGIC << 8) | (nr))
# else
#  define LIBPIDFD_IOC(dir, nr, size) \
	(((dir) << 30) | ((unsigned)(size) << 16) | (PIDFS_IOCTL_MAGIC << 8) | (nr))
# endif
/* dir: 0 none, 3 read and write */
# define PIDFD_GET_CGROUP_NAMESPACE            LIBPIDFD_IOC(0U, 1, 0)
# define PIDFD_GET_IPC_NAMESPACE               LIBPIDFD_IOC(0U, 2, 0)
# define PIDFD_GET_MNT_NAMESPACE               LIBPIDFD_IOC(0U, 3, 0)
# define PIDFD_GET_NET_NAMESPACE               LIBPIDFD_IOC(0U, 4, 0)
# define PIDFD_GET_PID_NAMESPACE               LIBPIDFD_IOC(0U, 5, 0)
# define PIDFD_GET_PID_FOR_CHILDREN_NAMESPACE  LIBPIDFD_IOC(0U, 6, 0)
# define PIDFD_GET_TIME_NAMESPACE              LIBPIDFD_IOC(0U, 7, 0)
# define PIDFD_GET_TIME_FOR_CHILDREN_NAMESPACE LIBPIDFD_IOC(0U, 8, 0)
# define PIDFD_GET_USER_NAMESPACE              LIBPIDFD_IOC(0U, 9, 0)
# define PIDFD_GET_UTS_NAMESPACE               LIBPIDFD_IOC(0U, 10, 0)
# define PIDFD_GET_INFO                        LIBPIDFD_IOC(3U, 11, sizeof(struct pidfd_info))
#endif
#undef LIBPIDFD_KERNEL_HEADERS
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
/* Sized by whichever struct pidfd_info is in force, as the system's is. */
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
 * the library's list, include/internal/feature_list.h; make never does.)
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
/* Takes a struct libpidfd_info too (see the end of this header). */
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

/*
 * libpidfd_get_info() with a struct libpidfd_info *, type-checked: in C++
 * an overload (the one for struct pidfd_info * is preferred when both
 * match); in C11, and as an extension in GNU C99, a _Generic() macro that
 * passes every other argument as it is. The library fills either struct
 * up to the size given. (The function itself: (libpidfd_get_info)(...).)
 */
#ifdef __cplusplus
extern "C++" {
template <typename T>
inline int libpidfd_get_info(int pidfd, T *info, size_t size)
{
	struct libpidfd_info *full = info; /* no other type converts */

	return libpidfd_get_info(pidfd,
				 reinterpret_cast<struct pidfd_info *>(full),
				 size);
}
}
#elif (defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L) || \
	defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 5)
# ifdef __GNUC__
#  define LIBPIDFD_EXTENSION __extension__ /* _Generic in C99 */
# else
#  define LIBPIDFD_EXTENSION
# endif
# define libpidfd_get_info(pidfd, info, size)                              \
	libpidfd_get_info(pidfd, LIBPIDFD_EXTENSION _Generic((info),       \
		struct libpidfd_info *: (struct pidfd_info *)(void *)(info),\
		default: (info)), size)
#endif

#endif /* LIBPIDFD_H */
