#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Run a package build as a buildd, sbuild or mock runs it: as an ordinary
# user. As root, DIR becomes BUILD_USER's (default nobody), who runs
# COMMAND with no capability, no supplementary group and a clean
# environment (HOME=DIR; DEB_BUILD_OPTIONS kept); as anyone else,
# COMMAND just runs. The tests then skip what needs privilege because
# the kernel refuses it, not because they were told to.
#   scripts/as-builder.sh DIR COMMAND [ARG...]
#   scripts/as-builder.sh --dir DIR
# --dir prints where to build what would go in DIR: DIR itself where the
# builder can write it, else (a directory above it is closed to others,
# as /root is, or its path has a space, which rpm's macros split at) a
# new directory of the builder's under /tmp.
set -eu
usage="usage: scripts/as-builder.sh DIR COMMAND [ARG...] | --dir DIR"
place=0
if [ "${1:-}" = --dir ]; then
	place=1
	shift
fi
dir=${1:?$usage}
shift
root=0
[ "$(id -u)" -ne 0 ] || root=1
[ "$place" -eq 1 ] || [ "$root" -eq 1 ] || exec "$@"
user=${BUILD_USER:-nobody}
group=$(id -g "$user")
as_user() {
	if [ "$root" -eq 0 ]; then
		"$@"
		return
	fi
	setpriv --reuid="$user" --regid="$group" --clear-groups \
		--inh-caps=-all --bounding-set=-all --reset-env \
		env HOME="$dir" DEB_BUILD_OPTIONS="${DEB_BUILD_OPTIONS:-}" "$@"
}
[ "$root" -eq 0 ] || chown -R "$user:$group" "$dir"
if [ "$place" -eq 1 ]; then
	case "$dir" in
	*[[:space:]]*) ;;
	*) as_user test -w "$dir" && { echo "$dir"; exit 0; } ;;
	esac
	dir=$(mktemp -d /tmp/libpidfd-build.XXXXXX)
	[ "$root" -eq 0 ] || chown "$user:$group" "$dir"
	echo "$dir"
	exit 0
fi
as_user test -w "$dir" || {
	echo "as-builder: $user cannot write $dir: a directory above it is closed to others" >&2
	exit 1
}
echo "# building as $user"
as_user "$@"
