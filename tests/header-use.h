/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What a user writes after <libpidfd.h> and the system headers: every name
 * of the contract, checked at compile time, in any C from C99 on and any C++
 * from C++11 on. tests/header.sh compiles it after each include order.
 */
#ifdef __cplusplus
# define SA(c, m) static_assert(c, m)
#elif __STDC_VERSION__ >= 201112L
# define SA(c, m) _Static_assert(c, m)
#else
/* An array redeclared, of size 1 while true: any number on one line. */
# define SA(c, m) extern char header_use_assert[(c) ? 1 : -1]
#endif

/* The newest layout, every field: the library's own struct always has it. */
#define SA_LAYOUT(t)                                                        \
	SA(sizeof(struct t) == 88, "size");                                 \
	SA(offsetof(struct t, cgroupid) == 8, "cgroupid");                  \
	SA(offsetof(struct t, pid) == 16, "pid");                           \
	SA(offsetof(struct t, tgid) == 20, "tgid");                         \
	SA(offsetof(struct t, ppid) == 24, "ppid");                         \
	SA(offsetof(struct t, ruid) == 28, "ruid");                         \
	SA(offsetof(struct t, rgid) == 32, "rgid");                         \
	SA(offsetof(struct t, euid) == 36, "euid");                         \
	SA(offsetof(struct t, egid) == 40, "egid");                         \
	SA(offsetof(struct t, suid) == 44, "suid");                         \
	SA(offsetof(struct t, sgid) == 48, "sgid");                         \
	SA(offsetof(struct t, fsuid) == 52, "fsuid");                       \
	SA(offsetof(struct t, fsgid) == 56, "fsgid");                       \
	SA(offsetof(struct t, exit_code) == 60, "exit_code");               \
	SA(offsetof(struct t, coredump_mask) == 64, "coredump_mask");       \
	SA(offsetof(struct t, coredump_signal) == 68, "coredump_signal");   \
	SA(offsetof(struct t, coredump_code) == 72, "coredump_code");       \
	SA(offsetof(struct t, coredump_pad) == 76, "coredump_pad");         \
	SA(offsetof(struct t, supported_mask) == 80, "supported_mask")
SA_LAYOUT(libpidfd_info);

/*
 * struct pidfd_info: the header's own (88 bytes) where no system header can
 * declare one (HEADER_OWN_INFO, from tests/header.sh), else the system's,
 * once one of its headers came (HEADER_INFO_SIZE), with PIDFD_GET_INFO
 * sized by it.
 */
/* The generic encoding where no kernel header came (musl's own set). */
#ifndef _IOC_SIZE
# define _IOC_SIZE(nr) (((nr) >> 16) & 0x3fff)
#endif
#if HEADER_OWN_INFO != defined(LIBPIDFD_OWN_PIDFD_INFO)
# error "struct pidfd_info is the header's own with the wrong headers"
#endif
#ifdef LIBPIDFD_OWN_PIDFD_INFO
SA_LAYOUT(pidfd_info);
SA(_IOC_SIZE(PIDFD_GET_INFO) == 88, "ioctl size");
#elif defined(HEADER_INFO_SIZE)
SA(sizeof(struct pidfd_info) == HEADER_INFO_SIZE, "the system's size");
SA(_IOC_SIZE(PIDFD_GET_INFO) == HEADER_INFO_SIZE, "the system's ioctl size");
#endif
SA(PIDFD_SELF == -10000 && PIDFD_SELF_PROCESS == -10001, "sentinels");
SA(PIDFD_SELF_THREAD == -10000 && PIDFD_SELF_THREAD_GROUP == -10001, "sentinels");
SA(PIDFD_INFO_SIZE_VER0 == 64 && PIDFD_INFO_SIZE_VER1 == 72, "ver");
SA(PIDFD_INFO_SIZE_VER2 == 80 && PIDFD_INFO_SIZE_VER3 == 88, "ver");

/* The flags are usable whether or not <fcntl.h> came; the same values if so. */
SA(PIDFD_NONBLOCK != 0 && PIDFD_THREAD != 0, "open flags");
#if defined(O_NONBLOCK) && defined(O_EXCL)
SA(PIDFD_NONBLOCK == O_NONBLOCK && PIDFD_THREAD == O_EXCL, "O_* values");
#endif
/*
 * <libpidfd.h> (with <signal.h>, <sys/wait.h>) defines no macro <fcntl.h>
 * owns; where a pidfd or fcntl header came, before or after it, the O_*
 * flags are there as that header alone gives them.
 */
#ifdef HEADER_NO_FCNTL
# if defined(O_NONBLOCK) || defined(O_EXCL) || defined(O_CLOEXEC) || \
	defined(O_RDONLY) || defined(AT_FDCWD) || defined(F_GETFL)
#  error "an O_*, AT_* or F_* name leaked without <fcntl.h>"
# endif
#elif !defined(O_NONBLOCK) || !defined(O_EXCL) || !defined(O_RDONLY)
# error "the O_* flags of a pidfd or fcntl header are missing"
#endif

/* A newer <linux/pidfd.h>, before or after, keeps the names it adds. */
#if defined(HEADER_NEXT) && defined(HEADER_LINUX_PIDFD) && \
	!(defined(PIDFD_INFO_NEXT) && defined(PIDFD_GET_NEXT))
# error "the names of a newer <linux/pidfd.h> are missing"
#endif

static const unsigned long long names[] = { PIDFD_NONBLOCK, PIDFD_THREAD,
	PIDFD_SIGNAL_THREAD, PIDFD_SIGNAL_THREAD_GROUP, PIDFD_SIGNAL_PROCESS_GROUP,
	PIDFD_INFO_PID, PIDFD_INFO_CREDS, PIDFD_INFO_CGROUPID, PIDFD_INFO_EXIT,
	PIDFD_INFO_COREDUMP, PIDFD_INFO_SUPPORTED_MASK, PIDFD_INFO_COREDUMP_SIGNAL,
	PIDFD_INFO_COREDUMP_CODE, PIDFD_COREDUMPED, PIDFD_COREDUMP_SKIP,
	PIDFD_COREDUMP_USER, PIDFD_COREDUMP_ROOT, PIDFS_IOCTL_MAGIC,
	PIDFD_GET_CGROUP_NAMESPACE, PIDFD_GET_IPC_NAMESPACE, PIDFD_GET_MNT_NAMESPACE,
	PIDFD_GET_NET_NAMESPACE, PIDFD_GET_PID_NAMESPACE,
	PIDFD_GET_PID_FOR_CHILDREN_NAMESPACE, PIDFD_GET_TIME_NAMESPACE,
	PIDFD_GET_TIME_FOR_CHILDREN_NAMESPACE, PIDFD_GET_USER_NAMESPACE,
	PIDFD_GET_UTS_NAMESPACE, LIBPIDFD_KERNEL_INFO_CODE };

int use(struct libpidfd_info *i, struct pidfd_info *sys, siginfo_t *si,
	struct libpidfd_features *f);
int use(struct libpidfd_info *i, struct pidfd_info *sys, siginfo_t *si,
	struct libpidfd_features *f)
{
	enum libpidfd_support s = LIBPIDFD_EMULATED;

	/* Either struct, without a cast or a warning. */
	return libpidfd_get_info(PIDFD_SELF, i, sizeof(*i)) +
	       libpidfd_get_info(PIDFD_SELF, sys, PIDFD_INFO_SIZE_VER0) +
	       libpidfd_get_info(PIDFD_SELF, NULL, 0) +
	       libpidfd_send_signal(PIDFD_SELF_PROCESS, 0, si, 0) +
	       libpidfd_waitid(PIDFD_SELF, si, 0, NULL) +
	       libpidfd_features(f, sizeof(*f)) + (int)s + (int)names[0] +
	       (int)i->coredump_code;
}
