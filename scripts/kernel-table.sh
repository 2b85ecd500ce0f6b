#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# The table of LIBPIDFD_KERNEL_* bits and their first mainline kernels in
# libpidfd_features(3), from include/internal/feature_list.h: make
# header-blocks writes it into the page's KERNEL block.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
list=$here/include/internal/feature_list.h
printf '#include "%s"\n#define X(N, n, s, e, w) @N s\nLPFD_FEATURES(X)\n' "$list" |
	${CC:-cc} -E -P -x c - | tr '@' '\n' |
	awk 'NF == 2 { gsub(/"/, "", $2); printf "LIBPIDFD_KERNEL_%s\t%s\n", $1, $2 }'
