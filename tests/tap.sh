# shellcheck shell=sh
# Sourced by tests/run.sh and tests/qemu.sh: the sums of test binaries'
# TAP output, in passed, failed and skipped.
passed=0
failed=0
skipped=0

# Tests of text and builds, not of the kernel (the library built with
# clang; the manual, --help and the bash completion agreeing): make check
# runs them once (RUN_ONCE=1 tests/run.sh), every other run and guest
# leaves them out, saying so.
once_tests="test-header test-cli-docs"
is_once() { # binary name
	case " $once_tests " in *" $1 "*) return 0 ;; esac
	return 1
}

# tap_start: before a binary runs, so that tap_count can say how long it
# took (what make check's time goes to, in every run's log).
tap_start() {
	tap_t0=$(date +%s)
}

# tap_count LOG PREFIX STATUS: show a binary's log, each line after PREFIX,
# and add its results to the sums. A binary that exits non-zero with no
# failed test counts as one failure.
tap_count() {
	sed "s/^/$2/" "$1"
	[ -z "${tap_t0:-}" ] || echo "${2}# $(($(date +%s) - tap_t0)) s"
	s=$(grep -c '^ok .* # SKIP ' "$1")
	p=$(($(grep -c '^ok ' "$1") - s))
	f=$(grep -c '^not ok ' "$1")
	if [ "$3" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "${2}not ok - binary exited $3"
		f=1
	fi
	passed=$((passed + p))
	failed=$((failed + f))
	skipped=$((skipped + s))
}
