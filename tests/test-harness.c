/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The harness itself, through other test binaries of the build: a test
 * that needs privilege skips, with its reason, for uid 65534 and the run
 * passes; -l lists the tests; an unknown test name is an error that runs
 * nothing; the mode comes from TEST_MODE or LIBPIDFD_EMULATE alone.
 */
#include <fcntl.h>
#include <grp.h>
#include <libgen.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "harness.h"

struct run {
	char out[8192];
	int status;
};

/* BUILD/tests/NAME, beside this program. */
static void sibling(const char *name, char *out, size_t size)
{
	char self[4096];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	ASSERT_GE(n, 1);
	self[n] = '\0';
	snprintf(out, size, "%s/%s", dirname(self), name);
}

/* Run a program with these arguments and environment, as uid (or -1: as we are). */
static void run(struct run *r, int uid, char *const argv[], char *const envp[])
{
	int p[2];
	size_t len = 0;
	ssize_t n;
	pid_t pid;

	ASSERT_EQ(pipe2(p, O_CLOEXEC), 0);
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		dup2(p[1], 1);
		dup2(p[1], 2);
		if (uid >= 0 && (setgroups(0, NULL) || setresgid(uid, uid, uid) ||
				 setresuid(uid, uid, uid)))
			_exit(126);
		execve(argv[0], argv, envp);
		_exit(127);
	}
	close(p[1]);
	while ((n = read(p[0], r->out + len, sizeof(r->out) - 1 - len)) > 0)
		len += (size_t)n;
	r->out[len] = '\0';
	close(p[0]);
	ASSERT_EQ(waitpid(pid, &r->status, 0), pid);
}

TEST(privileged_test_skips_with_its_reason_for_an_ordinary_user)
{
	char src[4200], dir[] = "/tmp/libpidfd-harness.XXXXXX", bin[4200];
	char cmd[8600];
	char *argv[] = { bin, NULL }, *envp[] = { "TEST_MODE=native", NULL };
	struct run r;

	REQUIRE_PRIVILEGE("runs a test binary as uid 65534");
	/* A copy uid 65534 can run, wherever the build lives. */
	sibling("test-pid-reuse", src, sizeof(src));
	ASSERT_TRUE(mkdtemp(dir) != NULL);
	ASSERT_EQ(chmod(dir, 0755), 0);
	snprintf(bin, sizeof(bin), "%s/test-pid-reuse", dir);
	snprintf(cmd, sizeof(cmd), "cp '%s' '%s'", src, bin);
	ASSERT_EQ(system(cmd), 0);
	run(&r, 65534, argv, envp);
	unlink(bin);
	rmdir(dir);
	if (!strstr(r.out, "ok 1 - stale_pidfd_after_forced_reuse # SKIP needs root: creates a pid namespace\n") ||
	    !strstr(r.out, ": 0 passed, 0 failed, 1 skipped\n"))
		FAIL("as uid 65534: %s", r.out);
	ASSERT_TRUE(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 0);
}

TEST(list_names_every_test_and_runs_none)
{
	char bin[4200];
	char *argv[] = { bin, "-l", NULL }, *envp[] = { NULL };
	struct run r;

	sibling("test-smoke", bin, sizeof(bin));
	run(&r, -1, argv, envp);
	ASSERT_EQ(strcmp(r.out, "open_self_and_getpid\nget_info_self_fd\n"
				"features_match_mode\n"), 0);
	ASSERT_TRUE(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 0);
}

TEST(unknown_test_name_is_an_error_that_runs_nothing)
{
	char bin[4200];
	char *argv[] = { bin, "get_info_self_fd", "no_such_test", NULL };
	char *envp[] = { NULL };
	struct run r;

	sibling("test-smoke", bin, sizeof(bin));
	run(&r, -1, argv, envp);
	ASSERT_TRUE(strstr(r.out, "no test named 'no_such_test'") != NULL);
	ASSERT_TRUE(strstr(r.out, "ok ") == NULL);
	ASSERT_TRUE(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 2);
}

/* features_match_mode checks the library's mode against the harness's. */
TEST(mode_comes_from_either_variable_alone)
{
	static char *const envs[][2] = {
		{ "TEST_MODE=emulated", NULL },
		{ "LIBPIDFD_EMULATE=1", NULL },
		{ "TEST_MODE=native", "LIBPIDFD_EMULATE=1" },
	};
	char bin[4200];
	char *argv[] = { bin, "features_match_mode", NULL };
	struct run r;

	sibling("test-smoke", bin, sizeof(bin));
	for (size_t i = 0; i < sizeof(envs) / sizeof(envs[0]); i++) {
		char *envp[] = { envs[i][0], envs[i][1], NULL };

		run(&r, -1, argv, envp);
		if (!WIFEXITED(r.status) || WEXITSTATUS(r.status) != 0 ||
		    !strstr(r.out, "ok 1 - features_match_mode\n"))
			FAIL("%s %s: %s", envs[i][0], envs[i][1] ? envs[i][1] : "",
			     r.out);
	}
	argv[1] = NULL;
	{
		char *envp[] = { "TEST_MODE=bogus", NULL };

		run(&r, -1, argv, envp);
		ASSERT_TRUE(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 2);
	}
}

/* A package build's test step: privilege declined even by root. */
TEST(test_unprivileged_skips_even_as_root)
{
	char bin[4200];
	char *argv[] = { bin, NULL };
	char *envp[] = { "TEST_MODE=native", "TEST_UNPRIVILEGED=1", NULL };
	struct run r;

	sibling("test-pid-reuse", bin, sizeof(bin));
	run(&r, -1, argv, envp);
	if (!strstr(r.out, "# SKIP needs root: creates a pid namespace\n") ||
	    !strstr(r.out, ": 0 passed, 0 failed, 1 skipped\n"))
		FAIL("TEST_UNPRIVILEGED=1: %s", r.out);
	ASSERT_TRUE(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 0);
}
