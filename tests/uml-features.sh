#!/bin/sh
# What a guest kernel has, against what it had when recorded:
#   tests/uml-features.sh BUILD_DIR SUITE LINUX_UML
# boots a user-mode-linux kernel, runs `pidfd features` and compares the
# kernel's half of the answer with the record of its kernel version,
# tests/kernels/MAJOR.MINOR.features (one per kernel, whichever guests
# run it: the same kernel says the same under UML, x86_64 and arm64);
#   tests/uml-features.sh --log LOG NAME KIND
# does the same with a guest's console log that holds the tool's answer
# (tests/check.sh's qemu-system guests print it before their tests), NAME
# and KIND naming the guest in what it says.
# A new upload of the suite's
# package (sid moves often) fails nothing: this says exactly what is new,
# and the tests, which follow the library's probe table, adapt. Prints
# one summary line ("# ...") after any difference; exit status 0.
#   tests/uml-features.sh --record [--log LOG] ...   rewrites it
set -u
record=0
[ "${1:-}" = --record ] && { record=1; shift; }
log=
[ "${1:-}" = --log ] && { log=$2; shift 2; }
here=$(dirname "$0")
if [ -n "$log" ]; then
	suite=${1:?name} kind=${2:?kind}
else
	build=${1:?build dir} suite=${2:?suite} bin=${3:?linux.uml} kind=uml
fi
out=$(mktemp "${TMPDIR:-/tmp}/libpidfd-features.XXXXXX")
trap 'rm -f "$out" "$out.new" "$out.new.k"' EXIT

if [ -n "$log" ]; then
	# A run's log: each line after its label, if it has one.
	sed 's/^\[[^]]*\] //' "$log" > "$out"
else
	UML=$bin "$here/uml.sh" sh -c 'LD_LIBRARY_PATH="$1" exec "$1/pidfd" features' \
		- "$build" > "$out" 2>&1
fi
uname=$(sed -n 's/^# uname: //p' "$out" | head -n 1)
# Its record: the kernel's MAJOR.MINOR.
known="$here/kernels/$(echo "$uname" | sed -n 's/^\([0-9]*\.[0-9]*\).*/\1/p').features"
# The tool's own lines: from its header to its last line.
sed -n '/^OPERATION/,/^emulation forced/p' "$out" > "$out.new"
if ! [ -s "$out.new" ]; then
	echo "# uml-features: $kind $suite ($uname): pidfd features gave no answer"
	sed 's/^/#   /' "$out" | tail -n 5
	exit 0
fi
if [ "$record" -eq 1 ]; then
	{ echo "# $suite: Linux $uname"; cat "$out.new"; } > "$known"
	echo "# uml-features: recorded $known"
	exit 0
fi
was=$(sed -n '1s/^# [a-z0-9-]*: Linux //p' "$known" 2>/dev/null)
kernel_half() { sed -n '/^KERNEL FEATURE/,/^$/p' "$@"; }
# A feature newer than the recorded kernel may be left out of its record
# (a new feature changes only the records of kernels that have it): where
# this run says "no" to one the record lacks, the line is left out here.
newer_left_out() {
	awk -v was="${was:-0}" -v rec="$known" '
		function num(v,  p) { split(v, p, "."); return p[1] * 65536 + p[2] }
		BEGIN { while ((getline l < rec) > 0) known[l] = 1 }
		!($0 in known) && $NF == "no" && num($(NF - 1)) > num(was) { next }
		{ print }'
}
kernel_half "$out.new" | newer_left_out > "$out.new.k"
if kernel_half "$known" 2>/dev/null | cmp -s - "$out.new.k"; then
	echo "# features of $kind $uname: as recorded for Linux $was"
else
	echo "# features of $kind $uname: NEW since $known (Linux ${was:-none}):"
	kernel_half "$known" 2>/dev/null | diff - "$out.new.k" | sed -n 's/^\([<>]\)/#   \1/p'
	echo "# $kind $uname: new kernel features; the tests follow the probe table" \
		"(tests/uml-features.sh --record to take them as known)"
fi
