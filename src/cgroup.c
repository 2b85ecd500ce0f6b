/* SPDX-License-Identifier: LGPL-2.1-or-later OR MIT */
/*
 * The cgroup2 id of a process, from the path its /proc/<pid>/cgroup names:
 * the path is joined to a cgroup2 mount that holds it, found in
 * /proc/self/mountinfo, and the id is the file handle of the directory
 * there. The path is resolved between two reads of the file and checked
 * after the second (lpfd_read_cgroupid(), which says why that is sound),
 * so that the answer is a cgroup the process was in during the call.
 * Stack: the file read (LPFD_PATH_MAX and a little) and one scratch
 * buffer that holds the mountinfo chunk, then the joined path, and the
 * second read behind the joined path's mount point: about 2 KB in all,
 * so that get_info stays within 4 KiB even as Debian builds it (LTO,
 * -fstack-protector-strong, -fstack-clash-protection), measured by
 * tests/test-stack.c.
 *
 * System calls: the second read opens the file again by its path; the
 * second resolution is one name_to_handle_at().
 *
 * Reading mountinfo is most of the cost (the kernel formats every mount:
 * tens of microseconds, see make bench), so the mount of the last lookup
 * is remembered, and trusted only while everything it depends on is
 * checked to hold, in the call that uses it, through that call's procfs:
 *   - the mount point still holds a mount with that id whose root is that
 *     cgroup. A mount id is reused once unmounted, but the root is named
 *     by its cgroup id, which is never reused: a recycled mount id passes
 *     only for a mount of the very same cgroup at the very same place,
 *     which resolves paths alike;
 *   - the joined path resolves within that very mount (the handle's mount
 *     id), not through something mounted below it;
 *   - the calling thread's cgroup namespace is the one the mount's root
 *     was read in (/proc shows cgroup paths relative to its root): the
 *     initial one, the only one the cache is used in. A namespace's inode
 *     number is handed out again once the namespace is gone, and nothing
 *     cheaper than mountinfo names a namespace's root; the initial
 *     namespace lives as long as the system, under a number no other is
 *     ever given (PROC_CGROUP_INIT_INO), so no recycled id can pass. In a
 *     namespace of its own a caller reads mountinfo each time.
 * Otherwise, or when the cache is being written, mountinfo is read as if
 * there were no cache. The cache is a seqlock whose writer never waits: a
 * writer that finds another one at work leaves the cache alone, so there
 * is no lock, no allocation, and nothing a signal handler could deadlock
 * on; it holds no file descriptor and only facts checked on use, so it
 * stays right across fork into new pid namespaces (it names no pid),
 * unshare and setns (exec starts afresh).
 */
#include <fcntl.h>
#include <string.h>

#include "internal.h"
#include "syscall.h"

/*
 * What of path (as /proc names it) lies below a cgroup2 mount's root:
 * NULL if the mount does not hold it. Both are relative to the caller's
 * cgroup namespace, so either may start with ".." components (a root or a
 * cgroup above the namespace's); those of the path must all be the
 * root's, or the path leads above the mount.
 */
static const char *below_root(const char *root, const char *path)
{
	size_t rlen = strcmp(root, "/") == 0 ? 0 : strlen(root);
	const char *rest;

	if (strncmp(path, root, rlen) != 0 ||
	    (path[rlen] != '/' && path[rlen] != '\0'))
		return NULL;
	rest = path + rlen;
	if (strncmp(rest, "/..", 3) == 0 && (rest[3] == '/' || !rest[3]))
		return NULL;
	return rest;
}

/*
 * How a full path was joined: the mount point's mlen bytes, then rest,
 * the tail of the cgroup path below the mount's root. The tail can be
 * joined again after the room behind the mount point was lent out.
 */
struct joined {
	size_t mlen;
	const char *rest;
};

static void join_tail(char *full, const struct joined *j)
{
	memcpy(full + j->mlen, j->rest, strlen(j->rest) + 1);
	if (!full[0])
		memcpy(full, "/", 2);
}

/*
 * Where the cgroup at path is, through a cgroup2 mount of root at mnt: 0
 * and the full path in full, or -ENOENT if the mount does not hold it or
 * the result would not fit.
 */
static int join_cgroup_path(char *full, size_t size, const char *root,
			    const char *mnt, const char *path,
			    struct joined *j)
{
	j->mlen = strcmp(mnt, "/") == 0 ? 0 : strlen(mnt);
	j->rest = below_root(root, path);
	if (!j->rest || j->mlen + strlen(j->rest) + 2 > size)
		return -ENOENT;
	memcpy(full, mnt, j->mlen);
	join_tail(full, j);
	return 0;
}

/* The longest root and mount point the cache keeps (longer: not cached). */
#define CACHE_STR 128

struct cgroup2_mount {
	uint64_t cgroup_ns; /* inode of the cgroup namespace root was read in */
	uint64_t root_id;   /* cgroup id of the mount's root */
	uint64_t mnt_unique; /* its never-reused mount id (Linux 6.12), or 0 */
	int32_t mnt_id;
	char root[CACHE_STR]; /* NUL-terminated, as mountinfo shows them */
	char mnt[CACHE_STR];
};

/*
 * Where a cgroup path leads: the path joined to a cgroup2 mount, in the
 * room the mountinfo chunk took while the mount was looked for (the one
 * big buffer of a look-up: a call runs within 4 KiB of stack).
 */
#define FULL_MAX (LPFD_PATH_MAX + CACHE_STR)
union scratch {
	char chunk[1024]; /* mountinfo, a line at a time (a longer one is skipped) */
	char full[FULL_MAX];
};

struct cgroup_lookup {
	const char *path;      /* the cgroup, as /proc/<pid>/cgroup names it */
	int mnt_id;
	bool cacheable;        /* root and mount point fit in m */
	struct cgroup2_mount m;
};

static void copy_str(char *dst, const char *src, size_t size, bool *fits)
{
	size_t n = strlen(src);

	if (n >= size) {
		*fits = false;
		return;
	}
	memcpy(dst, src, n + 1);
}

/*
 * The first cgroup2 mount whose root holds the cgroup; its root and mount
 * point must fit in m, where the path is joined to them once the chunk
 * they sit in is free.
 */
static int match_cgroup2_mount(char *line, size_t len, void *ctx)
{
	struct cgroup_lookup *l = ctx;
	struct lpfd_mountinfo mi;

	if (lpfd_parse_mountinfo_line(line, len, &mi) < 0 ||
	    !below_root(mi.root, l->path))
		return 0;
	l->mnt_id = mi.mnt_id;
	l->cacheable = true;
	copy_str(l->m.root, mi.root, sizeof(l->m.root), &l->cacheable);
	copy_str(l->m.mnt, mi.mnt, sizeof(l->m.mnt), &l->cacheable);
	return l->cacheable ? 1 : 0;
}

struct lpfd_file_handle {
	unsigned int handle_bytes;
	int handle_type;
	unsigned char f_handle[64];
};

/*
 * The cgroup2 id is the cgroup's kernfs node id, which the cgroup file
 * system hands out as its 8-byte file handle; *mnt_id is the mount the
 * path led to.
 */
static int handle_of(const char *path, uint64_t *id, void *mnt_id, int flags)
{
	struct lpfd_file_handle fh = { .handle_bytes = sizeof(fh.f_handle) };
	int r = lpfd_sys_name_to_handle_at(AT_FDCWD, path, &fh, mnt_id, flags);

	if (r < 0)
		return r;
	if (fh.handle_bytes != sizeof(*id))
		return -ENOENT;
	memcpy(id, fh.f_handle, sizeof(*id));
	return 0;
}

static int cgroup_handle(const char *path, uint64_t *id, int *mnt_id)
{
	return handle_of(path, id, mnt_id, 0);
}

/*
 * The same with the mount's never-reused id, where the kernel gives it
 * (AT_HANDLE_MNT_ID_UNIQUE, Linux 6.12); -EINVAL before.
 */
static int cgroup_handle_unique(const char *path, uint64_t *id,
				uint64_t *mnt_unique)
{
	return handle_of(path, id, mnt_unique, AT_HANDLE_MNT_ID_UNIQUE);
}

/* The initial cgroup namespace's number, which no other is ever given. */
#define CGROUP_NS_INITIAL 0xEFFFFFFBULL

/* The calling thread's cgroup namespace, by the inode /proc names. */
static int cgroup_ns_of_thread(struct lpfd_proc *proc, uint64_t *ino)
{
	char link[48];
	const char *p = link + 8, *end;
	long long v;
	ssize_t n;

	n = lpfd_proc_readlink(proc, "thread-self/ns/cgroup", link,
				 sizeof(link));
	if (n < 0)
		return (int)n;
	end = link + n;
	/* "cgroup:[4026531835]" */
	if (n < 10 || memcmp(link, "cgroup:[", 8) != 0 || end[-1] != ']' ||
	    lpfd_parse_int(&p, end - 1, &v) < 0 || p != end - 1 || v <= 0)
		return -ENOENT;
	*ino = (uint64_t)v;
	return 0;
}

/* ------------------------------------------------------------------------
 * The cache: a seqlock over a few words, copied word by word with relaxed
 * atomics (the sequence orders them), written only by a writer that turned
 * the sequence odd itself.
 */
#define CACHE_WORDS                                                            \
	((sizeof(struct cgroup2_mount) + sizeof(uint64_t) - 1) /               \
	 sizeof(uint64_t))

union cache_words {
	struct cgroup2_mount m;
	uint64_t w[CACHE_WORDS];
};

static unsigned int cache_seq; /* 0: empty; odd: being written */
static uint64_t cache_data[CACHE_WORDS];

static bool cache_load(union cache_words *out)
{
	return lpfd_seqcache_load(&cache_seq, cache_data, out->w, CACHE_WORDS);
}

static void cache_store(const struct cgroup2_mount *m)
{
	union cache_words u;

	memset(&u, 0, sizeof(u));
	u.m = *m;
	lpfd_seqcache_store(&cache_seq, cache_data, u.w, CACHE_WORDS);
}

void lpfd_cgroup_reset(void)
{
	lpfd_seqcache_reset(&cache_seq, cache_data, CACHE_WORDS);
}

/*
 * The id of the cgroup at path through the remembered mount, or -ENOENT;
 * full gets where it led. This and remember() stay out of line: inlined,
 * their copies of the mount share the frame that reads mountinfo, and
 * the deepest get_info passes test-stack's 4 KiB (4184 bytes measured).
 */
static __attribute__((noinline)) int
cgroupid_cached(const char *path, uint64_t cgroup_ns, uint64_t *id, char *full,
		struct joined *j)
{
	union cache_words u;
	const struct cgroup2_mount *m = &u.m;
	uint64_t root_id;
	int mnt_id;

	if (!cache_load(&u) || m->cgroup_ns != cgroup_ns)
		return -ENOENT;
	if (join_cgroup_path(full, FULL_MAX, m->root, m->mnt, path, j) < 0)
		return -ENOENT;
	/* The very mount remembered (its id never reused): its root is too. */
	if (m->mnt_unique) {
		uint64_t unique;

		if (cgroup_handle_unique(full, id, &unique) < 0 ||
		    unique != m->mnt_unique)
			return -ENOENT;
		return 0;
	}
	if (cgroup_handle(m->mnt, &root_id, &mnt_id) < 0 ||
	    mnt_id != m->mnt_id || root_id != m->root_id)
		return -ENOENT;
	if (cgroup_handle(full, id, &mnt_id) < 0 || mnt_id != m->mnt_id)
		return -ENOENT;
	return 0;
}

/* Remember the mount a lookup went through, if its root checks out. */
static __attribute__((noinline)) void remember(struct cgroup_lookup *l,
						  uint64_t cgroup_ns)
{
	uint64_t root_id;
	int mnt_id;

	if (!l->cacheable ||
	    cgroup_handle(l->m.mnt, &l->m.root_id, &mnt_id) < 0 ||
	    mnt_id != l->mnt_id)
		return;
	/* Still the same root, now named by a mount id that is never reused. */
	if (cgroup_handle_unique(l->m.mnt, &root_id, &l->m.mnt_unique) < 0 ||
	    root_id != l->m.root_id || cgroup_handle(l->m.mnt, &root_id, &mnt_id) < 0 ||
	    mnt_id != l->mnt_id)
		l->m.mnt_unique = 0;
	l->m.cgroup_ns = cgroup_ns;
	l->m.mnt_id = l->mnt_id;
	cache_store(&l->m);
}

/*
 * The id of the cgroup at path: through the remembered mount if it checks
 * out, else through the first mount in mountinfo that holds the cgroup.
 * Either way the handle must come from the very mount the path was built
 * from, or the path led elsewhere. sc->full gets where it led, j how.
 */
static int cgroupid_of_path(struct lpfd_proc *p, const char *path,
			    union scratch *sc, struct joined *j, uint64_t *id)
{
	struct cgroup_lookup l = { .path = path, .mnt_id = -1 };
	uint64_t cgroup_ns = 0;
	bool cacheable;
	int mnt_id, r;

	/* Only this thread changes its cgroup namespace: asking now is enough. */
	cacheable = cgroup_ns_of_thread(p, &cgroup_ns) == 0 &&
		    cgroup_ns == CGROUP_NS_INITIAL;
	if (cacheable && cgroupid_cached(path, cgroup_ns, id, sc->full, j) == 0)
		return 0;
	r = lpfd_proc_for_each_line(p, "self/mountinfo", sc->chunk,
				      sizeof(sc->chunk), match_cgroup2_mount, &l);
	if (r < 0)
		return r;
	if (r == 0 ||
	    join_cgroup_path(sc->full, FULL_MAX, l.m.root, l.m.mnt, path, j) < 0)
		return -ENOENT;
	r = cgroup_handle(sc->full, id, &mnt_id);
	if (r < 0)
		return r;
	if (mnt_id != l.mnt_id)
		return -ENOENT;
	if (cacheable)
		remember(&l, cgroup_ns);
	return 0;
}

/* A /proc cgroup file as read, and where its cgroup2 path is in it. */
struct cgroup_file {
	char buf[LPFD_PATH_MAX + 64];
	size_t end; /* the path ends there, NUL-terminated in place of '\n' */
	const char *path;
	bool deleted; /* it ends in " (deleted)" */
};

static int read_cgroup_file(struct lpfd_proc *p, const char *file,
			    struct cgroup_file *f)
{
	static const char deleted[] = " (deleted)";
	size_t off, n;
	ssize_t len = lpfd_proc_read(p, file, f->buf, sizeof(f->buf));
	int r;

	if (len < 0)
		return len == -ENOENT ? -ESRCH : (int)len;
	r = lpfd_locate_cgroup(f->buf, (size_t)len, &off, &n);
	if (r < 0)
		return r;
	/* The kernel ends the line; one that does not end was cut short. */
	if (off + n >= (size_t)len || f->buf[off + n] != '\n')
		return -ENOENT;
	f->end = off + n;
	f->buf[f->end] = '\0';
	f->path = f->buf + off;
	f->deleted = n >= sizeof(deleted) - 1 &&
		     memcmp(f->buf + f->end - (sizeof(deleted) - 1), deleted,
			    sizeof(deleted) - 1) == 0;
	return 0;
}

/* Whether the file still reads as it did, up to the end of the path line. */
static int cgroup_file_same(struct lpfd_proc *p, const char *file,
			    struct cgroup_file *f)
{
	int r;

	f->buf[f->end] = '\n';
	r = lpfd_proc_starts_with(p, file, f->buf, f->end + 1);
	f->buf[f->end] = '\0';
	return r;
}

/* PF_EXITING: the task has left its cgroup's count, which may be removed. */
#define TASK_EXITING 0x00000004u

/*
 * Whether the task of a cgroup file ("<pid>/cgroup", "self/cgroup") is
 * not exiting, from its stat file: 1, 0, or -errno.
 */
static int task_not_exiting(struct lpfd_proc *p, const char *file,
			    union scratch *sc)
{
	char path[48], *buf = sc->chunk;
	const char *slash = strrchr(file, '/');
	size_t dlen = slash ? (size_t)(slash - file) + 1 : 0;
	unsigned int flags;
	ssize_t n;

	if (dlen + sizeof("stat") > sizeof(path))
		return -ENOENT;
	memcpy(path, file, dlen);
	memcpy(path + dlen, "stat", sizeof("stat"));
	n = lpfd_proc_read(p, path, buf, sizeof(sc->chunk));
	if (n < 0)
		return (int)n;
	return lpfd_parse_stat_flags(buf, (size_t)n, &flags) == 0 &&
	       !(flags & TASK_EXITING);
}

/*
 * The path is resolved between two reads of the cgroup file, and again
 * after the second: an answer stands only if both reads name the same
 * path and both resolutions the same cgroup X. Why that is sound: a
 * cgroup2 directory cannot be renamed (the kernel refuses, EPERM) and a
 * cgroup id is never reused, so X, alive at both resolutions, held that
 * path all the time between them, when no other live cgroup could; the
 * second read, made in between, found the process in the cgroup of that
 * path, hence in X, at that instant. Without the check, a process moved
 * from A to B, A removed and made anew, gave the new A's id, a cgroup the
 * process was never in. The one other cgroup a path can name is a
 * removed one, which the kernel shows with " (deleted)" after it: a
 * process still counted in its cgroup (not exiting, as its stat's flags
 * tell after the second resolution, hence also at the read before) is in
 * a live one, so a path ending so is then a live cgroup's name; an exiting
 * process's such path is left unresolved (the id of a removed cgroup
 * cannot be had). A path that changes under us is read again, a few
 * times, then left unresolved. The second read opens the file again by
 * its path, which names the same process: "self" and "thread-self" the
 * caller, "<pid>" the process as long as it is unreaped, which the caller
 * checks after the whole answer (the pid cannot be reused before).
 */
#define CGROUP_TRIES 3

/* One try: 0 and the id, 1 to try again, or -errno. */
static int cgroupid_try(struct lpfd_proc *p, const char *file,
			struct cgroup_file *f, union scratch *sc, uint64_t *id)
{
	struct joined j;
	uint64_t again;
	int r, mnt_id;

	r = read_cgroup_file(p, file, f);
	if (r == 0)
		r = cgroupid_of_path(p, f->path, sc, &j, id);
	if (r < 0)
		return r;
	r = cgroup_file_same(p, file, f);
	if (r < 0)
		return r == -ENOENT ? -ESRCH : r;
	if (!r || cgroup_handle(sc->full, &again, &mnt_id) < 0 || again != *id)
		return 1;
	if (!f->deleted)
		return 0;
	r = task_not_exiting(p, file, sc);
	if (r < 0)
		return r == -ENOENT ? -ESRCH : r;
	return r ? 0 : -ENOENT;
}

int lpfd_read_cgroupid(struct lpfd_proc *p, const char *file, uint64_t *id)
{
	struct cgroup_file f;
	union scratch sc;
	int r;

	for (int i = 0; i < CGROUP_TRIES; i++) {
		r = cgroupid_try(p, file, &f, &sc, id);
		if (r <= 0)
			return r;
	}
	return -ENOENT;
}
