#!/bin/sh
# Which user-mode-linux kernel a Debian suite gives, ready to run:
#   tests/uml-kernel.sh SUITE
# prints "LABEL VERSION BINARY" (6.12 6.12um1+b22 build/uml/trixie/linux.uml).
# bookworm is the system's package (/usr/bin/linux.uml, from .ci/packages);
# any other suite is what .ci/fetch-debs cached under build/debs/SUITE: its
# linux.uml needs that suite's glibc, so it runs from a copy whose ELF
# interpreter and library path are the cached libc6's. Nothing is ever
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
if [ ! -x "$src" ] || [ ! -x "$libc/ld-linux-x86-64.so.2" ] || [ -z "$ver" ]; then
	echo "# uml-kernel: $suite's user-mode-linux is not cached:" \
		".ci/fetch-debs $suite user-mode-linux libc6" >&2
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
