/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What pidfd info reads of /proc beyond libpidfd_get_info(): the command
 * name, state, start time, arguments and cgroup path. Through the
 * library's procfs-checked readers and its fuzzed parsers, and only where
 * /proc is our own pid namespace's. The caller then confirms that its
 * pidfd still names an unreaped process: only then can the pid not have
 * been recycled while /proc was read.
 */
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
#include "pidfd.h"

/*
 * One procfs instance for the whole run, proven to be our pid namespace's
 * by the library (the tool may keep a descriptor; the library may not).
 * Kept open, it closes each file as soon as it is read.
 */
static struct lpfd_proc *procfs(void)
{
	static struct lpfd_proc p = { .dir = -1, .held = -1 };
	static int r = 1;

	if (r > 0) {
		r = lpfd_proc_open(&p, LPFD_PROC_OUR_PIDS);
		p.hold_last = false;
		lpfd_proc_release(&p); /* what the proof read */
	}
	return r == 0 ? &p : NULL;
}

bool procfs_ours(void)
{
	return procfs() != NULL;
}

bool procfs_stat(pid_t pid, struct lpfd_stat *st)
{
	char path[48], buf[2048];
	ssize_t n;

	if (!procfs())
		return false;
	lpfd_proc_path(path, sizeof(path), "", pid, "/stat");
	n = lpfd_proc_read(procfs(), path, buf, sizeof(buf));
	return n > 0 && lpfd_parse_stat(buf, (size_t)n, st) == 0;
}

/*
 * The first size bytes of the arguments: unlike the readers for files of
 * lines, this keeps a cut argument list rather than dropping it whole.
 */
bool procfs_args(pid_t pid, char *out, size_t size)
{
	char path[48], buf[4096];
	ssize_t n = -1;
	size_t len = 0;
	int fd;

	if (!procfs())
		return false;
	lpfd_proc_path(path, sizeof(path), "", pid, "/cmdline");
	fd = lpfd_proc_openat(procfs(), path, O_RDONLY);
	if (fd < 0)
		return false;
	while (len < sizeof(buf) &&
	       (n = read(fd, buf + len, sizeof(buf) - len)) > 0)
		len += (size_t)n;
	close(fd);
	return n >= 0 && lpfd_parse_cmdline(buf, len, out, size) > 0;
}

struct cgroup2_mount {
	char root[LPFD_PATH_MAX]; /* the cgroup mounted there */
	char mnt[LPFD_PATH_MAX];
	bool found;
};

static int take_cgroup2(char *line, size_t len, void *ctx)
{
	struct cgroup2_mount *m = ctx;
	struct lpfd_mountinfo mi;

	if (lpfd_parse_mountinfo_line(line, len, &mi) < 0 ||
	    strlen(mi.root) >= sizeof(m->root) || strlen(mi.mnt) >= sizeof(m->mnt))
		return 0;
	strcpy(m->root, mi.root);
	strcpy(m->mnt, mi.mnt);
	m->found = true;
	return 1;
}

/* The first cgroup2 mount, looked up once a run. */
static const struct cgroup2_mount *cgroup2_mount(void)
{
	static struct cgroup2_mount m;
	static bool looked;
	char chunk[4096];

	if (!looked && procfs())
		lpfd_proc_for_each_line(procfs(), "self/mountinfo", chunk,
					sizeof(chunk), take_cgroup2, &m);
	looked = true;
	return m.found ? &m : NULL;
}

/* The cgroup2 id of a directory: its file handle, 8 bytes. */
static bool cgroup_id_of(const char *dir, uint64_t *id)
{
	struct {
		struct file_handle fh;
		unsigned char bytes[64];
	} h = { .fh.handle_bytes = sizeof(h.bytes) };
	int mnt_id;

	if (name_to_handle_at(AT_FDCWD, dir, &h.fh, &mnt_id, 0) < 0 ||
	    h.fh.handle_bytes != sizeof(*id))
		return false;
	memcpy(id, h.fh.f_handle, sizeof(*id));
	return true;
}

/*
 * The cgroup2 path that /proc/<pid>/cgroup names, kept only if the
 * directory it names through the cgroup2 mount has the very id the pidfd
 * gave: a moved process never shows a wrong one.
 */
bool procfs_cgroup(pid_t pid, uint64_t id, char *out, size_t size)
{
	char path[48], buf[4096], rel[LPFD_PATH_MAX], dir[2 * LPFD_PATH_MAX];
	const struct cgroup2_mount *m = cgroup2_mount();
	size_t rlen;
	uint64_t dir_id;
	ssize_t n;

	if (!procfs())
		return false;
	lpfd_proc_path(path, sizeof(path), "", pid, "/cgroup");
	n = lpfd_proc_read(procfs(), path, buf, sizeof(buf));
	if (!m || n <= 0 || lpfd_parse_cgroup(buf, (size_t)n, rel, sizeof(rel)) < 0)
		return false;
	rlen = strcmp(m->root, "/") == 0 ? 0 : strlen(m->root);
	if (strncmp(rel, m->root, rlen) != 0 || (rel[rlen] && rel[rlen] != '/'))
		return false; /* outside what is mounted here */
	snprintf(dir, sizeof(dir), "%s%s", m->mnt, rel + rlen);
	if (!cgroup_id_of(dir, &dir_id) || dir_id != id || strlen(rel) >= size)
		return false;
	strcpy(out, rel);
	return true;
}
