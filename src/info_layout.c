/* SPDX-License-Identifier: LGPL-2.1-or-later OR MIT */
/*
 * struct pidfd_info's layouts: the newest, which callers see on every
 * kernel, checked against the one list of its fields; the older kernels'
 * answers brought to it; and what get_info can answer on this kernel.
 */
#include <string.h>

#include "internal.h"

#define OFF_SUPPORTED_V2 72 /* where 6.19 and 7.0 put supported_mask */

static const struct {
	uint64_t bit;
	enum lpfd_feature feat;
	bool emulated;
} info_bits[] = {
#define INFO_BIT(NAME, feat, emulated, last)                                   \
	{ PIDFD_INFO_##NAME, LPFD_FEAT_##feat, emulated },
	LPFD_INFO_BITS(INFO_BIT)
#undef INFO_BIT
};

/*
 * The list and the header agree: each field of LPFD_INFO_FIELDS is where
 * the list says, within the first layout it names, and the fields fill the
 * struct, so that a field added to the struct does not compile without
 * its line.
 */
#define INFO_FIELD_SIZE(field) sizeof(((struct libpidfd_info *)0)->field)
#define INFO_FIELD_AT(field, offset, since, bit, column)                       \
	_Static_assert(offsetof(struct libpidfd_info, field) == (offset) &&       \
		       (offset) + INFO_FIELD_SIZE(field) <= (since) &&         \
		       (since) <= sizeof(struct libpidfd_info),                   \
		       "LPFD_INFO_FIELDS: " #field " is not where it says");
LPFD_INFO_FIELDS(INFO_FIELD_AT)
#define INFO_FIELD_SUM(field, offset, since, bit, column)                      \
	+ INFO_FIELD_SIZE(field)
_Static_assert(0 LPFD_INFO_FIELDS(INFO_FIELD_SUM) == sizeof(struct libpidfd_info),
	       "struct libpidfd_info has a field LPFD_INFO_FIELDS lacks");

/*
 * What libpidfd_get_info() can return on this kernel, by the path it
 * takes: the emulation's bits (COREDUMP: the caller's own), or those of
 * the features the kernel has.
 */
uint64_t lpfd_info_supported_mask(void)
{
	bool native = lpfd_surely_native(LPFD_FEAT_GET_INFO);
	uint64_t m = 0;

	for (size_t i = 0; i < lpfd_array_size(info_bits); i++)
		if (native ? lpfd_surely_has(info_bits[i].feat) :
			     info_bits[i].emulated)
			m |= info_bits[i].bit;
	return m;
}

/*
 * A field of a caller's struct, which the kernel takes at any alignment:
 * read and written by its bytes, never as a member (undefined, and UBSan's
 * error, where the struct is not 8-aligned).
 */
uint64_t lpfd_info_field(const struct libpidfd_info *info, size_t off)
{
	uint64_t v;

	memcpy(&v, (const char *)info + off, sizeof(v));
	return v;
}

void lpfd_info_set_field(struct libpidfd_info *info, size_t off, uint64_t v)
{
	memcpy((char *)info + off, &v, sizeof(v));
}

#define MASK_AT offsetof(struct libpidfd_info, mask)
#define SUPPORTED_AT offsetof(struct libpidfd_info, supported_mask)

void lpfd_info_put_supported(struct libpidfd_info *info, size_t size)
{
	lpfd_info_set_field(info, MASK_AT, lpfd_info_field(info, MASK_AT) |
					   PIDFD_INFO_SUPPORTED_MASK);
	if (size >= PIDFD_INFO_SIZE_VER3)
		lpfd_info_set_field(info, SUPPORTED_AT,
				    lpfd_info_supported_mask());
}

/*
 * The size of the kernel's struct libpidfd_info, as far as the layout matters,
 * from its answer (in a struct of the newest size) to a request for
 * PIDFD_INFO_SUPPORTED_MASK: 7.1 puts the mask at 80, 6.19 and 7.0 at 72,
 * older kernels nowhere (72 then stands for their 64 and 72).
 */
size_t lpfd_info_kernel_size(const struct libpidfd_info *answer)
{
	if (!(answer->mask & PIDFD_INFO_SUPPORTED_MASK))
		return PIDFD_INFO_SIZE_VER1;
	return answer->supported_mask ? PIDFD_INFO_SIZE_VER3 :
					PIDFD_INFO_SIZE_VER2;
}

/*
 * Bring what a kernel with a ksize-byte struct wrote to the newest layout:
 * 6.19 and 7.0 (80 bytes) put supported_mask at 72, where 7.1 has
 * coredump_code; kernels before 6.19 have no supported_mask, which the
 * library then supplies. size is the caller's struct size.
 */
void lpfd_info_to_newest(struct libpidfd_info *info, size_t size, uint64_t req,
			   size_t ksize)
{
	uint64_t v;

	if (!(lpfd_info_field(info, MASK_AT) & PIDFD_INFO_SUPPORTED_MASK)) {
		if (req & PIDFD_INFO_SUPPORTED_MASK)
			lpfd_info_put_supported(info, size);
		return;
	}
	if (ksize != PIDFD_INFO_SIZE_VER2 || size <= OFF_SUPPORTED_V2)
		return;
	if (size < PIDFD_INFO_SIZE_VER2) {
		/* Only part of the moved field reached the caller: drop it. */
		memset((char *)info + OFF_SUPPORTED_V2, 0, size - OFF_SUPPORTED_V2);
		return;
	}
	memcpy(&v, (char *)info + OFF_SUPPORTED_V2, sizeof(v));
	memset((char *)info + OFF_SUPPORTED_V2, 0, sizeof(v));
	if (size >= PIDFD_INFO_SIZE_VER3)
		lpfd_info_set_field(info, SUPPORTED_AT, v);
}
