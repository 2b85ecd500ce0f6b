/* SPDX-License-Identifier: LGPL-2.1-or-later OR MIT */
/*
 * Parsers only the pidfd tool uses (what ps shows of a process): linked
 * into the tool and the tests, never into libpidfd.so.
 */
#include <errno.h>
#include <string.h>

#include "parse.h"

/*
 * /proc/<pid>/stat: "pid (comm) S ppid ... starttime vsize rss ...". The
 * command name may hold spaces and parentheses, so it ends at the last
 * ')'. The start time is field 22, in clock ticks after boot; the fields
 * ps shows beside it are before it (proc_pid_stat(5)).
 */
int lpfd_parse_stat(const char *buf, size_t len, struct lpfd_stat *out)
{
	const char *open = memchr(buf, '(', len), *close = NULL, *p, *end = buf + len;
	long long v[23];
	int field;
	size_t n;

	memset(out, 0, sizeof(*out));
	for (p = open ? open + 1 : end; p < end; p++)
		if (*p == ')')
			close = p;
	if (!close)
		return -ENOENT;
	n = (size_t)(close - open - 1);
	if (n >= sizeof(out->comm))
		n = sizeof(out->comm) - 1;
	memcpy(out->comm, open + 1, n);
	out->comm[n] = '\0';
	if (strlen(out->comm) == n)
		out->have |= LPFD_STAT_COMM;
	p = close + 1;
	if (end - p < 3 || p[0] != ' ' || p[1] <= ' ' || (p + 2 < end && p[2] != ' '))
		return 0;
	out->state = p[1];
	out->have |= LPFD_STAT_STATE;
	p += 2;
	/* Fields 4 (ppid) to 22 (starttime), each a whole number. */
	for (field = 4; field <= 22; field++) {
		if (p >= end || *p != ' ')
			break;
		p++;
		if (lpfd_parse_int(&p, end, &v[field]) < 0 ||
		    (p < end && *p != ' ' && *p != '\n'))
			break;
	}
	if (field <= 22 || v[22] < 0)
		return 0;
	out->start = (unsigned long long)v[22];
	out->have |= LPFD_STAT_START;
	if (v[14] < 0 || v[15] < 0)
		return 0;
	out->ppid = (int)v[4];
	out->pgrp = (int)v[5];
	out->session = (int)v[6];
	out->tty = (unsigned int)v[7];
	out->tpgid = (int)v[8];
	out->cpu = (unsigned long long)(v[14] + v[15]);
	out->priority = (int)v[18];
	out->nice = (int)v[19];
	out->threads = (int)v[20];
	out->have |= LPFD_STAT_PS;
	return 0;
}

/*
 * /proc/<pid>/cmdline: the arguments, each ended by a NUL, joined by
 * spaces into out (NUL-terminated, cut to fit). Its length, or -ENOENT if
 * there is none (a kernel thread, a zombie).
 */
ssize_t lpfd_parse_cmdline(const char *buf, size_t len, char *out,
			     size_t size)
{
	size_t o = 0;

	while (len && buf[len - 1] == '\0')
		len--;
	if (!len || !size)
		return -ENOENT;
	for (size_t i = 0; i < len && o + 1 < size; i++)
		out[o++] = buf[i] ? buf[i] : ' ';
	out[o] = '\0';
	return (ssize_t)o;
}

/*
 * The exit_code of /proc/<pid>/stat, field 52 (Linux 3.5), in the form
 * waitpid(2) gives: 0, or -ENOENT where the line is cut short or bad.
 */
int lpfd_parse_stat_exit_code(const char *buf, size_t len, int *code)
{
	const char *p = buf + len, *end = buf + len;
	long long x = -1;

	while (p > buf && p[-1] != ')')
		p--;
	if (p == buf || end - p < 3 || p[0] != ' ' || p[1] <= ' ')
		return -ENOENT;
	p += 2;
	/* Past the state (field 3): fields 4 to 51 skipped (some, as
	 * rsslim, are too long for a long long), then field 52. */
	for (int field = 4; field < 52; field++) {
		if (p >= end || *p != ' ' || p + 1 == end || p[1] == ' ')
			return -ENOENT;
		for (p++; p < end && *p != ' ' && *p != '\n'; p++)
			;
	}
	if (p >= end || *p != ' ')
		return -ENOENT;
	p++;
	if (lpfd_parse_int(&p, end, &x) < 0)
		return -ENOENT;
	if (x < 0 || x > 0xffff || (p < end && *p != ' ' && *p != '\n'))
		return -ENOENT;
	*code = (int)x;
	return 0;
}

/* The cgroup2 path, copied out: the library locates it in place. */
int lpfd_parse_cgroup(const char *buf, size_t len, char *path, size_t size)
{
	size_t off, n;
	int r = lpfd_locate_cgroup(buf, len, &off, &n);

	if (r < 0)
		return r;
	if (n >= size)
		return -ENAMETOOLONG;
	memmove(path, buf + off, n);
	path[n] = '\0';
	return 0;
}
