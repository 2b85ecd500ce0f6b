/* SPDX-License-Identifier: LGPL-2.1-or-later OR MIT */
/*
 * Parsers for the /proc files the emulation reads (lib/parse.h). They take
 * a buffer and its length (no NUL needed), trust nothing in it, and fill
 * only what they found well-formed: a caller decides from what is missing.
 * They are kept apart from the readers so that they can be fuzzed without
 * /proc.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "parse.h"

/* The next line of [*p, end): returns its start and length, advances *p. */
static bool next_line(const char **p, const char *end, const char **line,
		      size_t *len)
{
	const char *nl;

	if (*p >= end)
		return false;
	*line = *p;
	nl = memchr(*p, '\n', (size_t)(end - *p));
	*len = (size_t)((nl ? nl : end) - *p);
	*p = nl ? nl + 1 : end;
	return true;
}

/*
 * If the line starts with key, point *v just past it and any blanks. A
 * macro over a string literal, so that the key's length is a constant and
 * the compare a few instructions: status is parsed on every emulated call.
 */
#define line_value(line, len, key, v)                                          \
	line_value_n(line, len, "" key, sizeof(key) - 1, v)

static inline bool line_value_n(const char *line, size_t len, const char *key,
				size_t klen, const char **v)
{
	if (len < klen || memcmp(line, key, klen) != 0)
		return false;
	*v = line + klen;
	while (*v < line + len && (**v == ' ' || **v == '\t'))
		(*v)++;
	return true;
}

static void skip_blanks(const char **p, const char *end)
{
	while (*p < end && (**p == ' ' || **p == '\t'))
		(*p)++;
}

/* At most 18 digits: no overflow whatever the input says. */
static int parse_digits(const char **p, const char *end, unsigned base,
			long long *out)
{
	long long v = 0;
	int n = 0;

	while (*p < end && **p >= '0' && **p < (char)('0' + base)) {
		if (++n > 18)
			return -ERANGE;
		v = v * base + (**p - '0');
		(*p)++;
	}
	if (n == 0)
		return -EINVAL;
	*out = v;
	return 0;
}

int lpfd_parse_int(const char **p, const char *end, long long *out)
{
	bool neg = false;
	int r;

	if (*p < end && **p == '-') {
		neg = true;
		(*p)++;
	}
	r = parse_digits(p, end, 10, out);
	if (r == 0 && neg)
		*out = -*out;
	return r;
}

/* A whole int field followed by a blank or the end of the line. */
static bool field_int(const char **p, const char *end, long long lo,
		      long long hi, long long *out)
{
	skip_blanks(p, end);
	if (lpfd_parse_int(p, end, out) < 0 || *out < lo || *out > hi)
		return false;
	return *p == end || **p == ' ' || **p == '\t';
}

int lpfd_parse_fdinfo(const char *buf, size_t len, struct lpfd_fdinfo *out)
{
	const char *p = buf, *end = buf + len, *line, *v;
	size_t n;
	long long x;

	memset(out, 0, sizeof(*out));
	while (next_line(&p, end, &line, &n)) {
		const char *le = line + n;

		if (line_value(line, n, "flags:", &v)) {
			if (parse_digits(&v, le, 8, &x) == 0 && x <= 0xffffffffLL)
				out->flags = (unsigned int)x;
		} else if (line_value(line, n, "Pid:", &v)) {
			if (field_int(&v, le, -1, 0x7fffffff, &x)) {
				out->pid = (int)x;
				out->is_pidfd = true;
			}
		}
	}
	return out->is_pidfd ? 0 : -ENOENT;
}

/*
 * Four ids ("Uid:" and "Gid:" lines): real, effective, saved, filesystem.
 * All four or none: a line cut short must not leave half of its ids over
 * those of a well-formed one.
 */
static bool four_ids(const char *v, const char *le, unsigned int ids[4])
{
	unsigned int got[4];
	long long x;

	for (int i = 0; i < 4; i++) {
		if (!field_int(&v, le, 0, 0xffffffffLL, &x))
			return false;
		got[i] = (unsigned int)x;
	}
	memcpy(ids, got, sizeof(got));
	return true;
}

/*
 * "NSpid:": the pid in each pid namespace from procfs's down to the task's
 * own, at most 32 (the kernel's nesting limit), all well-formed or none.
 */
static void nspid(const char *v, const char *le, struct lpfd_status *out)
{
	long long x, first = 0;
	int levels = 0;

	while (v < le && levels <= 32) {
		if (!field_int(&v, le, 1, 0x7fffffff, &x))
			return;
		if (levels++ == 0)
			first = x;
		skip_blanks(&v, le);
	}
	if (levels == 0 || levels > 32)
		return;
	out->nspid_first = (int)first;
	out->nspid_levels = levels;
	out->have |= LPFD_ST_NSPID;
}

/* One line of a status file; only the lines get_info needs are looked at. */
static void status_line(const char *line, size_t n, struct lpfd_status *out)
{
	const char *le = line + n, *v;
	long long x;

	switch (n ? line[0] : 0) {
	case 'S':
		if (line_value(line, n, "State:", &v) && v < le) {
			out->state = *v;
			out->have |= LPFD_ST_STATE;
		}
		break;
	case 'T':
		if (line_value(line, n, "Tgid:", &v) &&
		    field_int(&v, le, 0, 0x7fffffff, &x)) {
			out->tgid = (int)x;
			out->have |= LPFD_ST_TGID;
		}
		break;
	case 'P':
		if (line_value(line, n, "Pid:", &v)) {
			if (field_int(&v, le, 0, 0x7fffffff, &x)) {
				out->pid = (int)x;
				out->have |= LPFD_ST_PID;
			}
		} else if (line_value(line, n, "PPid:", &v) &&
			   field_int(&v, le, 0, 0x7fffffff, &x)) {
			out->ppid = (int)x;
			out->have |= LPFD_ST_PPID;
		}
		break;
	case 'N':
		if (line_value(line, n, "NSpid:", &v))
			nspid(v, le, out);
		break;
	case 'U':
		if (line_value(line, n, "Uid:", &v) && four_ids(v, le, out->uid))
			out->have |= LPFD_ST_UID;
		break;
	case 'G':
		if (line_value(line, n, "Gid:", &v) && four_ids(v, le, out->gid))
			out->have |= LPFD_ST_GID;
		break;
	}
}

int lpfd_parse_status(const char *buf, size_t len, struct lpfd_status *out)
{
	const char *p = buf, *end = buf + len, *line;
	size_t n;

	memset(out, 0, sizeof(*out));
	while (next_line(&p, end, &line, &n))
		status_line(line, n, out);
	return 0;
}

/*
 * Whether a cgroup path is one the kernel prints: "/" and components,
 * none empty; ".." components only at its start (a cgroup outside our
 * cgroup namespace, reached by going up from its root), never after a
 * name. A name that merely starts with ".." is a name.
 */
static bool cgroup_path_ok(const char *v, size_t n)
{
	bool named = false;

	if (!n || v[0] != '/' || memchr(v, '\0', n))
		return false;
	for (size_t i = 1, start = 1; i <= n; i++) {
		size_t clen;

		if (i < n && v[i] != '/')
			continue;
		clen = i - start;
		if (clen == 0 && n > 1)
			return false; /* "//" or a trailing "/" */
		if (clen == 2 && v[start] == '.' && v[start + 1] == '.') {
			if (named)
				return false;
		} else if (clen) {
			named = true;
		}
		start = i + 1;
	}
	return true;
}

/*
 * "0::<path>" is the cgroup2 line; the path is as the kernel printed it,
 * " (deleted)" included (a cgroup that is gone, or a name that ends so:
 * the caller tells them apart).
 */
int lpfd_locate_cgroup(const char *buf, size_t len, size_t *off, size_t *n)
{
	const char *p = buf, *end = buf + len, *line, *v;
	size_t ln;

	while (next_line(&p, end, &line, &ln)) {
		if (!line_value(line, ln, "0::", &v) || v >= line + ln || *v != '/')
			continue;
		ln = (size_t)(line + ln - v);
		if (!cgroup_path_ok(v, ln))
			return -ENOENT;
		*off = (size_t)(v - buf);
		*n = ln;
		return 0;
	}
	return -ENOENT;
}

/*
 * The task's flags in /proc/<pid>/stat: "pid (comm) S ppid pgrp session
 * tty_nr tpgid flags ...". The command name may hold anything, so the
 * fields are counted from the last ')'.
 */
int lpfd_parse_stat_flags(const char *buf, size_t len, unsigned int *flags)
{
	const char *p = buf + len, *end = buf + len;
	long long x = -1;

	while (p > buf && p[-1] != ')')
		p--;
	if (p == buf)
		return -ENOENT;
	/* Past the state, the fields ppid (4) to flags (9). */
	if (end - p < 3 || p[0] != ' ' || p[1] <= ' ')
		return -ENOENT;
	p += 2;
	for (int field = 4; field <= 9; field++) {
		if (p >= end || *p != ' ')
			return -ENOENT;
		p++;
		if (lpfd_parse_int(&p, end, &x) < 0)
			return -ENOENT;
	}
	if (x < 0 || x > 0xffffffffLL || (p < end && *p != ' ' && *p != '\n'))
		return -ENOENT;
	*flags = (unsigned int)x;
	return 0;
}

/* Undo the octal escapes of mountinfo ("\040" for a space) in place. */
static size_t unescape(char *s, size_t len)
{
	size_t i = 0, o = 0;

	while (i < len) {
		if (s[i] == '\\' && i + 3 < len && s[i + 1] >= '0' && s[i + 1] <= '3' && s[i + 2] >= '0' &&
		    s[i + 2] <= '7' && s[i + 3] >= '0' && s[i + 3] <= '7') {
			s[o++] = (char)((s[i + 1] - '0') * 64 +
					(s[i + 2] - '0') * 8 + (s[i + 3] - '0'));
			i += 4;
		} else {
			s[o++] = s[i++];
		}
	}
	return o;
}

/* The next space-separated field of [*p, end), NUL-terminated in place. */
static char *next_field(char **p, char *end, size_t *len)
{
	char *f;

	while (*p < end && **p == ' ')
		(*p)++;
	if (*p >= end)
		return NULL;
	f = *p;
	while (*p < end && **p != ' ')
		(*p)++;
	*len = (size_t)(*p - f);
	if (*p < end)
		*(*p)++ = '\0';
	return f;
}

int lpfd_parse_mountinfo_line(char *line, size_t len,
				struct lpfd_mountinfo *out)
{
	char *p = line, *end = line + len, *f[5], *fs = NULL;
	size_t flen[5], n;
	const char *q;
	long long id;

	for (int i = 0; i < 5; i++) {
		f[i] = next_field(&p, end, &flen[i]);
		if (!f[i])
			return -ENOENT;
	}
	/* Optional fields end at a lone "-"; the file system type follows. */
	for (char *x; (x = next_field(&p, end, &n));) {
		if (n == 1 && x[0] == '-') {
			fs = next_field(&p, end, &n);
			break;
		}
	}
	if (!fs || n != 7 || memcmp(fs, "cgroup2", 7) != 0)
		return -ENOENT;
	q = f[0];
	if (lpfd_parse_int(&q, f[0] + flen[0], &id) < 0 ||
	    q != f[0] + flen[0] || id < 0 || id > 0x7fffffff)
		return -ENOENT;
	flen[3] = unescape(f[3], flen[3]);
	flen[4] = unescape(f[4], flen[4]);
	f[3][flen[3]] = f[4][flen[4]] = '\0';
	/* An escaped NUL would make the path mean something else. */
	if (f[3][0] != '/' || f[4][0] != '/' || strlen(f[3]) != flen[3] ||
	    strlen(f[4]) != flen[4])
		return -ENOENT;
	out->mnt_id = (int)id;
	out->root = f[3];
	out->mnt = f[4];
	return 0;
}
