#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# The members of struct pidfd_info as the public header lists them
# (LIBPIDFD_INFO_MEMBERS), one a line, those at offsets FROM up to TO
# (bytes, TO excluded): the copies of the struct in the tests that know
# only the kernel (tests/compat/kapi.c, tests/header.sh's future
# <linux/pidfd.h>) are written from it by make header-blocks.
#   scripts/info-members.sh [FROM [TO]]
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
sed -n '/^#define LIBPIDFD_INFO_MEMBERS/,/;$/p' "$here/include/libpidfd.h" |
	awk -v from="${1:-0}" -v to="${2:-1000000}" '
		$1 ~ /^__[us](32|64)$/ {
			sub(/ *\\$/, "")
			if (off >= from && off < to) print
			off += substr($1, 4) / 8
		}'
