/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What each kernel's struct pidfd_info layout becomes in the newest one.
 * Only two of the four layouts run here (6.1 has none, 6.18 the 72-byte
 * one), so the translation is checked directly for every kernel size.
 */
#include "harness.h"
#include "internal.h"

static const uint64_t supported = PIDFD_INFO_PID | PIDFD_INFO_CREDS |
	PIDFD_INFO_CGROUPID | PIDFD_INFO_EXIT | PIDFD_INFO_COREDUMP |
	PIDFD_INFO_SUPPORTED_MASK | PIDFD_INFO_COREDUMP_SIGNAL;

/* What a 6.19 or 7.0 kernel writes: supported_mask at offset 72. */
static void written_by_6_19(struct pidfd_info *info)
{
	memset(info, 0, sizeof(*info));
	info->mask = PIDFD_INFO_PID | PIDFD_INFO_SUPPORTED_MASK;
	info->coredump_signal = 11;
	memcpy((char *)info + 72, &supported, sizeof(supported));
}

TEST(kernel_6_19_supported_mask_moves_to_80)
{
	struct pidfd_info info;

	written_by_6_19(&info);
	lpfd_info_to_newest(&info, sizeof(info), PIDFD_INFO_SUPPORTED_MASK, 80);
	ASSERT_EQ(info.supported_mask, supported);
	ASSERT_EQ(info.coredump_code, 0);
	ASSERT_EQ(info.coredump_pad, 0);
	ASSERT_EQ(info.coredump_signal, 11);
}

TEST(kernel_6_19_caller_with_80_bytes_gets_no_torn_field)
{
	struct pidfd_info info;

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
	struct pidfd_info info;

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
	struct pidfd_info info;

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
