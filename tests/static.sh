#!/bin/sh
# The checks that need no kernel, run once by make check and counted like
# the tests: every manual page lints clean (mandoc -Tlint, warnings fail),
# renders at 80 columns without a groff warning, has the sections its kind
# needs in order (section 3: ATTRIBUTES with MT-Safe and AS-Safe), every
# public function has its page, <libpidfd.h> compiles everywhere it should
# (tests/header.sh), every file says its copyright and license (reuse
# lint) and the one its directory is promised, every page, NEWS,
# debian/changelog and libpidfd.spec say the Makefile's version, and the package installs
# and builds a user's program (install-check).
#   tests/static.sh BUILD_DIR
# The last line is "# static: N passed, N failed".
set -u
build=${1:-build}
here=$(cd "$(dirname "$0")/.." && pwd)
# The version, which the header, the pages, NEWS and the packages follow.
v=$(sed -n 's/^VERSION *:= *//p' "$here/Makefile")
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

# Each section of the list, in its order (others may come between), and
# no heading that is not a section's name (one ran into the next heading
# once: ".SH EXAMPLES.SH EXAMPLES", which mandoc and groff take as a name).
sections_known=" $sections3 $sections1 $sections7 ENVIRONMENT FILES COMMANDS FIELDS OUTPUT CAVEATS BUGS "
has_sections() { # page, list
	sed -n 's/^\.SH "*\([^"]*\)"*$/\1/p' "$1" | tr ' ' _ | while read -r s; do
		case $sections_known in *" $s "*) ;; *)
			echo "# $1: no such section: $s"
			exit 1 ;;
		esac
	done || return 1
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
# The names a page's NAME section lists before its "\-", one a line (a
# page for several functions is linked to from the others' names).
names_in() {
	sed -n '/^\.SH NAME/,/^\.SH/{/^\.SH/d;p;}' "$1" | tr '\n' ' ' |
		sed 's/ \\-.*//' | tr ', ' '\n\n' | grep .
}
funcs=$(sed -n 's/^[[:space:]]*\(libpidfd_[a-z_]*\);$/\1/p' "$here/src/libpidfd.map")
[ -n "$funcs" ] || echo "# no functions found in src/libpidfd.map"
for f in $funcs; do
	page="$here/man/$f.3"
	r=0
	if [ ! -f "$page" ]; then
		echo "# $f: no man/$f.3"
		r=1
	elif ! names_in "$page" | grep -qx "$f" || ! grep -q "\"[a-z_ *]*$f(" "$page"; then
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

# The bash completion parses, as bash-completion sources it (test-cli-docs
# runs it).
out=$(bash -n "$here/cli/pidfd.bash-completion" 2>&1)
r=$?
echo "$out" | sed '/^$/d; s/^/# /'
result $r "bash -n cli/pidfd.bash-completion"

# The generated blocks of committed files (scripts/header-block.sh): a
# block in sync leaves the file unwritten (a read-only tree builds), one
# out of date is replaced, a file without the block is an error; and the
# header's version block is the Makefile's version.
block_check() {
	t=$(mktemp -d "${TMPDIR:-/tmp}/libpidfd-block.XXXXXX") || return 1
	printf 'a\n/* BEGIN V: generated by make */\nold\n/* END V */\nb\n' > "$t/f"
	cp "$t/f" "$t/orig"
	chmod a-w "$t/f"
	r=0
	echo old | "$here/scripts/header-block.sh" V "$t/f" || r=1
	echo new | "$here/scripts/header-block.sh" --check V "$t/f" && r=1
	chmod u+w "$t/f"
	echo new | "$here/scripts/header-block.sh" V "$t/f" > /dev/null || r=1
	printf 'a\n/* BEGIN V: generated by make */\nnew\n/* END V */\nb\n' | cmp -s - "$t/f" || r=1
	echo x | "$here/scripts/header-block.sh" W "$t/f" 2> /dev/null; [ $? -eq 2 ] || r=1
	rm -rf "$t"
	h=$(sed -n 's/^#define LIBPIDFD_VERSION_[A-Z]* \([0-9]*\)$/\1/p' "$here/include/libpidfd.h" | paste -sd.)
	[ "$v" = "$h" ] || { echo "# Makefile says $v, include/libpidfd.h $h"; r=1; }
	# make never writes a generated block: each is checked here.
	${MAKE:-make} -s -C "$here" header-blocks-check ||
		{ echo "# a generated block is out of date: make header-blocks"; r=1; }
	return $r
}
block_check
result $? "generated blocks: written only when out of date; header's are in sync"

# Every file's SPDX line is the license COPYING's table gives its
# directory (the longest path it names), else REUSE.toml's default for
# every path ("**"); REUSE.toml's license for the library's manual pages
# is the library's. reuse lint accepts any valid license, so it cannot
# see a file that lost an option in a merge: this does.
tree_files() {
	if git -C "$here" rev-parse --git-dir > /dev/null 2>&1; then
		git -C "$here" ls-files
	else
		(cd "$here" && find . -path ./.git -prune -o -path ./build -prune -o \
			-path ./debian/build -prune -o -type f -print | sed 's|^\./||')
	fi
}
# "PATH LICENSE" a line, from COPYING's table: an entry starts in column
# 3 with its license, ends at a blank line, and names paths in brackets.
copying_table() {
	awk '/^  [A-Za-z]/ { lic = $0; sub(/^  /, "", lic); sub(/   .*/, "", lic) }
	     /^$/ { lic = "" }
	     lic != "" {
		s = $0
		while (match(s, /\([a-z]+\/[^)]*\)/)) {
			print substr(s, RSTART + 1, RLENGTH - 2), lic
			s = substr(s, RSTART + RLENGTH)
		}
	     }' "$here/COPYING"
}
# The license of REUSE.toml's annotation whose path list starts with $1.
reuse_license() { # first path of the annotation, quoted as in the file
	awk -v p="$1" 'index($0, "path = " p) == 1 || index($0, "path = [" p) == 1 { on = 1 }
		on && /^SPDX-License-Identifier/ { sub(/^[^"]*"/, ""); sub(/".*/, ""); print; exit }' \
		"$here/REUSE.toml"
}
spdx_check() {
	table=$(copying_table)
	default=$(reuse_license '"**"')
	lib=$(echo "$table" | awk '$1 == "src/" { $1 = ""; sub(/^ /, ""); print }')
	r=0
	[ -n "$default" ] && [ -n "$lib" ] || { echo "# COPYING or REUSE.toml unreadable"; return 1; }
	man=$(reuse_license '"man/libpidfd.7"')
	[ "$man" = "$lib" ] ||
		{ echo "# REUSE.toml gives the library's pages $man, COPYING $lib"; r=1; }
	for f in $(tree_files); do
		want=$default
		best=0
		while read -r dir lic; do
			case $f in "$dir"*)
				[ ${#dir} -gt $best ] && { best=${#dir}; want=$lic; } ;;
			esac
		done <<-EOF
		$table
		EOF
		got=$(head -n 3 "$here/$f" 2>/dev/null | sed -n 's/.*SPDX-License-Identifier: *\(.*[^ /*]\)[ /*]*$/\1/p' | head -n 1)
		case $f in src/*.[ch]|include/*.h|compat/*.c|examples/*.c)
			[ -n "$got" ] || { echo "# $f: no SPDX-License-Identifier line"; r=1; } ;;
		esac
		[ -z "$got" ] || [ "$got" = "$want" ] ||
			{ echo "# $f: $got, where COPYING and REUSE.toml say $want"; r=1; }
	done
	return $r
}
spdx_check
result $? "every file's SPDX line is its directory's license (COPYING, REUSE.toml)"

# Every manual page's version (.TH's fourth field) is the Makefile's.
man_versions() {
	r=0
	for page in "$here"/man/*.[137]; do
		[ -L "$page" ] && continue
		got=$(sed -n '1,/^\.TH/s/^\.TH [^ ]* [^ ]* [^ ]* "\([^"]*\)".*/\1/p' "$page")
		[ "$got" = "libpidfd-$v" ] ||
			{ echo "# man/${page##*/}: \"$got\", the Makefile's is libpidfd-$v"; r=1; }
	done
	return $r
}
man_versions
result $? "every manual page says the Makefile's version"

# The tool is a program of the public header: no src/ header in cli/, and
# lib/'s tool-only parsers (lib/ps.c) never enter libpidfd.so; what
# lib/parse.c, which the library links, defines, the library uses.
tool_apart() {
	r=0
	if grep -n '#include "[^"]*src/\|#include "internal.h"\|#include "syscall.h"' "$here"/cli/*.c "$here"/cli/*.h; then
		echo "# cli/ includes a src/ header"; r=1
	fi
	for f in $(sed -n 's/^\(ssize_t\|int\) \(lpfd_[a-z_]*\)(.*/\2/p' "$here/lib/ps.c"); do
		if nm "$build/libpidfd.so" | grep -q " $f\$"; then
			echo "# $f, the tool's alone, is in libpidfd.so"; r=1
		fi
	done
	for f in $(sed -n 's/^\(ssize_t\|int\|bool\) \(lpfd_[a-z_]*\)(.*/\2/p' "$here/lib/parse.c"); do
		if ! grep -qw "$f" "$here"/src/*.c; then
			echo "# $f of lib/parse.c: no src/ file uses it (lib/ps.c?)"; r=1
		fi
	done
	return $r
}
tool_apart
result $? "the tool includes no src/ header; no tool-only code in libpidfd.so"

# NEWS, debian/changelog and libpidfd.spec tell the same story: the
# newest entry of each is the Makefile's version, and every release is
# "(unreleased)" in NEWS exactly where the changelog says UNRELEASED.
news_changelog() {
	r=0
	news=$(grep -m 1 -E '^[0-9]+\.[0-9]+\.[0-9]+' "$here/NEWS")
	[ "${news%% *}" = "$v" ] || { echo "# NEWS's newest entry is ${news%% *}, the Makefile's $v"; r=1; }
	spec=$(sed -n 's/^Version: *//p' "$here/libpidfd.spec")
	[ "$spec" = "$v" ] || { echo "# libpidfd.spec says Version: $spec, the Makefile $v"; r=1; }
	first=1
	entries=$(dpkg-parsechangelog -l "$here/debian/changelog" --all --format rfc822 |
		sed -n 's/^Version: //p; s/^Distribution: //p' | paste - -)
	[ -n "$entries" ] || { echo "# debian/changelog unreadable (dpkg-dev)"; return 1; }
	while read -r ver dist; do
		if [ "$first" = 1 ] && [ "$ver" != "$v" ]; then
			echo "# debian/changelog's newest entry is $ver, the Makefile's $v"
			r=1
		fi
		first=0
		head=$(grep -m 1 -E "^${ver%%-*}( |\$)" "$here/NEWS")
		case "$head/$dist" in
		/*) echo "# NEWS has no entry for $ver"; r=1 ;;
		*"(unreleased)/UNRELEASED") ;;
		*"(unreleased)/"*) echo "# NEWS: $head; debian/changelog: uploaded to $dist"; r=1 ;;
		*/UNRELEASED) echo "# NEWS: $head; debian/changelog: $ver UNRELEASED"; r=1 ;;
		esac
	done <<-EOF
	$entries
	EOF
	return $r
}
news_changelog
result $? "NEWS, debian/changelog and libpidfd.spec agree on each version and release"

# <libpidfd.h> in every language standard, include order and header set,
# with -Wsystem-headers; C++ mangling the same with each.
out=$("$here/tests/header.sh" 2>&1)
r=$?
echo "$out" | sed 's/^/# /'
result $r "<libpidfd.h>: C99 to C2x, C++11 to C++20, every include order and header set"

# Every file's copyright and license, by the REUSE specification 3.3
# (REUSE.toml): the reuse tool of Debian 13 (.ci/fetch-debs trixie reuse),
# pure Python, on Debian 12's Python and its dependencies (.ci/packages);
# Debian 12's own reuse (1.1) predates REUSE.toml. It reads a copy of the
# tree's own files: without git (a tarball, or a machine with no git) the
# tool would read all of build/ too, the fetched packages among them.
reuse_lint() {
	dist=${DEBS_DIR:-$here/build/debs}/trixie/reuse/usr/lib/python3/dist-packages
	if [ ! -d "$dist/reuse" ]; then
		echo "# no reuse tool: run .ci/fetch-debs trixie reuse"
		return 1
	fi
	copy=$(mktemp -d "${TMPDIR:-/tmp}/libpidfd-reuse.XXXXXX") || return 1
	tree_files | (cd "$here" && tar -cf - -T -) | tar -C "$copy" -xf - &&
		(cd "$copy" && PYTHONPATH=$dist /usr/bin/python3 -m reuse lint)
	r=$?
	rm -rf "$copy"
	return $r
}
# Without the tool (its fetch failed), as a missing kernel: named, and
# failed under CI=true.
out=$(reuse_lint 2>&1)
r=$?
echo "$out" | tail -n 12 | sed 's/^/# /'
if [ "$r" -ne 0 ] && [ ! -d "${DEBS_DIR:-$here/build/debs}/trixie/reuse" ] &&
	[ "${CI:-}" != true ]; then
	echo "# reuse lint: not run, the tool is not cached"
else
	result $r "reuse lint: every file's copyright and license (REUSE 3.3)"
fi

# Functions short: none in src/ or compat/ over 40 lines between its
# opening and closing braces (each at the start of a line, as the house
# style puts them).
function_lengths() {
	awk '/^\{$/ { start = FNR; name = prev; next }
	     /^\}/ && start { if (FNR - start - 1 > 40) { print "# " FILENAME ":" start ": " FNR - start - 1 " lines: " name; bad = 1 } start = 0 }
	     /^[A-Za-z_].*\(/ { prev = $0 }
	     END { exit bad }' "$here"/src/*.c "$here"/compat/*.c
}
function_lengths
result $? "no function in src/ or compat/ over 40 lines"

# The library's state, all of it: every writable object of libpidfd.a
# (.data, .bss, thread-local; objdump, as nm shows them) is named in
# src/state.c, which says why it is safe, and set again by the reset
# function of its own file (lpfd_<x>_reset), which lpfd_state_reset()
# calls. A function's static (name.N) cannot be reset: it fails here.
writable_objects() {
	objdump -t "$build/libpidfd.a" | awk '
		/file format/ { obj = $1; sub(/:$/, "", obj) }
		/ O \.(data|bss|tdata|tbss)/ && !/\.data\.rel\.ro/ { print obj, $NF }'
}
reset_function_of() { # source file, name: the lpfd_*_reset() naming it
	awk -v n="$2" '
		/^void lpfd_[a-z_]*_reset\(void\)$/ { f = $2; sub(/\(.*/, "", f); inside = 1; next }
		inside && /^}/ { inside = 0 }
		inside { line = $0; gsub(/[^A-Za-z0-9_]/, " ", line); if ((" " line " ") ~ (" " n " ")) { print f; exit } }' "$1"
}
state_documented() {
	r=0
	objects=$(writable_objects)
	[ -n "$objects" ] || { echo "# no writable object found in $build/libpidfd.a"; return 1; }
	calls=$(sed -n '/^void lpfd_state_reset(void)$/,/^}/p' "$here/src/state.c")
	while read -r obj name; do
		src=$(ls "$here/src/${obj%.o}.c" "$here/lib/${obj%.o}.c" 2>/dev/null | head -n 1)
		grep -qw -- "$name" "$here/src/state.c" ||
			{ echo "# $name ($obj): not documented in src/state.c"; r=1; }
		fn=$(reset_function_of "$src" "$name")
		if [ -z "$fn" ]; then
			echo "# $name ($obj): no lpfd_*_reset() in ${src#"$here"/} sets it"; r=1
		elif ! echo "$calls" | grep -qw "$fn"; then
			echo "# $name: lpfd_state_reset() does not call $fn()"; r=1
		fi
	done <<-EOF
	$objects
	EOF
	echo "# $(echo "$objects" | wc -l) writable objects"
	return $r
}
state_documented
result $? "every writable object of libpidfd.a is documented and reset in src/state.c"

# The package: install into a scratch DESTDIR, build and run a user's program.
out=$(MAKE="${MAKE:-make}" "$here/tests/install-check.sh" "$build" 2>&1)
r=$?
echo "$out" | sed 's/^/# /'
result $r "make install-check"

# The README's first command: the tool runs from the build directory as
# it is, with no LD_LIBRARY_PATH (its run path finds libpidfd.so.0 beside
# it), and the copy make install installs carries no run path.
out=$(env -u LD_LIBRARY_PATH "$build/pidfd" info $$ 2>&1)
r=$?
echo "$out" | sed 's/^/# /'
echo "$out" | grep -q "^ *$$ " || r=1
readelf -d "$build/install/pidfd" | grep -qE 'RPATH|RUNPATH' && r=1
result $r "build/pidfd runs from the tree; the installed one has no run path"

echo "# static: $passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
