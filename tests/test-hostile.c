/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Hostile /proc content, deterministically (the fuzzers in tests/fuzz/ do
 * it at random): every parser on every truncation of every seed file, on
 * garbage and on oversized input, each from an exact-size heap copy (so
 * that the ASan run sees one byte too far); then real /proc files that are
 * oversized: a status whose Groups: line is hundreds of kilobytes, a cgroup
 * path longer than the library resolves, a cgroup2 mount point that needs
 * mountinfo's escapes.
 */
#include <dirent.h>
#include <fcntl.h>
#include <grp.h>
#include <libpidfd.h>
#include <sys/mount.h>
#include <sys/stat.h>

#include "internal.h"
#include "util.h"

#define CORPUS "tests/fuzz/corpus"

/* Every parser on buf[0..len), from an exact-size copy. */
static void parse_all(const char *data, size_t len)
{
	char *buf = malloc(len ? len : 1), path[64];
	struct lpfd_fdinfo fi;
	struct lpfd_status st;
	struct lpfd_mountinfo mi;
	const char *p;
	long long v;
	int r;

	ASSERT_TRUE(buf != NULL);
	memcpy(buf, data, len);
	r = lpfd_parse_fdinfo(buf, len, &fi);
	ASSERT_TRUE((r == 0) == fi.is_pidfd && fi.pid >= -1);
	ASSERT_EQ(lpfd_parse_status(buf, len, &st), 0);
	ASSERT_TRUE(st.pid >= 0 && st.tgid >= 0 && st.ppid >= 0);
	r = lpfd_parse_cgroup(buf, len, path, sizeof(path));
	if (r == 0)
		ASSERT_TRUE(path[0] == '/' && strlen(path) < sizeof(path));
	p = buf;
	r = lpfd_parse_int(&p, buf + len, &v);
	ASSERT_TRUE(p >= buf && p <= buf + len);
	r = lpfd_parse_mountinfo_line(buf, len, &mi);
	if (r == 0)
		ASSERT_TRUE(mi.root[0] == '/' && mi.mnt[0] == '/');
	free(buf);
}

static size_t read_seed(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	ASSERT_GE(fd, 0);
	n = read(fd, buf, size);
	ASSERT_GE(n, 0);
	close(fd);
	return (size_t)n;
}

TEST_TIMEOUT(parsers_take_every_truncation_of_every_seed, 60)
{
	static const char *const dirs[] = { "fdinfo", "status", "cgroup",
					    "mountinfo", "int" };
	static char buf[65536];
	int files = 0;

	for (size_t d = 0; d < sizeof(dirs) / sizeof(dirs[0]); d++) {
		char dir[256];
		struct dirent *e;
		DIR *dp;

		snprintf(dir, sizeof(dir), CORPUS "/%s", dirs[d]);
		dp = opendir(dir);
		if (!dp)
			FAIL("%s (run from the source tree): %s", dir,
			     strerror(errno));
		while ((e = readdir(dp))) {
			char path[600];
			size_t n;

			if (e->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
			n = read_seed(path, buf, sizeof(buf));
			for (size_t cut = 0; cut <= n; cut++)
				parse_all(buf, cut);
			files++;
		}
		closedir(dp);
	}
	printf("# %d seed files, every prefix\n", files);
	ASSERT_TRUE(files >= 20);
}

TEST(parsers_take_garbage_and_oversized_input)
{
	static char buf[1 << 20];
	unsigned int seed = 7;
	const char *lines[] = { "Pid:\t", "Uid:\t", "NSpid:\t", "0::/",
				"flags:\t", "Gid:\t", " - cgroup2 ", "\\0" };

	/* Garbage: random bytes, and random lines of known keys. */
	for (int i = 0; i < 2000; i++) {
		size_t n = (size_t)rand_r(&seed) % 600, o = 0;

		for (size_t j = 0; j < n; j++)
			buf[j] = (char)rand_r(&seed);
		parse_all(buf, n);
		while (o < n) {
			const char *k = lines[rand_r(&seed) % 8];
			size_t kl = strlen(k);

			if (o + kl >= n)
				break;
			memcpy(buf + o, k, kl);
			o += kl + (size_t)rand_r(&seed) % 12;
			if (o < n)
				buf[o++] = '\n';
		}
		parse_all(buf, n);
	}
	/* Oversized: one line of a megabyte, and a megabyte of short lines. */
	memset(buf, '7', sizeof(buf));
	memcpy(buf, "Groups:\t", 8);
	parse_all(buf, sizeof(buf));
	memcpy(buf, "Pid:\t", 5);
	parse_all(buf, sizeof(buf));
	memcpy(buf, "0::/", 4);
	parse_all(buf, sizeof(buf));
	for (size_t o = 0; o + 6 < sizeof(buf); o += 6)
		memcpy(buf + o, "Pid:1\n", 6);
	parse_all(buf, sizeof(buf));
}

/* ------------------------------------------------------------------------
 * Real /proc files, oversized.
 */
#define MANY_GROUPS 20000

static void set_many_groups(void *arg)
{
	static gid_t g[MANY_GROUPS];

	(void)arg;
	for (int i = 0; i < MANY_GROUPS; i++)
		g[i] = (gid_t)(100000 + i);
	if (setgroups(MANY_GROUPS, g) != 0)
		_exit(96);
}

TEST_TIMEOUT(status_with_a_huge_groups_line, 60)
{
	struct pidfd_info info = { .mask = 0 };
	pid_t pid, child;
	int fd, status;

	REQUIRE_PRIVILEGE("sets a child's supplementary groups");
	/* Another process with a huge status file. */
	pid = util_spawn(set_many_groups, NULL, &fd);
	for (int em = 0; em < 2; em++) {
		util_set_path(em);
		ASSERT_EQ(libpidfd_get_info(fd, &info, sizeof(info)), 0);
		ASSERT_EQ(info.pid, pid);
		ASSERT_EQ(libpidfd_getpid(fd), pid);
	}
	/* And the caller's own: NSpid: comes after Groups:. */
	child = fork();
	ASSERT_GE(child, 0);
	if (child == 0) {
		set_many_groups(NULL);
		for (int em = 0; em < 2; em++) {
			util_set_path(em);
			ASSERT_EQ(libpidfd_getpid(fd), pid);
			ASSERT_EQ(libpidfd_get_info(fd, &info, sizeof(info)), 0);
			ASSERT_EQ(info.pid, pid);
		}
		fflush(stdout);
		_exit(0);
	}
	ASSERT_EQ(waitpid(child, &status, 0), child);
	ASSERT_EQ(status, 0);
	util_kill_reap(fd);
}

/*
 * On both paths: the target's own pid, and the id of the cgroup in dir, or
 * (unless must_have) the bit clear where the kernel does not answer.
 */
static void expect_cgroupid(int fd, pid_t pid, const char *dir, bool must_have)
{
	for (int em = 0; em < 2; em++) {
		struct pidfd_info info = { .mask = PIDFD_INFO_CGROUPID };

		util_set_path(em);
		ASSERT_EQ(libpidfd_get_info(fd, &info, sizeof(info)), 0);
		ASSERT_EQ(info.pid, pid);
		if (info.mask & PIDFD_INFO_CGROUPID)
			ASSERT_EQ(info.cgroupid, util_cgroup_id(dir));
		else
			ASSERT_TRUE(!must_have &&
				    (em || !util_have_native_info()));
	}
}

/*
 * A cgroup path longer than the library resolves: the emulation leaves
 * PIDFD_INFO_CGROUPID clear, never a wrong id.
 */
TEST(cgroup_path_longer_than_resolved)
{
	char dir[4096], name[201];
	const char *m = util_cgroup2_mount();
	size_t depth = 0;
	pid_t pid;
	int fd;

	REQUIRE_PRIVILEGE("creates cgroups");
	ASSERT_TRUE(m[0]);
	memset(name, 'c', 200);
	name[200] = '\0';
	snprintf(dir, sizeof(dir), "%s/libpidfd-long-%d", m, getpid());
	ASSERT_EQ(mkdir(dir, 0755), 0);
	while (strlen(dir) - strlen(m) < LPFD_PATH_MAX + 100) {
		strcat(strcat(dir, "/"), name);
		ASSERT_EQ(mkdir(dir, 0755), 0);
		depth++;
	}
	pid = util_spawn(NULL, NULL, &fd);
	util_cgroup_move(dir, pid);
	expect_cgroupid(fd, pid, dir, false);
	util_kill_reap(fd);
	util_cgroup_remove(dir); /* the child's, once it says it is empty */
	for (; depth; depth--) {
		*strrchr(dir, '/') = '\0';
		ASSERT_EQ(rmdir(dir), 0);
	}
}

/*
 * The only cgroup2 mount has a space, a tab, a newline and a backslash in
 * its path, which mountinfo escapes: the emulation must undo them.
 */
static void escaped_mount(void)
{
	char mnt[] = "/tmp/libpidfd cg\t2\nx\\y.XXXXXX", dir[512];
	const char *m;
	pid_t pid;
	int fd;

	while ((m = util_cgroup2_mount())[0])
		ASSERT_EQ(umount2(m, MNT_DETACH), 0);
	ASSERT_TRUE(mkdtemp(mnt) != NULL);
	ASSERT_EQ(mount("cgroup2", mnt, "cgroup2", 0, NULL), 0);
	snprintf(dir, sizeof(dir), "%s/libpidfd-esc-%d", mnt, getpid());
	ASSERT_EQ(mkdir(dir, 0755), 0);
	pid = util_spawn(NULL, NULL, &fd);
	util_cgroup_move(dir, pid);
	expect_cgroupid(fd, pid, dir, true);
	util_kill_reap(fd);
	util_cgroup_remove(dir);
	umount2(mnt, MNT_DETACH);
	rmdir(mnt);
}

TEST(cgroup2_mounted_where_mountinfo_escapes_the_path)
{
	util_in_private_mounts(escaped_mount);
}
