#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# The table of which kernel features each kernel the tests run on has, in
# docs/testing.md, from include/internal/feature_list.h: a feature is
# there from its first mainline kernel on (make header-blocks writes the
# table into the page's FEATURES block), so a new one needs no edit here.
# Each column: its label, its kernel's version, and the features it
# shows although older than them (a personality is a filter on the host,
# which cannot take back what the host's struct says).
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
list=$here/include/internal/feature_list.h
columns='5.10 (filter)|5.10|
5.10 (qemu)|5.10|
6.1|6.1|
6.12 (UML, arm64)|6.12|
6.13 (filter)|6.13|INFO_COREDUMP
6.18 (host)|6.18|
7.2|7.2|
7.3 (x86_64 SMP, arm64)|7.3|'
printf '#include "%s"\n#define X(N, n, s, e, w) @N s w\nLPFD_FEATURES(X)\n' "$list" |
	${CC:-cc} -E -P -x c - | tr '@' '\n' |
	awk -v columns="$columns" '
	function num(v,  p) { split(v, p, "."); return p[1] * 65536 + p[2] }
	BEGIN {
		nc = split(columns, col, "\n")
		head = "| kernel feature (since) |"; rule = "| --- |"
		for (c = 1; c <= nc; c++) {
			split(col[c], f, "|")
			label[c] = f[1]; version[c] = f[2]; early[c] = " " f[3] " "
			head = head " " label[c] " |"; rule = rule " --- |"
		}
		print head; print rule
	}
	NF >= 3 {
		name = $1; since = $2; gsub(/"/, "", since)
		what = $0; sub(/^[^"]*"[^"]*" *"/, "", what); sub(/" *$/, "", what)
		# The call in backquotes, "(2)" dropped: `pidfd_open` (5.3).
		call = what; rest = ""
		if (match(what, / /)) { call = substr(what, 1, RSTART - 1); rest = substr(what, RSTART) }
		sub(/\(2\)$/, "", call)
		row = "| `" call "`" rest " (" since ") |"
		for (c = 1; c <= nc; c++) {
			has = num(since) <= num(version[c])
			if (!has && index(early[c], " " name " "))
				cell = "yes\\*"
			else
				cell = has ? "yes" : "no"
			row = row " " cell " |"
		}
		print row
	}'
