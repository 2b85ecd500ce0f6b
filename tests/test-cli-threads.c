/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A thread id given to pidfd: kill and wait act on the thread's process,
 * as kill(1) does; info shows the thread itself where the kernel has
 * thread pidfds (PIDFD_THREAD, 6.9), else says whose thread it is and
 * shows that process. The thread is one of this test's own, parked.
 */
#include <pthread.h>
#include <signal.h>

#include <libpidfd.h>

#include "cli.h"
#include "util.h"

static bool thread_pidfds(void)
{
	struct libpidfd_features f;

	ASSERT_EQ(libpidfd_features(&f, sizeof(f)), 0);
	return f.thread_pidfds != LIBPIDFD_UNAVAILABLE;
}

TEST(info_shows_the_thread_or_says_whose_it_is)
{
	struct util_parked th;
	struct cli_out o;
	char tid[16], self[16], want[64];

	snprintf(tid, sizeof(tid), "%d", util_park_thread(&th));
	snprintf(self, sizeof(self), "%d", getpid());
	ASSERT_EQ(CLI(&o, "pidfd", "info", "-rn", "-o", "PID,TGID", tid), 0);
	if (thread_pidfds()) {
		/* The thread's own ids: its tid, its process's. */
		snprintf(want, sizeof(want), "%s %s\n", tid, self);
		ASSERT_EQ(o.err[0], '\0');
	} else {
		snprintf(want, sizeof(want), "%s %s\n", self, self);
		if (!strstr(o.err, "is a thread of process"))
			FAIL("no note on stderr: '%s'", o.err);
		ASSERT_TRUE(strstr(o.err, tid) && strstr(o.err, self));
	}
	if (strcmp(o.out, want) != 0)
		FAIL("want '%s', got '%s' (stderr '%s')", want, o.out, o.err);
	/* JSON: the same, one document. */
	ASSERT_EQ(CLI(&o, "pidfd", "info", "-J", "-o", "PID,TGID", tid), 0);
	ASSERT_TRUE(json_valid(o.out));
	ASSERT_EQ(strcmp(json_get(o.out, "tgid"), self), 0);
	util_unpark_thread(&th);
}

/* A thread that is gone is no process: the first error stands. */
TEST(info_of_an_ended_thread_fails)
{
	struct util_parked th;
	struct cli_out o;
	char tid[16];

	snprintf(tid, sizeof(tid), "%d", util_park_thread(&th));
	util_unpark_thread(&th);
	CLI_FAILS(&o, "cannot open process", "pidfd", "info", tid);
	ASSERT_EQ(o.out[0], '\0');
}

/*
 * kill: the signal goes to the process, not to the thread: blocked in
 * every thread, it is pending for the main thread too, which a
 * thread-directed signal to the parked thread would not be.
 */
TEST(kill_signals_the_threads_process)
{
	struct util_parked th;
	struct cli_out o;
	sigset_t usr1, pending;
	char tid[16];

	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	ASSERT_EQ(sigprocmask(SIG_BLOCK, &usr1, NULL), 0);
	snprintf(tid, sizeof(tid), "%d", util_park_thread(&th));
	ASSERT_EQ(CLI(&o, "pidfd", "kill", "-s", "USR1", tid), 0);
	ASSERT_EQ(o.err[0], '\0');
	ASSERT_EQ(sigpending(&pending), 0);
	ASSERT_TRUE(sigismember(&pending, SIGUSR1));
	util_unpark_thread(&th);
}

/* wait: the thread's process is watched (still running at the timeout). */
TEST(wait_watches_the_threads_process)
{
	struct util_parked th;
	struct cli_out o;
	char tid[16];

	snprintf(tid, sizeof(tid), "%d", util_park_thread(&th));
	ASSERT_EQ(CLI(&o, "pidfd", "wait", "-t", "0", tid), 3);
	ASSERT_TRUE(strstr(o.err, "timed out; still running") != NULL);
	ASSERT_TRUE(strstr(o.err, tid) != NULL);
	ASSERT_EQ(CLI(&o, "pidfd", "wait", "-J", "-t", "0", tid), 3);
	ASSERT_TRUE(json_valid(o.out));
	util_unpark_thread(&th);
}
