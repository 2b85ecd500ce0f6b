#!/bin/sh
# make check on a second architecture: the static library, tool, examples
# and tests cross-built for aarch64 (Debian's gcc-aarch64-linux-gnu) into
# BUILD_DIR/aarch64 and run under qemu-aarch64 (qemu-user), once with the
# library's own choice of paths (mode "qemu": qemu-user has no
# PIDFD_GET_INFO, so that is the emulation, over this machine's kernel) and
# once with LIBPIDFD_EMULATE=1. Every test runs but those that qemu-user
# cannot run, each named below and in the output with the reason.
#   tests/qemu.sh BUILD_DIR
# The last line is "# qemu-aarch64: N passed, N failed".
set -u
build=${1:-build}
out=$build/aarch64
here=$(cd "$(dirname "$0")/.." && pwd)
label=qemu-aarch64
log=$(mktemp "${TMPDIR:-/tmp}/libpidfd-qemu.XXXXXX")
trap 'rm -f "$log"' EXIT

# What qemu-user (7.2, Debian 12) cannot run, and why; a line per test
# binary or binary:test.
exec_reason="execs an aarch64 program (the tool, an example or itself): qemu-user runs one program, and the host kernel execs another aarch64 one only through a binfmt_misc entry for qemu-aarch64, which a build machine or container need not have"
clone3_reason="needs clone3 (set_tid, CLONE_VM generations): qemu-user answers clone3 with ENOSYS"
seccomp_reason="installs a seccomp filter, which qemu-user refuses (ENOSYS): it would judge qemu's own host system calls, not the guest's"
madvise_reason="needs process_madvise or process_mrelease (Linux 5.10, 5.15), which qemu-user lacks (ENOSYS)"
cannot_run="
test-cli-docs	$exec_reason
test-cli-errors	$exec_reason
test-cli-info	$exec_reason
test-cli-kill	$exec_reason
test-cli-reuse	$exec_reason
test-cli-table	$exec_reason
test-cli-usage	$exec_reason
test-cli-wait	$exec_reason
test-sandbox:the_tool_makes_no_process_either	$exec_reason
test-harness	$exec_reason
test-examples	$exec_reason
test-concurrency:calls_after_exec_on_an_inherited_pidfd	$exec_reason
test-symbols	reads libpidfd.so, which the static cross-build does not make
test-version:shared_library_answers_under_node_0_2	dlopens libpidfd.so.0, which the static cross-build does not make
test-sandbox:every_function_answers_the_same_where_clone_kills	$seccomp_reason
test-sandbox:every_function_answers_the_same_as_nobody_where_clone_kills	$seccomp_reason
test-sandbox:self_paths_work_under_the_container_seccomp_profile	$seccomp_reason
test-fdleak:the_caller_s_fds_between_and_a_refused_close_range_change_nothing	$seccomp_reason
test-fdleak:emulated_get_info_closes_its_two_fds_in_one_call	$seccomp_reason
test-compat	preloads the shim, a shared library, which the static cross-build does not make (Makefile: STATIC_TESTS)
test-reuse	$clone3_reason
test-proc-swap	$clone3_reason; and it stops system calls with seccomp user notification, which would stop qemu-user's own, not the guest's
test-environ:proc_of_the_parent_pid_namespace_with_the_same_own_pid_gives_enosys	$clone3_reason
test-concurrency:threads_call_everything_while_targets_exit	$madvise_reason
test-process-madvise:madvise_self_any_advice	$madvise_reason
test-process-madvise:madvise_self_wipeonfork	$madvise_reason
test-process-madvise:madvise_self_errors_match_kernel	$madvise_reason
test-process-mrelease:mrelease_self_is_einval	$madvise_reason
test-sentinels:bad_negative_values_are_ebadf_everywhere	$madvise_reason
test-efault:waitid_bad_infop_is_efault	qemu-user copies waitid's siginfo back only on success, so a bad one is not EFAULT on ECHILD as from the kernel
test-waitid:waitid_self_is_echild_at_once	qemu-user copies waitid's siginfo back only on success, so it is not cleared on ECHILD as the kernel clears it
test-get-namespace:ns_bad_commands_and_fds	qemu-user answers an ioctl it does not know with ENOSYS, where the kernel says ENOTTY
test-send-signal:signal_errors_match_kernel	qemu-user reads the whole 128-byte siginfo to convert it, so one whose tail is unmapped faults (EFAULT) where the kernel reads only what it needs
"

missing=
for tool in aarch64-linux-gnu-gcc aarch64-linux-gnu-ar qemu-aarch64; do
	command -v "$tool" > /dev/null || missing="$missing $tool"
done
if [ -n "$missing" ]; then
	echo "# $label: not run, missing$missing (apt-get install gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user)"
	exit 1
fi
# glibc warns that a static getpwuid_r and the like load NSS modules at
# run time: true, and what a static build of the tool accepts.
# A failed build fails the run: a test that did not build must not go
# uncounted (one did, for a while, and hid nine binaries).
{
	${MAKE:-make} -s -C "$here" O="$out" CC=aarch64-linux-gnu-gcc \
		AR=aarch64-linux-gnu-ar LDFLAGS=-static static 2>&1
	echo "# make exit $?"
} | grep -v -e 'in statically linked applications requires at runtime' \
	-e ': in function .*:$' | tee "$log"
unbuilt=
for src in "$here"/tests/test-*.c; do
	t=$(basename "$src" .c)
	[ "$t" = test-compat ] || [ -x "$out/tests/$t" ] || unbuilt="$unbuilt $t"
done
if ! grep -q '^# make exit 0$' "$log" || [ ! -x "$out/pidfd" ] ||
	[ -n "$unbuilt" ]; then
	echo "# $label: cross-build failed${unbuilt:+; not built:$unbuilt}"
	exit 1
fi

reason() { # binary[:test]
	echo "$cannot_run" | sed -n "s/^$1	//p" | head -n 1
}

# The tests of a binary, from its source.
test_names() { # binary
	sed -n 's/^TEST\(_TIMEOUT\)\{0,1\}(\([a-z0-9_]*\).*/\2/p' "$here/tests/$1.c"
}

# shellcheck source=tests/tap.sh
. "$here/tests/tap.sh"

run_binary() { # mode, binary path
	name=$(basename "$2")
	[ -n "$(reason "$name")" ] && return
	if ! echo "$cannot_run" | grep -q "^$name:"; then
		qemu-aarch64 "$2" > "$log" 2>&1
		tap_count "$log" "[$label $1] [$name] " $?
		return
	fi
	for t in $(test_names "$name"); do
		[ -n "$(reason "$name:$t")" ] && continue
		qemu-aarch64 "$2" "$t" > "$log" 2>&1
		tap_count "$log" "[$label $1] [$name] " $?
	done
}

echo "$cannot_run" | sed -n 's/^\([^	]*\)	\(.*\)/# not run (qemu-user cannot): \1: \2/p'
for mode in qemu emulated; do
	unset LIBPIDFD_EMULATE
	[ "$mode" = emulated ] && export LIBPIDFD_EMULATE=1
	export TEST_MODE=$mode
	for t in "$out"/tests/test-*; do
		[ -x "$t" ] && run_binary "$mode" "$t"
	done
done
# Here a skipped test counts as passed, as it always has.
passed=$((passed + skipped))
echo "# $label: $passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
