#!/bin/sh
# make check on i386: the library, tool, shim, examples and tests built
# with Debian's gcc-i686-linux-gnu into BUILD_DIR/i386 and run on this
# kernel as 32-bit programs (x86_64 kernels run them: IA32_EMULATION). So
# every pidfd system call and ioctl goes through the kernel's compat
# paths, and the shim meets glibc's __ioctl_time64 (tests/compat's
# kapi-time64). The programs load the cross C library of
# libc6-dev-i386-cross (its loader and an rpath, given at link), so the
# host needs no i386 packages of its own.
# Where this kernel runs no 32-bit program (IA32_EMULATION off, as on a
# host that says "IA-32 emulation off" at boot: execve is ENOEXEC), the
# suite runs inside the newest x86_64 kernel under qemu (tests/vm.sh,
# I386_VM, default trixie-backports), which does, with this tree and the
# host's /usr (the cross C library) over 9p: a kernel that refuses them
# is not a reason to test nothing.
#   tests/i386.sh BUILD_DIR MODE      MODE: native | emulated
# The last line is "# i386-MODE-KERNEL: N passed, N failed".
set -u
build=${1:-build}
mode=${2:-native}
here=$(dirname "$0")
out=$build/i386
sysroot=/usr/i686-linux-gnu/lib
label=i386-$mode-$(uname -r | cut -d. -f1,2)

missing=
for tool in i686-linux-gnu-gcc i686-linux-gnu-ar; do
	command -v "$tool" > /dev/null || missing="$missing $tool"
done
[ -e "$sysroot/ld-linux.so.2" ] || missing="$missing $sysroot/ld-linux.so.2"
if [ -n "$missing" ]; then
	echo "# $label: not run, missing$missing (apt-get install gcc-i686-linux-gnu libc6-dev-i386-cross)"
	exit 1
fi
# The second mode finds the build made and makes nothing.
if ! ${MAKE:-make} -s O="$out" CC=i686-linux-gnu-gcc AR=i686-linux-gnu-ar \
	LDFLAGS="-Wl,--dynamic-linker=$sysroot/ld-linux.so.2 -Wl,-rpath,$sysroot" \
	all tests; then
	echo "# $label: build failed"
	exit 1
fi
[ "$(uname -m)" = x86_64 ] && ! "$sysroot/ld-linux.so.2" --version > /dev/null 2>&1 ||
	RUN_LABEL=$label exec "$here/run.sh" "$out" "$mode"
guest=${I386_VM:-trixie-backports}
if ! k=$("$here/vm-kernel.sh" "$guest" 2>&1); then
	echo "# $label: this kernel runs no 32-bit program, and qemu's $guest is missing (${k#*: })"
	exit 1
fi
label=i386-$mode-$(echo "$k" | cut -f1 | sed 's/^qemu-x86_64-/qemu-/')
echo "# $label: this kernel runs no 32-bit program: inside $guest's"
VM=$guest exec "$here/vm.sh" env \
	TEST_TIMEOUT_SCALE=$((3 * ${TEST_TIMEOUT_SCALE:-1})) \
	RUN_LABEL="$label" "$here/run.sh" "$out" "$mode"
