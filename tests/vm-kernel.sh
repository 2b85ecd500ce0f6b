#!/bin/sh
# Which real kernel a qemu-system guest boots, as .ci/fetch-debs cached it:
#   tests/vm-kernel.sh GUEST
# prints "LABEL ARCH VERSION KERNEL MODULES BUSYBOX", separated by tabs
# (paths may have spaces; cut -f N takes one): (qemu-x86_64-7.3
# x86_64 7.3.4-1~bpo13+1 .../vmlinuz .../lib/modules/7.3.4+deb13-amd64
# /bin/busybox), "-" for what a guest does not use. GUEST
# is a Debian suite, with -arm64 for that architecture's kernel:
#   trixie-backports          x86_64, the generic kernel and its modules
#                             (9p: the host's root is the guest's)
#   bullseye                  x86_64, the generic 5.10 (image and modules)
#   trixie-arm64              arm64, the cloud kernel (an initramfs holds
#   trixie-backports-arm64    all the guest needs)
# Nothing is ever downloaded here. Exit status 2, with the reason and the
# fetch command on stderr, if the guest's kernel is not cached.
set -u
guest=${1:?usage: tests/vm-kernel.sh GUEST}
root=$(cd "$(dirname "$0")/.." && pwd)
debs=${DEBS_DIR:-$root/build/debs}/$guest

missing() {
	echo "# vm-kernel: $guest's kernel is not cached: $*" >&2
	exit 2
}

# The one file or directory a glob names, or nothing.
one() {
	for f in "$@"; do [ -e "$f" ] && echo "$f"; done | head -n 1
}

case "$guest" in
*-arm64)
	arch=arm64 debarch=arm64
	suite=${guest%-arm64}
	meta=linux-image-cloud-arm64 ;;
*)
	arch=x86_64 debarch=amd64
	suite=$guest
	meta=linux-image-amd64 ;;
esac
# A suite's kernel is the linux-image package (bullseye to trixie) or,
# since the packaging split, linux-binary with linux-modules beside it.
if [ -d "$debs/linux-binary" ]; then
	pkg=linux-binary
	kernel=$(one "$debs"/linux-binary/usr/lib/modules/*/vmlinuz)
	mods=$(one "$debs"/linux-modules/usr/lib/modules/*)
	fetch="ARCH=$debarch .ci/fetch-debs $suite linux-binary=$meta"
	[ "$arch" = x86_64 ] && fetch="$fetch linux-modules=$meta"
else
	pkg=linux-image
	kernel=$(one "$debs"/linux-image/boot/vmlinuz-*)
	mods=$(one "$debs"/linux-image/lib/modules/* "$debs"/linux-image/usr/lib/modules/*)
	fetch="ARCH=$debarch .ci/fetch-debs $suite linux-image=$meta"
fi
ver=$(cat "$debs/$pkg.version" 2>/dev/null)
[ -n "$kernel" ] && [ -n "$ver" ] || missing "$fetch"
# The x86_64 guests mount the host's root over virtio-9p: modules needed.
[ "$arch" = arm64 ] || [ -n "$mods" ] || missing "$fetch"
# The guest's init is busybox: the system's (busybox-static, from
# .ci/packages), or for arm64 trixie's.
busybox=/bin/busybox
if [ "$arch" = arm64 ]; then
	mods=
	bb=${DEBS_DIR:-$root/build/debs}/trixie-arm64/busybox-static
	busybox=$(one "$bb/bin/busybox" "$bb/usr/bin/busybox")
	[ -n "$busybox" ] ||
		missing "ARCH=arm64 .ci/fetch-debs trixie busybox-static"
fi
[ -x "$busybox" ] || missing "apt-get install busybox-static"
# 7.3.4-1~bpo13+1 -> 7.3, 5.10.223-1 -> 5.10
label=qemu-$arch-$(echo "$ver" | cut -d. -f1,2)
printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$label" "$arch" "$ver" "$kernel" \
	"${mods:--}" "$busybox"
