#!/bin/sh
# make check with musl: the library, tool, shim, examples and tests built
# with Debian's musl-gcc (musl-tools) into BUILD_DIR/musl and run on this
# kernel, natively or emulated. musl-gcc searches musl's headers alone, so
# the kernel's (linux/, asm/, asm-generic/ of linux-libc-dev) come through
# BUILD_DIR/musl/include, links to the system's made here: the system
# itself is never changed.
#   tests/musl.sh BUILD_DIR MODE      MODE: native | emulated
# The last line is "# musl-MODE-KERNEL: N passed, N failed".
set -u
build=${1:-build}
mode=${2:-native}
here=$(dirname "$0")
out=$build/musl
label=musl-$mode-$(uname -r | cut -d. -f1,2)

multiarch=$(gcc -print-multiarch 2>/dev/null)
missing=
command -v musl-gcc > /dev/null || missing="$missing musl-gcc"
for dir in /usr/include/linux /usr/include/asm-generic \
	"/usr/include/$multiarch/asm"; do
	[ -d "$dir" ] || missing="$missing $dir"
done
if [ -n "$missing" ]; then
	echo "# $label: not run, missing$missing (apt-get install musl-tools linux-libc-dev)"
	exit 1
fi
mkdir -p "$out/include"
ln -sfn /usr/include/linux "$out/include/linux"
ln -sfn /usr/include/asm-generic "$out/include/asm-generic"
ln -sfn "/usr/include/$multiarch/asm" "$out/include/asm"
# The second mode finds the build made and makes nothing.
if ! ${MAKE:-make} -s O="$out" CC=musl-gcc \
	CPPFLAGS="-isystem $out/include" all tests; then
	echo "# $label: build failed"
	exit 1
fi
RUN_LABEL=$label exec "$here/run.sh" "$out" "$mode"
