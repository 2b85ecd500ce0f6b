# shellcheck shell=sh
# Sourced by tests/uml.sh and tests/vm.sh: the init of a guest kernel that
# lives for one command. It mounts /proc, a tmpfs on /tmp, sysfs and
# cgroup2, runs the command from the tree, prints its exit status on the
# console (GUEST-EXIT-STATUS=N) and powers off.
#   guest_init FILE TREE REMOUNT COMMAND [ARG...]
# TREE is the tree's path inside the guest. REMOUNT, if the tree is under
# /tmp (hidden by that tmpfs), is the guest's command that mounts it there
# again, given the path last.
guest_init() {
	file=$1 tree=$2 remount=$3
	shift 3
	{
		echo '#!/bin/sh'
		echo 'export PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/tmp TMPDIR=/tmp'
		# The guest lives for this one command: a test may change what
		# is the whole machine's (core_pattern), as it may not on the host.
		echo 'export TEST_OWNS_MACHINE=1'
		echo 'mount -t proc proc /proc'
		echo 'mount -t tmpfs tmpfs /tmp'
		echo 'mount -t sysfs sysfs /sys'
		echo 'mount -t cgroup2 cgroup2 /sys/fs/cgroup 2>/dev/null'
		echo 'mount -t tmpfs tmpfs /dev/shm 2>/dev/null'
		case "$tree/" in
		/tmp/*)
			printf 'mkdir -p %s && %s %s\n' "'$tree'" "$remount" "'$tree'" ;;
		esac
		printf 'cd %s || { echo o > /proc/sysrq-trigger; }\n' "'$tree'"
		printf 'echo "# uname: $(uname -r)"\n'
		for a in "$@"; do printf "'%s' " "$a"; done
		echo
		echo 'echo "GUEST-EXIT-STATUS=$?"'
		# poweroff comes with systemd-sysv; the kernel's own switch
		# needs nothing.
		echo 'poweroff -f 2>/dev/null; echo o > /proc/sysrq-trigger'
	} > "$file"
	chmod 755 "$file"
}

# vm_tree_mount TREE: where tests/vm.sh's x86_64 guest mounts the tree's
# 9p tag, TREE itself or, under /tmp (which guest_init hides under a
# tmpfs, and a tag mounts only once), /.tree, bound at TREE after.
vm_tree_mount() {
	case "$1/" in
	/tmp/*) echo /.tree ;;
	*) echo "$1" ;;
	esac
}

# guest_status CONSOLE: the console without the status line, then the
# command's exit status as ours (2 if the guest said none).
guest_status() {
	grep -v -e '^GUEST-EXIT-STATUS=' "$1"
	status=$(sed -n 's/^GUEST-EXIT-STATUS=//p' "$1" | tail -n 1)
	if [ -z "$status" ]; then
		echo "# the guest kernel did not report an exit status"
		tail -n 20 "$1" | grep -v '^# ' | sed 's/^/#   /'
		return 2
	fi
	return "$status"
}
