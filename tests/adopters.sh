#!/bin/sh
# An adopter's own tests on this kernel, each plain and with the shim
# preloaded: systemd's unit tests from Debian unstable's systemd-tests,
# run without install through that suite's own loader
# (ld-linux-x86-64.so.2 --library-path), from the packages .ci/fetch-debs
# cached under build/debs/sid (nothing is fetched here). A case that
# passes plain and fails with the shim fails the run; one that fails both
# ways is the kernel's (or the guest's) and is named, not counted.
# Also counted: the program's PIDFD_GET_INFO calls and how many were
# answered (tests/adopters/count-info.c), and systemd's probe of
# supported_mask (test-pidfd-util) against what the library claims.
#   tests/adopters.sh BUILD [LABEL]
#   tests/adopters.sh --check    says which package is missing, if any
# The last line is "# adopters-systemd-LABEL: N passed, N failed".
set -u
check_only=
[ "${1:-}" = --check ] && { check_only=1; shift; }
build=${1:-build}
label=adopters-systemd-${2:-$(uname -r | cut -d. -f1,2)}
debs=$(cd "${DEBS_DIR:-build/debs}" 2>/dev/null && pwd)/sid
tests="test-pidfd-util test-pidref test-process-util test-namespace-util
test-cgroup-util test-signal-util test-fd-util test-async"
ldso=$debs/libc6/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2
libs=$debs/libc6/usr/lib/x86_64-linux-gnu:$debs/libsystemd-shared/usr/lib/x86_64-linux-gnu/systemd:$debs/libsystemd0/usr/lib/x86_64-linux-gnu
bin=$debs/systemd-tests/usr/lib/systemd/tests/unit-tests
shim=$(cd "$build" && pwd)/libpidfd-compat.so
count=$(cd "$build" && pwd)/tests/adopters/count-info.so
missing=
for p in systemd-tests libsystemd-shared libsystemd0 libc6; do
	[ -d "$debs/$p" ] || missing="$missing $p"
done
if [ -n "$missing" ]; then
	echo "# adopters-systemd: not run, sid's$missing missing (.ci/fetch-debs sid systemd-tests libsystemd-shared libsystemd0 libc6)"
	exit 1
fi
[ -n "$check_only" ] && exit 0
echo "# systemd-tests $(cat "$debs/systemd-tests.version") on $(uname -r)"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/libpidfd-adopters.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# Preloaded through links here: the loader splits its list at spaces, and
# the tree's path may have one.
ln -s "$shim" "$tmp/libpidfd-compat.so" && ln -s "$count" "$tmp/count-info.so" ||
	exit 1
shim=$tmp/libpidfd-compat.so count=$tmp/count-info.so

# One binary, one mode: its exit status; $tmp/out its output, $tmp/n the
# GET_INFO calls ("a" answered, "n" not).
run_one() { # test preload
	rm -f "$tmp/n"
	: > "$tmp/n"
	(cd "$tmp" && COUNT_INFO_FILE="$tmp/n" SYSTEMD_LOG_LEVEL=info \
		timeout "${ADOPTERS_TIMEOUT:-300}" "$ldso" --library-path "$libs" \
		--preload "$2" "$bin/$1") > "$tmp/out" 2>&1
}
result() { # status: ok, skip, FAIL(status)
	case $1 in 0) echo ok ;; 77) echo skip ;; *) echo "FAIL($1)" ;; esac
}
cases() { grep -c '^/\* test_' "$tmp/out"; }

pass=0 fail=0 n=0
printf '# %-20s %-16s %-16s %s\n' TEST PLAIN SHIM "GET_INFO calls answered (plain / shim)" > "$tmp/table"
for t in $tests; do
	run_one "$t" "$count"
	rp=$?
	cp_=$(cases)
	gp="$(tr -cd a < "$tmp/n" | wc -c)/$(wc -c < "$tmp/n")"
	cp "$tmp/out" "$tmp/plain.out"
	run_one "$t" "$count $shim"
	rs=$?
	cs=$(cases)
	gs="$(tr -cd a < "$tmp/n" | wc -c)/$(wc -c < "$tmp/n")"
	[ "$t" = test-pidfd-util ] && cp "$tmp/out" "$tmp/probe.out"
	printf '# %-20s %-16s %-16s %s\n' "$t" "$(result $rp) $cp_" \
		"$(result $rs) $cs" "$gp / $gs" >> "$tmp/table"
	n=$((n + 1))
	if [ "$rs" -ne 0 ] && [ "$rs" -ne 77 ] && { [ "$rp" -eq 0 ] || [ "$rp" -eq 77 ]; }; then
		echo "not ok $n - $t: passes plain, fails with the shim ($rs)"
		tail -n 20 "$tmp/out" | sed 's/^/#   /'
		fail=$((fail + 1))
	else
		note=
		[ "$rp" -ne 0 ] && [ "$rp" -ne 77 ] && note=" # fails plain too ($rp)"
		echo "ok $n - $t: plain $(result $rp), shim $(result $rs)$note"
		pass=$((pass + 1))
	fi
done

# systemd's probe (pidfd_info_mask_is_supported()) under the shim says
# exactly what the library claims: "get_info returns" of pidfd features.
n=$((n + 1))
said=$(sed -n 's/^PIDFD_INFO_\([A-Z_]*\) is supported\.$/\1/p' "$tmp/probe.out" | sort | tr '\n' ' ' | sed 's/ $//')
claims=$("$build/pidfd" features | sed -n 's/^get_info returns: //p' | tr ' ' '\n' |
	grep -E '^(EXIT|COREDUMP|SUPPORTED_MASK|COREDUMP_SIGNAL|COREDUMP_CODE)$' | sort | tr '\n' ' ' | sed 's/ $//')
if [ "$said" = "$claims" ]; then
	echo "ok $n - systemd's probe with the shim: ${said:-none} beyond PID CREDS CGROUPID"
	pass=$((pass + 1))
else
	echo "not ok $n - systemd's probe with the shim says '$said', the library claims '$claims'"
	fail=$((fail + 1))
fi
cat "$tmp/table"
echo "# $label: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
