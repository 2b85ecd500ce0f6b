/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * pidfd info: everything libpidfd_get_info() knows of each process, with
 * the names a person reads (users, groups, the cgroup path, how it ended)
 * and what ps shows from /proc (command, arguments, state, start), each
 * confirmed through the pidfd. A table for people, one JSON document (or
 * one object a line) for scripts.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <grp.h>
#include <inttypes.h>
#include <limits.h>
#include <pwd.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "../lib/parse.h"
#include "pidfd.h"

#define INFO_REQUEST (PIDFD_INFO_EXIT | PIDFD_INFO_COREDUMP)

struct proc {
	struct libpidfd_info info;
	/* From /proc, through the pidfd: each the process's own where set. */
	struct lpfd_stat stat;
	bool have_cgroup, have_exe, have_cwd;
	bool have_inode, have_wchan, have_statm;
	unsigned long long vsz_kb, rss_kb; /* from statm */
	uint64_t inode; /* of the pidfd, on pidfs (Linux 6.9) */
	char wchan[64];
	char *args; /* whole, allocated; NULL if none */
	char cgroup[LPFD_PATH_MAX];
	char exe[PATH_MAX];
	char cwd[PATH_MAX];
};

/* What a field needs beyond the basic request. */
#define NEED_CGROUPID (1u << 0) /* PIDFD_INFO_CGROUPID */
#define NEED_STAT     (1u << 1) /* /proc/<pid>/stat */
#define NEED_ARGS     (1u << 2) /* /proc/<pid>/cmdline */
#define NEED_CGROUP   (1u << 3) /* /proc/<pid>/cgroup */
#define NEED_EXE      (1u << 4) /* /proc/<pid>/exe */
#define NEED_CWD      (1u << 5) /* /proc/<pid>/cwd */
#define NEED_COREDUMP (1u << 6) /* PIDFD_INFO_COREDUMP */
#define NEED_INODE    (1u << 7) /* the pidfd's own inode */
#define NEED_WCHAN    (1u << 8) /* /proc/<pid>/wchan */
#define NEED_STATM    (1u << 9) /* /proc/<pid>/statm */
/* Those read through the process's directory. */
#define NEED_FILES    (NEED_STAT | NEED_ARGS | NEED_CGROUP | NEED_WCHAN | \
		       NEED_STATM)

enum ftype { F_NUM, F_STR };

/* A field writes its value into buf, or returns false where it is unknown. */
struct field {
	const char *name;
	enum ftype type;
	const char *help;
	bool (*get)(const struct proc *p, char *buf, size_t size);
	unsigned int need; /* NEED_* */
};

static bool has(const struct proc *p, uint64_t bit)
{
	return (p->info.mask & bit) != 0;
}

static bool put_u(char *buf, size_t size, bool known, uint64_t v)
{
	if (known)
		snprintf(buf, size, "%" PRIu64, v);
	return known;
}

/*
 * A name for an id, remembered: every process of a --all table asks again
 * for root's, and each NSS lookup may read a file. An id without a name
 * (or with one too long to keep) is its number, as ps shows it.
 */
struct name_cache {
	uint32_t id[16];
	char name[16][64];
	size_t n, next;
};

static void cached_name(struct name_cache *c, uint32_t id, bool user,
			char *buf, size_t size)
{
	char tmp[4096];
	size_t i;

	for (i = 0; i < c->n && c->id[i] != id; i++)
		;
	if (i == c->n) {
		struct passwd pw, *pr = NULL;
		struct group gr, *gres = NULL;
		const char *name = NULL;

		if (user && getpwuid_r(id, &pw, tmp, sizeof(tmp), &pr) == 0 && pr)
			name = pr->pw_name;
		if (!user && getgrgid_r(id, &gr, tmp, sizeof(tmp), &gres) == 0 && gres)
			name = gres->gr_name;
		i = c->n < 16 ? c->n++ : c->next++ % 16;
		c->id[i] = id;
		if (name && strlen(name) < sizeof(c->name[i]))
			strcpy(c->name[i], name);
		else
			snprintf(c->name[i], sizeof(c->name[i]), "%" PRIu32, id);
	}
	snprintf(buf, size, "%s", c->name[i]);
}

static bool user_name(uint32_t uid, char *buf, size_t size)
{
	static struct name_cache users;

	cached_name(&users, uid, true, buf, size);
	return true;
}

static bool group_name(uint32_t gid, char *buf, size_t size)
{
	static struct name_cache groups;

	cached_name(&groups, gid, false, buf, size);
	return true;
}

#define ID_FIELDS(N, f, bit)                                                  \
	static bool get_##f(const struct proc *p, char *b, size_t n)          \
	{                                                                     \
		return put_u(b, n, has(p, bit), p->info.f);                   \
	}
ID_FIELDS(PID, pid, PIDFD_INFO_PID)
ID_FIELDS(TGID, tgid, PIDFD_INFO_PID)
ID_FIELDS(PPID, ppid, PIDFD_INFO_PID)
ID_FIELDS(RUID, ruid, PIDFD_INFO_CREDS)
ID_FIELDS(EUID, euid, PIDFD_INFO_CREDS)
ID_FIELDS(SUID, suid, PIDFD_INFO_CREDS)
ID_FIELDS(FSUID, fsuid, PIDFD_INFO_CREDS)
ID_FIELDS(RGID, rgid, PIDFD_INFO_CREDS)
ID_FIELDS(EGID, egid, PIDFD_INFO_CREDS)
ID_FIELDS(SGID, sgid, PIDFD_INFO_CREDS)
ID_FIELDS(FSGID, fsgid, PIDFD_INFO_CREDS)
ID_FIELDS(CGROUPID, cgroupid, PIDFD_INFO_CGROUPID)

#define NAME_FIELD(f, id, lookup)                                             \
	static bool get_##f(const struct proc *p, char *b, size_t n)          \
	{                                                                     \
		return has(p, PIDFD_INFO_CREDS) && lookup(p->info.id, b, n);  \
	}
NAME_FIELD(ruser, ruid, user_name)
NAME_FIELD(euser, euid, user_name)
NAME_FIELD(suser, suid, user_name)
NAME_FIELD(fsuser, fsuid, user_name)
NAME_FIELD(rgroup, rgid, group_name)
NAME_FIELD(egroup, egid, group_name)
NAME_FIELD(sgroup, sgid, group_name)
NAME_FIELD(fsgroup, fsgid, group_name)

static bool get_cgroup(const struct proc *p, char *b, size_t n)
{
	if (p->have_cgroup)
		snprintf(b, n, "%s", p->cgroup);
	return p->have_cgroup;
}

static bool get_exe(const struct proc *p, char *b, size_t n)
{
	if (p->have_exe)
		snprintf(b, n, "%s", p->exe);
	return p->have_exe;
}

static bool get_inode(const struct proc *p, char *b, size_t n)
{
	return put_u(b, n, p->have_inode, p->inode);
}

static bool get_cwd(const struct proc *p, char *b, size_t n)
{
	if (p->have_cwd)
		snprintf(b, n, "%s", p->cwd);
	return p->have_cwd;
}

static bool get_exit(const struct proc *p, char *b, size_t n)
{
	struct ending e = ending_of_wait_status(p->info.exit_code);

	if (!has(p, PIDFD_INFO_EXIT))
		return false;
	ending_text(&e, b, n);
	return true;
}

static bool get_exitcode(const struct proc *p, char *b, size_t n)
{
	if (has(p, PIDFD_INFO_EXIT))
		snprintf(b, n, "%d", p->info.exit_code);
	return has(p, PIDFD_INFO_EXIT);
}

/* The coredump bits, by name: "dumped,root", "skip", "user". */
static bool get_coredump(const struct proc *p, char *b, size_t n)
{
	static const struct bit_name bits[] = {
		{ PIDFD_COREDUMPED, "dumped" },
		{ PIDFD_COREDUMP_SKIP, "skip" },
		{ PIDFD_COREDUMP_USER, "user" },
		{ PIDFD_COREDUMP_ROOT, "root" },
	};
	size_t o = 0;

	if (!has(p, PIDFD_INFO_COREDUMP))
		return false;
	b[0] = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(bits); i++)
		if (p->info.coredump_mask & bits[i].bit)
			o += (size_t)snprintf(b + o, o < n ? n - o : 0, "%s%s",
					      o ? "," : "", bits[i].name);
	if (!o)
		snprintf(b, n, "none");
	return true;
}

static bool get_coredumpsig(const struct proc *p, char *b, size_t n)
{
	if (!has(p, PIDFD_INFO_COREDUMP_SIGNAL) || !p->info.coredump_signal)
		return false;
	signal_name((int)p->info.coredump_signal, b, n);
	return true;
}

/* The si_code of that signal, as a number: SI_TKILL is -6. */
static bool get_coredumpcode(const struct proc *p, char *b, size_t n)
{
	if (!has(p, PIDFD_INFO_COREDUMP_CODE) || !p->info.coredump_signal)
		return false;
	snprintf(b, n, "%d", (int)p->info.coredump_code);
	return true;
}

static bool stat_has(const struct proc *p, unsigned int bit)
{
	return (p->stat.have & bit);
}

static bool get_comm(const struct proc *p, char *b, size_t n)
{
	if (stat_has(p, LPFD_STAT_COMM))
		snprintf(b, n, "%s", p->stat.comm);
	return stat_has(p, LPFD_STAT_COMM);
}

/* As ps: the command name in brackets where there are no arguments. */
static bool get_args(const struct proc *p, char *b, size_t n)
{
	if (p->args)
		snprintf(b, n, "%s", p->args);
	else if (stat_has(p, LPFD_STAT_COMM))
		snprintf(b, n, "[%s]", p->stat.comm);
	else
		return false;
	return true;
}

static bool get_state(const struct proc *p, char *b, size_t n)
{
	if (stat_has(p, LPFD_STAT_STATE))
		snprintf(b, n, "%c", p->stat.state);
	return stat_has(p, LPFD_STAT_STATE);
}

/* ISO 8601 in JSON, ps's STIME in tables. */
static bool iso_times;

/* The wall-clock time of a boot-time offset in clock ticks. */
static time_t time_of_ticks(unsigned long long ticks)
{
	static time_t boot = -1;
	static long hz;

	if (boot == -1) {
		struct timespec real, since_boot;
		long long btime;

		clock_gettime(CLOCK_REALTIME, &real);
		clock_gettime(CLOCK_BOOTTIME, &since_boot);
		/* As ps: /proc/stat's btime; the clocks where it cannot be read. */
		boot = procfs_boot_time(&btime) ? (time_t)btime :
		       real.tv_sec - since_boot.tv_sec;
		hz = sysconf(_SC_CLK_TCK);
		if (hz <= 0)
			hz = 100;
	}
	return boot + (time_t)(ticks / (unsigned long long)hz);
}

static bool get_start(const struct proc *p, char *b, size_t n)
{
	time_t t, now = time(NULL);
	struct tm tm, today;
	char zone[8];

	if (!stat_has(p, LPFD_STAT_START))
		return false;
	t = time_of_ticks(p->stat.start);
	localtime_r(&t, &tm);
	localtime_r(&now, &today);
	if (iso_times) {
		/* +hhmm as +hh:mm, as ISO 8601 has it beside a full time. */
		strftime(zone, sizeof(zone), "%z", &tm);
		strftime(b, n, "%Y-%m-%dT%H:%M:%S", &tm);
		snprintf(b + strlen(b), n - strlen(b), "%.3s:%s", zone, zone + 3);
	} else if (now - t < 24 * 3600) {
		strftime(b, n, "%H:%M", &tm);
	} else {
		strftime(b, n, tm.tm_year == today.tm_year ? "%b%d" : "%Y", &tm);
	}
	return true;
}

/* ------------------------------------------------------------------------
 * What ps shows of /proc/<pid>/stat, computed as procps 4 does.
 */
static bool ps_has(const struct proc *p)
{
	return stat_has(p, LPFD_STAT_PS);
}

static long clock_hz(void)
{
	static long hz;

	if (!hz && (hz = sysconf(_SC_CLK_TCK)) <= 0)
		hz = 100;
	return hz;
}

/* Seconds since boot, taken once a run, as ps takes its uptime once. */
static double uptime(void)
{
	static double up = -1;
	struct timespec ts;

	if (up < 0) {
		clock_gettime(CLOCK_BOOTTIME, &ts);
		up = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
	}
	return up;
}

/* Whole seconds since the process started (ps's etime). */
static unsigned long long elapsed(const struct proc *p)
{
	double e = uptime() - (double)p->stat.start / (double)clock_hz();

	return e > 0 ? (unsigned long long)e : 0;
}

#define PS_NUM(name, expr)                                                    \
	static bool get_##name(const struct proc *p, char *b, size_t n)       \
	{                                                                     \
		if (ps_has(p))                                                \
			snprintf(b, n, "%lld", (long long)(expr));            \
		return ps_has(p);                                             \
	}
PS_NUM(pgid, p->stat.pgrp)
PS_NUM(sid, p->stat.session)
PS_NUM(nlwp, p->stat.threads)
/* ps -o pri: 39 down to 0 for nice -20 to 19, 40 to 139 real-time. */
PS_NUM(pri, 39 - p->stat.priority)

#define STATM_NUM(name)                                                       \
	static bool get_##name(const struct proc *p, char *b, size_t n)       \
	{                                                                     \
		if (p->have_statm)                                            \
			snprintf(b, n, "%llu", p->name##_kb);                 \
		return p->have_statm;                                         \
	}
STATM_NUM(vsz)
STATM_NUM(rss)

/* Nice; none ("-", as ps) for a real-time or deadline task: priority < 0. */
static bool get_ni(const struct proc *p, char *b, size_t n)
{
	if (!ps_has(p) || p->stat.priority < 0)
		return false;
	snprintf(b, n, "%d", p->stat.nice);
	return true;
}

/* Tenths of a percent: CPU time over the time since it started, as ps. */
static bool get_pcpu(const struct proc *p, char *b, size_t n)
{
	unsigned long long secs, permille = 0;

	if (!ps_has(p))
		return false;
	secs = elapsed(p);
	if (secs)
		permille = p->stat.cpu * 1000 / (unsigned long long)clock_hz() / secs;
	if (permille > 999)
		snprintf(b, n, "%llu", permille / 10);
	else
		snprintf(b, n, "%llu.%llu", permille / 10, permille % 10);
	return true;
}

/* Resident memory over MemTotal, in tenths of a percent, as ps. */
static bool get_pmem(const struct proc *p, char *b, size_t n)
{
	static long long total = -1;
	unsigned long long permille;

	if (total < 0 && !procfs_mem_total(&total))
		total = 0;
	if (!p->have_statm || total <= 0)
		return false;
	permille = p->rss_kb * 1000 / (unsigned long long)total;
	if (permille > 999)
		permille = 999;
	snprintf(b, n, "%llu.%llu", permille / 10, permille % 10);
	return true;
}

/* [DD-]HH:MM:SS, ps's TIME; [[DD-]HH:]MM:SS, its ETIME. */
static void duration(unsigned long long t, bool short_form, char *b, size_t n)
{
	unsigned long long s = t % 60, m = t / 60 % 60, h = t / 3600 % 24,
			   d = t / 86400;
	size_t o = 0;

	if (d)
		o = (size_t)snprintf(b, n, "%llu-", d);
	if (!short_form || d || h)
		o += (size_t)snprintf(b + o, o < n ? n - o : 0, "%02llu:", h);
	snprintf(b + o, o < n ? n - o : 0, "%02llu:%02llu", m, s);
}

static bool get_time(const struct proc *p, char *b, size_t n)
{
	if (ps_has(p))
		duration(p->stat.cpu / (unsigned long long)clock_hz(), false, b, n);
	return ps_has(p);
}

static bool key_time(const struct proc *p, double *v)
{
	*v = (double)p->stat.cpu;
	return ps_has(p);
}

static bool get_etime(const struct proc *p, char *b, size_t n)
{
	if (stat_has(p, LPFD_STAT_START))
		duration(elapsed(p), true, b, n);
	return stat_has(p, LPFD_STAT_START);
}

/* The start time: earlier first, so the longest-running first for ETIME. */
static bool key_start(const struct proc *p, double *v)
{
	*v = (double)p->stat.start;
	return stat_has(p, LPFD_STAT_START);
}

static bool key_etime(const struct proc *p, double *v)
{
	*v = -(double)p->stat.start;
	return stat_has(p, LPFD_STAT_START);
}

/* ps's TTY: pts/N, ttyN, ttySN from the device number, "?" for none. */
static bool get_tty(const struct proc *p, char *b, size_t n)
{
	unsigned int dev = p->stat.tty, major = (dev >> 8) & 0xfff,
		     minor = (dev & 0xff) | ((dev >> 12) & 0xfff00);

	if (!ps_has(p))
		return false;
	if (!dev)
		snprintf(b, n, "?");
	else if (major >= 136 && major <= 143)
		snprintf(b, n, "pts/%u", minor + (major - 136) * 256);
	else if (major == 4 && minor < 64)
		snprintf(b, n, "tty%u", minor);
	else if (major == 4)
		snprintf(b, n, "ttyS%u", minor - 64);
	else if (major == 5 && minor == 1)
		snprintf(b, n, "console");
	else
		snprintf(b, n, "%u:%u", major, minor);
	return true;
}

/*
 * ps's STAT: the state, then < (nice < 0) or N (nice > 0), s (session
 * leader), l (threads), + (in the terminal's foreground group). ps's L
 * (pages locked in memory) is not shown: it needs a file more a process.
 */
static bool get_stat(const struct proc *p, char *b, size_t n)
{
	char s[8];
	size_t o = 0;

	if (!ps_has(p) || !stat_has(p, LPFD_STAT_STATE) ||
	    !has(p, PIDFD_INFO_PID))
		return false;
	s[o++] = p->stat.state;
	if (p->stat.nice < 0)
		s[o++] = '<';
	else if (p->stat.nice > 0)
		s[o++] = 'N';
	if ((uint32_t)p->stat.session == p->info.pid)
		s[o++] = 's';
	if (p->stat.threads > 1)
		s[o++] = 'l';
	if (p->stat.tpgid == p->stat.pgrp && p->stat.tty)
		s[o++] = '+';
	s[o] = '\0';
	snprintf(b, n, "%s", s);
	return true;
}

/* As ps's lstart: "Mon Dec  7 03:20:53 2026". */
static bool get_lstart(const struct proc *p, char *b, size_t n)
{
	time_t t;
	struct tm tm;

	if (!stat_has(p, LPFD_STAT_START))
		return false;
	t = time_of_ticks(p->stat.start);
	localtime_r(&t, &tm);
	strftime(b, n, "%a %b %e %H:%M:%S %Y", &tm);
	return true;
}

/* As ps: without the leading underscores ("__do_sys_pause"). */
static bool get_wchan(const struct proc *p, char *b, size_t n)
{
	if (p->have_wchan)
		snprintf(b, n, "%s", p->wchan + strspn(p->wchan, "_"));
	return p->have_wchan;
}

/* PID:INODE, as util-linux 2.42 names a process, where pidfs has inodes. */
static bool get_handle(const struct proc *p, char *b, size_t n)
{
	if (!p->have_inode || !has(p, PIDFD_INFO_PID) || !p->info.pid)
		return false;
	snprintf(b, n, "%" PRIu32 ":%" PRIu64, p->info.pid, p->inode);
	return true;
}

/*
 * The fields, in the order --help lists them: the one list the table,
 * --help, --list-columns and the FIELDS of pidfd(1) are made from (make
 * header-blocks writes the manual's copy, and make check fails while it
 * is out of date). A field of struct pidfd_info is here under the column
 * LPFD_INFO_FIELDS names for it.
 *
 *   C(its name, NUM or STR, the function that writes its value, what it
 *     needs read beyond the basic request (NEED_*), the line --help gives)
 */
#define INFO_FIELDS(C)                                                        \
	C("PID", NUM, get_pid, 0,                                             \
	  "process ID, in this PID namespace")                                \
	C("TGID", NUM, get_tgid, 0,                                           \
	  "thread-group ID")                                                  \
	C("PPID", NUM, get_ppid, 0,                                           \
	  "parent process ID")                                                \
	C("RUID", NUM, get_ruid, 0,                                           \
	  "real user ID")                                                     \
	C("RUSER", STR, get_ruser, 0,                                         \
	  "real user name")                                                   \
	C("EUID", NUM, get_euid, 0,                                           \
	  "effective user ID")                                                \
	C("EUSER", STR, get_euser, 0,                                         \
	  "effective user name")                                              \
	C("SUID", NUM, get_suid, 0,                                           \
	  "saved user ID")                                                    \
	C("SUSER", STR, get_suser, 0,                                         \
	  "saved user name")                                                  \
	C("FSUID", NUM, get_fsuid, 0,                                         \
	  "file-system user ID")                                              \
	C("FSUSER", STR, get_fsuser, 0,                                       \
	  "file-system user name")                                            \
	C("RGID", NUM, get_rgid, 0,                                           \
	  "real group ID")                                                    \
	C("RGROUP", STR, get_rgroup, 0,                                       \
	  "real group name")                                                  \
	C("EGID", NUM, get_egid, 0,                                           \
	  "effective group ID")                                               \
	C("EGROUP", STR, get_egroup, 0,                                       \
	  "effective group name")                                             \
	C("SGID", NUM, get_sgid, 0,                                           \
	  "saved group ID")                                                   \
	C("SGROUP", STR, get_sgroup, 0,                                       \
	  "saved group name")                                                 \
	C("FSGID", NUM, get_fsgid, 0,                                         \
	  "file-system group ID")                                             \
	C("FSGROUP", STR, get_fsgroup, 0,                                     \
	  "file-system group name")                                           \
	C("CGROUPID", NUM, get_cgroupid, NEED_CGROUPID,                       \
	  "cgroup2 ID")                                                       \
	C("CGROUP", STR, get_cgroup, NEED_CGROUP,                             \
	  "cgroup2 path")                                                     \
	C("COMM", STR, get_comm, NEED_STAT,                                   \
	  "command name")                                                     \
	C("ARGS", STR, get_args, NEED_STAT | NEED_ARGS,                       \
	  "command line ([COMM] if none)")                                    \
	C("STATE", STR, get_state, NEED_STAT,                                 \
	  "state: R, S, D, Z, T, ...")                                        \
	C("START", STR, get_start, NEED_STAT,                                 \
	  "start time")                                                       \
	C("EXE", STR, get_exe, NEED_EXE,                                      \
	  "executable file")                                                  \
	C("CWD", STR, get_cwd, NEED_CWD,                                      \
	  "working directory")                                                \
	C("INODE", NUM, get_inode, NEED_INODE,                                \
	  "pidfs inode of its pidfd, for PID:INODE")                          \
	C("EXIT", STR, get_exit, NEED_STAT,                                   \
	  "how it ended")                                                     \
	C("EXITCODE", NUM, get_exitcode, NEED_STAT,                           \
	  "wait status, as waitpid(2) gives it")                              \
	C("COREDUMP", STR, get_coredump, NEED_COREDUMP,                       \
	  "core dump: dumped, skip, user, root")                              \
	C("COREDUMPSIG", STR, get_coredumpsig, NEED_COREDUMP,                 \
	  "signal that dumped core")                                          \
	C("COREDUMPCODE", NUM, get_coredumpcode, NEED_COREDUMP,               \
	  "its si_code (SI_TKILL: -6)")                                       \
	C("HANDLE", STR, get_handle, NEED_INODE,                              \
	  "PID:INODE, which kill and wait take back")                         \
	C("STAT", STR, get_stat, NEED_STAT,                                   \
	  "ps's STAT: state and <, N, s, l, +")                               \
	C("TTY", STR, get_tty, NEED_STAT,                                     \
	  "controlling terminal (? if none)")                                 \
	C("PGID", NUM, get_pgid, NEED_STAT,                                   \
	  "process group ID")                                                 \
	C("SID", NUM, get_sid, NEED_STAT,                                     \
	  "session ID")                                                       \
	C("NI", NUM, get_ni, NEED_STAT,                                       \
	  "nice value (- if real-time)")                                      \
	C("PRI", NUM, get_pri, NEED_STAT,                                     \
	  "priority as ps -o pri: higher runs first")                         \
	C("NLWP", NUM, get_nlwp, NEED_STAT,                                   \
	  "number of threads")                                                \
	C("RSS", NUM, get_rss, NEED_STATM,                                    \
	  "resident memory, KiB")                                             \
	C("VSZ", NUM, get_vsz, NEED_STATM,                                    \
	  "virtual memory, KiB")                                              \
	C("%CPU", NUM, get_pcpu, NEED_STAT,                                   \
	  "CPU time over its lifetime, percent")                              \
	C("%MEM", NUM, get_pmem, NEED_STATM,                                  \
	  "resident memory over the total, percent")                          \
	C("TIME", STR, get_time, NEED_STAT,                                   \
	  "CPU time, [DD-]HH:MM:SS")                                          \
	C("ETIME", STR, get_etime, NEED_STAT,                                 \
	  "time since it started, [[DD-]HH:]MM:SS")                           \
	C("LSTART", STR, get_lstart, NEED_STAT,                               \
	  "start time, in full")                                              \
	C("WCHAN", STR, get_wchan, NEED_WCHAN,                                \
	  "kernel function it sleeps in")

#define C(name, type, get, need, help) { name, F_##type, help, get, need },
static const struct field fields[] = { INFO_FIELDS(C) };
#undef C

#define DEFAULT_FIELDS "PID,PPID,RUID,EUID,EUSER,EGID,EGROUP,CGROUP,EXIT,COMM"

void info_list_fields(FILE *f)
{
	for (size_t i = 0; i < ARRAY_SIZE(fields); i++)
		fprintf(f, " %-12s %s\n", fields[i].name, fields[i].help);
	fprintf(f, "Default: %s (JSON: all).\n", DEFAULT_FIELDS);
}

/*
 * -H/--list-columns, as util-linux 2.40's: each field, right-aligned, its
 * JSON type and its description; with -J the document lsblk -H -J gives.
 */
static void list_columns(int format, bool raw)
{
	static const char *names[] = { "HOLDER", "TYPE", "DESCRIPTION" };
	static const bool right[] = { true, false, false };
	struct table t = { .ncols = 3, .names = names, .right = right };

	if (format == OUT_JSON) {
		json_doc_begin(stdout);
		json_array_begin(stdout, "pidfd-columns", true);
	}
	for (size_t i = 0; i < ARRAY_SIZE(fields); i++) {
		const char *type = fields[i].type == F_NUM ? "<integer>" :
							     "<string>";
		char **row;

		if (format) {
			if (format == OUT_JSON)
				json_array_item(stdout, i);
			printf(format == OUT_JSON ?
			       "{\n         \"holder\": \"%s\",\n         "
			       "\"type\": \"%s\",\n         \"description\": " :
			       "{\"holder\":\"%s\",\"type\":\"%s\",\"description\":",
			       fields[i].name, type);
			json_string(stdout, fields[i].help);
			fputs(format == OUT_JSON ? "\n      }" : "}\n", stdout);
			continue;
		}
		row = calloc(3, sizeof(*row));
		if (!row || !(row[0] = strdup(fields[i].name)) ||
		    !(row[1] = strdup(type)) || !(row[2] = strdup(fields[i].help)))
			abort();
		table_add_row(&t, row);
	}
	if (format == OUT_JSON) {
		json_array_end(stdout);
		json_doc_end(stdout);
	}
	table_print(stdout, &t, false, raw);
	table_free(&t);
}

/* ps's names (ps -o) where they mean what a field of ours does. */
static const struct {
	const char *ps, *ours;
} ps_names[] = {
	{ "user", "EUSER" }, { "uid", "EUID" }, { "group", "EGROUP" },
	{ "gid", "EGID" }, { "cmd", "ARGS" }, { "command", "ARGS" },
	{ "ucmd", "COMM" }, { "ucomm", "COMM" }, { "s", "STATE" },
	{ "pcpu", "%CPU" }, { "pmem", "%MEM" }, { "rssize", "RSS" },
	{ "rsz", "RSS" }, { "vsize", "VSZ" }, { "cputime", "TIME" },
	{ "tt", "TTY" }, { "tname", "TTY" }, { "pgrp", "PGID" },
	{ "sess", "SID" }, { "session", "SID" }, { "nice", "NI" },
	{ "thcount", "NLWP" }, { "stime", "START" },
};

/* A field by its name or ps's, any case: its index, or ARRAY_SIZE(fields). */
static size_t field_index(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ps_names); i++)
		if (strcasecmp(name, ps_names[i].ps) == 0)
			name = ps_names[i].ours;
	for (i = 0; i < ARRAY_SIZE(fields); i++)
		if (strcasecmp(name, fields[i].name) == 0)
			break;
	return i;
}

/* A field's JSON name: its name in lower case, "%" as "p" ("pcpu"). */
static void json_name(FILE *f, const char *name)
{
	for (const char *s = name; *s; s++)
		putc(*s == '%' ? 'p' : *s >= 'A' && *s <= 'Z' ? *s - 'A' + 'a' : *s,
		     f);
}

struct columns {
	size_t idx[ARRAY_SIZE(fields) * 4];
	size_t n;
	unsigned int need; /* NEED_* of them all */
};

static void columns_add(struct columns *c, const char *list)
{
	char *copy = strdup(list), *save = NULL, *name;

	if (!copy)
		abort();
	for (name = strtok_r(copy, ",", &save); name;
	     name = strtok_r(NULL, ",", &save)) {
		size_t i;

		if (strcasecmp(name, "all") == 0) {
			for (i = 0; i < ARRAY_SIZE(fields) && c->n < ARRAY_SIZE(c->idx); i++)
				c->idx[c->n++] = i;
			continue;
		}
		i = field_index(name);
		if (i == ARRAY_SIZE(fields))
			usage_error("unknown field: '%s'", name);
		if (c->n == ARRAY_SIZE(c->idx))
			usage_error("too many fields: '%s'", list);
		c->idx[c->n++] = i;
	}
	free(copy);
	if (!c->n)
		usage_error("no fields in '%s'", list);
}

/* --output LIST, '+LIST' to add to the default; JSON shows all by default. */
static void columns_parse(struct columns *c, const char *list, bool json)
{
	c->n = 0;
	if (!list || list[0] == '+')
		columns_add(c, json ? "all" : DEFAULT_FIELDS);
	if (list)
		columns_add(c, list[0] == '+' ? list + 1 : list);
	c->need = 0;
	for (size_t i = 0; i < c->n; i++)
		c->need |= fields[c->idx[i]].need;
}

/* ------------------------------------------------------------------------
 * One process.
 */

/*
 * What /proc adds, each read through the process's directory bound to
 * the pidfd: the process's own, or nothing once it is reaped, never a
 * recycled pid's.
 */
static void read_proc(const struct target *t, const struct procdir *d,
		      unsigned int need, struct proc *p)
{
	if ((need & NEED_STAT) && !procdir_stat(d, &p->stat))
		p->stat.have = 0;
	p->args = need & NEED_ARGS ? procdir_args(d) : NULL;
	p->have_cgroup = (need & NEED_CGROUP) &&
			 procdir_cgroup(d, p->cgroup, sizeof(p->cgroup));
	p->have_exe = (need & NEED_EXE) &&
		      procfs_link(t->fd, "exe", p->exe, sizeof(p->exe));
	p->have_inode = (need & NEED_INODE) && handle_inode(t, &p->inode) == 0;
	if ((need & NEED_STATM) &&
	    procdir_statm(d, &p->vsz_kb, &p->rss_kb)) {
		unsigned long long kb = (unsigned long long)sysconf(_SC_PAGESIZE) / 1024;

		p->vsz_kb *= kb;
		p->rss_kb *= kb;
		p->have_statm = true;
	}
	p->have_wchan = (need & NEED_WCHAN) &&
			procdir_wchan(d, p->wchan, sizeof(p->wchan));
	p->have_cwd = (need & NEED_CWD) &&
		      procfs_link(t->fd, "cwd", p->cwd, sizeof(p->cwd));
}

/* Whether libpidfd_get_info() takes its emulated path on this kernel. */
static bool info_emulated(void)
{
	static int emulated = -1;

	if (emulated < 0) {
		struct libpidfd_features f = { 0 };

		emulated = libpidfd_features(&f, sizeof(f)) == 0 &&
			   f.get_info == LIBPIDFD_EMULATED;
	}
	return emulated;
}

/* 0, or -errno from libpidfd_get_info(). */
static int get_info(const struct target *t, unsigned int need,
		    struct proc *p)
{
	p->info.mask = INFO_REQUEST |
		       (need & NEED_CGROUPID ? PIDFD_INFO_CGROUPID : 0);
	return libpidfd_get_info(t->fd, &p->info, sizeof(p->info)) < 0 ?
	       -errno : 0;
}

/*
 * How an unreaped zombie ended, as wait shows it: the kernel gives
 * PIDFD_INFO_EXIT only once the process is reaped. Its state, read with
 * the EXIT fields, says whether to look.
 */
static void zombie_ending(const struct target *t, struct proc *p)
{
	int status;

	if (!has(p, PIDFD_INFO_EXIT) && stat_has(p, LPFD_STAT_STATE) &&
	    p->stat.state == 'Z' && zombie_exit_status(t->fd, &status)) {
		p->info.exit_code = status;
		p->info.mask |= PIDFD_INFO_EXIT;
	}
}

/*
 * A process info --all listed, whose pidfd was opened on its number:
 * one directory, opened by that number from the procfs root we hold and
 * checked through the pidfd, for every file. Where libpidfd_get_info()
 * is emulated and asked for no more than the status file tells, that
 * file is read through the same directory: the emulation's answer
 * without its second proof, fdinfo read and check. 1 when done, 0 where
 * the library is to be asked as for any other process, or -errno.
 */
static int query_listed(const struct target *t, int root, unsigned int need,
			struct proc *p)
{
	bool from_status = info_emulated() &&
			   !(need & (NEED_CGROUPID | NEED_COREDUMP));
	struct procdir d;
	int r = 0;

	if (!(need & NEED_FILES) && !from_status)
		return 0;
	if (procdir_open_listed(&d, t->fd, t->pid, root) < 0)
		return 0;
	if (!from_status || !procdir_info(&d, t->pid, &p->info))
		r = get_info(t, need, p);
	if (r == 0) {
		read_proc(t, &d, need, p);
		zombie_ending(t, p);
	}
	procdir_close(&d);
	return r < 0 ? r : 1;
}

/*
 * 0, or -errno from libpidfd_get_info(). root is the procfs root that
 * info --all holds, for the processes it listed, else -1.
 */
static int query(const struct target *t, int root, unsigned int need,
		 struct proc *p)
{
	struct procdir d = { .pidfd = t->fd, .fd = -1 };
	int r = 0;

	free(p->args);
	memset(p, 0, offsetof(struct proc, cgroup));
	if (root >= 0 && (r = query_listed(t, root, need, p)) != 0)
		return r < 0 ? r : 0;
	r = get_info(t, need, p);
	if (r < 0)
		return r;
	if (need & NEED_FILES)
		procdir_open(&d, t->fd);
	read_proc(t, &d, need, p);
	procdir_close(&d);
	zombie_ending(t, p);
	return 0;
}

/* ------------------------------------------------------------------------
 * Output: a table at the end, or JSON as each process is known.
 */
enum format { TABLE, JSON_DOC, JSON_LINES };

/* --sort: the fields and directions, in turn. */
struct sort_keys {
	size_t field[16];
	bool desc[16];
	size_t n;
};

struct info_ctx {
	struct columns cols;
	enum format format;
	bool headings, raw;
	bool wide; /* -w: full lines on a terminal too */
	bool by_user;
	uid_t users[32]; /* -u: any of these effective users */
	size_t nusers;
	struct sort_keys sort;
	bool forest;
	struct row *rows; /* kept for --sort and --forest */
	size_t nrows, cap_rows;
	struct table table;
	size_t shown, emitted;
	int rc;
};

/* Room for any field's value: the arguments are as long as they are. */
static char *value_buffer(const struct proc *p, size_t *size)
{
	char *v;

	*size = 8192 + (p->args ? strlen(p->args) + 3 : 0);
	if (!(v = malloc(*size)))
		abort();
	return v;
}

static char *xstrdup(const char *s)
{
	char *d = strdup(s);

	if (!d)
		abort();
	return d;
}

/* A process's values, each allocated, NULL where unknown. */
static char **cells_of(const struct columns *c, const struct proc *p)
{
	char **cells = calloc(c->n ? c->n : 1, sizeof(*cells)), *v;
	size_t size;

	if (!cells)
		abort();
	v = value_buffer(p, &size);
	for (size_t i = 0; i < c->n; i++)
		if (fields[c->idx[i]].get(p, v, size))
			cells[i] = xstrdup(v);
	free(v);
	return cells;
}

static void print_json(const struct columns *c, char **cells)
{
	putchar('{');
	for (size_t i = 0; i < c->n; i++) {
		const struct field *f = &fields[c->idx[i]];

		printf("%s\"", i ? "," : "");
		json_name(stdout, f->name);
		printf("\":");
		if (!cells[i])
			fputs("null", stdout);
		else if (f->type == F_NUM)
			fputs(cells[i], stdout);
		else
			json_string(stdout, cells[i]);
	}
	putchar('}');
}

/* A row out: to the table (which takes the cells), or as JSON. */
static void emit(struct info_ctx *x, char **cells)
{
	if (x->format == TABLE) {
		table_add_row(&x->table, cells);
		return;
	}
	if (x->format == JSON_DOC)
		json_array_item(stdout, x->emitted);
	print_json(&x->cols, cells);
	if (x->format == JSON_LINES)
		putchar('\n');
	x->emitted++;
	for (size_t i = 0; i < x->cols.n; i++)
		free(cells[i]);
	free(cells);
}

/*
 * The times sort by the number behind their text; any other field by its
 * value, as a number (F_NUM) or as text.
 */
static const struct {
	bool (*get)(const struct proc *p, char *buf, size_t size);
	bool (*key)(const struct proc *p, double *v);
} time_keys[] = {
	{ get_time, key_time }, { get_etime, key_etime },
	{ get_start, key_start }, { get_lstart, key_start },
};

/* The value a row is sorted by, for one key. */
static struct sort_value sort_value_of(const struct proc *p, size_t field)
{
	const struct field *f = &fields[field];
	struct sort_value v = { 0 };
	size_t size;
	char *text;

	for (size_t i = 0; i < ARRAY_SIZE(time_keys); i++)
		if (time_keys[i].get == f->get) {
			v.known = time_keys[i].key(p, &v.num);
			return v;
		}
	text = value_buffer(p, &size);
	v.known = f->get(p, text, size);
	if (v.known && f->type == F_NUM)
		v.num = strtod(text, NULL);
	else if (v.known)
		v.str = xstrdup(text);
	free(text);
	return v;
}

/* Kept until all are known, for --sort or --forest. */
static void keep(struct info_ctx *x, const struct proc *p, char **cells)
{
	struct row *r;

	if (x->nrows == x->cap_rows) {
		x->cap_rows = x->cap_rows ? 2 * x->cap_rows : 256;
		x->rows = realloc(x->rows, x->cap_rows * sizeof(*x->rows));
		if (!x->rows)
			abort();
	}
	r = &x->rows[x->nrows];
	*r = (struct row){ .cells = cells, .seq = x->nrows };
	if (has(p, PIDFD_INFO_PID)) {
		r->pid = p->info.pid;
		r->ppid = p->info.ppid;
	}
	r->keys = calloc(x->sort.n ? x->sort.n : 1, sizeof(*r->keys));
	if (!r->keys)
		abort();
	for (size_t k = 0; k < x->sort.n; k++)
		r->keys[k] = sort_value_of(p, x->sort.field[k]);
	x->nrows++;
}

static void show(struct info_ctx *x, const struct proc *p)
{
	char **cells = cells_of(&x->cols, p);

	x->shown++;
	if (x->sort.n || x->forest)
		keep(x, p, cells);
	else
		emit(x, cells);
}

/* The column the tree is drawn in, as ps: ARGS, else COMM; or none. */
static size_t tree_column(const struct columns *c)
{
	for (size_t i = 0; i < c->n; i++)
		if (fields[c->idx[i]].get == get_args)
			return i;
	for (size_t i = 0; i < c->n; i++)
		if (fields[c->idx[i]].get == get_comm)
			return i;
	return SIZE_MAX;
}

/* With the tree's prefix: " \_ sh -c ..."; the cell replaced. */
static void prefix_cell(char **cell, const char *prefix)
{
	const char *v = *cell ? *cell : "-";
	char *s = malloc(strlen(prefix) + strlen(v) + 1);

	if (!s)
		abort();
	strcpy(s, prefix);
	strcat(s, v);
	free(*cell);
	*cell = s;
}

/* The kept rows, sorted, as a tree where asked, out. */
static void emit_kept(struct info_ctx *x)
{
	size_t tree = x->format == TABLE ? tree_column(&x->cols) : SIZE_MAX;
	size_t *order = NULL;
	char **prefix = NULL;

	if (!x->nrows)
		return;
	/* A tree without keys: siblings in pid order, as ps has them. */
	for (size_t i = 0; x->forest && !x->sort.n && i < x->nrows; i++)
		x->rows[i].seq = x->rows[i].pid;
	rows_sort(x->rows, x->nrows, x->sort.desc, x->sort.n);
	if (x->forest)
		order = rows_forest(x->rows, x->nrows, &prefix);
	for (size_t i = 0; i < x->nrows; i++) {
		size_t r = order ? order[i] : i;

		if (prefix && tree != SIZE_MAX && prefix[r][0])
			prefix_cell(&x->rows[r].cells[tree], prefix[r]);
		emit(x, x->rows[r].cells);
	}
	for (size_t i = 0; i < x->nrows; i++) {
		for (size_t k = 0; k < x->sort.n; k++)
			free(x->rows[i].keys[k].str);
		free(x->rows[i].keys);
		if (prefix)
			free(prefix[i]);
	}
	free(prefix);
	free(order);
	free(x->rows);
	x->rows = NULL;
	x->nrows = 0;
}

/* --sort KEYS: fields by any name, '-' before one for descending. */
static void parse_sort(struct sort_keys *s, const char *list)
{
	char *copy = xstrdup(list), *save = NULL, *name;

	for (name = strtok_r(copy, ",", &save); name;
	     name = strtok_r(NULL, ",", &save)) {
		bool desc = name[0] == '-';
		size_t i;

		name += name[0] == '-' || name[0] == '+';
		i = field_index(name);
		if (i == ARRAY_SIZE(fields))
			usage_error("info: unknown sort key: '%s'", name);
		if (s->n == ARRAY_SIZE(s->field))
			usage_error("info: too many sort keys: '%s'", list);
		s->field[s->n] = i;
		s->desc[s->n++] = desc;
	}
	free(copy);
	if (!s->n)
		usage_error("info: no sort key in '%s'", list);
}

/* An exit status to keep: a failure outweighs "not supported". */
static void fail_status(struct info_ctx *x, int rc)
{
	if (x->rc == EXIT_SUCCESS || rc == EXIT_FAILURE)
		x->rc = rc == EXIT_SUCCESS ? x->rc : rc;
}

static void fail(struct info_ctx *x, int err)
{
	fail_status(x, exit_status_of(err));
}

static bool by_users(const struct info_ctx *x, const struct proc *p)
{
	for (size_t i = 0; i < x->nusers && has(p, PIDFD_INFO_CREDS); i++)
		if (p->info.euid == x->users[i])
			return true;
	return false;
}

/*
 * One process named on the command line, or (quiet) found in /proc, for
 * which a process that is gone, or hidden, is no error. root as query()
 * takes it.
 */
static void one_opened(struct info_ctx *x, struct target *t, bool quiet,
		       int root)
{
	static struct proc p;
	const char *arg = t->arg;
	int r = query(t, root, x->cols.need, &p);

	target_close(t);
	if (r < 0 && (!quiet || (r != -ESRCH && r != -EACCES))) {
		warn_target("cannot get information on", arg, -r);
		fail(x, -r);
	}
	if (r < 0 || (x->by_user && !by_users(x, &p)))
		return;
	show(x, &p);
}

static void one(struct info_ctx *x, const char *arg, bool quiet)
{
	struct target t;

	if ((quiet ? target_open(arg, &t) : target_open_thread(arg, &t)) < 0) {
		if (!quiet || (errno != ESRCH && errno != EACCES)) {
			warn_open(arg, errno);
			fail(x, errno);
		}
		return;
	}
	one_opened(x, &t, quiet, -1);
}

/*
 * A process that /proc listed, by its number: its pidfd opened here, on
 * the number, so that its directory can be opened by the same number.
 */
static void listed(struct info_ctx *x, const char *name, int root)
{
	struct target t = { .arg = name, .owned = true };

	t.pid = (pid_t)strtol(name, NULL, 10);
	t.fd = t.pid > 0 ? libpidfd_open(t.pid, 0) : -1;
	if (t.fd < 0) {
		if (t.pid <= 0 || (errno != ESRCH && errno != EACCES)) {
			warn_open(name, t.pid > 0 ? errno : EINVAL);
			fail(x, t.pid > 0 ? errno : EINVAL);
		}
		return;
	}
	one_opened(x, &t, true, root);
}

/* info --name: each confirmed match, as if named; gone since, no error. */
static void selected_take(struct target *t, void *arg)
{
	one_opened(arg, t, true, -1);
}

/* info --count: each match counted (by the selection), not shown. */
static void counted_take(struct target *t, void *arg)
{
	(void)arg;
	target_close(t);
}

/* Every process that /proc shows, each through a pidfd of its own. */
static void all(struct info_ctx *x)
{
	struct dirent *d;
	DIR *dir;

	/* A /proc of another pid namespace would list its pids, not ours. */
	if (!(dir = procfs_list())) {
		fprintf(stderr, "pidfd: info: cannot list processes: %s\n",
			proc_trouble() ?: strerror(errno ? errno : ENOSYS));
		x->rc = EXIT_FAILURE;
		return;
	}
	while ((d = readdir(dir)))
		if (d->d_name[0] >= '1' && d->d_name[0] <= '9')
			listed(x, d->d_name, dirfd(dir));
	closedir(dir);
}

static uid_t parse_user(const char *s)
{
	struct passwd pw, *res = NULL;
	char tmp[4096], *end;
	unsigned long v;

	if (getpwnam_r(s, &pw, tmp, sizeof(tmp), &res) == 0 && res)
		return res->pw_uid;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (s[0] < '0' || s[0] > '9' || *end || errno || v >= UINT32_MAX)
		usage_error("info: unknown user '%s'", s);
	return (uid_t)v;
}

/* -u root,nobody: a comma list, as ps -u takes; each -u adds to it. */
static void parse_users(struct info_ctx *x, const char *list)
{
	const char *s = list;

	x->by_user = true;
	do {
		size_t n = strcspn(s, ",");
		char name[256];

		if (!n || n >= sizeof(name))
			usage_error("info: invalid user list '%s'", list);
		if (x->nusers == ARRAY_SIZE(x->users))
			usage_error("info: too many users: '%s'", list);
		memcpy(name, s, n);
		name[n] = '\0';
		x->users[x->nusers++] = parse_user(name);
		s += n;
	} while (*s++ == ',');
}

void help_info(void)
{
	fputs("Usage:\n"
	      " pidfd info [options] <process>...\n"
	      " pidfd info [options] --all | --user <users>\n"
	      " pidfd info [options] --name <pattern> [<process>...]\n"
	      "\n"
	      "Show what the kernel knows of each process, through its pidfd.\n"
	      "\n"
	      HELP_PROCESS
	      "\n"
	      "Options:\n"
	      HELP_JSON_OPTIONS
	      " -o, --output <list>      the fields to show ('+list' adds to the\n"
	      "                            default, 'all' shows all; ps's names,\n"
	      "                            as pcpu or cmd, too); also --fields\n"
	      " -n, --noheadings         no header line\n"
	      " -r, --raw                no alignment, blanks escaped\n"
	      " -w, --wide               whole lines on a terminal too (else ARGS\n"
	      "                            is cut to its width, as by ps)\n"
	      " -H, --list-columns       list the available fields, their types\n"
	      "                            and descriptions, and exit\n"
	      " -a, --all                every process in /proc\n"
	      " -u, --user <users>       only processes of these effective users\n"
	      "                            (names or IDs, separated by commas;\n"
	      "                            alone: of all)\n"
	      "     --sort <keys>        order by these fields, in turn (ps's\n"
	      "                            names too); '-' before one: descending\n"
	      "     --forest             each process under its parent, the tree\n"
	      "                            drawn as by ps\n"
	      HELP_SELECT_OPTIONS
	      HELP_SELECT_COUNT
	      HELP_COMMON_OPTIONS
	      "\n"
	      "Available fields:\n",
	      stdout);
	info_list_fields(stdout);
	fputs("\nExit status: 0 success, 1 failure (or nothing matched), 2 not\n"
	      "supported by this kernel.\n"
	      HELP_END,
	      stdout);
}

enum { OPT_SORT = 0x200, OPT_FOREST };
static const char *const short_opts = "JjnrwHau:o:hV" SHORT_SELECT;
static const struct option long_opts[] = {
	OPTIONS_JSON,
	{ "noheadings", no_argument, NULL, 'n' },
	{ "raw", no_argument, NULL, 'r' },
	{ "wide", no_argument, NULL, 'w' },
	{ "list-columns", no_argument, NULL, 'H' },
	{ "all", no_argument, NULL, 'a' },
	{ "user", required_argument, NULL, 'u' },
	{ "output", required_argument, NULL, 'o' },
	{ "fields", required_argument, NULL, 'o' },
	{ "sort", required_argument, NULL, OPT_SORT },
	{ "forest", no_argument, NULL, OPT_FOREST },
	OPTIONS_SELECT,
	OPTION_SELECT_COUNT,
	OPTIONS_COMMON_END,
};

static struct selection sel = { .rc = EXIT_SUCCESS };

static bool parse_options(int argc, char **argv, struct info_ctx *x)
{
	const char *list = NULL;
	bool every = false, list_cols = false;
	unsigned int given = 0;
	int c;

	while ((c = getopt_long(argc, argv, short_opts, long_opts, NULL)) != -1) {
		if (selection_option(&sel, c, optarg))
			continue;
		if (c == 'J' || c == 'j') {
			x->format = c == 'J' ? JSON_DOC : JSON_LINES;
			given |= c == 'J' ? OUT_JSON : OUT_JSON_LINES;
		} else if (c == 'n') {
			x->headings = false;
			given |= OUT_NOHEADINGS;
		} else if (c == 'r') {
			x->raw = true;
			given |= OUT_RAW;
		} else if (c == 'H')
			list_cols = true;
		else if (c == 'w')
			x->wide = true;
		else if (c == 'a')
			every = true;
		else if (c == 'u')
			parse_users(x, optarg);
		else if (c == 'o')
			list = optarg;
		else if (c == OPT_SORT)
			parse_sort(&x->sort, optarg);
		else if (c == OPT_FOREST)
			x->forest = true;
		else
			common_option(c, argv, long_opts);
	}
	output_modes_check("info", given);
	if (list_cols && optind < argc)
		usage_error("info: --list-columns and processes: choose one");
	if (list_cols) {
		list_columns((int)(given & (OUT_JSON | OUT_JSON_LINES)), x->raw);
		exit(EXIT_SUCCESS);
	}
	if (every && optind < argc)
		usage_error("info: --all and processes: choose one");
	selection_ready(&sel, "info");
	/* -u or --name with no process names selects among all of them. */
	every |= (x->by_user || sel.active) && optind == argc;
	if (!every && optind >= argc)
		usage_error("info: no process specified");
	columns_parse(&x->cols, list, x->format != TABLE);
	for (size_t k = 0; k < x->sort.n; k++)
		x->cols.need |= fields[x->sort.field[k]].need;
	iso_times = x->format != TABLE;
	for (int a = optind; a < argc; a++)
		target_check(argv[a]);
	return every;
}

int cmd_info(int argc, char **argv)
{
	static struct info_ctx x = { .headings = true };
	const char *names[ARRAY_SIZE(((struct columns *)0)->idx)];
	bool right[ARRAY_SIZE(names)], trunc[ARRAY_SIZE(names)];
	bool every = parse_options(argc, argv, &x);

	for (size_t i = 0; i < x.cols.n; i++) {
		names[i] = fields[x.cols.idx[i]].name;
		right[i] = fields[x.cols.idx[i]].type == F_NUM;
		trunc[i] = fields[x.cols.idx[i]].get == get_args;
	}
	/* As ps: on a terminal, lines cut to its width unless -w. */
	x.table = (struct table){ .ncols = x.cols.n, .names = names,
				  .right = right, .trunc = trunc,
				  .max_width = x.wide ? 0 : terminal_width() };
	if (x.format == JSON_DOC && !sel.count) {
		json_doc_begin(stdout);
		json_array_begin(stdout, "processes", true);
	}
	if (sel.active) {
		static const struct select_ops ops = { selected_take, NULL };
		static const struct select_ops count = { counted_take, NULL };

		selection_run(&sel, "info", argv + optind, argc - optind,
			      sel.count ? &count : &ops, &x);
		x.shown += sel.count ? sel.matched : 0;
		fail_status(&x, sel.rc);
	} else if (every) {
		all(&x);
	}
	for (int a = optind; a < argc && !sel.active; a++)
		one(&x, argv[a], false);
	emit_kept(&x);
	if (x.format == JSON_DOC && !sel.count) {
		json_array_end(stdout);
		json_doc_end(stdout);
	}
	if (x.format == TABLE && x.table.nrows)
		table_print(stdout, &x.table, x.headings, x.raw);
	/* As pgrep: fields that /proc gives, left unknown, are said to be. */
	if (x.shown && (x.cols.need & (NEED_FILES | NEED_EXE | NEED_CWD)) &&
	    proc_trouble()) {
		warn_escaped("info: %s; what it tells is shown as unknown",
			     proc_trouble());
		fail_status(&x, EXIT_FAILURE);
	}
	table_free(&x.table);
	/* As ps and pgrep: a filter that matched nothing is a failure. */
	if ((x.by_user || sel.active) && !x.shown && x.rc == EXIT_SUCCESS)
		x.rc = EXIT_FAILURE;
	selection_free(&sel);
	return x.rc;
}
