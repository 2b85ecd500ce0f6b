#!/bin/sh
# <libpidfd.h> with any set of system headers, in any order: every set that
# compiles on its own also compiles with <libpidfd.h> before it, between
# its headers and after it, followed by tests/header-use.h (every name of
# the contract, checked at compile time).
#
# - Languages: C99, C11, C17, C2x, GNU C11; C++11, C++14, C++17, C++20,
#   GNU C++17; gcc and clang.
# - Each order twice, under every compiler and language above: -pedantic
#   -Wall -Wextra -Werror (the user's code and this header), and -Wall
#   -Wextra -Wsystem-headers -Werror (a system header that comes later and
#   redefines a name differently warns there). Nothing is skipped.
# - Sets of system headers: none, each of linux/pidfd.h, sys/pidfd.h,
#   sys/wait.h, signal.h, linux/fcntl.h and fcntl.h alone, and each
#   ordered pair of the four that define the same names (pidfd and fcntl,
#   kernel and C library). A set that fails without <libpidfd.h> is named
#   ("fails on its own") and is not this header's to fix: with every
#   header set, 8 of the 12 pairs clash on their own.
# - Header sets: Debian 12's (installed), 13's and unstable's kernel
#   headers (.ci/fetch-debs SUITE linux-libc-dev, under DEBS_DIR, default
#   build/debs), the same two with their suite's C library headers
#   (SUITE-glibc: glibc 2.41, and 2.43, whose <sys/pidfd.h> declares a
#   72-byte struct pidfd_info), a stand-in for Linux 6.13 to 7.0, whose
#   <linux/pidfd.h> declared a shorter struct pidfd_info, and one for a
#   kernel newer than this library, whose new names must be there in every
#   order that includes it.
# - A C++ function taking struct libpidfd_info or struct pidfd_info
#   mangles the same with every header set (compiled, compared with nm).
# - Cost: 19 sets alone and 2 x 25 orders, 69 compiles per compiler and
#   header set, 8694 in all (4830 when pairs were compiled by 4 of the 18
#   compilers only, and -pedantic with single headers only). Each order
#   is written once per header set and each compiler takes all of them in
#   one process, each file its own translation unit; a file is compiled
#   again alone only to show why it failed.
#   tests/header.sh
# Prints one "ok"/"not ok" line per compiler and header set; a missing
# header set fails under CI=true and is named otherwise.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
debs=${DEBS_DIR:-$here/build/debs}
if [ "${1:-}" = --one ]; then # a job of this script's own, below
	tmp=$2
else
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/libpidfd-header.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	# The header sets through a link here: their -isystem flags are
	# split at spaces, and the tree's path may have one.
	case $debs in /*) ;; *) debs=$(pwd)/$debs ;; esac
	ln -s "$debs" "$tmp/debs" || exit 1
fi
debs=$tmp/debs
failed=0
triplet=$(gcc -print-multiarch 2>/dev/null)

compilers="gcc:-std=c99 gcc:-std=c11 gcc:-std=c17 gcc:-std=c2x gcc:-std=gnu11
g++:-std=c++11 g++:-std=c++14 g++:-std=c++17 g++:-std=c++20 g++:-std=gnu++17
clang:-std=c99 clang:-std=c11 clang:-std=c17 clang:-std=c2x
clang++:-std=c++11 clang++:-std=c++14 clang++:-std=c++17 clang++:-std=c++20"
sets=${HEADER_SETS:-bookworm trixie sid trixie-glibc sid-glibc linux-6.13 linux-next}
singles="linux/pidfd.h sys/pidfd.h sys/wait.h signal.h linux/fcntl.h fcntl.h"
clashing="linux/pidfd.h sys/pidfd.h linux/fcntl.h fcntl.h"

# The stand-ins' headers: Linux 6.13's <linux/pidfd.h>, cut to what
# matters (the 64-byte struct), and a future one: the newest struct and
# names the library lacks. Each with its <linux/version.h>.
standins() {
mkdir -p "$tmp/linux-6.13/linux"
echo '#define LINUX_VERSION_CODE 396544' > "$tmp/linux-6.13/linux/version.h"
cat > "$tmp/linux-6.13/linux/pidfd.h" <<'H'
#ifndef _LINUX_PIDFD_H
#define _LINUX_PIDFD_H
#include <linux/types.h>
#include <linux/fcntl.h>
#include <linux/ioctl.h>
#define PIDFD_NONBLOCK	O_NONBLOCK
#define PIDFD_THREAD	O_EXCL
#define PIDFD_INFO_PID			(1UL << 0) /* Always returned, even if not requested */
#define PIDFD_INFO_SIZE_VER0		64 /* sizeof first published struct */
struct pidfd_info {
	__u64 mask, cgroupid;
	__u32 pid, tgid, ppid, ruid, rgid, euid, egid, suid, sgid, fsuid, fsgid;
	__u32 spare0[1];
};
#define PIDFS_IOCTL_MAGIC 0xFF
#define PIDFD_GET_INFO                        _IOWR(PIDFS_IOCTL_MAGIC, 11, struct pidfd_info)
#endif
H

mkdir -p "$tmp/linux-next/linux"
echo '#define LINUX_VERSION_CODE 461056' > "$tmp/linux-next/linux/version.h"
cat > "$tmp/linux-next/linux/pidfd.h" <<'H'
#ifndef _LINUX_PIDFD_H
#define _LINUX_PIDFD_H
#include <linux/types.h>
#include <linux/fcntl.h>
#include <linux/ioctl.h>
#define PIDFD_NONBLOCK	O_NONBLOCK
#define PIDFD_THREAD	O_EXCL
#define PIDFD_INFO_SIZE_VER3		88 /* sizeof fourth published struct */
#define PIDFD_INFO_NEXT			(1UL << 8)
struct pidfd_info {
H
# Its struct is the header's, whatever fields that has.
"$here/scripts/info-members.sh" >> "$tmp/linux-next/linux/pidfd.h"
cat >> "$tmp/linux-next/linux/pidfd.h" <<'H'
};
#define PIDFS_IOCTL_MAGIC 0xFF
#define PIDFD_GET_INFO                        _IOWR(PIDFS_IOCTL_MAGIC, 11, struct pidfd_info)
#define PIDFD_GET_NEXT                        _IO(PIDFS_IOCTL_MAGIC, 12)
#endif
H
}

# The -isystem flags of a header set, or nothing and 1 if it is missing.
set_flags() {
	case $1 in
	bookworm) echo "" ;;
	linux-6.13) echo "-isystem $tmp/linux-6.13" ;;
	linux-next) echo "-isystem $tmp/linux-next -DHEADER_NEXT" ;;
	*-glibc)
		# The suite's whole C library headers too: its <sys/pidfd.h>.
		g=$debs/${1%-glibc}/libc6-dev/usr/include
		[ -f "$g/$triplet/sys/pidfd.h" ] || return 1
		flags=$(set_flags "${1%-glibc}") || return 1
		echo "-isystem $g/$triplet -isystem $g $flags" ;;
	*)
		d=$debs/$1/linux-libc-dev/usr/include
		[ -f "$d/linux/pidfd.h" ] || return 1
		echo "-isystem $d -isystem $d/$triplet" ;;
	esac
}

# The size of the newest struct pidfd_info, the header's: the future
# kernel header's struct has its members.
next_size=$("$here/scripts/info-members.sh" | awk '{ n += substr($1, 4) / 8 } END { print n }')

# The size of struct pidfd_info that a system header of a set declares
# (0: none, and <libpidfd.h> declares its own, of $next_size bytes).
info_size() { # set header
	case $1:$2 in
	sid*:linux/pidfd.h) echo 88 ;;
	linux-next:linux/pidfd.h) echo "$next_size" ;;
	linux-6.13:linux/pidfd.h) echo 64 ;;
	sid-glibc:sys/pidfd.h) echo 72 ;;
	bookworm:*|trixie*:*) echo 0 ;;
	esac
}

# The sets of system headers, one a line: none, each alone, each ordered
# pair of the clashing four.
lists() {
	echo
	for a in $singles; do echo "$a"; done
	for a in $clashing; do
		for b in $clashing; do
			[ "$a" = "$b" ] || echo "$a $b"
		done
	done
}

# One file per set of system headers alone (o.N.c) and per order of it
# with <libpidfd.h> at position K (p.N.K.c), written once per header set
# for all its compilers: the same text, compiled as C or C++.
write_orders() { # set
	d=$tmp/$1
	mkdir -p "$d"
	case $1 in bookworm|trixie*) own=1 ;; *) own=0 ;; esac
	n=0
	lists | while read -r hs; do
		n=$((n + 1))
		# shellcheck disable=SC2086
		set -- $hs
		write_order "$d/o.$n.c" -1 "$@"
		pos=0
		while [ "$pos" -le $# ]; do
			write_order "$d/p.$n.$pos.c" "$pos" "$@"
			pos=$((pos + 1))
		done
	done
}

# One order: the system headers with <libpidfd.h> at position $pos (none
# for -1), then what header-use.h needs to know of them.
write_order() { # file pos headers...
	f=$1 pos=$2
	shift 2
	i=0 size='' fcntl=no
	for h in "$@" -; do
		[ "$i" -eq "$pos" ] && echo "#include <libpidfd.h>"
		i=$((i + 1))
		[ "$h" = - ] && break
		echo "#include <$h>"
		# The size of struct pidfd_info that this system header
		# declares (none: <libpidfd.h> declares its own, the newest).
		case $set:$h in
		sid*:linux/pidfd.h) size=88 ;;
		linux-next:linux/pidfd.h) size=$next_size ;;
		linux-6.13:linux/pidfd.h) size=64 ;;
		sid-glibc:sys/pidfd.h) size=72 ;;
		esac
		case $h in *fcntl.h|*pidfd.h) fcntl=yes ;; esac
		[ "$h" = linux/pidfd.h ] && echo "#define HEADER_LINUX_PIDFD 1"
	done > "$f"
	[ "$pos" -ge 0 ] || return 0
	{
		[ "$fcntl" = no ] && echo "#define HEADER_NO_FCNTL 1"
		[ -n "$size" ] && echo "#define HEADER_INFO_SIZE $size"
		echo "#define HEADER_OWN_INFO $own"
		echo '#include "header-use.h"'
	} >> "$f"
}

# Compile files (in the directory of the header set) with one compiler
# process, each its own translation unit: gcc and clang go on after one
# that fails, and name it at the top of each diagnostic's include stack.
# Prints the files that failed, then, each alone, what the compiler said
# of them (lines starting with "#").
compile() { # warnings files...
	warn=$1
	shift
	[ $# -gt 0 ] || return 0
	# shellcheck disable=SC2086
	failed=$($cc -x $lang $std $warn -Werror -fsyntax-only $flags \
		-I"$here/include" -I"$here/tests" "$@" 2>&1 |
		grep -o '[op]\.[0-9][0-9.]*\.c:' | sort -u | tr -d :)
	for f in $failed; do
		echo "$f"
		[ "${f#o.}" = "$f" ] || continue
		# shellcheck disable=SC2086
		out=$($cc -x $lang $std $warn -Werror -fsyntax-only $flags \
			-I"$here/include" -I"$here/tests" "$f" 2>&1)
		echo "#   $(tr '\n' ' ' < "$f")($warn)"
		echo "$out" | grep -m 3 'error' | sed 's/^/#     /'
	done
}

# One compiler with one header set, run in parallel with the others: every
# set of system headers alone, then every order of those that compiled,
# under both warning sets.
if [ "${1:-}" = --one ]; then
	tmp=$2 set=$3 cc=$4 std=$5
	flags=$(set_flags "$set")
	lang=c
	case $cc in *++) lang='c++' ;; esac
	d=$tmp/$set
	cd "$d" || exit 1
	own=$(compile "-Wall -Wextra -Wsystem-headers" o.*.c | tr '\n' ' ')
	orders='' alone=''
	for o in o.*.c; do
		n=${o#o.}
		n=${n%.c}
		case " $own" in
		*" o.$n.c "*)
			alone="$alone# fails on its own, not this header's: $(sed -n \
				's/^#include <\(.*\)>/\1/p' "$o" | tr '\n' ' ')
"
			continue ;;
		esac
		orders="$orders p.$n.*.c"
	done
	# shellcheck disable=SC2086
	out=$(compile "-Wall -Wextra -Wsystem-headers" $orders
		compile "-pedantic -Wall -Wextra" $orders)
	# shellcheck disable=SC2086
	set -- o.*.c $orders $orders
	if echo "$out" | grep -q '^#   '; then
		echo "not ok - $cc $std, headers of $set"
		echo "$out" | grep '^#'
	else
		echo "ok - $cc $std, headers of $set, every order ($# compiles)"
	fi
	printf '%s' "$alone"
	exit 0
fi

# The C++ symbols of functions taking the library's struct and the
# system's, with <libpidfd.h> alone and after each system pidfd header.
mangled() { # set flags
	for first in "" linux/pidfd.h sys/pidfd.h; do
		f=$tmp/m.$1.cc
		{
			[ -n "$first" ] && echo "#include <$first>"
			echo "#include <libpidfd.h>"
			echo "void describe(const struct libpidfd_info &) {}"
			echo "void describe_system(const struct pidfd_info *) {}"
		} > "$f"
		# shellcheck disable=SC2086
		g++ -std=c++11 -c $2 -I"$here/include" -o "$f.o" "$f" 2>&1 ||
			echo "# $1: $first <libpidfd.h>: does not compile"
		nm --defined-only "$f.o" | sed -n 's/.* T \(_Z[0-9]*describe.*\)/\1/p'
	done | sort -u
}

standins
jobs=
for set in $sets; do
	if ! flags=$(set_flags "$set"); then
		if [ "${CI:-}" = true ]; then
			echo "not ok - headers of $set: not in $debs (.ci/fetch-debs ${set%-glibc} linux-libc-dev libc6-dev)"
			failed=$((failed + 1))
		else
			echo "# headers of $set: not tested, not in $debs (run .ci/fetch-debs ${set%-glibc} linux-libc-dev libc6-dev)"
		fi
		continue
	fi
	write_orders "$set"
	for c in $compilers; do
		jobs="$jobs$set ${c%%:*} ${c#*:}
"
	done
	symbols=$(mangled "$set" "$flags")
	if [ "$symbols" = "_Z15describe_systemPK10pidfd_info
_Z8describeRK13libpidfd_info" ]; then
		echo "ok - C++ mangling with headers of $set: $(echo "$symbols" | tr '\n' ' ')"
	else
		echo "not ok - C++ mangling with headers of $set"
		echo "$symbols" | sed 's/^/#   /'
		failed=$((failed + 1))
	fi
done

# A C library without the kernel's headers (Debian's musl-gcc has none):
# <libpidfd.h> alone and before and after <sys/ioctl.h>, then
# header-use.h, as C99 to C2x with -pedantic; the ioctl numbers it
# computes there must be the kernel's, as gcc with the kernel's headers
# spells them.
ioctls="CGROUP IPC MNT NET PID PID_FOR_CHILDREN TIME TIME_FOR_CHILDREN USER UTS"
ioctl_values() { # compiler and flags: each number, a line each
	{
		echo '#include <libpidfd.h>'
		echo '#include <stdio.h>'
		echo '#define P(n) printf("%lx\\n", (unsigned long)(n))'
		echo 'int main(void) {'
		for i in $ioctls; do echo "P(PIDFD_GET_${i}_NAMESPACE);"; done
		echo 'P(PIDFD_GET_INFO); return 0; }'
	} > "$tmp/ioctls.c"
	"$@" -I"$here/include" -o "$tmp/ioctls" "$tmp/ioctls.c" && "$tmp/ioctls"
}
if command -v musl-gcc > /dev/null; then
	r=0
	for std in c99 c11 c17 c2x; do
		for order in "libpidfd.h" "libpidfd.h sys/ioctl.h" "sys/ioctl.h libpidfd.h"; do
			{
				for h in $order; do echo "#include <$h>"; done
				echo "#define HEADER_OWN_INFO 1"
				echo "#define HEADER_NO_FCNTL 1"
				echo '#include "header-use.h"'
			} > "$tmp/musl.c"
			musl-gcc -std=$std -D_POSIX_C_SOURCE=200809L -pedantic -Wall \
				-Wextra -Werror -I"$here/include" -I"$here/tests" \
				-c -o /dev/null "$tmp/musl.c" 2>&1 | sed 's/^/#   /' | grep . && r=1
		done
	done
	if [ "$r" -eq 0 ]; then
		echo "ok - musl without kernel headers: C99 to C2x, with <sys/ioctl.h> either side"
	else
		echo "not ok - musl without kernel headers"
		failed=$((failed + 1))
	fi
	kernel=$(ioctl_values gcc 2>&1) musl=$(ioctl_values musl-gcc 2>&1)
	if [ "$kernel" = "$musl" ] && [ "$(echo "$musl" | wc -l)" -eq 11 ]; then
		echo "ok - musl without kernel headers: the kernel's 11 ioctl numbers"
	else
		echo "not ok - musl without kernel headers: ioctl numbers $(echo "$musl" | tr '\n' ' ')," \
			"the kernel's $(echo "$kernel" | tr '\n' ' ')"
		failed=$((failed + 1))
	fi
elif [ "${CI:-}" = true ]; then
	echo "not ok - musl without kernel headers: no musl-gcc (musl-tools)"
	failed=$((failed + 1))
else
	echo "# musl without kernel headers: not tested, no musl-gcc (musl-tools)"
fi

out=$(printf '%s' "$jobs" |
	xargs -P "$(nproc 2>/dev/null || echo 2)" -L 1 "$0" --one "$tmp")
echo "$out"
n=$(echo "$out" | grep -c '^ok - ')
bad=$(echo "$out" | grep -c '^not ok - ')
failed=$((failed + bad))
[ "$n" -gt 0 ] && [ "$failed" -eq 0 ]
