/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * pidfd(1): process handles from the command line.
 *
 *   pidfd info [--json] [--output LIST] [--all | --user USER | PROCESS...]
 *   pidfd wait [--timeout SECONDS] [--json] PROCESS...
 *   pidfd kill [--signal SIGNAL | -SIGNAL] PROCESS...
 *   (info, wait and kill also --name PATTERN [--full] [--exact])
 *   pidfd features [--json]
 *
 * Every command opens a pidfd for each process before it does anything
 * else, and from then on names the process only through it.
 */
#include <errno.h>
#include <getopt.h>
#include <locale.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "pidfd.h"

/* The command being run, for its --help and its usage errors. */
static const char *command;

static void help_global(void)
{
	fputs("Usage:\n"
	      " pidfd info [options] [<process>...]\n"
	      " pidfd wait [options] <process>...\n"
	      " pidfd kill [options] <process>...\n"
	      " pidfd info|wait|kill [options] --name <pattern> [<process>...]\n"
	      " pidfd features [options]\n"
	      " pidfd open <process> [--] <command> [<argument>...]\n"
	      "\n"
	      "Work with processes through pidfds, on every Linux kernel.\n"
	      "\n"
	      "Commands:\n"
	      " info      show what the kernel knows of each process\n"
	      " wait      wait until each process has exited, and tell how\n"
	      " kill      send a signal, never to a recycled pid\n"
	      " features  what this kernel does natively or emulated, and why\n"
	      " open      run a command with a pidfd of the process ($PIDFD)\n"
	      "\n"
	      HELP_PROCESS
	      "\n"
	      "Options:\n"
	      HELP_COMMON_OPTIONS
	      "\n"
	      "Run 'pidfd <command> --help' for the options of a command.\n"
	      "\n"
	      "Exit status: 0 success, 1 failure (or nothing matched), 2 not\n"
	      "supported by this kernel, 3 wait: timeout, 64 kill: some\n"
	      "processes signalled, not all.\n"
	      HELP_END,
	      stdout);
}

static const struct {
	const char *name;
	int (*run)(int argc, char **argv);
	void (*help)(void);
} commands[] = {
	{ "info", cmd_info, help_info },
	{ "wait", cmd_wait, help_wait },
	{ "kill", cmd_kill, help_kill },
	{ "features", cmd_features, help_features },
	{ "open", cmd_open, help_open },
};

const char *command_name(void)
{
	return command;
}

void try_help(void)
{
	fprintf(stderr, "Try 'pidfd%s%s --help' for more information.\n",
		command ? " " : "", command ? command : "");
}

/*
 * The long options that arg ("--name" or "--name=value") names exactly,
 * or abbreviates (several: ambiguous, unless they are one option under
 * two names, as --fields and --output).
 */
static const struct option *long_option(const char *arg,
					const struct option *opts,
					char *names, size_t size)
{
	size_t len = strcspn(arg + 2, "="), used = 0;
	const struct option *found = NULL;
	bool ambiguous = false;

	for (const struct option *o = opts; o->name; o++) {
		if (strncmp(o->name, arg + 2, len) != 0)
			continue;
		if (o->name[len] == '\0')
			return o;
		ambiguous |= found && found->val != o->val;
		found = o;
		used += (size_t)snprintf(names + used, used < size ? size - used : 0,
					 " '--%s'", o->name);
	}
	return ambiguous ? NULL : found;
}

/*
 * getopt's complaint, as glibc words it, but escaped: an option is an
 * operand too, and may carry any byte (opterr is 0, so glibc is silent).
 * A long option's error has moved optind past it; a short one's is
 * optopt, and where it is not the last of its cluster ("-xn") optind
 * has not moved.
 */
static void __attribute__((noreturn)) getopt_error(char **argv,
						   const struct option *opts)
{
	const char *arg = optind > 0 ? argv[optind - 1] : "";
	const struct option *o = opts;
	char names[256] = "";

	/* musl's optind passes argv's end after a last "-t" lacking its value. */
	if (!arg)
		arg = argv[optind - 2];

	if (strncmp(arg, "--", 2) == 0 && arg[2]) {
		o = long_option(arg, opts, names, sizeof(names));
		if (!o && !optopt && names[0])
			usage_error("option '%.*s' is ambiguous; possibilities:%s",
				    (int)strcspn(arg, "="), arg, names);
		if (!o && !optopt)
			usage_error("unrecognized option '%s'", arg);
		if (o && o->val == optopt && o->has_arg == no_argument)
			usage_error("option '--%s' doesn't allow an argument",
				    o->name);
		if (o && o->val == optopt)
			usage_error("option '--%s' requires an argument", o->name);
	}
	/* A short option: every one that takes an argument has a long name. */
	for (o = opts; o->name && o->val != optopt; o++)
		;
	if (o->name && o->has_arg == required_argument)
		usage_error("option requires an argument -- '%c'", optopt);
	usage_error("invalid option -- '%c'", optopt);
}

void common_option(int c, char **argv, const struct option *opts)
{
	switch (c) {
	case 'h':
		for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
			if (command && strcmp(command, commands[i].name) == 0)
				commands[i].help();
		if (!command)
			help_global();
		exit(EXIT_SUCCESS);
	case 'V':
		printf("pidfd from libpidfd %s\n", LIBPIDFD_VERSION_STRING);
		exit(EXIT_SUCCESS);
	default:
		getopt_error(argv, opts);
	}
}

/*
 * As util-linux's close_stream(): 0, or EOF with errno (0 where unknown).
 * A stream closed from the start (">&-") gives EBADF at fclose(), an
 * error only if something was to be written to it.
 */
static int close_stream(FILE *f)
{
	bool pending = __fpending(f) != 0, failed = ferror(f) != 0;
	bool close_failed = fclose(f) != 0;

	if (failed || (close_failed && (pending || errno != EBADF))) {
		if (!close_failed)
			errno = 0;
		return EOF;
	}
	return 0;
}

/*
 * As util-linux's close_stdout(): output that could not be written (a full
 * disk, /dev/full) is an error, and the exit status says so. A closed pipe
 * (EPIPE) is the reader's choice, not an error.
 */
static void close_stdout(void)
{
	if (close_stream(stdout) != 0 && errno != EPIPE) {
		if (errno)
			fprintf(stderr, "pidfd: write error: %s\n", strerror(errno));
		else
			fputs("pidfd: write error\n", stderr);
		_exit(EXIT_FAILURE);
	}
	if (close_stream(stderr) != 0)
		_exit(EXIT_FAILURE);
}

/*
 * As systemd does: the soft limit on descriptors up to the hard one, for
 * every command, which holds a pidfd for each process named.
 */
static void raise_fd_limit(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		OPTIONS_COMMON_END,
	};
	int c;

	inherited_fds_record(argc, argv);
	raise_fd_limit();
	setlocale(LC_ALL, "");
	/*
	 * glibc's default, said for every C library: musl line-buffers
	 * stdout until a first write finds no terminal, in 1 KiB, and a write
	 * that fails before the end leaves close_stdout() no errno to name
	 * (/dev/full's ENOSPC). Every usage text fits in 8 KiB.
	 */
	static char out_buf[8192];

	setvbuf(stdout, out_buf, isatty(STDOUT_FILENO) ? _IOLBF : _IOFBF,
		sizeof(out_buf));
	atexit(close_stdout);
	/* getopt's messages are getopt_error()'s, escaped. */
	opterr = 0;
	/* "+": options up to the command only; the command parses the rest. */
	while ((c = getopt_long(argc, argv, "+hV", opts, NULL)) != -1)
		common_option(c, argv, opts);
	if (optind >= argc)
		usage_error("no command specified");
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++) {
		if (strcmp(argv[optind], commands[i].name) == 0) {
			command = commands[i].name;
			argc -= optind;
			argv += optind;
			/*
			 * 0, not 1: only then does glibc start its scan
			 * afresh, permuting again, so that options may follow
			 * the processes as in every GNU tool.
			 */
			optind = 0;
			return commands[i].run(argc, argv);
		}
	}
	usage_error("unknown command '%s'", argv[optind]);
}
