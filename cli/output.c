/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Text for people and for programs, whatever bytes a process or a cgroup
 * name holds. Tables escape what a terminal would act on or cannot show
 * as util-linux does ("\x1b"), and align by display width in the user's
 * locale; JSON is always valid UTF-8 (pidfd(1) gives the rule).
 */
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
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

/*
 * As util-linux's get_terminal_width(): $COLUMNS, else the terminal's
 * size; only where stdout is a terminal, never for a pipe or a file.
 */
size_t terminal_width(void)
{
	const char *env = getenv("COLUMNS");
	struct winsize ws;
	char *end;
	long cols;

	if (!isatty(STDOUT_FILENO))
		return 0;
	if (env && *env) {
		cols = strtol(env, &end, 10);
		if (!*end && cols > 0 && cols < 100000)
			return (size_t)cols;
	}
	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	return 80;
}

/* An encoded cell cut in place to at most w display columns. */
static size_t cut_cell(char *s, size_t w)
{
	size_t o = 0, used = 0, left = strlen(s);
	mbstate_t st;

	memset(&st, 0, sizeof(st));
	while (left) {
		wchar_t wc;
		size_t n = mbrtowc(&wc, s + o, left, &st);
		int cw = 1;

		if (n == 0 || n > left) /* cannot be: the cell is encoded */
			n = 1;
		else if ((unsigned char)s[o] >= 0x80 && (cw = wcwidth(wc)) < 0)
			cw = 0;
		if (used + (size_t)cw > w)
			break;
		used += (size_t)cw;
		o += n;
		left -= n;
	}
	s[o] = '\0';
	return used;
}

/*
 * Lines wider than t->max_width: the truncatable column is narrowed,
 * down to its heading's width, and its cells cut to that, as ps cuts its
 * command lines on a terminal.
 */
static void table_fit(struct table *t, size_t *width, size_t *cw)
{
	size_t total = t->ncols ? t->ncols - 1 : 0, c;

	for (c = 0; c < t->ncols; c++)
		total += width[c];
	if (!t->max_width || !t->trunc || total <= t->max_width)
		return;
	for (c = 0; c < t->ncols && !t->trunc[c]; c++)
		;
	if (c == t->ncols)
		return;
	width[c] -= total - t->max_width < width[c] - strlen(t->names[c]) ?
		    total - t->max_width : width[c] - strlen(t->names[c]);
	for (size_t r = 0; r < t->nrows; r++)
		if (cw[r * t->ncols + c] > width[c])
			cw[r * t->ncols + c] = cut_cell(t->rows[r][c], width[c]);
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
 * One line of the table; on a terminal (max_width) still wider than it
 * once ARGS is narrowed (-o all), cut at its width, as ps cuts its lines.
 */
static void print_line(FILE *f, struct table *t, const char *const *cells,
		       const size_t *cw, const size_t *width, bool raw)
{
	bool cut = t->max_width && !raw;
	FILE *o = f;
	char *line = NULL;
	size_t len = 0;

	if (cut && !(o = open_memstream(&line, &len)))
		abort();
	for (size_t c = 0; c < t->ncols; c++)
		print_cell(o, cells[c], cw[c], raw ? 0 : width[c], t->right[c],
			   c + 1 == t->ncols);
	if (!cut)
		return;
	if (fclose(o) != 0)
		abort();
	line[len - 1] = '\0'; /* the newline */
	cut_cell(line, t->max_width);
	for (len = strlen(line); len && line[len - 1] == ' ';)
		line[--len] = '\0';
	fprintf(f, "%s\n", line);
	free(line);
}

/*
 * util-linux's layout: one space between columns, numbers right-aligned,
 * the last column unpadded; raw: no padding at all, blanks escaped too.
 */
void table_print(FILE *f, struct table *t, bool headings, bool raw)
{
	size_t *cw = calloc((t->nrows + 1) * t->ncols + 1, sizeof(*cw));
	size_t *width;

	if (!cw)
		abort();
	width = table_encode(t, raw, cw);
	if (!raw)
		table_fit(t, width, cw);
	if (headings) {
		size_t *hw = cw + t->nrows * t->ncols;

		for (size_t c = 0; c < t->ncols; c++)
			hw[c] = strlen(t->names[c]);
		print_line(f, t, t->names, hw, width, raw);
	}
	for (size_t r = 0; r < t->nrows; r++)
		print_line(f, t, (const char *const *)t->rows[r], cw + r * t->ncols,
			   width, raw);
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
