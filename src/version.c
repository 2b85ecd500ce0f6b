/* SPDX-License-Identifier: LGPL-2.1-or-later OR MIT */
/*
 * The version of the running library, which can be newer than the header a
 * program was built with: a program that needs a later release's behaviour
 * asks libpidfd_check_version() rather than LIBPIDFD_CHECK_VERSION().
 * Unlike io_uring_check_version(), the answer is true when the library is
 * new enough, as the macro's is.
 */
#include "internal.h"

LIBPIDFD_API int libpidfd_major_version(void)
{
	return LIBPIDFD_VERSION_MAJOR;
}

LIBPIDFD_API int libpidfd_minor_version(void)
{
	return LIBPIDFD_VERSION_MINOR;
}

LIBPIDFD_API int libpidfd_patch_version(void)
{
	return LIBPIDFD_VERSION_PATCH;
}

LIBPIDFD_API int libpidfd_check_version(int major, int minor, int patch)
{
	return LIBPIDFD_CHECK_VERSION(major, minor, patch);
}
