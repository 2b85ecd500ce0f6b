/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * pidfd --help, pidfd(1) and the bash completion say the same things,
 * checked mechanically: every option, field and default in one is in the
 * others. The completion is run in bash, as bash-completion would run it.
 */
#include <ctype.h>

#include "cli.h"
#include "util.h"
#include "../lib/feature_list.h"

static const char commands[][9] = { "info", "wait", "kill", "features" };

static char *help_text(void)
{
	struct cli_out o;

	ASSERT_EQ(CLI(&o, "pidfd", "--help"), 0);
	return strdup(o.out);
}

/*
 * The word of letters, digits and '-' that starts at s, copied; in roff
 * text ("\-" for '-') too.
 */
static const char *word_at(const char *s)
{
	static char w[64];
	size_t n = 0;

	while (n + 1 < sizeof(w)) {
		if (s[0] == '\\' && s[1] == '-')
			s++;
		if (!isalnum((unsigned char)*s) && *s != '-')
			break;
		w[n++] = *s++;
	}
	w[n] = '\0';
	return w;
}

/* A word as roff writes it: "\\-" for each '-'. */
static const char *roff(const char *w)
{
	static char r[128];
	size_t o = 0;

	for (; *w && o + 3 < sizeof(r); w++) {
		if (*w == '-')
			r[o++] = '\\';
		r[o++] = *w;
	}
	r[o] = '\0';
	return r;
}

/* Whether text has the long option as a whole word (written as pat). */
static bool has_option(const char *text, const char *dashes, const char *name)
{
	char pat[80];
	size_t n;

	n = (size_t)snprintf(pat, sizeof(pat), "%s%s", dashes, name);
	for (const char *p = strstr(text, pat); p; p = strstr(p + 1, pat))
		if (!isalnum((unsigned char)p[n]) && p[n] != '-' &&
		    strncmp(p + n, "\\-", 2) != 0)
			return true;
	return false;
}

/* The help's option entries: " -X, --long ..." and its continued lines. */
static int help_entries(const char *help, char entries[][512], int max)
{
	const char *p = strstr(help, "\nOptions:\n"), *end;
	int n = 0;

	ASSERT_TRUE(p != NULL);
	end = strstr(p, "\n\n");
	for (p += 10; p && p < end; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		size_t len = strcspn(p, "\n");

		if (p[0] == ' ' && p[1] == '-' && n < max)
			snprintf(entries[n++], 512, "%.*s", (int)len, p);
		else if (n && strlen(entries[n - 1]) + len < 500)
			strncat(entries[n - 1], p, len);
	}
	return n;
}

TEST(every_help_option_is_in_the_manual)
{
	char *help = help_text(), *man = util_read_text("man/pidfd.1");
	char entries[32][512];
	int n = help_entries(help, entries, 32);

	if (n < 12)
		FAIL("%d option entries in --help:\n%s", n, help);
	for (int i = 0; i < n; i++) {
		char pair[64];
		const char *e = entries[i];

		/* " -X, --long": the manual has ".BR \-X ", " \-\-long". */
		int o = snprintf(pair, sizeof(pair), ".BR \\-%c \", \" \\-\\-", e[2]);

		for (const char *w = word_at(e + 7); *w && o < 56; w++)
			o += snprintf(pair + o, sizeof(pair) - (size_t)o,
				      *w == '-' ? "\\-" : "%c", *w);
		if (!strstr(man, pair))
			FAIL("--help has '%.24s', pidfd(1) lacks '%s'", e, pair);
		for (const char *p = strstr(e, "--"); p; p = strstr(p + 2, "--"))
			if (!has_option(man, "\\-\\-", roff(word_at(p + 2))))
				FAIL("pidfd(1) lacks --%s", word_at(p + 2));
	}
	free(help);
	free(man);
}

TEST(every_manual_option_is_in_help)
{
	char *help = help_text(), *man = util_read_text("man/pidfd.1");
	const char *opts = strstr(man, "\n.SH OPTIONS"), *end;
	int seen = 0;

	ASSERT_TRUE(opts != NULL);
	end = strstr(opts + 1, "\n.SH ");
	for (const char *p = strstr(opts, "\n.BR \\-"); p && p < end;
	     p = strstr(p + 1, "\n.BR \\-")) {
		char pair[64];
		char s = p[7];
		const char *l = p + 8;

		/* Option lines only: ".BR \\-X ", " \\-\\-long". */
		if (strncmp(l, " \", \" \\-\\-", 10) != 0)
			continue;
		l += 6;
		snprintf(pair, sizeof(pair), " -%c, --%s ", s, word_at(l + 4));
		if (!strstr(help, pair))
			FAIL("pidfd(1) has '%s', --help does not", pair);
		seen++;
	}
	ASSERT_TRUE(seen >= 12);
	/* Every --long from SYNOPSIS to OPTIONS is one the tool has. */
	for (const char *p = strstr(man, "\\-\\-"); p && p < end;
	     p = strstr(p + 4, "\\-\\-")) {
		const char *w = word_at(p + 4);

		/* "--" alone ends the options. */
		if (*w && !has_option(help, "--", w))
			FAIL("pidfd(1) names --%s, --help does not", w);
	}
	free(help);
	free(man);
}

/* The field list and the default, in both. */
TEST(fields_and_default_agree)
{
	char *help = help_text(), *man = util_read_text("man/pidfd.1");
	const char *f = strstr(help, "Available info fields:\n"), *d, *mf, *me;
	int nfields = 0, nman = 0;
	char def[256], want[300];

	ASSERT_TRUE(f != NULL);
	mf = strstr(man, "The fields to show");
	ASSERT_TRUE(mf != NULL);
	me = strstr(mf, "\n.BR all");
	ASSERT_TRUE(me != NULL);
	for (const char *p = strchr(f, '\n') + 1; p[0] == ' '; p = strchr(p, '\n') + 1) {
		char pat[80];
		const char *name = word_at(p + 1);

		snprintf(pat, sizeof(pat), "\n.B%s %s", "", name);
		if (!strstr(mf, pat) || strstr(mf, pat) > me)
			snprintf(pat, sizeof(pat), "\n.BR %s ,", name);
		if (!strstr(mf, pat) || strstr(mf, pat) > me)
			FAIL("field %s of --help is not in pidfd(1)", name);
		nfields++;
	}
	for (const char *p = strstr(mf, "\n.B"); p && p < me; p = strstr(p + 1, "\n.B")) {
		const char *name = p[3] == 'R' ? p + 5 : p + 4;
		char pat[80];

		/* Fields are words of capitals; the STATE letters are not fields. */
		if (strlen(word_at(name)) < 3 || !isupper((unsigned char)name[0]))
			continue;
		snprintf(pat, sizeof(pat), "\n %-12s ", word_at(name));
		if (!strstr(f, pat))
			FAIL("field %s of pidfd(1) is not in --help", word_at(name));
		nman++;
	}
	ASSERT_EQ(nman, nfields);
	d = strstr(f, "Default: ");
	ASSERT_TRUE(d != NULL);
	ASSERT_EQ(sscanf(d, "Default: %255s", def), 1);
	snprintf(want, sizeof(want), "\n.BR %s ;\n", def);
	if (!strstr(man, want))
		FAIL("pidfd(1) does not give the default %s", def);
	free(help);
	free(man);
}

/* Each field of struct pidfd_info with a value has its column. */
TEST(every_info_field_has_its_column)
{
	static const char *const columns[] = {
#define COLUMN(field, offset, since, bit, column) column,
		LPFD_INFO_FIELDS(COLUMN)
#undef COLUMN
	};
	char *help = help_text(), pat[32];

	for (size_t i = 0; i < sizeof(columns) / sizeof(columns[0]); i++) {
		if (!columns[i])
			continue;
		snprintf(pat, sizeof(pat), "\n %-12s ", columns[i]);
		if (!strstr(help, pat))
			FAIL("the column %s of LPFD_INFO_FIELDS is not in --help",
			     columns[i]);
	}
	free(help);
}

/* What bash completes for these words, one candidate a line. */
static char *complete(const char *words)
{
	static char out[65536];
	char cmd[8192], dir[PATH_MAX];
	size_t n;
	FILE *p;

	snprintf(dir, sizeof(dir), "%s", cli_path("pidfd"));
	*strrchr(dir, '/') = '\0';
	snprintf(cmd, sizeof(cmd),
		 "PATH='%s':\"$PATH\" bash --norc --noprofile -c '"
		 ". cli/pidfd.bash-completion && COMP_WORDS=(%s) && "
		 "COMP_CWORD=$((${#COMP_WORDS[@]} - 1)) && _pidfd && "
		 "printf \"%%s\\n\" \"${COMPREPLY[@]}\"'", dir, words);
	p = popen(cmd, "r");
	ASSERT_TRUE(p != NULL);
	n = fread(out, 1, sizeof(out) - 1, p);
	out[n] = '\0';
	ASSERT_EQ(pclose(p), 0);
	return out;
}

static bool has_line(const char *text, const char *line)
{
	size_t n = strlen(line);

	for (const char *p = text; (p = strstr(p, line)); p++)
		if ((p == text || p[-1] == '\n') && p[n] == '\n')
			return true;
	return false;
}

/* Each command's options in the completion are those --help gives it. */
TEST(completion_agrees_with_help)
{
	char *help = help_text();
	char entries[32][512];
	int n = help_entries(help, entries, 32);

	for (size_t c = 0; c < sizeof(commands) / sizeof(commands[0]); c++) {
		char words[64], *got;
		int want = 0, lines = 0;

		snprintf(words, sizeof(words), "pidfd %s --", commands[c]);
		got = complete(words);
		for (int i = 0; i < n; i++) {
			const char *desc = entries[i] + 26, *open = strchr(desc, '(');
			bool tagged = strcspn(desc, ":") < strcspn(desc, " ");
			char tag[48];
			bool mine;

			/* "info: ...", "... (info, wait)", or every command. */
			snprintf(tag, sizeof(tag), "%s:", commands[c]);
			mine = strncmp(desc, tag, strlen(tag)) == 0 ||
			       (open && strstr(open, commands[c])) ||
			       (!tagged && !open);
			for (const char *p = strstr(entries[i], "--"); mine && p;
			     p = strstr(p + 2, "--")) {
				char opt[80];

				snprintf(opt, sizeof(opt), "--%s", word_at(p + 2));
				if (!has_line(got, opt))
					FAIL("completion of '%s' lacks %s", words, opt);
				want++;
			}
		}
		for (const char *p = got; *p; p = strchr(p, '\n') + 1)
			lines++;
		if (lines != want)
			FAIL("completion of '%s' has %d options, --help %d:\n%s",
			     words, lines, want, got);
	}
	free(help);
}

TEST(completion_of_commands_fields_signals)
{
	const char *got = complete("pidfd \"\"");

	for (size_t c = 0; c < sizeof(commands) / sizeof(commands[0]); c++)
		ASSERT_TRUE(has_line(got, commands[c]));
	got = complete("pidfd info -o PID,CG");
	ASSERT_EQ(strcmp(got, "PID,CGROUPID\nPID,CGROUP\n"), 0);
	got = complete("pidfd info --output +ST");
	ASSERT_EQ(strcmp(got, "+STATE\n+START\n"), 0);
	got = complete("pidfd info -o C");
	ASSERT_EQ(strcmp(got, "CGROUPID\nCGROUP\nCOMM\nCWD\nCOREDUMP\nCOREDUMPSIG\n"
			   "COREDUMPCODE\n"), 0);
	got = complete("pidfd info -o PID,EX");
	ASSERT_EQ(strcmp(got, "PID,EXE\nPID,EXIT\nPID,EXITCODE\n"), 0);
	got = complete("pidfd kill -s KI");
	ASSERT_EQ(strcmp(got, "KILL\n"), 0);
	got = complete("pidfd kill -SIGK");
	ASSERT_EQ(strcmp(got, "-SIGKILL\n"), 0);
	got = complete("pidfd kill -KI");
	ASSERT_EQ(strcmp(got, "-KILL\n"), 0);
	got = complete("pidfd kill --signal rtmin+1");
	ASSERT_TRUE(has_line(got, "RTMIN+1"));
	got = complete("pidfd wait se");
	ASSERT_EQ(strcmp(got, "self\n"), 0);
	got = complete("pidfd info 1");
	ASSERT_TRUE(has_line(got, "1"));
}

/* The JSON shapes of -J keep their quotes once rendered (roff eats '"'). */
TEST(manual_json_shapes_keep_their_quotes)
{
	char rendered[65536];
	size_t n;
	FILE *f = popen("groff -man -Tascii -P-c -P-b -P-u -rLL=400n "
			"man/pidfd.1 2>/dev/null", "r");

	ASSERT_TRUE(f != NULL);
	n = fread(rendered, 1, sizeof(rendered) - 1, f);
	rendered[n] = '\0';
	pclose(f);
	ASSERT_TRUE(strstr(rendered, "{\"processes\": [...]}") != NULL);
	ASSERT_TRUE(strstr(rendered, "\"kernel\": [...]") != NULL);
	ASSERT_TRUE(strstr(rendered, "\"emulate_forced\": ...}") != NULL);
}
