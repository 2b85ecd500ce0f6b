/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Running the programs of a build (the pidfd tool, the examples) from a
 * test: their paths follow from the test's own (BUILD/tests/test-x gives
 * BUILD/pidfd), their output is captured, their exit status returned.
 */
#ifndef LIBPIDFD_TEST_CLI_H
#define LIBPIDFD_TEST_CLI_H

#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <poll.h>
#include <sys/wait.h>

#include "harness.h"

struct cli_out {
	char out[65536];
	char err[16384];
	int status; /* as waitpid() gives it */
};

/* BUILD/<rel>, where BUILD is the directory above this test's own. */
static inline const char *cli_path(const char *rel)
{
	static char path[PATH_MAX];
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	ASSERT_TRUE(n > 0);
	self[n] = '\0';
	snprintf(path, sizeof(path), "%s/%s", dirname(dirname(self)), rel);
	return path;
}

/* Read both pipes to their end, whichever writes first. */
static inline void cli_drain(int out, int err, struct cli_out *o)
{
	size_t lo = 0, le = 0;
	struct pollfd p[2] = { { out, POLLIN, 0 }, { err, POLLIN, 0 } };

	while (p[0].fd >= 0 || p[1].fd >= 0) {
		ASSERT_TRUE(poll(p, 2, -1) >= 0 || errno == EINTR);
		for (int i = 0; i < 2; i++) {
			char *buf = i ? o->err : o->out;
			size_t *len = i ? &le : &lo, cap = i ? sizeof(o->err) : sizeof(o->out);
			ssize_t r;

			if (p[i].fd < 0 || !p[i].revents)
				continue;
			r = read(p[i].fd, buf + *len, cap - 1 - *len);
			if (r <= 0) {
				close(p[i].fd);
				p[i].fd = -1;
				continue;
			}
			*len += (size_t)r;
			if (*len == cap - 1)
				FAIL("output too long");
		}
	}
	o->out[lo] = o->err[le] = '\0';
}

/*
 * Run argv (argv[0] relative to the build directory), with pre() called in
 * the child just before exec (it may start processes that the program
 * inherits as children, and fill in argv). The exit status, -1 on a signal.
 */
static inline int cli_run_pre(struct cli_out *o, char **argv,
			      void (*pre)(char **argv, void *arg), void *arg)
{
	int out[2], err[2];
	const char *prog = cli_path(argv[0]);
	pid_t pid;

	ASSERT_EQ(pipe2(out, O_CLOEXEC), 0);
	ASSERT_EQ(pipe2(err, O_CLOEXEC), 0);
	fflush(stdout);
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		dup2(out[1], 1);
		dup2(err[1], 2);
		if (pre)
			pre(argv, arg);
		execv(prog, argv);
		_exit(127);
	}
	close(out[1]);
	close(err[1]);
	cli_drain(out[0], err[0], o);
	ASSERT_EQ(waitpid(pid, &o->status, 0), pid);
	return WIFEXITED(o->status) ? WEXITSTATUS(o->status) : -1;
}

static inline int cli_run(struct cli_out *o, char **argv)
{
	return cli_run_pre(o, argv, NULL, NULL);
}

#define CLI(o, ...) cli_run((o), (char *[]){ __VA_ARGS__, NULL })

/* The value of "key": in a one-line JSON object, as text ("" if absent). */
static inline const char *json_get(const char *obj, const char *key)
{
	static char val[512];
	char pat[80];
	const char *p, *e;

	snprintf(pat, sizeof(pat), "\"%s\":", key);
	p = strstr(obj, pat);
	val[0] = '\0';
	if (!p)
		return val;
	p += strlen(pat);
	if (*p == '"') {
		e = strchr(p + 1, '"');
		p++;
	} else {
		e = p + strcspn(p, ",}");
	}
	if (e && (size_t)(e - p) < sizeof(val)) {
		memcpy(val, p, (size_t)(e - p));
		val[e - p] = '\0';
	}
	return val;
}

/* Line n (from 0) of a text, copied; "" past the end. */
static inline const char *line_of(const char *text, int n)
{
	static char line[4096];
	const char *e;

	while (n-- > 0 && text) {
		text = strchr(text, '\n');
		text = text ? text + 1 : NULL;
	}
	line[0] = '\0';
	if (!text)
		return line;
	e = strchr(text, '\n');
	if (!e)
		e = text + strlen(text);
	if ((size_t)(e - text) < sizeof(line)) {
		memcpy(line, text, (size_t)(e - text));
		line[e - text] = '\0';
	}
	return line;
}

#endif
