#!/bin/sh
# make check: every test three times, natively on this kernel, with
# LIBPIDFD_EMULATE=1, and inside Linux 6.1 (user-mode-linux). Any failure,
# or a run that cannot happen, fails the whole. The last line sums all.
set -u
build=${1:-build}
here=$(dirname "$0")
total_p=0
total_f=0
rc=0
summary=$(mktemp "${TMPDIR:-/tmp}/libpidfd-check.XXXXXX")
trap 'rm -f "$summary"' EXIT

run_mode() {
	"$@" | tee "$summary.out"
	r=$?
	line=$(grep -E '^# [a-z]+: [0-9]+ passed, [0-9]+ failed$' "$summary.out" | tail -n 1)
	if [ -z "$line" ]; then
		echo "# $*: no result (did not run)"
		total_f=$((total_f + 1))
		rc=1
		return
	fi
	p=$(echo "$line" | sed 's/.*: \([0-9]*\) passed.*/\1/')
	f=$(echo "$line" | sed 's/.* \([0-9]*\) failed$/\1/')
	total_p=$((total_p + p))
	total_f=$((total_f + f))
	echo "$line" >> "$summary"
}

run_mode "$here/run.sh" "$build" native
run_mode "$here/run.sh" "$build" emulated
run_mode "$here/uml.sh" "$here/run.sh" "$build" uml
# Once, needing no kernel: manual pages (lint, sections, one per public
# function) and the package (make install-check).
run_mode "$here/static.sh" "$build"
rm -f "$summary.out"
echo "# summary:"
cat "$summary"
[ "$total_f" -eq 0 ] || rc=1
echo "$total_p passed, $total_f failed"
exit $rc
