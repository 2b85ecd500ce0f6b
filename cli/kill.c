/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * pidfd kill: open a pidfd for every process first, then signal through
 * the pidfds. Once a pidfd is open its pid cannot be recycled under it, so
 * a process that exits in between is reported, never a stranger signalled.
 * An inherited pidfd ("fd:N") closes the last gap: the pid was never read.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../lib/names.h"
#include "pidfd.h"

/*
 * kill -l: every signal; with operands, as util-linux's kill: a number
 * (or an exit status above 128, as a shell's $?) gives the name without
 * "SIG", a name gives the number.
 */
static int list_signals(int n, char **args)
{
	char name[32];
	int rc = EXIT_SUCCESS;

	if (n == 0)
		for (int sig = 1; sig <= SIGRTMAX; sig++)
			printf("%2d %s\n", sig,
			       signal_name(sig, name, sizeof(name)));
	for (int i = 0; i < n; i++) {
		int sig = signal_parse(args[i]);
		bool number = args[i][0] >= '0' && args[i][0] <= '9';

		if (number && sig < 0) {
			long status = strtol(args[i], NULL, 10);

			sig = status > 128 && status < 128 + _NSIG ?
			      (int)(status - 128) : -1;
		}
		if (sig <= 0) {
			warn_escaped("kill: unknown signal '%s'", args[i]);
			rc = EXIT_FAILURE;
		} else if (number) {
			signal_name(sig, name, sizeof(name));
			puts(strncmp(name, "SIG", 3) ? name : name + 3);
		} else {
			printf("%d\n", sig);
		}
	}
	return rc;
}

/*
 * kill -L: the numbers and names of the signals (not the real-time ones
 * between RTMIN and RTMAX), as util-linux's: a table as wide as the
 * terminal, or one a line where stdout is none.
 */
static void table_signals(void)
{
	size_t width = terminal_width(), col = 0;
	/* 11 columns a signal, up to the width less one, as util-linux. */
	size_t per_line = width > 12 ? (width - 1) / 11 : 1;
	char name[32];

	for (int sig = 1; sig <= SIGRTMAX; sig++) {
		if ((sig > SIGRTMIN && sig < SIGRTMAX) ||
		    (sig < SIGRTMIN && !lpfd_signal_abbrev(sig)))
			continue;
		if (sig == SIGRTMAX)
			snprintf(name, sizeof(name), "SIGRTMAX");
		else
			signal_name(sig, name, sizeof(name));
		if (++col == per_line || sig == SIGRTMAX) {
			printf("%2d %s\n", sig, name + 3);
			col = 0;
		} else {
			printf("%2d %-8s", sig, name + 3);
		}
	}
}

/* A further signal, sent if the process still runs this long after. */
struct follow_up {
	int ms, sig;
};

/* What to send, and how. */
struct kill_opts {
	int sig;
	unsigned int flags; /* PIDFD_SIGNAL_* */
	bool thread;        /* a thread id: the thread itself */
	bool queue;         /* with a value, as sigqueue(3) */
	int value;
	bool verbose;
	struct follow_up *follow;
	int nfollow;
};

/* How many were signalled, and the status of the failures. */
struct outcome {
	int signalled, rc;
};

static void failed(struct outcome *o, int err)
{
	o->rc = o->rc == EXIT_FAILURE ? o->rc : exit_status_of(err);
}

/*
 * One signal through the pidfd: with a value, the siginfo sigqueue(3)
 * would send (si_code SI_QUEUE), as util-linux's kill does.
 */
static int send_one(const struct target *t, int sig, const struct kill_opts *k,
		    const char *why)
{
	siginfo_t si = { 0 };

	if (k->verbose) {
		if (t->pid)
			printf("%ssending signal %d to pid %d\n", why, sig,
			       (int)t->pid);
		else
			printf("%ssending signal %d to %s\n", why, sig, t->arg);
		fflush(stdout);
	}
	si.si_signo = sig;
	si.si_code = SI_QUEUE;
	si.si_pid = getpid();
	si.si_uid = getuid();
	si.si_value.sival_int = k->value;
	return libpidfd_send_signal(t->fd, sig, k->queue ? &si : NULL,
				    k->flags);
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * Wait up to ms for the processes of p to end: each pidfd polls readable
 * once its process has exited, whatever its pid has become since. An
 * ended one is marked and leaves p (fd -1); a sentinel ("self", fd -1
 * from the start) runs on.
 */
static void wait_ended(struct pollfd *p, bool *ended, int n, int ms)
{
	int64_t deadline = now_ms() + ms, left;
	int alive = 0;

	for (int i = 0; i < n; i++)
		alive += !ended[i];
	while (alive && (left = deadline - now_ms()) > 0) {
		int r = poll(p, (nfds_t)n, (int)left);

		if (r < 0 && errno != EINTR)
			break;
		for (int i = 0; r > 0 && i < n; i++) {
			if (p[i].fd >= 0 && p[i].revents) {
				p[i].fd = -1;
				ended[i] = true;
				alive--;
			}
		}
	}
}

/*
 * --timeout: after each period, the next signal to the processes that
 * still run, through the same pidfds: never to a recycled pid. One that
 * ends in between (ESRCH) has done what was asked.
 */
static void follow_ups(struct target *t, const int *sent, int n,
		       const struct kill_opts *k, struct outcome *o)
{
	struct pollfd *p = calloc((size_t)n + 1, sizeof(*p));
	bool *ended = calloc((size_t)n + 1, sizeof(*ended));

	if (!p || !ended)
		abort();
	for (int i = 0; i < n; i++)
		p[i] = (struct pollfd){ .fd = t[sent[i]].self ? -1 : t[sent[i]].fd,
					.events = POLLIN };
	for (int f = 0; f < k->nfollow; f++) {
		wait_ended(p, ended, n, k->follow[f].ms);
		for (int i = 0; i < n; i++) {
			struct target *ti = &t[sent[i]];
			int err;

			if (ended[i] || send_one(ti, k->follow[f].sig, k,
						 "timeout, ") == 0)
				continue;
			err = errno;
			if (err == ESRCH) {
				ended[i] = true;
				continue;
			}
			warn_target("cannot signal", ti->arg, err);
			failed(o, err);
		}
	}
	free(ended);
	free(p);
}

static void signal_batch(struct target *t, int from, int to,
			 const struct kill_opts *k, struct outcome *o)
{
	int *sent = calloc((size_t)(to - from) + 1, sizeof(*sent)), n = 0;

	if (!sent)
		abort();
	for (int i = from; i < to; i++) {
		if (t[i].fd == -1)
			continue;
		if (send_one(&t[i], k->sig, k, "") < 0) {
			int err = errno;

			if (k->flags == PIDFD_SIGNAL_PROCESS_GROUP)
				warn_group_target("cannot signal", t[i].arg, err);
			else
				warn_target("cannot signal", t[i].arg, err);
			failed(o, err);
		} else {
			o->signalled++;
			sent[n++] = i;
		}
	}
	if (k->nfollow)
		follow_ups(t, sent, n, k, o);
	for (int i = from; i < to; i++)
		target_close(&t[i]);
	free(sent);
}

/*
 * Every pidfd before the first signal: a signal may end another one. Past
 * the descriptor limit (raised to the hard one in main()), in batches: the
 * pidfds open so far are signalled and closed, and opening goes on.
 */
static int open_and_signal(struct target *t, char **args, int n,
			   const struct kill_opts *k)
{
	int (*open_target)(const char *, struct target *) =
		k->thread ? target_open_thread : target_open;
	struct outcome o = { 0, EXIT_SUCCESS };
	int batch = 0;

	for (int i = 0; i < n; i++) {
		int r = open_target(args[i], &t[i]), err = errno;

		if (r < 0 && (err == EMFILE || err == ENFILE) && batch < i) {
			signal_batch(t, batch, i, k, &o);
			batch = i;
			r = open_target(args[i], &t[i]);
			err = errno;
		}
		if (r < 0) {
			warn_open(args[i], err);
			failed(&o, err);
			t[i].fd = -1;
		}
	}
	signal_batch(t, batch, n, k, &o);
	/* As util-linux's kill: some signalled, some not, is 64. */
	return o.rc != EXIT_SUCCESS && o.signalled ? EXIT_PARTIAL : o.rc;
}

/*
 * "-NOSUCH" is a misspelt signal, not -N (--name) with "OSUCH": a word of
 * capitals (digits, '+' and '-' too) is read as a signal there.
 */
static bool looks_like_signal(const char *arg)
{
	if (arg[0] != '-' || arg[1] < 'A' || arg[1] > 'Z' || !arg[2])
		return false;
	for (arg++; *arg; arg++)
		if (!strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+-", *arg))
			return false;
	return true;
}

/* kill --name: the confirmed matches, held until signalled. */
struct matched {
	struct target *t;
	int n, cap;
	const struct kill_opts *k;
	struct outcome o;
};

static void matched_take(struct target *t, void *arg)
{
	struct matched *m = arg;

	if (m->n == m->cap) {
		m->cap = m->cap ? 2 * m->cap : 64;
		m->t = realloc(m->t, (size_t)m->cap * sizeof(*m->t));
		if (!m->t)
			abort();
	}
	m->t[m->n++] = *t;
}

/* Out of descriptors: signal and close the ones held so far. */
static bool matched_release(void *arg)
{
	struct matched *m = arg;

	if (!m->n)
		return false;
	signal_batch(m->t, 0, m->n, m->k, &m->o);
	m->n = 0;
	return true;
}

/* As pkill, but each match confirmed through its pidfd before the signal. */
static int signal_selected(struct selection *sel, char **args, int n,
			   const struct kill_opts *k)
{
	static const struct select_ops ops = { matched_take, matched_release };
	struct matched m = { .k = k, .o = { 0, EXIT_SUCCESS } };
	int rc;

	selection_run(sel, "kill", args, n, &ops, &m);
	signal_batch(m.t, 0, m.n, k, &m.o);
	free(m.t);
	if (sel->rc != EXIT_SUCCESS && m.o.rc != EXIT_FAILURE)
		m.o.rc = sel->rc;
	rc = m.o.rc != EXIT_SUCCESS && m.o.signalled ? EXIT_PARTIAL : m.o.rc;
	/* As pkill: nothing matched is 1. */
	return sel->matched || rc != EXIT_SUCCESS ? rc : EXIT_FAILURE;
}

void help_kill(void)
{
	fputs("Usage:\n"
	      " pidfd kill [options] <process>...\n"
	      " pidfd kill [options] --name <pattern> [<process>...]\n"
	      " pidfd kill -l [<signal>...]\n"
	      " pidfd kill -L\n"
	      "\n"
	      "Send a signal to each process through its pidfd, never to a\n"
	      "recycled pid.\n"
	      "\n"
	      HELP_PROCESS
	      "\n"
	      "Options:\n"
	      " -s, --signal <signal>    the signal, by name or number (default:\n"
	      "                            TERM); also -9, -KILL, -SIGKILL\n"
	      " -q, --queue <value>      send it with this value, as sigqueue(3)\n"
	      "     --timeout <ms> <signal>\n"
	      "                          then <signal> to those still running\n"
	      "                            <ms> milliseconds later (repeatable)\n"
	      "     --thread             to the thread named (a thread ID), or a\n"
	      "                            process's first thread (Linux 6.9)\n"
	      "     --thread-group       to the process (the default)\n"
	      "     --pgrp               to the process's process group (Linux 6.9)\n"
	      "     --verbose            print each process signalled\n"
	      " -l, --list [<signal>...] list the signal names and numbers; a\n"
	      "                            number's name, a name's number\n"
	      " -L, --table              list the signal numbers and names in a\n"
	      "                            table\n"
	      HELP_SELECT_OPTIONS
	      HELP_SELECT_COUNT
	      HELP_COMMON_OPTIONS
	      "\n"
	      "Exit status: 0 success, 1 failure (or nothing matched), 2 not\n"
	      "supported by this kernel, 64 some processes signalled, not all.\n"
	      HELP_END,
	      stdout);
}

enum {
	OPT_TIMEOUT = 0x100,
	OPT_THREAD,
	OPT_THREAD_GROUP,
	OPT_PGRP,
	OPT_VERBOSE,
};

static const struct option kill_opts[] = {
	{ "signal", required_argument, NULL, 's' },
	{ "queue", required_argument, NULL, 'q' },
	{ "timeout", required_argument, NULL, OPT_TIMEOUT },
	{ "thread", no_argument, NULL, OPT_THREAD },
	{ "thread-group", no_argument, NULL, OPT_THREAD_GROUP },
	{ "pgrp", no_argument, NULL, OPT_PGRP },
	{ "verbose", no_argument, NULL, OPT_VERBOSE },
	{ "list", no_argument, NULL, 'l' },
	{ "table", no_argument, NULL, 'L' },
	OPTIONS_SELECT,
	OPTION_SELECT_COUNT,
	OPTIONS_COMMON_END,
};

/* A signal that is none: a number out of range, or an unknown name. */
static void __attribute__((noreturn)) unknown_signal(const char *s)
{
	if (*s >= '0' && *s <= '9' && !s[strspn(s, "0123456789")])
		usage_error("kill: unknown signal %s: signals are numbered 0 to "
			    "%d ('pidfd kill -l' lists them)", s, SIGRTMAX);
	usage_error("kill: unknown signal '%s' ('pidfd kill -l' lists them)", s);
}

static int parse_signal(const char *s)
{
	int sig = signal_parse(s);

	if (sig < 0)
		unknown_signal(s);
	return sig;
}

/* A whole decimal number in [min, INT_MAX]. */
static int parse_int(const char *s, long min, const char *what)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (!*s || *end || errno || v < min || v > INT_MAX || isspace((unsigned char)*s))
		usage_error("kill: invalid %s: '%s'", what, s);
	return (int)v;
}

/*
 * --timeout MS SIGNAL: two arguments, as util-linux's; the second is the
 * word after the first as the words stood before getopt_long() found
 * them (before: the copy it was given). glibc's getopt permutes later, so
 * the word is argv[optind]; musl's has already moved the option before
 * the operands it skipped, so the word is further on. Moved to
 * argv[optind] and skipped, it is getopt's no more under either.
 */
/* The word is optarg ("--timeout MS"), or ends with it ("--timeout=MS"). */
static bool holds_optarg(const char *word)
{
	const char *eq = strncmp(word, "--", 2) == 0 ? strchr(word, '=') : NULL;

	return word == optarg || (eq && eq + 1 == optarg);
}

static void add_follow_up(struct kill_opts *k, int argc, char **argv,
			  char *const before[])
{
	int ms = parse_int(optarg, 0, "timeout"), at = 0, now = optind;
	char *word;

	while (at < argc && !holds_optarg(before[at]))
		at++;
	if (at + 1 >= argc)
		usage_error("kill: --timeout %s: no signal to follow up with",
			    optarg);
	word = before[at + 1];
	while (now < argc && argv[now] != word)
		now++;
	if (now == argc)
		abort();
	memmove(argv + optind + 1, argv + optind,
		sizeof(*argv) * (size_t)(now - optind));
	argv[optind++] = word;
	k->follow = realloc(k->follow, sizeof(*k->follow) * (size_t)(k->nfollow + 1));
	if (!k->follow)
		abort();
	/* "--timeout 1000 4242": the signal forgotten, a process taken for it. */
	if (signal_parse(word) < 0)
		usage_error("kill: --timeout %d: '%s' is not a signal; --timeout "
			    "takes the milliseconds, then the signal to send "
			    "(--timeout %d KILL)", ms, word, ms);
	k->follow[k->nfollow++] = (struct follow_up){ ms, parse_signal(word) };
}

/*
 * The scope flags came with thread pidfds (Linux 6.9). Before, a pidfd
 * signals its process, which is what --thread-group asks: no flag is
 * needed; the others cannot be done, and nobody is signalled.
 */
static void scope_check(struct kill_opts *k, const char *name)
{
	struct libpidfd_features f;

	if (!k->flags || (libpidfd_features(&f, sizeof(f)) == 0 &&
			  (f.kernel & LIBPIDFD_KERNEL_PIDFD_THREAD)))
		return;
	if (k->flags == PIDFD_SIGNAL_THREAD_GROUP) {
		k->flags = 0;
		return;
	}
	warn_escaped("kill: %s: not supported by this kernel (it needs "
		     "PIDFD_SIGNAL_* flags, Linux 6.9)", name);
	exit(EXIT_NOTSUP);
}

static void parse_scope(struct kill_opts *k, int c, const char **name)
{
	static const struct {
		int opt;
		unsigned int flag;
		const char *name;
	} scopes[] = {
		{ OPT_THREAD, PIDFD_SIGNAL_THREAD, "--thread" },
		{ OPT_THREAD_GROUP, PIDFD_SIGNAL_THREAD_GROUP, "--thread-group" },
		{ OPT_PGRP, PIDFD_SIGNAL_PROCESS_GROUP, "--pgrp" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(scopes); i++) {
		if (scopes[i].opt != c)
			continue;
		if (k->flags && k->flags != scopes[i].flag)
			usage_error("kill: %s and %s: choose one", *name,
				    scopes[i].name);
		k->flags = scopes[i].flag;
		k->thread = c == OPT_THREAD;
		*name = scopes[i].name;
	}
}

int cmd_kill(int argc, char **argv)
{
	struct kill_opts k = { .sig = SIGTERM };
	struct selection sel = { .rc = EXIT_SUCCESS };
	const char *scope = NULL;
	struct target *t;
	int c, rc, n;
	bool list = false, table = false;

	/* kill(1)'s forms, first after the command: -9, -KILL, -SIGKILL. */
	if (argc > 1 && argv[1][0] == '-' && argv[1][1] != '-' &&
	    (n = signal_parse(argv[1] + 1)) >= 0) {
		k.sig = n;
		argv[1] = argv[0];
		argc--;
		argv++;
	} else if (argc > 1 && (looks_like_signal(argv[1]) ||
				(argv[1][0] == '-' && argv[1][1] >= '0' &&
				 argv[1][1] <= '9'))) {
		/* "-99", "-9x", "-NOSUCH": a signal meant, not options. */
		unknown_signal(argv[1] + 1);
	}
	char **before = malloc(sizeof(*before) * (size_t)argc);

	if (!before)
		abort();
	while (memcpy(before, argv, sizeof(*before) * (size_t)argc),
	       (c = getopt_long(argc, argv, "s:q:lLhV" SHORT_SELECT, kill_opts,
				NULL)) != -1) {
		if (selection_option(&sel, c, optarg))
			continue;
		else if (c == 's')
			k.sig = parse_signal(optarg);
		else if (c == 'q') {
			k.queue = true;
			k.value = parse_int(optarg, INT_MIN, "value");
		} else if (c == OPT_TIMEOUT)
			add_follow_up(&k, argc, argv, before);
		else if (c == OPT_VERBOSE)
			k.verbose = true;
		else if (c == 'l')
			list = true;
		else if (c == 'L')
			table = true;
		else if (c >= OPT_THREAD && c <= OPT_PGRP)
			parse_scope(&k, c, &scope);
		else
			common_option(c, argv, kill_opts);
	}
	free(before);
	if (table) {
		table_signals();
		return EXIT_SUCCESS;
	}
	if (list)
		return list_signals(argc - optind, argv + optind);
	selection_ready(&sel, "kill");
	if (optind >= argc && !sel.active)
		usage_error("kill: no process specified");
	n = argc - optind;
	for (int i = 0; i < n; i++)
		target_check(argv[optind + i]);
	scope_check(&k, scope);
	if (sel.active) {
		rc = signal_selected(&sel, argv + optind, n, &k);
		selection_free(&sel);
		free(k.follow);
		return rc;
	}
	t = calloc((size_t)n, sizeof(*t));
	if (!t)
		abort();
	rc = open_and_signal(t, argv + optind, n, &k);
	free(t);
	free(k.follow);
	return rc;
}
