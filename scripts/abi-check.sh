#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# make abi-check: compare a built libpidfd.so with the ABI dump of the last
# release (abi/, written by make abi-dump) through libabigail's abidiff.
#   scripts/abi-check.sh DUMP LIBRARY HEADERS_DIR
# It fails on any removed or changed function, variable or type reachable
# from them, and on a symbol added to a version node the last release
# already had: a release adds symbols only in a new node, and changes or
# removes one only with a new soname (which has no dump yet, so passes).
set -u
dump=$1 lib=$2 headers=$3

fail() { echo "abi-check: $*" >&2; exit 1; }

command -v abidiff > /dev/null || fail "abidiff missing: apt-get install abigail-tools"
[ -e "$lib" ] || fail "$lib: not built"
soname=$(readelf -d "$lib" | sed -n 's/.*SONAME.*\[\(.*\)\]/\1/p')
if [ ! -f "$dump" ]; then
	echo "abi-check: no dump $dump for $soname: a new soname starts a new ABI (make abi-dump at its release)"
	exit 0
fi
old_soname=$(sed -n "1s/.* soname='\([^']*\)'.*/\1/p" "$dump")
[ "$soname" = "$old_soname" ] || {
	echo "abi-check: soname $old_soname -> $soname: a new ABI, nothing to compare"
	exit 0
}
readelf -S "$lib" | grep -q '\.debug_info' ||
	fail "$lib has no debug information to compare types with (build with -g)"

# A reviewed, compatible change (a struct that its callers size, grown at
# its end) is let through by a suppression file beside the dump.
supp=${dump%.abi}.abignore
if [ -f "$supp" ]; then
	out=$(abidiff --suppressions "$supp" --hd2 "$headers" "$dump" "$lib")
else
	out=$(abidiff --hd2 "$headers" "$dump" "$lib")
fi
rc=$?
echo "$out"
# abidiff's status is a bit mask: 1 error, 2 usage error, 4 ABI change,
# 8 incompatible ABI change.
[ $((rc & 3)) -eq 0 ] || fail "abidiff failed (status $rc)"
[ $((rc & 8)) -eq 0 ] || fail "incompatible ABI change without a new soname"

bad=0
for what in "Functions changes" "Variables changes"; do
	line=$(echo "$out" | grep "^$what summary:")
	r=$(echo "$line" | sed -n 's/.*: \([0-9]*\) Removed.*/\1/p')
	c=$(echo "$line" | sed -n 's/.* \([0-9]*\) Changed.*/\1/p')
	if [ "${r:-0}" -ne 0 ] || [ "${c:-0}" -ne 0 ]; then
		echo "abi-check: $what: ${r:-0} removed, ${c:-0} changed" >&2
		bad=1
	fi
done
for what in "Function symbols" "Variable symbols"; do
	r=$(echo "$out" | sed -n "s/^$what changes summary: \([0-9]*\) Removed.*/\1/p")
	if [ "${r:-0}" -ne 0 ]; then
		echo "abi-check: $what: $r removed" >&2
		bad=1
	fi
done
# Every added symbol in a node the last release did not have.
old_nodes=$(grep -o "version='[^']*'" "$dump" | sort -u | sed "s/version='\(.*\)'/\1/")
for added in $(echo "$out" | grep '^ *\[A\]' | grep -o '@@*[A-Za-z0-9_.]*'); do
	node=${added##*@}
	if echo "$old_nodes" | grep -qx "$node"; then
		echo "abi-check: a symbol added to $node, which $old_soname's last release already had: add it in a new node" >&2
		bad=1
	fi
done
[ "$bad" -eq 0 ] || fail "the ABI changed without a new soname or version node (docs/releasing.md)"
echo "abi-check: $lib keeps the ABI of $dump; additions only in new version nodes"
