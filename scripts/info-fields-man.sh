#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# The FIELDS of pidfd(1), a tagged paragraph each, from the tool's one
# list of them (INFO_FIELDS in cli/info.c): each name and the line --help
# gives. The preprocessor expands the list after the whole file, on the
# last line of its output.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
printf '#include "%s"\n#define C(name, type, get, need, help) @name help\nINFO_FIELDS(C)\n' \
	"$here/cli/info.c" |
	${CC:-cc} -E -P -D_GNU_SOURCE -I"$here/include" -x c - | tail -n 1 |
	tr '@' '\n' | sed -n 's/^ *"\([^"]*\)" *"\(.*\)" *$/\1\t\2/p' |
	awk -F '\t' '
		# roff: a backslash is \e, a minus \-; a dot or quote starts no request.
		function roff(s) { gsub(/\\/, "\\e", s); gsub(/-/, "\\-", s)
				   sub(/^[.\047]/, "\\\\&&", s); return s }
		{ printf "%s\n.B %s\n%s\n", NR == 1 ? ".TP 14" : ".TP", roff($1), roff($2) }'
