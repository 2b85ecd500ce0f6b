/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A user's program, built against the installed libpidfd-dev with
 * pkg-config alone: who am I, through my pidfd.
 *   use-library            from the kernel
 *   use-library emulated   on a kernel made to lack PIDFD_GET_INFO, before
 *                          the library's first call: from its emulation
 */
#include <libpidfd.h>
#include <stdio.h>
#include <string.h>

#include "seccomp-ioctl.h"

static int ask(const char *how)
{
	struct pidfd_info info;
	int fd = libpidfd_open(getpid(), 0);

	memset(&info, 0, sizeof(info));
	info.mask = PIDFD_INFO_PID | PIDFD_INFO_CREDS;
	if (fd < 0 || libpidfd_get_info(fd, &info, sizeof(info)) != 0) {
		printf("%s: %s\n", how, strerror(errno));
		return 1;
	}
	close(fd);
	if (info.pid != (__u32)getpid() || info.ruid != (__u32)getuid() ||
	    libpidfd_getpid(PIDFD_SELF_PROCESS) != getpid()) {
		printf("%s: pid %u uid %u, not %d and %u\n", how, info.pid,
		       info.ruid, (int)getpid(), (unsigned)getuid());
		return 1;
	}
	printf("%s: pid %u uid %u\n", how, info.pid, info.ruid);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return ask("kernel");
	if (refuse_get_info() != 0) {
		perror("seccomp");
		return 1;
	}
	return ask(argv[1]);
}
