/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The basics every other test builds on: the header, a pidfd, the probe. */
#include <libpidfd.h>

#include "harness.h"
#include "internal.h"
#include "util.h"

TEST(open_self_and_getpid)
{
	int fd = libpidfd_open(getpid(), 0);

	ASSERT_GE(fd, 0);
	ASSERT_EQ(libpidfd_getpid(fd), getpid());
	close(fd);
}

TEST(get_info_self_fd)
{
	struct pidfd_info info = { .mask = 0 };
	int fd = libpidfd_open(getpid(), 0);

	ASSERT_GE(fd, 0);
	ASSERT_EQ(libpidfd_get_info(fd, &info, sizeof(info)), 0);
	ASSERT_EQ(info.pid, getpid());
	ASSERT_EQ(info.tgid, getpid());
	ASSERT_EQ(info.ppid, getppid());
	ASSERT_EQ(info.ruid, getuid());
	ASSERT_EQ(info.euid, geteuid());
	ASSERT_TRUE(info.mask & PIDFD_INFO_PID);
	ASSERT_TRUE(info.mask & PIDFD_INFO_CREDS);
	close(fd);
}

TEST(features_match_mode)
{
	struct libpidfd_features f;

	ASSERT_EQ(libpidfd_features(&f, sizeof(f)), 0);
	if (util_native(LPFD_FEAT_GET_INFO))
		ASSERT_EQ(f.get_info, LIBPIDFD_NATIVE);
	else
		ASSERT_EQ(f.get_info, LIBPIDFD_EMULATED);
	ASSERT_EQ(f.open, LIBPIDFD_NATIVE);
	ASSERT_EQ(f.emulate_forced, strcmp(harness_mode(), "emulated") == 0);
}
