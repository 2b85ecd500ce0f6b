#!/bin/sh
# <libpidfd.h> for any C: compiled (-pedantic -Wall -Wextra -Werror) as C99,
# C11, C17, C2x, C++11 and C++17 (and GNU C11 and C++17), alone and before
# and after each system header that defines the same names or uses
# siginfo_t. The kernel headers are Debian 12's (installed), 13's and
# unstable's (.ci/fetch-debs unpacks them into build/debs/SUITE/
# linux-libc-dev of the source tree), the same two with their suite's C
# library headers too (SUITE-glibc: glibc 2.41, and 2.43, whose
# <sys/pidfd.h> declares struct pidfd_info), a stand-in for Linux 6.13 to 7.0,
# whose <linux/pidfd.h> declared a shorter struct pidfd_info, and one for
# a kernel newer than this library, whose new names must be there in every
# order. Each program ends with tests/header-use.h: every name of the
# contract, and no O_* name without <fcntl.h>.
#   tests/header.sh
# Prints one "ok"/"not ok" line per compiler and header set; a missing
# header set fails under CI=true and is named otherwise.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
debs=$here/build/debs
tmp=$(mktemp -d "${TMPDIR:-/tmp}/libpidfd-header.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
failed=0
triplet=$(gcc -print-multiarch 2>/dev/null)

compilers="gcc:-std=c99 gcc:-std=c11 gcc:-std=c17 gcc:-std=c2x gcc:-std=gnu11
g++:-std=c++11 g++:-std=c++17 g++:-std=gnu++17 clang:-std=c99 clang:-std=c17
clang++:-std=c++17"
system_headers="linux/pidfd.h sys/pidfd.h sys/wait.h signal.h linux/fcntl.h fcntl.h"

# Linux 6.13's <linux/pidfd.h>, cut to what matters: the 64-byte struct.
mkdir -p "$tmp/linux-6.13/linux"
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

# A future <linux/pidfd.h>: the 88-byte struct and names the library lacks.
mkdir -p "$tmp/linux-next/linux"
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
	__u64 mask, cgroupid;
	__u32 pid, tgid, ppid, ruid, rgid, euid, egid, suid, sgid, fsuid, fsgid;
	__s32 exit_code;
	__u32 coredump_mask, coredump_signal, coredump_code, coredump_pad;
	__u64 supported_mask;
};
#define PIDFS_IOCTL_MAGIC 0xFF
#define PIDFD_GET_INFO                        _IOWR(PIDFS_IOCTL_MAGIC, 11, struct pidfd_info)
#define PIDFD_GET_NEXT                        _IO(PIDFS_IOCTL_MAGIC, 12)
#endif
H

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

# Whether a set's C library declares struct pidfd_info in <sys/pidfd.h>
# (glibc 2.43 and later): <libpidfd.h> then includes that header, with
# <fcntl.h>, and the kernel's family (<linux/pidfd.h>, <linux/fcntl.h>)
# conflicts with it after <libpidfd.h>, as with every user of glibc's
# <sys/pidfd.h>; before it, the kernel's header is taken instead.
glibc_family() {
	case $1 in *-glibc) ;; *) return 1 ;; esac
	minor=$(sed -n 's/^#define[ \t]*__GLIBC_MINOR__[ \t]*\([0-9]*\).*/\1/p' \
		"$debs/${1%-glibc}/libc6-dev/usr/include/features.h")
	[ "${minor:-0}" -ge 43 ]
}

# Every order of one compiler and std with one header set: the failures.
orders() { # cc std flags set
	for sys in - $system_headers; do
		for first in ours sys; do
			[ "$sys" = - ] && [ "$first" = sys ] && continue
			case $first:$sys in ours:linux/pidfd.h|ours:linux/fcntl.h)
				glibc_family "$4" && continue ;;
			esac
			: > "$tmp/t.c"
			[ "$first" = sys ] && echo "#include <$sys>" >> "$tmp/t.c"
			echo "#include <libpidfd.h>" >> "$tmp/t.c"
			[ "$first" = ours ] && [ "$sys" != - ] && echo "#include <$sys>" >> "$tmp/t.c"
			case $sys in -|signal.h|sys/wait.h)
				echo "#define HEADER_NO_FCNTL 1" >> "$tmp/t.c" ;;
			esac
			echo '#include "header-use.h"' >> "$tmp/t.c"
			lang=c
			case $1 in *++) lang=c++ ;; esac
			# shellcheck disable=SC2086
			if ! out=$($1 -x $lang $2 -pedantic -Wall -Wextra -Werror \
				-fsyntax-only $3 -I"$here/include" -I"$here/tests" \
				"$tmp/t.c" 2>&1); then
				echo "#   $(tr '\n' ' ' < "$tmp/t.c")"
				echo "$out" | head -n 5 | sed 's/^/#     /'
			fi
		done
	done
}

n=0
for set in bookworm trixie sid trixie-glibc sid-glibc linux-6.13 linux-next; do
	if ! flags=$(set_flags "$set"); then
		if [ "${CI:-}" = true ]; then
			echo "not ok - headers of $set: not in build/debs (.ci/fetch-debs ${set%-glibc} linux-libc-dev libc6-dev)"
			failed=$((failed + 1))
		else
			echo "# headers of $set: not tested, not in build/debs (run .ci/fetch-debs ${set%-glibc} linux-libc-dev libc6-dev)"
		fi
		continue
	fi
	for c in $compilers; do
		cc=${c%%:*} std=${c#*:}
		out=$(orders "$cc" "$std" "$flags" "$set")
		n=$((n + 1))
		if [ -z "$out" ]; then
			echo "ok - $cc $std, headers of $set, every order"
		else
			echo "not ok - $cc $std, headers of $set"
			echo "$out"
			failed=$((failed + 1))
		fi
	done
done
[ "$n" -gt 0 ] && [ "$failed" -eq 0 ]
