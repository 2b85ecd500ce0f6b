# shellcheck shell=sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# What scripts/make-deb.sh and make-rpm.sh share, sourced by both:
# BUILD_DIR/KIND is made empty, the package tool runs there as an
# ordinary user (scripts/as-builder.sh), and its log and output land in
# BUILD_DIR/KIND whatever it did.
here=$(cd "$(dirname "$0")/.." && pwd)

fail() { echo "make $kind: $*" >&2; exit 1; }

# package_start KIND BUILD_DIR: sets out, the packages' directory, and
# work, where the builder builds.
# Where the builder cannot reach BUILD_DIR (a checkout under /root), the
# build happens in a directory of its own and lands in BUILD_DIR after
# (land_build).
package_start() {
	kind=$1
	mkdir -p "$2"
	out=$(cd "$2" && pwd)/$kind
	rm -rf "$out"
	mkdir -p "$out"
	work=$("$here/scripts/as-builder.sh" --dir "$out")
}

# same_version VERSION WHERE [FIX]: the package's version (less any
# Debian revision) is the Makefile's; FIX is the command that mends it.
same_version() {
	upstream=$(sed -n 's/^VERSION *:= *//p' "$here/Makefile")
	[ "${1%%-*}" = "$upstream" ] ||
		fail "$2 says $1, the Makefile $upstream${3:+ ($3 $upstream)}"
}

# land_build TOOL DIR COMMAND [ARG...]: run COMMAND in DIR as the builder,
# logging to build.log, bring the build to BUILD_DIR, and fail with the
# log's tail if TOOL failed.
land_build() {
	tool=$1 dir=$2
	shift 2
	rc=0
	(cd "$dir" && "$here/scripts/as-builder.sh" "$work" "$@") > "$work/build.log" 2>&1 || rc=$?
	if [ "$work" != "$out" ]; then
		cp -a "$work/." "$out/"
		rm -rf "$work"
	fi
	[ "$rc" -eq 0 ] || {
		tail -n 60 "$out/build.log"
		fail "$tool failed (the whole log: $out/build.log)"
	}
	grep -E '^# (building as|native:|emulated:) ' "$out/build.log" || true
}
