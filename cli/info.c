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
	bool have_inode;
	uint64_t inode; /* of the pidfd, on pidfs (Linux 6.9) */
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
/* Those read through the process's directory. */
#define NEED_FILES    (NEED_STAT | NEED_ARGS | NEED_CGROUP)

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

#define CG NEED_CGROUPID
static const struct field fields[] = {
	{ "PID", F_NUM, "process ID, in this PID namespace", get_pid, 0 },
	{ "TGID", F_NUM, "thread-group ID", get_tgid, 0 },
	{ "PPID", F_NUM, "parent process ID", get_ppid, 0 },
	{ "RUID", F_NUM, "real user ID", get_ruid, 0 },
	{ "RUSER", F_STR, "real user name", get_ruser, 0 },
	{ "EUID", F_NUM, "effective user ID", get_euid, 0 },
	{ "EUSER", F_STR, "effective user name", get_euser, 0 },
	{ "SUID", F_NUM, "saved user ID", get_suid, 0 },
	{ "SUSER", F_STR, "saved user name", get_suser, 0 },
	{ "FSUID", F_NUM, "file-system user ID", get_fsuid, 0 },
	{ "FSUSER", F_STR, "file-system user name", get_fsuser, 0 },
	{ "RGID", F_NUM, "real group ID", get_rgid, 0 },
	{ "RGROUP", F_STR, "real group name", get_rgroup, 0 },
	{ "EGID", F_NUM, "effective group ID", get_egid, 0 },
	{ "EGROUP", F_STR, "effective group name", get_egroup, 0 },
	{ "SGID", F_NUM, "saved group ID", get_sgid, 0 },
	{ "SGROUP", F_STR, "saved group name", get_sgroup, 0 },
	{ "FSGID", F_NUM, "file-system group ID", get_fsgid, 0 },
	{ "FSGROUP", F_STR, "file-system group name", get_fsgroup, 0 },
	{ "CGROUPID", F_NUM, "cgroup2 ID", get_cgroupid, CG },
	{ "CGROUP", F_STR, "cgroup2 path", get_cgroup, NEED_CGROUP },
	{ "COMM", F_STR, "command name", get_comm, NEED_STAT },
	{ "ARGS", F_STR, "command line ([COMM] if none)", get_args,
	  NEED_STAT | NEED_ARGS },
	{ "STATE", F_STR, "state: R, S, D, Z, T, ...", get_state, NEED_STAT },
	{ "START", F_STR, "start time", get_start, NEED_STAT },
	{ "EXE", F_STR, "executable file", get_exe, NEED_EXE },
	{ "CWD", F_STR, "working directory", get_cwd, NEED_CWD },
	{ "INODE", F_NUM, "pidfs inode of its pidfd, for PID:INODE", get_inode,
	  NEED_INODE },
	{ "EXIT", F_STR, "how it ended, once reaped", get_exit, 0 },
	{ "EXITCODE", F_NUM, "wait status, as waitpid(2) gives it", get_exitcode, 0 },
	{ "COREDUMP", F_STR, "core dump: dumped, skip, user, root", get_coredump,
	  NEED_COREDUMP },
	{ "COREDUMPSIG", F_STR, "signal that dumped core", get_coredumpsig,
	  NEED_COREDUMP },
	{ "COREDUMPCODE", F_NUM, "its si_code (SI_TKILL: -6)", get_coredumpcode,
	  NEED_COREDUMP },
};
#undef CG

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
		for (i = 0; i < ARRAY_SIZE(fields); i++)
			if (strcasecmp(name, fields[i].name) == 0)
				break;
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
	if (r == 0)
		read_proc(t, &d, need, p);
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
	return 0;
}

/* ------------------------------------------------------------------------
 * Output: a table at the end, or JSON as each process is known.
 */
enum format { TABLE, JSON_DOC, JSON_LINES };

struct info_ctx {
	struct columns cols;
	enum format format;
	bool headings, raw;
	bool wide; /* -w: full lines on a terminal too */
	bool by_user;
	uid_t users[32]; /* -u: any of these effective users */
	size_t nusers;
	struct table table;
	size_t shown;
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

static void print_json(const struct columns *c, const struct proc *p)
{
	size_t size;
	char *v = value_buffer(p, &size);

	putchar('{');
	for (size_t i = 0; i < c->n; i++) {
		const struct field *f = &fields[c->idx[i]];
		bool known = f->get(p, v, size);

		printf("%s\"", i ? "," : "");
		for (const char *s = f->name; *s; s++)
			putchar(*s >= 'A' && *s <= 'Z' ? *s - 'A' + 'a' : *s);
		printf("\":");
		if (!known)
			fputs("null", stdout);
		else if (f->type == F_NUM)
			fputs(v, stdout);
		else
			json_string(stdout, v);
	}
	putchar('}');
	free(v);
}

static void show(struct info_ctx *x, const struct proc *p)
{
	size_t size;
	char *v, **row;

	if (x->format == JSON_DOC)
		json_array_item(stdout, x->shown);
	if (x->format != TABLE) {
		print_json(&x->cols, p);
		if (x->format == JSON_LINES)
			putchar('\n');
		x->shown++;
		return;
	}
	row = calloc(x->cols.n, sizeof(*row));
	if (!row)
		abort();
	v = value_buffer(p, &size);
	for (size_t i = 0; i < x->cols.n; i++)
		if (fields[x->cols.idx[i]].get(p, v, size) &&
		    !(row[i] = strdup(v)))
			abort();
	free(v);
	table_add_row(&x->table, row);
	x->shown++;
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
	      " -J, --json               one JSON document\n"
	      " -j, --json-lines         one JSON object per line\n"
	      " -o, --output <list>      the fields to show ('+list' adds to the\n"
	      "                            default, 'all' shows all); also --fields\n"
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
