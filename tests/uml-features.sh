#!/bin/sh
# What a user-mode-linux kernel has, against what it had when recorded:
#   tests/uml-features.sh BUILD_DIR SUITE LINUX_UML
# boots it, runs `pidfd features` and compares the kernel's half of the
# answer with tests/kernels/SUITE.features. A new upload of the suite's
# package (sid moves often) fails nothing: this says exactly what is new,
# and the tests, which follow the library's probe table, adapt. Prints
# one summary line ("# ...") after any difference; exit status 0.
#   tests/uml-features.sh --record BUILD_DIR SUITE LINUX_UML   rewrites it
set -u
record=0
[ "${1:-}" = --record ] && { record=1; shift; }
build=${1:?build dir} suite=${2:?suite} bin=${3:?linux.uml}
here=$(dirname "$0")
known="$here/kernels/$suite.features"
out=$(mktemp "${TMPDIR:-/tmp}/libpidfd-features.XXXXXX")
trap 'rm -f "$out" "$out.new" "$out.new.k"' EXIT

UML=$bin "$here/uml.sh" sh -c "$build/pidfd features" > "$out" 2>&1
uname=$(sed -n 's/^# uname: //p' "$out")
# The tool's own lines: from its header to its last line.
sed -n '/^OPERATION/,/^emulation forced/p' "$out" > "$out.new"
if ! [ -s "$out.new" ]; then
	echo "# uml-features: $suite ($uname): pidfd features gave no answer"
	sed 's/^/#   /' "$out" | tail -n 5
	exit 0
fi
if [ "$record" -eq 1 ]; then
	{ echo "# $suite: Linux $uname"; cat "$out.new"; } > "$known"
	echo "# uml-features: recorded $known"
	exit 0
fi
was=$(sed -n '1s/^# [a-z]*: Linux //p' "$known" 2>/dev/null)
kernel_half() { sed -n '/^KERNEL FEATURE/,/^$/p' "$@"; }
kernel_half "$out.new" > "$out.new.k"
if kernel_half "$known" 2>/dev/null | cmp -s - "$out.new.k"; then
	echo "# features of uml $uname: as recorded for Linux $was"
else
	echo "# features of uml $uname: NEW since $known (Linux ${was:-none}):"
	kernel_half "$known" 2>/dev/null | diff - "$out.new.k" | sed -n 's/^\([<>]\)/#   \1/p'
	echo "# uml $uname: new kernel features; the tests follow the probe table" \
		"(tests/uml-features.sh --record to take them as known)"
fi
