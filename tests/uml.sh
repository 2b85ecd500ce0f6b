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
   uml=${uml#* * } ;; # after LABEL and VERSION: a path may have spaces
esac
[ -x "$uml" ] || { echo "# $uml missing: apt-get install user-mode-linux" >&2; exit 2; }

dir=$(mktemp -d "${TMPDIR:-/tmp}/libpidfd-uml.XXXXXX")
trap 'rm -rf "$dir"' EXIT INT TERM
init="$dir/init"
# shellcheck source=tests/guest-init.sh
. "$(dirname "$0")/guest-init.sh"
guest_init "$init" "$(pwd)" "mount -r -t hostfs hostfs -o '$(pwd)'" "$@"

out="$dir/console"
# The console is our stdout; kernel messages are kept quiet.
timeout "${UML_TIMEOUT:-1200}" "$uml" mem=1536M quiet rootfstype=hostfs \
	rootflags=/ ro init="$init" con=null con0=fd:0,fd:1 \
	< /dev/null 2>&1 | tr -d '\r' > "$out"
guest_status "$out"
