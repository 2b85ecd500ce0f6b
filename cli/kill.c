/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * pidfd kill: open a pidfd for every process first, then signal through
 * the pidfds. Once a pidfd is open its pid cannot be recycled under it, so
 * a process that exits in between is reported, never a stranger signalled.
 * An inherited pidfd ("fd:N") closes the last gap: the pid was never read.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

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

/* How many were signalled, and the status of the failures. */
struct outcome {
	int signalled, rc;
};

static void failed(struct outcome *o, int err)
{
	o->rc = o->rc == EXIT_FAILURE ? o->rc : exit_status_of(err);
}

static void signal_batch(struct target *t, int from, int to, int sig,
			 struct outcome *o)
{
	for (int i = from; i < to; i++) {
		if (t[i].fd == -1)
			continue;
		if (libpidfd_send_signal(t[i].fd, sig, NULL, 0) < 0) {
			int err = errno;

			warn_target("cannot signal", t[i].arg, err);
			failed(o, err);
		} else {
			o->signalled++;
		}
		target_close(&t[i]);
	}
}

/*
 * Every pidfd before the first signal: a signal may end another one. Past
 * the descriptor limit (raised to the hard one in main()), in batches: the
 * pidfds open so far are signalled and closed, and opening goes on.
 */
static int open_and_signal(struct target *t, char **args, int n, int sig)
{
	struct outcome o = { 0, EXIT_SUCCESS };
	int batch = 0;

	for (int i = 0; i < n; i++) {
		int r = target_open(args[i], &t[i]), err = errno;

		if (r < 0 && (err == EMFILE || err == ENFILE) && batch < i) {
			signal_batch(t, batch, i, sig, &o);
			batch = i;
			r = target_open(args[i], &t[i]);
			err = errno;
		}
		if (r < 0) {
			warn_open(args[i], err);
			failed(&o, err);
			t[i].fd = -1;
		}
	}
	signal_batch(t, batch, n, sig, &o);
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
	int n, cap, sig;
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
	signal_batch(m->t, 0, m->n, m->sig, &m->o);
	m->n = 0;
	return true;
}

/* As pkill, but each match confirmed through its pidfd before the signal. */
static int signal_selected(struct selection *sel, char **args, int n, int sig)
{
	static const struct select_ops ops = { matched_take, matched_release };
	struct matched m = { .sig = sig, .o = { 0, EXIT_SUCCESS } };
	int rc;

	selection_run(sel, "kill", args, n, &ops, &m);
	signal_batch(m.t, 0, m.n, sig, &m.o);
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
	      "\n"
	      "Send a signal to each process through its pidfd, never to a\n"
	      "recycled pid.\n"
	      "\n"
	      HELP_PROCESS
	      "\n"
	      "Options:\n"
	      " -s, --signal <signal>    the signal, by name or number (default:\n"
	      "                            TERM); also -9, -KILL, -SIGKILL\n"
	      " -l, --list [<signal>...] list the signal names and numbers; a\n"
	      "                            number's name, a name's number\n"
	      HELP_SELECT_OPTIONS
	      HELP_COMMON_OPTIONS
	      "\n"
	      "Exit status: 0 success, 1 failure (or nothing matched), 2 not\n"
	      "supported by this kernel, 64 some processes signalled, not all.\n"
	      HELP_END,
	      stdout);
}

int cmd_kill(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "signal", required_argument, NULL, 's' },
		{ "list", no_argument, NULL, 'l' },
		OPTIONS_SELECT,
		OPTIONS_COMMON_END,
	};
	struct selection sel = { .rc = EXIT_SUCCESS };
	struct target *t;
	int c, sig = SIGTERM, rc, n;
	bool list = false;

	/* kill(1)'s forms, first after the command: -9, -KILL, -SIGKILL. */
	if (argc > 1 && argv[1][0] == '-' && argv[1][1] != '-' &&
	    (n = signal_parse(argv[1] + 1)) >= 0) {
		sig = n;
		argv[1] = argv[0];
		argc--;
		argv++;
	} else if (argc > 1 && looks_like_signal(argv[1])) {
		usage_error("kill: unknown signal '%s'", argv[1] + 1);
	}
	while ((c = getopt_long(argc, argv, "s:lhV" SHORT_SELECT, opts, NULL)) != -1) {
		if (selection_option(&sel, c, optarg)) {
			continue;
		} else if (c == 's') {
			sig = signal_parse(optarg);
			if (sig < 0)
				usage_error("kill: unknown signal '%s'", optarg);
		} else if (c == 'l') {
			list = true;
		} else {
			common_option(c, argv, opts);
		}
	}
	if (list)
		return list_signals(argc - optind, argv + optind);
	selection_ready(&sel, "kill");
	if (optind >= argc && !sel.active)
		usage_error("kill: no process specified");
	n = argc - optind;
	for (int i = 0; i < n; i++)
		target_check(argv[optind + i]);
	if (sel.active) {
		rc = signal_selected(&sel, argv + optind, n, sig);
		selection_free(&sel);
		return rc;
	}
	t = calloc((size_t)n, sizeof(*t));
	if (!t)
		abort();
	rc = open_and_signal(t, argv + optind, n, sig);
	free(t);
	return rc;
}
