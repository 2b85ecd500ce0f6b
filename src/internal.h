/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Internal interfaces of libpidfd. Everything here is hidden from the
 * shared library's symbol table (-fvisibility=hidden and the version script)
 * and, being visible in a static link, carries the __lpfd_ prefix.
 *
 * Conventions: internal functions return a value >= 0 or -errno and never
 * rely on errno; the public entry points convert once, through
 * __lpfd_return(), and leave errno untouched on success.
 */
#ifndef LIBPIDFD_INTERNAL_H
#define LIBPIDFD_INTERNAL_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "libpidfd.h"

#define LIBPIDFD_API __attribute__((visibility("default")))

#define __lpfd_unlikely(x) __builtin_expect(!!(x), 0)
#define __lpfd_likely(x) __builtin_expect(!!(x), 1)
#define __lpfd_array_size(a) (sizeof(a) / sizeof((a)[0]))

/* A return value that is -errno (sentinels, below -4095, are not). */
static inline bool __lpfd_is_errno(long ret)
{
	return ret < 0 && ret > -4096;
}

/* The public boundary: -errno becomes -1/errno; success keeps errno as it was. */
static inline long __lpfd_return(int saved_errno, long ret)
{
	if (ret < 0) {
		errno = (int)-ret;
		return -1;
	}
	errno = saved_errno;
	return ret;
}

/* ------------------------------------------------------------------------
 * Feature probes (src/probe.c). One entry per kernel feature, each found out
 * once by a real, harmless call and cached lock-free.
 */
enum __lpfd_feature {
	__LPFD_FEAT_PIDFD_OPEN,       /* 5.3:  pidfd_open(2) */
	__LPFD_FEAT_SEND_SIGNAL,      /* 5.1:  pidfd_send_signal(2) */
	__LPFD_FEAT_WAITID_PIDFD,     /* 5.4:  waitid(P_PIDFD) */
	__LPFD_FEAT_GETFD,            /* 5.6:  pidfd_getfd(2) */
	__LPFD_FEAT_PROCESS_MADVISE,  /* 5.10: process_madvise(2) */
	__LPFD_FEAT_PROCESS_MRELEASE, /* 5.15: process_mrelease(2) */
	__LPFD_FEAT_PIDFD_THREAD,     /* 6.9:  pidfd_open(tid, PIDFD_THREAD) */
	__LPFD_FEAT_NS_IOCTLS,        /* 6.11: PIDFD_GET_*_NAMESPACE */
	__LPFD_FEAT_GET_INFO,         /* 6.13: PIDFD_GET_INFO */
	__LPFD_FEAT_INFO_EXIT,        /* 6.15: PIDFD_INFO_EXIT after reap */
	__LPFD_FEAT_SELF_SENTINELS,   /* 6.15: PIDFD_SELF_THREAD (-10000) */
	__LPFD_FEAT_INFO_COREDUMP,    /* 6.16: PIDFD_INFO_COREDUMP */
	__LPFD_FEAT_SELF_GROUP_10001, /* 6.17: PIDFD_SELF_THREAD_GROUP is -10001 */
	__LPFD_FEAT_INFO_SUPPORTED,   /* 6.19: PIDFD_INFO_SUPPORTED_MASK */
	__LPFD_FEAT_INFO_CODE,        /* 7.1:  PIDFD_INFO_COREDUMP_CODE */
	__LPFD_FEAT_COUNT,
};

/*
 * 1 if the kernel has the feature and the library may use it, 0 if not
 * (absent, or LIBPIDFD_EMULATE=1 in force), -errno if the probe itself
 * could not run (EMFILE, say); such a result is not cached.
 */
int __lpfd_kernel_has(enum __lpfd_feature feat);
/* Like __lpfd_kernel_has(), ignoring LIBPIDFD_EMULATE. */
int __lpfd_kernel_has_raw(enum __lpfd_feature feat);
bool __lpfd_emulate_forced(void);
/* Force (1) or lift (0) emulation, whatever the environment says: tests only. */
void __lpfd_emulate_override(int on);

/* ------------------------------------------------------------------------
 * The one place a pidfd argument is resolved (src/target.c).
 */
enum __lpfd_target_kind {
	__LPFD_TARGET_FD,          /* a file descriptor, pidfd or not */
	__LPFD_TARGET_SELF_THREAD, /* PIDFD_SELF_THREAD */
	__LPFD_TARGET_SELF_GROUP,  /* PIDFD_SELF_THREAD_GROUP, either value */
};

struct __lpfd_target {
	enum __lpfd_target_kind kind;
	int fd; /* the caller's fd, for __LPFD_TARGET_FD */
};

/*
 * Classify a pidfd argument: 0, or -EBADF for a negative value that is no
 * sentinel. It makes no system call. On -EBADF, *t is still a plain fd
 * target, fd -1: a caller that hands it to the kernel gets EBADF after the
 * kernel has judged the call's other arguments, in the kernel's own order.
 */
int __lpfd_target_resolve(int pidfd, struct __lpfd_target *t);
/*
 * The sentinel value the running kernel understands for a self target
 * (itself negative: tell it from an error with __lpfd_is_errno()), or
 * -EBADF where the kernel takes none, or another -errno.
 */
int __lpfd_target_kernel_sentinel(const struct __lpfd_target *t);
/* Open a real pidfd for a self target (close-on-exec). */
int __lpfd_target_open_self(const struct __lpfd_target *t);

/* ------------------------------------------------------------------------
 * /proc readers (src/proc.c) and their pure parsers (src/parse.c), which
 * take a buffer so that they can be fuzzed without /proc.
 */
struct __lpfd_fdinfo {
	int pid;         /* "Pid:": >0, 0 (not in this pid namespace), -1 (reaped) */
	unsigned int flags; /* "flags:", octal */
	bool is_pidfd;   /* a "Pid:" line was there */
};

struct __lpfd_status {
	int pid, tgid, ppid;
	unsigned int uid[4]; /* real, effective, saved, filesystem */
	unsigned int gid[4];
	char state;          /* 'R', 'S', 'Z', ... */
	int nspid_first;     /* "NSpid:": the pid in procfs's pid namespace, */
	int nspid_levels;    /* and how many namespaces down to the task's own */
	unsigned int have;   /* __LPFD_ST_* */
};
#define __LPFD_ST_PID   (1u << 0)
#define __LPFD_ST_TGID  (1u << 1)
#define __LPFD_ST_PPID  (1u << 2)
#define __LPFD_ST_UID   (1u << 3)
#define __LPFD_ST_GID   (1u << 4)
#define __LPFD_ST_STATE (1u << 5)
#define __LPFD_ST_ALL   0x3fu /* all that get_info needs */
#define __LPFD_ST_NSPID (1u << 6)

/* Longest cgroup path the library resolves; longer ones leave CGROUPID clear. */
#define __LPFD_PATH_MAX 1024

int __lpfd_parse_fdinfo(const char *buf, size_t len, struct __lpfd_fdinfo *out);
int __lpfd_parse_status(const char *buf, size_t len, struct __lpfd_status *out);
/* The cgroup2 ("0::") path of /proc/<pid>/cgroup, NUL-terminated, or -ENOENT. */
int __lpfd_parse_cgroup(const char *buf, size_t len, char *path, size_t size);
struct __lpfd_mountinfo {
	int mnt_id;
	char *root; /* the cgroup mounted there, as our cgroup namespace sees it */
	char *mnt;  /* where it is mounted */
};
/*
 * One line of /proc/self/mountinfo (without its newline), parsed in place:
 * 0 and root and mount point, unescaped and NUL-terminated, if it is a
 * cgroup2 mount; else -ENOENT.
 */
int __lpfd_parse_mountinfo_line(char *line, size_t len,
				struct __lpfd_mountinfo *out);
/* Parse a decimal int at *p (optional '-'), advance *p; -EINVAL if none. */
int __lpfd_parse_int(const char **p, const char *end, long long *out);

/* Whether fd is on a file system of this magic (PROC_SUPER_MAGIC, ...). */
bool __lpfd_fd_on_fs(int fd, unsigned long magic);
/* Format "<pre><n><post>" (a /proc path) into buf. */
void __lpfd_proc_path(char *buf, size_t size, const char *pre, long n,
		      const char *post);
/* Join "<dir><sub><name>" (a /proc path) into buf. */
void __lpfd_proc_join(char *buf, size_t size, const char *dir,
		      const char *sub, const char *name);

/*
 * One procfs instance for one call: every /proc read of the call goes
 * through dir (an O_PATH descriptor on /proc, checked once to be procfs),
 * with paths relative to it ("self/status", "<pid>/cgroup", ...). It is
 * opened and closed within the call; nothing of it is kept.
 */
struct __lpfd_proc {
	int dir;
};
enum __lpfd_proc_need {
	__LPFD_PROC_ANY,      /* only the caller's own files: any procfs will do */
	__LPFD_PROC_OUR_PIDS, /* pids are read: proven of our pid namespace first */
};
/*
 * 0 and an open instance; -ENOSYS if /proc is missing, not procfs, or
 * (__LPFD_PROC_OUR_PIDS) another pid namespace's; or another -errno
 * (EMFILE, say) if that could not be found out.
 */
int __lpfd_proc_open(struct __lpfd_proc *p, enum __lpfd_proc_need need);
void __lpfd_proc_close(struct __lpfd_proc *p);
int __lpfd_proc_openat(const struct __lpfd_proc *p, const char *path,
		       int flags);
ssize_t __lpfd_proc_readlink(const struct __lpfd_proc *p, const char *path,
			     char *buf, size_t size);
/* Whether nothing can be found in dir + sub ("<pid>", "/ns/"): gone or hidden. */
bool __lpfd_proc_dir_gone(const struct __lpfd_proc *p, const char *dir,
			  const char *sub);
/* Read a whole small file into buf (NUL-terminated), returning its length. */
ssize_t __lpfd_proc_read(const struct __lpfd_proc *p, const char *path,
			 char *buf, size_t size);
/*
 * Call fn on each whole line (newline dropped, editable in place) of a
 * procfs file of any length, read in chunks of size; a line longer than
 * the chunk is skipped. fn returns 0 to go on, anything else to stop the
 * reading with that value, which is returned.
 */
int __lpfd_proc_for_each_line(const struct __lpfd_proc *p, const char *path,
			      char *buf, size_t size,
			      int (*fn)(char *line, size_t len, void *ctx),
			      void *ctx);
/* For a file of fd found missing (ENOENT) or /proc unusable (ENOSYS): EBADF if fd is closed. */
int __lpfd_proc_fd_errno(int fd, int err);
int __lpfd_proc_fdinfo(const struct __lpfd_proc *p, int fd,
		       struct __lpfd_fdinfo *out);
int __lpfd_proc_status(const struct __lpfd_proc *p, int pid,
		       struct __lpfd_status *out);
/*
 * The emulated "is the process behind this pidfd still unreaped?" check
 * that ends every /proc-based answer: 1 yes, 0 reaped, -errno.
 */
int __lpfd_proc_unreaped(const struct __lpfd_proc *p, int pidfd);
/*
 * The errno for a /proc/<pid> entry found missing for a pidfd's process:
 * -ESRCH once it is reaped, -EACCES while it is not (/proc hides it from
 * us: hidepid=2), or -errno of the check.
 */
int __lpfd_proc_missing_errno(const struct __lpfd_proc *p, int pidfd);
/* The cgroup2 id of the path a /proc cgroup file ("<pid>/cgroup") names. */
int __lpfd_read_cgroupid(const struct __lpfd_proc *p, const char *cgroup_file,
			 uint64_t *id);

/* One question each, through a procfs instance of its own (tests, shim). */
int __lpfd_read_fdinfo(int fd, struct __lpfd_fdinfo *out);
int __lpfd_read_status(int pid, struct __lpfd_status *out);
int __lpfd_pidfd_unreaped(int pidfd);

/* libpidfd_get_info() without the errno conversion (src/get_info.c). */
int __lpfd_get_info(int pidfd, struct pidfd_info *info, size_t size);
/*
 * Bring a struct pidfd_info written by a kernel whose struct has ksize
 * bytes (64 to 88) to the newest layout; size is the caller's struct size,
 * req the mask the caller asked with.
 */
void __lpfd_info_to_newest(struct pidfd_info *info, size_t size, uint64_t req,
			   size_t ksize);
/* The PIDFD_INFO_* bits libpidfd_get_info() can return on this kernel. */
uint64_t __lpfd_info_supported_mask(void);

#endif /* LIBPIDFD_INTERNAL_H */
