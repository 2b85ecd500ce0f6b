/* SPDX-License-Identifier: LGPL-2.1-or-later OR MIT */
/*
 * The /proc readers of the emulation. No heap, no stdio: fixed buffers on
 * the stack and raw system calls, so that they are async-signal-safe.
 *
 * One call reads through one procfs instance: lpfd_proc_open() opens
 * /proc once (O_PATH), checks once that it is procfs and, where pids are
 * read, proves that it is a procfs of the caller's pid namespace before
 * anything read from it is believed; every file is then opened relative
 * to that descriptor, so a mount over /proc in the middle of the call
 * changes nothing the call reads. The descriptor is closed before the call
 * returns.
 */
#include <fcntl.h>
#include <linux/magic.h>
#include <signal.h>
#include <stddef.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>

#include "internal.h"
#include "syscall.h"

void lpfd_proc_path(char *buf, size_t size, const char *pre, long n,
		      const char *post)
{
	char digits[24];
	size_t o = 0, d = 0;
	unsigned long v = n < 0 ? 0UL - (unsigned long)n : (unsigned long)n;

	do
		digits[d++] = (char)('0' + v % 10);
	while ((v /= 10) && d < sizeof(digits));
	if (n < 0 && d < sizeof(digits))
		digits[d++] = '-';
	for (; *pre && o + 1 < size; pre++)
		buf[o++] = *pre;
	while (d && o + 1 < size)
		buf[o++] = digits[--d];
	for (; *post && o + 1 < size; post++)
		buf[o++] = *post;
	buf[o] = '\0';
}

void lpfd_proc_join(char *buf, size_t size, const char *dir,
		      const char *sub, const char *name)
{
	const char *parts[3] = { dir, sub, name };
	size_t o = 0;

	for (int i = 0; i < 3; i++)
		for (const char *q = parts[i]; *q && o + 1 < size; q++)
			buf[o++] = *q;
	buf[o] = '\0';
}

/*
 * Whether nothing in a /proc directory can be found: its task is gone, or,
 * while unreaped, /proc hides it from us (hidepid=2). A directory is no
 * link: readlink() finds it (EINVAL) or not (ENOENT).
 */
bool lpfd_proc_dir_gone(struct lpfd_proc *p, const char *dir,
			  const char *sub)
{
	char path[64], link[8];

	lpfd_proc_join(path, sizeof(path), dir, sub, "");
	return lpfd_proc_readlink(p, path, link, sizeof(link)) == -ENOENT;
}

bool lpfd_fd_on_fs(int fd, unsigned long magic)
{
	struct statfs sfs;

	return lpfd_sc(__NR_fstatfs, fd, &sfs, 0, 0, 0, 0) == 0 &&
	       (unsigned long)sfs.f_type == magic;
}

/*
 * The kernel's struct statx, as far as this reads it: musl 1.2.3's
 * <sys/stat.h> has none, and <linux/stat.h> would clash with later ones.
 * The kernel writes all 256 bytes.
 */
struct lpfd_statx {
	uint32_t stx_mask;
	uint32_t before_mode[6];
	uint16_t stx_mode;
	uint16_t pad;
	uint64_t stx_ino;
	uint16_t before_mnt_id[52];
	uint64_t stx_mnt_id;
	uint64_t after_mnt_id[13];
};
_Static_assert(sizeof(struct lpfd_statx) == 256 &&
	       offsetof(struct lpfd_statx, stx_mode) == 28 &&
	       offsetof(struct lpfd_statx, stx_ino) == 32 &&
	       offsetof(struct lpfd_statx, stx_mnt_id) == 144,
	       "struct statx's layout");

/*
 * Read a small file whole. If it does not fit, only whole lines are kept,
 * so that a parser never sees a number cut short. procfs's files are
 * seq_files, which hand out all they have in one read: a read that does
 * not fill the buffer has reached the end, and no second read is made to
 * be told so.
 */
static ssize_t read_whole(int fd, char *buf, size_t size)
{
	size_t len = 0;
	ssize_t n;

	while (len + 1 < size) {
		size_t want = size - 1 - len;

		n = lpfd_sys_read(fd, buf + len, want);
		if (n == -EINTR)
			continue;
		if (n < 0)
			return n;
		if (n == 0)
			break;
		len += (size_t)n;
		if ((size_t)n < want)
			break;
	}
	if (len + 1 >= size) {
		while (len && buf[len - 1] != '\n')
			len--;
	}
	buf[len] = '\0';
	return (ssize_t)len;
}

/*
 * The mount id of an open file, to tell whether a path crossed a mount
 * where openat2 cannot say (before 5.6, or refused by a filter): statx's
 * (5.8), else the fdinfo's "mnt_id:" (5.3), read through the procfs root
 * itself. Ids are compared within one call while dir holds the root's
 * mount, so that no id is reused between the two reads.
 */
static int fd_mount_id(struct lpfd_proc *p, int fd, uint64_t *id)
{
	char path[48], buf[256];
	const char *q, *end;
	long long v;
	ssize_t n;
#ifdef __NR_statx
	struct lpfd_statx sx;

	if (lpfd_sc(__NR_statx, fd, "", AT_EMPTY_PATH, STATX_MNT_ID, &sx, 0) == 0 &&
	    (sx.stx_mask & STATX_MNT_ID)) {
		*id = sx.stx_mnt_id;
		return 0;
	}
#endif
	lpfd_proc_path(path, sizeof(path), "thread-self/fdinfo/", fd, "");
	n = lpfd_sys_openat(p->dir, path, O_RDONLY | O_CLOEXEC);
	if (n < 0)
		return (int)n;
	fd = (int)n;
	n = read_whole(fd, buf, sizeof(buf));
	lpfd_sys_close(fd);
	if (n < 0)
		return (int)n;
	end = buf + n;
	for (q = buf; q && end - q >= 7 && memcmp(q, "mnt_id:", 7) != 0;)
		q = (q = memchr(q, '\n', (size_t)(end - q))) ? q + 1 : NULL;
	if (!q || end - q < 7)
		return -ENOSYS; /* no mount ids: before 5.3 nothing is proven */
	q += 7;
	while (q < end && (*q == ' ' || *q == '\t'))
		q++;
	if (lpfd_parse_int(&q, end, &v) < 0 || v < 0)
		return -ENOSYS;
	*id = (uint64_t)v;
	return 0;
}

/*
 * Whether fd, opened by a plain openat() under dir, lies on dir's own
 * mount: any mount crossed on the way (a bind over a directory or a file
 * of this procfs, a tmpfs) is another mount, with another id. -ENOSYS if
 * not, as for a procfs of another pid namespace.
 */
static int on_root_mount(struct lpfd_proc *p, int fd)
{
	uint64_t root, mnt;
	int r = fd_mount_id(p, p->dir, &root);

	if (r == 0)
		r = fd_mount_id(p, fd, &mnt);
	if (r == 0 && mnt != root)
		r = -ENOSYS;
	return r;
}

/*
 * readlinkat(fd, "") says ENOENT both for what is no link and for a link
 * whose target is gone (a task's exe after its exit): the type tells.
 */
static bool is_link(int fd)
{
#ifdef __NR_statx
	struct lpfd_statx sx;

	return lpfd_sc(__NR_statx, fd, "", AT_EMPTY_PATH, STATX_TYPE, &sx, 0) != 0 ||
	       (sx.stx_mode & S_IFMT) == S_IFLNK;
#else
	(void)fd;
	return true;
#endif
}

/*
 * Open path under the procfs root without crossing a mount, never
 * following a magic link: the one way every /proc file and link is
 * reached. openat2 (5.6) refuses a crossing (EXDEV); without it the file
 * opened is checked to lie on the root's mount. A crossing is -ENOSYS:
 * what lies beyond may describe any process, as another pid namespace's
 * procfs would.
 */
static int proc_resolve(struct lpfd_proc *p, const char *path, int flags)
{
	struct lpfd_open_how how = {
		.flags = (uint64_t)(unsigned int)(flags | O_CLOEXEC),
		.resolve = LPFD_RESOLVE_NO_XDEV | LPFD_RESOLVE_NO_MAGICLINKS,
	};
	int fd, r;

	if (lpfd_surely_has(LPFD_FEAT_OPENAT2)) {
		fd = lpfd_sys_openat2(p->dir, path, &how);
		return fd == -EXDEV ? -ENOSYS : fd;
	}
	fd = lpfd_sys_openat(p->dir, path, flags | O_CLOEXEC);
	if (fd < 0)
		return fd;
	r = on_root_mount(p, fd);
	if (r < 0) {
		lpfd_sys_close(fd);
		return r;
	}
	return fd;
}

int lpfd_proc_openat(struct lpfd_proc *p, const char *path, int flags)
{
	return proc_resolve(p, path, flags);
}

/*
 * path, whose last component may be a magic link to follow (exe, fd/3,
 * ns/net), the components before it none. No resolve flag lets a magic
 * link through, so the link itself is first reached without crossing a
 * mount, then followed by name, then reached again: a mount over it is
 * seen unless it comes and goes between the two looks, a race that only
 * a private procfs would close (docs/architecture.md).
 */
int lpfd_proc_open_last(struct lpfd_proc *p, const char *path, int flags)
{
	int link = proc_resolve(p, path, O_PATH | O_NOFOLLOW), fd, again;
	bool follow;

	if (link < 0)
		return link;
	follow = !(flags & O_NOFOLLOW) && is_link(link);
	lpfd_sys_close(link);
	if (!follow)
		return proc_resolve(p, path, flags);
	fd = lpfd_sys_openat(p->dir, path, flags | O_CLOEXEC);
	if (fd < 0)
		return fd;
	again = proc_resolve(p, path, O_PATH | O_NOFOLLOW);
	if (again < 0) {
		lpfd_sys_close(fd);
		return again;
	}
	lpfd_sys_close(again);
	return fd;
}

ssize_t lpfd_fd_readlink(int fd, char *buf, size_t size)
{
	ssize_t n = lpfd_sys_readlinkat(fd, "", buf, size);

	return n == -ENOENT && !is_link(fd) ? -EINVAL : n;
}

/*
 * What read_fd makes of path's file, opened with flags, then closed.
 * Inlined: as a frame of its own between proc_resolve() and the caller's
 * buffer, LTO builds took 4128 bytes of stack, over the 4 KiB bound
 * (tests/test-stack.c).
 */
static inline __attribute__((always_inline)) ssize_t
proc_read_with(struct lpfd_proc *p, const char *path, int flags,
	       ssize_t (*read_fd)(int, char *, size_t), char *buf, size_t size)
{
	int fd = proc_resolve(p, path, flags);
	ssize_t n;

	if (fd < 0)
		return fd;
	n = read_fd(fd, buf, size);
	lpfd_sys_close(fd);
	return n;
}

/*
 * readlinkat() without crossing a mount: the link itself opened (O_PATH,
 * not followed), then read through that descriptor. What is no link
 * says EINVAL, as readlinkat() of its name does.
 */
ssize_t lpfd_proc_readlink(struct lpfd_proc *p, const char *path,
			     char *buf, size_t size)
{
	return proc_read_with(p, path, O_PATH | O_NOFOLLOW, lpfd_fd_readlink,
			      buf, size);
}

ssize_t lpfd_proc_read(struct lpfd_proc *p, const char *path,
			 char *buf, size_t size)
{
	return proc_read_with(p, path, O_RDONLY, read_whole, buf, size);
}

int lpfd_proc_starts_with(struct lpfd_proc *p, const char *path,
			  const char *want, size_t n)
{
	char chunk[128];
	size_t done = 0;
	ssize_t r = 0;
	int fd = proc_resolve(p, path, O_RDONLY);

	if (fd < 0)
		return fd;
	while (done < n) {
		size_t ask = n - done < sizeof(chunk) ? n - done : sizeof(chunk);

		r = lpfd_sys_read(fd, chunk, ask);
		if (r == -EINTR)
			continue;
		if (r <= 0 || memcmp(chunk, want + done, (size_t)r) != 0)
			break;
		done += (size_t)r;
	}
	lpfd_sys_close(fd);
	if (r < 0)
		return (int)r;
	return done == n;
}

/* A chunk's state while its lines are handed out. */
struct line_reader {
	char *buf;
	size_t size, have;
	bool skipping; /* in a line longer than the chunk */
	int (*fn)(char *line, size_t len, void *ctx);
	void *ctx;
};

/* Hand out the whole lines of buf[0, have), keeping the rest: fn's stop. */
static int whole_lines(struct line_reader *l)
{
	char *s = l->buf, *nl;
	int r = 0;

	while ((nl = memchr(s, '\n', l->have - (size_t)(s - l->buf)))) {
		if (!l->skipping)
			r = l->fn(s, (size_t)(nl - s), l->ctx);
		l->skipping = false;
		s = nl + 1;
		if (r)
			return r;
	}
	l->have -= (size_t)(s - l->buf);
	memmove(l->buf, s, l->have);
	if (l->have == l->size) {
		l->skipping = true;
		l->have = 0;
	}
	return 0;
}

/*
 * Call fn on each whole line of a /proc file of any length, read in chunks. A
 * line longer than the chunk is skipped. fn returns 0 to go on, anything
 * else to stop with that value.
 */
int lpfd_proc_for_each_line(struct lpfd_proc *p, const char *path,
			      char *buf, size_t size,
			      int (*fn)(char *line, size_t len, void *ctx),
			      void *ctx)
{
	struct line_reader l = { buf, size, 0, false, fn, ctx };
	int fd = proc_resolve(p, path, O_RDONLY), r = 0;
	ssize_t n;

	if (fd < 0)
		return fd;
	while (r == 0) {
		n = lpfd_sys_read(fd, buf + l.have, size - l.have);
		if (n == -EINTR)
			continue;
		if (n <= 0) {
			if (n < 0)
				r = (int)n;
			else if (l.have && !l.skipping)
				r = fn(buf, l.have, ctx);
			break;
		}
		l.have += (size_t)n;
		r = whole_lines(&l);
	}
	lpfd_sys_close(fd);
	return r;
}

struct key_line {
	const char *key;
	size_t klen;
	char *out;
	size_t size;
	ssize_t len;
};

static int copy_key_line(char *line, size_t len, void *ctx)
{
	struct key_line *k = ctx;

	if (len < k->klen || memcmp(line, k->key, k->klen) != 0)
		return 0;
	if (len >= k->size)
		return -ENAMETOOLONG;
	memcpy(k->out, line, len);
	k->out[len] = '\0';
	k->len = (ssize_t)len;
	return 1;
}

/*
 * The line of a /proc file that starts with key, whole and NUL-terminated
 * in buf: its length; -ENODATA if there is none, -ENAMETOOLONG if it does
 * not fit. The lines before it may be of any length (a status file's
 * "Groups:" can hold thousands of ids); the chunk holds any NSpid: line.
 */
static ssize_t read_key_line(struct lpfd_proc *p, const char *path,
			     const char *key, char *buf, size_t size)
{
	struct key_line k = { key, strlen(key), buf, size, -ENODATA };
	char chunk[1024];
	int r = lpfd_proc_for_each_line(p, path, chunk, sizeof(chunk),
					  copy_key_line, &k);

	return r < 0 ? r : k.len;
}

/* The inode number of a namespace link ("pid:[4026531836]"), or -errno. */
int lpfd_proc_ns_ino(struct lpfd_proc *p, const char *path,
		       uint64_t *ino)
{
	char link[48];
	const char *q = link, *end;
	long long v;
	ssize_t n = lpfd_proc_readlink(p, path, link, sizeof(link));

	if (n < 0)
		return (int)n;
	end = link + n;
	while (q < end && *q != '[')
		q++;
	if (q == end || end[-1] != ']')
		return -ENOENT;
	q++;
	if (lpfd_parse_int(&q, end - 1, &v) < 0 || q != end - 1 || v <= 0)
		return -ENOENT;
	*ino = (uint64_t)v;
	return 0;
}

/*
 * A namespace link followed, without trusting a mount: the link is
 * reached without crossing one and read ("net:[4026531840]"), then
 * followed by name, which may cross one (no resolve flag lets a magic
 * link through to nsfs). What was opened stands only if it is the
 * namespace the link named: on nsfs, with its inode, which no other live
 * namespace has. Else -ENOSYS, as for a procfs not ours.
 */
int lpfd_proc_open_ns(struct lpfd_proc *p, const char *path)
{
#ifdef __NR_statx
	struct lpfd_statx sx;
	uint64_t ino;
	int fd, r = lpfd_proc_ns_ino(p, path, &ino);

	if (r < 0)
		return r;
	fd = lpfd_sys_openat(p->dir, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return fd;
	r = (int)lpfd_sc(__NR_statx, fd, "", AT_EMPTY_PATH, STATX_INO, &sx, 0);
	if (r == 0 && (!(sx.stx_mask & STATX_INO) || sx.stx_ino != ino ||
		       !lpfd_fd_on_fs(fd, NSFS_MAGIC)))
		r = -ENOSYS;
	if (r < 0) {
		lpfd_sys_close(fd);
		return r;
	}
	return fd;
#else
	(void)p;
	(void)path;
	return -ENOSYS;
#endif
}

/*
 * The kernel gives the lowest free number; a call that held descriptors
 * of its own while it opened its answer (the lowest of them at held) moves
 * the answer down once they are closed. Where that is refused the call
 * fails with the refusal: a number the kernel would not give is no answer.
 */
int lpfd_fd_lowest(int fd, int held)
{
	int low;

	if (fd < 0 || held < 0 || held > fd)
		return fd;
	low = lpfd_sys_fcntl(fd, F_DUPFD_CLOEXEC, 0);
	if (low < 0) {
		lpfd_sys_close(fd);
		return low;
	}
	if (low > fd) {
		lpfd_sys_close(low);
		return fd;
	}
	lpfd_sys_close(fd);
	return low;
}

/*
 * The proof through procfs's pid 1, where we may look at it: the first
 * process of a pid namespace lives in it, so procfs's namespace is 1's.
 * Both namespaces are alive, so equal inode numbers are one namespace.
 * 1 yes, 0 no, -errno where we may not look (another user's init,
 * hidepid): the caller reads NSpid then.
 *
 * Once refused (a sandbox's root may not look at the host's init), it is
 * not tried again. The flag only chooses between two proofs, each sound
 * on its own and each made in full on every call, so a flag that no longer
 * holds (after a fork into another pid namespace, a setuid, a remount)
 * costs time, never a wrong answer.
 */
static int init_ns_refused;

static int init_ns_is(struct lpfd_proc *p, uint64_t our_ns)
{
	uint64_t init_ns;
	int r;

	if (__atomic_load_n(&init_ns_refused, __ATOMIC_RELAXED))
		return -EACCES;
	r = lpfd_proc_ns_ino(p, "1/ns/pid", &init_ns);
	if (r == -EACCES || r == -EPERM)
		__atomic_store_n(&init_ns_refused, 1, __ATOMIC_RELAXED);
	if (r < 0)
		return r;
	return init_ns == our_ns;
}

/*
 * "self" exists only where we are visible (our namespace or an
 * ancestor's), and its "NSpid:" line lists our pid from procfs's namespace
 * down to ours: one entry, and procfs's namespace is at our level, hence
 * ours. Comparing self with getpid() is not enough: a process can have the
 * same pid in its namespace and in the parent's (by chance, or by clone3's
 * set_tid), and then read the parent namespace's pids as its own. A kernel
 * without pid namespaces has no NSpid line, and only one /proc to mount.
 */
static int nspid_is_ours(struct lpfd_proc *p)
{
	struct lpfd_status st;
	char line[512];
	ssize_t n;

	n = read_key_line(p, "self/status", "NSpid:", line, sizeof(line));
	if (n == -ENODATA)
		return 0;
	if (n == -ENOENT || n == -ENAMETOOLONG)
		return -ENOSYS;
	if (n < 0)
		return (int)n;
	(void)lpfd_parse_status(line, (size_t)n, &st);
	if (!(st.have & LPFD_ST_NSPID) || st.nspid_levels != 1)
		return -ENOSYS;
	return 0;
}

/* ------------------------------------------------------------------------
 * The proof, remembered where the kernel names mounts by ids it never
 * reuses (STATX_MNT_ID_UNIQUE, Linux 6.8). The fact kept is "the mount
 * with unique id U is a procfs of the pid namespace whose inode is N",
 * which stays true as long as U exists: a procfs mount holds its
 * superblock, the superblock holds its pid namespace, so while U is
 * mounted that namespace lives and no other namespace can have N. A call
 * trusts it only when its own /proc descriptor is on U (statx) and the
 * calling thread's pid namespace is N (its ns/pid link), both asked in
 * that call: a forked child in a new pid namespace, a thread of a
 * CLONE_VM child, a /proc remounted or replaced all fail the check and
 * make the full proof. The pair is written under a sequence count whose
 * writer never waits, as the cgroup2 mount cache is.
 */
static int no_unique_mount_ids; /* the kernel has none: never changes */
static unsigned int proof_seq;  /* 0 empty, odd being written */
static uint64_t proof_words[2]; /* the mount id, the pid namespace */

static int unique_mount_id(struct lpfd_proc *p, uint64_t *id)
{
#ifdef __NR_statx
	struct lpfd_statx sx;
	int r;

	if (__atomic_load_n(&no_unique_mount_ids, __ATOMIC_RELAXED))
		return -ENOSYS;
	r = (int)lpfd_sc(__NR_statx, p->dir, "", AT_EMPTY_PATH,
			   STATX_MNT_ID_UNIQUE, &sx, 0);
	if (r == 0 && !(sx.stx_mask & STATX_MNT_ID_UNIQUE))
		r = -ENOSYS;
	if (r == -ENOSYS || r == -EINVAL)
		__atomic_store_n(&no_unique_mount_ids, 1, __ATOMIC_RELAXED);
	if (r < 0)
		return r;
	*id = sx.stx_mnt_id;
	return 0;
#else
	(void)p;
	(void)id;
	return -ENOSYS;
#endif
}

static bool proof_remembered(uint64_t mnt, uint64_t ns)
{
	uint64_t w[2];

	return lpfd_seqcache_load(&proof_seq, proof_words, w, 2) &&
	       w[0] == mnt && w[1] == ns;
}

static void remember_proof(uint64_t mnt, uint64_t ns)
{
	const uint64_t w[2] = { mnt, ns };

	lpfd_seqcache_store(&proof_seq, proof_words, w, 2);
}

void lpfd_proc_reset(void)
{
	__atomic_store_n(&init_ns_refused, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&no_unique_mount_ids, 0, __ATOMIC_RELAXED);
	lpfd_seqcache_reset(&proof_seq, proof_words, 2);
}

/*
 * The emulation reads pids through /proc, which speaks for the pid
 * namespace it was mounted in: it must be ours, or every pid read would be
 * another's. The cheapest sound proof this kernel and our rights allow: a
 * remembered one (two cheap system calls, and the mount remembered is a
 * procfs: no fstatfs either), procfs's init (one more link), or our own
 * NSpid (a status read). Nothing read before the proof is believed: a
 * namespace link that is no procfs's has a mount id never remembered.
 */
static int proc_of_our_pidns(struct lpfd_proc *p)
{
	uint64_t mnt = 0, ns = 0;
	bool mnt_known = unique_mount_id(p, &mnt) == 0;
	bool ns_known = lpfd_proc_ns_ino(p, "thread-self/ns/pid", &ns) == 0;
	int r;

	if (mnt_known && ns_known && proof_remembered(mnt, ns))
		return 0;
	if (!lpfd_fd_on_fs(p->dir, PROC_SUPER_MAGIC))
		return -ENOSYS;
	mnt_known = mnt_known && ns_known;
	r = ns_known ? init_ns_is(p, ns) : -ENOENT;
	if (r >= 0)
		r = r ? 0 : -ENOSYS;
	else
		r = nspid_is_ours(p);
	if (r == 0 && mnt_known)
		remember_proof(mnt, ns);
	return r;
}

/*
 * With /proc not mounted, a directory of that name may hold anything
 * (under user-mode-linux hostfs shows the host's own /proc there), whose
 * files would describe other processes: -ENOSYS then, as for a procfs of
 * another pid namespace.
 */
int lpfd_proc_open(struct lpfd_proc *p, enum lpfd_proc_need need)
{
	int r;

	p->dir = lpfd_sys_openat(AT_FDCWD, "/proc",
				   O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (p->dir < 0)
		return p->dir == -ENOENT || p->dir == -ENOTDIR ? -ENOSYS : p->dir;
	if (need == LPFD_PROC_OUR_PIDS)
		r = proc_of_our_pidns(p);
	else
		r = lpfd_fd_on_fs(p->dir, PROC_SUPER_MAGIC) ? 0 : -ENOSYS;
	if (r < 0)
		lpfd_proc_close(p);
	return r;
}

void lpfd_proc_close(struct lpfd_proc *p)
{
	if (p->dir >= 0)
		lpfd_sys_close(p->dir);
	p->dir = -1;
}

/*
 * Whether the calling thread's fd names the file a link of want's text
 * names ("anon_inode:[pidfd]"), read through a procfs of its own for
 * this one question, without crossing a mount.
 */
bool lpfd_fd_link_is(int fd, const char *want)
{
	char path[48], link[64];
	struct lpfd_proc p;
	size_t len = strlen(want);
	ssize_t n;

	if (len >= sizeof(link) || lpfd_proc_open(&p, LPFD_PROC_ANY) < 0)
		return false;
	lpfd_proc_path(path, sizeof(path), "thread-self/fd/", fd, "");
	n = lpfd_proc_readlink(&p, path, link, sizeof(link));
	lpfd_proc_close(&p);
	return n == (ssize_t)len && memcmp(link, want, len) == 0;
}

/*
 * For a pidfd the library cannot read about: EBADF if the fd is closed
 * (the kernel's answer, which comes first), else err.
 */
int lpfd_proc_fd_errno(int fd, int err)
{
	if (err != -ENOENT && err != -ENOSYS)
		return err;
	if (lpfd_sys_fcntl(fd, F_GETFD, 0) < 0)
		return -EBADF;
	return -ENOSYS;
}

/*
 * The calling thread's file table, which after unshare(CLONE_FILES) is not
 * the leader's that self/fdinfo shows: there the same number may name
 * another process's pidfd. A missing fdinfo file is a closed fd; so is
 * our own /proc descriptor, which took the lowest free number.
 */
/*
 * Whether a pidfd names the calling thread: the kernel takes a siginfo of
 * the caller's own making (si_code >= 0) only for a signal to itself
 * (pidfd_send_signal: "Only allow sending arbitrary signals to yourself",
 * the pidfd's pid against task_pid(current)), and signal 0 sends nothing.
 * Before 6.9 every pidfd names a thread-group leader: from the leader this
 * tells its own process, exactly; from another thread, never.
 */
static bool pidfd_is_calling_leader(int fd)
{
	pid_t tid = lpfd_sys_gettid();
	siginfo_t si;

	if (tid < 0 || tid != lpfd_sys_getpid())
		return false;
	memset(&si, 0, sizeof(si));
	si.si_code = SI_USER;
	return lpfd_sys_pidfd_send_signal(fd, 0, &si, 0) == 0;
}

/* getpid() refused (a seccomp filter): its errno, never a made-up pid. */
static int own_pid(struct lpfd_fdinfo *out)
{
	pid_t pid = lpfd_sys_getpid();

	if (pid < 0)
		return pid;
	out->pid = pid;
	return 0;
}

/*
 * Before Linux 5.14 (7bc3fa0172a4 "procfs: allow reading fdinfo with
 * PTRACE_MODE_READ") the fdinfo directory is mode 0500, owned by root
 * while its process is not dumpable (it changed its ids, or
 * PR_SET_DUMPABLE 0): such a caller that is not root may not read even
 * its own, and nothing else gives a pidfd's pid there. What can still be
 * known is: the fd directory lets the own thread group in
 * (proc_fd_permission), its link tells a pidfd ("anon_inode:[pidfd]")
 * from other files, a reaped process answers signal 0 with ESRCH, and a
 * pidfd of the caller's own process, asked from its leader, is known by
 * the signal above (the fdinfo would say getpid()). For a pidfd of
 * another process that is still there, EACCES, as /proc answers for one
 * hidden by hidepid; never ESRCH.
 */
static int fdinfo_refused(struct lpfd_proc *p, int fd,
			  struct lpfd_fdinfo *out)
{
	static const char pidfd[] = "anon_inode:[pidfd]";
	char path[48], link[sizeof(pidfd)];
	int flags = lpfd_sys_fcntl(fd, F_GETFL, 0);
	ssize_t n;

	if (flags < 0)
		return -EBADF;
	memset(out, 0, sizeof(*out));
	out->flags = (unsigned int)flags;
	lpfd_proc_path(path, sizeof(path), "thread-self/fd/", fd, "");
	n = lpfd_proc_readlink(p, path, link, sizeof(link));
	if (n < 0)
		return -EACCES;
	if (n != (ssize_t)sizeof(pidfd) - 1 || memcmp(link, pidfd, (size_t)n))
		return 0; /* not a pidfd: the caller gives the kernel's answer */
	out->is_pidfd = true;
	if (lpfd_sys_pidfd_send_signal(fd, 0, NULL, 0) == -ESRCH)
		out->pid = -1; /* reaped, as the fdinfo says from 5.5 on */
	else if (pidfd_is_calling_leader(fd))
		return own_pid(out);
	else
		return -EACCES;
	return 0;
}

int lpfd_proc_fdinfo(struct lpfd_proc *p, int fd,
		       struct lpfd_fdinfo *out)
{
	char path[48], buf[512];
	ssize_t n;

	if (fd == p->dir)
		return -EBADF;
	lpfd_proc_path(path, sizeof(path), "thread-self/fdinfo/", fd, "");
	n = lpfd_proc_read(p, path, buf, sizeof(buf));
	if (n == -EACCES)
		return fdinfo_refused(p, fd, out);
	if (n < 0)
		return lpfd_proc_fd_errno(fd, (int)n);
	(void)lpfd_parse_fdinfo(buf, (size_t)n, out);
	return 0;
}

/*
 * The lines get_info needs (State to Gid) come first and fit in 512 bytes
 * whatever the task's name (16 bytes, at most 64 escaped); the kernel
 * builds the whole file either way, but less of it is copied and parsed.
 */
int lpfd_proc_status(struct lpfd_proc *p, int pid,
		       struct lpfd_status *out)
{
	char path[48], buf[512];
	ssize_t n;

	lpfd_proc_path(path, sizeof(path), "", pid, "/status");
	n = lpfd_proc_read(p, path, buf, sizeof(buf));
	if (n < 0)
		return n == -ENOENT ? -ESRCH : (int)n;
	return lpfd_parse_status(buf, (size_t)n, out);
}

/*
 * Whether the process behind a pidfd is still unreaped, so that its pid
 * cannot have been reused: signal 0 reaches a live process or a zombie
 * and gives ESRCH only after the reap. Anything else falls back to the
 * fdinfo, EPERM included: the kernel says EPERM only for a process it
 * found, but a seccomp filter or an LSM can say it for any, and taking it
 * as proof let a reused pid's data through. (The fdinfo says -1 for a
 * reaped process only from Linux 5.5 on, and 5.4.294; before, the signal
 * is the proof.)
 */
int lpfd_proc_unreaped(struct lpfd_proc *p, int pidfd)
{
	struct lpfd_fdinfo fi;
	int r = lpfd_sys_pidfd_send_signal(pidfd, 0, NULL, 0);

	if (r == 0)
		return 1;
	if (r == -ESRCH)
		return 0;
	r = lpfd_proc_fdinfo(p, pidfd, &fi);
	if (r < 0)
		return r;
	return fi.is_pidfd && fi.pid != -1;
}

/*
 * An unreaped process keeps its /proc entry, unless /proc hides it from
 * the caller (hidepid=2) or refuses its files (hidepid=1, EPERM): the
 * kernel's answer for a process one may not look at is EACCES, and ESRCH
 * would say it is gone.
 */
int lpfd_proc_missing_errno(struct lpfd_proc *p, int pidfd)
{
	int r = lpfd_proc_unreaped(p, pidfd);

	if (r < 0)
		return r;
	return r ? -EACCES : -ESRCH;
}

/* ------------------------------------------------------------------------
 * The same, each opening its own procfs instance for one question.
 */
int lpfd_read_fdinfo(int fd, struct lpfd_fdinfo *out)
{
	struct lpfd_proc p;
	int r = lpfd_proc_open(&p, LPFD_PROC_OUR_PIDS);

	if (r < 0)
		return lpfd_proc_fd_errno(fd, r);
	r = lpfd_proc_fdinfo(&p, fd, out);
	lpfd_proc_close(&p);
	return r;
}

int lpfd_read_status(int pid, struct lpfd_status *out)
{
	struct lpfd_proc p;
	int r = lpfd_proc_open(&p, LPFD_PROC_OUR_PIDS);

	if (r < 0)
		return r;
	r = lpfd_proc_status(&p, pid, out);
	lpfd_proc_close(&p);
	return r;
}

int lpfd_pidfd_unreaped(int pidfd)
{
	struct lpfd_proc p;
	int r = lpfd_proc_open(&p, LPFD_PROC_OUR_PIDS);

	if (r < 0)
		return r;
	r = lpfd_proc_unreaped(&p, pidfd);
	lpfd_proc_close(&p);
	return r;
}

int lpfd_proc_open_pidfd(struct lpfd_proc *p, int pidfd, int *pid)
{
	struct lpfd_fdinfo fi;
	int r = lpfd_proc_open(p, LPFD_PROC_OUR_PIDS);

	if (r < 0)
		return lpfd_proc_fd_errno(pidfd, r);
	r = lpfd_proc_fdinfo(p, pidfd, &fi);
	if (r == 0 && !fi.is_pidfd)
		r = lpfd_not_pidfd_errno(pidfd, &fi);
	if (r < 0) {
		lpfd_proc_close(p);
		return r;
	}
	*pid = fi.pid;
	return 0;
}
