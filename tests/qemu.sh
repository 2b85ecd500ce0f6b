#!/bin/sh
# make check on a second architecture: the static library, tool, examples
# and tests cross-built for aarch64 (Debian's gcc-aarch64-linux-gnu) into
# BUILD_DIR/aarch64, and run inside a real arm64 kernel under
# qemu-system-aarch64 (tests/vm.sh: TCG, two CPUs, an initramfs of
# busybox, tests/, man/, cli/, docs/, include/, README.md, NEWS and the
# build), in both
# modes: native, the kernel's own paths where it has them, and
# LIBPIDFD_EMULATE=1. Every test
# runs but the few that need what an arm64 guest has not (the host's
# clang, make, nm or bash, or a shared library, which the static
# cross-build does not make); each is named below with the reason, and the
# x86_64 guests and the host run them.
#   tests/qemu.sh BUILD_DIR GUEST     GUEST: trixie-arm64 (6.12),
#                                     trixie-backports-arm64 (7.3)
# The last line is "# qemu-arm64-7.3: N passed, N failed".
#   tests/qemu.sh --inside LABEL DIR  what the guest runs, DIR the build
#   tests/qemu.sh --build BUILD_DIR   the cross-build alone
set -u
build_only=0
if [ "${1:-}" = --build ]; then
	build_only=1 inside=0 build=${2:-build} out=$build/aarch64 label=aarch64
	here=$(cd "$(dirname "$0")/.." && pwd)
elif [ "${1:-}" = --inside ]; then
	inside=1 label=$2 out=$3
	here=$(pwd)
else
	inside=0
	build=${1:-build}
	guest=${2:?usage: tests/qemu.sh BUILD_DIR GUEST}
	out=$build/aarch64
	here=$(cd "$(dirname "$0")/.." && pwd)
	k=$("$here/tests/vm-kernel.sh" "$guest") || exit 2
	label=$(echo "$k" | cut -f1)
fi
log=$(mktemp "${TMPDIR:-/tmp}/libpidfd-qemu.XXXXXX")
trap 'rm -f "$log"' EXIT

# What an arm64 guest cannot run, and why; a line per test binary or
# binary:test.
static_reason="the static cross-build makes no shared library (Makefile: STATIC_TESTS)"
cannot_run="
test-symbols	reads libpidfd.so with nm: $static_reason, and the guest has no nm
test-version:shared_library_answers_under_node_0_2	dlopens libpidfd.so.0: $static_reason
test-compat	preloads the shim, a shared library: $static_reason
test-fault-sweep-shim	loads the shim, a shared library: $static_reason
test-efault:shim_get_info_bad_struct_is_efault	loads the shim, a shared library: $static_reason
test-efault:shim_get_info_reads_before_and_writes_after_the_work	loads the shim, a shared library: $static_reason
test-user-memory:memory_unmapped_during_the_call_is_efault	loads the shim, a shared library: $static_reason
test-user-memory:memory_unmapped_during_the_call_is_efault_through_a_pipe	loads the shim, a shared library: $static_reason
test-cli-select:info_selects_by_full_arguments_as_pgrep	runs /bin/sleep under another argv[0], which the guest's sleep (busybox, an applet chosen by argv[0]) refuses
test-cli-columns:columns_as_ps_shows_them	compares the tool with procps's ps, which the guest (busybox) has not
test-cli-columns:sort_as_ps_sorts	compares the tool with procps's ps, which the guest (busybox) has not
test-cli-columns:forest_as_ps_draws_it	compares the tool with procps's ps, which the guest (busybox) has not
test-cli-pgrep	compares the tool with procps's pgrep, which the guest (busybox) has not
"

reason() { # binary[:test]
	echo "$cannot_run" | sed -n "s/^$1	//p" | head -n 1
}

# The tests of a binary, from its source.
test_names() { # binary
	sed -n 's/^TEST\(_TIMEOUT\)\{0,1\}(\([a-z0-9_]*\).*/\2/p' "$here/tests/$1.c"
}

# shellcheck source=tests/tap.sh
. "$here/tests/tap.sh"

# Inside the guest: every binary, or test by test where some cannot run.
run_binary() { # run label, binary path
	name=$(basename "$2")
	[ -n "$(reason "$name")" ] && return
	is_once "$name" && return
	if ! echo "$cannot_run" | grep -q "^$name:"; then
		tap_start
		"$2" > "$log" 2>&1
		tap_count "$log" "[$1] $name: " $?
		return
	fi
	for t in $(test_names "$name"); do
		[ -n "$(reason "$name:$t")" ] && continue
		tap_start
		"$2" "$t" > "$log" 2>&1
		tap_count "$log" "[$1] $name: " $?
	done
}

if [ "$inside" -eq 1 ]; then
	# What the kernel has, for tests/uml-features.sh.
	"$out/pidfd" features
	echo "$cannot_run" | sed -n 's/^\([^	]*\)	\(.*\)/# not run on arm64: \1: \2/p'
	echo "# not run on arm64: $once_tests: no kernel in them, make check runs them once"
	for mode in native emulated; do
		export TEST_MODE=$mode
		run=$label
		[ "$mode" = emulated ] && run=$label-emulated
		for src in "$here"/tests/test-*.c; do
			t=$out/tests/$(basename "$src" .c)
			[ -n "$(reason "$(basename "$t")")" ] && continue
			if [ -x "$t" ]; then
				run_binary "$run" "$t"
			else
				echo "[$run] $(basename "$t"): not ok - not built"
				failed=$((failed + 1))
			fi
		done
	done
	echo "# $label: $passed passed, $failed failed"
	[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
	exit
fi

missing=
for tool in aarch64-linux-gnu-gcc aarch64-linux-gnu-ar qemu-system-aarch64; do
	command -v "$tool" > /dev/null || missing="$missing $tool"
done
if [ -n "$missing" ]; then
	echo "# $label: not run, missing$missing (apt-get install gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-system-arm)"
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
	case $t in test-compat|test-fault-sweep-shim) continue ;; esac
	[ -x "$out/tests/$t" ] || unbuilt="$unbuilt $t"
done
if ! grep -q '^# make exit 0$' "$log" || [ ! -x "$out/pidfd" ] ||
	[ -n "$unbuilt" ]; then
	echo "# $label: cross-build failed${unbuilt:+; not built:$unbuilt}"
	exit 1
fi
[ "$build_only" -eq 0 ] || exit 0

# The guest runs this script on the build, from the tree; the slowness of
# TCG is in the tests' timeouts.
cd "$here" || exit 1
out=${out#"$here"/}
VM="$guest" VM_FILES="tests man cli docs include README.md NEWS $out" "$here/tests/vm.sh" \
	env TEST_TIMEOUT_SCALE=$((5 * ${TEST_TIMEOUT_SCALE:-1})) \
	sh tests/qemu.sh --inside "$label" "$out"
