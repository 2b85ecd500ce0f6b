/* SPDX-License-Identifier: LGPL-2.1-or-later OR MIT */
/*
 * The caller's memory, judged the way the kernel's copy_from_user() and
 * copy_to_user() judge it, so that a bad pointer gets EFAULT where the
 * library itself reads or writes it, never a crash. No signal handler (that
 * would be a side effect on the caller) and no other process: the futex
 * call does the looking, one call per page, and every seccomp profile in
 * use lets futex through.
 *
 *   readable: FUTEX_WAIT for a value, with a timeout of zero. The kernel
 *             reads the word (EFAULT if it cannot), then either finds
 *             another value (EAGAIN) or times out at once (ETIMEDOUT).
 *   writable: FUTEX_WAKE_OP that ORs 0 into the word and wakes nobody. The
 *             kernel writes the word back atomically, unchanged (EFAULT if
 *             it cannot write).
 *
 * Protection is per page, so one word of each page the range touches
 * tells for the whole page; the word is the range's own first or the
 * page's, 4-aligned as futex wants.
 */
#include <linux/futex.h>
#include <time.h>

#include "internal.h"
#include "syscall.h"

#define PAGE_MIN 4096UL /* the smallest page any architecture has */

static long futex_peek(void *word)
{
	struct timespec zero = { 0, 0 };

	return lpfd_sc(__NR_futex, word, FUTEX_WAIT_PRIVATE, 0x5a5a5a5a, &zero,
		       0, 0);
}

static long futex_poke(void *word)
{
	return lpfd_sc(__NR_futex, word, FUTEX_WAKE_OP_PRIVATE, 0, 0, word,
		       FUTEX_OP(FUTEX_OP_OR, 0, FUTEX_OP_CMP_EQ, 0));
}

/* Call check on a word of every page of [p, p + n): 0 or -EFAULT. */
static int each_page(const void *p, size_t n, long (*check)(void *))
{
	uintptr_t a = (uintptr_t)p, end;

	if (!n)
		return 0;
	if (a + n < a)
		return -EFAULT; /* wraps around: no such memory */
	end = a + n;
	while (a < end) {
		if (check((void *)(a & ~(uintptr_t)3)) == -EFAULT)
			return -EFAULT;
		a = (a | (PAGE_MIN - 1)) + 1;
	}
	return 0;
}

int lpfd_user_readable(const void *p, size_t n)
{
	return each_page(p, n, futex_peek);
}

int lpfd_user_writable(void *p, size_t n)
{
	return each_page(p, n, futex_poke);
}

/*
 * The cheapest look, for the native get_info's request word: rt_sigprocmask
 * with an invalid "how" copies the 8 bytes in (EFAULT if it cannot), then
 * refuses the "how" (EINVAL) and changes nothing. It costs what any system
 * call costs, a third of a futex look (make bench). qemu-user judges "how"
 * first and so cannot tell: only the native path uses it, which qemu-user
 * never takes, since it does not know PIDFD_GET_INFO.
 */
int lpfd_user_readable_u64(const void *p)
{
	long r = lpfd_sc(__NR_rt_sigprocmask, -1, p, NULL, sizeof(uint64_t), 0,
			 0);

	return r == -EFAULT ? -EFAULT : 0;
}
