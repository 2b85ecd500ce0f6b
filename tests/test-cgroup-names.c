/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The emulated cgroup id is one the process was in at some instant during
 * the call, never another cgroup's, and it is there wherever a sound
 * answer exists: a cgroup removed and made anew under the process's old
 * path while the call resolves it, or again before its second read
 * (seccomp stops at the resolution and the read make that
 * deterministic); names that look like the kernel's marks (" (deleted)"
 * at the end, ".." at the start of a name); a process in a removed cgroup
 * beside a live one of the very name the kernel shows for it; a caller in
 * a cgroup namespace whose only cgroup2 mount is the inherited one.
 */
#include <fcntl.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <sys/stat.h>

#include "util.h"

static char g_base[600];

/* A cgroup of this test's own, under which each case makes its own. */
static void make_base(void)
{
	const char *mnt = util_cgroup2_mount();

	REQUIRE_PRIVILEGE("creates cgroups");
	ASSERT_TRUE(mnt[0]);
	snprintf(g_base, sizeof(g_base), "%s/libpidfd-cn-%d", mnt, getpid());
	ASSERT_EQ(mkdir(g_base, 0755), 0);
}

static void sub(char *out, size_t size, const char *name)
{
	snprintf(out, size, "%s/%s", g_base, name);
}

/* The emulated answer for a pidfd: true and the id, or false (bit clear). */
static bool emulated_id(int fd, uint64_t *id)
{
	struct pidfd_info info = { .mask = PIDFD_INFO_CGROUPID };

	util_set_path(true);
	ASSERT_EQ(libpidfd_get_info(fd, &info, sizeof(info)), 0);
	*id = info.cgroupid;
	return info.mask & PIDFD_INFO_CGROUPID;
}

/* The kernel's, where it has PIDFD_GET_INFO; else want. */
static uint64_t kernel_id(int fd, uint64_t want)
{
	struct pidfd_info info = { .mask = PIDFD_INFO_CGROUPID };

	if (!util_have_native_info())
		return want;
	util_set_path(false);
	ASSERT_EQ(libpidfd_get_info(fd, &info, sizeof(info)), 0);
	ASSERT_TRUE(info.mask & PIDFD_INFO_CGROUPID);
	return info.cgroupid;
}

/* A process in the cgroup dir, and its pidfd. */
static pid_t spawn_in(const char *dir, int *fd)
{
	pid_t pid = util_spawn(NULL, NULL, fd);

	util_cgroup_move(dir, pid);
	return pid;
}

/* ------------------------------------------------------------------------
 * Names: a live cgroup whose name ends in " (deleted)" or starts with "..".
 */
TEST(names_like_the_kernels_marks_resolve)
{
	static const char *const names[] = { "x (deleted)", "..x", "...",
					     "..x (deleted)" };

	make_base();
	for (size_t i = 0; i < UTIL_COUNT(names); i++) {
		char dir[700];
		uint64_t id, want;
		int fd;

		sub(dir, sizeof(dir), names[i]);
		ASSERT_EQ(mkdir(dir, 0755), 0);
		want = util_cgroup_id(dir);
		spawn_in(dir, &fd);
		ASSERT_TRUE(emulated_id(fd, &id));
		ASSERT_EQ(id, want);
		ASSERT_EQ(kernel_id(fd, want), want);
		util_kill_reap(fd);
		util_cgroup_remove(dir);
	}
	util_cgroup_remove(g_base);
}

/*
 * A zombie in a removed cgroup "y" shows as "y (deleted)", which is also
 * the name of a live sibling: the sibling's id would be a cgroup the
 * process was never in, so the bit stays clear (the removed cgroup's id
 * cannot be had from a path), while the kernel answers the removed one.
 */
TEST(removed_cgroup_beside_its_deleted_name_stays_clear)
{
	char dead[700], twin[700];
	uint64_t id, dead_id;
	int fd;

	make_base();
	sub(dead, sizeof(dead), "y");
	sub(twin, sizeof(twin), "y (deleted)");
	ASSERT_EQ(mkdir(dead, 0755), 0);
	ASSERT_EQ(mkdir(twin, 0755), 0);
	dead_id = util_cgroup_id(dead);
	spawn_in(dead, &fd);
	ASSERT_EQ(libpidfd_send_signal(fd, SIGKILL, NULL, 0), 0);
	util_wait_exit(fd); /* a zombie: it no longer keeps y populated */
	util_cgroup_remove(dead);
	ASSERT_TRUE(!emulated_id(fd, &id) || id == dead_id);
	ASSERT_EQ(kernel_id(fd, dead_id), dead_id);
	util_kill_reap(fd);
	util_cgroup_remove(twin);
	util_cgroup_remove(g_base);
}

/* ------------------------------------------------------------------------
 * A caller in a cgroup namespace rooted at base/ns, with only the
 * inherited cgroup2 mount (whose root /proc shows as "/../.."): a process
 * in a cgroup beside base shows as "/../../<name>" and resolves; one
 * inside the namespace ("/in") cannot (the namespace root's own name is
 * shown nowhere), and its bit stays clear or right.
 */
static char g_side[700];

static void in_cgroup_ns(void)
{
	char ns_root[700], inside[700];
	uint64_t id, side_id, in_id;
	int side, in;

	sub(ns_root, sizeof(ns_root), "ns");
	sub(inside, sizeof(inside), "ns/in");
	side_id = util_cgroup_id(g_side);
	in_id = util_cgroup_id(inside);
	spawn_in(g_side, &side);
	spawn_in(inside, &in);
	util_cgroup_move(ns_root, 0);
	ASSERT_EQ(unshare(CLONE_NEWCGROUP), 0);
	ASSERT_TRUE(emulated_id(side, &id));
	ASSERT_EQ(id, side_id);
	ASSERT_EQ(kernel_id(side, side_id), side_id);
	if (emulated_id(in, &id))
		ASSERT_EQ(id, in_id);
	ASSERT_EQ(kernel_id(in, in_id), in_id);
	util_kill_reap(side);
	util_kill_reap(in);
}

TEST(cgroup_namespace_with_the_inherited_mount_only)
{
	char ns_root[700], inside[700];
	int status;
	pid_t pid;

	make_base();
	snprintf(g_side, sizeof(g_side), "%s-side", g_base);
	sub(ns_root, sizeof(ns_root), "ns");
	sub(inside, sizeof(inside), "ns/in");
	ASSERT_EQ(mkdir(g_side, 0755), 0);
	ASSERT_EQ(mkdir(ns_root, 0755), 0);
	ASSERT_EQ(mkdir(inside, 0755), 0);
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		in_cgroup_ns();
		_exit(0);
	}
	ASSERT_EQ(waitpid(pid, &status, 0), pid);
	util_cgroup_remove(inside);
	util_cgroup_remove(ns_root);
	util_cgroup_remove(g_side);
	util_cgroup_remove(g_base);
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(WEXITSTATUS(status), 0);
}

/* ------------------------------------------------------------------------
 * The race: the call is stopped at its first path resolution; meanwhile
 * the process moves from a to b, a is removed and made anew. The new a
 * was never the process's: the answer is b's, or none.
 */
struct race {
	int pidfd;
	pid_t pid;
	char a[700], b[700];
	bool done;        /* the move happened at a stop */
	long also;        /* a second system call to stop at, or 0 */
	int listener;     /* -1 until the worker has its filter, -2 failed */
	int ret;
	struct pidfd_info info;
};

static void *race_worker(void *arg)
{
	struct race *r = arg;
	int l = r->also ? util_notif_filter2(SYS_name_to_handle_at, r->also) :
			  util_notif_filter(SYS_name_to_handle_at);

	__atomic_store_n(&r->listener, l < 0 ? -2 : l, __ATOMIC_SEQ_CST);
	if (l >= 0)
		r->ret = libpidfd_get_info(r->pidfd, &r->info, sizeof(r->info));
	return NULL;
}

static bool move_at_first_stop(int stop, const struct seccomp_notif *req,
			       struct seccomp_notif_resp *resp, void *arg)
{
	struct race *r = arg;

	(void)stop;
	(void)req;
	(void)resp;
	if (r->done)
		return false;
	util_cgroup_move(r->b, r->pid);
	util_cgroup_remove(r->a);
	ASSERT_EQ(mkdir(r->a, 0755), 0);
	r->done = true;
	return false;
}

TEST(cgroup_made_anew_under_the_old_path_is_never_the_answer)
{
	static struct race r;
	uint64_t b_id, new_a_id;
	pthread_t w;

	make_base();
	sub(r.a, sizeof(r.a), "a");
	sub(r.b, sizeof(r.b), "b");
	ASSERT_EQ(mkdir(r.a, 0755), 0);
	ASSERT_EQ(mkdir(r.b, 0755), 0);
	r.pid = spawn_in(r.a, &r.pidfd);
	b_id = util_cgroup_id(r.b);
	util_set_path(true);
	r.info.mask = PIDFD_INFO_CGROUPID;
	r.listener = -1;
	ASSERT_EQ(pthread_create(&w, NULL, race_worker, &r), 0);
	ASSERT_TRUE(util_notif_serve(&r.listener, move_at_first_stop, &r) > 0);
	pthread_join(w, NULL);
	ASSERT_TRUE(r.done);
	new_a_id = util_cgroup_id(r.a);
	ASSERT_EQ(r.ret, 0);
	if (r.info.mask & PIDFD_INFO_CGROUPID) {
		ASSERT_TRUE(r.info.cgroupid != new_a_id);
		ASSERT_EQ(r.info.cgroupid, b_id);
	}
	ASSERT_EQ(kernel_id(r.pidfd, b_id), b_id);
	util_kill_reap(r.pidfd);
	util_cgroup_remove(r.a);
	util_cgroup_remove(r.b);
	util_cgroup_remove(g_base);
}

/*
 * The same race one step later: at the first resolution the process moves
 * to b and a is made anew (a2); at the second read, a2 is removed, made
 * anew again (a3) and the process moved into it. Both reads then name a,
 * but a2, which the first resolution found, was never the process's: the
 * second resolution finds a3 and the call tries again.
 */
struct race2 {
	struct race r;
	int state;        /* 1: moved at the resolution; 2: and at the read */
	uint64_t a2_id, a3_id;
};

static bool move_at_both_stops(int stop, const struct seccomp_notif *req,
			       struct seccomp_notif_resp *resp, void *arg)
{
	struct race2 *x = arg;

	(void)stop;
	(void)resp;
	if (x->state == 0 && req->data.nr == SYS_name_to_handle_at) {
		util_cgroup_move(x->r.b, x->r.pid);
		util_cgroup_remove(x->r.a);
		ASSERT_EQ(mkdir(x->r.a, 0755), 0);
		x->a2_id = util_cgroup_id(x->r.a);
		x->state = 1;
	} else if (x->state == 1 && req->data.nr == SYS_openat2) {
		util_cgroup_remove(x->r.a);
		ASSERT_EQ(mkdir(x->r.a, 0755), 0);
		x->a3_id = util_cgroup_id(x->r.a);
		util_cgroup_move(x->r.a, x->r.pid);
		x->state = 2;
	}
	return false;
}

TEST(cgroup_made_anew_twice_between_the_reads_is_never_the_answer)
{
	static struct race2 x;
	struct race *r = &x.r;
	uint64_t b_id;
	pthread_t w;

	make_base();
	sub(r->a, sizeof(r->a), "a");
	sub(r->b, sizeof(r->b), "b");
	ASSERT_EQ(mkdir(r->a, 0755), 0);
	ASSERT_EQ(mkdir(r->b, 0755), 0);
	r->pid = spawn_in(r->a, &r->pidfd);
	b_id = util_cgroup_id(r->b);
	util_set_path(true);
	r->info.mask = PIDFD_INFO_CGROUPID;
	r->listener = -1;
	r->also = SYS_openat2;
	ASSERT_EQ(pthread_create(&w, NULL, race_worker, r), 0);
	ASSERT_TRUE(util_notif_serve(&r->listener, move_at_both_stops, &x) > 0);
	pthread_join(w, NULL);
	ASSERT_EQ(x.state, 2); /* the file was opened again to be read */
	ASSERT_EQ(r->ret, 0);
	if (r->info.mask & PIDFD_INFO_CGROUPID) {
		ASSERT_TRUE(r->info.cgroupid != x.a2_id);
		ASSERT_TRUE(r->info.cgroupid == x.a3_id ||
			    r->info.cgroupid == b_id);
	}
	ASSERT_EQ(kernel_id(r->pidfd, x.a3_id), x.a3_id);
	util_kill_reap(r->pidfd);
	util_cgroup_remove(r->a);
	util_cgroup_remove(r->b);
	util_cgroup_remove(g_base);
}

