/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The PIDFD_SELF* sentinels across the calls: get_info and getpid on every
 * one, from the main thread and another; values that name nothing in every
 * call; setns, which the library does not wrap.
 */
#include <sched.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>

#include "internal.h"
#include "util.h"

#ifndef MADV_COLD
#define MADV_COLD 20
#endif

static long page;

static void *check_info_thread(void *arg)
{
	struct pidfd_info info;

	(void)arg;
	for (size_t i = 0; i < UTIL_COUNT(util_self_values); i++) {
		memset(&info, 0, sizeof(info));
		ASSERT_EQ(libpidfd_get_info(util_self_values[i], &info, sizeof(info)), 0);
		ASSERT_EQ(info.pid, util_is_group_value(util_self_values[i]) ?
					    getpid() : gettid());
		ASSERT_EQ(info.tgid, getpid());
		ASSERT_EQ(info.ppid, getppid());
		ASSERT_EQ(libpidfd_getpid(util_self_values[i]),
			  util_is_group_value(util_self_values[i]) ? getpid() : gettid());
	}
	return NULL;
}

static void check_info(void *arg)
{
	(void)arg;
	check_info_thread(NULL);
	util_in_thread(check_info_thread, NULL);
}

TEST(get_info_and_getpid_on_every_sentinel)
{
	util_both_paths(check_info, NULL);
}

/*
 * Credentials belong to each thread: one that changes only its own (raw
 * system calls, not glibc's setxid broadcast) still sees the leader's for
 * the process, and its own for itself.
 */
struct self_creds {
	unsigned int uid[3], gid[3];
};

static void assert_creds(const struct pidfd_info *i, const unsigned int uid[4],
			 const unsigned int gid[4])
{
	ASSERT_TRUE(i->mask & PIDFD_INFO_CREDS);
	ASSERT_EQ(i->ruid, uid[0]);
	ASSERT_EQ(i->euid, uid[1]);
	ASSERT_EQ(i->suid, uid[2]);
	ASSERT_EQ(i->fsuid, uid[3]);
	ASSERT_EQ(i->rgid, gid[0]);
	ASSERT_EQ(i->egid, gid[1]);
	ASSERT_EQ(i->sgid, gid[2]);
	ASSERT_EQ(i->fsgid, gid[3]);
}

static void *own_creds_thread(void *arg)
{
	const struct self_creds *leader = arg;
	const unsigned int uid[4] = { leader->uid[0], leader->uid[1],
				      leader->uid[2], leader->uid[1] };
	const unsigned int gid[4] = { leader->gid[0], leader->gid[1],
				      leader->gid[2], leader->gid[1] };
	/* Without CAP_SETUID the fsuid follows the euid: 24 is refused. */
	const unsigned int tuid[4] = { 21, 22, 23, 22 }, tgid[4] = { 11, 12, 13, 14 };
	struct pidfd_info info;

	ASSERT_EQ(syscall(UTIL_SYS_setresgid, 11, 12, 13), 0);
	(void)syscall(UTIL_SYS_setfsgid, 14);
	ASSERT_EQ(syscall(UTIL_SYS_setresuid, 21, 22, 23), 0);
	(void)syscall(UTIL_SYS_setfsuid, 24);
	for (size_t i = 0; i < UTIL_COUNT(util_self_values); i++) {
		int v = util_self_values[i];

		memset(&info, 0, sizeof(info));
		info.mask = PIDFD_INFO_CGROUPID;
		ASSERT_EQ(libpidfd_get_info(v, &info, sizeof(info)), 0);
		if (util_is_group_value(v))
			assert_creds(&info, uid, gid);
		else
			assert_creds(&info, tuid, tgid);
	}
	return NULL;
}

static void check_own_creds(void *arg)
{
	util_in_thread(own_creds_thread, arg);
}

TEST(process_sentinels_report_the_leaders_credentials)
{
	struct self_creds leader;

	REQUIRE_PRIVILEGE("changes a thread's ids");
	ASSERT_EQ(getresuid(&leader.uid[0], &leader.uid[1], &leader.uid[2]), 0);
	ASSERT_EQ(getresgid(&leader.gid[0], &leader.gid[1], &leader.gid[2]), 0);
	util_both_paths(check_own_creds, &leader);
}

/* Every call answers EBADF to a negative value that names nothing. */
static void check_bad_values(void *arg)
{
	struct pidfd_info info = { .mask = 0 };
	char *m = util_pages(1);
	struct iovec iov = { m, page };

	(void)arg;
	for (size_t i = 0; i < UTIL_COUNT(util_bad_values); i++) {
		int v = util_bad_values[i];

		ASSERT_ERRNO(libpidfd_get_info(v, &info, sizeof(info)), EBADF);
		ASSERT_ERRNO(libpidfd_getpid(v), EBADF);
		ASSERT_ERRNO(libpidfd_send_signal(v, 0, NULL, 0), EBADF);
		ASSERT_ERRNO(libpidfd_getfd(v, 0, 0),
			     util_kernel_has(LPFD_FEAT_GETFD) ? EBADF : ENOSYS);
		ASSERT_ERRNO(libpidfd_process_madvise(v, &iov, 1, MADV_COLD, 0),
			     util_kernel_has(LPFD_FEAT_PROCESS_MADVISE) ?
			     EBADF : ENOSYS);
		ASSERT_ERRNO(libpidfd_process_mrelease(v, 0),
			     util_kernel_has(LPFD_FEAT_PROCESS_MRELEASE) ?
			     EBADF : ENOSYS);
		ASSERT_ERRNO(libpidfd_get_namespace(v, PIDFD_GET_UTS_NAMESPACE),
			     EBADF);
	}
	munmap(m, page);
}

TEST(bad_negative_values_are_ebadf_everywhere)
{
	page = sysconf(_SC_PAGESIZE);
	util_both_paths(check_bad_values, NULL);
}

/* setns() is not wrapped; the kernel takes no sentinel there. */
TEST(setns_on_sentinels_is_ebadf)
{
	for (size_t i = 0; i < UTIL_COUNT(util_self_values); i++) {
		ASSERT_ERRNO(setns(util_self_values[i], 0), EBADF);
		ASSERT_ERRNO(syscall(SYS_setns, util_self_values[i], 0), EBADF);
	}
}
