#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# make deb: build the Debian packages from a copy of the tree in
# BUILD_DIR/deb (dpkg-buildpackage -b writes beside the tree it builds,
# and cleans it), then lint them: any lintian error or warning fails.
# Run as root, the build runs as an ordinary user (scripts/as-builder.sh).
# debian/rules builds with LTO (DEB_BUILD_MAINT_OPTIONS optimize=+lto).
#   scripts/make-deb.sh BUILD_DIR
set -eu
# shellcheck source-path=SCRIPTDIR source=package.sh
. "$(dirname "$0")/package.sh"
package_start deb "${1:-build}"

version=$(dpkg-parsechangelog -l "$here/debian/changelog" -S Version)
same_version "$version" debian/changelog "dch -v"

src=$work/libpidfd-$version
"$here/scripts/copy-tree.sh" "$src"
land_build dpkg-buildpackage "$src" dpkg-buildpackage -b -uc -us
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
