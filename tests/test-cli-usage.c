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

static const char try_line[] = "Try 'pidfd --help' for more information.\n";

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
		{ "pidfd", "features", "extra" },
		{ "pidfd", "features", "--bogus" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct cli_out o;
		size_t el;
		int r = cli_run(&o, (char **)cases[i]);

		el = strlen(o.err);
		if (r != 1 || o.out[0] || el < sizeof(try_line) - 1 ||
		    strcmp(o.err + el - (sizeof(try_line) - 1), try_line) ||
		    strncmp(o.err, "pidfd: ", 7))
			FAIL("case %zu (%s %s %s): exit %d, out '%s', err '%s'",
			     i, cases[i][1] ? cases[i][1] : "", cases[i][2] ?
			     cases[i][2] : "", cases[i][3] ? cases[i][3] : "",
			     r, o.out, o.err);
	}
}

TEST(help_on_stdout_exit_0)
{
	static const char *const cases[][4] = {
		{ "pidfd", "--help" }, { "pidfd", "-h" },
		{ "pidfd", "info", "--help" }, { "pidfd", "wait", "-h" },
		{ "pidfd", "kill", "--help" }, { "pidfd", "features", "--help" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct cli_out o;

		ASSERT_EQ(cli_run(&o, (char **)cases[i]), 0);
		ASSERT_EQ(o.err[0], '\0');
		ASSERT_EQ(strncmp(o.out, "Usage:\n pidfd info", 18), 0);
		ASSERT_TRUE(strstr(o.out, "--timeout") != NULL);
		ASSERT_TRUE(strstr(o.out, " CGROUP ") != NULL);
		ASSERT_TRUE(strstr(o.out, "pidfd(1)") != NULL);
		ASSERT_TRUE(strstr(o.out, " -l, --list ") != NULL);
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
