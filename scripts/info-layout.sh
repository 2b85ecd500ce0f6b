#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# The compile-time checks of struct pidfd_info that tests/header-use.h
# makes as a user would, from the library's one list of its fields and
# bits (include/internal/feature_list.h), and the layouts' sizes the
# public header defines: make writes them into that file's INFO block
# (scripts/header-block.sh), so a new field or bit is written once.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
list=$here/include/internal/feature_list.h
printf '#include "%s"\n%s\n%s\nLPFD_INFO_FIELDS(F)\nLPFD_INFO_BITS(B)\n' "$list" \
	'#define F(f, off, since, bit, col) @F f off since' \
	'#define B(NAME, feat, emul, last) @B NAME' |
	${CC:-cc} -E -P -x c - | tr '@' '\n' |
	cat - "$here/include/libpidfd.h" |
	awk '
	/^#define PIDFD_INFO_SIZE_VER[0-9]+ [0-9]+/ { size[nv++] = $3 }
	$1 == "F" { name[nf] = $2; off[nf] = $3; nf++ }
	$1 == "B" { bit[nb++] = "PIDFD_INFO_" $2 }
	END {
		print "/* The newest layout, every field: the library'"'"'s own struct always has it. */"
		print "#define SA_LAYOUT(t) \\"
		printf "\tSA(sizeof(struct t) == %d, \"size\"); \\\n", size[nv - 1]
		for (i = 1; i < nf; i++)
			printf "\tSA(offsetof(struct t, %s) == %d, \"%s\")%s\n", name[i], off[i],
			       name[i], i < nf - 1 ? "; \\" : ""
		for (v = 0; v < nv; v++)
			printf "SA(PIDFD_INFO_SIZE_VER%d == %d, \"ver\");\n", v, size[v]
		printf "static const unsigned long long info_bits[] = {"
		for (b = 0; b < nb; b++)
			printf "%s\n\t%s", b ? "," : "", bit[b]
		print " };"
	}'
