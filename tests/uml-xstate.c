/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Run an older user-mode-linux kernel (bullseye's 5.10, bookworm's 6.1,
 * trixie's 6.12) on a host whose CPU has AVX-512 or AMX, preloaded into
 * the kernel's own host process (LD_PRELOAD; tests/uml-kernel.sh):
 *
 * Such a kernel saves and restores its processes' registers with
 * PTRACE_GETREGSET/SETREGSET NT_X86_XSTATE in a buffer of a fixed size
 * (the x87/SSE area, the XSAVE header and AVX: 832 bytes). The host takes
 * a SETREGSET only of its CPU's whole XSAVE area and answers EFAULT to
 * any other size, and the guest's init dies at once ("ptrace set fp regs
 * failed, errno = 14"). Here a short SETREGSET becomes a whole one: the
 * host thread's current area, with the part the kernel gave laid over it,
 * and in the header's XSTATE_BV the kernel's bits for the components it
 * gave and the host's for the rest. Those rest (AVX-512, AMX) are then not
 * switched between the guest's threads, so the guest's glibc is told not
 * to use them (GLIBC_TUNABLES). Refusing the regset instead, so that the
 * kernel keeps to PTRACE_SETFPREGS, corrupts the guest's SSE registers
 * ("%s: error writing" from a printf): these kernels need the XSAVE path.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/types.h>
#include <sys/uio.h>

#define NT_X86_XSTATE 0x202
#define XSAVE_HEADER 512 /* XSTATE_BV, then XCOMP_BV (0: standard format) */
#define XSAVE_AVX 576    /* the AVX state, 256 bytes, in standard format */
#define XFEATURE_FP_SSE 0x3ULL
#define XFEATURE_AVX 0x4ULL

typedef long (*ptrace_fn)(int, pid_t, void *, void *);

/* The host's whole area: AMX's tiles make it about 11 KiB. */
static unsigned char whole[64 * 1024] __attribute__((aligned(64)));

static long set_whole_xstate(ptrace_fn real, pid_t pid, void *addr,
			     const struct iovec *given)
{
	struct iovec all = { whole, sizeof(whole) };
	uint64_t given_bv, host_bv, mine = XFEATURE_FP_SSE;

	if (real(PTRACE_GETREGSET, pid, addr, &all) != 0 ||
	    all.iov_len <= given->iov_len)
		return -1;
	if (given->iov_len >= XSAVE_AVX + 256)
		mine |= XFEATURE_AVX;
	memcpy(&host_bv, whole + XSAVE_HEADER, sizeof(host_bv));
	memcpy(whole, given->iov_base, given->iov_len);
	memcpy(&given_bv, whole + XSAVE_HEADER, sizeof(given_bv));
	given_bv = (given_bv & mine) | (host_bv & ~mine);
	memcpy(whole + XSAVE_HEADER, &given_bv, sizeof(given_bv));
	memset(whole + XSAVE_HEADER + 8, 0, 8);
	return real(PTRACE_SETREGSET, pid, addr, &all);
}

long ptrace(enum __ptrace_request req, ...)
{
	static ptrace_fn real;
	const struct iovec *iov;
	void *addr, *data;
	va_list ap;
	pid_t pid;
	long r;

	va_start(ap, req);
	pid = va_arg(ap, pid_t);
	addr = va_arg(ap, void *);
	data = va_arg(ap, void *);
	va_end(ap);
	if (!real)
		real = (ptrace_fn)dlsym(RTLD_NEXT, "ptrace");
	r = real((int)req, pid, addr, data);
	iov = data;
	if (r == 0 || req != PTRACE_SETREGSET ||
	    (unsigned long)addr != NT_X86_XSTATE || iov->iov_len < XSAVE_AVX)
		return r;
	return set_whole_xstate(real, pid, addr, iov);
}
