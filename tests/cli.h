/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Running the programs of a build (the pidfd tool, the examples) from a
 * test: their paths follow from the test's own (BUILD/tests/test-x gives
 * BUILD/pidfd), their output is captured, their exit status returned.
 */
#ifndef LIBPIDFD_TEST_CLI_H
#define LIBPIDFD_TEST_CLI_H

#include <ctype.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include "harness.h"
#include "util.h"

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
 * Start argv (argv[0] relative to the build directory, unless absolute),
 * with pre() called
 * in the child just before exec (it may start processes that the program
 * inherits as children, and fill in argv). Its pid; the read ends of its
 * stdout and stderr in *out and *err.
 */
static inline pid_t cli_start(char **argv,
			      void (*pre)(char **argv, void *arg), void *arg,
			      int *out, int *err)
{
	int o[2], e[2];
	/* An absolute path is another program's: procps's pgrep. */
	const char *prog = argv[0][0] == '/' ? argv[0] : cli_path(argv[0]);
	pid_t pid;

	ASSERT_EQ(pipe2(o, O_CLOEXEC), 0);
	ASSERT_EQ(pipe2(e, O_CLOEXEC), 0);
	fflush(stdout);
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		dup2(o[1], 1);
		dup2(e[1], 2);
		if (pre)
			pre(argv, arg);
		execv(prog, argv);
		_exit(127);
	}
	close(o[1]);
	close(e[1]);
	*out = o[0];
	*err = e[0];
	return pid;
}

/* The exit status of a started program, -1 on a signal. */
static inline int cli_wait(struct cli_out *o, pid_t pid)
{
	ASSERT_EQ(waitpid(pid, &o->status, 0), pid);
	return WIFEXITED(o->status) ? WEXITSTATUS(o->status) : -1;
}

/* Run argv as cli_start() does, to its end: its output and exit status. */
static inline int cli_run_pre(struct cli_out *o, char **argv,
			      void (*pre)(char **argv, void *arg), void *arg)
{
	int out, err;
	pid_t pid = cli_start(argv, pre, arg, &out, &err);

	cli_drain(out, err, o);
	return cli_wait(o, pid);
}

static inline int cli_run(struct cli_out *o, char **argv)
{
	return cli_run_pre(o, argv, NULL, NULL);
}

#define CLI(o, ...) cli_run((o), (char *[]){ __VA_ARGS__, NULL })
/* Run the tool as CLI(); it must fail (exit status 1), saying want. */
#define CLI_FAILS(o, want, ...)                                              \
	do {                                                                 \
		ASSERT_EQ(CLI((o), __VA_ARGS__), 1);                         \
		if (!strstr((o)->err, (want)))                               \
			FAIL("'%s' not said: %s", (want), (o)->err);         \
	} while (0)

/*
 * A program stopped at its system calls (seccomp user notification):
 * cli_trap_pre(), a cli_start() pre hook, installs the filter in the
 * program before its exec and hands the listener over; cli_trap_serve(),
 * run in a thread of the test, takes it and calls hook at each stop
 * until the program is gone. Both take the struct cli_trap as arg.
 */
struct cli_trap {
	long nr, nr2; /* the system calls that stop */
	util_stop_hook hook;
	void *arg;
	int sock[2]; /* the listener handed over */
};

static inline void cli_trap_init(struct cli_trap *t, long nr, long nr2,
				 util_stop_hook hook, void *arg)
{
	*t = (struct cli_trap){ nr, nr2, hook, arg, { -1, -1 } };
	ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, t->sock), 0);
}

/*
 * The listener goes over a socket (SCM_RIGHTS), which every kernel has
 * (pidfd_getfd() would take Linux 5.6): once sent it is the socket's, so
 * the program may exec, closing its own copy, before the test takes it.
 */
struct cli_fd_message {
	struct msghdr m;
	struct iovec iov;
	char byte;
	union { /* aligned for the struct cmsghdr it holds */
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} control;
};

static inline void cli_fd_message_init(struct cli_fd_message *f)
{
	memset(f, 0, sizeof(*f));
	f->iov = (struct iovec){ &f->byte, 1 };
	f->m.msg_iov = &f->iov;
	f->m.msg_iovlen = 1;
	f->m.msg_control = f->control.buf;
	f->m.msg_controllen = sizeof(f->control.buf);
}

static inline bool cli_send_fd(int sock, int fd)
{
	struct cli_fd_message f;
	struct cmsghdr *cm;

	cli_fd_message_init(&f);
	cm = CMSG_FIRSTHDR(&f.m);
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &fd, sizeof(int));
	return sendmsg(sock, &f.m, 0) == 1;
}

static inline int cli_receive_fd(int sock)
{
	struct cli_fd_message f;
	struct cmsghdr *cm;
	int fd;

	cli_fd_message_init(&f);
	ASSERT_EQ(recvmsg(sock, &f.m, MSG_CMSG_CLOEXEC), 1);
	cm = CMSG_FIRSTHDR(&f.m);
	ASSERT_TRUE(cm != NULL && cm->cmsg_level == SOL_SOCKET &&
		    cm->cmsg_type == SCM_RIGHTS);
	memcpy(&fd, CMSG_DATA(cm), sizeof(int));
	return fd;
}

static inline void cli_trap_pre(char **argv, void *arg)
{
	struct cli_trap *t = arg;
	int listener;

	(void)argv;
	listener = util_notif_filter2(t->nr, t->nr2);
	if (listener < 0 || !cli_send_fd(t->sock[1], listener))
		_exit(91);
}

static inline void *cli_trap_serve(void *arg)
{
	struct cli_trap *t = arg;
	int listener = cli_receive_fd(t->sock[0]);

	util_notif_serve(&listener, t->hook, t->arg); /* until it is gone */
	return NULL;
}

/*
 * A pid recycled under a stopped program: the victim, a child of the
 * test, is killed and reaped, and a newcomer (another uid) started at
 * its pid, which cli_reuse_now() does once.
 */
struct cli_reuse {
	int victim_fd;
	pid_t victim;
	struct util_gen gen;
	int newcomer_fd;
	bool reused;
};

static inline void cli_reuse_now(struct cli_reuse *r)
{
	if (r->reused)
		return;
	util_kill_reap_keep_fd(r->victim_fd);
	ASSERT_EQ(util_spawn_gen(&r->gen, 2222, r->victim, &r->newcomer_fd),
		  r->victim);
	r->reused = true;
}

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
	while (*p == ' ')
		p++;
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

/*
 * A JSON checker (RFC 8259), strict: exactly one value, strings of valid
 * UTF-8 without raw control bytes. The end of what it took, or NULL.
 */
static inline const char *jv_value(const char *p, int depth);

static inline const char *jv_ws(const char *p)
{
	while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')
		p++;
	return p;
}

static inline size_t jv_utf8(const unsigned char *s)
{
	size_t n = s[0] < 0xc2 ? 0 : s[0] < 0xe0 ? 2 : s[0] < 0xf0 ? 3 :
		   s[0] < 0xf5 ? 4 : 0;

	for (size_t i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] >= 0xa0) ||
	    (s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] >= 0x90))
		return 0;
	return n;
}

static inline const char *jv_string(const char *p)
{
	if (*p++ != '"')
		return NULL;
	while (*p != '"') {
		unsigned char c = (unsigned char)*p;
		size_t n;

		if (c < 0x20)
			return NULL;
		if (c == '\\') {
			p++;
			if (*p == 'u') {
				for (int i = 1; i <= 4; i++)
					if (!isxdigit((unsigned char)p[i]))
						return NULL;
				p += 5;
			} else if (*p && strchr("\"\\/bfnrt", *p)) {
				p++;
			} else {
				return NULL;
			}
		} else if (c < 0x80) {
			p++;
		} else if ((n = jv_utf8((const unsigned char *)p))) {
			p += n;
		} else {
			return NULL;
		}
	}
	return p + 1;
}

static inline const char *jv_number(const char *p)
{
	const char *s;

	if (*p == '-')
		p++;
	if (*p == '0')
		p++;
	else if (*p >= '1' && *p <= '9')
		while (isdigit((unsigned char)*p))
			p++;
	else
		return NULL;
	if (*p == '.') {
		s = ++p;
		while (isdigit((unsigned char)*p))
			p++;
		if (p == s)
			return NULL;
	}
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		s = p;
		while (isdigit((unsigned char)*p))
			p++;
		if (p == s)
			return NULL;
	}
	return p;
}

/* An object or an array: members (object) or elements, comma-separated. */
static inline const char *jv_container(const char *p, int depth, bool object)
{
	char close = object ? '}' : ']';

	p = jv_ws(p + 1);
	if (*p == close)
		return p + 1;
	for (;;) {
		if (object) {
			if (!(p = jv_string(p)))
				return NULL;
			p = jv_ws(p);
			if (*p++ != ':')
				return NULL;
		}
		if (!(p = jv_value(p, depth + 1)))
			return NULL;
		p = jv_ws(p);
		if (*p == close)
			return p + 1;
		if (*p++ != ',')
			return NULL;
		p = jv_ws(p);
	}
}

static inline const char *jv_value(const char *p, int depth)
{
	p = jv_ws(p);
	if (depth > 64)
		return NULL;
	if (*p == '{' || *p == '[')
		return jv_container(p, depth, *p == '{');
	if (*p == '"')
		return jv_string(p);
	if (!strncmp(p, "true", 4) || !strncmp(p, "null", 4))
		return p + 4;
	if (!strncmp(p, "false", 5))
		return p + 5;
	return jv_number(p);
}

static inline bool json_valid(const char *text)
{
	const char *end = jv_value(text, 0);

	return end && *jv_ws(end) == '\0';
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

/* ------------------------------------------------------------------------
 * Children that the tool selects and signals.
 */

/* A child's signals as a fresh program's: none ignored, none blocked. */
static inline void cli_default_signals(void)
{
	sigset_t none;

	for (int sig = 1; sig < NSIG; sig++)
		signal(sig, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

/* Whether a child still runs (its pidfd polls unreadable: not exited). */
static inline bool cli_alive(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, 0) == 0;
}

/* How a child ended, once it has (reaped): the signal that killed it, or -1. */
static inline int cli_killed_by(int fd)
{
	siginfo_t si;

	ASSERT_EQ(waitid(P_PIDFD, (id_t)fd, &si, WEXITED), 0);
	return si.si_code == CLD_KILLED ? si.si_status : -1;
}

#endif
