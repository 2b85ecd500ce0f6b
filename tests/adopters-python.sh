#!/bin/sh
# CPython's pidfd cases (Debian unstable's libpython3.14-testsuite) on
# this kernel, three ways: plain, with the shim preloaded, and with the
# shim on the library's emulation (LIBPIDFD_EMULATE=1). make
# check-adopters runs it on the host and inside user-mode-linux 5.10 and
# 6.1. The cases:
#   test_posix's test_pidfd_open             os.pidfd_open
#   test_signal's test_pidfd_send_signal     signal.pidfd_send_signal
#   test_asyncio.test_subprocess's SubprocessPidfdWatcherTests and
#   test_asyncio.test_unix_events's test_pidfd_closed_when_waitpid_raises:
#                                            asyncio's child watcher, a
#                                            pidfd per child, polled
# Python runs from the packages .ci/fetch-debs cached under build/debs/sid
# (nothing is installed or fetched here), on sid's own C library: a copy
# of python3.14 whose ELF interpreter and library path are sid's, so that
# the children the tests start from sys.executable run the same way (sid's
# Python needs a newer glibc than the system's), and the shim is preloaded
# through LD_PRELOAD, which they inherit. A test that passes plain and
# fails with the shim (either way) fails the run; one that fails plain
# too is the kernel's (or the guest's) and is named, not counted.
#   tests/adopters-python.sh BUILD [LABEL]
# The last line is "# adopters-python-LABEL: N passed, N failed".
set -u
build=${1:-build}
label=adopters-python-${2:-$(uname -r | cut -d. -f1,2)}
debs=$(cd "${DEBS_DIR:-build/debs}" 2>/dev/null && pwd)/sid
pkgs="python3.14-minimal libpython3.14-minimal libpython3.14-stdlib libpython3.14 libpython3.14-testsuite libc6"
missing=
for p in $pkgs; do
	[ -d "$debs/$p" ] || missing="$missing $p"
done
if [ -n "$missing" ]; then
	echo "# $label: not run, sid's$missing missing (.ci/fetch-debs sid $pkgs)"
	exit 1
fi
command -v patchelf > /dev/null || {
	echo "# $label: not run, patchelf missing: apt-get install patchelf"
	exit 1
}
shim=$(cd "$build" && pwd)/libpidfd-compat.so
lib=$debs/libpython3.14-stdlib/usr/lib/python3.14
libc=$debs/libc6/usr/lib/x86_64-linux-gnu
tmp=$(mktemp -d "${TMPDIR:-/tmp}/libpidfd-python.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# Preloaded through a link here: LD_PRELOAD splits at spaces, and the
# tree's path may have one.
ln -s "$shim" "$tmp/libpidfd-compat.so" || exit 1
shim=$tmp/libpidfd-compat.so
# The test package is split between two packages: one directory of links.
mkdir -p "$tmp/path/test" "$tmp/bin"
for f in "$lib/test/"* "$debs/libpython3.14-testsuite/usr/lib/python3.14/test/"*; do
	ln -sfn "$f" "$tmp/path/test/"
done
python=$tmp/bin/python3.14
if ! cp "$debs/python3.14-minimal/usr/bin/python3.14" "$python" ||
	! patchelf --set-interpreter "$libc/ld-linux-x86-64.so.2" \
		--set-rpath "$libc:$debs/libpython3.14/usr/lib/x86_64-linux-gnu" \
		"$python"; then
	echo "# $label: not run, could not patch a copy of python3.14"
	exit 1
fi

# One case, one mode: its exit status; $tmp/MODE.out its output.
run_one() { # mode case...
	mode=$1 pre=$shim emulate=0
	shift
	case $mode in plain) pre= ;; emulated) emulate=1 ;; esac
	(cd "$tmp" && LD_PRELOAD=$pre LIBPIDFD_EMULATE=$emulate \
		PYTHONHOME=$debs/libpython3.14-minimal/usr \
		PYTHONPATH=$tmp/path:$lib:$lib/lib-dynload \
		timeout "${ADOPTERS_TIMEOUT:-600}" "$python" -m test -v "$@") \
		> "$tmp/$mode.out" 2>&1
}
# What a run says: "41 of 41" passed, "40 of 41", ", 2 skipped" if any
# were, or "exit N" where it ended without a count (a crash, a hang).
summary() { # mode status
	tot=$(sed -n 's/^Total tests: //p' "$tmp/$1.out")
	run=$(echo "$tot" | sed -n 's/.*run=\([0-9]*\).*/\1/p')
	skipped=$(echo "$tot" | sed -n 's/.*skipped=\([0-9]*\).*/\1/p')
	[ -n "$run" ] || { echo "exit $2"; return; }
	echo "$((run - ${skipped:-0} - $(failed "$1" | wc -l))) of $run${skipped:+, $skipped skipped}"
}
counted() { # mode: the run ended with its count
	grep -q '^Total tests: ' "$tmp/$1.out"
}
# The tests unittest reports as failed, by name.
failed() { # mode
	sed -n 's/^\(FAIL\|ERROR\): \(.*\)/\2/p' "$tmp/$1.out" | sort -u
}

# The tests that fail in this mode and not plain, or the whole run where
# it ended without naming one (a crash, a hang) and plain did not.
regressions() { # mode status plain-status
	failed plain > "$tmp/plain.failed"
	failed "$1" > "$tmp/$1.failed"
	new=$(comm -13 "$tmp/plain.failed" "$tmp/$1.failed" | paste -sd' ')
	if [ -z "$new" ] && [ "$2" -ne 0 ] &&
		{ [ "$3" -eq 0 ] || { counted plain && ! counted "$1"; }; }; then
		new="the whole run (exit $2)"
	fi
	echo "$new"
}

# Python runs here at all, or every case would fail plain and count for
# nothing.
if ! out=$(cd "$tmp" && PYTHONHOME=$debs/libpython3.14-minimal/usr \
	PYTHONPATH=$lib:$lib/lib-dynload "$python" -c 'import asyncio, test' 2>&1); then
	echo "# $label: not run, python3.14 does not start here:"
	echo "$out" | tail -n 5 | sed 's/^/#   /'
	exit 1
fi

pass=0 fail=0 n=0
echo "# python $(cat "$debs/python3.14-minimal.version") on $(uname -r)"
printf '# %-44s %-16s %-16s %s\n' CASE PLAIN SHIM "SHIM EMULATED" > "$tmp/table"
while IFS='|' read -r name args; do
	# shellcheck disable=SC2086 # the case's arguments, split
	run_one plain $args
	rc_plain=$?
	# shellcheck disable=SC2086
	run_one shim $args
	rc_shim=$?
	# shellcheck disable=SC2086
	run_one emulated $args
	rc_emulated=$?
	printf '# %-44s %-16s %-16s %s\n' "$name" "$(summary plain "$rc_plain")" \
		"$(summary shim "$rc_shim")" "$(summary emulated "$rc_emulated")" >> "$tmp/table"
	for m in "shim $rc_shim" "emulated $rc_emulated"; do
		mode=${m% *} rc=${m#* }
		n=$((n + 1))
		new=$(regressions "$mode" "$rc" "$rc_plain")
		if [ -n "$new" ]; then
			echo "not ok $n - $name, $mode: passes plain, fails with the shim: $new"
			tail -n 30 "$tmp/$mode.out" | sed 's/^/#   /'
			fail=$((fail + 1))
			continue
		fi
		note=
		names=$(paste -sd' ' "$tmp/plain.failed")
		[ "$rc_plain" -ne 0 ] && note=" # fails plain too: ${names:-exit $rc_plain}"
		echo "ok $n - $name, $mode: plain $(summary plain "$rc_plain"), $mode $(summary "$mode" "$rc")$note"
		pass=$((pass + 1))
	done
done <<CASES
os.pidfd_open (test_posix)|test_posix -m test_pidfd_open
signal.pidfd_send_signal (test_signal)|test_signal -m test_pidfd_send_signal
asyncio's pidfd watcher (test_subprocess)|test_asyncio.test_subprocess -m SubprocessPidfdWatcherTests
asyncio's pidfd on error (test_unix_events)|test_asyncio.test_unix_events -m test_pidfd_closed_when_waitpid_raises
CASES
cat "$tmp/table"
echo "# $label: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
