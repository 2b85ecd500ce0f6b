/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* libpidfd_process_mrelease on oneself: the kernel's EINVAL, on both paths. */
#include "internal.h"
#include "util.h"

static void check_mrelease(void *arg)
{
	(void)arg;
	for (size_t i = 0; i < UTIL_COUNT(util_self_values); i++) {
		ASSERT_ERRNO(libpidfd_process_mrelease(util_self_values[i], 0), EINVAL);
		ASSERT_ERRNO(libpidfd_process_mrelease(util_self_values[i], 1), EINVAL);
	}
	/* Not a sentinel: the kernel's answer, ENOSYS before 5.15. */
	ASSERT_ERRNO(libpidfd_process_mrelease(-10002, 1),
		     util_kernel_has(LPFD_FEAT_PROCESS_MRELEASE) ? EINVAL : ENOSYS);
}

TEST(mrelease_self_is_einval)
{
	util_both_paths(check_mrelease, NULL);
}
