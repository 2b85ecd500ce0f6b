/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Selection as pgrep(1) selects (by name, parent, ids, process group,
 * session, terminal, state, cgroup, namespaces, pidfile), without pgrep's
 * race. "pidfd kill $(pgrep nginx)" signals whatever holds each pid by
 * the time kill runs; here every process is matched through /proc, then
 * a pidfd is opened on it, and it is matched again through that pidfd
 * (libpidfd_proc_open(), which reads the pidfd's own process or
 * nothing). Only a process that matched both times is handed on: a pid
 * recycled between the match and the open names a newcomer, which is
 * judged by what it is, never acted on for the old owner's sake.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "../lib/parse.h"
#include "pidfd.h"

/* One element of a comma list as a number (a user's by name too), or -1. */
typedef long long (*id_parser)(const char *s);

static long long parse_id(const char *s)
{
	char *end;
	long long v;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoll(s, &end, 10);
	return errno || *end || v > UINT32_MAX ? -1 : v;
}

static long long parse_user_id(const char *s)
{
	struct passwd *pw = getpwnam(s);

	return pw ? (long long)pw->pw_uid : parse_id(s);
}

static long long parse_group_id(const char *s)
{
	struct group *gr = getgrnam(s);

	return gr ? (long long)gr->gr_gid : parse_id(s);
}

/* The terminal's device number, as stat's tty_nr has it: "pts/3", "tty1". */
static long long parse_terminal(const char *s)
{
	char path[PATH_MAX];
	struct stat st;

	snprintf(path, sizeof(path), "%s%s", s[0] == '/' ? "" : "/dev/", s);
	if (stat(path, &st) < 0 || !S_ISCHR(st.st_mode))
		return -1;
	return (long long)((minor(st.st_rdev) & 0xff) | (major(st.st_rdev) << 8) |
			   ((minor(st.st_rdev) & ~0xffu) << 12));
}

/* "0" in a process group or session list: pidfd's own, as pgrep. */
static long long parse_pgid(const char *s)
{
	long long v = parse_id(s);

	return v == 0 ? getpgrp() : v;
}

static long long parse_sid(const char *s)
{
	long long v = parse_id(s);

	return v == 0 ? getsid(0) : v;
}

/* "a,b,c": each added to l; a usage error names what is wrong. */
static void parse_list(struct id_list *l, const char *list, id_parser parse,
		       const char *what)
{
	char *copy = strdup(list), *save = NULL;

	if (!copy)
		abort();
	if (!*list || list[strlen(list) - 1] == ',')
		usage_error("invalid %s list: '%s'", what, list);
	for (char *e = strtok_r(copy, ",", &save); e; e = strtok_r(NULL, ",", &save)) {
		long long v = parse(e);

		if (v < 0)
			usage_error("unknown %s: '%s'", what, e);
		l->v = realloc(l->v, (l->n + 1) * sizeof(*l->v));
		if (!l->v)
			abort();
		l->v[l->n++] = v;
	}
	free(copy);
}

static bool in_list(const struct id_list *l, long long v)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i] == v)
			return true;
	return false;
}

/* The namespaces --ns compares, as pgrep's --nslist names them. */
static const char *const ns_names[] = { "ipc", "mnt",    "net", "pid",
					"user", "uts", "cgroup", "time" };

static void parse_nslist(struct selection *s, const char *list)
{
	char *copy = strdup(list), *save = NULL;

	if (!copy)
		abort();
	for (char *e = strtok_r(copy, ",", &save); e; e = strtok_r(NULL, ",", &save)) {
		size_t i = 0;

		while (i < ARRAY_SIZE(ns_names) && strcmp(ns_names[i], e) != 0)
			i++;
		if (i == ARRAY_SIZE(ns_names))
			usage_error("unknown namespace: '%s' (ipc, mnt, net, pid, "
				    "user, uts, cgroup, time)", e);
		s->nslist |= 1u << i;
	}
	free(copy);
	if (!s->nslist)
		usage_error("invalid namespace list: '%s'", list);
}

static void add_cgroups(struct selection *s, const char *list)
{
	char *copy = strdup(list), *save = NULL;

	if (!copy)
		abort();
	for (char *e = strtok_r(copy, ",", &save); e; e = strtok_r(NULL, ",", &save)) {
		s->cgroups = realloc(s->cgroups, (s->ncgroups + 1) * sizeof(char *));
		if (!s->cgroups || !(s->cgroups[s->ncgroups++] = strdup(e)))
			abort();
	}
	free(copy);
}

bool selection_option(struct selection *s, int c, const char *arg)
{
	switch (c) {
	case 'N': s->pattern = arg; break;
	case 'f': s->full = true; break;
	case 'x': s->exact = true; break;
	case 'i': s->icase = true; break;
	case 'v': s->inverse = true; break;
	case 'A': s->no_ancestors = true; break;
	case 'P': parse_list(&s->parents, arg, parse_id, "parent"); break;
	case 'U': parse_list(&s->uids, arg, parse_user_id, "user"); break;
	case 'G': parse_list(&s->gids, arg, parse_group_id, "group"); break;
	case 'g': parse_list(&s->pgroups, arg, parse_pgid, "process group"); break;
	case SEL_SESSION: parse_list(&s->sessions, arg, parse_sid, "session"); break;
	case SEL_TERMINAL: parse_list(&s->ttys, arg, parse_terminal, "terminal"); break;
	case 'F': s->pidfile = arg; break;
	case SEL_LOGPIDFILE: s->logpidfile = true; break;
	case SEL_RUNSTATES: s->runstates = arg; break;
	case SEL_NEWEST: s->newest = true; break;
	case SEL_OLDEST: s->oldest = true; break;
	case SEL_COUNT: s->count = true; break;
	case SEL_CGROUP: add_cgroups(s, arg); break;
	case SEL_NS: s->ns_pid = (pid_t)parse_id(arg);
		if (s->ns_pid <= 0)
			usage_error("invalid --ns process: '%s'", arg);
		break;
	case SEL_NSLIST: parse_nslist(s, arg); break;
	default: return false;
	}
	return true;
}

/*
 * A pattern of letters, digits and the like only (no regular expression
 * operator) longer than a command name can be (15 bytes) matches none:
 * pgrep's warning. An expression may match shorter text, and is let be.
 */
static bool literal_too_long(const char *pattern)
{
	return strlen(pattern) > 15 && !strpbrk(pattern, ".[]()*+?{}|^$\\");
}

/* The tool's ancestors (--ignore-ancestors): each parent read via its pidfd. */
static void find_ancestors(struct selection *s)
{
	pid_t pid = getppid();

	while (pid > 0 && !in_list(&s->ancestors, pid)) {
		struct libpidfd_info info = { .mask = PIDFD_INFO_PID };
		int fd = libpidfd_open(pid, 0);

		s->ancestors.v = realloc(s->ancestors.v,
					 (s->ancestors.n + 1) * sizeof(long long));
		if (!s->ancestors.v)
			abort();
		s->ancestors.v[s->ancestors.n++] = pid;
		if (fd < 0)
			break;
		pid = libpidfd_get_info(fd, &info, sizeof(info)) == 0 &&
		      (info.mask & PIDFD_INFO_PID) ? (pid_t)info.ppid : 0;
		close(fd);
	}
}

static bool ns_inode(int dir, pid_t pid, int pidfd, const char *name,
		     unsigned long long *ino);

/* --ns: the namespaces of that process, read through its pidfd. */
static void ns_reference(struct selection *s, const char *cmd)
{
	int fd = libpidfd_open(s->ns_pid, 0);
	bool every = !s->nslist;

	if (fd < 0) {
		warn_escaped("%s: --ns %d: %s", cmd, (int)s->ns_pid,
			     strerror(errno));
		exit(EXIT_FAILURE);
	}
	if (every)
		s->nslist = (1u << ARRAY_SIZE(ns_names)) - 1;
	for (size_t i = 0; i < ARRAY_SIZE(ns_names); i++) {
		char name[16];

		snprintf(name, sizeof(name), "ns/%s", ns_names[i]);
		if (!(s->nslist & (1u << i)) ||
		    ns_inode(-1, 0, fd, name, &s->ns[i]))
			continue;
		/* By default, the namespaces this kernel has (time: 5.6). */
		if (every && errno == ENOENT) {
			s->nslist &= ~(1u << i);
			continue;
		}
		warn_escaped("%s: --ns %d: cannot read its %s namespace: %s", cmd,
			     (int)s->ns_pid, ns_names[i], strerror(errno));
		exit(EXIT_FAILURE);
	}
	close(fd);
}

void selection_ready(struct selection *s, const char *cmd)
{
	char *re;
	int err;

	if (s->newest && s->oldest)
		usage_error("%s: --newest and --oldest: choose one", cmd);
	if (s->logpidfile && !s->pidfile)
		usage_error("%s: --logpidfile needs --pidfile", cmd);
	if (s->nslist && !s->ns_pid)
		usage_error("%s: --nslist needs --ns", cmd);
	if (s->inverse && s->pidfile)
		usage_error("%s: --inverse and --pidfile: choose one", cmd);
	s->active = s->pattern || s->parents.n || s->uids.n || s->gids.n ||
		    s->pgroups.n || s->sessions.n || s->ttys.n || s->runstates ||
		    s->pidfile || s->ncgroups || s->ns_pid || s->inverse ||
		    s->no_ancestors || s->newest || s->oldest || s->count;
	if (s->ns_pid)
		ns_reference(s, cmd);
	if (s->no_ancestors)
		find_ancestors(s);
	if (!s->pattern) {
		if (s->full || s->exact)
			usage_error("%s: --full and --exact need --name", cmd);
		if (s->icase)
			usage_error("%s: --ignore-case needs --name", cmd);
		return;
	}
	/* pgrep's own warning: a comm is at most 15 bytes. */
	if (!s->full && literal_too_long(s->pattern))
		warn_escaped("%s: a name longer than 15 bytes matches no command "
			     "name; --full matches the arguments", cmd);
	/* As pgrep: an extended regular expression; --exact anchors it whole. */
	if (asprintf(&re, s->exact ? "^(%s)$" : "%s", s->pattern) < 0)
		abort();
	err = regcomp(&s->re, re, REG_EXTENDED | REG_NOSUB |
			       (s->icase ? REG_ICASE : 0));
	free(re);
	if (err) {
		char msg[128];

		regerror(err, &s->re, msg, sizeof(msg));
		usage_error("%s: invalid --name '%s': %s", cmd, s->pattern, msg);
	}
	s->compiled = true;
}

/* A file read whole, NUL-terminated (closes fd): its length, or -1. */
static ssize_t read_whole(int fd, char **out)
{
	size_t len = 0, cap = 4096;
	char *buf = malloc(cap);
	ssize_t n;

	if (!buf)
		abort();
	while ((n = read(fd, buf + len, cap - 1 - len)) > 0) {
		len += (size_t)n;
		if (len + 1 == cap && !(buf = realloc(buf, cap *= 2)))
			abort();
	}
	close(fd);
	if (n < 0) {
		free(buf);
		return -1;
	}
	buf[len] = '\0';
	*out = buf;
	return (ssize_t)len;
}

/* Where a process's files are read: by pid (root) or through a pidfd. */
struct source {
	int root;  /* the procfs root, or -1 */
	pid_t pid;
	int pidfd;
};

static int source_open(const struct source *src, const char *name)
{
	char path[32];

	if (src->root < 0)
		return libpidfd_proc_open(src->pidfd, name, O_RDONLY);
	snprintf(path, sizeof(path), "%d/%s", (int)src->pid, name);
	return openat(src->root, path, O_RDONLY | O_CLOEXEC);
}

/* A file of the process read whole: its length, or -1. */
static ssize_t source_read(const struct source *src, const char *name,
			   char **buf)
{
	int fd = source_open(src, name);

	*buf = NULL;
	return fd < 0 ? -1 : read_whole(fd, buf);
}

static bool ns_inode(int dir, pid_t pid, int pidfd, const char *name,
		     unsigned long long *ino)
{
	struct source src = { .root = dir, .pid = pid, .pidfd = pidfd };
	int fd = source_open(&src, name);
	struct stat st;
	bool ok = fd >= 0 && fstat(fd, &st) == 0;

	if (fd >= 0)
		close(fd);
	if (ok)
		*ino = (unsigned long long)st.st_ino;
	return ok;
}

/* In every namespace --ns compares, the same as its process. */
static bool same_namespaces(const struct selection *s, const struct source *src)
{
	for (size_t i = 0; i < ARRAY_SIZE(ns_names); i++) {
		unsigned long long ino;
		char name[16];

		snprintf(name, sizeof(name), "ns/%s", ns_names[i]);
		if ((s->nslist & (1u << i)) &&
		    (!ns_inode(src->root, src->pid, src->pidfd, name, &ino) ||
		     ino != s->ns[i]))
			return false;
	}
	return true;
}

static bool in_cgroups(const struct selection *s, const struct source *src)
{
	char *buf, path[LPFD_PATH_MAX];
	ssize_t n = source_read(src, "cgroup", &buf);
	bool hit = false;

	if (n >= 0 && lpfd_parse_cgroup(buf, (size_t)n, path, sizeof(path)) == 0)
		for (size_t i = 0; i < s->ncgroups && !hit; i++)
			hit = strcmp(s->cgroups[i], path) == 0;
	free(buf);
	return hit;
}

/* --uid, --group: the real ids of /proc/<pid>/status. */
static bool of_ids(const struct selection *s, const struct source *src)
{
	struct lpfd_status st = { .have = 0 };
	char *buf;
	ssize_t n = source_read(src, "status", &buf);
	bool ok = n >= 0 && lpfd_parse_status(buf, (size_t)n, &st) == 0 &&
		  (st.have & LPFD_ST_UID) && (st.have & LPFD_ST_GID);

	free(buf);
	return ok && (!s->uids.n || in_list(&s->uids, st.uid[0])) &&
	       (!s->gids.n || in_list(&s->gids, st.gid[0]));
}

/*
 * The pattern against the command name, or with --full the arguments
 * joined by spaces (the name where there are none: a kernel thread, a
 * zombie), as pgrep -f.
 */
static bool name_matches(const struct selection *s, const struct source *src,
			 const char *comm)
{
	char *buf, *args = NULL;
	ssize_t n;
	bool hit;

	if (!s->compiled)
		return true;
	if (s->full) {
		if ((n = source_read(src, "cmdline", &buf)) < 0)
			return false;
		if (!(args = malloc((size_t)n + 1)))
			abort();
		if (lpfd_parse_cmdline(buf, (size_t)n, args, (size_t)n + 1) < 0) {
			free(args);
			args = NULL;
		}
		free(buf);
	}
	hit = regexec(&s->re, args ? args : comm, 0, NULL, 0) == 0;
	free(args);
	return hit;
}

/* Every criterion but --inverse's, from the stat already read. */
static bool criteria_hold(const struct selection *s, const struct source *src,
			  const struct lpfd_stat *st)
{
	return (!s->parents.n || in_list(&s->parents, st->ppid)) &&
	       (!s->pgroups.n || in_list(&s->pgroups, st->pgrp)) &&
	       (!s->sessions.n || in_list(&s->sessions, st->session)) &&
	       (!s->ttys.n || in_list(&s->ttys, st->tty)) &&
	       (!s->runstates || ((st->have & LPFD_STAT_STATE) &&
				  strchr(s->runstates, st->state))) &&
	       name_matches(s, src, st->comm) &&
	       (!s->uids.n && !s->gids.n ? true : of_ids(s, src)) &&
	       (!s->ncgroups || in_cgroups(s, src)) &&
	       (!s->ns_pid || same_namespaces(s, src));
}

/*
 * Whether the process is selected; its start time (clock ticks after
 * boot) in *start. False where it is gone, or its stat unreadable.
 */
static bool matches(const struct selection *s, const struct source *src,
		    unsigned long long *start)
{
	struct lpfd_stat st = { .have = 0 };
	char *buf;
	ssize_t n = source_read(src, "stat", &buf);
	bool ok = n > 0 && lpfd_parse_stat(buf, (size_t)n, &st) == 0 &&
		  (st.have & (LPFD_STAT_COMM | LPFD_STAT_PS)) ==
			  (LPFD_STAT_COMM | LPFD_STAT_PS);

	free(buf);
	if (!ok || (s->no_ancestors && in_list(&s->ancestors, src->pid)))
		return false;
	*start = st.start;
	return criteria_hold(s, src, &st) != s->inverse;
}

/* The selection keeps the text of every pid it hands on. */
static const char *keep_text(struct selection *s, const char *text)
{
	if (s->ntexts == s->cap_texts) {
		s->cap_texts = s->cap_texts ? 2 * s->cap_texts : 64;
		s->texts = realloc(s->texts, s->cap_texts * sizeof(*s->texts));
		if (!s->texts)
			abort();
	}
	if (!(s->texts[s->ntexts] = strdup(text)))
		abort();
	return s->texts[s->ntexts++];
}

static void selection_fail(struct selection *s, int err)
{
	if (s->rc == EXIT_SUCCESS || exit_status_of(err) == EXIT_FAILURE)
		s->rc = exit_status_of(err);
}

/*
 * --newest, --oldest: whether a process that started at start, pid, comes
 * before the one kept; as pgrep, equal start times go by pid.
 */
static bool better(const struct selection *s, unsigned long long start,
		   pid_t pid)
{
	if (!s->have_best)
		return true;
	if (start != s->best_start)
		return s->newest ? start > s->best_start : start < s->best_start;
	return s->newest ? pid > s->best.pid : pid < s->best.pid;
}

/* An opened target: handed on if it matches through its pidfd, else closed. */
static void confirm(struct selection *s, struct target *t,
		    const struct select_ops *ops, void *arg)
{
	struct source src = { .root = -1, .pid = t->pid, .pidfd = t->fd };
	unsigned long long start;

	if (!matches(s, &src, &start)) {
		target_close(t);
		return;
	}
	if (s->newest || s->oldest) {
		if (!better(s, start, t->pid)) {
			target_close(t);
			return;
		}
		if (s->have_best)
			target_close(&s->best);
		s->best = *t;
		s->best_start = start;
		s->have_best = true;
		return;
	}
	s->matched++;
	ops->take(t, arg);
}

/* Open, making room where descriptors run out: 0, or -1 with errno. */
static int open_with_room(const char *text, struct target *t,
			  const struct select_ops *ops, void *arg)
{
	int r = target_open(text, t);

	if (r < 0 && (errno == EMFILE || errno == ENFILE) && ops->release &&
	    ops->release(arg))
		r = target_open(text, t);
	return r;
}

/* Every process of /proc but pidfd itself: matched by pid, then confirmed. */
static void scan_proc(struct selection *s, const char *cmd,
		      const struct select_ops *ops, void *arg)
{
	DIR *dir = procfs_list();
	struct dirent *d;

	if (!dir) {
		fprintf(stderr, "pidfd: %s: cannot list processes: %s\n", cmd,
			proc_trouble() ?: strerror(errno ? errno : ENOSYS));
		s->rc = EXIT_FAILURE;
		return;
	}
	while ((d = readdir(dir))) {
		struct source src = { .root = dirfd(dir), .pidfd = -1 };
		unsigned long long start;
		struct target t;

		if (d->d_name[0] < '1' || d->d_name[0] > '9')
			continue;
		src.pid = (pid_t)atoi(d->d_name);
		if (src.pid == getpid() || !matches(s, &src, &start))
			continue;
		if (open_with_room(keep_text(s, d->d_name), &t, ops, arg) < 0) {
			/* Gone since the match: nothing to act on. */
			if (errno != ESRCH) {
				warn_open(t.arg, errno);
				selection_fail(s, errno);
			}
			continue;
		}
		confirm(s, &t, ops, arg);
	}
	closedir(dir);
}

/* The pid a pidfile names (its first line, as pgrep reads it), or -1. */
static pid_t pidfile_pid(int fd)
{
	char buf[32], *end;
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
	long v;

	if (n <= 0)
		return -1;
	buf[n] = '\0';
	errno = 0;
	v = strtol(buf, &end, 10);
	if (errno || end == buf || v <= 0 || v > INT_MAX ||
	    (*end && !isspace((unsigned char)*end)))
		return -1;
	return (pid_t)v;
}

/* Whether descriptor name of the process has a lock (its fdinfo says so). */
static bool fd_has_lock(int pidfd, const char *name)
{
	char path[8 + sizeof(((struct dirent *)0)->d_name)], *buf;
	struct source src = { .root = -1, .pidfd = pidfd };
	ssize_t n;
	bool lock;

	snprintf(path, sizeof(path), "fdinfo/%s", name);
	n = source_read(&src, path, &buf);
	lock = n > 0 && (strncmp(buf, "lock:", 5) == 0 || strstr(buf, "\nlock:"));
	free(buf);
	return lock;
}

/*
 * An flock(2) or open file description lock names no pid: the process's
 * own descriptors, read through its pidfd, must hold the file with a
 * lock on it ("lock:" in its fdinfo, Linux 4.1).
 */
static bool holds_lock(int pidfd, const struct stat *file)
{
	int fd = libpidfd_proc_open(pidfd, "fd", O_RDONLY | O_DIRECTORY);
	DIR *dir = fd < 0 ? NULL : fdopendir(fd);
	struct dirent *d;
	bool held = false;

	if (!dir) {
		if (fd >= 0)
			close(fd);
		return false;
	}
	while (!held && (d = readdir(dir))) {
		struct stat st;

		held = d->d_name[0] != '.' &&
		       fstatat(dirfd(dir), d->d_name, &st, 0) == 0 &&
		       st.st_dev == file->st_dev && st.st_ino == file->st_ino &&
		       fd_has_lock(pidfd, d->d_name);
	}
	closedir(dir);
	return held;
}

/*
 * Whether the process holds a lock on the pidfile: F_GETLK names the
 * holder of a conflicting lock (fcntl and lockf locks) by its pid in our
 * namespace; other locks are looked for among its descriptors. Read after
 * the pidfd was opened, and followed by a check that the pidfd's process
 * still has that pid, it can only be that process: a pid names one live
 * process at a time.
 */
static bool locked_by(int fd, pid_t pid, int pidfd)
{
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
	struct stat st;

	if (fcntl(fd, F_GETLK, &fl) == 0 && fl.l_type != F_UNLCK &&
	    fl.l_pid == pid)
		return true;
	return fstat(fd, &st) == 0 && holds_lock(pidfd, &st);
}

/*
 * --pidfile: the pidfd is opened first, on the pid the file names; then
 * the file, opened again, must still name it (and with --logpidfile be
 * locked by it), and the pidfd's process must still hold that pid. A
 * daemon gone and its pid reused before the open fails the lock; one
 * gone after it leaves a pidfd that signals nobody.
 */
static void from_pidfile(struct selection *s, const char *cmd,
			 const struct select_ops *ops, void *arg)
{
	int fd = open(s->pidfile, O_RDONLY | O_CLOEXEC), again = -1;
	pid_t pid = fd < 0 ? -1 : pidfile_pid(fd);
	const char *why = NULL;
	char text[16];
	struct target t = { .fd = -1 };

	if (fd < 0)
		why = strerror(errno);
	else if (pid < 0)
		why = "names no process";
	if (!why) {
		snprintf(text, sizeof(text), "%d", (int)pid);
		if (target_open(keep_text(s, text), &t) < 0)
			why = errno == ESRCH ? "names no running process" :
					       strerror(errno);
	}
	if (!why && ((again = open(s->pidfile, O_RDONLY | O_CLOEXEC)) < 0 ||
		     pidfile_pid(again) != pid))
		why = "changed while read";
	if (!why && s->logpidfile && !locked_by(again, pid, t.fd))
		why = "not locked by the process it names";
	if (!why && libpidfd_getpid(t.fd) != pid)
		why = "names no running process";
	if (fd >= 0)
		close(fd);
	if (again >= 0)
		close(again);
	if (why) {
		if (t.fd >= 0)
			target_close(&t);
		warn_escaped("%s: pidfile %s: %s", cmd, s->pidfile, why);
		s->rc = EXIT_FAILURE;
		return;
	}
	confirm(s, &t, ops, arg);
}

void selection_run(struct selection *s, const char *cmd, char **operands,
		   int n, const struct select_ops *ops, void *arg)
{
	if (s->pidfile && n)
		usage_error("%s: --pidfile and processes: choose one", cmd);
	if (s->pidfile) {
		from_pidfile(s, cmd, ops, arg);
	} else if (n == 0) {
		scan_proc(s, cmd, ops, arg);
	} else {
		/* Among the processes named: each a pidfd, checked through it. */
		for (int i = 0; i < n; i++) {
			struct target t;

			if (open_with_room(operands[i], &t, ops, arg) < 0) {
				warn_open(operands[i], errno);
				selection_fail(s, errno);
				continue;
			}
			confirm(s, &t, ops, arg);
		}
	}
	if (s->have_best) {
		s->have_best = false;
		s->matched++;
		ops->take(&s->best, arg);
	}
	if (s->count)
		printf("%zu\n", s->matched);
}

void selection_free(struct selection *s)
{
	struct id_list *lists[] = { &s->parents, &s->uids, &s->gids, &s->pgroups,
				    &s->sessions, &s->ttys, &s->ancestors };

	if (s->compiled)
		regfree(&s->re);
	for (size_t i = 0; i < ARRAY_SIZE(lists); i++)
		free(lists[i]->v);
	for (size_t i = 0; i < s->ncgroups; i++)
		free(s->cgroups[i]);
	free(s->cgroups);
	for (size_t i = 0; i < s->ntexts; i++)
		free(s->texts[i]);
	free(s->texts);
}
