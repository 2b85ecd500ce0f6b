#!/bin/sh
# make install-check: install into a scratch DESTDIR, check the installed
# file list (and the .so links), build an example there with nothing but
# pkg-config's flags, and run it and the installed tool.
#   tests/install-check.sh BUILD_DIR
set -eu
build=${1:-build}
make=${MAKE:-make}
here=$(cd "$(dirname "$0")/.." && pwd)
dest=$(mktemp -d "${TMPDIR:-/tmp}/libpidfd-install.XXXXXX")
trap 'rm -rf "$dest"' EXIT
prefix=/usr/local
root=$dest$prefix
version=$(sed -n 's/^VERSION *:= *//p' "$here/Makefile")

fail() { echo "install-check: $*" >&2; exit 1; }

$make -s -C "$here" O="$build" DESTDIR="$dest" PREFIX="$prefix" install > /dev/null

# Everything the package must install, and nothing else.
{
	printf '%s\n' bin/pidfd include/libpidfd.h lib/libpidfd.a \
		lib/libpidfd.so lib/libpidfd.so.0 lib/libpidfd.so.$version \
		lib/libpidfd/libpidfd-compat.so lib/pkgconfig/libpidfd.pc \
		share/bash-completion/completions/pidfd
	for p in "$here"/man/*.[137]; do
		n=$(basename "$p")
		echo "share/man/man${n##*.}/$n"
	done
} | sort > "$dest/want"
(cd "$root" && find . \( -type f -o -type l \) | sed 's|^\./||' | sort) > "$dest/have"
diff -u "$dest/want" "$dest/have" || fail "installed files differ from the list above"
[ -n "$(ls "$here"/man/*.3 2>/dev/null)" ] || fail "no section 3 pages"
[ "$(readlink "$root/lib/libpidfd.so")" = libpidfd.so.0 ] || fail "libpidfd.so link"
[ "$(readlink "$root/lib/libpidfd.so.0")" = "libpidfd.so.$version" ] || fail "libpidfd.so.0 link"
readelf -d "$root/lib/libpidfd.so.$version" | grep -q 'SONAME.*\[libpidfd\.so\.0\]' ||
	fail "soname is not libpidfd.so.0"

# A user's build: pkg-config's flags alone, against the installed tree.
export PKG_CONFIG_PATH="$root/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$dest"
flags=$(pkg-config --cflags --libs libpidfd) || fail "pkg-config libpidfd"
# shellcheck disable=SC2086
${CC:-cc} -Wall -Werror -o "$dest/supervisor" "$here/examples/supervisor.c" $flags ||
	fail "example does not build with: $flags"
LD_LIBRARY_PATH="$root/lib" ldd "$dest/supervisor" | grep -q "$root/lib/libpidfd.so.0" ||
	fail "example is not linked with the installed libpidfd.so.0"
out=$(LD_LIBRARY_PATH="$root/lib" "$dest/supervisor" 'exit 0' 'exit 5') && fail "supervisor: exit 0 despite a failure"
echo "$out" | grep -q "'exit 5': exited 5$" || fail "supervisor said: $out"
# The installed tool runs on the installed library, found as a distribution
# installs it (here, LD_LIBRARY_PATH: the scratch root is nowhere else).
export LD_LIBRARY_PATH="$root/lib"
readelf -d "$root/bin/pidfd" | grep -q 'NEEDED.*\[libpidfd\.so\.0\]' ||
	fail "installed pidfd is not linked with libpidfd.so.0"
ldd "$root/bin/pidfd" | grep -q "$root/lib/libpidfd.so.0" ||
	fail "installed pidfd does not load the installed libpidfd.so.0"
"$root/bin/pidfd" --version | grep -q '^pidfd from libpidfd ' || fail "installed pidfd --version"
"$root/bin/pidfd" info self > /dev/null || fail "installed pidfd info self"
# The tool as a consumer of the installed library: its sources and lib/
# (part of no ABI, never installed), pkg-config's flags and nothing of
# src/. Whatever it needs that libpidfd.so does not export fails here.
# shellcheck disable=SC2086
${CC:-cc} -std=gnu11 -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 -iquote "$here/include" \
	-DLIBPIDFD_VERSION_STRING="\"$version\"" -Wall -Werror -o "$dest/pidfd" \
	"$here"/cli/*.c "$here"/lib/*.c $flags ||
	fail "pidfd does not build from cli/ with: $flags"
readelf -d "$dest/pidfd" | grep -q 'NEEDED.*\[libpidfd\.so\.0\]' ||
	fail "pidfd built with pkg-config is not linked with libpidfd.so.0"
"$dest/pidfd" info $$ | grep -q "^ *$$ " ||
	fail "pidfd built with pkg-config: info $$"
"$dest/pidfd" features > /dev/null || fail "pidfd built with pkg-config: features"
# The shim: no soname (a preload module, in a directory of its own), and a
# program runs under it, found by the path the manual gives.
readelf -d "$root/lib/libpidfd/libpidfd-compat.so" | grep -q SONAME &&
	fail "libpidfd-compat.so has a soname"
LD_PRELOAD="$root/lib/libpidfd/libpidfd-compat.so" "$root/bin/pidfd" info self > /dev/null ||
	fail "pidfd info self under the installed shim"
# STATIC=0 (a distribution that ships no static library): the same, but
# libpidfd.a.
$make -s -C "$here" O="$build" DESTDIR="$dest/nostatic" PREFIX="$prefix" STATIC=0 install > /dev/null
(cd "$dest/nostatic$prefix" && find . \( -type f -o -type l \) | sed 's|^\./||' | sort) > "$dest/have-nostatic"
grep -vx lib/libpidfd.a "$dest/want" | diff -u - "$dest/have-nostatic" ||
	fail "make install STATIC=0: installed files differ from the list above"
echo "install-check: $(wc -l < "$dest/have") files installed as listed, all but libpidfd.a with STATIC=0; example and pidfd built with '$flags' and run"
