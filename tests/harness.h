/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The project's own small test harness. Each TEST() runs forked, bounded by
 * a timeout, and prints a TAP-like line; the binary ends with
 * "# N passed, N failed" (and ", N skipped" where tests skipped) and exits
 * non-zero on any failure.
 *
 *   test-foo [NAME...]   run all tests, or these (an unknown name is an error)
 *   test-foo -l          list the tests
 *
 * A test fails by a failed ASSERT_*, any exit other than 0, or a signal. It
 * skips ("ok N - name # SKIP reason") only by REQUIRE_PRIVILEGE(), when it
 * needs privilege the caller lacks: as root nothing skips, unless
 * TEST_UNPRIVILEGED=1 declines privilege (a package build's test step).
 *
 * The mode comes from TEST_MODE (native, emulated, uml), or where that is
 * unset from LIBPIDFD_EMULATE=1 (emulated); the harness then sets
 * LIBPIDFD_EMULATE to match, for the library and every program a test runs.
 */
#ifndef LIBPIDFD_TEST_HARNESS_H
#define LIBPIDFD_TEST_HARNESS_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/names.h"

typedef void (*harness_fn)(void);
/*
 * Constructors run in whatever order the link gives them (reversed under
 * LTO): the harness orders the tests by where they are written, file and
 * line, so that -l and every run list them in the source's order.
 */
void harness_register(const char *name, harness_fn fn, unsigned timeout_s,
		      const char *file, int line);
void harness_fail(const char *file, int line, const char *fmt, ...)
	__attribute__((noreturn, format(printf, 3, 4)));

#define TEST_TIMEOUT(name, secs)                                              \
	static void name(void);                                               \
	__attribute__((constructor)) static void register_##name(void)        \
	{                                                                     \
		harness_register(#name, name, secs, __FILE__, __LINE__);      \
	}                                                                     \
	static void name(void)

#define TEST(name) TEST_TIMEOUT(name, 20)

#define FAIL(...) harness_fail(__FILE__, __LINE__, __VA_ARGS__)

/*
 * The test ends here as skipped, with this reason, unless the caller is
 * root with CAP_SYS_ADMIN (and TEST_UNPRIVILEGED=1 is not set). Call it from the test itself (not from a child
 * it forked) before the first step that needs the privilege.
 */
void harness_skip(const char *fmt, ...)
	__attribute__((noreturn, format(printf, 1, 2)));
bool harness_privileged(void);
#define REQUIRE_PRIVILEGE(why)                                                \
	do {                                                                  \
		if (!harness_privileged())                                    \
			harness_skip("needs root: %s", why);                  \
	} while (0)

#define ASSERT_TRUE(c)                                                        \
	do {                                                                  \
		if (!(c))                                                     \
			FAIL("assertion failed: %s (errno %d: %s)", #c,       \
			     errno, strerror(errno));                         \
	} while (0)

#define ASSERT_EQ(a, b)                                                       \
	do {                                                                  \
		long long _a = (long long)(a), _b = (long long)(b);           \
		if (_a != _b)                                                 \
			FAIL("%s == %s: %lld != %lld (errno %d: %s)", #a, #b, \
			     _a, _b, errno, strerror(errno));                 \
	} while (0)

#define ASSERT_NE(a, b)                                                       \
	do {                                                                  \
		long long _a = (long long)(a), _b = (long long)(b);           \
		if (_a == _b)                                                 \
			FAIL("%s != %s: both %lld", #a, #b, _a);              \
	} while (0)

#define ASSERT_GE(a, b)                                                       \
	do {                                                                  \
		long long _a = (long long)(a), _b = (long long)(b);           \
		if (_a < _b)                                                  \
			FAIL("%s >= %s: %lld < %lld (errno %d: %s)", #a, #b,  \
			     _a, _b, errno, strerror(errno));                 \
	} while (0)

/* A call that must fail with -1 and exactly this errno. */
#define ASSERT_ERRNO(call, err)                                               \
	do {                                                                  \
		errno = 0;                                                    \
		long long _r = (long long)(call);                             \
		int _e = errno;                                               \
		if (_r != -1 || _e != (err))                                  \
			FAIL("%s: want -1/%s, got %lld/%s", #call,            \
			     lpfd_errno_name(err) ? lpfd_errno_name(err) : "?", \
			     _r, _e ? lpfd_errno_name(_e) : "0");             \
	} while (0)

/* TEST_PERSONALITY=5.10: answer as that kernel would (tests/personality.c). */
void personality_install(void);

/* Where the tests run: "native", "emulated" or "uml" (from TEST_MODE). */
const char *harness_mode(void);
/* The monotonic clock, in seconds. */
double harness_seconds_now(void);

#endif
