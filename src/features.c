/* SPDX-License-Identifier: LGPL-2.1-or-later OR MIT */
/*
 * libpidfd_features(): what the library does on this kernel, per call, from
 * the probe table.
 */
#include <stddef.h>
#include <string.h>

#include "internal.h"
#include "syscall.h"

static uint64_t kernel_mask(void)
{
	uint64_t m = 0;

	for (int i = 0; i < LPFD_FEAT_COUNT; i++)
		if (lpfd_surely_has((enum lpfd_feature)i))
			m |= 1ULL << i;
	return m;
}

/*
 * Each operation: the kernel feature that makes it native, and what it is
 * without that feature.
 */
static const struct op {
	size_t offset;
	enum lpfd_feature feat;
	uint32_t without;
} ops[] = {
#define OP(field, feat, without, how)                                          \
	{ offsetof(struct libpidfd_features, field), LPFD_FEAT_##feat,          \
	  LIBPIDFD_##without },
	LPFD_OPERATIONS(OP)
#undef OP
};

/*
 * The public struct and the list agree: each operation of the list is a
 * __u32 field of the struct (a misspelt or missing one does not compile),
 * and the struct has no field beyond them but the three that are no
 * operation (emulate_forced, info_mask, kernel), wherever a new one was
 * appended.
 */
#define OP_IS_U32(field, feat, without, how)                                   \
	_Static_assert(sizeof(((struct libpidfd_features *)0)->field) == 4,     \
		       #field ": not a __u32 of struct libpidfd_features");
LPFD_OPERATIONS(OP_IS_U32)
#undef OP_IS_U32
#define NOT_OPERATIONS (sizeof(__u32) + 2 * sizeof(__u64))
_Static_assert(sizeof(struct libpidfd_features) ==
		       ((lpfd_array_size(ops) * 4 + NOT_OPERATIONS + 7) & ~7ul),
	       "struct libpidfd_features has a field LPFD_OPERATIONS lacks");

static void fill(struct libpidfd_features *f)
{
	for (size_t i = 0; i < lpfd_array_size(ops); i++) {
		uint32_t v = lpfd_surely_native(ops[i].feat) ? LIBPIDFD_NATIVE :
							   ops[i].without;

		memcpy((char *)f + ops[i].offset, &v, sizeof(v));
	}
	f->emulate_forced = lpfd_emulate_forced();
	f->info_mask = lpfd_info_supported_mask();
	f->kernel = kernel_mask();
}

/*
 * Every probe, run now if it has not: one that could not run this time
 * (EMFILE, say) gives its error rather than a feature shown as absent.
 */
static int probe_all(void)
{
	for (int i = 0; i < LPFD_FEAT_COUNT; i++) {
		int r = lpfd_kernel_has((enum lpfd_feature)i);

		if (r < 0)
			return r;
	}
	return 0;
}

/* Written once, when the answer is whole: a failing call writes nothing. */
static int do_features(struct libpidfd_features *out, size_t size)
{
	struct libpidfd_features f;
	pid_t tid;
	int r;

	if (!out)
		return -EFAULT;
	r = probe_all();
	if (r < 0)
		return r;
	memset(&f, 0, sizeof(f));
	fill(&f);
	tid = lpfd_sys_gettid();
	if (tid < 0)
		return tid;
	return lpfd_user_write(tid, out, size, &f, sizeof(f));
}

LIBPIDFD_API int libpidfd_features(struct libpidfd_features *out, size_t size)
{
	int saved = errno;

	return (int)lpfd_return(saved, do_features(out, size));
}
