#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# The checkout's directory must not matter to tests/vm.sh's x86_64
# guests: a tree under /tmp, which the guest's init covers with a tmpfs,
# in a directory whose name has a space, is the guest's working
# directory, its files there. A copy of what the guest needs
# (tests/vm.sh, tests/uml.sh and the scripts they run) is booted from
# there, once for each GUEST: a tests/vm.sh guest (make check: each
# x86_64 one whose kernel is cached) or uml (tests/uml.sh's default
# kernel, the system's, whose hostfs mounts the tree again).
#   tests/vm-tree.sh GUEST...
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
# The copy finds the kernels where this tree's tests/vm-kernel.sh does.
export DEBS_DIR="${DEBS_DIR:-$here/build/debs}"
n=0 passed=0 failed=0
copy=$(mktemp -d "/tmp/libpidfd vm-tree.XXXXXX")
trap 'rm -rf "$copy"' EXIT INT TERM
tree="$copy/tree"
mkdir -p "$tree/tests"
cp "$here/tests/vm.sh" "$here/tests/vm-kernel.sh" "$here/tests/guest-init.sh" \
	"$here/tests/uml.sh" "$here/tests/uml-kernel.sh" "$tree/tests/"
echo "file of the tree" > "$tree/marker"

for guest in "$@"; do
	n=$((n + 1))
	boot="env VM=$guest VM_TIMEOUT=300 tests/vm.sh"
	[ "$guest" = uml ] && boot="env UML_TIMEOUT=300 tests/uml.sh"
	# shellcheck disable=SC2016 # the guest's shell expands it
	out=$(cd "$tree" && $boot sh -c 'echo "pwd=$(pwd)"; cat marker' 2>&1)
	r=$?
	if [ "$r" -eq 0 ] && echo "$out" | grep -qx "pwd=$tree" &&
		echo "$out" | grep -qx "file of the tree"; then
		passed=$((passed + 1))
		echo "ok $n - $guest: the tree under /tmp, at a path with a space"
	else
		failed=$((failed + 1))
		echo "$out" | tail -n 20 | sed 's/^/#   /'
		echo "not ok $n - $guest: the tree under /tmp, at a path with a space"
	fi
done
echo "# vm-tree: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
