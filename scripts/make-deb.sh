#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# make deb: build the Debian packages from a copy of the tree in
# BUILD_DIR/deb (dpkg-buildpackage -b writes beside the tree it builds,
# and cleans it), then lint them: any lintian error or warning fails.
#   scripts/make-deb.sh BUILD_DIR
set -eu
build=${1:-build}
here=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$build"
out=$(cd "$build" && pwd)/deb

fail() { echo "make deb: $*" >&2; exit 1; }

version=$(dpkg-parsechangelog -l "$here/debian/changelog" -S Version)
upstream=$(sed -n 's/^VERSION *:= *//p' "$here/Makefile")
[ "${version%%-*}" = "$upstream" ] ||
	fail "debian/changelog says $version, the Makefile $upstream (dch -v $upstream)"

rm -rf "$out"
src=$out/libpidfd-$version
mkdir -p "$src"
# The tree's files (tracked, or new and not ignored), not its builds.
if git -C "$here" rev-parse --git-dir > /dev/null 2>&1; then
	git -C "$here" ls-files -z --cached --others --exclude-standard |
		(cd "$here" && xargs -0 sh -c 'for f; do [ -e "$f" ] || [ -L "$f" ] && printf "%s\n" "$f"; done' sh) |
		tar -C "$here" -cf - -T - | tar -C "$src" -xf -
else
	tar -C "$here" --exclude=./.git --exclude=./build --exclude=./debian/build \
		-cf - . | tar -C "$src" -xf -
fi

(cd "$src" && dpkg-buildpackage -b -uc -us) > "$out/build.log" 2>&1 || {
	tail -n 60 "$out/build.log"
	fail "dpkg-buildpackage failed (the whole log: $out/build.log)"
}
grep -E '^# (native|emulated): ' "$out/build.log" || true
lintian --fail-on error,warning --tag-display-limit 0 "$out"/*.changes ||
	fail "lintian: errors or warnings above"
ls "$out"/*.deb
