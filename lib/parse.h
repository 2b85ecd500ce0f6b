/* SPDX-License-Identifier: LGPL-2.1-or-later OR MIT */
/*
 * The pure parsers of /proc files, shared by the library, the pidfd tool,
 * the tests and the fuzzers, and part of no ABI (as util-linux's lib/):
 * the library's copy is hidden, the tool and the tests link them from
 * libpidfd-util.a, beside the library. They take a buffer and its length, so that they can be
 * fuzzed without /proc. lib/parse.c has those the library uses;
 * lib/ps.c those only the tool uses (what ps shows), which never enter
 * libpidfd.so.
 */
#ifndef LIBPIDFD_LIB_PARSE_H
#define LIBPIDFD_LIB_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct lpfd_fdinfo {
	int pid;         /* "Pid:": >0, 0 (not in this pid namespace), -1 (reaped) */
	unsigned int flags; /* "flags:", octal */
	bool is_pidfd;   /* a "Pid:" line was there */
};

struct lpfd_status {
	int pid, tgid, ppid;
	unsigned int uid[4]; /* real, effective, saved, filesystem */
	unsigned int gid[4];
	char state;          /* 'R', 'S', 'Z', ... */
	int nspid_first;     /* "NSpid:": the pid in procfs's pid namespace, */
	int nspid_levels;    /* and how many namespaces down to the task's own */
	unsigned int have;   /* LPFD_ST_* */
};
#define LPFD_ST_PID   (1u << 0)
#define LPFD_ST_TGID  (1u << 1)
#define LPFD_ST_PPID  (1u << 2)
#define LPFD_ST_UID   (1u << 3)
#define LPFD_ST_GID   (1u << 4)
#define LPFD_ST_STATE (1u << 5)
#define LPFD_ST_INFO   0x3fu /* all that get_info needs */
#define LPFD_ST_NSPID (1u << 6)

/*
 * Longest cgroup path the library resolves; longer ones leave CGROUPID
 * clear. The path sits on the stack whole (src/cgroup.c: it is compared
 * with a second read of its file), so it is what bounds that frame:
 * at 1024 a hardened build's get_info took 4.2 KB of stack, over 4 KiB.
 * Real paths (systemd's slices and scopes) are a few hundred bytes.
 */
#define LPFD_PATH_MAX 768

int lpfd_parse_fdinfo(const char *buf, size_t len, struct lpfd_fdinfo *out);
int lpfd_parse_status(const char *buf, size_t len, struct lpfd_status *out);
/*
 * The cgroup2 ("0::") path of /proc/<pid>/cgroup, as the kernel printed
 * it (leading ".." components and a " (deleted)" suffix included), in
 * place: where it is in buf (n bytes from off), or -ENOENT.
 */
int lpfd_locate_cgroup(const char *buf, size_t len, size_t *off, size_t *n);
/* The task's PF_* flags (field 9 of /proc/<pid>/stat): 0, or -ENOENT. */
int lpfd_parse_stat_flags(const char *buf, size_t len, unsigned int *flags);
struct lpfd_mountinfo {
	int mnt_id;
	char *root; /* the cgroup mounted there, as our cgroup namespace sees it */
	char *mnt;  /* where it is mounted */
};
/*
 * One line of /proc/self/mountinfo (without its newline), parsed in place:
 * 0 and root and mount point, unescaped and NUL-terminated, if it is a
 * cgroup2 mount; else -ENOENT.
 */
int lpfd_parse_mountinfo_line(char *line, size_t len,
				struct lpfd_mountinfo *out);
/* Parse a decimal int at *p (optional '-'), advance *p; -EINVAL if none. */
int lpfd_parse_int(const char **p, const char *end, long long *out);
/* lib/ps.c, the tool's alone. What pidfd(1) shows of /proc/<pid>/stat; a field is set only if well-formed. */
struct lpfd_stat {
	char comm[64];           /* the command name, cut to fit */
	char state;              /* 'R', 'S', 'Z', ... */
	unsigned long long start; /* clock ticks after boot */
	/* LPFD_STAT_PS: the fields ps shows beside them. */
	int ppid, pgrp, session, tpgid, priority, nice, threads;
	unsigned int tty;        /* tty_nr: the device number */
	unsigned long long cpu;  /* utime + stime, in clock ticks */
	unsigned int have;       /* LPFD_STAT_* */
};
#define LPFD_STAT_COMM  (1u << 0)
#define LPFD_STAT_STATE (1u << 1)
#define LPFD_STAT_START (1u << 2)
#define LPFD_STAT_PS    (1u << 3)
/* 0 with what was well-formed, or -ENOENT if there is no "(comm)". */
int lpfd_parse_stat(const char *buf, size_t len, struct lpfd_stat *out);
/* Its exit_code (field 52), as waitpid(2) gives it; or -ENOENT. */
int lpfd_parse_stat_exit_code(const char *buf, size_t len, int *code);
/* /proc/<pid>/cmdline joined by spaces into out: its length, or -ENOENT. */
ssize_t lpfd_parse_cmdline(const char *buf, size_t len, char *out,
			     size_t size);
/*
 * The same path as lpfd_locate_cgroup() finds, copied into path and
 * NUL-terminated; -ENAMETOOLONG if it does not fit.
 */
int lpfd_parse_cgroup(const char *buf, size_t len, char *path, size_t size);


#endif /* LIBPIDFD_LIB_PARSE_H */
