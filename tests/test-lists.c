/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Every copy of the library's lists has every entry: the operations and
 * the kernel features of include/internal/feature_list.h in the man
 * page, in the docs' tables of what each kernel does and in the recorded
 * `pidfd features` of each kernel the tests run on (tests/kernels/, one
 * record per kernel version); the PIDFD_INFO_* bits of
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

static const struct {
	const char *name, *column;
	size_t offset, since;
	uint64_t bit;
} fields[] = {
#define FIELD(field, offset, since, bit, column)                               \
	{ #field, column, offset, since, bit },
	LPFD_INFO_FIELDS(FIELD)
#undef FIELD
};

static const uint64_t info_bit_values[] = {
#define INFO_BIT(NAME, feat, emulated, last) PIDFD_INFO_##NAME,
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

/* A version "major.minor" as one number. */
static unsigned int version_number(const char *v)
{
	unsigned int major = 0, minor = 0;

	sscanf(v, "%u.%u", &major, &minor);
	return major << 16 | minor;
}

/*
 * A feature newer than a record's kernel ("# suite: Linux x.y.z") may be
 * left out of it: that kernel says "no" (tests/uml-features.sh reads it
 * so), and a new feature changes only the records of kernels that have it.
 */
static bool newer_than_record(const char *since, const char *rec)
{
	const char *v = strstr(rec, ": Linux ");

	ASSERT_TRUE(v != NULL);
	return version_number(since) > version_number(v + strlen(": Linux "));
}

/*
 * A record is named after its kernel's version, MAJOR.MINOR: one per
 * kernel, whichever guests run it (tests/uml-features.sh finds it so).
 */
static void expect_named_by_version(const char *path, const char *rec)
{
	const char *v = strstr(rec, ": Linux ");
	unsigned int major, minor;
	char want[64];

	ASSERT_TRUE(v != NULL);
	ASSERT_EQ(sscanf(v, ": Linux %u.%u", &major, &minor), 2);
	snprintf(want, sizeof(want), "tests/kernels/%u.%u.features", major, minor);
	if (strcmp(path, want) != 0)
		FAIL("%s records Linux %u.%u: its name is %s", path, major,
		     minor, want);
}

/* Each kernel's record (tests/uml-features.sh --record rewrites one). */
TEST(every_kernel_record_has_every_operation_and_feature)
{
	glob_t g;

	ASSERT_EQ(glob("tests/kernels/*.features", 0, NULL, &g), 0);
	for (size_t k = 0; k < g.gl_pathc; k++) {
		char *rec = util_read_text(g.gl_pathv[k]), want[96];

		expect_named_by_version(g.gl_pathv[k], rec);

		for (size_t i = 0; i < lpfd_array_size(operations); i++) {
			snprintf(want, sizeof(want), "\n%-17s ", operations[i]);
			if (!strstr(rec, want))
				FAIL("%s lacks operation %s (tests/uml-features.sh "
				     "--record)", g.gl_pathv[k], operations[i]);
		}
		for (size_t i = 0; i < lpfd_array_size(features); i++) {
			snprintf(want, sizeof(want), "\n%-31s %-6s ",
				 features[i].what, features[i].since);
			if (!strstr(rec, want) &&
			    !newer_than_record(features[i].since, rec))
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
			     "LPFD_INFO_BITS (include/internal/feature_list.h)", name);
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

/*
 * The two lists agree: each field is filled under a listed bit, each bit
 * fills a listed field; and a field without a column of the tool is not
 * the process's (a mask or padding).
 */
TEST(every_info_field_is_under_a_listed_bit)
{
	for (size_t i = 0; i < lpfd_array_size(fields); i++) {
		bool listed = !fields[i].bit;

		for (size_t b = 0; b < lpfd_array_size(info_bit_values); b++)
			listed |= fields[i].bit == info_bit_values[b];
		if (!listed)
			FAIL("LPFD_INFO_FIELDS: the bit of %s is not in "
			     "LPFD_INFO_BITS", fields[i].name);
		if (!fields[i].column && fields[i].bit &&
		    fields[i].bit != PIDFD_INFO_SUPPORTED_MASK)
			FAIL("LPFD_INFO_FIELDS: %s has a value and no column",
			     fields[i].name);
	}
	for (size_t b = 0; b < lpfd_array_size(info_bit_values); b++) {
		bool filled = false;

		for (size_t i = 0; i < lpfd_array_size(fields); i++)
			filled |= fields[i].bit == info_bit_values[b];
		if (!filled)
			FAIL("LPFD_INFO_BITS: %s fills no field of "
			     "LPFD_INFO_FIELDS", info_bits[b].name);
	}
}

/* member, accessed as ->member or .member, somewhere in text. */
static bool has_member_use(const char *text, const char *member)
{
	size_t n = strlen(member);

	for (const char *p = text; (p = strstr(p, member)); p++)
		if (p > text && (p[-1] == '.' || p[-1] == '>') &&
		    !is_word_char(p[n]))
			return true;
	return false;
}

/* Each field with a value, as member access in file. */
static void expect_member_uses(const char *file)
{
	char *text = util_read_text(file);

	for (size_t i = 0; i < lpfd_array_size(fields); i++)
		if (fields[i].bit && !has_member_use(text, fields[i].name))
			FAIL("%s checks no value of %s", file, fields[i].name);
	free(text);
}

/*
 * Each layout of the list has its PIDFD_INFO_SIZE_VERn in text, as
 * `PIDFD_INFO_SIZE_VERn<sep>size`, sep one of the strings given.
 */
static void expect_layout_sizes(const char *what, const char *text,
				const char *sep)
{
	for (size_t i = 0; i < lpfd_array_size(fields); i++) {
		bool found = false;
		char fmt[32];
		unsigned int n;
		size_t size;

		snprintf(fmt, sizeof(fmt), "PIDFD_INFO_SIZE_VER%%u%s%%zu", sep);
		for (const char *p = text; (p = strstr(p, "PIDFD_INFO_SIZE_VER")); p++)
			found |= sscanf(p, fmt, &n, &size) == 2 &&
				 size == fields[i].since;
		if (!found)
			FAIL("%s has no PIDFD_INFO_SIZE_VERn of %zu bytes", what,
			     fields[i].since);
	}
}

/* Each field of the list in text[0, end), as a word. */
static void expect_field_names(const char *what, const char *text,
			       const char *end)
{
	for (size_t i = 0; i < lpfd_array_size(fields); i++)
		if (!has_word(text, end, fields[i].name))
			FAIL("%s lacks the field %s", what, fields[i].name);
}

/*
 * The copies of struct pidfd_info written for compilers and readers have
 * every field of the list where it is: the user's static asserts
 * (tests/header-use.h, compiled by tests/header.sh after every include
 * order), the shim's kernel-API test, the manual; each value is
 * checked by tests/test-get-info.c, and NEWS names each bit.
 */
TEST(every_copy_of_the_info_struct_has_every_field)
{
	char *use = util_read_text("tests/header-use.h");
	char *kapi = util_read_text("tests/compat/kapi.c");
	char *man = util_read_text("man/libpidfd_get_info.3");
	char *news = util_read_text("NEWS");
	char *h = util_read_text("include/libpidfd.h");
	char line[96];

	/* SA_LAYOUT(t), applied to struct libpidfd_info and pidfd_info. */
	snprintf(line, sizeof(line), "SA(sizeof(struct t) == %zu,",
		 sizeof(struct pidfd_info));
	if (!strstr(use, line))
		FAIL("tests/header-use.h lacks %s", line);
	for (size_t i = 1; i < lpfd_array_size(fields); i++) {
		snprintf(line, sizeof(line),
			 "SA(offsetof(struct t, %s) == %zu,",
			 fields[i].name, fields[i].offset);
		if (!strstr(use, line))
			FAIL("tests/header-use.h lacks %s", line);
	}
	for (size_t b = 0; b < lpfd_array_size(info_bits); b++) {
		snprintf(line, sizeof(line), "PIDFD_INFO_%s", info_bits[b].name);
		if (!has_word(use, use + strlen(use), line))
			FAIL("tests/header-use.h does not use %s", line);
		if (!has_word(news, news + strlen(news), line))
			FAIL("NEWS does not name %s", line);
	}
	expect_layout_sizes("tests/header-use.h", use, " ==");
	expect_layout_sizes("include/libpidfd.h", h, "");
	expect_field_names("tests/compat/kapi.c", kapi, kapi + strlen(kapi));
	expect_field_names("man/libpidfd_get_info.3", man, man + strlen(man));
	expect_member_uses("tests/test-get-info.c");
	free(h);
	free(news);
	free(man);
	free(kapi);
	free(use);
}
