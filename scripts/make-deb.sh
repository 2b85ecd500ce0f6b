#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# make deb: build the Debian packages from a copy of the tree in
# BUILD_DIR/deb (dpkg-buildpackage -b writes beside the tree it builds,
# and cleans it), then lint them: any lintian error or warning fails.
# Run as root, the build runs as an ordinary user (scripts/as-builder.sh).
# debian/rules builds with LTO (DEB_BUILD_MAINT_OPTIONS optimize=+lto).
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

# Where the builder cannot reach BUILD_DIR (a checkout under /root), the
# build happens in a directory of its own and lands in BUILD_DIR after.
rm -rf "$out"
mkdir -p "$out"
work=$("$here/scripts/as-builder.sh" --dir "$out")
src=$work/libpidfd-$version
"$here/scripts/copy-tree.sh" "$src"

rc=0
(cd "$src" && "$here/scripts/as-builder.sh" "$work" dpkg-buildpackage -b -uc -us) > "$work/build.log" 2>&1 || rc=$?
if [ "$work" != "$out" ]; then
	cp -a "$work/." "$out/"
	rm -rf "$work"
fi
[ "$rc" -eq 0 ] || {
	tail -n 60 "$out/build.log"
	fail "dpkg-buildpackage failed (the whole log: $out/build.log)"
}
grep -E '^# (building as|native:|emulated:) ' "$out/build.log" || true
# A development build is UNRELEASED in debian/changelog, as NEWS says
# (tests/static.sh holds them together): lintian's error for that alone
# is not the package's; a release names its distribution.
dist=$(dpkg-parsechangelog -l "$here/debian/changelog" -S Distribution)
unreleased=
[ "$dist" != UNRELEASED ] || unreleased="--suppress-tags unreleased-changes"
# shellcheck disable=SC2086
lintian --fail-on error,warning --tag-display-limit 0 $unreleased "$out"/*.changes ||
	fail "lintian: errors or warnings above"
ls "$out"/*.deb
