/* SPDX-License-Identifier: LGPL-2.1-or-later OR MIT */
/*
 * Never installed, part of the ABI's source: the library's lists, shared
 * by the library, the tool and the tests.
 *
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

/*
 * The operations libpidfd_features() reports, in the order of their fields
 * in struct libpidfd_features (each a __u32 holding an enum
 * libpidfd_support), from which the library's table, the tool's and the
 * tests' are made; src/features.c fails the build where the header's
 * struct and this list disagree, tests/test-features.c where a man page,
 * a docs table or a kernel record lacks one. Adding an operation is one
 * line here plus its field at the end of the struct.
 *
 *   X(field, the feature that makes it native, what it is without that
 *     feature (EMULATED or UNAVAILABLE), how the library does it then)
 */
#define LPFD_OPERATIONS(X)                                                    \
	X(open,             PIDFD_OPEN,       UNAVAILABLE, NULL)                \
	X(get_info,         GET_INFO,         EMULATED,    "reads /proc")       \
	X(getpid,           GET_INFO,         EMULATED,                         \
	  "reads /proc/self/fdinfo")                                           \
	X(send_signal,      SEND_SIGNAL,      UNAVAILABLE, NULL)                \
	X(getfd,            GETFD,            UNAVAILABLE, NULL)                \
	X(process_madvise,  PROCESS_MADVISE,  UNAVAILABLE, NULL)                \
	X(process_mrelease, PROCESS_MRELEASE, UNAVAILABLE, NULL)                \
	X(waitid,           WAITID_PIDFD,     UNAVAILABLE, NULL)                \
	X(get_namespace,    NS_IOCTLS,        EMULATED,                         \
	  "opens /proc/<pid>/ns")                                              \
	X(self_sentinels,   SELF_SENTINELS,   EMULATED,                         \
	  "opens a pidfd for the caller")                                      \
	X(thread_pidfds,    PIDFD_THREAD,     UNAVAILABLE, NULL)

/*
 * The PIDFD_INFO_* bits libpidfd_get_info() knows, in bit order, from which
 * what it can return here and the tool's names are made;
 * tests/test-lists.c fails where the header has a bit this list lacks or
 * the man page does not name one. Each bit's fields are in
 * LPFD_INFO_FIELDS below.
 *
 *   B(NAME, the feature with which the native path returns it, whether
 *     the emulation returns it, the last field of struct pidfd_info it
 *     fills)
 */
#define LPFD_INFO_BITS(B)                                                     \
	B(PID,             GET_INFO,       1, ppid)                             \
	B(CREDS,           GET_INFO,       1, fsgid)                            \
	B(CGROUPID,        GET_INFO,       1, cgroupid)                         \
	B(EXIT,            INFO_EXIT,      0, exit_code)                        \
	B(COREDUMP,        INFO_COREDUMP,  1, coredump_mask)                    \
	B(SUPPORTED_MASK,  GET_INFO,       1, supported_mask)                   \
	B(COREDUMP_SIGNAL, INFO_SUPPORTED, 0, coredump_signal)                  \
	B(COREDUMP_CODE,   INFO_CODE,      0, coredump_code)

/*
 * Every field of struct pidfd_info, in order: the one list a new field is
 * added to, beside its bit above. src/get_info.c fails the build where
 * the header's struct and this list disagree (a field unlisted, moved or
 * resized); what the other copies must say of each field is checked
 * against it: the translation of every kernel's layout
 * (tests/test-layout.c), native against emulated (tests/test-get-info.c),
 * the tool's column and the copies written for readers and compilers
 * (tests/test-lists.c, tests/test-cli-docs.c). A column is NULL only for
 * what is not the process's: the masks and the padding.
 *
 *   F(field, its offset, the size of the first layout that has it there
 *     (a PIDFD_INFO_SIZE_VERn), the PIDFD_INFO_* bit that says it is
 *     filled (0: none), the tool's column that shows it)
 */
#define LPFD_INFO_FIELDS(F)                                                   \
	F(mask,             0, 64, 0,                          NULL)          \
	F(cgroupid,         8, 64, PIDFD_INFO_CGROUPID,        "CGROUPID")    \
	F(pid,             16, 64, PIDFD_INFO_PID,             "PID")         \
	F(tgid,            20, 64, PIDFD_INFO_PID,             "TGID")        \
	F(ppid,            24, 64, PIDFD_INFO_PID,             "PPID")        \
	F(ruid,            28, 64, PIDFD_INFO_CREDS,           "RUID")        \
	F(rgid,            32, 64, PIDFD_INFO_CREDS,           "RGID")        \
	F(euid,            36, 64, PIDFD_INFO_CREDS,           "EUID")        \
	F(egid,            40, 64, PIDFD_INFO_CREDS,           "EGID")        \
	F(suid,            44, 64, PIDFD_INFO_CREDS,           "SUID")        \
	F(sgid,            48, 64, PIDFD_INFO_CREDS,           "SGID")        \
	F(fsuid,           52, 64, PIDFD_INFO_CREDS,           "FSUID")       \
	F(fsgid,           56, 64, PIDFD_INFO_CREDS,           "FSGID")       \
	F(exit_code,       60, 64, PIDFD_INFO_EXIT,            "EXITCODE")    \
	F(coredump_mask,   64, 72, PIDFD_INFO_COREDUMP,        "COREDUMP")    \
	F(coredump_signal, 68, 72, PIDFD_INFO_COREDUMP_SIGNAL, "COREDUMPSIG") \
	F(coredump_code,   72, 88, PIDFD_INFO_COREDUMP_CODE,   "COREDUMPCODE") \
	F(coredump_pad,    76, 88, 0,                          NULL)          \
	F(supported_mask,  80, 88, PIDFD_INFO_SUPPORTED_MASK,  NULL)

#endif /* LIBPIDFD_FEATURE_LIST_H */
