#!/bin/sh
# CPython's pidfd cases (Debian unstable's libpython3.14-testsuite),
# plain and with the shim preloaded, on this kernel: os.pidfd_open
# (test_posix) and signal.pidfd_send_signal (test_signal), run through
# sid's own loader from the packages .ci/fetch-debs cached (nothing
# installed or fetched here). make check-adopters runs it on this kernel.
#   tests/adopters-python.sh BUILD [LABEL]
set -u
build=${1:-build}
label=adopters-python-${2:-$(uname -r | cut -d. -f1,2)}
debs=$(cd "${DEBS_DIR:-build/debs}" 2>/dev/null && pwd)/sid
missing=
for p in python3.14-minimal libpython3.14-minimal libpython3.14-stdlib \
	libpython3.14 libpython3.14-testsuite libc6; do
	[ -d "$debs/$p" ] || missing="$missing $p"
done
if [ -n "$missing" ]; then
	echo "# $label: not run, sid's$missing missing (.ci/fetch-debs sid$missing)"
	exit 1
fi
shim=$(cd "$build" && pwd)/libpidfd-compat.so
lib=$debs/libpython3.14-stdlib/usr/lib/python3.14
tmp=$(mktemp -d "${TMPDIR:-/tmp}/libpidfd-python.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# The test package is split between two packages: one directory of links.
mkdir -p "$tmp/path/test"
for f in "$lib/test/"* "$debs/libpython3.14-testsuite/usr/lib/python3.14/test/"*; do
	ln -sfn "$f" "$tmp/path/test/"
done
cases="test_posix -m test_pidfd_open
test_signal -m test_pidfd_send_signal"
echo "# python $(cat "$debs/python3.14-minimal.version") on $(uname -r)"
pass=0 fail=0 n=0
while read -r c; do
	for mode in plain shim; do
		pre=
		[ "$mode" = shim ] && pre="--preload $shim"
		n=$((n + 1))
		# shellcheck disable=SC2086
		(cd "$tmp" && PYTHONHOME=$debs/libpython3.14-minimal/usr \
			PYTHONPATH=$tmp/path:$lib:$lib/lib-dynload \
			timeout "${ADOPTERS_TIMEOUT:-600}" \
			"$debs/libc6/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2" \
			--library-path "$debs/libc6/usr/lib/x86_64-linux-gnu:$debs/libpython3.14/usr/lib/x86_64-linux-gnu" \
			$pre "$debs/python3.14-minimal/usr/bin/python3.14" -m test -v $c) \
			> "$tmp/out" 2>&1
		rc=$?
		run=$(sed -n 's/^Total tests: run=\([0-9]*\).*/\1/p' "$tmp/out")
		eval "rc_$mode=$rc"
		if [ "$mode" = shim ] && [ "$rc" -ne 0 ] && [ "$rc_plain" -eq 0 ]; then
			echo "not ok $n - $c: passes plain, fails with the shim"
			tail -n 20 "$tmp/out" | sed 's/^/#   /'
			fail=$((fail + 1))
		else
			echo "ok $n - $c, $mode: exit $rc, ${run:-0} run"
			pass=$((pass + 1))
		fi
	done
done <<CASES
$cases
CASES
echo "# $label: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
