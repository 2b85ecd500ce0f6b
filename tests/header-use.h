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
# define SA_CAT(a, b) a##b
# define SA_AT(c, line) typedef char SA_CAT(static_assert_, line)[(c) ? 1 : -1]
# define SA(c, m) SA_AT(c, __LINE__)
#endif

SA(sizeof(struct pidfd_info) == 88, "size");
SA(offsetof(struct pidfd_info, cgroupid) == 8, "cgroupid");
SA(offsetof(struct pidfd_info, pid) == 16, "pid");
SA(offsetof(struct pidfd_info, tgid) == 20, "tgid");
SA(offsetof(struct pidfd_info, ppid) == 24, "ppid");
SA(offsetof(struct pidfd_info, ruid) == 28, "ruid");
SA(offsetof(struct pidfd_info, rgid) == 32, "rgid");
SA(offsetof(struct pidfd_info, euid) == 36, "euid");
SA(offsetof(struct pidfd_info, egid) == 40, "egid");
SA(offsetof(struct pidfd_info, suid) == 44, "suid");
SA(offsetof(struct pidfd_info, sgid) == 48, "sgid");
SA(offsetof(struct pidfd_info, fsuid) == 52, "fsuid");
SA(offsetof(struct pidfd_info, fsgid) == 56, "fsgid");
SA(offsetof(struct pidfd_info, exit_code) == 60, "exit_code");
SA(offsetof(struct pidfd_info, coredump_mask) == 64, "coredump_mask");
SA(offsetof(struct pidfd_info, coredump_signal) == 68, "coredump_signal");
SA(offsetof(struct pidfd_info, coredump_code) == 72, "coredump_code");
SA(offsetof(struct pidfd_info, coredump_pad) == 76, "coredump_pad");
SA(offsetof(struct pidfd_info, supported_mask) == 80, "supported_mask");
SA(_IOC_SIZE(PIDFD_GET_INFO) == 88, "ioctl size");
SA(PIDFD_SELF == -10000 && PIDFD_SELF_PROCESS == -10001, "sentinels");
SA(PIDFD_SELF_THREAD == -10000 && PIDFD_SELF_THREAD_GROUP == -10001, "sentinels");
SA(PIDFD_INFO_SIZE_VER0 == 64 && PIDFD_INFO_SIZE_VER1 == 72, "ver");
SA(PIDFD_INFO_SIZE_VER2 == 80 && PIDFD_INFO_SIZE_VER3 == 88, "ver");

/* The flags are usable whether or not <fcntl.h> came; the same values if so. */
SA(PIDFD_NONBLOCK != 0 && PIDFD_THREAD != 0, "open flags");
#if defined(O_NONBLOCK) && defined(O_EXCL)
SA(PIDFD_NONBLOCK == O_NONBLOCK && PIDFD_THREAD == O_EXCL, "O_* values");
#endif
/* <libpidfd.h> (with <signal.h>, <sys/wait.h>) defines no name <fcntl.h> owns. */
/* Where glibc's <sys/pidfd.h> comes first, <fcntl.h> comes with it. */
#if defined(HEADER_NO_FCNTL) && !defined(LIBPIDFD_SYS_PIDFD_H)
# if defined(O_NONBLOCK) || defined(O_EXCL) || defined(O_CLOEXEC) || \
	defined(O_RDONLY) || defined(AT_FDCWD) || defined(F_GETFL)
#  error "an O_*, AT_* or F_* name leaked without <fcntl.h>"
# endif
#endif

/* A newer <linux/pidfd.h> wins for what the library does not define. */
#if defined(HEADER_NEXT) && !(defined(PIDFD_INFO_NEXT) && defined(PIDFD_GET_NEXT))
# error "the names of a newer <linux/pidfd.h> are missing"
#endif

static const unsigned long long names[] = { PIDFD_NONBLOCK, PIDFD_THREAD,
	PIDFD_SIGNAL_THREAD, PIDFD_SIGNAL_THREAD_GROUP, PIDFD_SIGNAL_PROCESS_GROUP,
	PIDFD_INFO_PID, PIDFD_INFO_CREDS, PIDFD_INFO_CGROUPID, PIDFD_INFO_EXIT,
	PIDFD_INFO_COREDUMP, PIDFD_INFO_SUPPORTED_MASK, PIDFD_INFO_COREDUMP_SIGNAL,
	PIDFD_INFO_COREDUMP_CODE, PIDFD_COREDUMPED, PIDFD_COREDUMP_SKIP,
	PIDFD_COREDUMP_USER, PIDFD_COREDUMP_ROOT, PIDFS_IOCTL_MAGIC, PIDFD_GET_INFO,
	PIDFD_GET_CGROUP_NAMESPACE, PIDFD_GET_IPC_NAMESPACE, PIDFD_GET_MNT_NAMESPACE,
	PIDFD_GET_NET_NAMESPACE, PIDFD_GET_PID_NAMESPACE,
	PIDFD_GET_PID_FOR_CHILDREN_NAMESPACE, PIDFD_GET_TIME_NAMESPACE,
	PIDFD_GET_TIME_FOR_CHILDREN_NAMESPACE, PIDFD_GET_USER_NAMESPACE,
	PIDFD_GET_UTS_NAMESPACE, LIBPIDFD_KERNEL_INFO_CODE };

int use(struct pidfd_info *i, siginfo_t *si, struct libpidfd_features *f);
int use(struct pidfd_info *i, siginfo_t *si, struct libpidfd_features *f)
{
	enum libpidfd_support s = LIBPIDFD_EMULATED;

	return libpidfd_get_info(PIDFD_SELF, i, sizeof(*i)) +
	       libpidfd_send_signal(PIDFD_SELF_PROCESS, 0, si, 0) +
	       libpidfd_waitid(PIDFD_SELF, si, 0, NULL) +
	       libpidfd_features(f, sizeof(*f)) + (int)s + (int)names[0] +
	       (int)i->coredump_code;
}
