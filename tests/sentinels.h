/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Helpers of the tests of the PIDFD_SELF* sentinels (tests/test-sentinels-*.c). */
#ifndef LIBPIDFD_TEST_SENTINELS_H
#define LIBPIDFD_TEST_SENTINELS_H

#include <limits.h>
#include <pthread.h>
#include <stdbool.h>

#include "harness.h"
#include "internal.h"

/* Every value naming the caller, and the thread-group ones among them. */
static const int self_values[] = { PIDFD_SELF_THREAD, PIDFD_SELF_THREAD_GROUP,
				   LIBPIDFD_SELF_THREAD_GROUP_OLD };
/* Negative values that name nothing. */
static const int bad_values[] = { -10002, -20001, -1, INT_MIN, -10003, -19999 };

static inline bool is_group_value(int v)
{
	return v != PIDFD_SELF_THREAD;
}

/*
 * Run check twice: on the emulated path, then with the emulation switch
 * lifted (the kernel's path where it has one, else the emulation again).
 * The harness runs each test in a process of its own, so the switch does
 * not leak into other tests.
 */
static inline void sentinels_both_paths(void (*check)(void *), void *arg)
{
	lpfd_emulate_override(1);
	check(arg);
	lpfd_emulate_override(0);
	check(arg);
}

/* Run fn in a new thread and wait for it; it fails the test itself. */
static inline void sentinels_in_thread(void *(*fn)(void *), void *arg)
{
	pthread_t th;

	ASSERT_EQ(pthread_create(&th, NULL, fn, arg), 0);
	ASSERT_EQ(pthread_join(th, NULL), 0);
}

#endif
