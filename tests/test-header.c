/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The library builds warning-free with clang. How <libpidfd.h> compiles in
 * every language standard, include order and kernel header set is
 * tests/header.sh's, run once by make check (tests/static.sh).
 */
#include "harness.h"

/* Build-Depends names clang; the scratch build goes, pass or fail. */
TEST_TIMEOUT(library_builds_with_clang, 300)
{
	ASSERT_EQ(system("d=$(mktemp -d \"${TMPDIR:-/tmp}/libpidfd-clang.XXXXXX\")"
			 " || exit 1; make -s O=\"$d\" CC=clang lib >/dev/null;"
			 " r=$?; rm -rf \"$d\"; exit $r"), 0);
}
