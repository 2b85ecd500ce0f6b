/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * pidfd info: everything libpidfd_get_info() knows of each process, with
 * the names a person reads (users, groups, the cgroup path, how it ended).
 * A column table for people, one JSON object per line for scripts.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <grp.h>
#include <inttypes.h>
#include <pwd.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "pidfd.h"

#define INFO_REQUEST (PIDFD_INFO_CGROUPID | PIDFD_INFO_EXIT | \
		      PIDFD_INFO_COREDUMP | PIDFD_INFO_SUPPORTED_MASK)

struct proc {
	struct pidfd_info info;
	char cgroup[4096]; /* "" where it does not resolve */
};

enum ftype { F_NUM, F_STR };

/* A field writes its value into buf, or returns false where it is unknown. */
struct field {
	const char *name;
	enum ftype type;
	const char *help;
	bool (*get)(const struct proc *p, char *buf, size_t size);
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

static bool user_name(uint32_t uid, char *buf, size_t size)
{
	struct passwd pw, *res = NULL;
	char tmp[4096];

	if (getpwuid_r(uid, &pw, tmp, sizeof(tmp), &res) != 0 || !res)
		return false;
	snprintf(buf, size, "%s", res->pw_name);
	return true;
}

static bool group_name(uint32_t gid, char *buf, size_t size)
{
	struct group gr, *res = NULL;
	char tmp[4096];

	if (getgrgid_r(gid, &gr, tmp, sizeof(tmp), &res) != 0 || !res)
		return false;
	snprintf(buf, size, "%s", res->gr_name);
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
	if (!p->cgroup[0])
		return false;
	snprintf(b, n, "%s", p->cgroup);
	return true;
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
	static const struct {
		uint32_t bit;
		const char *name;
	} bits[] = {
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

static const struct field fields[] = {
	{ "PID", F_NUM, "process ID, in this PID namespace", get_pid },
	{ "TGID", F_NUM, "thread-group ID", get_tgid },
	{ "PPID", F_NUM, "parent process ID", get_ppid },
	{ "RUID", F_NUM, "real user ID", get_ruid },
	{ "RUSER", F_STR, "real user name", get_ruser },
	{ "EUID", F_NUM, "effective user ID", get_euid },
	{ "EUSER", F_STR, "effective user name", get_euser },
	{ "SUID", F_NUM, "saved user ID", get_suid },
	{ "SUSER", F_STR, "saved user name", get_suser },
	{ "FSUID", F_NUM, "file-system user ID", get_fsuid },
	{ "FSUSER", F_STR, "file-system user name", get_fsuser },
	{ "RGID", F_NUM, "real group ID", get_rgid },
	{ "RGROUP", F_STR, "real group name", get_rgroup },
	{ "EGID", F_NUM, "effective group ID", get_egid },
	{ "EGROUP", F_STR, "effective group name", get_egroup },
	{ "SGID", F_NUM, "saved group ID", get_sgid },
	{ "SGROUP", F_STR, "saved group name", get_sgroup },
	{ "FSGID", F_NUM, "file-system group ID", get_fsgid },
	{ "FSGROUP", F_STR, "file-system group name", get_fsgroup },
	{ "CGROUPID", F_NUM, "cgroup2 ID", get_cgroupid },
	{ "CGROUP", F_STR, "cgroup2 path", get_cgroup },
	{ "EXIT", F_STR, "how it ended, once reaped", get_exit },
	{ "EXITCODE", F_NUM, "wait status, as waitpid(2) gives it", get_exitcode },
	{ "COREDUMP", F_STR, "core dump: dumped, skip, user, root", get_coredump },
	{ "COREDUMPSIG", F_STR, "signal that dumped core", get_coredumpsig },
};

#define DEFAULT_FIELDS "PID,PPID,RUID,EUID,EUSER,EGID,EGROUP,CGROUP,EXIT"

void info_list_fields(FILE *f)
{
	for (size_t i = 0; i < ARRAY_SIZE(fields); i++)
		fprintf(f, " %-12s %s\n", fields[i].name, fields[i].help);
	fprintf(f, "Default: %s (JSON: all).\n", DEFAULT_FIELDS);
}

struct columns {
	size_t idx[ARRAY_SIZE(fields) * 4];
	size_t n;
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

/* --fields LIST, '+LIST' to add to the default; JSON shows all by default. */
static void columns_parse(struct columns *c, const char *list, bool json)
{
	c->n = 0;
	if (!list || list[0] == '+')
		columns_add(c, json ? "all" : DEFAULT_FIELDS);
	if (list)
		columns_add(c, list[0] == '+' ? list + 1 : list);
}

/* ------------------------------------------------------------------------
 * The cgroup path: the "0::" line of /proc/<pid>/cgroup, shown only if the
 * directory it names through the cgroup2 mount has the very id the pidfd
 * gave, so that a recycled pid or a moved process never shows a wrong one.
 */
static bool cgroup2_line(pid_t pid, char *rel, size_t size)
{
	char path[64], *line = NULL;
	size_t cap = 0;
	bool found = false;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/cgroup", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return false;
	while (!found && getline(&line, &cap, f) > 0) {
		line[strcspn(line, "\n")] = '\0';
		if (strncmp(line, "0::/", 4) == 0 && strlen(line + 3) < size) {
			strcpy(rel, line + 3);
			found = true;
		}
	}
	free(line);
	fclose(f);
	return found;
}

/* Where the cgroup2 hierarchy is mounted, and which cgroup is its root. */
static bool cgroup2_mount(char *mnt, char *root, size_t size)
{
	char *line = NULL, *f[5], *save, *p;
	size_t cap = 0;
	bool found = false;
	FILE *m = fopen("/proc/self/mountinfo", "re");

	if (!m)
		return false;
	while (!found && getline(&line, &cap, m) > 0) {
		p = strstr(line, " - cgroup2 ");
		if (!p)
			continue;
		*p = '\0';
		f[0] = strtok_r(line, " ", &save);
		for (int i = 1; i < 5 && f[i - 1]; i++)
			f[i] = strtok_r(NULL, " ", &save);
		if (f[0] && f[4] && strlen(f[3]) < size && strlen(f[4]) < size) {
			strcpy(root, f[3]);
			strcpy(mnt, f[4]);
			found = true;
		}
	}
	free(line);
	fclose(m);
	return found;
}

/* The cgroup2 id of a directory: its file handle, 8 bytes. */
static bool cgroup_id_of(const char *dir, uint64_t *id)
{
	struct {
		struct file_handle fh;
		unsigned char bytes[64];
	} h = { .fh.handle_bytes = sizeof(h.bytes) };
	int mnt_id;

	if (name_to_handle_at(AT_FDCWD, dir, &h.fh, &mnt_id, 0) < 0 ||
	    h.fh.handle_bytes != sizeof(*id))
		return false;
	memcpy(id, h.fh.f_handle, sizeof(*id));
	return true;
}

static void resolve_cgroup(pid_t pid, struct proc *p)
{
	char rel[2048], mnt[1024], root[1024], dir[4096];
	size_t rlen;
	uint64_t id;

	if (!has(p, PIDFD_INFO_CGROUPID) || pid <= 0 ||
	    !cgroup2_line(pid, rel, sizeof(rel)) ||
	    !cgroup2_mount(mnt, root, sizeof(mnt)))
		return;
	rlen = strcmp(root, "/") == 0 ? 0 : strlen(root);
	if (strncmp(rel, root, rlen) != 0 || (rel[rlen] && rel[rlen] != '/'))
		return; /* outside what is mounted here */
	snprintf(dir, sizeof(dir), "%s%s", mnt, rel + rlen);
	if (cgroup_id_of(dir, &id) && id == p->info.cgroupid)
		snprintf(p->cgroup, sizeof(p->cgroup), "%s", rel);
}

/* ------------------------------------------------------------------------
 * Output.
 */
static void print_json(const struct columns *c, const struct proc *p)
{
	char v[4096];

	putchar('{');
	for (size_t i = 0; i < c->n; i++) {
		const struct field *f = &fields[c->idx[i]];
		bool known = f->get(p, v, sizeof(v));

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
	puts("}");
}

/* Numbers right-aligned, text left-aligned, unknown values as "-". */
static void print_table(const struct columns *c, const struct proc *procs,
			size_t nprocs)
{
	size_t width[ARRAY_SIZE(((struct columns *)0)->idx)];
	char v[4096];

	for (size_t i = 0; i < c->n; i++) {
		width[i] = strlen(fields[c->idx[i]].name);
		for (size_t r = 0; r < nprocs; r++) {
			size_t l = fields[c->idx[i]].get(&procs[r], v, sizeof(v)) ?
				strlen(v) : 1;
			width[i] = l > width[i] ? l : width[i];
		}
	}
	for (size_t r = 0; r <= nprocs; r++) {
		for (size_t i = 0; i < c->n; i++) {
			const struct field *f = &fields[c->idx[i]];
			bool last = i + 1 == c->n;
			const char *s = f->name;

			if (r && !f->get(&procs[r - 1], v, sizeof(v)))
				strcpy(v, "-");
			if (r)
				s = v;
			if (f->type == F_NUM)
				printf("%*s", (int)width[i], s);
			else
				printf("%-*s", last ? 0 : (int)width[i], s);
			fputs(last ? "\n" : " ", stdout);
		}
	}
}

/* One process: 0, or an exit status after saying why not. */
static int query(const char *arg, struct proc *p)
{
	struct target t;
	int err;

	memset(p, 0, sizeof(*p));
	if (target_open(arg, &t) < 0) {
		err = errno;
		warn_open(arg, err);
		return exit_status_of(err);
	}
	p->info.mask = INFO_REQUEST;
	if (libpidfd_get_info(t.fd, &p->info, sizeof(p->info)) < 0) {
		err = errno;
		warn_target("cannot get information on", arg, err);
		target_close(&t);
		return exit_status_of(err);
	}
	resolve_cgroup(has(p, PIDFD_INFO_PID) ? (pid_t)p->info.pid : 0, p);
	target_close(&t);
	return EXIT_SUCCESS;
}

int cmd_info(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "fields", required_argument, NULL, 'o' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	const char *list = NULL;
	struct columns cols;
	struct proc *procs;
	size_t n = 0;
	bool json = false;
	int c, rc = EXIT_SUCCESS;

	while ((c = getopt_long(argc, argv, "jo:hV", opts, NULL)) != -1) {
		if (c == 'j')
			json = true;
		else if (c == 'o')
			list = optarg;
		else
			common_option(c);
	}
	if (optind >= argc)
		usage_error("info: no process specified");
	columns_parse(&cols, list, json);
	for (int a = optind; a < argc; a++)
		target_check(argv[a]);
	procs = calloc((size_t)(argc - optind), sizeof(*procs));
	if (!procs)
		abort();
	for (int a = optind; a < argc; a++) {
		int r = query(argv[a], &procs[n]);

		if (r == EXIT_SUCCESS && json)
			print_json(&cols, &procs[n]);
		else if (r == EXIT_SUCCESS)
			n++;
		else if (rc == EXIT_SUCCESS || r == EXIT_FAILURE)
			rc = r;
	}
	if (!json && n)
		print_table(&cols, procs, n);
	free(procs);
	return rc;
}
