/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer targets for the /proc parsers of lib/, one binary per
 * parser (built with -DFUZZ_<name>; see the Makefile's fuzz rules). Each
 * gets an exact-size copy of the input, so that AddressSanitizer sees a
 * read or write one byte past it, and checks what the parser promises
 * about its output, not only that it does not crash.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define CHECK(c)                                                               \
	do {                                                                   \
		if (!(c))                                                      \
			__builtin_trap();                                      \
	} while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#if defined(FUZZ_fdinfo)
static void one(const char *buf, size_t len)
{
	struct lpfd_fdinfo fi;
	int r = lpfd_parse_fdinfo(buf, len, &fi);

	CHECK(r == 0 || r == -ENOENT);
	CHECK((r == 0) == fi.is_pidfd);
	CHECK(fi.pid >= -1);
	CHECK(fi.is_pidfd || fi.pid == 0);
}
#elif defined(FUZZ_status)
static void one(const char *buf, size_t len)
{
	struct lpfd_status st;

	CHECK(lpfd_parse_status(buf, len, &st) == 0);
	CHECK((st.have & ~(LPFD_ST_INFO | LPFD_ST_NSPID)) == 0);
	CHECK((st.have & LPFD_ST_NSPID) ?
	      st.nspid_levels >= 1 && st.nspid_levels <= 32 &&
	      st.nspid_first > 0 : !st.nspid_levels && !st.nspid_first);
	CHECK(st.pid >= 0 && st.tgid >= 0 && st.ppid >= 0);
	CHECK((st.have & LPFD_ST_PID) || st.pid == 0);
	CHECK((st.have & LPFD_ST_UID) || !(st.uid[0] | st.uid[3]));
}
#elif defined(FUZZ_cgroup)
/* ".." components only lead the path: none follows a name. */
static bool dots_only_lead(const char *path)
{
	bool named = false;
	const char *c = path + 1;

	while (*c) {
		size_t n = strcspn(c, "/");

		if (n == 2 && c[0] == '.' && c[1] == '.') {
			if (named)
				return false;
		} else {
			named = true;
		}
		c += n;
		if (*c)
			c++;
	}
	return true;
}

/* The output buffer's size comes from the input's first byte. */
static void one(const char *buf, size_t len)
{
	size_t size = len ? (unsigned char)buf[0] + 1 : 1;
	char *path = malloc(size);
	int r;

	CHECK(path);
	r = lpfd_parse_cgroup(buf, len, path, size);
	CHECK(r == 0 || r == -ENOENT || r == -ENAMETOOLONG);
	if (r == 0) {
		size_t n = strnlen(path, size);

		CHECK(n < size && path[0] == '/');
		CHECK(!strstr(path, "//") && dots_only_lead(path));
		CHECK(memmem(buf, len, path, n)); /* copied, never invented */
	}
	free(path);
}
#elif defined(FUZZ_mountinfo)
/* The reader hands the parser one line at a time, without its newline. */
static void one(const char *buf, size_t len)
{
	const char *p = buf, *end = buf + len;

	while (p <= end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl ? nl : end) - p);
		char *line = malloc(n ? n : 1);
		struct lpfd_mountinfo mi;
		int r;

		CHECK(line);
		memcpy(line, p, n);
		r = lpfd_parse_mountinfo_line(line, n, &mi);
		CHECK(r == 0 || r == -ENOENT);
		if (r == 0) {
			CHECK(mi.mnt_id >= 0);
			CHECK(mi.root >= line && mi.root < line + n);
			CHECK(mi.mnt >= line && mi.mnt < line + n);
			CHECK(mi.root[0] == '/' && mi.mnt[0] == '/');
			CHECK(memchr(mi.root, '\0', (size_t)(line + n - mi.root)));
			CHECK(memchr(mi.mnt, '\0', (size_t)(line + n - mi.mnt)));
		}
		free(line);
		if (!nl)
			break;
		p = nl + 1;
	}
}
#elif defined(FUZZ_int)
static void one(const char *buf, size_t len)
{
	const char *p = buf, *end = buf + len;
	long long v = 12345;
	int r = lpfd_parse_int(&p, end, &v);

	CHECK(r == 0 || r == -EINVAL || r == -ERANGE);
	CHECK(p >= buf && p <= end);
	if (r == 0) {
		CHECK(p > buf);
		CHECK(v > -1000000000000000000LL && v < 1000000000000000000LL);
		CHECK(v == 0 || (buf[0] == '-') == (v < 0));
	}
}
#elif defined(FUZZ_stat)
static void one(const char *buf, size_t len)
{
	unsigned int flags;
	struct lpfd_stat st;
	int r = lpfd_parse_stat(buf, len, &st), code;

	CHECK(r == 0 || r == -ENOENT);
	CHECK(r == 0 || st.have == 0);
	CHECK((st.have & ~(LPFD_STAT_COMM | LPFD_STAT_STATE |
			   LPFD_STAT_START | LPFD_STAT_PS)) == 0);
	flags = 0;
	r = lpfd_parse_stat_flags(buf, len, &flags);
	CHECK(r == 0 || (r == -ENOENT && flags == 0));
	CHECK(memchr(st.comm, '\0', sizeof(st.comm)));
	/* The name is copied from between the parentheses, never invented. */
	CHECK(!(st.have & LPFD_STAT_COMM) ||
	      memmem(buf, len, st.comm, strlen(st.comm)));
	CHECK(!(st.have & LPFD_STAT_STATE) || st.state > ' ');
	CHECK((st.have & LPFD_STAT_STATE) || !(st.have & LPFD_STAT_START));
	/* An exit code is a wait status, written only where well-formed. */
	code = -1;
	r = lpfd_parse_stat_exit_code(buf, len, &code);
	CHECK((r == 0 && code >= 0 && code <= 0xffff) ||
	      (r == -ENOENT && code == -1));
}
#elif defined(FUZZ_cmdline)
/* The output buffer's size comes from the input's first byte. */
static void one(const char *buf, size_t len)
{
	size_t size = len ? (unsigned char)buf[0] : 0;
	char *out = malloc(size ? size : 1);
	ssize_t r;

	CHECK(out);
	r = lpfd_parse_cmdline(buf, len, out, size);
	CHECK(r == -ENOENT || (r >= 0 && (size_t)r < size));
	if (r >= 0) {
		CHECK(out[r] == '\0' && strlen(out) == (size_t)r);
		CHECK(r > 0 || size == 1);
		for (ssize_t i = 0; i < r; i++)
			CHECK(out[i] == buf[i] || (out[i] == ' ' && !buf[i]));
	}
	free(out);
}
#else
#error "build with -DFUZZ_fdinfo, _status, _cgroup, _mountinfo, _int, _stat or _cmdline"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size ? size : 1);

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	one(buf, size);
	free(buf);
	return 0;
}
