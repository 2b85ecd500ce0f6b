#!/bin/sh
# make check: every test natively on this kernel, with LIBPIDFD_EMULATE=1,
# under older kernels' personalities (tests/personality.c), inside
# Linux 5.10, 6.1, 6.12 and 7.2 (user-mode-linux; tests/uml-kernel.sh), and
# in real x86_64 and arm64 kernels under qemu-system (tests/vm.sh); then
# the i386 and musl builds on this kernel. The user-mode-linux guests run
# in a lane of their own beside the host's runs (guest_lane), the qemu
# guests after both, alone (qemu_phase). Every result line names its
# kernel and its time. Any failure, or a run that cannot happen, fails the whole.
# The last line sums all.
set -u
build=${1:-build}
here=$(dirname "$0")
total_p=0
total_f=0
total_s=0
rc=0
summary=$(mktemp "${TMPDIR:-/tmp}/libpidfd-check.XXXXXX")
lane=$summary.guests
lane_pid=
trap 'rm -f "$summary" "$lane" "$lane".*' EXIT

run_mode() {
	t0=$(date +%s)
	"$@" | tee "$summary.out"
	line=$(grep -E '^# [a-z0-9._-]+: [0-9]+ passed, [0-9]+ failed(, [0-9]+ skipped)?$' "$summary.out" | tail -n 1)
	if [ -z "$line" ]; then
		echo "# $*: no result (did not run)" | tee -a "$summary"
		total_f=$((total_f + 1))
		rc=1
		return
	fi
	p=$(echo "$line" | sed 's/.*: \([0-9]*\) passed.*/\1/')
	f=$(echo "$line" | sed 's/.* \([0-9]*\) failed.*/\1/')
	s=$(echo "$line" | sed -n 's/.* \([0-9]*\) skipped$/\1/p')
	total_p=$((total_p + p))
	total_f=$((total_f + f))
	total_s=$((total_s + ${s:-0}))
	# Its time too: the whole must stay within CI's budget.
	echo "$line ($(($(date +%s) - t0)) s)" >> "$summary"
	# Each failure is named in the summary too: a log cut short keeps
	# its end, and the end then says which test failed.
	grep -E 'not ok [0-9]+ - ' "$summary.out" | head -n 20 |
		sed 's/^/#   /' >> "$summary"
}

# The guests' lane (below), run beside the host's runs: its output after
# theirs, its summary lines and counts added to theirs.
merge_guests() {
	[ -n "$lane_pid" ] || return 0
	[ "$lane_pid" = done ] || wait "$lane_pid"
	lane_pid=
	cat "$lane.log"
	cat "$lane" >> "$summary"
	if ! read -r p f s r < "$lane.totals"; then
		echo "# guests: no result (their lane ended early)" | tee -a "$summary"
		p=0 f=1 s=0 r=1
	fi
	total_p=$((total_p + p))
	total_f=$((total_f + f))
	total_s=$((total_s + s))
	[ "$r" -eq 0 ] || rc=1
}

# The summary of every run so far, as the last line; the exit status.
finish() {
	merge_guests
	rm -f "$summary.out"
	echo "# summary (make check took $(($(date +%s) - check_t0)) s):"
	cat "$summary"
	[ "$total_f" -eq 0 ] || rc=1
	skips=
	[ "$total_s" -eq 0 ] || skips=", $total_s skipped"
	# Also kept for .ci/run, to say it last after make's own last words.
	echo "$total_p passed, $total_f failed$skips" | tee "$build/check-summary"
	exit $rc
}

host=$(uname -r | cut -d. -f1,2)
check_t0=$(date +%s)
# make check-qemu-GUEST: the qemu-system guests named below, alone.
[ -z "${CHECK_QEMU_ONLY:-}" ] || CHECK_PERSONALITIES='' CHECK_UML_SUITES=''

# systemd's own unit tests (Debian unstable's systemd-tests, which .ci/run
# fetches), plain and with the shim, here and in each user-mode-linux
# kernel below (tests/adopters.sh). Missing packages are named in the
# summary; under CI they fail the run.
adopters=
if msg=$("$here/adopters.sh" --check "$build"); then
	adopters=1
else
	echo "$msg" | tee -a "$summary"
	[ "${CI:-}" = true ] && total_f=$((total_f + 1))
fi
# Each run's table goes into the summary too.
adopters_run() {
	run_mode "$@"
	grep -E '^# (TEST|test-)' "$summary.out" >> "$summary"
}

# The whole suite again, built with ASan+UBSan (leak checking on), in both
# host modes; a sanitizer report anywhere in the output, a helper process's
# included, fails the run. ASan cannot run under user-mode-linux: its shadow
# memory is fixed for a 47-bit address space (0x7fff8000-0x10007fff7fff),
# and a UML process has 512 GiB (below 0x7fc0000000), with the program
# mapped inside that range. So the guests run the suite under UBSan alone.
san_pattern='ERROR: [A-Za-z]+Sanitizer|WARNING: ThreadSanitizer|runtime error:|Sanitizer has encountered'
san_reports() { # label [log dir]
	n=$(grep -cE "$san_pattern" "$summary.out")
	if [ -n "${2:-}" ] && [ -d "$2" ]; then
		n=$((n + $(cat "$2"/* 2>/dev/null | grep -cE "$san_pattern")))
		# The first five shown, 40 lines each: the report is the diagnosis.
		for f in $(ls "$2" | head -n 5); do
			head -n 40 "$2/$f" | sed 's/^/#   /' | tee -a "$summary"
		done
	fi
	if [ "$n" -ne 0 ]; then
		echo "# $1: $n sanitizer report(s)" | tee -a "$summary"
		total_f=$((total_f + 1))
	fi
}
# ASan's reports also go to files (log_path), read after the run: the
# tool closes its stderr before it exits, as util-linux's tools do, so
# LeakSanitizer's report on it would reach no one, and its exit status
# alone failed the test, with no word why. (The UBSan runs are inside
# user-mode-linux guests: uml_runs, below.)
sanitized() {
	label=$1 dir=$2 flags=$3
	shift 3
	if ! ${MAKE:-make} -s O="$dir" SANFLAGS="$flags" all tests; then
		echo "# $label: build failed" | tee -a "$summary"
		total_f=$((total_f + 1))
		return
	fi
	logs=$dir/san-logs/$label
	rm -rf "$logs"
	mkdir -p "$logs"
	chmod 1777 "$logs" # the tests run programs as nobody too
	ASAN_OPTIONS="$ASAN_OPTIONS${logs:+:log_path=$logs/report}" run_mode "$@"
	san_reports "$label" "$logs"
}
asan="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
ubsan="-fsanitize=undefined -fno-sanitize-recover=all"
# Leak checking on. Tests kill helpers with core-dumping signals on purpose
# and check that they dumped core: ASan's own handlers and its core dump
# limit would turn that into a report. The compat tests preload the
# (instrumented) shim into uninstrumented programs, which ASan's link-order
# check refuses; the shim's own code is checked all the same.
export ASAN_OPTIONS=detect_leaks=1:handle_segv=0:handle_sigbus=0:handle_sigfpe=0:handle_abort=0:disable_coredump=0:verify_asan_link_order=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

# The user-mode-linux kernels: Debian 11's, 12's (the system's), trixie's
# and sid's as .ci/fetch-debs cached them. Each is named after its version
# (sid moves: the label and the tests follow). A kernel missing from the
# cache is named in the summary; under CI (CI=true) it fails the run.
# A line each, SUITE:LABEL:BINARY (the binary's path may have spaces).
umls=
for suite in ${CHECK_UML_SUITES-bullseye bookworm trixie sid}; do
	if k=$("$here/uml-kernel.sh" "$suite" 2>&1); then
		label=${k%% *} version=${k#* } bin=${k#* * }
		echo "# kernel uml-$label: $suite's user-mode-linux ${version%% *}" |
			tee -a "$summary"
		umls="$umls$suite:$label:$bin
"
		continue
	fi
	echo "$k"
	echo "# kernel missing: $suite's user-mode-linux" \
		"(.ci/fetch-debs $suite user-mode-linux libc6)" | tee -a "$summary"
	[ "${CI:-}" = true ] && total_f=$((total_f + 1))
done
# Every system call of a user-mode-linux guest is a round trip through the
# host's ptrace: the guest's tests get three times the host's time.
# They run the suite built with UBSan (ASan cannot run there: see the
# sanitizers above): every test inside each kernel, and undefined
# behaviour caught on the paths that only old kernels take. The plain
# build runs on this kernel and inside the qemu guests.
uml_runs() {
	[ -n "$umls" ] || return 0
	if ! ${MAKE:-make} -s O="$build/ubsan" SANFLAGS="$ubsan" all tests; then
		echo "# ubsan: build failed" | tee -a "$summary"
		total_f=$((total_f + 1))
		return
	fi
	# Split at line ends only (a pipe into "while read" would be a
	# subshell, and lose the counts).
	ifs=$IFS IFS='
'
	for k in $umls; do
		IFS=$ifs
		suite=${k%%:*} label=${k#*:}
		bin=${label#*:} label=${label%%:*}
		run_mode env UML="$bin" "$here/uml.sh" \
			env TEST_TIMEOUT_SCALE=$((5 * ${TEST_TIMEOUT_SCALE:-1})) \
			RUN_LABEL="uml-$label-ubsan" "$here/run.sh" "$build/ubsan" uml
		san_reports "uml-$label-ubsan"
		"$here/uml-features.sh" "$build" "$suite" "$bin" | tee -a "$summary"
		[ -n "$adopters" ] && adopters_run env UML="$bin" "$here/uml.sh" \
			"$here/adopters.sh" "$build" "uml-$label"
	done
}

# Real kernels under qemu-system, emulated with TCG on two CPUs
# (tests/vm.sh; make check-qemu-GUEST runs one): x86_64's newest, SMP with
# kcmp and ns_last_pid, and bullseye's 5.10 stable, every test as under
# UML; arm64's 6.12 and 7.3, the aarch64 cross-build in both modes
# (tests/qemu.sh). Each prints `pidfd features` first, compared with
# tests/kernels/MAJOR.MINOR.features. A kernel missing from the cache is
# named in the summary; under CI it fails the run.
vm_guest() { # guest: label= its label, or nothing and the summary says why
	label=
	if k=$("$here/vm-kernel.sh" "$1" 2>&1); then
		label=$(echo "$k" | cut -f1)
		echo "# kernel $label: $1's $(echo "$k" | cut -f3)" |
			tee -a "$summary"
		return
	fi
	echo "# kernel missing: qemu $1 (${k#*: })" | tee -a "$summary"
	[ "${CI:-}" = true ] && total_f=$((total_f + 1))
}
qemu_runs() {
vm_trees=
for guest in ${CHECK_VM_GUESTS-trixie-backports bullseye}; do
	vm_guest "$guest"
	[ -n "$label" ] || continue
	vm_trees="$vm_trees $guest"
	run_mode env VM="$guest" "$here/vm.sh" sh -c '"$1"/pidfd features; shift;
		exec "$@"' - "$build" env \
		TEST_TIMEOUT_SCALE=$((3 * ${TEST_TIMEOUT_SCALE:-1})) \
		RUN_LABEL="$label" "$here/run.sh" "$build" native
	"$here/uml-features.sh" --log "$summary.out" "qemu-$guest" qemu |
		tee -a "$summary"
done
# Their mount of a tree under /tmp, at a path with a space, and UML's
# (tests/vm-tree.sh).
[ -n "${CHECK_QEMU_ONLY:-}" ] || vm_trees="uml$vm_trees"
# shellcheck disable=SC2086
[ -z "$vm_trees" ] || run_mode "$here/vm-tree.sh" $vm_trees
}
# The arm64 guests, after the host's runs in their lane (below): they
# build the aarch64 tree first (tests/qemu.sh).
arm64_runs() {
for guest in ${CHECK_ARM64_GUESTS-trixie-arm64 trixie-backports-arm64}; do
	vm_guest "$guest"
	[ -n "$label" ] || continue
	run_mode "$here/qemu.sh" "$build" "$guest"
	"$here/uml-features.sh" --log "$summary.out" "qemu-$guest" qemu |
		tee -a "$summary"
done
}

# The user-mode-linux guests, one after another, in a lane of their
# own: a user-mode-linux guest is one process on one
# CPU, so on a machine of two CPUs or more it runs beside the host's runs
# below. Its output is kept and said once the host's runs are done.
# CHECK_JOBS=1 runs it first. The qemu guests come after both (below).
guest_lane() {
	summary=$lane total_p=0 total_f=0 total_s=0 rc=0
	: > "$summary"
	uml_runs
	echo "$total_p $total_f $total_s $rc" > "$lane.totals"
}
if [ "${CHECK_JOBS:-$(nproc 2>/dev/null || echo 1)}" -gt 1 ]; then
	(guest_lane) > "$lane.log" 2>&1 &
	lane_pid=$!
else
	(guest_lane) > "$lane.log" 2>&1
	lane_pid=done
	merge_guests
fi

# The qemu guests, last and alone: a TCG guest of two CPUs beside other
# work spends its time in spinlocks whose holder the host has descheduled
# (seen: an arm64 guest's run took 1141 s beside the other lane, against
# 250 s alone).
qemu_phase() {
	merge_guests
	if [ -z "${CHECK_KERNELS_ONLY:-}" ] || [ -n "${CHECK_QEMU_ONLY:-}" ]; then
		qemu_runs
		arm64_runs
	fi
	finish
}

# This kernel: every test natively, emulated, systemd's tests, and as
# kernels 5.3 to 6.0 and 6.13 to 6.17, as a seccomp filter imitates them
# on this one (tests/personality.c; docs/testing.md: what a filter cannot
# imitate).
if [ -z "${CHECK_QEMU_ONLY:-}" ]; then
	run_mode env RUN_LABEL="native-$host" "$here/run.sh" "$build" native
	run_mode env RUN_LABEL="emulated-$host" "$here/run.sh" "$build" emulated
	[ -n "$adopters" ] && adopters_run "$here/adopters.sh" "$build" "$host"
fi
for p in ${CHECK_PERSONALITIES-5.10 6.13}; do
	run_mode env TEST_PERSONALITY="$p" RUN_LABEL="personality-$p" \
		"$here/run.sh" "$build" native
done
# make stress repeats the kernel runs, and only them; make
# check-qemu-GUEST the qemu guests.
[ -n "${CHECK_KERNELS_ONLY:-}${CHECK_QEMU_ONLY:-}" ] && qemu_phase

# Once, needing no kernel: manual pages (lint, sections, one per public
# function) and the package (make install-check).
run_mode "$here/static.sh" "$build"
# And the tests that test no kernel (tests/tap.sh's once_tests), which
# every other run and guest leaves out.
run_mode env RUN_ONCE=1 RUN_LABEL="once-$host" "$here/run.sh" "$build" native

# i386: the whole build as 32-bit programs on this kernel, in both modes:
# the kernel's compat paths, and the shim under __ioctl_time64
# (tests/i386.sh).
run_mode "$here/i386.sh" "$build" native
run_mode "$here/i386.sh" "$build" emulated

# musl: the whole build with musl-gcc, the kernel's headers through a
# directory of the build's own, in both modes (tests/musl.sh).
run_mode "$here/musl.sh" "$build" native
run_mode "$here/musl.sh" "$build" emulated

# Hostile input: every /proc parser under libFuzzer for a few seconds (make
# fuzz runs them for minutes).
run_mode "$here/fuzz.sh" "$build" "${FUZZ_CHECK_SECONDS:-3}"

# The whole suite again, built with ASan+UBSan (sanitized(), above), in
# both host modes.
# Instrumented code runs slower: each test gets three times its time.
sanitized asan-native "$build/asan" "$asan" env TEST_TIMEOUT_SCALE=3 \
	RUN_LABEL="asan-native-$host" "$here/run.sh" "$build/asan" native
sanitized asan-emulated "$build/asan" "$asan" env TEST_TIMEOUT_SCALE=3 \
	RUN_LABEL="asan-emulated-$host" "$here/run.sh" "$build/asan" emulated

# The stack bound (test-stack: 4 KiB from each public function's entry) as
# a distribution builds the library: LTO inlines across files and so makes
# the deepest frames, which -O2 alone never shows. The flags are Debian's
# for debian/rules' options, where dpkg-buildflags is there to give them.
hardened() { # CFLAGS, CPPFLAGS, LDFLAGS: one per line
	if command -v dpkg-buildflags >/dev/null; then
		for v in CFLAGS CPPFLAGS LDFLAGS; do
			DEB_BUILD_MAINT_OPTIONS="hardening=+all optimize=+lto" \
				dpkg-buildflags --get $v
		done
		return
	fi
	echo "-g -O2 -flto=auto -ffat-lto-objects -fstack-protector-strong"
	echo "-D_FORTIFY_SOURCE=2"
	echo "-flto=auto -ffat-lto-objects -Wl,-z,relro -Wl,-z,now"
}
flags=$(hardened)
if env CFLAGS="$(echo "$flags" | sed -n 1p)" \
	CPPFLAGS="$(echo "$flags" | sed -n 2p)" \
	LDFLAGS="$(echo "$flags" | sed -n 3p)" \
	${MAKE:-make} -s O="$build/hardened" "$build/hardened/tests/test-stack"; then
	for mode in native emulated; do
		run_mode env RUN_LABEL=hardened-$mode-$host RUN_TESTS=test-stack \
			"$here/run.sh" "$build/hardened" $mode
	done
else
	echo "# hardened: build failed" | tee -a "$summary"
	total_f=$((total_f + 1))
fi

# ThreadSanitizer (clang) over the tests whose threads share the library's
# lock-free caches (the probe table, LIBPIDFD_EMULATE's, the cgroup2 mount's
# seqlock), in both host modes. Like ASan it cannot run under
# user-mode-linux. Where the kernel randomizes mmap more than clang 14's
# TSan layout allows, it needs ASLR off: setarch -R, for these runs only.
tsan_tests="test-concurrency test-cgroup-cache test-get-info test-getfd"
norandom=""
setarch "$(uname -m)" -R true 2>/dev/null && norandom="setarch $(uname -m) -R"
if ${MAKE:-make} -s O="$build/tsan" CC=clang SANFLAGS=-fsanitize=thread \
	$(for t in $tsan_tests; do echo "$build/tsan/tests/$t"; done); then
	for mode in native emulated; do
		run_mode env TEST_TIMEOUT_SCALE=5 RUN_LABEL=tsan-$mode-$host \
			RUN_TESTS="$tsan_tests" TSAN_OPTIONS=halt_on_error=1 \
			$norandom "$here/run.sh" "$build/tsan" $mode
		san_reports tsan-$mode
	done
else
	echo "# tsan: build failed" | tee -a "$summary"
	total_f=$((total_f + 1))
fi
# The aarch64 cross-build of the arm64 guests, while the other lane runs
# (a build that fails is said by their runs, which build again).
[ -z "${CHECK_ARM64_GUESTS-x}" ] ||
	"$here/qemu.sh" --build "$build" > /dev/null 2>&1 || true
qemu_phase
