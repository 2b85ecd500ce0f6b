/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The order of info's rows, once all are known: --sort by any columns,
 * each ascending or descending, and --forest, each process under its
 * parent as ps -ef --forest draws it.
 */
#include <stdlib.h>
#include <string.h>

#include "pidfd.h"

static const bool *sort_desc;
static size_t sort_nkeys;

static int value_cmp(const struct sort_value *a, const struct sort_value *b)
{
	if (a->known != b->known)
		return a->known ? 1 : -1; /* unknown first, as the lowest */
	if (!a->known)
		return 0;
	if (a->str || b->str)
		return strcmp(a->str ? a->str : "", b->str ? b->str : "");
	return a->num < b->num ? -1 : a->num > b->num;
}

static int row_cmp(const void *pa, const void *pb)
{
	const struct row *a = pa, *b = pb;

	for (size_t k = 0; k < sort_nkeys; k++) {
		int c = value_cmp(&a->keys[k], &b->keys[k]);

		if (c)
			return sort_desc[k] ? -c : c;
	}
	/* Equal keys keep the order /proc listed them in, as ps. */
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

void rows_sort(struct row *rows, size_t n, const bool *desc, size_t nkeys)
{
	sort_desc = desc;
	sort_nkeys = nkeys;
	qsort(rows, n, sizeof(*rows), row_cmp);
}

#define NONE ((size_t)-1)

struct forest {
	const struct row *rows;
	size_t *first, *next, *last; /* children, in the rows' order */
	size_t *order, done;         /* the rows in tree order */
	char **prefix;               /* each row's " \_ ", by row */
	bool *more;                  /* by depth: the ancestor has siblings after */
	bool *seen;
};

static const struct row *by_pid_rows;

static int pid_cmp(const void *pa, const void *pb)
{
	uint32_t a = by_pid_rows[*(const size_t *)pa].pid,
		 b = by_pid_rows[*(const size_t *)pb].pid;

	return a < b ? -1 : a > b;
}

/* ps's " |  " under an ancestor with siblings to come, "    " else. */
static char *prefix_of(const bool *more, size_t depth)
{
	char *s = malloc(4 * depth + 1), *o = s;

	if (!s)
		abort();
	for (size_t d = 1; d < depth; d++, o += 4)
		memcpy(o, more[d] ? " |  " : "    ", 4);
	if (depth) {
		memcpy(o, " \\_ ", 4);
		o += 4;
	}
	*o = '\0';
	return s;
}

static void visit(struct forest *f, size_t i, size_t depth)
{
	f->seen[i] = true;
	f->order[f->done++] = i;
	f->prefix[i] = prefix_of(f->more, depth);
	for (size_t c = f->first[i]; c != NONE; c = f->next[c]) {
		f->more[depth + 1] = f->next[c] != NONE;
		if (!f->seen[c])
			visit(f, c, depth + 1);
	}
}

static size_t *alloc_n(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (!p)
		abort();
	return p;
}

/* The row of a pid, by_pid sorted by pid: its index, or NONE. */
static size_t row_of(const struct row *rows, const size_t *by_pid, size_t n,
		     uint32_t pid)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint32_t p = rows[by_pid[mid]].pid;

		if (p == pid)
			return by_pid[mid];
		if (p < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NONE;
}

/*
 * Each row's parent among the rows, children linked in the rows' order;
 * child[i] where row i has one.
 */
static void link_children(struct forest *f, size_t n, bool *child)
{
	size_t *by_pid = alloc_n(n, sizeof(size_t));

	for (size_t i = 0; i < n; i++) {
		by_pid[i] = i;
		f->first[i] = f->next[i] = f->last[i] = NONE;
	}
	by_pid_rows = f->rows;
	qsort(by_pid, n, sizeof(*by_pid), pid_cmp);
	for (size_t i = 0; i < n; i++) {
		size_t parent = f->rows[i].ppid ?
				row_of(f->rows, by_pid, n, f->rows[i].ppid) : NONE;

		if (parent == NONE || parent == i)
			continue;
		if (f->last[parent] == NONE)
			f->first[parent] = i;
		else
			f->next[f->last[parent]] = i;
		f->last[parent] = i;
		child[i] = true;
	}
	free(by_pid);
}

size_t *rows_forest(const struct row *rows, size_t n, char ***prefix)
{
	struct forest f = { .rows = rows };
	bool *child;

	f.first = alloc_n(n, sizeof(size_t));
	f.next = alloc_n(n, sizeof(size_t));
	f.last = alloc_n(n, sizeof(size_t));
	f.order = alloc_n(n, sizeof(size_t));
	f.prefix = (char **)alloc_n(n, sizeof(char *));
	f.more = (bool *)alloc_n(n + 2, sizeof(bool));
	f.seen = (bool *)alloc_n(n, sizeof(bool));
	child = (bool *)alloc_n(n, sizeof(bool));
	link_children(&f, n, child);
	for (size_t i = 0; i < n; i++)
		if (!child[i])
			visit(&f, i, 0);
	/* A loop of parents (never in one kernel's view): each its own root. */
	for (size_t i = 0; i < n; i++)
		if (!f.seen[i])
			visit(&f, i, 0);
	free(child);
	free(f.seen);
	free(f.first);
	free(f.next);
	free(f.last);
	free(f.more);
	*prefix = f.prefix;
	return f.order;
}
