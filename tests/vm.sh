#!/bin/sh
# Run a command inside a real Linux kernel under qemu-system, emulated
# with TCG (never KVM: nested virtualisation is not to be counted on), with
# two CPUs: tests/uml.sh's guest, but SMP, with the kernel's full
# configuration (kcmp, ns_last_pid), and on arm64 too. VM names the guest
# (tests/vm-kernel.sh: trixie-backports, bullseye, trixie-arm64,
# trixie-backports-arm64).
#   VM=GUEST tests/vm.sh COMMAND [ARG...]
# An x86_64 guest has the host's system directories (/usr, /etc, /var,
# ...) and this tree, read-only over virtio-9p (the generic kernel's 9p
# modules, loaded from a small initramfs of busybox), as UML has the host's
# root over hostfs: every file and tool of the host is there. An
# arm64 guest runs from an initramfs: busybox, /etc/passwd and /etc/group,
# the C.UTF-8 locale, and of this tree VM_FILES (default: tests build/aarch64), at /libpidfd.
# Then tests/guest-init.sh's init runs the command, from the tree, and the
# guest powers off; our exit status is the command's. VM_TIMEOUT (seconds,
# default 1200) ends a guest that hangs.
set -u
here=$(cd "$(dirname "$0")" && pwd)
guest=${VM:?VM=GUEST tests/vm.sh COMMAND...}
k=$("$here/vm-kernel.sh" "$guest") || exit 2
field() { echo "$k" | cut -f"$1"; }
arch=$(field 2) kernel=$(field 4) mods=$(field 5) busybox=$(field 6)
qemu="qemu-system-x86_64"
[ "$arch" = arm64 ] && qemu="qemu-system-aarch64"
for tool in "$qemu" cpio; do
	command -v "$tool" > /dev/null || {
		echo "# vm: $tool missing: apt-get install qemu-system-x86 qemu-system-arm cpio" >&2
		exit 2
	}
done

dir=$(mktemp -d "${TMPDIR:-/tmp}/libpidfd-vm.XXXXXX")
trap 'rm -rf "$dir"' EXIT INT TERM
ramfs=$dir/initramfs
mkdir -p "$ramfs/bin" "$ramfs/dev" "$ramfs/proc" "$ramfs/sys" "$ramfs/tmp" \
	"$ramfs/root" "$ramfs/mods" "$ramfs/etc"
cp "$busybox" "$ramfs/bin/busybox"
# shellcheck source=tests/guest-init.sh
. "$here/guest-init.sh"

# A module's file under MODULES (virtio_pci may be virtio-pci.ko.xz), or
# nothing where it is built in.
mod_file() {
	find "$mods/kernel" -name "$(echo "$1" | sed 's/[-_]/[-_]/g').ko*" |
		head -n 1
}
mod_text() {
	case "$1" in
	*.xz) xz -dc "$1" ;;
	*.zst) zstd -qdc "$1" ;;
	*.gz) gzip -dc "$1" ;;
	*) cat "$1" ;;
	esac
}
# Copy a module, after those it depends on (its .modinfo's depends=), into
# the initramfs, uncompressed, numbered in the order to load them.
loaded=
add_module() {
	case " $loaded " in *" $1 "*) return ;; esac
	loaded="$loaded $1"
	[ -n "$(mod_file "$1")" ] || return 0
	# (sh has no locals: the file is looked up again after the recursion)
	for d in $(mod_text "$(mod_file "$1")" | tr '\0' '\n' |
		sed -n 's/^depends=//p' | tr ',' ' '); do
		add_module "$d"
	done
	n=$(ls "$ramfs/mods" | wc -l)
	mod_text "$(mod_file "$1")" > "$ramfs/mods/$(printf %02d "$n")-$1.ko"
}

if [ "$arch" = x86_64 ]; then
	for m in virtio_pci 9pnet_virtio 9p; do
		add_module "$m"
	done
	# The guest's root is a tmpfs that holds the host's system
	# directories (bound from the host's root over 9p) and this tree at
	# its path, and empty /proc, /sys, /dev, /tmp and /run: 9p passes the
	# host's statfs on, and a test that unmounts every /proc must find no
	# procfs under it. A tag mounts once: a tree under /tmp, which the
	# guest's init hides under a tmpfs, is mounted at /.tree, and bound
	# at its path after.
	tree_at=$(vm_tree_mount "$(pwd)")
	guest_init "$ramfs/init.sh" "$(pwd)" "mount --bind /.tree" "$@"
	cat > "$ramfs/init" <<-INIT
	#!/bin/busybox sh
	b=/bin/busybox
	\$b mount -t proc proc /proc
	for m in /mods/*.ko; do
		[ -e "\$m" ] && { \$b insmod "\$m" || echo "# vm: insmod \$m failed"; }
	done
	\$b mkdir -p /host /new
	o=trans=virtio,version=9p2000.L,cache=loose,msize=512000
	\$b mount -r -t 9p -o \$o hostroot /host ||
		echo "# vm: the host's root did not mount"
	\$b mount -t tmpfs -o mode=755 root /new
	for e in \$(\$b ls -A /host); do
		if [ -L "/host/\$e" ]; then
			\$b ln -s "\$(\$b readlink "/host/\$e")" "/new/\$e"
			continue
		fi
		case "\$e" in
		usr|etc|var|opt|home|root|srv|mnt|media|boot)
			\$b mkdir "/new/\$e"
			\$b mount --bind "/host/\$e" "/new/\$e" ;;
		esac
	done
	\$b mkdir -p /new/proc /new/sys /new/dev /new/tmp /new/run
	[ -d '/new$(pwd)' ] || { \$b mkdir -p '/new$tree_at' &&
		\$b mount -r -t 9p -o \$o tree '/new$tree_at'; }
	\$b cp /init.sh /new/init
	\$b mount -o remount,ro /new
	\$b mount -t devtmpfs devtmpfs /new/dev
	\$b mkdir -p /new/dev/pts /new/dev/shm
	\$b mount -t devpts devpts /new/dev/pts
	\$b umount /proc
	exec \$b switch_root /new /bin/sh /init
	INIT
	fs="local,security_model=none,readonly=on,multidevs=remap"
	set -- -M pc -cpu max -device "virtio-9p-pci,fsdev=hostroot,mount_tag=hostroot" \
		-fsdev "$fs,id=hostroot,path=/" \
		-device "virtio-9p-pci,fsdev=tree,mount_tag=tree" \
		-fsdev "$fs,id=tree,path=$(pwd)"
	console=ttyS0
else
	tree=/libpidfd
	for f in ${VM_FILES:-tests build/aarch64}; do
		mkdir -p "$ramfs$tree/$(dirname "$f")"
		cp -a "$f" "$ramfs$tree/$f"
	done
	cp /etc/passwd /etc/group "$ramfs/etc/"
	# C.UTF-8 for the tool's tests of display widths (the files are the
	# same for every little-endian 64-bit glibc).
	mkdir -p "$ramfs/usr/lib/locale"
	cp -a /usr/lib/locale/C.utf8 "$ramfs/usr/lib/locale/"
	guest_init "$ramfs/init.sh" "$tree" "" "$@"
	cat > "$ramfs/init" <<-INIT
	#!/bin/busybox sh
	/bin/busybox --install -s /bin
	mkdir -p /usr/bin /usr/sbin /sbin /dev/shm
	mount -t devtmpfs devtmpfs /dev
	exec /bin/sh /init.sh
	INIT
	# pauth-impdef: TCG's pointer authentication, without QARMA's cost.
	set -- -M virt -cpu max,pauth-impdef=on
	console=ttyAMA0
fi
chmod 755 "$ramfs/init"
(cd "$ramfs" && find . | cpio -o -H newc --quiet) > "$dir/initramfs.cpio"

out=$dir/console
# The console is our stdout; kernel messages are kept quiet. A guest that
# panics (its init died) reboots, and -no-reboot ends qemu then.
boot() {
	timeout "${VM_TIMEOUT:-1200}" "$qemu" "$@" \
		-accel tcg,thread=multi -smp 2 -m 2048 -nodefaults -no-reboot \
		-display none -monitor none -serial stdio \
		-kernel "$kernel" -initrd "$dir/initramfs.cpio" \
		-append "console=$console quiet panic=-1 rdinit=/init" \
		< /dev/null 2>&1 | tr -d '\r' > "$out"
}

# A guest that dies before its command starts ran nothing of ours: under
# TCG the 7.3 kernel has been seen to oops (int3) while it patches its own
# text at boot. Such a guest is booted again, up to three times in all;
# one that dies after "# uname:" (guest-init.sh) is the command's result.
for attempt in 1 2 3; do
	boot "$@"
	grep -q '^# uname: ' "$out" && break
	[ "$attempt" = 3 ] && break
	echo "# vm: the guest died before its command (boot $attempt of 3):"
	grep -m 3 -E 'Oops|panic|BUG|RIP' "$out" | sed 's/^/#   /'
done
guest_status "$out"
