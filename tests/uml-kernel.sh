#!/bin/sh
# Which user-mode-linux kernel a Debian suite gives, ready to run:
#   tests/uml-kernel.sh SUITE
# prints "LABEL VERSION BINARY" (6.12 6.12um1+b22 build/uml/trixie/linux.uml).
# bookworm is the system's package (/usr/bin/linux.uml, from .ci/packages);
# any other suite is what .ci/fetch-debs cached under build/debs/SUITE. A
# suite older than the system (bullseye) built its linux.uml for an older
# glibc than ours, and it runs as it is; a newer suite's needs that suite's
# glibc, so it runs from a copy whose ELF interpreter and library path are
# the cached libc6's. Nothing is ever
# downloaded here. Exit status 2, with the reason on stderr, if the suite's
# kernel is not cached.
set -u
suite=${1:?usage: tests/uml-kernel.sh SUITE}
root=$(cd "$(dirname "$0")/.." && pwd)
debs=${DEBS_DIR:-$root/build/debs}

label_of() { # a package version: 6.12um1+b22 -> 6.12
	echo "$1" | sed 's/um.*//'
}

if [ "$suite" = bookworm ] || [ "$suite" = system ]; then
	bin=/usr/bin/linux.uml
	ver=$(dpkg-query -W -f '${Version}' user-mode-linux 2>/dev/null)
	[ -x "$bin" ] && [ -n "$ver" ] || {
		echo "# uml-kernel: $bin missing: apt-get install user-mode-linux" >&2
		exit 2
	}
	echo "$(label_of "$ver") $ver $bin"
	exit 0
fi

src="$debs/$suite/user-mode-linux/usr/bin/linux.uml"
libc="$debs/$suite/libc6/usr/lib/x86_64-linux-gnu"
ver=$(cat "$debs/$suite/user-mode-linux.version" 2>/dev/null)

# The newest GLIBC_x.y symbol version a binary needs, or the system's glibc.
newest_glibc() {
	objdump -T "$1" 2>/dev/null | grep -o 'GLIBC_[0-9.]*' |
		sed 's/GLIBC_//' | sort -uV | tail -n 1
}
runs_on_system_glibc() {
	need=$(newest_glibc "$1")
	have=$(getconf GNU_LIBC_VERSION 2>/dev/null | sed 's/^glibc //')
	[ -n "$need" ] && [ -n "$have" ] &&
		[ "$(printf '%s\n%s\n' "$need" "$have" | sort -V | tail -n 1)" = "$have" ]
}
# An old kernel runs through tests/uml-noxstate.c, which keeps it off the
# XSAVE regset that it sizes for 2021's CPUs (see there), built here as
# the patched copies are; its guest's glibc is told to leave AVX alone,
# whose registers such a kernel does not switch between threads (the
# kernel hands unknown name=value arguments to init as its environment).
old_kernel() {
	out="$root/build/uml/$suite"
	helper="$out/uml-noxstate"
	mkdir -p "$out" || exit 2
	# Several runs may ask at once: each writes its own file, then renames.
	if [ ! -x "$helper" ] || [ "$root/tests/uml-noxstate.c" -nt "$helper" ]; then
		${CC:-cc} -O2 -Wall -o "$helper.$$" "$root/tests/uml-noxstate.c" &&
		mv "$helper.$$" "$helper" || {
			echo "# uml-kernel: could not build tests/uml-noxstate.c" >&2
			rm -f "$helper.$$"
			exit 2
		}
	fi
	off=-AVX,-AVX2,-AVX512F,-AVX512VL,-AVX512BW,-AVX512DQ,-AVX512CD,-FMA,-F16C
	{
		echo '#!/bin/sh'
		echo "# $suite's user-mode-linux $ver (tests/uml-kernel.sh)"
		printf 'exec %s %s "$@" GLIBC_TUNABLES=glibc.cpu.hwcaps=%s\n' \
			"'$helper'" "'$src'" "$off"
	} > "$out/linux.uml.$$" && chmod 755 "$out/linux.uml.$$" &&
	mv "$out/linux.uml.$$" "$out/linux.uml" || exit 2
	echo "$(label_of "$ver") $ver $out/linux.uml"
	exit 0
}
if [ -x "$src" ] && [ -n "$ver" ] && runs_on_system_glibc "$src"; then
	old_kernel
fi
if [ ! -x "$src" ] || [ ! -x "$libc/ld-linux-x86-64.so.2" ] || [ -z "$ver" ]; then
	echo "# uml-kernel: $suite's user-mode-linux is not cached:" \
		".ci/fetch-debs $suite user-mode-linux libc6" \
		"(libc6 only where it needs a newer glibc than the system's)" >&2
	exit 2
fi
command -v patchelf > /dev/null || {
	echo "# uml-kernel: patchelf missing: apt-get install patchelf" >&2
	exit 2
}
out="$root/build/uml/$suite"
bin="$out/linux.uml"
# Patched again whenever the cache holds other versions than the copy's.
want="$ver $(cat "$debs/$suite/libc6.version" 2>/dev/null)"
if [ ! -x "$bin" ] || [ "$(cat "$out/versions" 2>/dev/null)" != "$want" ]; then
	mkdir -p "$out"
	cp "$src" "$bin.tmp" &&
	patchelf --set-interpreter "$libc/ld-linux-x86-64.so.2" \
		--set-rpath "$libc" "$bin.tmp" &&
	mv "$bin.tmp" "$bin" && echo "$want" > "$out/versions" || {
		echo "# uml-kernel: could not patch $src" >&2
		rm -f "$bin.tmp"
		exit 2
	}
fi
echo "$(label_of "$ver") $ver $bin"
