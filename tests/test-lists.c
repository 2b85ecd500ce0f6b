/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Every copy of the library's lists has every entry: the operations and
 * the kernel features of lib/feature_list.h in the man page, in the docs'
 * tables of what each kernel does and in the recorded `pidfd features` of
 * each user-mode-linux kernel (tests/kernels/); the PIDFD_INFO_* bits of
 * the public header in the list and in libpidfd_get_info(3). What the code makes from
 * the lists is generated, or static-asserted against the public header
 * (src/features.c); these are the copies written for readers, which a new
 * entry must reach.
 */
#include <dirent.h>
#include <glob.h>

#include "harness.h"
#include "internal.h"
#include "util.h"

static const char *const operations[] = {
#define OPERATION(field, feat, without, how) #field,
	LPFD_OPERATIONS(OPERATION)
#undef OPERATION
};

static const struct {
	const char *name, *since, *what;
} features[] = {
#define FEATURE(NAME, name, since, emulable, what) { #NAME, since, what },
	LPFD_FEATURES(FEATURE)
#undef FEATURE
};

static const struct {
	const char *name, *field;
} info_bits[] = {
#define INFO_BIT(NAME, feat, emulated, last) { #NAME, #last },
	LPFD_INFO_BITS(INFO_BIT)
#undef INFO_BIT
};

static bool is_word_char(char c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9');
}

/* word in text[0, end), not as part of a longer name. */
static bool has_word(const char *text, const char *end, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = text; (p = strstr(p, word)) && p + n <= end; p++)
		if ((p == text || !is_word_char(p[-1])) && !is_word_char(p[n]))
			return true;
	return false;
}

/* What lies between the first from and the next to after it. */
static const char *section(const char *text, const char *from, const char *to,
			   const char **end)
{
	const char *start = strstr(text, from);

	if (!start)
		FAIL("no \"%s\"", from);
	*end = strstr(start, to);
	if (!*end)
		FAIL("no \"%s\" after \"%s\"", to, from);
	return start;
}

TEST(the_man_page_lists_every_operation_and_feature)
{
	char *man = util_read_text("man/libpidfd_features.3");
	const char *end, *s = section(man, "struct libpidfd_features {", "};",
				      &end);
	char row[96];

	for (size_t i = 0; i < lpfd_array_size(operations); i++)
		if (!has_word(s, end, operations[i]))
			FAIL("man/libpidfd_features.3: the struct lacks %s",
			     operations[i]);
	for (size_t i = 0; i < lpfd_array_size(features); i++) {
		snprintf(row, sizeof(row), "\nLIBPIDFD_KERNEL_%s\t%s\n",
			 features[i].name, features[i].since);
		if (!strstr(man, row))
			FAIL("man/libpidfd_features.3: the table lacks "
			     "LIBPIDFD_KERNEL_%s (%s)", features[i].name,
			     features[i].since);
	}
	free(man);
}

/* The README and the .md files of docs/, one text, without backquotes. */
static char *docs_text(void)
{
	glob_t g = { 0 };
	size_t len = 0;
	char *all = NULL;
	int r = glob("docs/*.md", 0, NULL, &g);

	ASSERT_TRUE(r == 0 || r == GLOB_NOMATCH);
	for (size_t i = 0; i <= g.gl_pathc; i++) {
		char *t = util_read_text(i ? g.gl_pathv[i - 1] : "README.md");
		size_t n = strlen(t);

		all = realloc(all, len + n + 1);
		ASSERT_TRUE(all != NULL);
		for (size_t k = 0; k < n; k++)
			if (t[k] != '`')
				all[len++] = t[k];
		free(t);
	}
	all[len] = '\0';
	globfree(&g);
	return all;
}

/*
 * The tables of what each kernel does: a row "| op |" per operation, and
 * each feature as "what (since)", its "(2)" dropped.
 */
TEST(the_docs_tables_list_every_operation_and_feature)
{
	char *docs = docs_text(), want[96];

	for (size_t i = 0; i < lpfd_array_size(operations); i++) {
		snprintf(want, sizeof(want), "\n| %s |", operations[i]);
		if (!strstr(docs, want))
			FAIL("README.md, docs/*.md: no table row \"| `%s` |\"",
			     operations[i]);
	}
	for (size_t i = 0; i < lpfd_array_size(features); i++) {
		const char *what = features[i].what, *call = strstr(what, "(2)");
		int n = call ? (int)(call - what) : (int)strlen(what);

		snprintf(want, sizeof(want), "%.*s%s (%s)", n, what,
			 call ? call + 3 : "", features[i].since);
		if (!strstr(docs, want))
			FAIL("README.md, docs/*.md: no table entry \"%s\"", want);
	}
	free(docs);
}

/* Each kernel's record (tests/uml-features.sh --record rewrites one). */
TEST(every_kernel_record_has_every_operation_and_feature)
{
	glob_t g;

	ASSERT_EQ(glob("tests/kernels/*.features", 0, NULL, &g), 0);
	for (size_t k = 0; k < g.gl_pathc; k++) {
		char *rec = util_read_text(g.gl_pathv[k]), want[96];

		for (size_t i = 0; i < lpfd_array_size(operations); i++) {
			snprintf(want, sizeof(want), "\n%-17s ", operations[i]);
			if (!strstr(rec, want))
				FAIL("%s lacks operation %s (tests/uml-features.sh "
				     "--record)", g.gl_pathv[k], operations[i]);
		}
		for (size_t i = 0; i < lpfd_array_size(features); i++) {
			snprintf(want, sizeof(want), "\n%-31s %-6s ",
				 features[i].what, features[i].since);
			if (!strstr(rec, want))
				FAIL("%s lacks feature %s (tests/uml-features.sh "
				     "--record)", g.gl_pathv[k], features[i].what);
		}
		free(rec);
	}
	globfree(&g);
}

/*
 * Every PIDFD_INFO_* bit the public header defines is in the library's
 * list (which makes what get_info can return and the tool's names), and
 * its man page names each bit and the field it fills.
 */
TEST(every_info_bit_is_listed_and_documented)
{
	char *h = util_read_text("include/libpidfd.h");
	char *man = util_read_text("man/libpidfd_get_info.3");
	const char *p = h, *man_end = man + strlen(man);
	char name[64], word[80];

	while ((p = strstr(p, "#define PIDFD_INFO_"))) {
		bool listed = false;

		p += strlen("#define PIDFD_INFO_");
		if (sscanf(p, "%63[A-Z0-9_] (1UL <<", name) != 1 ||
		    !strstr(p, "(1UL <<") || strchr(p, '\n') < strstr(p, "(1UL <<"))
			continue;
		for (size_t i = 0; i < lpfd_array_size(info_bits); i++)
			listed |= strcmp(info_bits[i].name, name) == 0;
		if (!listed)
			FAIL("include/libpidfd.h: PIDFD_INFO_%s is not in "
			     "LPFD_INFO_BITS (lib/feature_list.h)", name);
	}
	for (size_t i = 0; i < lpfd_array_size(info_bits); i++) {
		snprintf(word, sizeof(word), "PIDFD_INFO_%s", info_bits[i].name);
		if (!has_word(man, man_end, word))
			FAIL("man/libpidfd_get_info.3 does not name %s", word);
		if (!has_word(man, man_end, info_bits[i].field))
			FAIL("man/libpidfd_get_info.3 does not name the field %s",
			     info_bits[i].field);
	}
	free(man);
	free(h);
}
