/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * pidfd(1): process handles from the command line.
 *
 *   pidfd info [--json] [--output LIST] [--all | --user USER | PROCESS...]
 *   pidfd wait [--timeout SECONDS] [--json] PROCESS...
 *   pidfd kill [--signal SIGNAL | -SIGNAL] PROCESS...
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

#include "pidfd.h"

static void __attribute__((noreturn)) usage(void)
{
	fputs("Usage:\n"
	      " pidfd info [options] [<process>...]\n"
	      " pidfd wait [options] <process>...\n"
	      " pidfd kill [options] <process>...\n"
	      " pidfd features [options]\n"
	      "\n"
	      "Work with processes through pidfds, on every Linux kernel.\n"
	      "\n"
	      "Commands:\n"
	      " info      show what the kernel knows of each process\n"
	      " wait      wait until each process has exited, and tell how\n"
	      " kill      send a signal, never to a recycled pid\n"
	      " features  what this kernel does natively or emulated, and why\n"
	      "\n"
	      "A <process> is a PID, 'self' (pidfd itself) or 'fd:N' (a pidfd\n"
	      "inherited on file descriptor N). A thread ID stands for its\n"
	      "process (info shows the thread where the kernel can).\n"
	      "\n"
	      "Options:\n"
	      " -J, --json               one JSON document (info, wait, features)\n"
	      " -j, --json-lines         one JSON object per line (info, wait,\n"
	      "                            features)\n"
	      " -o, --output <list>      info: the fields to show ('+list' adds\n"
	      "                            to the default, 'all' shows all);\n"
	      "                            also --fields\n"
	      " -n, --noheadings         info: no header line\n"
	      " -r, --raw                info: no alignment, blanks escaped\n"
	      " -w, --wide               info: whole lines on a terminal too (else\n"
	      "                            ARGS is cut to its width, as by ps)\n"
	      " -a, --all                info: every process in /proc\n"
	      " -u, --user <user>        info: only processes of this effective\n"
	      "                            user (name or ID; alone: of all)\n"
	      " -t, --timeout <seconds>  wait: give up after this long (exit 3)\n"
	      " -c, --count <count>      wait: stop once this many have ended\n"
	      " -e, --exited             wait: one already gone counts as ended\n"
	      "     --exit-status        wait: exit with the last one's status\n"
	      " -s, --signal <signal>    kill: the signal, by name or number\n"
	      "                            (default: TERM); also -9, -KILL, -SIGKILL\n"
	      " -l, --list [<signal>...] kill: list the signal names and numbers;\n"
	      "                            a number's name, a name's number\n"
	      " -h, --help               display this help\n"
	      " -V, --version            display version\n"
	      "\n"
	      "Available info fields:\n",
	      stdout);
	info_list_fields(stdout);
	fputs("\nExit status: 0 success, 1 failure (or nothing matched), 2 not\n"
	      "supported by this kernel, 3 timeout, 64 kill: some processes\n"
	      "signalled, not all.\n"
	      "\nFor more details see pidfd(1).\n",
	      stdout);
	exit(EXIT_SUCCESS);
}

/* --help and --version, which every command accepts too. */
void common_option(int c)
{
	switch (c) {
	case 'h':
		usage();
		break;
	case 'V':
		printf("pidfd from libpidfd %s\n", LIBPIDFD_VERSION_STRING);
		exit(EXIT_SUCCESS);
	default:
		fputs("Try 'pidfd --help' for more information.\n", stderr);
		exit(EXIT_FAILURE);
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
	static const struct {
		const char *name;
		int (*fn)(int argc, char **argv);
	} cmds[] = {
		{ "info", cmd_info },
		{ "wait", cmd_wait },
		{ "kill", cmd_kill },
		{ "features", cmd_features },
	};
	int c;

	inherited_fds_record(argc, argv);
	raise_fd_limit();
	setlocale(LC_ALL, "");
	atexit(close_stdout);
	argv[0] = (char *)"pidfd"; /* for getopt's messages */
	/* "+": options up to the command only; the command parses the rest. */
	while ((c = getopt_long(argc, argv, "+hV", opts, NULL)) != -1)
		common_option(c);
	if (optind >= argc)
		usage_error("no command specified");
	for (size_t i = 0; i < ARRAY_SIZE(cmds); i++) {
		if (strcmp(argv[optind], cmds[i].name) == 0) {
			argc -= optind;
			argv += optind;
			argv[0] = (char *)"pidfd"; /* for getopt's messages */
			/*
			 * 0, not 1: only then does glibc start its scan
			 * afresh, permuting again, so that options may follow
			 * the processes as in every GNU tool.
			 */
			optind = 0;
			return cmds[i].fn(argc, argv);
		}
	}
	usage_error("unknown command '%s'", argv[optind]);
}
