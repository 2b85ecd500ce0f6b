/* SPDX-License-Identifier: LGPL-2.1-or-later OR MIT */
/*
 * Internal interfaces of libpidfd. Everything here is hidden from the
 * shared library's symbol table (-fvisibility=hidden and the version script)
 * and, being visible in a static link, carries the lpfd_ prefix.
 *
 * Conventions: internal functions return a value >= 0 or -errno and never
 * rely on errno; the public entry points convert once, through
 * lpfd_return(), and leave errno untouched on success.
 */
#ifndef LIBPIDFD_INTERNAL_H
#define LIBPIDFD_INTERNAL_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "libpidfd.h"
#include "internal/feature_list.h"
#include "../lib/parse.h"

#define LIBPIDFD_API __attribute__((visibility("default")))

#define lpfd_unlikely(x) __builtin_expect(!!(x), 0)
#define lpfd_likely(x) __builtin_expect(!!(x), 1)
#define lpfd_array_size(a) (sizeof(a) / sizeof((a)[0]))

/* The public boundary: -errno becomes -1/errno; success keeps errno as it was. */
static inline long lpfd_return(int saved_errno, long ret)
{
	if (ret < 0) {
		errno = (int)-ret;
		return -1;
	}
	errno = saved_errno;
	return ret;
}

/* ------------------------------------------------------------------------
 * Feature probes (src/probe.c), one per line of
 * include/internal/feature_list.h. Each is found out by a real, harmless call (never a process or a thread: the
 * caller may run under seccomp or a pids limit) and cached lock-free.
 */
enum lpfd_feature {
#define LPFD_FEATURE_ENUM(NAME, name, since, emulable, what) LPFD_FEAT_##NAME,
	LPFD_FEATURES(LPFD_FEATURE_ENUM)
#undef LPFD_FEATURE_ENUM
	LPFD_FEAT_COUNT
};

/*
 * Does the kernel have the feature? 1 yes, 0 no. A probe that cannot run
 * runs again on the next call, LPFD_PROBE_TRIES times in all; after that
 * the answer is 0 for good: the library's emulation where it has one, else
 * the kernel's own errno from the call itself. Until then, a probe short
 * of descriptors or memory gives its -errno (EMFILE, ...), which the call
 * returns; one refused (EPERM from a seccomp filter) gives 0.
 */
#define LPFD_PROBE_TRIES 3
int lpfd_kernel_has(enum lpfd_feature feat);
/* Take the native path for the feature? 0 also under LIBPIDFD_EMULATE=1. */
int lpfd_native(enum lpfd_feature feat);
bool lpfd_emulate_forced(void);
/* Force (1) or lift (0) emulation, whatever the environment says: tests only. */
void lpfd_emulate_override(int on);

/*
 * The one rule for a probe that cannot run this time. A call whose path
 * the answer chooses asks lpfd_kernel_has() or lpfd_native() and fails
 * with the probe's -errno. Where the answer only reports (features, the
 * supported mask) or picks the cheaper of two sound ways (openat2,
 * close_range, a vector call), it asks one of these: the feature counts
 * as absent until a probe has said it is there.
 */
static inline bool lpfd_surely_has(enum lpfd_feature feat)
{
	return lpfd_kernel_has(feat) > 0;
}

static inline bool lpfd_surely_native(enum lpfd_feature feat)
{
	return lpfd_native(feat) > 0;
}

/*
 * The kernel's PIDFD_GET_INFO, found out once: the size of its struct
 * pidfd_info (0 without the ioctl) and the bits it lists in supported_mask
 * (0 before 6.19).
 */
struct lpfd_kernel_info {
	uint32_t size;
	uint64_t supported;
};
void lpfd_kernel_info(struct lpfd_kernel_info *out);

/* ------------------------------------------------------------------------
 * Routing a pidfd argument (src/target.c): the one place that tells a file
 * descriptor from a sentinel, and a sentinel the kernel takes from one the
 * library does itself.
 */
enum lpfd_route_kind {
	LPFD_ROUTE_KERNEL,       /* hand the kernel fd: a fd, or a sentinel it takes */
	LPFD_ROUTE_BAD,          /* a negative value that names nothing: fd is -1,
				    which the kernel calls EBADF after judging
				    the other arguments, in its own order */
	LPFD_ROUTE_SELF_THREAD,  /* PIDFD_SELF_THREAD, done by the library */
	LPFD_ROUTE_SELF_PROCESS, /* PIDFD_SELF_THREAD_GROUP, either value, likewise */
	LPFD_ROUTE_ERROR,        /* a probe could not run: err is its -errno */
};

/* A route is t wherever it is held: r is always a return value. */
struct lpfd_route {
	enum lpfd_route_kind kind;
	int fd;
	int err;
};

/*
 * Where a pidfd argument goes. call is the system call's own feature where
 * the kernel takes the sentinels in it from 6.15 on (LPFD_FEAT_SEND_SIGNAL,
 * _PROCESS_MADVISE, _PROCESS_MRELEASE), or LPFD_NO_SENTINELS for a call
 * no kernel takes them in (the ioctls, pidfd_getfd, waitid). No system call
 * beyond the cached probes.
 */
#define LPFD_NO_SENTINELS LPFD_FEAT_COUNT
struct lpfd_route lpfd_route(int pidfd, enum lpfd_feature call);
static inline bool lpfd_route_is_self(const struct lpfd_route *t)
{
	return t->kind == LPFD_ROUTE_SELF_THREAD ||
	       t->kind == LPFD_ROUTE_SELF_PROCESS;
}
/*
 * The caller's tid for a thread route, its pid for a process route, or
 * -errno where a seccomp filter refused the call: check it.
 */
pid_t lpfd_route_self_id(const struct lpfd_route *t);
/* Open a real pidfd (close-on-exec) for a self route. */
int lpfd_route_open_self(const struct lpfd_route *t);
/* The same, by the id lpfd_route_self_id() gave (its -errno passes on). */
int lpfd_route_open_self_as(const struct lpfd_route *t, pid_t id);

struct lpfd_fdinfo;
/*
 * What the newest kernel answers to a pidfs ioctl on a fd that is not a
 * pidfd (fi, its fdinfo): EBADF for an O_PATH file, EINVAL for epoll (which
 * has its own ioctls since 6.9), ENOTTY for any other.
 */
int lpfd_not_pidfd_errno(int fd, const struct lpfd_fdinfo *fi);

/* ------------------------------------------------------------------------
 * The caller's memory (src/user.c), read and written only by system calls
 * (process_vm_readv() on oneself, a pipe where a filter refuses it), each
 * once: -EFAULT where the kernel would fault, never a crash, even when
 * another thread unmaps it meanwhile. tid is the calling thread's,
 * gettid(), or getpid() where the call holds it: a leader that is gone
 * makes that copy -ESRCH, and the caller asks again by gettid().
 */
/* The n bytes at src (the caller's) into dst (the library's stack). */
int lpfd_user_read(pid_t tid, void *dst, const void *src, size_t n);
/*
 * The n bytes at src to dst (the caller's), then zeroes up to size, as the
 * kernel's copy_struct_to_user(): what is past n is the caller's newer
 * struct, which the library does not know.
 */
int lpfd_user_write(pid_t tid, void *dst, size_t size, const void *src,
		    size_t n);
/*
 * The first headn bytes at dst into head, then what lpfd_user_write()
 * writes there, in one system call where it can: for a request that lives
 * in the struct the answer overwrites, read as the answer is written.
 */
int lpfd_user_read_write(pid_t tid, void *head, size_t headn, void *dst,
			 size_t size, const void *src, size_t n);

/* ------------------------------------------------------------------------
 * /proc readers (src/proc.c); their pure parsers are in lib/parse.h.
 */
/* Whether fd is on a file system of this magic (PROC_SUPER_MAGIC, ...). */
bool lpfd_fd_on_fs(int fd, unsigned long magic);
/* Format "<pre><n><post>" (a /proc path) into buf. */
void lpfd_proc_path(char *buf, size_t size, const char *pre, long n,
		      const char *post);
/* Join "<dir><sub><name>" (a /proc path) into buf. */
void lpfd_proc_join(char *buf, size_t size, const char *dir,
		      const char *sub, const char *name);

/*
 * One procfs instance for one call: every /proc read of the call goes
 * through dir (an O_PATH descriptor on /proc, checked once to be procfs),
 * with paths relative to it ("self/status", "<pid>/cgroup", ...). It is
 * opened and closed within the call; nothing of it is kept.
 */
struct lpfd_proc {
	int dir;
};
enum lpfd_proc_need {
	LPFD_PROC_ANY,      /* only the caller's own files: any procfs will do */
	LPFD_PROC_OUR_PIDS, /* pids are read: proven of our pid namespace first */
};
/*
 * 0 and an open instance; -ENOSYS if /proc is missing, not procfs, or
 * (LPFD_PROC_OUR_PIDS) another pid namespace's; or another -errno
 * (EMFILE, say) if that could not be found out.
 */
int lpfd_proc_open(struct lpfd_proc *p, enum lpfd_proc_need need);
void lpfd_proc_close(struct lpfd_proc *p);
/* path opened under dir without crossing a mount or following a magic link. */
int lpfd_proc_openat(struct lpfd_proc *p, const char *path,
		       int flags);
/* The same, a last component that is a magic link followed (not before it). */
int lpfd_proc_open_last(struct lpfd_proc *p, const char *path, int flags);
ssize_t lpfd_proc_readlink(struct lpfd_proc *p, const char *path,
			     char *buf, size_t size);
/* Whether fd's /proc/thread-self/fd link reads want, read through no mount. */
bool lpfd_fd_link_is(int fd, const char *want);
/* The link an O_PATH descriptor of it names; EINVAL for what is no link. */
ssize_t lpfd_fd_readlink(int fd, char *buf, size_t size);
/* The inode number a namespace link ("net:[4026531840]") names, or -errno. */
int lpfd_proc_ns_ino(struct lpfd_proc *p, const char *path, uint64_t *ino);
/* A namespace link followed, the namespace proven the one it names. */
int lpfd_proc_open_ns(struct lpfd_proc *p, const char *path);
/* fd moved to the lowest free number where held (ours, closed since) was lower. */
int lpfd_fd_lowest(int fd, int held);
/* Whether nothing can be found in dir + sub ("<pid>", "/ns/"): gone or hidden. */
bool lpfd_proc_dir_gone(struct lpfd_proc *p, const char *dir,
			  const char *sub);
/* 1 if a /proc file starts with the n bytes at want, 0 if not, or -errno. */
int lpfd_proc_starts_with(struct lpfd_proc *p, const char *path,
			  const char *want, size_t n);
/* Read a whole small file into buf (NUL-terminated), returning its length. */
ssize_t lpfd_proc_read(struct lpfd_proc *p, const char *path,
			 char *buf, size_t size);
/*
 * Call fn on each whole line (newline dropped, editable in place) of a
 * procfs file of any length, read in chunks of size; a line longer than
 * the chunk is skipped. fn returns 0 to go on, anything else to stop the
 * reading with that value, which is returned.
 */
int lpfd_proc_for_each_line(struct lpfd_proc *p, const char *path,
			      char *buf, size_t size,
			      int (*fn)(char *line, size_t len, void *ctx),
			      void *ctx);
/* For a file of fd found missing (ENOENT) or /proc unusable (ENOSYS): EBADF if fd is closed. */
int lpfd_proc_fd_errno(int fd, int err);
int lpfd_proc_fdinfo(struct lpfd_proc *p, int fd,
		       struct lpfd_fdinfo *out);
/*
 * Open a procfs instance proven ours and read the pid a pidfd names (from
 * its fdinfo: > 0, 0 outside our pid namespace, -1 once reaped): 0 with
 * the instance open; or -errno with it closed, where a file that is not a
 * pidfd gets the newest kernel's ioctl answer (lpfd_not_pidfd_errno()).
 */
int lpfd_proc_open_pidfd(struct lpfd_proc *p, int pidfd, int *pid);
/* The kernel's errno for that pid: 0 for a pid, EREMOTE, or ESRCH. */
static inline int lpfd_fdinfo_pid_errno(int pid)
{
	return pid > 0 ? 0 : pid == 0 ? -EREMOTE : -ESRCH;
}
int lpfd_proc_status(struct lpfd_proc *p, int pid,
		       struct lpfd_status *out);
/*
 * The emulated "is the process behind this pidfd still unreaped?" check
 * that ends every /proc-based answer: 1 yes, 0 reaped, -errno.
 */
int lpfd_proc_unreaped(struct lpfd_proc *p, int pidfd);
/*
 * The errno for a /proc/<pid> entry found missing for a pidfd's process:
 * -ESRCH once it is reaped, -EACCES while it is not (/proc hides it from
 * us: hidepid=2), or -errno of the check.
 */
int lpfd_proc_missing_errno(struct lpfd_proc *p, int pidfd);
/* The cgroup2 id of the path a /proc cgroup file ("<pid>/cgroup") names. */
int lpfd_read_cgroupid(struct lpfd_proc *p, const char *cgroup_file,
			 uint64_t *id);

/* One question each, through a procfs instance of its own (tests, shim). */
int lpfd_read_fdinfo(int fd, struct lpfd_fdinfo *out);
int lpfd_read_status(int pid, struct lpfd_status *out);
int lpfd_pidfd_unreaped(int pidfd);

/* libpidfd_getpid()'s native half, and its rule for a file that is no pidfd. */
pid_t lpfd_getpid_native(int pidfd);
pid_t lpfd_not_a_pidfd_is_ebadf(int r);

/* libpidfd_get_info() without the errno conversion (src/get_info.c). */
int lpfd_get_info(int pidfd, struct libpidfd_info *info, size_t size);
/* The newest kernel's errno for a PIDFD_GET_INFO that failed with err. */
int lpfd_info_newest_errno(int pidfd, int err);
/*
 * Bring a struct libpidfd_info written by a kernel whose struct has ksize
 * bytes (64 to 88) to the newest layout; size is the caller's struct size,
 * req the mask the caller asked with.
 */
void lpfd_info_to_newest(struct libpidfd_info *info, size_t size, uint64_t req,
			   size_t ksize);
/*
 * The size of the kernel's struct libpidfd_info (72 for anything older than
 * 6.19) from its answer to a PIDFD_INFO_SUPPORTED_MASK request.
 */
size_t lpfd_info_kernel_size(const struct libpidfd_info *answer);
/* The PIDFD_INFO_* bits libpidfd_get_info() can return on this kernel. */
uint64_t lpfd_info_supported_mask(void);
/* Set PIDFD_INFO_SUPPORTED_MASK and, where size holds it, supported_mask. */
void lpfd_info_put_supported(struct libpidfd_info *info, size_t size);
/* A field of a caller's struct at byte off, at any alignment. */
uint64_t lpfd_info_field(const struct libpidfd_info *info, size_t off);
void lpfd_info_set_field(struct libpidfd_info *info, size_t off, uint64_t v);
static inline uint64_t lpfd_info_mask(const struct libpidfd_info *info)
{
	return lpfd_info_field(info, offsetof(struct libpidfd_info, mask));
}

/* ------------------------------------------------------------------------
 * Global state (src/state.c lists all of it, with why each is safe).
 */
/* A seqlock over n words whose writer never waits: false if no stable copy. */
bool lpfd_seqcache_load(const unsigned int *seq, const uint64_t *words,
			uint64_t *out, size_t n);
void lpfd_seqcache_store(unsigned int *seq, uint64_t *words,
			 const uint64_t *in, size_t n);
/* Empty again, the words zeroed: tests only. */
void lpfd_seqcache_reset(unsigned int *seq, uint64_t *words, size_t n);
/* Back to the state at load, every cache and flag: tests only. */
void lpfd_state_reset(void);
void lpfd_probe_reset(void);
void lpfd_proc_reset(void);
void lpfd_cgroup_reset(void);
void lpfd_user_reset(void);

#endif /* LIBPIDFD_INTERNAL_H */
