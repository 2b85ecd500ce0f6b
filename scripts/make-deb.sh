#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# make deb: build the Debian packages from a copy of the tree in
# BUILD_DIR/deb (dpkg-buildpackage -b writes beside the tree it builds,
# and cleans it), then lint them: any lintian error or warning fails.
# Run as root, the build runs as an ordinary user (BUILD_USER, default
# nobody), as a buildd, sbuild or mock builds: the tests skip what needs
# privilege because the kernel refuses it, not because they were told to.
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

# As root, the copy becomes the build user's, who builds it with no
# capability, no supplementary group and a clean environment.
as_builder() {
	if [ "$(id -u)" -ne 0 ]; then
		"$@"
		return
	fi
	user=${BUILD_USER:-nobody}
	setpriv --reuid="$user" --regid="$(id -g "$user")" --clear-groups \
		--inh-caps=-all --bounding-set=-all --reset-env \
		env HOME="$out" DEB_BUILD_OPTIONS="${DEB_BUILD_OPTIONS:-}" "$@"
}
if [ "$(id -u)" -eq 0 ]; then
	user=${BUILD_USER:-nobody}
	chown -R "$user:$(id -g "$user")" "$out"
	as_builder test -w "$out" ||
		fail "$user cannot enter $out: a directory above it is closed to others"
	echo "# make deb: building as $user"
fi

(cd "$src" && as_builder dpkg-buildpackage -b -uc -us) > "$out/build.log" 2>&1 || {
	tail -n 60 "$out/build.log"
	fail "dpkg-buildpackage failed (the whole log: $out/build.log)"
}
grep -E '^# (native|emulated): ' "$out/build.log" || true
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
