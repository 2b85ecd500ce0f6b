/* SPDX-License-Identifier: LGPL-2.1-or-later OR MIT */
/*
 * Run an old user-mode-linux kernel (bullseye's 5.10) on a host whose CPU
 * has AVX-512 or AMX:
 *   uml-noxstate LINUX_UML [ARG...]
 * Such a kernel saves and restores its processes' registers with
 * PTRACE_GETREGSET/SETREGSET NT_X86_XSTATE in a buffer of the size of
 * 2021's XSAVE area; a newer host kernel takes only the whole area of its
 * CPU and answers EFAULT, and the guest's init dies at once ("ptrace set
 * fp regs failed, errno = 14"). UML uses the XSAVE regset only where
 * PTRACE_GETREGSET of it works when it boots: this refuses it (EIO) by a
 * seccomp filter and execs the kernel, which then keeps to the FXSAVE
 * area (x87 and SSE). That area is all the guest's programs may use:
 * tests/uml-kernel.sh boots it with glibc's AVX code paths turned off.
 */
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#define NT_X86_XSTATE 0x202
#define PTRACE_GETREGSET_ 0x4204
#define PTRACE_SETREGSET_ 0x4205

#define LOAD(field) BPF_STMT(BPF_LD | BPF_W | BPF_ABS, \
			     offsetof(struct seccomp_data, field))

int main(int argc, char **argv)
{
	struct sock_filter f[] = {
		LOAD(nr),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_ptrace, 0, 6),
		LOAD(args[2]),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, NT_X86_XSTATE, 0, 4),
		LOAD(args[0]),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, PTRACE_GETREGSET_, 1, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, PTRACE_SETREGSET_, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EIO),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { sizeof(f) / sizeof(f[0]), f };

	if (argc < 2) {
		fprintf(stderr, "usage: uml-noxstate LINUX_UML [ARG...]\n");
		return 2;
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0) {
		perror("uml-noxstate: seccomp");
		return 2;
	}
	execv(argv[1], argv + 1);
	perror(argv[1]);
	return 2;
}
