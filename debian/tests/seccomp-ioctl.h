/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A kernel without PIDFD_GET_INFO (before 6.13), made of this one: a
 * seccomp filter answers ENOTTY to ioctl(fd, PIDFD_GET_INFO of any size,
 * ...), as such a kernel does.
 */
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define ARG1_LOW (offsetof(struct seccomp_data, args[1]) + 4)
#else
#define ARG1_LOW offsetof(struct seccomp_data, args[1])
#endif
/* PIDFD_GET_INFO without its size: _IOWR(0xFF, 11, ...). */
#define GET_INFO_ANY_SIZE (_IOC(_IOC_READ | _IOC_WRITE, 0xFF, 11, 0))
#define CMD_WITHOUT_SIZE (~(_IOC_SIZEMASK << _IOC_SIZESHIFT))

static int refuse_get_info(void)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_ioctl, 0, 4),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG1_LOW),
		BPF_STMT(BPF_ALU | BPF_AND | BPF_K, CMD_WITHOUT_SIZE),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, GET_INFO_ANY_SIZE, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOTTY),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { sizeof(f) / sizeof(f[0]), f };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
		return -1;
	return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog);
}
