/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Kernel personalities: TEST_PERSONALITY=5.10 (say) makes this kernel
 * answer, for the pidfd calls and ioctls that 5.10 lacks, what 5.10
 * answers, through a seccomp filter the harness installs before any test
 * runs (every test, and every program a test starts, inherits it). So the
 * library's probes and paths for kernels that have no package here (5.3
 * to 6.0, 6.13, 6.14, 6.17) run on the host. What a filter cannot
 * imitate is listed in docs/testing.md ("What a kernel personality
 * cannot imitate").
 *
 * What each version answers, from the kernel's sources:
 *   pidfd_getfd 5.6, process_madvise 5.10, process_mrelease 5.15: ENOSYS;
 *   waitid(P_PIDFD) 5.4: EINVAL;
 *   pidfd_open flags: none before 5.10, PIDFD_NONBLOCK only before 6.9:
 *     EINVAL;
 *   pidfd_send_signal flags (6.9): EINVAL, judged before the fd;
 *   the PIDFD_SELF sentinels (6.15; -10001 6.17) in pidfd_send_signal,
 *     process_madvise and process_mrelease: EBADF, after the flags;
 *   process_madvise on a real pidfd, before 6.13: only the advice a
 *     remote process may get (COLD, PAGEOUT; WILLNEED 5.19, COLLAPSE 6.1);
 *   pidfd ioctls (type 0xFF): none before 6.11 (ENOTTY); 6.11 and 6.12
 *     have the namespace ones, which refuse any argument (EINVAL), and
 *     no PIDFD_GET_INFO (ENOTTY without an argument); 6.13 to 6.17 take
 *     PIDFD_GET_INFO of any size, and a struct below 64 bytes is EINVAL
 *     (6.18 checks the command first: ENOTTY);
 *   SO_PEERPIDFD and SO_PASSPIDFD 6.5: ENOPROTOOPT.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "harness.h"
#include "syscall.h" /* numbers musl 1.2.3 lacks (process_mrelease) */

#ifndef MADV_COLD
#define MADV_COLD 20
#define MADV_PAGEOUT 21
#endif
#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE 25
#endif

struct cond {
	int arg;        /* argument index */
	int hi;         /* its upper 32 bits, not its lower */
	uint32_t mask;  /* ANDed first (0: none) */
	uint32_t val;
	int ne;         /* holds when not equal */
	int lt;         /* holds when below val */
};

static struct sock_filter prog[512];
static unsigned short len;

static void emit(struct sock_filter f)
{
	if (len == sizeof(prog) / sizeof(prog[0])) {
		fprintf(stderr, "personality: filter too long\n");
		exit(2);
	}
	prog[len++] = f;
}

static unsigned cond_len(const struct cond *c)
{
	return c->mask ? 3 : 2;
}

/* If the system call is nr and every condition holds, return ret. */
static void rule(int nr, const struct cond *c, int nc, uint32_t ret)
{
	unsigned total = 2 + 1, end;

	for (int i = 0; i < nc; i++)
		total += cond_len(&c[i]);
	end = len + total;
	emit((struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
					  offsetof(struct seccomp_data, nr)));
	emit((struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
					  (uint32_t)nr, 0,
					  (uint8_t)(end - len - 1)));
	for (int i = 0; i < nc; i++) {
		uint8_t skip;

		emit((struct sock_filter)BPF_STMT(
			BPF_LD | BPF_W | BPF_ABS,
			offsetof(struct seccomp_data, args[c[i].arg]) +
				(c[i].hi ? 4 : 0)));
		if (c[i].mask)
			emit((struct sock_filter)BPF_STMT(BPF_ALU | BPF_AND | BPF_K,
							  c[i].mask));
		skip = (uint8_t)(end - len - 1);
		if (c[i].lt)
			emit((struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K,
							  c[i].val, skip, 0));
		else
			emit((struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
							  c[i].val, c[i].ne ? skip : 0,
							  c[i].ne ? 0 : skip));
	}
	emit((struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
					  SECCOMP_RET_ERRNO | (ret & SECCOMP_RET_DATA)));
}

#define RULE(nr, ret, ...)                                                    \
	do {                                                                  \
		const struct cond c_[] = { { .arg = -1 }, __VA_ARGS__ };      \
		rule(nr, c_ + 1, (int)(sizeof(c_) / sizeof(c_[0])) - 1, ret); \
	} while (0)
#define ARG_EQ(i, v) { .arg = (i), .val = (uint32_t)(v) }
#define ARG_NE(i, v) { .arg = (i), .val = (uint32_t)(v), .ne = 1 }
#define ARG_HI_EQ(i, v) { .arg = (i), .hi = 1, .val = (uint32_t)(v) }
#define ARG_AND_EQ(i, m, v) { .arg = (i), .mask = (m), .val = (uint32_t)(v) }
#define ARG_AND_NE(i, m, v) { .arg = (i), .mask = (m), .val = (uint32_t)(v), .ne = 1 }
#define ARG_AND_LT(i, m, v) { .arg = (i), .mask = (m), .val = (uint32_t)(v), .lt = 1 }

static const int sentinels[] = { -10000, -10001, -20000 };

static void sentinel_rules(int v)
{
	for (size_t i = 0; i < sizeof(sentinels) / sizeof(sentinels[0]); i++) {
		int s = sentinels[i];

		/* 6.17 dropped -20000; the host refuses it already. */
		if (v >= 615 && s != -10001)
			continue;
		RULE(__NR_pidfd_send_signal, EBADF, ARG_EQ(0, s),
		     ARG_AND_EQ(3, ~7u, 0));
		if (v >= 510)
			RULE(__NR_process_madvise, EBADF, ARG_EQ(0, s),
			     ARG_EQ(4, 0));
		if (v >= 515)
			RULE(__NR_process_mrelease, EBADF, ARG_EQ(0, s),
			     ARG_EQ(1, 0));
	}
}

/* process_madvise on a real pidfd (fd >= 0) with advice for oneself only. */
static void remote_advice_rule(int v)
{
	RULE(__NR_process_madvise, EINVAL, ARG_EQ(4, 0),
	     ARG_AND_EQ(0, 0x80000000u, 0), ARG_NE(3, MADV_COLD),
	     ARG_NE(3, MADV_PAGEOUT),
	     ARG_NE(3, v >= 519 ? MADV_WILLNEED : MADV_COLD),
	     ARG_NE(3, v >= 601 ? MADV_COLLAPSE : MADV_COLD));
}

static void ioctl_rules(int v)
{
	/* Negative descriptors are the kernel's: EBADF. */
	if (v < 611) {
		RULE(__NR_ioctl, ENOTTY, ARG_AND_EQ(0, 0x80000000u, 0),
		     ARG_AND_EQ(1, 0xff00, 0xff00));
		return;
	}
	if (v < 613) {
		RULE(__NR_ioctl, ENOTTY, ARG_AND_EQ(0, 0x80000000u, 0),
		     ARG_AND_EQ(1, 0xffff, 0xff0b), ARG_EQ(2, 0),
		     ARG_HI_EQ(2, 0));
		RULE(__NR_ioctl, EINVAL, ARG_AND_EQ(0, 0x80000000u, 0),
		     ARG_AND_EQ(1, 0xffff, 0xff0b));
		return;
	}
	/* Until 6.18 a struct below 64 bytes was pidfd_info()'s EINVAL. */
	if (v < 618)
		RULE(__NR_ioctl, EINVAL, ARG_AND_EQ(0, 0x80000000u, 0),
		     ARG_AND_EQ(1, 0xffff, 0xff0b),
		     ARG_AND_LT(1, 0x3fff0000u, 64u << 16));
}

static void build(int v)
{
	emit((struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
					  offsetof(struct seccomp_data, arch)));
	emit((struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
					  AUDIT_ARCH_X86_64, 1, 0));
	emit((struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
	if (v < 504)
		RULE(__NR_waitid, EINVAL, ARG_EQ(0, 3 /* P_PIDFD */));
	if (v < 506)
		RULE(__NR_pidfd_getfd, ENOSYS);
	if (v < 510)
		RULE(__NR_process_madvise, ENOSYS);
	if (v < 515)
		RULE(__NR_process_mrelease, ENOSYS);
	if (v < 510)
		RULE(__NR_pidfd_open, EINVAL, ARG_NE(1, 0));
	else if (v < 609)
		RULE(__NR_pidfd_open, EINVAL, ARG_AND_NE(1, ~(uint32_t)O_NONBLOCK, 0));
	if (v < 609)
		RULE(__NR_pidfd_send_signal, EINVAL, ARG_NE(3, 0));
	if (v < 617)
		sentinel_rules(v);
	if (v >= 510 && v < 613)
		remote_advice_rule(v);
	ioctl_rules(v);
	if (v < 605) {
		RULE(__NR_getsockopt, ENOPROTOOPT, ARG_EQ(1, SOL_SOCKET),
		     ARG_EQ(2, 77 /* SO_PEERPIDFD */));
		RULE(__NR_setsockopt, ENOPROTOOPT, ARG_EQ(1, SOL_SOCKET),
		     ARG_EQ(2, 76 /* SO_PASSPIDFD */));
	}
	emit((struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
}

static int parse_version(const char *s)
{
	int major = 0, minor = -1;

	if (sscanf(s, "%d.%d", &major, &minor) != 2 || minor < 0 || minor > 99)
		return -1;
	return major * 100 + minor;
}

void personality_install(void)
{
	const char *e = getenv("TEST_PERSONALITY");
	struct sock_fprog fprog;
	int v;

	if (!e || !*e)
		return;
#ifndef __x86_64__
	fprintf(stderr, "personality: x86_64 only\n");
	exit(2);
#endif
	v = parse_version(e);
	if (v < 503 || v > 618 || v == 615 || v == 616) {
		/*
		 * 6.15 and 6.16 take -20000 for the thread group, which this
		 * kernel refuses: no filter can make it accept a value.
		 */
		fprintf(stderr, "personality: TEST_PERSONALITY=%s: 5.3 to 6.18, "
			"not 6.15 or 6.16\n", e);
		exit(2);
	}
	build(v);
	fprog.len = len;
	fprog.filter = prog;
	/* Root needs no no_new_privs, which would change what exec does. */
	if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &fprog) &&
	    (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	     syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &fprog))) {
		perror("personality: seccomp");
		exit(2);
	}
}
