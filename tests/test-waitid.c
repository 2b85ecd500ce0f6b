/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libpidfd_waitid on the PIDFD_SELF* sentinels and on values that name
 * nothing: the kernel's answers, at once.
 */
#include <sys/wait.h>

#include "util.h"

/* waitid on oneself: ECHILD at once, even with a live child about. */
TEST(waitid_self_is_echild_at_once)
{
	int cfd;
	pid_t child = util_spawn(NULL, NULL, &cfd);
	siginfo_t si;

	/* A wait that blocked would never end: the harness's timeout. */
	for (size_t i = 0; i < UTIL_COUNT(util_self_values); i++) {
		memset(&si, 0x5a, sizeof(si));
		ASSERT_ERRNO(libpidfd_waitid(util_self_values[i], &si, WEXITED, NULL),
			     ECHILD);
		ASSERT_EQ(si.si_pid, 0); /* cleared, as waitid(2) does */
		ASSERT_EQ(si.si_signo, 0);
		ASSERT_ERRNO(libpidfd_waitid(util_self_values[i], NULL,
					     WEXITED | WSTOPPED | __WALL, NULL),
			     ECHILD);
		ASSERT_ERRNO(libpidfd_waitid(util_self_values[i], NULL, 0, NULL),
			     EINVAL);
		ASSERT_ERRNO(libpidfd_waitid(util_self_values[i], (siginfo_t *)8,
					     WEXITED, NULL), EFAULT);
	}
	/* The child is still there to be waited for through its pidfd. */
	ASSERT_EQ(kill(child, SIGKILL), 0);
	ASSERT_EQ(libpidfd_waitid(cfd, &si, WEXITED, NULL), 0);
	ASSERT_EQ(si.si_pid, child);
	close(cfd);
}

/* Negative values that name nothing: waitid's own answer is EINVAL. */
TEST(waitid_bad_values_are_kernels_einval)
{
	for (size_t i = 0; i < UTIL_COUNT(util_bad_values); i++)
		ASSERT_ERRNO(libpidfd_waitid(util_bad_values[i], NULL, WEXITED, NULL),
			     EINVAL);
}
