/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The emulation remembers the cgroup2 mount of its last cgroup lookup
 * (src/cgroup.c). These tests change, after a lookup, each thing that
 * remembered mount depends on, and check that the emulated cgroup id is
 * still the right one (or, where the emulation cannot know it, absent),
 * never another cgroup's: the cgroup namespace, the mount at the mount
 * point (another root, likely under the same mount id), a fork.
 *
 * Each scenario runs in a child that moves itself into cgroups of its
 * own; the test removes them once the child is reaped.
 */
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "harness.h"
#include "internal.h"
#include "util.h"

/* The emulated cgroup id of the caller, through a pidfd or PIDFD_SELF. */
static bool emulated_id(bool sentinel, uint64_t *id)
{
	const struct pidfd_info *info;
	struct util_res r;
	int fd = sentinel ? PIDFD_SELF_PROCESS : libpidfd_open(getpid(), 0);

	ASSERT_TRUE(sentinel || fd >= 0);
	util_get_info(fd, PIDFD_INFO_CGROUPID, sizeof(struct pidfd_info), true,
		      &r);
	if (!sentinel)
		close(fd);
	ASSERT_EQ(r.ret, 0);
	info = (const struct pidfd_info *)(const void *)r.buf;
	*id = info->cgroupid;
	return info->mask & PIDFD_INFO_CGROUPID;
}

/* Both ways of asking give want, three times (the later ones cached). */
static void expect_id(uint64_t want)
{
	uint64_t id;

	for (int i = 0; i < 3; i++) {
		ASSERT_TRUE(emulated_id(i == 1, &id));
		ASSERT_EQ(id, want);
	}
}

/* Either the right id, or none: never another cgroup's. */
static void expect_id_or_none(uint64_t want)
{
	uint64_t id;

	for (int i = 0; i < 3; i++)
		if (emulated_id(i == 1, &id))
			ASSERT_EQ(id, want);
}

/* Run fn in a child and check it passed, then remove dirs (deepest first). */
static void in_child(void (*fn)(void), char dirs[][600], int ndirs)
{
	int status;
	pid_t pid = fork();

	ASSERT_GE(pid, 0);
	if (pid == 0) {
		fn();
		_exit(0);
	}
	ASSERT_EQ(waitpid(pid, &status, 0), pid);
	for (int i = ndirs - 1; i >= 0; i--)
		util_cgroup_remove(dirs[i]);
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(WEXITSTATUS(status), 0);
}

static char g_dirs[4][600];
static char g_name[32];

static void make_dirs(const char *const rel[], int n)
{
	const char *mnt = util_cgroup2_mount();

	REQUIRE_PRIVILEGE("creates cgroups");
	ASSERT_TRUE(mnt[0]);
	snprintf(g_name, sizeof(g_name), "libpidfd-cc-%d", getpid());
	for (int i = 0; i < n; i++) {
		snprintf(g_dirs[i], sizeof(g_dirs[i]), "%s/%s%s", mnt, g_name,
			 rel[i]);
		ASSERT_EQ(mkdir(g_dirs[i], 0755), 0);
	}
}

static void private_mounts(void)
{
	ASSERT_EQ(unshare(CLONE_NEWNS), 0);
	ASSERT_EQ(mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL), 0);
}

/*
 * After unshare(CLONE_NEWCGROUP) /proc names our cgroup "/": a cache that
 * ignored the namespace would join that to the mount and answer the root
 * cgroup's id.
 */
static void unshare_cgroup_ns(void)
{
	uint64_t id_a = util_cgroup_id(g_dirs[0]);
	char mnt[128];

	util_cgroup_move(g_dirs[0], 0);
	expect_id(id_a);
	ASSERT_EQ(unshare(CLONE_NEWCGROUP), 0);
	expect_id_or_none(id_a);
	/* A cgroup2 mount made in the new namespace has its root there. */
	private_mounts();
	snprintf(mnt, sizeof(mnt), "/tmp/%s", g_name);
	ASSERT_EQ(mkdir(mnt, 0755), 0);
	ASSERT_EQ(mount("cgroup2", mnt, "cgroup2", 0, NULL), 0);
	expect_id(id_a);
	umount2(mnt, MNT_DETACH);
	rmdir(mnt);
}

TEST(cached_mount_follows_the_cgroup_namespace)
{
	static const char *const rel[] = { "" };

	make_dirs(rel, 1);
	in_child(unshare_cgroup_ns, g_dirs, 1);
}

/*
 * The remembered mount is replaced by one of another root at the same
 * place, which likely gets the same mount id: joined to the remembered
 * root, the path would name an existing, different cgroup (base/<name>/s
 * instead of base/s).
 */
static void remount_other_root(void)
{
	uint64_t id_s = util_cgroup_id(g_dirs[1]);
	const char *sys = util_cgroup2_mount();
	char x[128], y[128], src[300];

	util_cgroup_move(g_dirs[1], 0);
	private_mounts();
	snprintf(x, sizeof(x), "/tmp/%s-x", g_name);
	snprintf(y, sizeof(y), "/tmp/%s-y", g_name);
	ASSERT_EQ(mkdir(x, 0755), 0);
	ASSERT_EQ(mkdir(y, 0755), 0);
	/* Ours is now the only cgroup2 mount, so the lookup goes through it. */
	ASSERT_EQ(umount2(sys, MNT_DETACH), 0);
	ASSERT_EQ(mount("cgroup2", x, "cgroup2", 0, NULL), 0);
	ASSERT_EQ(mount("cgroup2", y, "cgroup2", 0, NULL), 0);
	expect_id(id_s); /* through x, the first in mountinfo */
	/* Unmounted last, x's id is the lowest free one for the bind mount. */
	ASSERT_EQ(umount2(x, MNT_DETACH), 0);
	snprintf(src, sizeof(src), "%s/%s", y, g_name);
	ASSERT_EQ(mount(src, x, NULL, MS_BIND, NULL), 0);
	ASSERT_EQ(umount2(y, MNT_DETACH), 0);
	expect_id(id_s);
	umount2(x, MNT_DETACH);
	rmdir(x);
	rmdir(y);
}

TEST(cached_mount_replaced_by_another_root)
{
	char rel[4][64];
	const char *r[4] = { rel[0], rel[1], rel[2], rel[3] };

	snprintf(rel[0], sizeof(rel[0]), "%s", "");
	snprintf(rel[1], sizeof(rel[1]), "%s", "/s");
	snprintf(rel[2], sizeof(rel[2]), "/libpidfd-cc-%d", getpid());
	/* base/<name>/s, what a stale cache would resolve to */
	snprintf(rel[3], sizeof(rel[3]), "/libpidfd-cc-%d/s", getpid());
	make_dirs(r, 4);
	in_child(remount_other_root, g_dirs, 4);
}

/* A lookup cached before a fork and a move is right in the child. */
static void fork_and_move(void)
{
	uint64_t id_a = util_cgroup_id(g_dirs[0]);
	uint64_t id_b = util_cgroup_id(g_dirs[1]);
	int status;
	pid_t pid;

	util_cgroup_move(g_dirs[0], 0);
	expect_id(id_a);
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		expect_id(id_a);
		util_cgroup_move(g_dirs[1], 0);
		expect_id(id_b);
		_exit(0);
	}
	ASSERT_EQ(waitpid(pid, &status, 0), pid);
	ASSERT_EQ(status, 0);
	expect_id(id_a);
}

TEST(cached_mount_across_fork)
{
	static const char *const rel[] = { "", "/b" };

	make_dirs(rel, 2);
	in_child(fork_and_move, g_dirs, 2);
}
