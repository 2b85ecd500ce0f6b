/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ------------------------------------------------------------------------
 * The floors: the system calls no race-free /proc answer can skip, made
 * raw (syscall(2), no stdio), and the same with the cheapest sound proof
 * that /proc is a procfs of our pid namespace.
 */

#include "bench.h"

static char g_fdinfo_abs[T_COUNT][64], g_status_abs[T_COUNT][64];
static char g_fdinfo_rel[T_COUNT][64], g_status_rel[T_COUNT][64];
static char g_cgroup_abs[T_COUNT][64], g_cgroup_rel[T_COUNT][64];
char g_cgroup_dir[512]; /* our cgroup2 directory, for name_to_handle_at */

/*
 * Relative to a held /proc, a file is opened as the sound path must: with
 * openat2 RESOLVE_NO_XDEV where the kernel has it, so that nothing mounted
 * inside /proc is read as its own; the plain floor opens by path.
 */
static int raw_open(int dirfd, const char *path)
{
	struct lpfd_open_how how = { .flags = O_RDONLY | O_CLOEXEC,
				     .resolve = LPFD_RESOLVE_NO_XDEV };
	long fd = -1;

	if (dirfd != AT_FDCWD && lpfd_kernel_has(LPFD_FEAT_OPENAT2) > 0)
		fd = syscall(__NR_openat2, dirfd, path, &how, sizeof(how));
	else
		fd = syscall(SYS_openat, dirfd, path, O_RDONLY | O_CLOEXEC);
	return (int)fd;
}

/*
 * A link under a held /proc, read as the sound path must: the link itself
 * reached without crossing a mount (openat2, O_PATH), then read.
 */
static long raw_readlink(int dirfd, const char *path, char *buf, size_t size)
{
	struct lpfd_open_how how = { .flags = O_PATH | O_NOFOLLOW | O_CLOEXEC,
				     .resolve = LPFD_RESOLVE_NO_XDEV |
						LPFD_RESOLVE_NO_MAGICLINKS };
	long fd, n;

	if (lpfd_kernel_has(LPFD_FEAT_OPENAT2) <= 0)
		return syscall(SYS_readlinkat, dirfd, path, buf, size);
	fd = syscall(__NR_openat2, dirfd, path, &how, sizeof(how));
	if (fd < 0)
		return -1;
	n = syscall(SYS_readlinkat, (int)fd, "", buf, size);
	syscall(SYS_close, (int)fd);
	return n;
}

/* Read a file, then close it. */
static int raw_read(int dirfd, const char *path, size_t size)
{
	char buf[1024];
	int fd = raw_open(dirfd, path);
	long n;

	if (fd < 0)
		return -1;
	n = syscall(SYS_read, fd, buf, size < sizeof(buf) ? size : sizeof(buf));
	syscall(SYS_close, fd);
	return n > 0 ? 0 : -1;
}

static int cgroup_handle_flags(void *mnt_id, int flags)
{
	struct {
		struct file_handle fh;
		unsigned char buf[64];
	} h;

	h.fh.handle_bytes = sizeof(h.buf);
	return (int)syscall(SYS_name_to_handle_at, AT_FDCWD, g_cgroup_dir, &h.fh,
			    mnt_id, flags);
}

static int raw_cgroup_handle(void)
{
	int mnt_id;

	return cgroup_handle_flags(&mnt_id, 0);
}

bool handle_names_unique_mount(void)
{
	uint64_t mnt;

	return cgroup_handle_flags(&mnt, AT_HANDLE_MNT_ID_UNIQUE) == 0;
}

/* fdinfo, status, signal 0 (and the cgroup file and its handle). */
static int floor_reads(int dirfd, const struct row *r, bool rel)
{
	bool cg = r->mask & PIDFD_INFO_CGROUPID;
	int t = r->t;

	if (raw_read(dirfd, rel ? g_fdinfo_rel[t] : g_fdinfo_abs[t], 511) < 0 ||
	    raw_read(dirfd, rel ? g_status_rel[t] : g_status_abs[t], 511) < 0)
		return -1;
	if (cg && (raw_read(dirfd, rel ? g_cgroup_rel[t] : g_cgroup_abs[t],
			    1023) < 0 || raw_cgroup_handle() < 0))
		return -1;
	return (int)syscall(SYS_pidfd_send_signal, g_fd[t], 0, NULL, 0);
}

int op_floor_info(const struct row *r)
{
	return floor_reads(AT_FDCWD, r, false);
}

/*
 * The proofs that /proc is a procfs of our pid namespace, cheapest first:
 * which of them this kernel and our rights allow is found at start-up.
 */
const char *const proof_name[PR_COUNT] = {
	"statx unique mount id + readlink thread-self/ns/pid",
	"readlink 1/ns/pid + thread-self/ns/pid",
	"open+read+close self/status (NSpid)",
};
static bool g_proof_ok[PR_COUNT];
enum proof g_proof;
static int g_proc_dir = -1; /* /proc, O_PATH, for the rows of one proof */

static int proof_remembered(int dir)
{
	struct statx sx;
	char link[64];

	if (syscall(SYS_statx, dir, "", AT_EMPTY_PATH, STATX_MNT_ID_UNIQUE,
		    &sx) < 0 || !(sx.stx_mask & STATX_MNT_ID_UNIQUE))
		return -1;
	return raw_readlink(dir, "thread-self/ns/pid", link,
		       sizeof(link)) > 0 ? 0 : -1;
}

static int proof_init(int dir)
{
	char a[64], b[64];

	if (raw_readlink(dir, "thread-self/ns/pid", a, sizeof(a)) <= 0 ||
	    raw_readlink(dir, "1/ns/pid", b, sizeof(b)) <= 0)
		return -1;
	return 0;
}

static int proof_nspid(int dir)
{
	return raw_read(dir, "self/status", 1023);
}

static int (*const proof_fn[PR_COUNT])(int dir) = {
	proof_remembered, proof_init, proof_nspid,
};

static int op_proof(const struct row *r)
{
	return proof_fn[r->mask](g_proc_dir);
}

/* Cheaper, and unsound: the same pid may be ours in two namespaces. */
static int op_unsound_self(const struct row *r)
{
	char link[32];

	(void)r;
	return syscall(SYS_readlinkat, g_proc_dir, "self", link, sizeof(link)) >
			       0 && syscall(SYS_getpid) > 0 ? 0 : -1;
}

/*
 * One procfs for the whole answer: open, check it is procfs (unless the
 * remembered proof names its mount, a procfs's), close.
 */
static int open_proc_dir(bool check)
{
	struct statfs sfs;
	int dir = (int)syscall(SYS_openat, AT_FDCWD, "/proc",
			       O_PATH | O_DIRECTORY | O_CLOEXEC);

	if (dir < 0 || !check)
		return dir;
	if (syscall(SYS_fstatfs, dir, &sfs) < 0 ||
	    sfs.f_type != PROC_SUPER_MAGIC) {
		syscall(SYS_close, dir);
		return -1;
	}
	return dir;
}

static int op_proc_dir(const struct row *r)
{
	int dir = open_proc_dir(true);

	(void)r;
	if (dir < 0)
		return -1;
	return (int)syscall(SYS_close, dir);
}

/*
 * /proc names cgroups relative to the reader's cgroup namespace: a cgroup2
 * mount is known only for one, which each call must check is ours.
 */
static int cgroup_ns_known(int dir)
{
	char link[64];

	return raw_readlink(dir, "thread-self/ns/cgroup", link,
		       sizeof(link)) > 0 ? 0 : -1;
}

/*
 * The sound floor: what a race-free answer cannot skip, each descriptor
 * closed. With the cgroup id, the cgroup file is read and its path
 * resolved twice, which soundness needs (src/cgroup.c says why).
 */
int op_sound_floor(const struct row *r)
{
	bool cg = r->mask & PIDFD_INFO_CGROUPID;
	int dir = open_proc_dir(g_proof != PR_REMEMBERED), ret;

	if (dir < 0)
		return -1;
	ret = proof_fn[g_proof](dir);
	if (ret == 0 && cg)
		ret = cgroup_ns_known(dir);
	if (ret == 0)
		ret = floor_reads(dir, r, true);
	if (ret == 0 && cg &&
	    (raw_read(dir, g_cgroup_rel[r->t], 1023) < 0 || raw_cgroup_handle() < 0))
		ret = -1;
	syscall(SYS_close, dir);
	return ret;
}

/* /proc, opened and proven ours the cheapest sound way: its fd, or -1. */
int sound_proc_dir(void)
{
	int dir = open_proc_dir(g_proof != PR_REMEMBERED);

	if (dir >= 0 && proof_fn[g_proof](dir) < 0) {
		syscall(SYS_close, dir);
		return -1;
	}
	return dir;
}

/*
 * A copy that EFAULTs, never crashes, even where another thread unmaps
 * the memory meanwhile: process_vm_readv on the calling thread (gettid,
 * the one task sure to have our memory), as src/user.c makes it.
 */
static void copy_on(pid_t tid, void *dst, const void *src, size_t n)
{
	struct iovec to = { dst, n }, from = { (void *)src, n };

	syscall(SYS_process_vm_readv, tid, &to, 1, &from, 1, 0);
}

void copy_by_kernel(void *dst, const void *src, size_t n)
{
	copy_on((pid_t)syscall(SYS_gettid), dst, src, n);
}

void find_proofs(void)
{
	g_proc_dir = open_proc_dir(true);
	if (g_proc_dir < 0)
		die("/proc is not procfs");
	for (int p = PR_COUNT - 1; p >= 0; p--) {
		g_proof_ok[p] = proof_fn[p](g_proc_dir) == 0;
		if (g_proof_ok[p])
			g_proof = (enum proof)p;
	}
}

void floor_paths(void)
{
	for (int t = 0; t < T_COUNT; t++) {
		snprintf(g_fdinfo_rel[t], 64, "thread-self/fdinfo/%d", g_fd[t]);
		snprintf(g_status_rel[t], 64, "%d/status", (int)g_pid[t]);
		snprintf(g_cgroup_rel[t], 64, "%d/cgroup", (int)g_pid[t]);
		snprintf(g_fdinfo_abs[t], 64, "/proc/%s", g_fdinfo_rel[t]);
		snprintf(g_status_abs[t], 64, "/proc/%s", g_status_rel[t]);
		snprintf(g_cgroup_abs[t], 64, "/proc/%s", g_cgroup_rel[t]);
	}
}

/* What proving /proc ours costs, each way this kernel allows, and less. */
static int r_proc_dir, r_proof[PR_COUNT], r_unsound;

void add_proof_rows(void)
{
	static const char g[] = "proving /proc is ours (O_PATH dir held open)";
	char l[96];

	r_proc_dir = add(g, "open /proc O_PATH + fstatfs + close", op_proc_dir,
			 T_SELF, 0, P_NONE, 0);
	for (int p = 0; p < PR_COUNT; p++) {
		r_proof[p] = -1;
		if (!g_proof_ok[p])
			continue;
		snprintf(l, sizeof(l), "%s", proof_name[p]);
		r_proof[p] = add(g, l, op_proof, T_SELF, (uint64_t)p, P_NONE, 0);
	}
	r_unsound = add(g, "unsound: readlink self + getpid", op_unsound_self,
			T_SELF, 0, P_NONE, 0);
}

/* Where the cgroup2 file system shows our own cgroup (for a kernel row). */
void find_cgroup_dir(void)
{
	char line[1024], cg[512] = "", mnt[256] = "", root[256] = "";
	FILE *f = fopen("/proc/self/cgroup", "re");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "0::%511s", cg) == 1)
			break;
	if (f)
		fclose(f);
	f = fopen("/proc/self/mountinfo", "re");
	while (f && fgets(line, sizeof(line), f)) {
		const char *dash = strstr(line, " - cgroup2 ");

		if (dash && sscanf(line, "%*d %*d %*s %255s %255s", root,
				   mnt) == 2)
			break;
		mnt[0] = '\0';
	}
	if (f)
		fclose(f);
	if (!mnt[0] || !cg[0])
		die("no cgroup2 mount or cgroup");
	snprintf(g_cgroup_dir, sizeof(g_cgroup_dir), "%s%s", mnt,
		 strcmp(root, "/") == 0 ? cg : "");
}
