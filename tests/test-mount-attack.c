/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The mount-attack matrix: whoever controls the caller's mount namespace
 * can put any mount over any /proc path, and the library must still give
 * the kernel's answer or fail with ENOSYS (what it says for a /proc it
 * cannot trust), never another process's or namespace's data.
 *
 * Each attack runs in a child of its own, in a mount namespace of its
 * own: every call is made on both paths, for a pidfd of a target and for
 * each sentinel, first with /proc intact (the reference, which on the
 * kernel's path is the kernel's answer), then with the mounts in place.
 * The decoy whose files are mounted over the target's lives in other
 * uts, net, ipc, cgroup and mount namespaces, with another pid, so that
 * an answer read through a mount differs from the reference. Every call
 * that returns a descriptor returns the lowest free one, as the kernel.
 *
 * The matrix is made twice: as root, and unprivileged in a user and mount
 * namespace of its own, as any user can.
 */
#include <fcntl.h>
#include <grp.h>
#include <linux/mount.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/uio.h>

#include "internal.h"
#include "util.h"

#define NS_COUNT 10

static const unsigned long ns_cmd[NS_COUNT] = {
	PIDFD_GET_CGROUP_NAMESPACE, PIDFD_GET_IPC_NAMESPACE,
	PIDFD_GET_MNT_NAMESPACE,    PIDFD_GET_NET_NAMESPACE,
	PIDFD_GET_PID_NAMESPACE,    PIDFD_GET_PID_FOR_CHILDREN_NAMESPACE,
	PIDFD_GET_TIME_NAMESPACE,   PIDFD_GET_TIME_FOR_CHILDREN_NAMESPACE,
	PIDFD_GET_USER_NAMESPACE,   PIDFD_GET_UTS_NAMESPACE,
};
static const char *const ns_name[NS_COUNT] = {
	"cgroup", "ipc", "mnt", "net", "pid", "pid_for_children", "time",
	"time_for_children", "user", "uts",
};

/* The calls: each namespace command is one. */
enum call {
	K_NS,
	K_INFO = K_NS + NS_COUNT,
	K_GETPID,
	K_SIGNAL,
	K_OPEN,
	K_GETFD,
	K_WAITID,
	K_MADVISE,
	K_MRELEASE,
	K_PROC_STATUS,
	K_PROC_NS_NET,
	K_READLINK,
	K_COUNT
};

#define TARGETS 4 /* the target's pidfd, then the sentinels */

struct result {
	long ret;
	int err;
	uint64_t v[2];
	char text[64];
	struct pidfd_info info;
};

/* Each child's copy: the processes the calls are made on. */
struct world {
	pid_t target, decoy;
	int tfd, dfd;
	int shared_fd; /* a pipe end the target has at the same number */
	bool unprivileged;
};

static struct world the_world, *w = &the_world;

/* The counts, shared by the children that make the matrix. */
static struct counts {
	unsigned long cases, failures;
} *count;

/* What the kernel would give next: the lowest free number. */
static int lowest_free(void)
{
	int fd = fcntl(0, F_DUPFD_CLOEXEC, 0);

	if (fd < 0)
		FAIL("F_DUPFD: %s", strerror(errno));
	close(fd);
	return fd;
}

/* A descriptor answer: what it is, then closed; and at the lowest number. */
static void take_fd(struct result *r, int want, const char *what)
{
	struct stat st;

	if (r->ret < 0)
		return;
	if (r->ret != want) {
		printf("# %s: fd %ld where the kernel gives %d\n", what, r->ret,
		       want);
		count->failures++;
	}
	if (fstat((int)r->ret, &st) != 0)
		FAIL("fstat: %s", strerror(errno));
	r->v[0] = st.st_dev;
	r->v[1] = st.st_ino;
	close((int)r->ret);
	r->ret = 0;
}

/* The Pid: line of a status file opened by proc_open. */
static void status_pid(struct result *r)
{
	char buf[4096], *pid;
	ssize_t n = read((int)r->ret, buf, sizeof(buf) - 1);

	buf[n > 0 ? n : 0] = '\0';
	pid = strstr(buf, "\nPid:");
	snprintf(r->text, sizeof(r->text), "Pid %lld",
		 pid ? strtoll(pid + 5, NULL, 10) : -1LL);
}

static void call(enum call k, int fd, struct result *r)
{
	siginfo_t si;
	int want = lowest_free();

	memset(r, 0, sizeof(*r));
	errno = 0;
	if (k < K_NS + NS_COUNT) {
		r->ret = libpidfd_get_namespace(fd, ns_cmd[k]);
		r->err = errno;
		take_fd(r, want, ns_name[k]);
		return;
	}
	switch (k) {
	case K_INFO:
		r->info.mask = PIDFD_INFO_PID | PIDFD_INFO_CREDS |
			       PIDFD_INFO_CGROUPID;
		r->ret = libpidfd_get_info(fd, &r->info, sizeof(r->info));
		break;
	case K_GETPID:
		r->ret = libpidfd_getpid(fd);
		break;
	case K_SIGNAL:
		r->ret = libpidfd_send_signal(fd, 0, NULL, 0);
		break;
	case K_OPEN:
		r->ret = libpidfd_open(fd == w->tfd ? w->target : getpid(), 0);
		r->err = errno;
		take_fd(r, want, "open");
		return;
	case K_GETFD:
		r->ret = libpidfd_getfd(fd, w->shared_fd, 0);
		r->err = errno;
		take_fd(r, want, "getfd");
		return;
	case K_WAITID:
		memset(&si, 0, sizeof(si));
		r->ret = libpidfd_waitid(fd, &si, WEXITED | WNOHANG, NULL);
		r->v[0] = (uint64_t)si.si_pid;
		break;
	case K_MADVISE:
		r->ret = libpidfd_process_madvise(fd, NULL, 0, MADV_COLD, 0);
		break;
	case K_MRELEASE:
		r->ret = libpidfd_process_mrelease(fd, 0);
		break;
	case K_PROC_STATUS:
		r->ret = libpidfd_proc_open(fd, "status", O_RDONLY);
		r->err = errno;
		if (r->ret >= 0)
			status_pid(r);
		take_fd(r, want, "proc_open(status)");
		return;
	case K_PROC_NS_NET:
		r->ret = libpidfd_proc_open(fd, "ns/net", O_RDONLY);
		r->err = errno;
		take_fd(r, want, "proc_open(ns/net)");
		return;
	case K_READLINK:
		r->ret = libpidfd_proc_readlink(fd, "ns/uts", r->text,
						sizeof(r->text) - 1);
		break;
	default:
		break;
	}
	r->err = r->ret < 0 ? errno : 0;
}

static const char *call_name(enum call k)
{
	static const char *const rest[] = {
		"get_info", "getpid", "send_signal", "open", "getfd", "waitid",
		"process_madvise", "process_mrelease", "proc_open(status)",
		"proc_open(ns/net)", "proc_readlink(ns/uts)",
	};

	return k < K_NS + NS_COUNT ? ns_name[k] : rest[k - K_INFO];
}

static int target_fd(int t)
{
	return t == 0 ? w->tfd : util_self_values[t - 1];
}

struct answers {
	struct result r[2][TARGETS][K_COUNT];
};

/*
 * Every call on both paths, each on every target. The proof of /proc
 * starts cold, as in a process of its own (which proof it can make is not
 * carried over the mounts); the cgroup2 mount it remembered from before
 * our cgroup namespace was made is, as in any process that unshares one.
 */
static void answer_all(struct answers *a)
{
	lpfd_proc_reset();
	for (int path = 0; path < 2; path++) {
		util_set_path(path == 1);
		for (int t = 0; t < TARGETS; t++)
			for (int k = 0; k < K_COUNT; k++)
				call((enum call)k, target_fd(t), &a->r[path][t][k]);
	}
}

static bool same(const struct result *a, const struct result *b)
{
	return a->ret == b->ret && a->err == b->err && a->v[0] == b->v[0] &&
	       a->v[1] == b->v[1] && strcmp(a->text, b->text) == 0 &&
	       memcmp(&a->info, &b->info, sizeof(a->info)) == 0;
}

/*
 * get_info may leave PIDFD_INFO_CGROUPID clear where it cannot know the
 * cgroup (libpidfd_get_info(3)): the rest must be the reference.
 */
static bool same_without_cgroup(const struct result *a, const struct result *b)
{
	struct result c = *a;

	if (b->info.mask & PIDFD_INFO_CGROUPID)
		return false;
	c.info.mask &= ~(uint64_t)PIDFD_INFO_CGROUPID;
	c.info.cgroupid = 0;
	return same(&c, b);
}

/* The attacked answer is the reference, or ENOSYS: nothing else. */
static void compare(const char *attack, const struct answers *ref,
		    const struct answers *got)
{
	for (int path = 0; path < 2; path++)
		for (int t = 0; t < TARGETS; t++)
			for (int k = 0; k < K_COUNT; k++) {
				const struct result *a = &ref->r[path][t][k];
				const struct result *b = &got->r[path][t][k];

				count->cases++;
				if (same(a, b) || (b->ret < 0 && b->err == ENOSYS) ||
				    (k == K_INFO && same_without_cgroup(a, b)))
					continue;
				count->failures++;
				if (k == K_INFO)
					printf("# pid %u/%u tgid %u ppid %u/%u "
					       "ruid %u/%u cgroup %llu/%llu mask "
					       "%llx/%llx\n", b->info.pid,
					       a->info.pid, b->info.tgid,
					       b->info.ppid, a->info.ppid,
					       b->info.ruid, a->info.ruid,
					       (unsigned long long)b->info.cgroupid,
					       (unsigned long long)a->info.cgroupid,
					       (unsigned long long)b->info.mask,
					       (unsigned long long)a->info.mask);
				printf("# %s%s, %s path, %s %d: %ld/%s v %llu/%llu "
				       "'%s', reference %ld/%s v %llu/%llu '%s'\n",
				       w->unprivileged ? "unprivileged, " : "",
				       attack, path ? "emulated" : "kernel's",
				       call_name((enum call)k), target_fd(t),
				       b->ret, strerror(b->err),
				       (unsigned long long)b->v[0],
				       (unsigned long long)b->v[1], b->text,
				       a->ret, strerror(a->err),
				       (unsigned long long)a->v[0],
				       (unsigned long long)a->v[1], a->text);
			}
}

/* ------------------------------------------------------------------------
 * The attacks. Each mounts over /proc in the calling child's own mount
 * namespace; a path's own mount is made with the new mount API so that a
 * link itself (ns/net, self) can be covered, not what it leads to.
 */
static void cover(const char *src, const char *dst, bool src_link)
{
	int tree = (int)syscall(SYS_open_tree, AT_FDCWD, src,
				OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC |
					(src_link ? AT_SYMLINK_NOFOLLOW : 0));
	int at = open(dst, O_PATH | O_NOFOLLOW | O_CLOEXEC);

	if (tree < 0 || at < 0 ||
	    syscall(SYS_move_mount, tree, "", at, "",
		    MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) != 0)
		FAIL("mount %s over %s: %s", src, dst, strerror(errno));
	close(tree);
	close(at);
}

/*
 * /proc/<decoy>/<sub> over /proc/<pid>/<sub>. The kernel binds no mount
 * namespace where it could make a loop: the decoy's net namespace covers
 * ns/mnt instead.
 */
static void cover_pid(pid_t pid, const char *sub)
{
	char src[96], dst[96];

	snprintf(src, sizeof(src), "/proc/%d%s", (int)w->decoy,
		 strcmp(sub, "/ns/mnt") == 0 ? "/ns/net" : sub);
	snprintf(dst, sizeof(dst), "/proc/%d%s", (int)pid, sub);
	cover(src, dst, false);
}

/* The same under our thread's directory and our own (in that order). */
static void cover_ours(const char *sub)
{
	char src[96], dst[96];
	int me = (int)getpid(), d = (int)w->decoy;

	snprintf(src, sizeof(src), "/proc/%d/task/%d%s", d, d,
		 strcmp(sub, "/ns/mnt") == 0 ? "/ns/net" : sub);
	snprintf(dst, sizeof(dst), "/proc/%d/task/%d%s", me, me, sub);
	cover(src, dst, false);
	cover_pid(me, sub);
}

/* A link of ours, "self" or "thread-self", made to name the decoy. */
static void cover_self_link(const char *name, const char *to)
{
	char dst[64];

	if (mount("tmpfs", "/tmp", "tmpfs", 0, NULL) != 0)
		FAIL("tmpfs: %s", strerror(errno));
	if (symlink(to, "/tmp/link") != 0)
		FAIL("symlink: %s", strerror(errno));
	snprintf(dst, sizeof(dst), "/proc/%s", name);
	cover("/tmp/link", dst, true);
}

struct attack {
	const char *name;
	void (*make)(const struct attack *a);
	const char *sub; /* the path under /proc/<pid> it covers */
	bool in_pidns;   /* the caller is the init of a child pid namespace */
};

static void on_init(const struct attack *a)
{
	(void)a;
	cover_pid(1, "");
}

/*
 * The init of a child pid namespace whose /proc is still the parent's: its
 * own directory there (its pid namespace's init) over the parent's 1.
 */
static void on_init_from_inside(const struct attack *a)
{
	char outer[32], src[48];
	ssize_t n = readlink("/proc/self", outer, sizeof(outer) - 1);

	(void)a;
	if (n <= 0)
		FAIL("/proc/self: %s", strerror(errno));
	outer[n] = '\0';
	snprintf(src, sizeof(src), "/proc/%s", outer);
	cover(src, "/proc/1", false);
}

static void on_target(const struct attack *a)
{
	cover_pid(w->target, a->sub);
}

static void on_both(const struct attack *a)
{
	cover_pid(w->target, a->sub);
	cover_ours(a->sub);
}

static void on_self(const struct attack *a)
{
	char to[32];

	(void)a;
	snprintf(to, sizeof(to), "%d", (int)w->decoy);
	cover_self_link("self", to);
}

static void on_thread_self(const struct attack *a)
{
	char to[48];

	(void)a;
	snprintf(to, sizeof(to), "%d/task/%d", (int)w->decoy, (int)w->decoy);
	cover_self_link("thread-self", to);
}

static void tmpfs_proc(const struct attack *a)
{
	(void)a;
	if (mount("tmpfs", "/proc", "tmpfs", 0, NULL) != 0)
		FAIL("tmpfs at /proc: %s", strerror(errno));
}

/*
 * A child pid namespace's procfs at /proc, mounted by its init, whose
 * parent makes the namespace: the caller's own namespaces stay as they are.
 */
static void child_pidns_proc(const struct attack *a)
{
	int status = 0;
	pid_t pid;

	(void)a;
	pid = fork();
	if (pid == 0) {
		if (unshare(CLONE_NEWPID) != 0)
			_exit(2);
		pid = fork();
		if (pid == 0)
			_exit(mount("proc", "/proc", "proc", 0, NULL) == 0 ? 0 : 1);
		_exit(pid > 0 && waitpid(pid, &status, 0) == pid ? status >> 8 : 3);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || status != 0)
		FAIL("a child pid namespace's procfs (status 0x%x)", status);
}

#define NS_ATTACK(x) { "/proc/<pid>/ns/" x " covered", on_both, "/ns/" x, false }

static const struct attack attacks[] = {
	{ "/proc/1 covered", on_init, "", false },
	{ "in a child pid namespace, /proc/1 covered by our own",
	  on_init_from_inside, "", true },
	{ "/proc/<pid> covered", on_target, "", false },
	{ "our /proc/<pid> covered", on_both, "", false },
	{ "/proc/<pid>/ns covered", on_both, "/ns", false },
	NS_ATTACK("cgroup"), NS_ATTACK("ipc"), NS_ATTACK("mnt"),
	NS_ATTACK("net"), NS_ATTACK("pid"), NS_ATTACK("pid_for_children"),
	NS_ATTACK("time"), NS_ATTACK("time_for_children"), NS_ATTACK("user"),
	NS_ATTACK("uts"),
	{ "/proc/self covered", on_self, "", false },
	{ "/proc/thread-self covered", on_thread_self, "", false },
	{ "status covered", on_both, "/status", false },
	{ "stat covered", on_both, "/stat", false },
	{ "cgroup covered", on_both, "/cgroup", false },
	{ "fdinfo covered", on_both, "/fdinfo", false },
	{ "a tmpfs at /proc", tmpfs_proc, "", false },
	{ "a child pid namespace's procfs at /proc", child_pidns_proc, "", false },
};

/* A namespace link the decoy lacks (time, on an old kernel) covers nothing. */
static bool attack_applies(const struct attack *a)
{
	char path[96];

	if (strncmp(a->sub, "/ns/", 4) != 0)
		return true;
	snprintf(path, sizeof(path), "/proc/%d%s", (int)w->decoy, a->sub);
	return access(path, F_OK) == 0 || errno != ENOENT;
}

/*
 * Where the kernel has PIDFD_GET_INFO, the emulation's reference is the
 * kernel's answer, field by field, or leaves the cgroup out, or is ENOSYS
 * (a /proc of another pid namespace).
 */
static void paths_agree(const char *attack, const struct answers *ref)
{
	if (!util_kernel_has(LPFD_FEAT_GET_INFO) || getenv("LIBPIDFD_EMULATE"))
		return;
	for (int t = 0; t < TARGETS; t++) {
		const struct result *k = &ref->r[0][t][K_INFO];
		const struct result *e = &ref->r[1][t][K_INFO];

		count->cases++;
		if (same(k, e) || same_without_cgroup(k, e) ||
		    (e->ret < 0 && e->err == ENOSYS))
			continue;
		count->failures++;
		printf("# %s, get_info %d before the mounts: emulated %ld/%s "
		       "cgroup %llu mask %llx, the kernel's %llu mask %llx\n",
		       attack, target_fd(t), e->ret, strerror(e->err),
		       (unsigned long long)e->info.cgroupid,
		       (unsigned long long)e->info.mask,
		       (unsigned long long)k->info.cgroupid,
		       (unsigned long long)k->info.mask);
	}
}

/* An emulated cgroup id asked in the initial cgroup namespace. */
static void remember_cgroup_mount(void)
{
	struct pidfd_info info = { .mask = PIDFD_INFO_CGROUPID };

	util_set_path(true);
	if (libpidfd_get_info(PIDFD_SELF_THREAD_GROUP, &info, sizeof(info)) != 0)
		FAIL("get_info: %s", strerror(errno));
}

/*
 * A target: in a cgroup namespace of its own, as ours is by the time the
 * calls are made, so that the decoy's (the initial one) is another.
 */
static void target_main(void *arg)
{
	(void)arg;
	if (unshare(CLONE_NEWCGROUP) != 0)
		_exit(96);
}

static void private_mounts(void)
{
	if (unshare(CLONE_NEWNS) != 0 ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
		FAIL("private mounts: %s", strerror(errno));
}

static void run_attack(const struct attack *a)
{
	static struct answers ref, got;

	if (a->in_pidns) {
		int status = 0;
		pid_t pid;

		if (unshare(CLONE_NEWPID) != 0)
			FAIL("pid namespace: %s", strerror(errno));
		pid = fork();
		if (pid < 0 || (pid > 0 && (waitpid(pid, &status, 0) != pid ||
					    status != 0)))
			FAIL("%s: init status 0x%x", a->name, status);
		if (pid > 0)
			return;
		/* A target of our own, whose pid means another here. */
		w->target = util_spawn(target_main, NULL, &w->tfd);
	}
	/*
	 * The emulation's cgroup lookup is remembered in our own mount
	 * namespace (made before, its mounts' copies here have other ids and
	 * the remembered mount would never be used), in the initial cgroup
	 * namespace; then we leave that for one of our own, as a process in
	 * a container does.
	 */
	private_mounts();
	remember_cgroup_mount();
	if (unshare(CLONE_NEWCGROUP) != 0)
		FAIL("cgroup namespace: %s", strerror(errno));
	answer_all(&ref);
	paths_agree(a->name, &ref);
	a->make(a);
	answer_all(&got);
	compare(a->name, &ref, &got);
}

/* Each attack in a child, whose counts come back through the shared world. */
static void run_attacks(void)
{
	for (size_t i = 0; i < UTIL_COUNT(attacks); i++) {
		int status;
		pid_t pid;

		if (!attack_applies(&attacks[i]))
			continue;
		pid = fork();
		if (pid < 0)
			FAIL("fork: %s", strerror(errno));
		if (pid == 0) {
			run_attack(&attacks[i]);
			fflush(stdout);
			_exit(0);
		}
		if (waitpid(pid, &status, 0) != pid || status != 0)
			FAIL("%s: child status 0x%x", attacks[i].name, status);
	}
}

static char cgroup[512], decoy_cgroup[600];

/*
 * The decoy: other namespaces than the target's, its cgroup namespace
 * rooted in another cgroup where we may make one; waiting to be killed.
 */
static void decoy_main(void *arg)
{
	(void)arg;
	if (decoy_cgroup[0])
		util_cgroup_move(decoy_cgroup, getpid());
	if (unshare(CLONE_NEWUTS | CLONE_NEWNET | CLONE_NEWIPC |
		    CLONE_NEWNS) != 0)
		_exit(96);
}

/* The target, with a pipe end at our number of it. */
static void make_target(void)
{
	int p[2];

	if (pipe2(p, O_CLOEXEC) != 0)
		FAIL("pipe: %s", strerror(errno));
	w->shared_fd = p[0];
	w->target = util_spawn(target_main, NULL, &w->tfd);
	close(p[1]);
}

static void end_world(void)
{
	util_kill_reap(w->tfd);
	util_kill_reap(w->dfd);
	close(w->shared_fd);
}

static void write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);

	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		FAIL("%s: %s", path, strerror(errno));
	close(fd);
}

/*
 * A user and mount namespace of our own, as an unprivileged user makes
 * it: as root, first become a user that is not (any will do).
 */
static void become_unprivileged(void)
{
	uid_t uid = getuid();
	gid_t gid = getgid();
	char map[64];

	if (uid == 0) {
		uid = gid = 4242;
		if (setgroups(0, NULL) != 0 || setresgid(gid, gid, gid) != 0 ||
		    setresuid(uid, uid, uid) != 0)
			FAIL("drop privilege: %s", strerror(errno));
	}
	prctl(PR_SET_DUMPABLE, 1);
	if (unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0) {
		if (errno == EPERM || errno == ENOSPC)
			_exit(77); /* user namespaces are not for users here */
		FAIL("user namespace: %s", strerror(errno));
	}
	snprintf(map, sizeof(map), "0 %u 1", (unsigned)uid);
	write_file("/proc/self/uid_map", map);
	write_file("/proc/self/setgroups", "deny");
	snprintf(map, sizeof(map), "0 %u 1", (unsigned)gid);
	write_file("/proc/self/gid_map", map);
}

static void matrix(void *arg)
{
	w->unprivileged = arg != NULL;
	if (w->unprivileged)
		become_unprivileged();
	/*
	 * The decoy stays in the cgroup namespace we started in (the
	 * initial one, as root); ours will not (run_attack()), and where we
	 * may, it is rooted in a cgroup that is not the root: an answer
	 * read through the decoy's namespace then says another id.
	 */
	if (arg == NULL && cgroup[0]) {
		if (mkdir(cgroup, 0755) != 0)
			FAIL("mkdir %s: %s", cgroup, strerror(errno));
		util_cgroup_move(cgroup, getpid());
		snprintf(decoy_cgroup, sizeof(decoy_cgroup), "%s/decoy", cgroup);
		if (mkdir(decoy_cgroup, 0755) != 0)
			FAIL("mkdir %s: %s", decoy_cgroup, strerror(errno));
	}
	w->decoy = util_spawn(decoy_main, NULL, &w->dfd);
	make_target();
	run_attacks();
	end_world();
}

static void report(const char *how)
{
	printf("# %s: %lu cases (%zu attacks x 2 paths x %d targets x %d "
	       "calls), %lu wrong\n",
	       how, count->cases, UTIL_COUNT(attacks), TARGETS, K_COUNT,
	       count->failures);
	ASSERT_EQ(count->failures, 0UL);
	ASSERT_TRUE(count->cases > 0);
}

static void share_counts(void)
{
	count = mmap(NULL, sizeof(*count), PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (count == MAP_FAILED)
		FAIL("mmap: %s", strerror(errno));
	memset(count, 0, sizeof(*count));
}

TEST_TIMEOUT(mounts_as_root_change_no_answer, 300)
{
	const char *cg2;

	REQUIRE_PRIVILEGE("mounts over /proc as root");
	share_counts();
	cg2 = util_cgroup2_mount();
	if (cg2[0])
		snprintf(cgroup, sizeof(cgroup), "%s/mount-attack-%d", cg2,
			 (int)getpid());
	util_in_child(matrix, NULL);
	if (cgroup[0]) {
		snprintf(decoy_cgroup, sizeof(decoy_cgroup), "%s/decoy", cgroup);
		util_cgroup_remove(decoy_cgroup);
		util_cgroup_remove(cgroup);
	}
	report("as root");
}

TEST_TIMEOUT(mounts_in_a_user_namespace_change_no_answer, 300)
{
	int status;

	share_counts();
	status = util_child_status(matrix, count);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 77) {
		REQUIRE_PRIVILEGE("user namespaces are refused to users here");
		FAIL("user namespaces refused to root");
	}
	ASSERT_EQ(status, 0);
	report("unprivileged, in a user namespace");
}

/* ------------------------------------------------------------------------
 * The root cgroup. The emulation remembers the cgroup2 mount of its last
 * lookup, and uses it only in the initial cgroup namespace, which it
 * learns from our ns/cgroup link (src/cgroup.c). Covered with the link of
 * a process still there (our parent's), a link believed lets our cgroup,
 * "/" in a cgroup namespace of our own, be joined to the mount remembered
 * before: the root cgroup's id, 1. The lookup that fills the cache is made
 * in our own mount namespace, as a container's process makes it: one made
 * before unshare(CLONE_NEWNS) names mounts whose copies have other ids,
 * and no remembered mount would pass its checks.
 */
static char own_cgroup[512];

/*
 * Our emulated cgroup id through each sentinel and a pidfd: want, or (if
 * it may be unknown) none, or ENOSYS for a /proc not to be trusted.
 */
static void own_cgroupid_is(uint64_t want, bool may_be_unknown,
			    const char *when)
{
	int fds[3] = { PIDFD_SELF_THREAD_GROUP, PIDFD_SELF_THREAD,
		       libpidfd_open(getpid(), 0) };

	ASSERT_GE(fds[2], 0);
	util_set_path(true);
	for (int i = 0; i < 3; i++) {
		struct pidfd_info info = { .mask = PIDFD_INFO_CGROUPID };
		int r = libpidfd_get_info(fds[i], &info, sizeof(info));

		if (may_be_unknown && (r < 0 ? errno == ENOSYS :
				       !(info.mask & PIDFD_INFO_CGROUPID)))
			continue;
		ASSERT_EQ(r, 0);
		ASSERT_TRUE(info.mask & PIDFD_INFO_CGROUPID);
		if (info.cgroupid != want)
			FAIL("%s, get_info %d: cgroup id %llu, where ours is "
			     "%llu", when, fds[i],
			     (unsigned long long)info.cgroupid,
			     (unsigned long long)want);
	}
	close(fds[2]);
}

static void cgroup_ns_link(char *buf, size_t size)
{
	ssize_t n = readlink("/proc/thread-self/ns/cgroup", buf, size - 1);

	if (n < 0)
		FAIL("ns/cgroup: %s", strerror(errno));
	buf[n] = '\0';
}

/* In a cgroup namespace of our own, our parent's sub covers ours. */
static void cgroup_ns_covered(void *arg)
{
	const char *sub = arg;
	int me = (int)getpid(), parent = (int)getppid();
	uint64_t id = util_cgroup_id(own_cgroup);
	char initial[64], shown[64], src[64], dst[64];

	util_cgroup_move(own_cgroup, 0);
	private_mounts();
	own_cgroupid_is(id, false, "in the initial cgroup namespace");
	cgroup_ns_link(initial, sizeof(initial));
	if (unshare(CLONE_NEWCGROUP) != 0)
		FAIL("cgroup namespace: %s", strerror(errno));
	own_cgroupid_is(id, true, "in a cgroup namespace of our own");
	snprintf(src, sizeof(src), "/proc/%d/task/%d/%s", parent, parent,
		 sub);
	snprintf(dst, sizeof(dst), "/proc/%d/task/%d/%s", me, me, sub);
	cover(src, dst, true);
	snprintf(src, sizeof(src), "/proc/%d/%s", parent, sub);
	snprintf(dst, sizeof(dst), "/proc/%d/%s", me, sub);
	cover(src, dst, true);
	/* The attack holds: our link reads as the initial namespace's. */
	cgroup_ns_link(shown, sizeof(shown));
	if (strcmp(shown, initial) != 0)
		FAIL("covered, our link still says %s, not %s", shown, initial);
	own_cgroupid_is(id, true, "our namespace covered");
}

TEST(covered_cgroup_ns_link_gives_no_root_cgroup)
{
	static char subs[][16] = { "ns", "ns/cgroup" };
	const char *cg2 = util_cgroup2_mount();

	REQUIRE_PRIVILEGE("moves itself into a cgroup of its own");
	ASSERT_TRUE(cg2[0]);
	snprintf(own_cgroup, sizeof(own_cgroup), "%s/root-cgroup-%d", cg2,
		 (int)getpid());
	ASSERT_EQ(mkdir(own_cgroup, 0755), 0);
	for (size_t i = 0; i < UTIL_COUNT(subs); i++) {
		int status = util_child_status(cgroup_ns_covered, subs[i]);

		if (status != 0) {
			util_cgroup_remove(own_cgroup);
			FAIL("%s covered: child status 0x%x", subs[i], status);
		}
	}
	util_cgroup_remove(own_cgroup);
}
