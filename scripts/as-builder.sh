#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Run a package build as a buildd, sbuild or mock runs it: as an ordinary
# user. As root, DIR becomes BUILD_USER's (default nobody), who runs
# COMMAND with no capability, no supplementary group and a clean
# environment (HOME=DIR; DEB_BUILD_OPTIONS kept); as anyone else,
# COMMAND just runs. The tests then skip what needs privilege because
# the kernel refuses it, not because they were told to.
#   scripts/as-builder.sh DIR COMMAND [ARG...]
set -eu
dir=${1:?usage: scripts/as-builder.sh DIR COMMAND [ARG...]}
shift
[ "$(id -u)" -eq 0 ] || exec "$@"
user=${BUILD_USER:-nobody}
group=$(id -g "$user")
chown -R "$user:$group" "$dir"
as_user() {
	setpriv --reuid="$user" --regid="$group" --clear-groups \
		--inh-caps=-all --bounding-set=-all --reset-env \
		env HOME="$dir" DEB_BUILD_OPTIONS="${DEB_BUILD_OPTIONS:-}" "$@"
}
as_user test -w "$dir" || {
	echo "as-builder: $user cannot write $dir: a directory above it is closed to others" >&2
	exit 1
}
echo "# building as $user"
as_user "$@"
