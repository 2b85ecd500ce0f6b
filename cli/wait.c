/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * pidfd wait: open a pidfd for every process first, then poll() on the
 * pidfds (never on pids), and tell how each process ended as it happens.
 *
 * Where the status comes from: a child of the tool (one started before
 * pidfd was exec'd) is reaped with waitid(P_PIDFD), which always knows.
 * Another process's, while it is a zombie, is its /proc stat's exit_code,
 * read through the pidfd, where the kernel shows it to us. Once its parent
 * has reaped it, the status is known only on kernels with PIDFD_INFO_EXIT
 * (6.15): a pidfd polls readable at the exit and hangs up at the reap, so
 * a zombie whose status is not shown is given REAP_GRACE_MS to be reaped
 * before its end is told as "exited (status unknown)".
 */
#include <errno.h>
#include <inttypes.h>
#include <getopt.h>
#include <poll.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <sys/fsuid.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "pidfd.h"

#define REAP_GRACE_MS 1000

struct waiter {
	struct target t;
	bool pending;
	int64_t reap_deadline; /* ms; 0 until the process is a zombie */
};

struct report {
	struct ending end;
	const char *source; /* "waitid", "pidfd_info", "proc_stat" or NULL */
};

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * Seconds as a plain decimal number, "2" or "0.25": no sign, exponent, hex
 * or "inf" that strtod() would take. Milliseconds, the rest cut.
 */
static int64_t parse_timeout(const char *s)
{
	const char *p = s;
	int64_t ms = 0;
	int scale = 100;

	for (; *p >= '0' && *p <= '9'; p++)
		if ((ms = ms * 10 + (*p - '0') * 1000) > 1000000000LL * 1000)
			usage_error("wait: invalid timeout: '%s'", s);
	if (*p == '.' && p > s && p[1]) {
		for (p++; *p >= '0' && *p <= '9'; p++, scale /= 10)
			ms += scale ? (*p - '0') * scale : 0;
	}
	if (p == s || *p)
		usage_error("wait: invalid timeout: '%s'", s);
	return ms;
}

enum format { TEXT, JSON_DOC, JSON_LINES };

/*
 * As each process ends: a line of text, a JSON object a line, or the next
 * element of the JSON document's array, written at once and flushed.
 */
static void print_report(const struct waiter *w, const struct report *r,
			 enum format format, size_t index)
{
	char text[64], sig[32];
	uint64_t inode;

	ending_text(&r->end, text, sizeof(text));
	if (format == TEXT) {
		printf("%s: %s\n", w->t.arg, text);
		fflush(stdout);
		return;
	}
	if (format == JSON_DOC)
		json_array_item(stdout, index);
	/* As info's fields of the same names: pid, handle, exit, exitcode. */
	if (w->t.pid)
		printf("{\"pid\":%d,\"handle\":", (int)w->t.pid);
	else
		printf("{\"pid\":null,\"handle\":");
	if (w->t.pid && handle_inode(&w->t, &inode) == 0)
		printf("\"%d:%" PRIu64 "\"", (int)w->t.pid, inode);
	else
		printf("null");
	printf(",\"exit\":\"%s\",\"exitcode\":", text);
	if (r->end.how == END_EXITED)
		printf("%d", r->end.value << 8);
	else if (r->end.how == END_KILLED)
		printf("%d", r->end.value | (r->end.core ? 0x80 : 0));
	else
		printf("null");
	printf(",\"signal\":");
	json_string(stdout, r->end.how == END_KILLED ?
		    signal_name(r->end.value, sig, sizeof(sig)) : NULL);
	printf(",\"core_dumped\":%s,\"source\":",
	       r->end.how == END_UNKNOWN ? "null" :
	       r->end.core ? "true" : "false");
	json_string(stdout, r->source);
	fputs(format == JSON_LINES ? "}\n" : "}", stdout);
	fflush(stdout);
}

/* A child of ours that has exited: reap it and take its status. */
static bool from_waitid(struct waiter *w, struct report *r)
{
	siginfo_t si;

	memset(&si, 0, sizeof(si));
	if (libpidfd_waitid(w->t.fd, &si, WEXITED | WNOHANG, NULL) < 0 ||
	    si.si_pid == 0)
		return false;
	r->end = ending_of_siginfo(&si);
	r->source = "waitid";
	return true;
}

/* Someone else's process, reaped by its parent, on a kernel that tells. */
static bool from_pidfd_info(struct waiter *w, struct report *r)
{
	struct libpidfd_info info = { .mask = PIDFD_INFO_EXIT };

	if (libpidfd_get_info(w->t.fd, &info, sizeof(info)) < 0 ||
	    !(info.mask & PIDFD_INFO_EXIT))
		return false;
	r->end = ending_of_wait_status(info.exit_code);
	r->source = "pidfd_info";
	return true;
}

/*
 * Whether we hold CAP_SYS_PTRACE in the initial user namespace (a uid_map
 * of the identity over every id): then the kernel lets us ptrace-read
 * every process. Within another user namespace, a process outside it may
 * still show mapped ids, and the capability would not count there.
 */
static bool ptrace_read_any(void)
{
	static int known = -1;
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];
	unsigned int inside, outside, n;
	char map[128] = "";
	int fd;

	if (known >= 0)
		return known;
	known = 0;
	if (syscall(SYS_capget, &h, d) < 0 ||
	    !(d[CAP_SYS_PTRACE / 32].effective & (1u << (CAP_SYS_PTRACE % 32))))
		return false;
	fd = libpidfd_proc_open(PIDFD_SELF_PROCESS, "uid_map", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	if (read(fd, map, sizeof(map) - 1) < 0)
		map[0] = '\0';
	close(fd);
	known = sscanf(map, "%u %u %u", &inside, &outside, &n) == 3 &&
		inside == 0 && outside == 0 && n == 4294967295u &&
		strchr(map, '\n') == map + strlen(map) - 1;
	return known;
}

/*
 * Whether the kernel shows us a zombie's exit_code, as its
 * ptrace_may_access(PTRACE_MODE_READ_FSCREDS) decides for a process
 * without memory: our fsuid is each of its uids and our fsgid each of
 * its gids, or we may read any process. To others it shows 0.
 */
static bool exit_code_shown(int pidfd)
{
	struct libpidfd_info i = { .mask = PIDFD_INFO_CREDS };
	uid_t fsuid = (uid_t)setfsuid((uid_t)-1);
	gid_t fsgid = (gid_t)setfsgid((gid_t)-1);

	if (ptrace_read_any())
		return true;
	return libpidfd_get_info(pidfd, &i, sizeof(i)) == 0 &&
	       (i.mask & PIDFD_INFO_CREDS) && i.ruid == fsuid &&
	       i.euid == fsuid && i.suid == fsuid && i.rgid == fsgid &&
	       i.egid == fsgid && i.sgid == fsgid;
}

/*
 * A code other than 0 is always the real one; a 0 only where the kernel
 * shows us the real one.
 */
bool zombie_exit_status(int pidfd, int *status)
{
	return procfs_exit_code(pidfd, status) &&
	       (*status != 0 || exit_code_shown(pidfd));
}

/* Someone else's zombie: its exit_code, through the pidfd, so its own. */
static bool from_zombie_stat(struct waiter *w, struct report *r)
{
	int code;

	if (!zombie_exit_status(w->t.fd, &code))
		return false;
	r->end = ending_of_wait_status(code);
	r->source = "proc_stat";
	return true;
}

struct wait_ctx {
	enum format format;
	size_t reported;
	size_t count;   /* --count: stop after this many ends; 0: all */
	bool exited;    /* --exited: a process already gone is no error */
	struct ending last; /* the last end reported, for --exit-status */
	bool info_exit; /* libpidfd_get_info() can give PIDFD_INFO_EXIT here */
	struct waiter *w;
	int n;
	size_t cap;      /* of w, grown by wait --name */
	bool self_named; /* wait --name found "self" among the operands */
};

/*
 * The pidfd polled readable or hung up, or a zombie's grace ran out: tell
 * the end if it is known or never will be; else keep waiting for the reap.
 */
static void settle(struct wait_ctx *c, struct waiter *w, short revents,
		   int64_t now)
{
	struct report r = { .end = { END_UNKNOWN, 0, false } };
	bool known = from_waitid(w, &r) || from_pidfd_info(w, &r) ||
		     from_zombie_stat(w, &r);
	bool may_learn = c->info_exit && !(revents & POLLHUP) &&
			 (!w->reap_deadline || now < w->reap_deadline);

	if (!known && may_learn) {
		if (!w->reap_deadline)
			w->reap_deadline = now + REAP_GRACE_MS;
		return;
	}
	print_report(w, &r, c->format, c->reported++);
	c->last = r.end;
	target_close(&w->t);
	w->pending = false;
}

/*
 * More processes than descriptors: the limit has been raised as far as it
 * goes; the ones left over are named, and the others watched.
 */
static void report_unwatched(const struct wait_ctx *c, char **args,
			     const bool *unwatched, int *rc)
{
	struct rlimit rl = { 0, 0 };
	int n = 0;

	for (int i = 0; i < c->n; i++)
		n += unwatched[i];
	if (!n)
		return;
	getrlimit(RLIMIT_NOFILE, &rl);
	fprintf(stderr, "pidfd: wait: cannot watch %d process%s (too many open "
		"files, limit %llu):", n, n == 1 ? "" : "es",
		(unsigned long long)rl.rlim_cur);
	for (int i = 0; i < c->n; i++)
		if (unwatched[i])
			fprintf(stderr, " %s", args[i]);
	fputc('\n', stderr);
	*rc = EXIT_FAILURE;
}

static void open_all(struct wait_ctx *c, char **args, int *rc)
{
	bool *unwatched = calloc((size_t)c->n, sizeof(*unwatched));

	if (!unwatched)
		abort();
	for (int i = 0; i < c->n; i++) {
		struct waiter *w = &c->w[i];

		if (strcmp(args[i], "self") == 0) {
			warn_escaped("cannot wait for self: a process cannot "
				     "outlive itself");
			*rc = EXIT_FAILURE;
			continue;
		}
		if (target_open(args[i], &w->t) < 0) {
			int err = errno;

			if (err == EMFILE || err == ENFILE) {
				unwatched[i] = true;
				continue;
			}
			/* As waitpid -e: gone already is as good as ended. */
			if (c->exited && err == ESRCH)
				continue;
			warn_open(args[i], err);
			*rc = *rc == EXIT_FAILURE ? *rc : exit_status_of(err);
			continue;
		}
		w->pending = true;
	}
	report_unwatched(c, args, unwatched, rc);
	free(unwatched);
}

/* wait --name: each confirmed match becomes a waiter. */
static void selected_take(struct target *t, void *arg)
{
	struct wait_ctx *c = arg;

	if (t->self) {
		warn_escaped("cannot wait for self: a process cannot "
			     "outlive itself");
		c->self_named = true;
		return;
	}
	if ((size_t)c->n == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 64;
		c->w = realloc(c->w, c->cap * sizeof(*c->w));
		if (!c->w)
			abort();
	}
	c->w[c->n++] = (struct waiter){ .t = *t, .pending = true };
}

static int open_selected(struct wait_ctx *c, struct selection *sel,
			 char **args, int n)
{
	static const struct select_ops ops = { selected_take, NULL };

	selection_run(sel, "wait", args, n, &ops, c);
	if (c->self_named)
		return EXIT_FAILURE;
	/* As pgrep: nothing matched is 1. */
	return sel->matched || sel->rc != EXIT_SUCCESS ? sel->rc : EXIT_FAILURE;
}

/* The poll() timeout: the earlier of the deadline and a zombie's grace. */
static int poll_timeout(const struct wait_ctx *c, int64_t deadline, int64_t now)
{
	int64_t until = deadline;

	for (int i = 0; i < c->n; i++)
		if (c->w[i].pending && c->w[i].reap_deadline &&
		    (until < 0 || c->w[i].reap_deadline < until))
			until = c->w[i].reap_deadline;
	if (until < 0)
		return -1;
	return until <= now ? 0 : (int)(until - now < INT32_MAX ? until - now : INT32_MAX);
}

/*
 * wait -J, ended by SIGINT, SIGTERM or SIGHUP (Ctrl-C, timeout(1), a
 * closed terminal): the document is closed first, then the signal raised
 * again with its default action, so that the caller sees how the tool
 * ended. The signals are blocked but while poll() sleeps, so that no
 * report is cut in half; one ignored from the start stays ignored.
 */
static const int ending_signals[] = { SIGINT, SIGTERM, SIGHUP };
static volatile sig_atomic_t ending_signal;
static sigset_t poll_mask;

static void note_ending_signal(int sig)
{
	ending_signal = sig;
}

static void catch_ending_signals(void)
{
	struct sigaction sa = { .sa_handler = note_ending_signal };
	sigset_t block;

	sigemptyset(&block);
	for (size_t i = 0; i < ARRAY_SIZE(ending_signals); i++) {
		struct sigaction old;

		if (sigaction(ending_signals[i], NULL, &old) == 0 &&
		    old.sa_handler == SIG_IGN)
			continue;
		sigaddset(&block, ending_signals[i]);
		sigaction(ending_signals[i], &sa, NULL);
	}
	sigprocmask(SIG_BLOCK, &block, &poll_mask);
	for (size_t i = 0; i < ARRAY_SIZE(ending_signals); i++)
		sigdelset(&poll_mask, ending_signals[i]);
}

static void __attribute__((noreturn)) end_by_signal(int sig)
{
	sigset_t set;

	json_array_end(stdout);
	json_doc_end(stdout);
	fflush(stdout);
	signal(sig, SIG_DFL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
	_exit(128 + sig);
}

static int poll_for_signals(struct pollfd *pfd, nfds_t n, int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000 };

	return ppoll(pfd, n, ms < 0 ? NULL : &ts, &poll_mask);
}

/*
 * Poll until every process has ended; false if the deadline came first.
 * Only the pending pidfds are polled: poll() refuses more entries than
 * RLIMIT_NOFILE, and the processes may be more than that.
 */
static bool enough(const struct wait_ctx *c)
{
	return c->count && c->reported >= c->count;
}

static bool wait_all(struct wait_ctx *c, int64_t deadline)
{
	struct pollfd *pfd = calloc((size_t)c->n + 1, sizeof(*pfd));
	int *who = calloc((size_t)c->n + 1, sizeof(*who));
	int64_t now = now_ms();
	nfds_t n = 0;

	if (!pfd || !who)
		abort();
	for (int i = 0; i < c->n; i++)
		if (c->w[i].pending)
			who[n++] = i;
	while (n && !enough(c)) {
		nfds_t left = 0;
		int r;

		for (nfds_t k = 0; k < n; k++) {
			pfd[k].fd = c->w[who[k]].t.fd;
			/* A zombie stays readable: only the reap (POLLHUP) is news. */
			pfd[k].events = c->w[who[k]].reap_deadline ? 0 : POLLIN;
			pfd[k].revents = 0;
		}
		r = poll_for_signals(pfd, n, poll_timeout(c, deadline, now));
		if (ending_signal)
			end_by_signal(ending_signal);
		if (r < 0 && errno != EINTR) {
			fprintf(stderr, "pidfd: wait: poll: %s\n", strerror(errno));
			exit(EXIT_FAILURE);
		}
		now = now_ms();
		for (nfds_t k = 0; k < n; k++) {
			struct waiter *w = &c->w[who[k]];

			if (enough(c)) {
				who[left++] = who[k];
				continue;
			}
			if (pfd[k].revents ||
			    (w->reap_deadline && now >= w->reap_deadline))
				settle(c, w, pfd[k].revents, now);
			if (w->pending)
				who[left++] = who[k];
		}
		n = left;
		if (n && !enough(c) && deadline >= 0 && now >= deadline)
			break;
	}
	free(pfd);
	free(who);
	return n == 0 || enough(c);
}

static void report_timeout(const struct wait_ctx *c)
{
	fputs("pidfd: wait: timed out; still running:", stderr);
	for (int i = 0; i < c->n; i++)
		if (c->w[i].pending)
			fprintf(stderr, " %s", c->w[i].t.arg);
	fputc('\n', stderr);
}

/* --count: a whole number from 1 up. */
static size_t parse_count(const char *s)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (*s < '0' || *s > '9' || *end || errno || v == 0 || v > INT32_MAX)
		usage_error("wait: invalid count: '%s'", s);
	return (size_t)v;
}

/*
 * --exit-status: the last process reported ends the tool as it ended
 * itself, as a shell's $? has it (its exit code, or 128 + the signal),
 * where that is known and the tool itself met no error.
 */
static int own_status(const struct wait_ctx *c, int rc)
{
	if (rc != EXIT_SUCCESS || !c->reported || c->last.how == END_UNKNOWN)
		return rc;
	return c->last.how == END_EXITED ? c->last.value : 128 + c->last.value;
}

#define OPT_EXIT_STATUS 0x100

void help_wait(void)
{
	fputs("Usage:\n"
	      " pidfd wait [options] <process>...\n"
	      " pidfd wait [options] --name <pattern> [<process>...]\n"
	      "\n"
	      "Wait until each process has exited, and tell how it ended.\n"
	      "\n"
	      HELP_PROCESS
	      "\n"
	      "Options:\n"
	      " -t, --timeout <seconds>  give up after this long (exit 3)\n"
	      " -c, --count <count>      stop once this many have ended\n"
	      " -e, --exited             one already gone counts as ended\n"
	      "     --exit-status        exit with the status of the last one\n"
	      "                            reported (its code, or 128 + signal)\n"
	      HELP_JSON_OPTIONS
	      HELP_SELECT_OPTIONS
	      HELP_COMMON_OPTIONS
	      "\n"
	      "Exit status: 0 success, 1 failure (or nothing matched), 2 not\n"
	      "supported by this kernel, 3 timeout; with --exit-status, where\n"
	      "none of these, the last process's own.\n"
	      HELP_END,
	      stdout);
}

int cmd_wait(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "timeout", required_argument, NULL, 't' },
		{ "count", required_argument, NULL, 'c' },
		{ "exited", no_argument, NULL, 'e' },
		{ "exit-status", no_argument, NULL, OPT_EXIT_STATUS },
		OPTIONS_JSON,
		OPTIONS_SELECT,
		OPTIONS_COMMON_END,
	};
	struct selection sel = { .rc = EXIT_SUCCESS };
	struct wait_ctx c = { 0 };
	struct libpidfd_features f;
	int64_t timeout = -1, deadline = -1;
	unsigned int given = 0;
	int opt, rc = EXIT_SUCCESS;
	bool exit_status = false;

	while ((opt = getopt_long(argc, argv, "t:c:eJjhV" SHORT_SELECT, opts,
				  NULL)) != -1) {
		if (selection_option(&sel, opt, optarg))
			continue;
		if (opt == 't')
			timeout = parse_timeout(optarg);
		else if (opt == 'c')
			c.count = parse_count(optarg);
		else if (opt == 'e')
			c.exited = true;
		else if (opt == OPT_EXIT_STATUS)
			exit_status = true;
		else if (opt == 'J' || opt == 'j') {
			c.format = opt == 'J' ? JSON_DOC : JSON_LINES;
			given |= opt == 'J' ? OUT_JSON : OUT_JSON_LINES;
		} else
			common_option(opt, argv, opts);
	}
	output_modes_check("wait", given);
	/* As waitpid(1): a count of ends, or gone ones as ended: not both. */
	if (c.count && c.exited)
		usage_error("wait: --count and --exited are mutually exclusive");
	selection_ready(&sel, "wait");
	if (optind >= argc && !sel.active)
		usage_error("wait: no process specified");
	/* With --name, as many as match: known only once they are open. */
	if (!sel.active && c.count > (size_t)(argc - optind))
		usage_error("wait: cannot wait for %zu of %d processes", c.count,
			    argc - optind);
	for (int i = optind; i < argc; i++)
		target_check(argv[i]);
	c.info_exit = libpidfd_features(&f, sizeof(f)) == 0 &&
		      (f.info_mask & PIDFD_INFO_EXIT);
	/* Every pidfd first: from here on no pid is read again. */
	if (sel.active) {
		rc = open_selected(&c, &sel, argv + optind, argc - optind);
	} else {
		c.n = argc - optind;
		c.w = calloc((size_t)c.n, sizeof(*c.w));
		if (!c.w)
			abort();
		open_all(&c, argv + optind, &rc);
	}
	if (timeout >= 0)
		deadline = now_ms() + timeout;
	sigprocmask(SIG_SETMASK, NULL, &poll_mask);
	if (c.format == JSON_DOC) {
		catch_ending_signals();
		json_doc_begin(stdout);
		json_array_begin(stdout, "processes", true);
		fflush(stdout);
	}
	if (!wait_all(&c, deadline)) {
		report_timeout(&c);
		rc = EXIT_TIMEOUT;
	}
	if (c.format == JSON_DOC) {
		json_array_end(stdout);
		json_doc_end(stdout);
	}
	for (int i = 0; i < c.n; i++)
		target_close(&c.w[i].t);
	free(c.w);
	selection_free(&sel);
	return exit_status ? own_status(&c, rc) : rc;
}
