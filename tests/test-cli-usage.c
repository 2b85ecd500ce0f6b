/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * pidfd's conventions, util-linux's: --help on stdout with exit 0,
 * --version, every usage error on stderr with the "Try" line and exit 1;
 * and what pidfd features says on each kernel.
 */
#include <libpidfd.h>

#include "cli.h"
#include "internal.h"
#include "util.h"

static const char *const commands[] = { "info", "wait", "kill", "features" };

/* The "Try" line for argv: the command's own --help, if one is named. */
static const char *try_line(char *const *argv)
{
	static char line[80];
	const char *cmd = "";

	for (size_t c = 0; argv[1] && c < UTIL_COUNT(commands); c++)
		if (strcmp(argv[1], commands[c]) == 0)
			cmd = commands[c];
	snprintf(line, sizeof(line), "Try 'pidfd%s%s --help' for more information.\n",
		 *cmd ? " " : "", cmd);
	return line;
}

/* Every usage error: exit 1, nothing on stdout, the Try line last. */
TEST(usage_errors_exit_1_with_try_line)
{
	static const char *const cases[][8] = {
		{ "pidfd" },
		{ "pidfd", "frobnicate" },
		{ "pidfd", "--bogus" },
		{ "pidfd", "info" },
		{ "pidfd", "info", "abc" },
		{ "pidfd", "info", "0" },
		{ "pidfd", "info", "-5" },
		{ "pidfd", "info", "12x" },
		{ "pidfd", "info", "99999999999" },
		{ "pidfd", "info", "fd:" },
		{ "pidfd", "info", "fd:x" },
		{ "pidfd", "info", "--fields", "PID,NOPE", "self" },
		{ "pidfd", "info", "--fields", ",", "self" },
		{ "pidfd", "info", "--fields" },
		{ "pidfd", "info", "--bogus", "self" },
		{ "pidfd", "info", "-x", "self" },
		{ "pidfd", "wait" },
		{ "pidfd", "wait", "--timeout", "abc", "1" },
		{ "pidfd", "wait", "--timeout", "-1", "1" },
		{ "pidfd", "wait", "--timeout", "nan", "1" },
		{ "pidfd", "wait", "-t" },
		{ "pidfd", "wait", "self", "nope" },
		{ "pidfd", "kill" },
		{ "pidfd", "kill", "-s", "NOSUCH", "1" },
		{ "pidfd", "kill", "-s", "65", "1" },
		{ "pidfd", "kill", "-s", "RTMIN+99", "1" },
		{ "pidfd", "kill", "-s" },
		{ "pidfd", "kill", "-NOSUCH", "1" },
		{ "pidfd", "kill", "1", "-9" },
		{ "pidfd", "wait", "--timeout", "0x10", "1" },
		{ "pidfd", "wait", "--timeout", "1e3", "1" },
		{ "pidfd", "wait", "--timeout", "inf", "1" },
		{ "pidfd", "wait", "--timeout", " 5", "1" },
		{ "pidfd", "wait", "--timeout", "+5", "1" },
		{ "pidfd", "wait", "--timeout", "1.", "1" },
		{ "pidfd", "wait", "--timeout", "99999999999", "1" },
		{ "pidfd", "info", "+5" },
		{ "pidfd", "info", "0x10" },
		{ "pidfd", "info", "fd:0x3" },
		{ "pidfd", "kill", "--timeout", "100" },
		{ "pidfd", "kill", "1", "--timeout", "100" },
		{ "pidfd", "kill", "--timeout", "x", "KILL", "1" },
		{ "pidfd", "kill", "--timeout", "-5", "KILL", "1" },
		{ "pidfd", "kill", "--timeout", "5", "NOSUCH", "1" },
		{ "pidfd", "kill", "-q", "x", "1" },
		{ "pidfd", "kill", "-q", "2147483648", "1" },
		{ "pidfd", "kill", "--thread", "--pgrp", "1" },
		{ "pidfd", "kill", "--verbose" },
		{ "pidfd", "features", "extra" },
		{ "pidfd", "features", "--bogus" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct cli_out o;
		const char *try = try_line((char **)cases[i]);
		size_t el, tl = strlen(try);
		int r = cli_run(&o, (char **)cases[i]);

		el = strlen(o.err);
		if (r != 1 || o.out[0] || el < tl ||
		    strcmp(o.err + el - tl, try) ||
		    strncmp(o.err, "pidfd: ", 7))
			FAIL("case %zu (%s %s %s): exit %d, out '%s', err '%s'",
			     i, cases[i][1] ? cases[i][1] : "", cases[i][2] ?
			     cases[i][2] : "", cases[i][3] ? cases[i][3] : "",
			     r, o.out, o.err);
	}
}

/* The help of "pidfd cmd" ("" for pidfd alone), by --help or -h. */
static const char *help_of(const char *cmd, const char *opt)
{
	static struct cli_out o;

	if (*cmd)
		ASSERT_EQ(CLI(&o, "pidfd", (char *)cmd, (char *)opt), 0);
	else
		ASSERT_EQ(CLI(&o, "pidfd", (char *)opt), 0);
	ASSERT_EQ(o.err[0], '\0');
	ASSERT_TRUE(strstr(o.out, "pidfd(1)") != NULL);
	ASSERT_TRUE(strstr(o.out, " -h, --help ") != NULL);
	ASSERT_TRUE(strstr(o.out, " -V, --version ") != NULL);
	return o.out;
}

/*
 * pidfd --help names the commands; each command's --help is its own, as
 * in util-linux's multi-command tools: its usage and options, no other's.
 */
TEST(help_on_stdout_exit_0)
{
	static const struct {
		const char *cmd, *has, *lacks;
	} cases[] = {
		{ "", "\n kill      send a signal", " --signal " },
		{ "", "\n info      show", " CGROUP " },
		{ "info", " -o, --output <list> ", " --signal " },
		{ "info", "\n CGROUP ", " --timeout " },
		{ "wait", " -t, --timeout <seconds> ", " --output " },
		{ "wait", " -J, --json ", " --signal " },
		{ "kill", " -s, --signal <signal> ", " --output " },
		{ "kill", " -l, --list ", " --json" },
		{ "kill", "64 some processes", " CGROUP " },
		{ "features", " -j, --json-lines ", " --signal " },
		{ "features", "Exit status", " --all " },
	};

	for (size_t i = 0; i < UTIL_COUNT(cases); i++) {
		char usage[64];

		for (int h = 0; h < 2; h++) {
			const char *out = help_of(cases[i].cmd, h ? "-h" : "--help");

			snprintf(usage, sizeof(usage), "Usage:\n pidfd %s",
				 *cases[i].cmd ? cases[i].cmd : "info");
			ASSERT_EQ(strncmp(out, usage, strlen(usage)), 0);
			if (!strstr(out, cases[i].has))
				FAIL("pidfd %s --help lacks '%s':\n%s",
				     cases[i].cmd, cases[i].has, out);
			if (strstr(out, cases[i].lacks))
				FAIL("pidfd %s --help has '%s':\n%s",
				     cases[i].cmd, cases[i].lacks, out);
		}
	}
	/* Options anywhere: --help after a process is the command's too. */
	ASSERT_EQ(strncmp(help_of("kill", "--help"), "Usage:\n pidfd kill", 18), 0);
	ASSERT_EQ(strcmp(help_of("features", "--help"), help_of("features", "-h")), 0);
}

/* A control byte or an escape sequence in an option: escaped, as always. */
TEST(getopt_errors_are_escaped)
{
	static const char *const cases[][5] = {
		{ "pidfd", "info", "-\x1b", "self", "invalid option -- '\\x1b'" },
		{ "pidfd", "info", "--\x1b[2J", "self",
		  "unrecognized option '--\\x1b[2J'" },
		{ "pidfd", "--\x1b]0;title\x07", "info", "self",
		  "unrecognized option '--\\x1b]0;title\\x07'" },
		{ "pidfd", "info", "--json=\x1b[2J", "self",
		  "option '--json' doesn't allow an argument" },
		{ "pidfd", "info", "--js\x1b", "self",
		  "unrecognized option '--js\\x1b'" },
		{ "pidfd", "info", "--js", "self",
		  "option '--js' is ambiguous; possibilities: '--json' '--json-lines'" },
		{ "pidfd", "info", "--fi", NULL,
		  "option '--fields' requires an argument" },
		{ "pidfd", "kill", "1", "-s", "option requires an argument -- 's'" },
		{ "pidfd", "info", "-nz", "self", "invalid option -- 'z'" },
		{ "pidfd", "info", "--raw", "-zn", "invalid option -- 'z'" },
		{ "pidfd", "info", "--raw=1", "self",
		  "option '--raw' doesn't allow an argument" },
	};

	for (size_t i = 0; i < UTIL_COUNT(cases); i++) {
		char *argv[5] = { 0 }, want[160];
		struct cli_out o;

		for (int a = 0; a < 4 && cases[i][a]; a++)
			argv[a] = (char *)cases[i][a];
		if (!cases[i][3])
			argv[3] = NULL;
		/* Named by its command, once there is one. */
		snprintf(want, sizeof(want), "pidfd: %s%s%s\n%s",
			 argv[1][0] == '-' ? "" : argv[1],
			 argv[1][0] == '-' ? "" : ": ", cases[i][4],
			 try_line(argv));
		ASSERT_EQ(cli_run(&o, argv), 1);
		if (strcmp(o.err, want))
			FAIL("case %zu: '%s', want '%s'", i, o.err, want);
	}
}

/* Options anywhere, as in every GNU tool: after the processes too. */
TEST(options_after_processes)
{
	struct cli_out o;

	ASSERT_EQ(CLI(&o, "pidfd", "info", "self", "-o", "PID,PPID"), 0);
	ASSERT_TRUE(strstr(line_of(o.out, 0), "PID") != NULL);
	ASSERT_TRUE(strstr(line_of(o.out, 0), "PPID") != NULL);
	ASSERT_EQ(atoi(strrchr(line_of(o.out, 1), ' ') + 1), getpid());
	ASSERT_EQ(CLI(&o, "pidfd", "wait", "1", "-t", "0"), 3);
	ASSERT_TRUE(strstr(o.err, "timed out") != NULL);
	ASSERT_EQ(CLI(&o, "pidfd", "features", "--help"), 0);
	/* "--" still ends the options. */
	ASSERT_EQ(CLI(&o, "pidfd", "wait", "-t", "0", "--", "1"), 3);
}

/* A timeout is a plain decimal number of seconds. */
TEST(timeout_decimal_fractions)
{
	struct cli_out o;

	ASSERT_EQ(CLI(&o, "pidfd", "wait", "-t", "0.05", "1"), 3);
	ASSERT_EQ(CLI(&o, "pidfd", "wait", "-t", "000", "1"), 3);
}

TEST(version_on_stdout_exit_0)
{
	static const char *const cases[][3] = {
		{ "pidfd", "--version" }, { "pidfd", "-V" },
		{ "pidfd", "kill", "-V" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct cli_out o;

		ASSERT_EQ(cli_run(&o, (char **)cases[i]), 0);
		ASSERT_EQ(strcmp(o.out, "pidfd from libpidfd "
				 LIBPIDFD_VERSION_STRING "\n"), 0);
		ASSERT_EQ(o.err[0], '\0');
	}
}

/* The lines of `pidfd features -j`: one per operation, then the kernel's. */
#define ONE(...) +1
#define KERNEL_LINE (0 LPFD_OPERATIONS(ONE))

/* What features says agrees with the library, and gives its reasons. */
TEST(features_table_and_json_agree_with_library)
{
	struct libpidfd_features f;
	struct cli_out o;
	bool emulated = strcmp(harness_mode(), "emulated") == 0;
	bool info = util_kernel_has(LPFD_FEAT_GET_INFO);

	ASSERT_EQ(libpidfd_features(&f, sizeof(f)), 0);
	ASSERT_EQ(CLI(&o, "pidfd", "features"), 0);
	ASSERT_EQ(strncmp(o.out, "OPERATION", 9), 0);
	/* Forced where the kernel has it; where not, its lack is the why. */
	if (emulated && info)
		ASSERT_TRUE(strstr(o.out, "get_info          emulated    "
				   "LIBPIDFD_EMULATE=1 forces it") != NULL);
	else if (!info)
		ASSERT_TRUE(strstr(o.out, "get_info          emulated    kernel "
				   "lacks PIDFD_GET_INFO (Linux 6.13)") != NULL);
	else
		ASSERT_TRUE(strstr(o.out, "get_info          native      kernel "
				   "has PIDFD_GET_INFO (Linux 6.13)") != NULL);
	if (!util_kernel_has(LPFD_FEAT_PIDFD_THREAD))
		ASSERT_TRUE(strstr(o.out, "thread_pidfds     unavailable kernel "
				   "lacks PIDFD_THREAD (Linux 6.9)") != NULL);
	else
		ASSERT_TRUE(strstr(o.out, "thread_pidfds     native      kernel "
				   "has PIDFD_THREAD (Linux 6.9)") != NULL);
	ASSERT_TRUE(strstr(o.out, emulated ? "emulation forced: yes" :
			   "emulation forced: no") != NULL);

	ASSERT_EQ(CLI(&o, "pidfd", "features", "--json"), 0);
	ASSERT_TRUE(json_valid(o.out));
	ASSERT_TRUE(strstr(o.out, emulated ? "\"emulate_forced\": true" :
			   "\"emulate_forced\": false") != NULL);
	ASSERT_TRUE(strstr(o.out, "{\"operation\":\"get_info\",\"support\":\"") != NULL);
	ASSERT_EQ(CLI(&o, "pidfd", "features", "-j"), 0);
	ASSERT_EQ(strcmp(json_get(line_of(o.out, 1), "operation"), "get_info"), 0);
	ASSERT_EQ(strcmp(json_get(line_of(o.out, 1), "support"),
			 f.get_info == LIBPIDFD_NATIVE ? "native" : "emulated"), 0);
	ASSERT_EQ(strcmp(json_get(line_of(o.out, KERNEL_LINE), "emulate_forced"),
			 emulated ? "true" : "false"), 0);
	ASSERT_EQ(strcmp(json_get(line_of(o.out, KERNEL_LINE), "PIDFD_GET_INFO"),
			 f.kernel & LIBPIDFD_KERNEL_GET_INFO ? "true" : "false"), 0);
}

/*
 * Output modes that cannot hold together are a usage error, as lsblk's
 * "mutually exclusive arguments": a JSON document with JSON lines, a raw
 * or headerless table, in every command that has them.
 */
TEST(conflicting_output_modes_are_usage_errors)
{
	static const char *const cases[][6] = {
		{ "pidfd", "info", "-J", "-r", "self" },
		{ "pidfd", "info", "-J", "-n", "self" },
		{ "pidfd", "info", "-J", "-j", "self" },
		{ "pidfd", "info", "-j", "--raw", "self" },
		{ "pidfd", "info", "--noheadings", "-j", "self" },
		{ "pidfd", "info", "-rJ", "self" },
		{ "pidfd", "wait", "-J", "-j", "self" },
		{ "pidfd", "features", "-j", "-J" },
	};
	struct cli_out o;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (cli_run(&o, (char **)cases[i]) != 1 ||
		    !strstr(o.err, "mutually exclusive arguments: --") ||
		    !strstr(o.err, "Try 'pidfd") || o.out[0])
			FAIL("%s %s %s: %d, %s", cases[i][1], cases[i][2],
			     cases[i][3], o.status, o.err);
	}
	ASSERT_EQ(CLI(&o, "pidfd", "info", "-n", "-r", "-o", "PID", "self"), 0);
	ASSERT_EQ(CLI(&o, "pidfd", "info", "-J", "-J", "-o", "PID", "self"), 0);
}

/* Each line of "info -H": the column right-aligned, its type, its help. */
static void expect_column_line(const char *out, const char *name,
			       const char *type)
{
	char want[64];

	snprintf(want, sizeof(want), " %s %-9s ", name, type);
	if (!strstr(out, want))
		FAIL("no '%s' in: %s", want, out);
}

/*
 * -H/--list-columns, as util-linux 2.40 has it: every column with its
 * type and description, needing no process; with -J one JSON document,
 * as lsblk -H -J prints it.
 */
TEST(list_columns_as_util_linux)
{
	struct cli_out o, help;
	size_t lines = 0, fields = 0;
	const char *f;

	ASSERT_EQ(CLI(&o, "pidfd", "info", "-H"), 0);
	expect_column_line(o.out, "PID", "<integer>");
	expect_column_line(o.out, "ARGS", "<string>");
	ASSERT_TRUE(strstr(o.out, "\nCOREDUMPCODE <integer> its si_code") != NULL);
	ASSERT_TRUE(strstr(o.out, "         PID <integer> process ID") != NULL);
	for (const char *p = o.out; *p; p = strchr(p, '\n') + 1)
		lines++;
	ASSERT_EQ(CLI(&help, "pidfd", "info", "--help"), 0);
	f = strstr(help.out, "Available fields:\n");
	ASSERT_TRUE(f != NULL);
	for (const char *p = strchr(f, '\n') + 1; p[0] == ' '; p = strchr(p, '\n') + 1)
		fields++;
	ASSERT_EQ(lines, fields);
	ASSERT_EQ(CLI(&o, "pidfd", "info", "--list-columns", "--json"), 0);
	ASSERT_TRUE(json_valid(o.out));
	ASSERT_TRUE(strncmp(o.out, "{\n   \"pidfd-columns\": [\n      {\n"
			    "         \"holder\": \"PID\",\n"
			    "         \"type\": \"<integer>\",\n"
			    "         \"description\": \"process ID", 120) == 0);
	ASSERT_EQ(CLI(&o, "pidfd", "info", "-H", "-r"), 0);
	ASSERT_TRUE(strstr(o.out, "\nCOMM <string> command\\x20name\n") != NULL);
	ASSERT_EQ(CLI(&o, "pidfd", "info", "-H", "self"), 1);
}

/* A signal mistyped or forgotten: the message says which, and how. */
TEST(kill_says_what_was_wrong_with_its_signal)
{
	static const char *const cases[][5] = {
		{ "-99", "1", NULL, NULL,
		  "kill: unknown signal 99: signals are numbered 0 to " },
		{ "-9x", "1", NULL, NULL, "kill: unknown signal '9x' ('pidfd kill "
					  "-l' lists them)" },
		{ "-s", "NOSUCH", "1", NULL, "kill: unknown signal 'NOSUCH'" },
		{ "--timeout", "1000", "4242", NULL,
		  "kill: --timeout 1000: '4242' is not a signal; --timeout takes "
		  "the milliseconds, then the signal to send (--timeout 1000 KILL)" },
	};

	for (size_t i = 0; i < UTIL_COUNT(cases); i++) {
		char *argv[7] = { "pidfd", "kill" }, want[200];
		struct cli_out o;

		for (int a = 0; a < 4 && cases[i][a]; a++)
			argv[2 + a] = (char *)cases[i][a];
		snprintf(want, sizeof(want), "pidfd: %s", cases[i][4]);
		ASSERT_EQ(cli_run(&o, argv), 1);
		if (strncmp(o.err, want, strlen(want)) != 0 ||
		    !strstr(o.err, "Try 'pidfd kill --help'"))
			FAIL("case %zu: '%s', want '%s'", i, o.err, want);
	}
}
