#!/bin/sh
# Run every test binary of a build in one mode and sum the results.
#   tests/run.sh BUILD_DIR MODE     MODE: native | emulated | uml
# native runs the kernel's own paths where it has them, emulated sets
# LIBPIDFD_EMULATE=1, uml is native inside Linux 6.1 (see tests/uml.sh).
# The last line is "# MODE: N passed, N failed" (", N skipped" after it
# where tests skipped for want of privilege); the exit status is 0 only if
# at least one test ran and none failed.
set -u
build=${1:?build dir}
mode=${2:?mode}
# RUN_LABEL names the run in the output (asan-native, say); TEST_MODE stays.
# RUN_TESTS names the only tests to run, RUN_SKIP tests to leave out;
# RUN_ONCE=1 runs only those that test no kernel (tap.sh's once_tests),
# which every other run leaves out.
label=${RUN_LABEL:-$mode}
# The harness sets LIBPIDFD_EMULATE from TEST_MODE.
export TEST_MODE="$mode"

# shellcheck source=tests/tap.sh
. "$(dirname "$0")/tap.sh"
log=$(mktemp "${TMPDIR:-/tmp}/libpidfd-run.XXXXXX")
# The tests of this tree's sources: a binary a renamed test left behind in
# an old build directory is not one of them.
here=$(dirname "$0")
for src in "$here"/test-*.c; do
	name=$(basename "$src" .c)
	t=$build/tests/$name
	# RUN_TESTS, if set, names the only tests to run; RUN_SKIP, tests
	# this run leaves out (said in its output).
	case " ${RUN_TESTS:-$name} " in *" $name "*) ;; *) continue ;; esac
	# RUN_ONCE=1: the kernel-independent tests (tap.sh) alone.
	if [ -n "${RUN_ONCE:-}" ]; then
		is_once "$name" || continue
	elif is_once "$name" && [ -z "${RUN_TESTS:-}" ]; then
		echo "# [$label] $name: left out: no kernel in it, make check runs it once"
		continue
	fi
	case " ${RUN_SKIP:-} " in *" $name "*)
		echo "# [$label] $name: left out of this run (RUN_SKIP)"
		continue ;;
	esac
	if [ ! -x "$t" ]; then
		echo "[$label] $name: not ok - not built"
		failed=$((failed + 1))
		continue
	fi
	tap_start
	"$t" > "$log" 2>&1
	tap_count "$log" "[$label] $name: " $?
done
rm -f "$log"
if [ "$skipped" -gt 0 ]; then
	echo "# $label: $passed passed, $failed failed, $skipped skipped"
else
	echo "# $label: $passed passed, $failed failed"
fi
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
