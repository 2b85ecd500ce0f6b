#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# make rpm: build the RPMs of libpidfd.spec with rpmbuild -bb (its %check
# runs the suite) from a tarball of the tree, in BUILD_DIR/rpm as rpm's
# _topdir, as an ordinary user when run as root (scripts/as-builder.sh),
# then lint the spec and the RPMs with rpmlint, told what Fedora's
# configuration would tell it (scripts/rpmlint-fedora.toml), filtering
# what libpidfd.rpmlintrc says, and why: any other error or warning
# fails. Debian's rpm and rpmlint packages are enough.
#   scripts/make-rpm.sh BUILD_DIR
set -eu
# shellcheck source-path=SCRIPTDIR source=package.sh
. "$(dirname "$0")/package.sh"
package_start rpm "${1:-build}"

version=$(sed -n 's/^Version: *//p' "$here/libpidfd.spec")
same_version "$version" libpidfd.spec

# The builder builds from a copy of the spec.
mkdir -p "$work/SOURCES" "$work/tree"
cp "$here/libpidfd.spec" "$work/libpidfd.spec"
"$here/scripts/copy-tree.sh" "$work/tree/libpidfd-$version"
tar -C "$work/tree" -czf "$work/SOURCES/libpidfd-$version.tar.gz" "libpidfd-$version"
rm -rf "$work/tree"

# Debian's rpm has no rpm database of the build's dependencies
# (--nodeps) and no debuginfo machinery (libpidfd.rpmlintrc); its
# /bin/sh is dash, under which brp-compress (man pages) does not run:
# Fedora's is bash.
land_build rpmbuild "$work" rpmbuild -bb --nodeps \
	--define "_topdir $work" --define "debug_package %nil" \
	--define "__brp_compress /bin/bash /usr/lib/rpm/brp-compress %{_prefix}" \
	"$work/libpidfd.spec"
# The RPMs' paths from BUILD_DIR, which may have a space: no name has.
rpms=$(cd "$out" && find RPMS -name '*.rpm' | sort)
[ -n "$rpms" ] || fail "rpmbuild made no RPM"
# shellcheck disable=SC2086
(cd "$out" && rpmlint --strict -c "$here/scripts/rpmlint-fedora.toml" \
	-r "$here/libpidfd.rpmlintrc" "$here/libpidfd.spec" $rpms) ||
	fail "rpmlint: errors or warnings above"
echo "$rpms" | sed "s|^|$out/|"
