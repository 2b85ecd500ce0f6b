/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What each kernel's struct pidfd_info layout becomes in the newest one.
 * Only two of the four layouts run here (6.1 has none, 6.18 the 72-byte
 * one), so the translation is checked directly for every kernel size:
 * each layout of the library's list of fields (LPFD_INFO_FIELDS), and
 * 6.19's, which moved a field.
 */
#include "harness.h"
#include "internal.h"

static const uint64_t supported = PIDFD_INFO_PID | PIDFD_INFO_CREDS |
	PIDFD_INFO_CGROUPID | PIDFD_INFO_EXIT | PIDFD_INFO_COREDUMP |
	PIDFD_INFO_SUPPORTED_MASK | PIDFD_INFO_COREDUMP_SIGNAL;

/* What a 6.19 or 7.0 kernel writes: supported_mask at offset 72. */
static void written_by_6_19(struct libpidfd_info *info)
{
	memset(info, 0, sizeof(*info));
	info->mask = PIDFD_INFO_PID | PIDFD_INFO_SUPPORTED_MASK;
	info->coredump_signal = 11;
	memcpy((char *)info + 72, &supported, sizeof(supported));
}

TEST(kernel_6_19_supported_mask_moves_to_80)
{
	struct libpidfd_info info;

	written_by_6_19(&info);
	lpfd_info_to_newest(&info, sizeof(info), PIDFD_INFO_SUPPORTED_MASK, 80);
	ASSERT_EQ(info.supported_mask, supported);
	ASSERT_EQ(info.coredump_code, 0);
	ASSERT_EQ(info.coredump_pad, 0);
	ASSERT_EQ(info.coredump_signal, 11);
}

TEST(kernel_6_19_caller_with_80_bytes_gets_no_torn_field)
{
	struct libpidfd_info info;

	written_by_6_19(&info);
	info.supported_mask = 0x5a5a; /* beyond the caller's 80 bytes */
	lpfd_info_to_newest(&info, 80, PIDFD_INFO_SUPPORTED_MASK, 80);
	ASSERT_EQ(info.coredump_code, 0);
	ASSERT_EQ(info.coredump_pad, 0);
	ASSERT_EQ(info.supported_mask, 0x5a5a);
	written_by_6_19(&info);
	info.coredump_pad = 0x77;
	lpfd_info_to_newest(&info, 76, PIDFD_INFO_SUPPORTED_MASK, 80);
	ASSERT_EQ(info.coredump_code, 0);
	ASSERT_EQ(info.coredump_pad, 0x77); /* past the caller's size */
}

TEST(kernel_7_1_layout_is_kept)
{
	struct libpidfd_info info;

	memset(&info, 0, sizeof(info));
	info.mask = PIDFD_INFO_SUPPORTED_MASK | PIDFD_INFO_COREDUMP_CODE;
	info.coredump_code = 1;
	info.supported_mask = supported | PIDFD_INFO_COREDUMP_CODE;
	lpfd_info_to_newest(&info, sizeof(info), PIDFD_INFO_SUPPORTED_MASK, 88);
	ASSERT_EQ(info.coredump_code, 1);
	ASSERT_EQ(info.supported_mask, supported | PIDFD_INFO_COREDUMP_CODE);
}

TEST(older_kernels_get_a_supported_mask_from_the_library)
{
	struct libpidfd_info info;

	for (size_t ksize = 64; ksize <= 72; ksize += 8) {
		memset(&info, 0, sizeof(info));
		info.mask = PIDFD_INFO_PID | PIDFD_INFO_CREDS;
		lpfd_info_to_newest(&info, sizeof(info),
				      PIDFD_INFO_SUPPORTED_MASK, ksize);
		ASSERT_TRUE(info.mask & PIDFD_INFO_SUPPORTED_MASK);
		ASSERT_EQ(info.supported_mask, lpfd_info_supported_mask());
		/* Not asked: not given. */
		memset(&info, 0, sizeof(info));
		info.mask = PIDFD_INFO_PID;
		lpfd_info_to_newest(&info, sizeof(info), 0, ksize);
		ASSERT_EQ(info.mask, PIDFD_INFO_PID);
		ASSERT_EQ(info.supported_mask, 0);
	}
}

static const struct {
	const char *name;
	size_t offset, size, since;
	uint64_t bit;
} fields[] = {
#define FIELD(field, offset, since, bit, column)                               \
	{ #field, offset, sizeof(((struct libpidfd_info *)0)->field), since, bit },
	LPFD_INFO_FIELDS(FIELD)
#undef FIELD
};

/* A byte that tells field i from every other. */
static unsigned char pattern(size_t i)
{
	return (unsigned char)(0x11 + i);
}

/*
 * What a kernel whose struct has ksize bytes writes in the list's layout:
 * each field it has, with its bit in the mask.
 */
static void written_by(struct libpidfd_info *info, size_t ksize)
{
	memset(info, 0, sizeof(*info));
	for (size_t i = 0; i < lpfd_array_size(fields); i++) {
		if (!fields[i].bit || fields[i].since > ksize)
			continue;
		memset((char *)info + fields[i].offset, pattern(i), fields[i].size);
		info->mask |= fields[i].bit;
	}
}

static bool holds(const struct libpidfd_info *info, size_t i, int byte)
{
	for (size_t b = 0; b < fields[i].size; b++)
		if (((const unsigned char *)info)[fields[i].offset + b] != byte)
			return false;
	return true;
}

/*
 * Every field of every layout in the list reaches the caller where the
 * newest layout has it, whatever was asked; a field the kernel lacks stays
 * zero, except the supported mask, which the library then supplies.
 */
TEST(every_listed_field_of_every_layout_is_kept)
{
	size_t newest = 0;

	for (size_t k = 0; k < lpfd_array_size(fields); k++) {
		size_t ksize = fields[k].since;

		newest = ksize > newest ? ksize : newest;
		for (uint64_t req = 0; req <= PIDFD_INFO_SUPPORTED_MASK;
		     req += PIDFD_INFO_SUPPORTED_MASK) {
			struct libpidfd_info info;

			written_by(&info, ksize);
			lpfd_info_to_newest(&info, sizeof(info), req,
					    lpfd_info_kernel_size(&info));
			for (size_t i = 0; i < lpfd_array_size(fields); i++) {
				bool had = fields[i].bit && fields[i].since <= ksize;

				if (fields[i].bit == PIDFD_INFO_SUPPORTED_MASK &&
				    !had && req)
					ASSERT_EQ(info.supported_mask,
						  lpfd_info_supported_mask());
				else if (!holds(&info, i, had ? pattern(i) : 0) &&
					 fields[i].offset != 0)
					FAIL("a %zu-byte kernel's %s is lost",
					     ksize, fields[i].name);
			}
		}
	}
	ASSERT_EQ(newest, sizeof(struct libpidfd_info));
}
