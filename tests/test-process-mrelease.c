/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* libpidfd_process_mrelease on oneself: the kernel's EINVAL, on both paths. */
#include "util.h"

static void check_mrelease(void *arg)
{
	(void)arg;
	for (size_t i = 0; i < UTIL_COUNT(util_self_values); i++) {
		ASSERT_ERRNO(libpidfd_process_mrelease(util_self_values[i], 0), EINVAL);
		ASSERT_ERRNO(libpidfd_process_mrelease(util_self_values[i], 1), EINVAL);
	}
	ASSERT_ERRNO(libpidfd_process_mrelease(-10002, 1), EINVAL);
}

TEST(mrelease_self_is_einval)
{
	util_both_paths(check_mrelease, NULL);
}
