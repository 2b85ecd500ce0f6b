/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Selection by name (--name, --full, --exact), as pgrep(1) selects, without
 * pgrep's race. "pidfd kill $(pgrep nginx)" signals whatever holds each pid
 * by the time kill runs; here every process is matched through /proc, then
 * a pidfd is opened on it, and its name is checked again through that
 * pidfd (libpidfd_proc_open(), which reads the pidfd's own process or
 * nothing). Only a process that matched both times is handed on: a pid
 * recycled between the match and the open names a newcomer, which is
 * judged by its own name, never acted on for the old owner's.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/parse.h"
#include "pidfd.h"

bool selection_option(struct selection *s, int c, const char *arg)
{
	if (c == 'N')
		s->pattern = arg;
	else if (c == 'f')
		s->full = true;
	else if (c == 'x')
		s->exact = true;
	else
		return false;
	return true;
}

void selection_ready(struct selection *s, const char *cmd)
{
	char *re;
	int err;

	if (!s->pattern) {
		if (s->full || s->exact)
			usage_error("%s: --full and --exact need --name", cmd);
		return;
	}
	/* pgrep's own warning: a comm is at most 15 bytes. */
	if (!s->full && !s->exact && strlen(s->pattern) > 15)
		warn_escaped("%s: a name longer than 15 bytes matches no command "
			     "name; --full matches the arguments", cmd);
	/* As pgrep: an extended regular expression; --exact anchors it whole. */
	if (asprintf(&re, s->exact ? "^(%s)$" : "%s", s->pattern) < 0)
		abort();
	err = regcomp(&s->re, re, REG_EXTENDED | REG_NOSUB);
	free(re);
	if (err) {
		char msg[128];

		regerror(err, &s->re, msg, sizeof(msg));
		usage_error("%s: invalid --name '%s': %s", cmd, s->pattern, msg);
	}
	s->active = true;
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

/*
 * What the pattern is matched against: the command name, or with --full
 * the arguments joined by spaces (the name where there are none: a kernel
 * thread, a zombie), as pgrep -f. False where the process is gone.
 */
static bool matches(const struct selection *s, const struct source *src)
{
	struct lpfd_stat st = { .have = 0 };
	char *buf = NULL, *args = NULL;
	ssize_t n;
	int fd = source_open(src, "stat");
	bool hit = false;

	if (fd < 0 || (n = read_whole(fd, &buf)) <= 0 ||
	    lpfd_parse_stat(buf, (size_t)n, &st) < 0 ||
	    !(st.have & LPFD_STAT_COMM)) {
		free(buf);
		return false;
	}
	free(buf);
	buf = NULL;
	if (s->full) {
		fd = source_open(src, "cmdline");
		if (fd < 0 || (n = read_whole(fd, &buf)) < 0) {
			free(buf);
			return false;
		}
		args = malloc((size_t)n + 1);
		if (!args)
			abort();
		if (lpfd_parse_cmdline(buf, (size_t)n, args, (size_t)n + 1) < 0) {
			free(args);
			args = NULL;
		}
		free(buf);
	}
	hit = regexec(&s->re, args ? args : st.comm, 0, NULL, 0) == 0;
	free(args);
	return hit;
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

/* An opened target: handed on if its own name matches, else closed. */
static void confirm(struct selection *s, struct target *t,
		    const struct select_ops *ops, void *arg)
{
	struct source src = { .root = -1, .pidfd = t->fd };

	if (!matches(s, &src)) {
		target_close(t);
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
		struct target t;

		if (d->d_name[0] < '1' || d->d_name[0] > '9')
			continue;
		src.pid = (pid_t)atoi(d->d_name);
		if (src.pid == getpid() || !matches(s, &src))
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

void selection_run(struct selection *s, const char *cmd, char **operands,
		   int n, const struct select_ops *ops, void *arg)
{
	if (n == 0) {
		scan_proc(s, cmd, ops, arg);
		return;
	}
	/* Among the processes named: each already a pidfd, checked through it. */
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

void selection_free(struct selection *s)
{
	if (s->active)
		regfree(&s->re);
	for (size_t i = 0; i < s->ntexts; i++)
		free(s->texts[i]);
	free(s->texts);
}
