#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copy the source tree's files (tracked, or new and not ignored), not its
# builds, into DEST: what make deb and make rpm build from.
#   scripts/copy-tree.sh DEST
set -eu
dest=${1:?usage: scripts/copy-tree.sh DEST}
here=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$dest"
if git -C "$here" rev-parse --git-dir > /dev/null 2>&1; then
	git -C "$here" ls-files -z --cached --others --exclude-standard |
		(cd "$here" && xargs -0 sh -c 'for f; do [ -e "$f" ] || [ -L "$f" ] && printf "%s\n" "$f"; done' sh) |
		tar -C "$here" -cf - -T - | tar -C "$dest" -xf -
else
	tar -C "$here" --exclude=./.git --exclude=./build --exclude=./debian/build \
		--exclude=./rpmbuild -cf - . | tar -C "$dest" -xf -
fi
