#!/bin/sh
# Which user-mode-linux kernel a Debian suite gives, ready to run:
#   tests/uml-kernel.sh SUITE
# prints "LABEL VERSION BINARY" (6.12 6.12um1+b22 build/uml/trixie/linux.uml).
# bookworm is the system's package (/usr/bin/linux.uml, from .ci/packages);
# any other suite is what .ci/fetch-debs cached under build/debs/SUITE. A
# suite older than the system (bullseye) built its linux.uml for an older
# glibc than ours, and it runs as it is; a newer suite's needs that suite's
# glibc, so it runs from a copy whose ELF interpreter and library path are
# the cached libc6's. A kernel that cannot run on this CPU as it is runs
# through a wrapper (below). Nothing is ever downloaded here. Exit status 2, with the reason on stderr, if the suite's
# kernel is not cached.
set -u
suite=${1:?usage: tests/uml-kernel.sh SUITE}
root=$(cd "$(dirname "$0")/.." && pwd)
debs=${DEBS_DIR:-$root/build/debs}

label_of() { # a package version: 6.12um1+b22 -> 6.12
	echo "$1" | sed 's/um.*//'
}

# A kernel from before UML sized its XSAVE buffer by the host's CPU dies
# on a host with AVX-512 or AMX as init starts ("ptrace set fp regs
# failed, errno = 14": the host takes only its whole XSAVE area). Such a
# kernel runs with tests/uml-xstate.c preloaded (see there), and its
# guest's glibc is told to leave AVX-512 alone, whose registers it then
# does not switch between threads (the kernel hands unknown name=value
# arguments to init as its environment). Which kernels need it is found by
# booting each once, on this host, and remembered for its version and
# this CPU.
AVX512_OFF=-AVX512F,-AVX512VL,-AVX512BW,-AVX512DQ,-AVX512CD
needs_xstate_help() { # bin out ver: 0 if the kernel dies of it here
	key="$3 $(grep -m1 '^flags' /proc/cpuinfo | cksum | cut -d' ' -f1)"
	if [ "$(sed -n 1p "$2/xstate" 2>/dev/null)" != "$key" ]; then
		r=ok
		# (The shell's own word on the kernel's abort is not wanted.)
		{ (cd / && timeout 120 "$1" mem=256M quiet rootfstype=hostfs \
			rootflags=/ ro init=/bin/true con=null con0=fd:0,fd:1 \
			< /dev/null 2>&1; true); } 2> /dev/null |
			grep -q 'ptrace set fp regs failed' &&
			r=help
		printf '%s\n%s\n' "$key" "$r" > "$2/xstate.$$" &&
			mv "$2/xstate.$$" "$2/xstate"
	fi
	[ "$(sed -n 2p "$2/xstate" 2>/dev/null)" = help ]
}
# Print "LABEL VERSION BINARY" for the kernel bin, wrapped where needed.
finish() { # bin ver
	out="$root/build/uml/$suite"
	helper="$out/uml-xstate.so"
	mkdir -p "$out" || exit 2
	if ! needs_xstate_help "$1" "$out" "$2"; then
		echo "$(label_of "$2") $2 $1"
		exit 0
	fi
	# Several runs may ask at once: each writes its own file, then renames.
	if [ ! -f "$helper" ] || [ "$root/tests/uml-xstate.c" -nt "$helper" ]; then
		${CC:-cc} -O2 -Wall -shared -fPIC -o "$helper.$$" \
			"$root/tests/uml-xstate.c" &&
		mv "$helper.$$" "$helper" || {
			echo "# uml-kernel: could not build tests/uml-xstate.c" >&2
			rm -f "$helper.$$"
			exit 2
		}
	fi
	{
		echo '#!/bin/sh'
		echo "# $suite's user-mode-linux $2 (tests/uml-kernel.sh)"
		# By name, from its directory: LD_PRELOAD splits at spaces.
		printf 'LD_PRELOAD=uml-xstate.so LD_LIBRARY_PATH=%s exec %s "$@" GLIBC_TUNABLES=glibc.cpu.hwcaps=%s\n' \
			"'$out'" "'$1'" "$AVX512_OFF"
	} > "$out/xstate.uml.$$" && chmod 755 "$out/xstate.uml.$$" &&
	mv "$out/xstate.uml.$$" "$out/xstate.uml" || exit 2
	echo "$(label_of "$2") $2 $out/xstate.uml"
	exit 0
}

if [ "$suite" = bookworm ] || [ "$suite" = system ]; then
	bin=/usr/bin/linux.uml
	ver=$(dpkg-query -W -f '${Version}' user-mode-linux 2>/dev/null)
	[ -x "$bin" ] && [ -n "$ver" ] || {
		echo "# uml-kernel: $bin missing: apt-get install user-mode-linux" >&2
		exit 2
	}
	finish "$bin" "$ver"
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
# A suite older than the system's (bullseye) runs on our glibc as it is.
if [ -x "$src" ] && [ -n "$ver" ] && runs_on_system_glibc "$src"; then
	finish "$src" "$ver"
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
finish "$bin" "$ver"
