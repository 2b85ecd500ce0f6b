/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The harness itself, through other test binaries of the build: a test
 * that needs privilege skips, with its reason, for uid 65534 and under
 * TEST_UNPRIVILEGED=1, and the run passes; -l lists the tests; an unknown
 * test name is an error that runs nothing; the mode comes from TEST_MODE
 * or LIBPIDFD_EMULATE alone.
 */
#include <grp.h>
#include <sys/stat.h>

#include "cli.h"

/* How to start the program: its environment, as whom, and from where. */
struct how {
	char *env[3];
	int uid;          /* -1: as we are */
	const char *copy; /* run this copy of the program instead */
};

static void prepare(char **argv, void *arg)
{
	const struct how *h = arg;

	clearenv();
	for (int i = 0; i < 3 && h->env[i]; i++)
		putenv(h->env[i]);
	if (h->uid >= 0 && (setgroups(0, NULL) || setresgid(h->uid, h->uid, h->uid) ||
			    setresuid(h->uid, h->uid, h->uid)))
		_exit(126);
	if (h->copy) {
		execv(h->copy, argv);
		_exit(127);
	}
}

static int run(struct cli_out *o, struct how *h, char **argv)
{
	return cli_run_pre(o, argv, prepare, h);
}

#define SKIPPED "ok 1 - stale_pidfd_after_forced_reuse # SKIP needs root: creates a pid namespace\n"

TEST(privileged_test_skips_with_its_reason_for_an_ordinary_user)
{
	char dir[] = "/tmp/libpidfd-harness.XXXXXX", copy[64], cmd[8400];
	struct how h = { { "TEST_MODE=native" }, 65534, copy };
	static struct cli_out o;
	int rc;

	REQUIRE_PRIVILEGE("runs a test binary as uid 65534");
	/* A copy uid 65534 can run, wherever the build lives. */
	ASSERT_TRUE(mkdtemp(dir) != NULL);
	ASSERT_EQ(chmod(dir, 0755), 0);
	snprintf(copy, sizeof(copy), "%s/test-reuse", dir);
	snprintf(cmd, sizeof(cmd), "cp '%s' '%s'",
		 cli_path("tests/test-reuse"), copy);
	ASSERT_EQ(system(cmd), 0);
	rc = run(&o, &h, (char *[]){ "tests/test-reuse",
				     "stale_pidfd_after_forced_reuse", NULL });
	unlink(copy);
	rmdir(dir);
	if (!strstr(o.out, SKIPPED) || !strstr(o.out, ": 0 passed, 0 failed, 1 skipped\n"))
		FAIL("as uid 65534: %s%s", o.out, o.err);
	ASSERT_EQ(rc, 0);
}

/* A package build's test step: privilege declined even by root. */
TEST(test_unprivileged_skips_even_as_root)
{
	struct how h = { { "TEST_MODE=native", "TEST_UNPRIVILEGED=1" }, -1, NULL };
	static struct cli_out o;
	int rc = run(&o, &h, (char *[]){ "tests/test-reuse",
					 "stale_pidfd_after_forced_reuse", NULL });

	if (!strstr(o.out, SKIPPED) || !strstr(o.out, ": 0 passed, 0 failed, 1 skipped\n"))
		FAIL("TEST_UNPRIVILEGED=1: %s%s", o.out, o.err);
	ASSERT_EQ(rc, 0);
}

TEST(list_names_every_test_and_runs_none)
{
	struct how h = { { NULL }, -1, NULL };
	static struct cli_out o;

	ASSERT_EQ(run(&o, &h, (char *[]){ "tests/test-open", "-l", NULL }), 0);
	ASSERT_EQ(strcmp(o.out, "open_self_and_getpid\n"
				"open_live_child_and_zombie\nopen_nonblock\n"
				"open_thread\nopen_bad_flags\nopen_bad_pid\n"
				"success_leaves_errno_alone\n"), 0);
}

TEST(unknown_test_name_is_an_error_that_runs_nothing)
{
	struct how h = { { NULL }, -1, NULL };
	static struct cli_out o;

	ASSERT_EQ(run(&o, &h, (char *[]){ "tests/test-open", "open_self_and_getpid",
					  "no_such_test", NULL }), 2);
	ASSERT_TRUE(strstr(o.err, "no test named 'no_such_test'") != NULL);
	ASSERT_EQ(o.out[0], '\0');
}

/*
 * features_match_mode checks the library's mode against the harness's. The
 * kernel's own mode is "uml" under user-mode-linux, "native" elsewhere.
 */
TEST(mode_comes_from_either_variable_alone)
{
	static char kernels[32];
	static struct how hows[] = {
		{ { "TEST_MODE=emulated" }, -1, NULL },
		{ { "LIBPIDFD_EMULATE=1" }, -1, NULL },
		{ { kernels, "LIBPIDFD_EMULATE=1" }, -1, NULL },
	};
	struct how bogus = { { "TEST_MODE=bogus" }, -1, NULL };
	static struct cli_out o;

	snprintf(kernels, sizeof(kernels), "TEST_MODE=%s",
		 strcmp(harness_mode(), "uml") == 0 ? "uml" : "native");

	for (size_t i = 0; i < sizeof(hows) / sizeof(hows[0]); i++) {
		int rc = run(&o, &hows[i], (char *[]){ "tests/test-features",
						       "features_match_mode", NULL });

		if (rc != 0 || !strstr(o.out, "ok 1 - features_match_mode\n"))
			FAIL("%s %s: %s", hows[i].env[0],
			     hows[i].env[1] ? hows[i].env[1] : "", o.out);
	}
	ASSERT_EQ(run(&o, &bogus, (char *[]){ "tests/test-features", NULL }), 2);
}
