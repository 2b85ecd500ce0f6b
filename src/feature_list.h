/* SPDX-License-Identifier: LGPL-2.1-or-later OR MIT */
/*
 * The kernel features the library asks about: the one list from which the
 * internal enum, the probe table, the public LIBPIDFD_KERNEL_* bits (by
 * position: keep the order, append only) and the tool's table of names are
 * made (make writes the bits into the header). Adding a feature is one
 * line here plus its probe_<name>() in src/probe.c.
 *
 *   X(NAME, name, first mainline kernel, emulable, what the tool calls it)
 *
 * emulable: the library has its own path, which LIBPIDFD_EMULATE=1 forces.
 */
#ifndef LIBPIDFD_FEATURE_LIST_H
#define LIBPIDFD_FEATURE_LIST_H

#define LPFD_FEATURES(X)                                                      \
	X(PIDFD_OPEN,       pidfd_open,       "5.3",  0, "pidfd_open(2)")          \
	X(SEND_SIGNAL,      send_signal,      "5.1",  0, "pidfd_send_signal(2)")   \
	X(WAITID_PIDFD,     waitid_pidfd,     "5.4",  0, "waitid(P_PIDFD)")        \
	X(GETFD,            getfd,            "5.6",  0, "pidfd_getfd(2)")         \
	X(PROCESS_MADVISE,  process_madvise,  "5.10", 0, "process_madvise(2)")     \
	X(PROCESS_MRELEASE, process_mrelease, "5.15", 0, "process_mrelease(2)")    \
	X(PIDFD_THREAD,     pidfd_thread,     "6.9",  0, "PIDFD_THREAD")           \
	X(NS_IOCTLS,        ns_ioctls,        "6.11", 1, "PIDFD_GET_*_NAMESPACE")  \
	X(GET_INFO,         get_info,         "6.13", 1, "PIDFD_GET_INFO")         \
	X(INFO_EXIT,        info_exit,        "6.15", 1, "PIDFD_INFO_EXIT")        \
	X(SELF_SENTINELS,   self_sentinels,   "6.15", 1, "PIDFD_SELF_* sentinels") \
	X(INFO_COREDUMP,    info_coredump,    "6.16", 1, "PIDFD_INFO_COREDUMP")    \
	X(SELF_GROUP_10001, self_group_10001, "6.17", 1, "PIDFD_SELF_THREAD_GROUP -10001") \
	X(INFO_SUPPORTED,   info_supported,   "6.19", 1, "PIDFD_INFO_SUPPORTED_MASK") \
	X(INFO_CODE,        info_code,        "7.1",  1, "PIDFD_INFO_COREDUMP_CODE") \
	X(OPENAT2,          openat2,          "5.6",  0, "openat2(2) RESOLVE_NO_XDEV") \
	X(CLOSE_RANGE,      close_range,      "5.9",  0, "close_range(2)")

#endif /* LIBPIDFD_FEATURE_LIST_H */
