/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Text for people and for programs, whatever bytes a process or a cgroup
 * name holds. Tables escape what a terminal would act on or cannot show
 * as util-linux does ("\x1b"), and align by display width in the user's
 * locale; JSON is always valid UTF-8 (pidfd(1) gives the rule).
 */
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <wctype.h>

#include "pidfd.h"

static size_t hex(char *o, unsigned char c)
{
	static const char digits[] = "0123456789abcdef";

	o[0] = '\\';
	o[1] = 'x';
	o[2] = digits[c >> 4];
	o[3] = digits[c & 15];
	return 4;
}

/* One ASCII byte: copied, or escaped (controls, "\x" itself, raw blanks). */
static size_t encode_ascii(const char *s, char *o, bool raw)
{
	unsigned char c = (unsigned char)*s;

	if (c < 0x20 || c == 0x7f || (c == '\\' && s[1] == 'x') ||
	    (raw && c == ' '))
		return hex(o, c);
	*o = (char)c;
	return 1;
}

char *cell_encode(const char *s, bool raw, size_t *width)
{
	size_t left = strlen(s), o = 0, w = 0;
	char *out = malloc(left * 4 + 1);
	mbstate_t st;

	if (!out)
		abort();
	memset(&st, 0, sizeof(st));
	while (left) {
		size_t n = 1, k;
		wchar_t wc;
		int cw = -1;

		if ((unsigned char)*s < 0x80) {
			k = encode_ascii(s, out + o, raw);
			o += k;
			w += k;
		} else if ((n = mbrtowc(&wc, s, left, &st)) > 0 && n <= left &&
			   iswprint((wint_t)wc) && (cw = wcwidth(wc)) >= 0) {
			memcpy(out + o, s, n);
			o += n;
			w += (size_t)cw;
		} else {
			/* Invalid, cut short or unprintable: each byte as \xHH. */
			if (n == 0 || n > left)
				n = 1;
			for (size_t i = 0; i < n; i++)
				o += hex(out + o, (unsigned char)s[i]);
			w += 4 * n;
			memset(&st, 0, sizeof(st));
		}
		s += n;
		left -= n;
	}
	out[o] = '\0';
	*width = w;
	return out;
}

void table_add_row(struct table *t, char **values)
{
	if (t->nrows == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 64;
		t->rows = realloc(t->rows, t->cap * sizeof(*t->rows));
		if (!t->rows)
			abort();
	}
	t->rows[t->nrows++] = values;
}

/* Every cell escaped in place (NULL as "-"), its width in cw[]. */
static size_t *table_encode(struct table *t, bool raw, size_t *cw)
{
	size_t *width = calloc(t->ncols, sizeof(*width));

	if (!width)
		abort();
	for (size_t c = 0; c < t->ncols; c++)
		width[c] = strlen(t->names[c]);
	for (size_t r = 0; r < t->nrows; r++) {
		for (size_t c = 0; c < t->ncols; c++) {
			char *v = t->rows[r][c];
			size_t *w = &cw[r * t->ncols + c];

			t->rows[r][c] = cell_encode(v ? v : "-", raw, w);
			free(v);
			if (*w > width[c])
				width[c] = *w;
		}
	}
	return width;
}

static void print_cell(FILE *f, const char *s, size_t w, size_t width,
		       bool right, bool last)
{
	if (right)
		for (size_t i = w; i < width; i++)
			fputc(' ', f);
	fputs(s, f);
	if (!right && !last)
		for (size_t i = w; i < width; i++)
			fputc(' ', f);
	fputc(last ? '\n' : ' ', f);
}

/*
 * util-linux's layout: one space between columns, numbers right-aligned,
 * the last column unpadded; raw: no padding at all, blanks escaped too.
 */
void table_print(FILE *f, struct table *t, bool headings, bool raw)
{
	size_t *cw = calloc(t->nrows * t->ncols + 1, sizeof(*cw));
	size_t *width;

	if (!cw)
		abort();
	width = table_encode(t, raw, cw);
	for (size_t c = 0; headings && c < t->ncols; c++)
		print_cell(f, t->names[c], strlen(t->names[c]),
			   raw ? 0 : width[c], t->right[c], c + 1 == t->ncols);
	for (size_t r = 0; r < t->nrows; r++)
		for (size_t c = 0; c < t->ncols; c++)
			print_cell(f, t->rows[r][c], cw[r * t->ncols + c],
				   raw ? 0 : width[c], t->right[c],
				   c + 1 == t->ncols);
	free(width);
	free(cw);
}

void table_free(struct table *t)
{
	for (size_t r = 0; r < t->nrows; r++) {
		for (size_t c = 0; c < t->ncols; c++)
			free(t->rows[r][c]);
		free(t->rows[r]);
	}
	free(t->rows);
	t->rows = NULL;
	t->nrows = t->cap = 0;
}

/* The length of the valid UTF-8 sequence at s (RFC 3629), 0 if none. */
static size_t utf8_len(const unsigned char *s)
{
	size_t n = s[0] < 0x80 ? 1 : s[0] < 0xc2 ? 0 : s[0] < 0xe0 ? 2 :
		   s[0] < 0xf0 ? 3 : s[0] < 0xf5 ? 4 : 0;

	for (size_t i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] >= 0xa0) ||
	    (s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] >= 0x90))
		return 0; /* overlong, a surrogate, or past U+10FFFF */
	return n;
}

/*
 * Valid UTF-8 as it is, controls as \u00XX; a byte that is not UTF-8 as
 * the text \xHH (JSON "\\xHH"), and so a backslash before an "x" as \x5c,
 * as the tables have them: the bytes can be told back.
 */
void json_string(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	if (!s) {
		fputs("null", f);
		return;
	}
	fputc('"', f);
	while (*p) {
		size_t n = utf8_len(p);

		if (n == 0 || (p[0] == '\\' && p[1] == 'x'))
			fprintf(f, "\\\\x%02x", p[0]);
		else if (p[0] == '"' || p[0] == '\\')
			fprintf(f, "\\%c", p[0]);
		else if (p[0] < 0x20)
			fprintf(f, "\\u%04x", p[0]);
		else
			fwrite(p, 1, n, f);
		p += n ? n : 1;
	}
	fputc('"', f);
}

/*
 * util-linux's shape, one document a run: {"name": [ ... ], ...}, each
 * element of an array on a line of its own.
 */
void json_doc_begin(FILE *f)
{
	fputs("{\n", f);
}

void json_array_begin(FILE *f, const char *name, bool first)
{
	fprintf(f, "%s   \"%s\": [", first ? "" : ",\n", name);
}

void json_array_item(FILE *f, size_t index)
{
	fputs(index ? ",\n      " : "\n      ", f);
}

void json_array_end(FILE *f)
{
	fputs("\n   ]", f);
}

void json_doc_end(FILE *f)
{
	fputs("\n}\n", f);
}
