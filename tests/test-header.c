/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The library builds warning-free with clang. How <libpidfd.h> compiles in
 * every language standard, include order and kernel header set is
 * tests/header.sh's, run once by make check (tests/static.sh).
 */
#include "harness.h"

TEST_TIMEOUT(library_builds_with_clang, 300)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd),
		 "make -s O=/tmp/libpidfd-clang-%d CC=clang lib >/dev/null",
		 getpid());
	ASSERT_EQ(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), "rm -rf /tmp/libpidfd-clang-%d", getpid());
	ASSERT_EQ(system(cmd), 0);
}
