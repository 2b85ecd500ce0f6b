#!/bin/sh
# The checks that need no kernel, run once by make check and counted like
# the tests: every manual page lints clean (mandoc -Tlint, warnings fail),
# renders at 80 columns without a groff warning, has the sections its kind
# needs in order (section 3: ATTRIBUTES with MT-Safe and AS-Safe), every
# public function has its page, <libpidfd.h> compiles everywhere it should
# (tests/header.sh), and the package installs and builds a user's program
# (install-check).
#   tests/static.sh BUILD_DIR
# The last line is "# static: N passed, N failed".
set -u
build=${1:-build}
here=$(cd "$(dirname "$0")/.." && pwd)
passed=0
failed=0
n=0

result() { # status, description
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		passed=$((passed + 1))
		echo "[static] ok $n - $2"
	else
		failed=$((failed + 1))
		echo "[static] not ok $n - $2"
	fi
}

# Sections in the order man-pages(7) has them (liburing's pages too).
sections3="NAME SYNOPSIS DESCRIPTION RETURN_VALUE ERRORS ATTRIBUTES VERSIONS STANDARDS HISTORY NOTES EXAMPLES SEE_ALSO"
sections1="NAME SYNOPSIS DESCRIPTION OPTIONS EXIT_STATUS EXAMPLES SEE_ALSO"
sections7="NAME DESCRIPTION NOTES SEE_ALSO"

# Each section of the list, in its order (others may come between).
has_sections() { # page, list
	line=0
	for s in $2; do
		at=$(grep -n "^\.SH \"*$(echo "$s" | tr _ ' ')\"*\$" "$1" | cut -d: -f1)
		if [ -z "$at" ]; then
			echo "# $1: no $(echo "$s" | tr _ ' ') section"
			return 1
		elif [ "$at" -lt "$line" ]; then
			echo "# $1: $(echo "$s" | tr _ ' ') is out of order"
			return 1
		fi
		line=$at
	done
}

# A section 3 page says, in the man-pages table, that its function is
# MT-Safe and AS-Safe.
has_attributes() { # page
	f=$(basename "$1" .3)
	for a in "Thread safety	MT-Safe" "Async-signal safety	AS-Safe"; do
		grep -B 4 "^T}	$a\$" "$1" | grep -q "^\\\\fB$f\\\\fP()\$" || {
			echo "# $1: no \"$a\" row for $f()"
			return 1
		}
	done
}

# What man(1) shows at 80 columns, without a single groff warning.
groff_warnings() { # page
	groff -k -t -man -Tutf8 -ww -z -rLL=80n -rLT=80n "$1" 2>&1
}

command -v mandoc > /dev/null || echo "# mandoc missing: apt-get install mandoc"
command -v groff > /dev/null || echo "# groff missing: apt-get install groff-base"
for page in "$here"/man/*.[137]; do
	name=$(basename "$page")
	out=$(mandoc -Tlint -W warning "$page" 2>&1)
	r=$?
	[ -n "$out" ] && { echo "$out" | sed 's/^/# /'; r=1; }
	result $r "mandoc -Tlint $name"
	eval "want=\$sections${name##*.}"
	has_sections "$page" "$want"
	result $? "sections of $name"
	out=$(groff_warnings "$page")
	[ -z "$out" ]
	r=$?
	echo "$out" | sed '/^$/d; s/^/# /'
	result $r "groff -ww at 80 columns: $name"
	case $name in libpidfd_*.3)
		has_attributes "$page"
		result $? "ATTRIBUTES of $name" ;;
	esac
done

# Every public function (the version script's global list) has its page,
# which names it in NAME and SYNOPSIS; and no page names a function that
# is not public.
funcs=$(sed -n 's/^[[:space:]]*\(libpidfd_[a-z_]*\);$/\1/p' "$here/src/libpidfd.map")
[ -n "$funcs" ] || echo "# no functions found in src/libpidfd.map"
for f in $funcs; do
	page="$here/man/$f.3"
	r=0
	if [ ! -f "$page" ]; then
		echo "# $f: no man/$f.3"
		r=1
	elif ! grep -q "^$f \\\\-" "$page" || ! grep -q "\"[a-z_ *]*$f(" "$page"; then
		echo "# man/$f.3 does not name $f in NAME and SYNOPSIS"
		r=1
	fi
	result $r "page for $f"
done
extra=0
for page in "$here"/man/libpidfd_*.3; do
	f=$(basename "$page" .3)
	echo "$funcs" | grep -qx "$f" || { echo "# man/$f.3: no such public function"; extra=1; }
done
result $extra "no page for a function that is not public"
grep -q "libpidfd\.7\|libpidfd (7)" "$here/man/pidfd.1"
result $? "pidfd.1 refers to libpidfd(7)"

# <libpidfd.h> in every language standard, include order and kernel header set.
out=$("$here/tests/header.sh" 2>&1)
r=$?
echo "$out" | sed 's/^/# /'
result $r "<libpidfd.h>: C99 to C2x, C++11 and C++17, every include order and header set"

# The package: install into a scratch DESTDIR, build and run a user's program.
out=$(MAKE="${MAKE:-make}" "$here/tests/install-check.sh" "$build" 2>&1)
r=$?
echo "$out" | sed 's/^/# /'
result $r "make install-check"

echo "# static: $passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
