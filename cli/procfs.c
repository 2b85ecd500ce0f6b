/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What pidfd info reads of /proc beyond libpidfd_get_info(): the command
 * name, state, start time, arguments, cgroup path, executable and working
 * directory. Every file of a process's directory comes through
 * libpidfd_proc_open() or libpidfd_proc_readlink() on the target's pidfd,
 * so each answer is that process's own or none, never a recycled pid's.
 * Only the list of processes (info --all) lies outside a directory: it is
 * read from the procfs root of our own directory, the same proven procfs.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/parse.h"
#include "pidfd.h"

/* A process's file read whole (up to size - 1 bytes): its length, or -1. */
static ssize_t read_file(int pidfd, const char *name, char *buf, size_t size)
{
	int fd = libpidfd_proc_open(pidfd, name, O_RDONLY);
	size_t len = 0;
	ssize_t n = 0;

	if (fd < 0)
		return -1;
	while (len + 1 < size &&
	       (n = read(fd, buf + len, size - 1 - len)) > 0)
		len += (size_t)n;
	close(fd);
	buf[len] = '\0';
	return n < 0 ? -1 : (ssize_t)len;
}

int procfs_check(void)
{
	int fd = libpidfd_proc_open(PIDFD_SELF_PROCESS, "", O_PATH | O_DIRECTORY);

	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

/* The procfs root of our own proven directory: its parent. */
DIR *procfs_list(void)
{
	int self = libpidfd_proc_open(PIDFD_SELF_PROCESS, "", O_PATH | O_DIRECTORY);
	int root = self < 0 ? -1 :
		   openat(self, "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = root < 0 ? NULL : fdopendir(root);

	if (self >= 0)
		close(self);
	if (!d && root >= 0)
		close(root);
	return d;
}

/*
 * The thread group of a task, by its number: /proc/<tid>/status read in
 * our proven procfs. A hint only, to be checked through a pidfd: the
 * number may name another task by the time it is used.
 */
pid_t procfs_tgid_of(pid_t tid)
{
	DIR *root = procfs_list();
	char name[32], buf[4096];
	struct lpfd_status st;
	size_t len = 0;
	ssize_t n = 0;
	int fd;

	if (!root)
		return -1;
	snprintf(name, sizeof(name), "%d/status", (int)tid);
	fd = openat(dirfd(root), name, O_RDONLY | O_CLOEXEC);
	closedir(root);
	if (fd < 0)
		return -1;
	while (len + 1 < sizeof(buf) &&
	       (n = read(fd, buf + len, sizeof(buf) - 1 - len)) > 0)
		len += (size_t)n;
	close(fd);
	if (n < 0 || lpfd_parse_status(buf, len, &st) < 0 ||
	    !(st.have & LPFD_ST_PID) || !(st.have & LPFD_ST_TGID) ||
	    st.pid != tid || st.tgid <= 0)
		return -1;
	return st.tgid;
}

/*
 * The boot time in seconds since the epoch, as ps takes it: the "btime"
 * line of our proven procfs's stat file. The clocks would give it too
 * (CLOCK_REALTIME less CLOCK_BOOTTIME), but each cut to whole seconds,
 * which leaves it a second later than ps's as often as not.
 */
bool procfs_boot_time(long long *btime)
{
	DIR *root = procfs_list();
	int fd = root ? openat(dirfd(root), "stat", O_RDONLY | O_CLOEXEC) : -1;
	FILE *f = fd < 0 ? NULL : fdopen(fd, "r");
	char *line = NULL;
	size_t cap = 0;
	bool found = false;

	if (root)
		closedir(root);
	if (!f) {
		if (fd >= 0)
			close(fd);
		return false;
	}
	/* Line by line: the interrupt counts before it may be long. */
	while (!found && getline(&line, &cap, f) > 0)
		found = sscanf(line, "btime %lld", btime) == 1 && *btime > 0;
	free(line);
	fclose(f);
	return found;
}

bool procfs_stat(int pidfd, struct lpfd_stat *st)
{
	char buf[2048];
	ssize_t n = read_file(pidfd, "stat", buf, sizeof(buf));

	return n > 0 && lpfd_parse_stat(buf, (size_t)n, st) == 0;
}

/*
 * The whole command line, as ps -ww shows it: the file is read to its
 * end, however long (the kernel gives it a page at a time), never cut at
 * a buffer's size. Allocated, or NULL where there is none (a kernel
 * thread, a zombie) or it cannot be read.
 */
char *procfs_args(int pidfd)
{
	int fd = libpidfd_proc_open(pidfd, "cmdline", O_RDONLY | O_CLOEXEC);
	size_t len = 0, cap = 4096;
	char *buf = fd < 0 ? NULL : malloc(cap), *out = NULL;
	ssize_t n = 0;

	if (fd >= 0 && !buf)
		abort();
	while (buf && (n = read(fd, buf + len, cap - len)) > 0) {
		len += (size_t)n;
		if (len == cap && !(buf = realloc(buf, cap *= 2)))
			abort();
	}
	if (fd >= 0)
		close(fd);
	if (buf && n == 0 && len && !(out = malloc(len + 1)))
		abort();
	if (out && lpfd_parse_cmdline(buf, len, out, len + 1) <= 0) {
		free(out);
		out = NULL;
	}
	free(buf);
	return out;
}

bool procfs_link(int pidfd, const char *name, char *out, size_t size)
{
	ssize_t n = libpidfd_proc_readlink(pidfd, name, out, size - 1);

	if (n < 0)
		return false;
	out[n] = '\0';
	return true;
}

struct cgroup2_mount {
	char root[LPFD_PATH_MAX]; /* the cgroup mounted there */
	char mnt[LPFD_PATH_MAX];
	bool found;
};

/* The first cgroup2 mount of our own mountinfo, looked up once a run. */
static const struct cgroup2_mount *cgroup2_mount(void)
{
	static struct cgroup2_mount m;
	static bool looked;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	FILE *f;
	int fd;

	if (looked)
		return m.found ? &m : NULL;
	looked = true;
	fd = libpidfd_proc_open(PIDFD_SELF_PROCESS, "mountinfo", O_RDONLY);
	f = fd < 0 ? NULL : fdopen(fd, "r");
	if (!f) {
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	while (!m.found && (len = getline(&line, &cap, f)) > 0) {
		struct lpfd_mountinfo mi;

		if (line[len - 1] == '\n')
			line[--len] = '\0';
		if (lpfd_parse_mountinfo_line(line, (size_t)len, &mi) < 0 ||
		    strlen(mi.root) >= sizeof(m.root) ||
		    strlen(mi.mnt) >= sizeof(m.mnt))
			continue;
		strcpy(m.root, mi.root);
		strcpy(m.mnt, mi.mnt);
		m.found = true;
	}
	free(line);
	fclose(f);
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
 * The cgroup2 path of the process, kept only if the directory it names
 * through the cgroup2 mount has the very id the pidfd gave: a moved
 * process never shows a wrong one.
 */
bool procfs_cgroup(int pidfd, uint64_t id, char *out, size_t size)
{
	char buf[4096], rel[LPFD_PATH_MAX], dir[2 * LPFD_PATH_MAX];
	const struct cgroup2_mount *m = cgroup2_mount();
	ssize_t n = read_file(pidfd, "cgroup", buf, sizeof(buf));
	size_t rlen;
	uint64_t dir_id;

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
