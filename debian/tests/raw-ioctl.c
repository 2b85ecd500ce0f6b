/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A program written against the kernel alone (no libpidfd header or
 * library) on a kernel made to lack PIDFD_GET_INFO: its ioctl fails with
 * ENOTTY, unless the installed libpidfd-compat.so is preloaded, which
 * answers it.
 *   raw-ioctl bare    expects ENOTTY
 *   raw-ioctl shim    expects its own pid
 */
#include <linux/types.h>
#include <stdio.h>
#include <string.h>

#include "seccomp-ioctl.h"

struct info_v0 { /* the first published layout, 64 bytes */
	__u64 mask, cgroupid;
	__u32 pid, tgid, ppid, ruid, rgid, euid, egid, suid, sgid, fsuid, fsgid;
	__s32 exit_code;
};
#define GET_INFO _IOWR(0xFF, 11, struct info_v0)

int main(int argc, char **argv)
{
	struct info_v0 info = { .mask = 1 /* PIDFD_INFO_PID */ };
	int shim = argc > 1 && strcmp(argv[1], "shim") == 0;
	int fd = (int)syscall(SYS_pidfd_open, getpid(), 0), r;

	if (fd < 0 || refuse_get_info() != 0) {
		perror("pidfd_open or seccomp");
		return 1;
	}
	r = ioctl(fd, GET_INFO, &info);
	if (shim ? r != 0 || info.pid != (__u32)getpid() : r != -1 || errno != ENOTTY) {
		printf("%s: ioctl gave %d (%s), pid %u\n", argv[1], r,
		       r ? strerror(errno) : "ok", info.pid);
		return 1;
	}
	printf("%s: %s\n", argv[1], shim ? "answered by the shim" : "ENOTTY");
	return 0;
}
