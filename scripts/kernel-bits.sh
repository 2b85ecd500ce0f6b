#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# The public LIBPIDFD_KERNEL_* bits of <libpidfd.h>, one per line of
# include/internal/feature_list.h, numbered in its order: make writes
# them into the header's KERNEL block (scripts/header-block.sh).
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
list=$here/include/internal/feature_list.h
printf '#include "%s"\n#define X(N, n, s, e, w) @N s\nLPFD_FEATURES(X)\n' "$list" |
	${CC:-cc} -E -P -x c - | tr '@' '\n' |
	awk 'NF == 2 {
		gsub(/"/, "", $2)
		printf "#define LIBPIDFD_KERNEL_%-17s (1ULL << %d)%s /* %s */\n", $1, n, n < 10 ? " " : "", $2
		n++
	}'
