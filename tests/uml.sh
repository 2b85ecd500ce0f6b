#!/bin/sh
# Run a command inside a Linux kernel under user-mode-linux (Debian's
# package), as an ordinary process: no VM, no root tricks. UML names the
# kernel: a Debian suite (bookworm, the system's Linux 6.1 and the default;
# trixie or sid, cached by .ci/fetch-debs, see tests/uml-kernel.sh) or the
# path of a linux.uml binary. The host's root file
# system is mounted read-only through hostfs; our init mounts /proc, a
# tmpfs on /tmp, sysfs and cgroup2, runs the command from this directory,
# prints its exit status on the console and powers off.
#   tests/uml.sh COMMAND [ARG...]
set -u
uml=${UML:-bookworm}
case "$uml" in
*/*) ;;
*) uml=$("$(dirname "$0")/uml-kernel.sh" "$uml") || exit 2
   uml=${uml##* } ;;
esac
[ -x "$uml" ] || { echo "# $uml missing: apt-get install user-mode-linux" >&2; exit 2; }

dir=$(mktemp -d "${TMPDIR:-/tmp}/libpidfd-uml.XXXXXX")
trap 'rm -rf "$dir"' EXIT INT TERM
init="$dir/init"
{
	echo '#!/bin/sh'
	echo 'export PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/tmp TMPDIR=/tmp'
	# The guest lives for this one command: a test may change what is
	# the whole machine's (core_pattern), as it may not on the host.
	echo 'export TEST_OWNS_MACHINE=1'
	echo 'mount -t proc proc /proc'
	echo 'mount -t tmpfs tmpfs /tmp'
	echo 'mount -t sysfs sysfs /sys'
	echo 'mount -t cgroup2 cgroup2 /sys/fs/cgroup 2>/dev/null'
	echo 'mount -t tmpfs tmpfs /dev/shm 2>/dev/null'
	# A tree under /tmp is hidden by that tmpfs: mount it back, from the host.
	case "$(pwd)/" in
	/tmp/*)
		printf 'mkdir -p %s && mount -r -t hostfs hostfs %s -o %s\n' \
			"'$(pwd)'" "'$(pwd)'" "'$(pwd)'" ;;
	esac
	printf 'cd %s || { echo o > /proc/sysrq-trigger; }\n' "'$(pwd)'"
	printf 'echo "# uname: $(uname -r)"\n'
	for a in "$@"; do printf "'%s' " "$a"; done
	echo
	echo 'echo "UML-EXIT-STATUS=$?"'
	# poweroff comes with systemd-sysv; the kernel's own switch needs nothing.
	echo 'poweroff -f 2>/dev/null; echo o > /proc/sysrq-trigger'
} > "$init"
chmod 755 "$init"

out="$dir/console"
# The console is our stdout; kernel messages are kept quiet.
timeout "${UML_TIMEOUT:-1200}" "$uml" mem=1536M quiet rootfstype=hostfs \
	rootflags=/ ro init="$init" con=null con0=fd:0,fd:1 \
	< /dev/null 2>&1 | tr -d '\r' > "$out"
grep -v -e '^UML-EXIT-STATUS=' "$out"
status=$(sed -n 's/^UML-EXIT-STATUS=//p' "$out" | tail -n 1)
if [ -z "$status" ]; then
	echo "# user-mode-linux did not report an exit status"
	exit 2
fi
exit "$status"
