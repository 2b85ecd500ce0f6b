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
build=${1:-build}
here=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$build"
out=$(cd "$build" && pwd)/rpm

fail() { echo "make rpm: $*" >&2; exit 1; }

version=$(sed -n 's/^Version: *//p' "$here/libpidfd.spec")
upstream=$(sed -n 's/^VERSION *:= *//p' "$here/Makefile")
[ "$version" = "$upstream" ] ||
	fail "libpidfd.spec says $version, the Makefile $upstream"

# Where the builder cannot reach BUILD_DIR (a checkout under /root), the
# build happens in a directory of its own, from a copy of the spec, and
# lands in BUILD_DIR after.
rm -rf "$out"
mkdir -p "$out"
work=$("$here/scripts/as-builder.sh" --dir "$out")
mkdir -p "$work/SOURCES" "$work/tree"
cp "$here/libpidfd.spec" "$work/libpidfd.spec"
"$here/scripts/copy-tree.sh" "$work/tree/libpidfd-$version"
tar -C "$work/tree" -czf "$work/SOURCES/libpidfd-$version.tar.gz" "libpidfd-$version"
rm -rf "$work/tree"

# Debian's rpm has no rpm database of the build's dependencies
# (--nodeps) and no debuginfo machinery (libpidfd.rpmlintrc); its
# /bin/sh is dash, under which brp-compress (man pages) does not run:
# Fedora's is bash.
rc=0
"$here/scripts/as-builder.sh" "$work" rpmbuild -bb --nodeps \
	--define "_topdir $work" --define "debug_package %nil" \
	--define "__brp_compress /bin/bash /usr/lib/rpm/brp-compress %{_prefix}" \
	"$work/libpidfd.spec" > "$work/build.log" 2>&1 || rc=$?
if [ "$work" != "$out" ]; then
	cp -a "$work/." "$out/"
	rm -rf "$work"
fi
[ "$rc" -eq 0 ] || {
	tail -n 60 "$out/build.log"
	fail "rpmbuild failed (the whole log: $out/build.log)"
}
grep -E '^# (building as|native:|emulated:) ' "$out/build.log" || true
# The RPMs' paths from BUILD_DIR, which may have a space: no name has.
rpms=$(cd "$out" && find RPMS -name '*.rpm' | sort)
[ -n "$rpms" ] || fail "rpmbuild made no RPM"
# shellcheck disable=SC2086
(cd "$out" && rpmlint --strict -c "$here/scripts/rpmlint-fedora.toml" \
	-r "$here/libpidfd.rpmlintrc" "$here/libpidfd.spec" $rpms) ||
	fail "rpmlint: errors or warnings above"
echo "$rpms" | sed "s|^|$out/|"
