/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The programs of examples/, run as a user would run them, on every kernel:
 * each must do what its comment promises.
 */
#include "cli.h"
#include "util.h"

TEST(example_supervisor_reports_each_ending)
{
	struct cli_out o;

	ASSERT_EQ(CLI(&o, "examples/supervisor", "exit 0", "sleep 0.1; exit 4",
		      "kill -KILL $$", "sleep 0.2"), 1);
	ASSERT_EQ(o.err[0], '\0');
	ASSERT_TRUE(strstr(o.out, " 'exit 0': exited 0\n") != NULL);
	ASSERT_TRUE(strstr(o.out, " 'sleep 0.1; exit 4': exited 4\n") != NULL);
	ASSERT_TRUE(strstr(o.out, " 'kill -KILL $$': killed by SIGKILL\n") != NULL);
	ASSERT_TRUE(strstr(o.out, " 'sleep 0.2': exited 0\n") != NULL);
	/* In the order they ended: the slowest last. */
	ASSERT_TRUE(strstr(line_of(o.out, 3), "'sleep 0.2'") != NULL);
	ASSERT_EQ(strcmp(line_of(o.out, 4), "2 of 4 failed"), 0);
	/* And its demonstration, with no arguments. */
	ASSERT_EQ(CLI(&o, "examples/supervisor"), 1);
	ASSERT_TRUE(strstr(o.out, "killed by SIGTERM") != NULL);
	ASSERT_EQ(CLI(&o, "examples/supervisor", "true"), 0);
}

/*
 * The client connects as nobody: the daemon must see uid 65534 from the
 * peer's pidfd, taken by SO_PEERPIDFD where the kernel has it (6.5).
 */
TEST(example_peercred_checks_the_peer)
{
	struct cli_out o;

	ASSERT_EQ(CLI(&o, "examples/peercred"), 0);
	ASSERT_EQ(o.err[0], '\0');
	ASSERT_TRUE(strstr(o.out, " uid 65534 gid 65534 ") != NULL);
	if (!util_kernel_has_peerpidfd())
		ASSERT_TRUE(strstr(o.out, "(pidfd from libpidfd_open(SO_PEERCRED pid))") != NULL);
	else
		ASSERT_TRUE(strstr(o.out, "(pidfd from SO_PEERPIDFD)") != NULL);
}

TEST(example_madvise_self_advises_all)
{
	struct cli_out o;

	ASSERT_EQ(CLI(&o, "examples/madvise-self"), 0);
	ASSERT_EQ(o.err[0], '\0');
	ASSERT_TRUE(strstr(o.out, "advised ") == o.out);
	ASSERT_TRUE(strstr(o.out, " as MADV_COLD\n") != NULL);
}
