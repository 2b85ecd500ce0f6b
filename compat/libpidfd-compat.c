/* SPDX-License-Identifier: LGPL-2.1-or-later OR MIT */
/*
 * libpidfd-compat.so: the newest kernel's pidfd interface for programs that
 * were never ported. Preloaded (LD_PRELOAD), it catches a program's own
 *
 *   ioctl(fd, PIDFD_GET_INFO (any size) / PIDFD_GET_*_NAMESPACE, ...)
 *   pidfd_open, pidfd_send_signal, pidfd_getfd, process_madvise,
 *   process_mrelease
 *   waitid(P_PIDFD, ...)
 *   fchown, fchownat, fchmod, execveat, fexecve on a pidfd
 *   syscall(SYS_<any of these>, ...)
 *
 * and answers them through the library. Everything else goes to the next
 * definition (libc's) untouched, after one compare; where the kernel has a
 * feature itself, the library's dispatcher adds one cached probe.
 *
 * Why the library's objects are linked in, hidden, and not -lpidfd: a
 * preloaded object lands in programs that know nothing of libpidfd, so it
 * must not need libpidfd.so.0 on the library path at a matching version
 * (one more thing to fail at exec time); such a program may even link its
 * own libpidfd.so.0 of another version, and with every library symbol local
 * to the shim neither can bind to the other's. The shim also needs what the
 * shared library rightly hides (the cached probes, the fdinfo reader,
 * get_info without the errno conversion), and its calls into the library
 * stay direct calls, with no PLT on the way.
 *
 * The library never calls libc's ioctl(), waitid(), syscall() or pidfd
 * wrappers (src/syscall.h issues system calls itself), so the shim cannot
 * recurse into itself. Where syscall.h falls back to libc's syscall() (on
 * architectures without inline system calls), the link redirects the
 * library's references with --wrap=syscall to __wrap_syscall below, which
 * goes straight to libc.
 */
#include <dlfcn.h>
#include <limits.h>
#include <signal.h>
#include <fcntl.h>
#include <stdarg.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "internal.h"
#include "syscall.h"

/* The entry points, exported by compat/libpidfd-compat.map and nothing else. */
#define COMPAT_API __attribute__((visibility("default")))

/* "Not ours: let the real call answer", distinct from every >= 0 or -errno. */
#define COMPAT_REAL LONG_MIN

/* ------------------------------------------------------------------------
 * The real calls: the next definitions after ours, looked up once (in the
 * constructor, or on a first call that comes before it) and cached.
 */
/* glibc declares ioctl()'s request unsigned long, musl (as POSIX) int. */
#ifdef __GLIBC__
typedef unsigned long ioctl_req;
#else
typedef int ioctl_req;
#endif
typedef int (*ioctl_fn)(int, ioctl_req, ...);
typedef long (*syscall_fn)(long, ...);
typedef int (*waitid_fn)(idtype_t, id_t, siginfo_t *, int);
typedef int (*fchown_fn)(int, uid_t, gid_t);
typedef int (*fchownat_fn)(int, const char *, uid_t, gid_t, int);
typedef int (*fchmod_fn)(int, mode_t);
typedef int (*execveat_fn)(int, const char *, char *const[], char *const[],
			   int);
typedef int (*fexecve_fn)(int, char *const[], char *const[]);

static void *real_ioctl_p, *real_syscall_p, *real_waitid_p;
static void *real_fchown_p, *real_fchownat_p, *real_fchmod_p;
static void *real_execveat_p, *real_fexecve_p;

/*
 * glibc's 32-bit programs built with a 64-bit time_t (_TIME_BITS=64, as
 * Debian's armhf since trixie) call __ioctl_time64 instead of ioctl: it is
 * interposed alike, and the real one is its next definition.
 */
#if defined(__GLIBC__) && defined(__TIMESIZE) && __TIMESIZE == 32
#define COMPAT_IOCTL_TIME64 1
static void *real_ioctl_time64_p;
#endif

static void *real_lookup(void **slot, const char *name)
{
	void *f = __atomic_load_n(slot, __ATOMIC_RELAXED);

	if (lpfd_unlikely(!f)) {
		f = dlsym(RTLD_NEXT, name);
		__atomic_store_n(slot, f, __ATOMIC_RELAXED);
	}
	return f;
}

__attribute__((constructor)) static void compat_init(void)
{
	real_lookup(&real_ioctl_p, "ioctl");
#ifdef COMPAT_IOCTL_TIME64
	real_lookup(&real_ioctl_time64_p, "__ioctl_time64");
#endif
	real_lookup(&real_syscall_p, "syscall");
	real_lookup(&real_waitid_p, "waitid");
	real_lookup(&real_fchown_p, "fchown");
	real_lookup(&real_fchownat_p, "fchownat");
	real_lookup(&real_fchmod_p, "fchmod");
	real_lookup(&real_execveat_p, "execveat");
	real_lookup(&real_fexecve_p, "fexecve");
}

/* Raw -errno to the -1/errno of a libc call. */
static long compat_return(int saved_errno, long r)
{
	return lpfd_return(saved_errno, r);
}

/* Without a next definition (which libc always has) the kernel answers. */
static int real_ioctl(void **slot, const char *name, int fd, ioctl_req cmd,
		      void *arg)
{
	ioctl_fn f = (ioctl_fn)real_lookup(slot, name);

	if (lpfd_unlikely(!f))
		return (int)compat_return(errno, lpfd_sys_ioctl(fd, cmd, arg));
	return f(fd, cmd, arg);
}

static long real_syscall(long nr, const long a[6])
{
	syscall_fn f = (syscall_fn)real_lookup(&real_syscall_p, "syscall");

	if (lpfd_unlikely(!f))
		return compat_return(errno, lpfd_syscall6(nr, a[0], a[1], a[2],
							    a[3], a[4], a[5]));
	return f(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
}

static int real_waitid(idtype_t type, id_t id, siginfo_t *info, int options)
{
	waitid_fn f = (waitid_fn)real_lookup(&real_waitid_p, "waitid");

	if (lpfd_unlikely(!f))
		return (int)compat_return(errno, lpfd_sys_waitid((int)type,
				(int)id, info, options, NULL));
	return f(type, id, info, options);
}

/*
 * Six arguments are read and passed on whatever the call takes, as libc's
 * syscall() itself does: the kernel ignores the ones it does not use.
 */
#define SYSCALL_ARGS(nr, a)                                                   \
	do {                                                                  \
		va_list ap;                                                   \
		va_start(ap, nr);                                             \
		for (int i = 0; i < 6; i++)                                   \
			(a)[i] = va_arg(ap, long);                            \
		va_end(ap);                                                   \
	} while (0)

/* The library's own system calls, where syscall.h hands them to libc. */
long __wrap_syscall(long nr, ...);
long __wrap_syscall(long nr, ...)
{
	long a[6];

	SYSCALL_ARGS(nr, a);
	return real_syscall(nr, a);
}

/* ------------------------------------------------------------------------
 * ioctl. The kernel takes the command as 32 bits; the number names the
 * operation and, for PIDFD_GET_INFO, carries the caller's struct size.
 */
#define INFO_NR 11
#define INFO_CMD_RW _IOC(_IOC_READ | _IOC_WRITE, PIDFS_IOCTL_MAGIC, INFO_NR, 0)
#define CMD_SIZE_MASK ((unsigned int)_IOC_SIZEMASK << _IOC_SIZESHIFT)

static bool is_pidfs_cmd(unsigned int cmd)
{
	return _IOC_TYPE(cmd) == PIDFS_IOCTL_MAGIC;
}

static bool is_info_cmd(unsigned int cmd)
{
	return _IOC_NR(cmd) == INFO_NR;
}

static bool is_ns_cmd(unsigned int cmd)
{
	return cmd >= PIDFD_GET_CGROUP_NAMESPACE &&
	       cmd <= PIDFD_GET_UTS_NAMESPACE;
}

/* 1 a pidfd, 0 another file, -errno if /proc cannot tell. */
static int is_pidfd(int fd, struct lpfd_fdinfo *fi)
{
	int r = lpfd_read_fdinfo(fd, fi);

	return r < 0 ? r : fi->is_pidfd;
}

/*
 * A command the newest kernel refuses before it looks at the process: the
 * wrong direction or a struct below the first layout (ENOTTY; 6.13 to 6.17
 * said EINVAL for the latter), or no struct at all (EINVAL). Only a pidfd
 * gets that answer; any other file gets the real ioctl's.
 */
static long info_malformed(int fd, unsigned int cmd)
{
	struct lpfd_fdinfo fi;

	if (is_pidfd(fd, &fi) <= 0)
		return COMPAT_REAL;
	if ((cmd & ~CMD_SIZE_MASK) != INFO_CMD_RW ||
	    _IOC_SIZE(cmd) < PIDFD_INFO_SIZE_VER0)
		return -ENOTTY;
	return -EINVAL;
}

/*
 * A program's struct that cannot be read: the kernel's EFAULT, after its
 * own judgement of the fd (a struct-less call asks for it alone).
 */
static long info_unreadable(int fd)
{
	long r = lpfd_get_info(fd, NULL, PIDFD_INFO_SIZE_VER0);

	return r == -EINVAL ? -EFAULT : r;
}

/* A kernel with the newest layout answers every request as it stands. */
static bool info_layout_is_the_kernels(void)
{
	struct lpfd_kernel_info k;

	if (!lpfd_surely_native(LPFD_FEAT_GET_INFO))
		return false;
	lpfd_kernel_info(&k);
	return k.size >= PIDFD_INFO_SIZE_VER3;
}

/*
 * An older kernel's answer is the newest kernel's unless the request asks
 * for PIDFD_INFO_SUPPORTED_MASK, which kernels before 6.19 drop and 6.19
 * and 7.0 put where 7.1 has coredump_code.
 */
static bool info_answer_is_the_kernels(uint64_t req)
{
	return lpfd_surely_native(LPFD_FEAT_GET_INFO) &&
	       !(req & PIDFD_INFO_SUPPORTED_MASK);
}

/*
 * The kernel's own ioctl on the program's struct, which gives EFAULT for
 * a bad one itself; only an older kernel's errno is brought to the
 * newest's.
 */
static long info_by_kernel(int fd, unsigned int cmd, void *arg)
{
	int r = lpfd_sys_ioctl(fd, cmd, arg);

	return r < 0 ? lpfd_info_newest_errno(fd, r) : r;
}

/*
 * The library's answer, where the kernel's needs mending or there is no
 * ioctl: made on the stack and written to the program's struct only by
 * the careful copy of src/user.c, so that a struct another thread unmaps
 * meanwhile is EFAULT as in the kernel, never a crash.
 */
static long info_by_library(pid_t tid, int fd, unsigned int cmd, void *arg,
			    uint64_t req)
{
	struct libpidfd_info a = { .mask = req };
	size_t size = _IOC_SIZE(cmd);
	size_t n = size < sizeof(a) ? size : sizeof(a);
	long r = lpfd_get_info(fd, &a, n);

	if (r == 0)
		r = lpfd_user_write(tid, arg, size, &a, n);
	return r;
}

/*
 * PIDFD_GET_INFO of any size. With the newest layout the kernel answers
 * the program's ioctl untouched. Before it, the request is read by the
 * careful copy of src/user.c (a bad pointer is EFAULT, never a crash),
 * and the kernel answers the program's ioctl itself wherever its answer
 * is the newest kernel's, once: its ENOTTY for a file that is not a
 * pidfd stands. The library answers ENOTTY only for such a file, which
 * the real ioctl then answers for itself. A sentinel is no file
 * descriptor to ioctl().
 */
static long info_ioctl(int fd, unsigned int cmd, void *arg)
{
	uint64_t req;
	pid_t tid;
	long r;

	if (fd < 0 || info_layout_is_the_kernels())
		return COMPAT_REAL;
	if (!arg || (cmd & ~CMD_SIZE_MASK) != INFO_CMD_RW ||
	    _IOC_SIZE(cmd) < PIDFD_INFO_SIZE_VER0)
		return info_malformed(fd, cmd);
	/* A refused gettid or copy is its errno: never taken for a fault. */
	tid = lpfd_sys_gettid();
	if (tid < 0)
		return tid;
	r = lpfd_user_read(tid, &req, arg, sizeof(req));
	if (r == -EFAULT)
		r = info_unreadable(fd);
	else if (r < 0)
		return r;
	else if (info_answer_is_the_kernels(req))
		return info_by_kernel(fd, cmd, arg);
	else
		r = info_by_library(tid, fd, cmd, arg, req);
	return r == -ENOTTY ? COMPAT_REAL : r;
}

/*
 * A namespace command with an argument, which the kernel refuses (EINVAL)
 * once it has found the process (ESRCH if reaped); only on a pidfd.
 */
static long ns_with_arg(int fd)
{
	struct lpfd_fdinfo fi;

	if (is_pidfd(fd, &fi) <= 0)
		return COMPAT_REAL;
	return fi.pid < 0 ? -ESRCH : -EINVAL;
}

/*
 * PIDFD_GET_*_NAMESPACE: the kernel's own where it has them, command and
 * argument untouched; else the library's, which gives any other file that
 * file's own answer. An argument is judged here on every kernel: 6.11 and
 * 6.12 refuse it before they look for the process (EINVAL for a reaped
 * one too), later kernels after (ESRCH).
 */
static long ns_ioctl(int fd, unsigned int cmd, unsigned long arg)
{
	int r;

	if (fd < 0)
		return COMPAT_REAL;
	if (arg)
		return ns_with_arg(fd);
	if (lpfd_surely_native(LPFD_FEAT_NS_IOCTLS))
		return COMPAT_REAL;
	r = libpidfd_get_namespace(fd, cmd);
	return r < 0 ? -errno : r;
}

static long compat_ioctl(int fd, unsigned int cmd, unsigned long arg)
{
	if (is_info_cmd(cmd))
		return info_ioctl(fd, cmd, (void *)arg);
	if (is_ns_cmd(cmd))
		return ns_ioctl(fd, cmd, arg);
	return COMPAT_REAL;
}

/*
 * Any command that is not the pidfs magic costs one compare. Like libc's,
 * this reads a third argument whether or not the caller passed one.
 */
static int interposed_ioctl(void **real_slot, const char *real_name, int fd,
			    ioctl_req request, void *arg)
{
	int saved = errno;
	long r;

	if (lpfd_likely(!is_pidfs_cmd((unsigned int)request)))
		return real_ioctl(real_slot, real_name, fd, request, arg);
	r = compat_ioctl(fd, (unsigned int)request, (unsigned long)arg);
	if (r == COMPAT_REAL)
		return real_ioctl(real_slot, real_name, fd, request, arg);
	return (int)compat_return(saved, r);
}

COMPAT_API int ioctl(int fd, ioctl_req request, ...)
{
	va_list ap;
	void *arg;

	va_start(ap, request);
	arg = va_arg(ap, void *);
	va_end(ap);
	return interposed_ioctl(&real_ioctl_p, "ioctl", fd, request, arg);
}

#ifdef COMPAT_IOCTL_TIME64
COMPAT_API int __ioctl_time64(int fd, unsigned long request, ...);
COMPAT_API int __ioctl_time64(int fd, unsigned long request, ...)
{
	va_list ap;
	void *arg;

	va_start(ap, request);
	arg = va_arg(ap, void *);
	va_end(ap);
	return interposed_ioctl(&real_ioctl_time64_p, "__ioctl_time64", fd,
				request, arg);
}
#endif

/* ------------------------------------------------------------------------
 * waitid(P_PIDFD). Mainline refuses the sentinels (EINVAL); the library
 * answers ECHILD. On a real pidfd libc's waitid() does the same as the
 * library and, unlike a raw system call, stays a cancellation point.
 */
static bool waitid_ours(int pidfd)
{
	struct lpfd_route t = lpfd_route(pidfd, LPFD_NO_SENTINELS);

	return lpfd_route_is_self(&t) || !lpfd_surely_native(LPFD_FEAT_WAITID_PIDFD);
}

COMPAT_API int waitid(idtype_t idtype, id_t id, siginfo_t *info, int options)
{
	if (lpfd_likely(idtype != P_PIDFD) || !waitid_ours((int)id))
		return real_waitid(idtype, id, info, options);
	return libpidfd_waitid((int)id, info, options, NULL);
}

/* ------------------------------------------------------------------------
 * The pidfd calls: the library is the whole answer. Declared here, as
 * libc's headers do only from glibc 2.36 on.
 */
COMPAT_API int pidfd_send_signal(int pidfd, int sig, siginfo_t *info,
				 unsigned int flags);
COMPAT_API int pidfd_getfd(int pidfd, int targetfd, unsigned int flags);
COMPAT_API int pidfd_open(pid_t pid, unsigned int flags);
/* And these, which musl's headers lack. */
COMPAT_API ssize_t process_madvise(int pidfd, const struct iovec *iov,
				   size_t vlen, int advice, unsigned int flags);
COMPAT_API int process_mrelease(int pidfd, unsigned int flags);
COMPAT_API int execveat(int dirfd, const char *path, char *const argv[],
			char *const envp[], int flags);
COMPAT_API int pidfd_send_signal(int pidfd, int sig, siginfo_t *info,
				 unsigned int flags)
{
	return libpidfd_send_signal(pidfd, sig, info, flags);
}

COMPAT_API int pidfd_getfd(int pidfd, int targetfd, unsigned int flags)
{
	return libpidfd_getfd(pidfd, targetfd, flags);
}

COMPAT_API ssize_t process_madvise(int pidfd, const struct iovec *iov,
				   size_t vlen, int advice, unsigned int flags)
{
	return libpidfd_process_madvise(pidfd, iov, vlen, advice, flags);
}

COMPAT_API int process_mrelease(int pidfd, unsigned int flags)
{
	return libpidfd_process_mrelease(pidfd, flags);
}

COMPAT_API int pidfd_open(pid_t pid, unsigned int flags)
{
	return libpidfd_open(pid, flags);
}

/* ------------------------------------------------------------------------
 * A pidfd's inode. Before pidfs (6.9) every pidfd is the one anonymous
 * inode that eventfd, epoll, signalfd and timerfd descriptors share:
 * fchown() and fchmod() on a pidfd succeed and change that inode for all
 * of them, and execveat() of it fails ENXIO. The newest kernel refuses a
 * change (EOPNOTSUPP; 6.9 to 6.14 said EPERM) and the exec (EACCES), and
 * so does the shim on every kernel. Such a call is rare: it pays for
 * fstat(), and a file without a type (an anonymous inode or a pidfd) for
 * a look at its fdinfo too.
 */

/*
 * The errno a call on fd owes instead of the real call: err where fd is a
 * pidfd, 0 where it is not (the real call then answers, a bad fd's EBADF
 * included). A check the kernel refused fails the call with its errno:
 * passed on, the real call could change the anonymous inode that every
 * pidfd shares before pidfs.
 */
static int pidfd_errno(int fd, int err)
{
	struct lpfd_fdinfo fi;
	struct stat st;
	int r;

	if (fd < 0 || fstat(fd, &st) < 0)
		return fd < 0 || errno == EBADF ? 0 : errno;
	if (st.st_mode & S_IFMT)
		return 0;
	r = is_pidfd(fd, &fi);
	return r < 0 ? -r : r ? err : 0;
}

/*
 * The same for dirfd and path under flags: a path that is empty under
 * AT_EMPTY_PATH names dirfd itself; a path the kernel faults on is the
 * real call's EFAULT.
 */
static int names_pidfd_errno(int dirfd, const char *path, int flags, int err)
{
	pid_t tid;
	char c;
	int r;

	if (!(flags & AT_EMPTY_PATH))
		return 0;
	tid = lpfd_sys_gettid();
	if (tid < 0)
		return -tid;
	r = lpfd_user_read(tid, &c, path, 1);
	if (r == -EFAULT || (r == 0 && c))
		return 0;
	return r < 0 ? -r : pidfd_errno(dirfd, err);
}

static int refuse(int err)
{
	errno = err;
	return -1;
}

COMPAT_API int fchown(int fd, uid_t owner, gid_t group)
{
	int err = pidfd_errno(fd, EOPNOTSUPP);

	if (err)
		return refuse(err);
	return ((fchown_fn)real_lookup(&real_fchown_p, "fchown"))(fd, owner,
								  group);
}

COMPAT_API int fchownat(int dirfd, const char *path, uid_t owner, gid_t group,
			int flags)
{
	int err = names_pidfd_errno(dirfd, path, flags, EOPNOTSUPP);

	if (err)
		return refuse(err);
	return ((fchownat_fn)real_lookup(&real_fchownat_p, "fchownat"))(
		dirfd, path, owner, group, flags);
}

COMPAT_API int fchmod(int fd, mode_t mode)
{
	int err = pidfd_errno(fd, EOPNOTSUPP);

	if (err)
		return refuse(err);
	return ((fchmod_fn)real_lookup(&real_fchmod_p, "fchmod"))(fd, mode);
}

COMPAT_API int execveat(int dirfd, const char *path, char *const argv[],
			char *const envp[], int flags)
{
	int err = names_pidfd_errno(dirfd, path, flags, EACCES);

	if (err)
		return refuse(err);
	return ((execveat_fn)real_lookup(&real_execveat_p, "execveat"))(
		dirfd, path, argv, envp, flags);
}

COMPAT_API int fexecve(int fd, char *const argv[], char *const envp[])
{
	int err = pidfd_errno(fd, EACCES);

	if (err)
		return refuse(err);
	return ((fexecve_fn)real_lookup(&real_fexecve_p, "fexecve"))(fd, argv,
								    envp);
}

/* ------------------------------------------------------------------------
 * syscall(2): the same calls by number. The kernel reads each argument at
 * its own type (an int pidfd is the low 32 bits), and so do these casts.
 */
static long sys_ioctl(const long a[6])
{
	int saved = errno;
	long r = COMPAT_REAL;

	if (is_pidfs_cmd((unsigned int)a[1]))
		r = compat_ioctl((int)a[0], (unsigned int)a[1],
				 (unsigned long)a[2]);
	if (r == COMPAT_REAL)
		return real_syscall(__NR_ioctl, a);
	return compat_return(saved, r);
}

static long sys_waitid(const long a[6])
{
	if ((int)a[0] != P_PIDFD || !waitid_ours((int)a[1]))
		return real_syscall(__NR_waitid, a);
	return libpidfd_waitid((int)a[1], (siginfo_t *)a[2], (int)a[3],
			       (struct rusage *)a[4]);
}

/* A call by number that owes err (not 0) instead of the real call. */
static long refuse_or_real(int err, long nr, const long a[6])
{
	return err ? refuse(err) : real_syscall(nr, a);
}

COMPAT_API long syscall(long nr, ...)
{
	long a[6];

	SYSCALL_ARGS(nr, a);
	switch (nr) {
	case __NR_ioctl:
		return sys_ioctl(a);
	case __NR_pidfd_open:
		return libpidfd_open((pid_t)a[0], (unsigned int)a[1]);
	case __NR_fchown:
#ifdef __NR_fchown32
	case __NR_fchown32:
#endif
	case __NR_fchmod:
		return refuse_or_real(pidfd_errno((int)a[0], EOPNOTSUPP), nr, a);
	case __NR_fchownat:
		return refuse_or_real(names_pidfd_errno((int)a[0],
			(const char *)a[1], (int)a[4], EOPNOTSUPP), nr, a);
	case __NR_execveat:
		return refuse_or_real(names_pidfd_errno((int)a[0],
			(const char *)a[1], (int)a[4], EACCES), nr, a);
	case __NR_waitid:
		return sys_waitid(a);
	case __NR_pidfd_send_signal:
		return libpidfd_send_signal((int)a[0], (int)a[1],
					    (siginfo_t *)a[2],
					    (unsigned int)a[3]);
	case __NR_pidfd_getfd:
		return libpidfd_getfd((int)a[0], (int)a[1], (unsigned int)a[2]);
	case __NR_process_madvise:
		return libpidfd_process_madvise((int)a[0],
						(const struct iovec *)a[1],
						(size_t)a[2], (int)a[3],
						(unsigned int)a[4]);
	case __NR_process_mrelease:
		return libpidfd_process_mrelease((int)a[0], (unsigned int)a[1]);
	default:
		return real_syscall(nr, a);
	}
}
