/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * pidfd --help, pidfd(1) and the bash completion say the same things,
 * checked mechanically: every option, field and default in one is in the
 * others. The completion is run in bash, as bash-completion would run it.
 */
#include <ctype.h>

#include "cli.h"
#include "util.h"
#include "internal/feature_list.h"

static const char commands[][9] = { "info", "wait", "kill", "features", "open" };

/* The --help of "pidfd cmd", or of pidfd alone for "". */
static char *help_of(const char *cmd)
{
	struct cli_out o;

	if (*cmd)
		ASSERT_EQ(CLI(&o, "pidfd", (char *)cmd, "--help"), 0);
	else
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
		/* A field may start with '%' (%CPU), as ps's do. */
		if (!isalnum((unsigned char)*s) && *s != '-' && (*s != '%' || n))
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

/*
 * The help's option entries: " -X, --long ..." or "     --long ...", and
 * their continued lines.
 */
static int help_entries(const char *help, char entries[][512], int max)
{
	const char *p = strstr(help, "\nOptions:\n"), *end;
	int n = 0;

	ASSERT_TRUE(p != NULL);
	end = strstr(p, "\n\n");
	for (p += 10; p && p < end; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		size_t len = strcspn(p, "\n");

		if ((p[1] == '-' || p[5] == '-') && p[6] != ' ' && n < max)
			snprintf(entries[n++], 512, "%.*s", (int)len, p);
		else if (n && strlen(entries[n - 1]) + len < 500)
			strncat(entries[n - 1], p, len);
	}
	return n;
}

/* Whether the help of cmd lists --name among its options. */
static bool help_has(const char *cmd, const char *name)
{
	char *help = help_of(cmd), entries[64][512];
	int n = help_entries(help, entries, 64);
	bool found = false;

	for (int i = 0; i < n && !found; i++)
		found = has_option(entries[i], "--", name);
	free(help);
	return found;
}

/*
 * An option of pidfd(1)'s OPTIONS: ".TP", its line (".BR \-X ", " \-\-long"
 * or ".B \-\-long"), then the commands that take it, if not all:
 * ".RB ( info ," ".BR wait )".
 */
struct man_option {
	char shrt;
	char longs[4][32];
	int nlongs;
	char cmds[4][16];
	int ncmds;
};

static int man_options(const char *man, struct man_option *opts, int max)
{
	const char *p = strstr(man, "\n.SH OPTIONS"), *end;
	int n = 0;

	ASSERT_TRUE(p != NULL);
	end = strstr(p + 1, "\n.SH ");
	for (p = strstr(p, "\n.TP\n.B"); p && p < end && n < max;
	     p = strstr(p + 1, "\n.TP\n.B")) {
		struct man_option *o = &opts[n];
		const char *line = p + 5, *eol = strchr(line, '\n');

		memset(o, 0, sizeof(*o));
		if (strncmp(line, ".BR \\-", 6) == 0 && line[7] == ' ')
			o->shrt = line[6];
		for (const char *l = strstr(line, "\\-\\-"); l && l < eol && o->nlongs < 4;
		     l = strstr(l + 4, "\\-\\-"))
			snprintf(o->longs[o->nlongs++], 32, "%s", word_at(l + 4));
		if (!o->nlongs)
			continue;
		for (line = eol + 1; o->ncmds < 4; line = strchr(line, '\n') + 1) {
			if (strncmp(line, o->ncmds ? ".BR " : ".RB ( ", o->ncmds ? 4 : 6))
				break;
			const char *w = word_at(line + (o->ncmds ? 4 : 6));

			snprintf(o->cmds[o->ncmds++], 16, "%s", w);
			if (line[strcspn(line, "\n") - 1] == ')')
				break;
		}
		n++;
	}
	return n;
}

static bool man_option_for(const struct man_option *o, const char *cmd)
{
	for (int c = 0; c < o->ncmds; c++)
		if (strcmp(o->cmds[c], cmd) == 0)
			return true;
	return o->ncmds == 0;
}

/*
 * Whether the manual gives --name to cmd: an option may have an entry per
 * command (wait's --timeout <seconds>, kill's --timeout <ms> <signal>).
 */
static bool man_gives(const struct man_option *mo, int nm, const char *name,
		      const char *cmd)
{
	for (int m = 0; m < nm; m++)
		if (strcmp(mo[m].longs[0], name) == 0 && man_option_for(&mo[m], cmd))
			return true;
	return false;
}

/* Each command's options are in the manual, tagged with that command. */
TEST(every_help_option_is_in_the_manual)
{
	char *man = util_read_text("man/pidfd.1");
	struct man_option mo[96];
	int nm = man_options(man, mo, 96), total = 0;

	for (size_t c = 0; c < sizeof(commands) / sizeof(commands[0]); c++) {
		char *help = help_of(commands[c]), entries[64][512];
		int n = help_entries(help, entries, 64);

		for (int i = 0; i < n; i++, total++) {
			const char *e = entries[i];
			char pair[64];

			/* " -X, --long": the manual has ".BR \-X ", " \-\-long". */
			int o = e[1] == '-' ?
				snprintf(pair, sizeof(pair), ".BR \\-%c \", \" \\-\\-", e[2]) :
				snprintf(pair, sizeof(pair), "\n.B%s \\-\\-",
					 strchr(e + 7, '<') ? "I" : "");

			for (const char *w = word_at(strstr(e, "--") + 2); *w && o < 56; w++)
				o += snprintf(pair + o, sizeof(pair) - (size_t)o,
					      *w == '-' ? "\\-" : "%c", *w);
			if (!strstr(man, pair))
				FAIL("%s --help has '%.24s', pidfd(1) lacks '%s'",
				     commands[c], e, pair);
			for (const char *p = strstr(e, "--"); p; p = strstr(p + 2, "--"))
				if (!has_option(man, "\\-\\-", roff(word_at(p + 2))))
					FAIL("pidfd(1) lacks --%s", word_at(p + 2));
			if (!man_gives(mo, nm, word_at(strstr(e, "--") + 2), commands[c]))
				FAIL("pidfd(1) does not give %s's %.24s", commands[c], e);
		}
		free(help);
	}
	if (total < 20)
		FAIL("%d option entries in the commands' --help", total);
	free(man);
}

/*
 * Each option of the manual is in the help of exactly the commands it is
 * given to, and every --long from SYNOPSIS to OPTIONS is one the tool has.
 */
TEST(every_manual_option_is_in_help)
{
	char *man = util_read_text("man/pidfd.1"), *help = help_of("");
	const char *end = strstr(strstr(man, "\n.SH OPTIONS"), "\n.SH ");
	struct man_option mo[96];
	int nm = man_options(man, mo, 96);
	size_t all = 0;

	ASSERT_TRUE(nm >= 12);
	for (int m = 0; m < nm; m++) {
		for (size_t c = 0; c < sizeof(commands) / sizeof(commands[0]); c++) {
			bool want = man_gives(mo, nm, mo[m].longs[0], commands[c]);

			if (help_has(commands[c], mo[m].longs[0]) != want)
				FAIL("pidfd(1) gives --%s %sto %s, its --help %s",
				     mo[m].longs[0], want ? "" : "not ",
				     commands[c], want ? "lacks it" : "has it");
		}
		if (mo[m].shrt) {
			char pair[64], *h = help_of(mo[m].ncmds ? mo[m].cmds[0] : "");

			snprintf(pair, sizeof(pair), " -%c, --%s ", mo[m].shrt,
				 mo[m].longs[0]);
			if (!strstr(h, pair))
				FAIL("pidfd(1) has '%s', --help does not", pair);
			free(h);
		}
	}
	for (size_t c = 0; c < sizeof(commands) / sizeof(commands[0]); c++) {
		char *h = help_of(commands[c]);
		size_t len = strlen(help);

		help = realloc(help, len + strlen(h) + 1);
		strcpy(help + len, h);
		free(h);
		all++;
	}
	for (const char *p = strstr(man, "\\-\\-"); p && p < end;
	     p = strstr(p + 4, "\\-\\-")) {
		const char *w = word_at(p + 4);

		/* "--" alone ends the options. */
		if (*w && !has_option(help, "--", w))
			FAIL("pidfd(1) names --%s, no --help does", w);
	}
	ASSERT_EQ(all, sizeof(commands) / sizeof(commands[0]));
	free(help);
	free(man);
}

/* The field list and the default, in both. */
TEST(fields_and_default_agree)
{
	char *help = help_of("info"), *man = util_read_text("man/pidfd.1");
	const char *f = strstr(help, "Available fields:\n"), *d, *mf, *me;
	int nfields = 0, nman = 0;
	char def[256], want[300];

	ASSERT_TRUE(f != NULL);
	mf = strstr(man, "\n.SH FIELDS\n");
	ASSERT_TRUE(mf != NULL);
	me = strstr(mf + 1, "\n.SH ");
	ASSERT_TRUE(me != NULL);
	for (const char *p = strchr(f, '\n') + 1; p[0] == ' '; p = strchr(p, '\n') + 1) {
		char pat[80];
		const char *at;

		snprintf(pat, sizeof(pat), "\n.TP%s\n.B %s\n",
			 nfields ? "" : " 14", word_at(p + 1));
		at = strstr(mf, pat);
		if (!at || at > me)
			FAIL("field %s of --help is not in pidfd(1)'s FIELDS",
			     word_at(p + 1));
		nfields++;
	}
	for (const char *p = strstr(mf, "\n.TP"); p && p < me; p = strstr(p + 1, "\n.TP"))
		nman++;
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
	char *help = help_of("info"), pat[32];

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
		 "for w in \"${COMPREPLY[@]}\"; do printf \"%%s\\n\" \"$w\"; done'",
		 dir, words);
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

/* Each command's options in the completion are those its --help gives. */
TEST(completion_agrees_with_help)
{
	for (size_t c = 0; c < sizeof(commands) / sizeof(commands[0]); c++) {
		char *help = help_of(commands[c]), entries[64][512];
		int n = help_entries(help, entries, 64), want = 0, lines = 0;
		char words[64], *got;

		snprintf(words, sizeof(words), "pidfd %s --", commands[c]);
		got = complete(words);
		for (int i = 0; i < n; i++) {
			for (const char *p = strstr(entries[i], "--"); p;
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
		free(help);
	}
}

/* What bash completes for words is exactly want, one candidate a line. */
static void expect_completion(const char *words, const char *want)
{
	const char *got = complete(words);

	if (strcmp(got, want))
		FAIL("completion of '%s':\n%s, want:\n%s", words, got, want);
}

TEST(completion_of_commands_fields_signals)
{
	const char *got = complete("pidfd \"\"");

	for (size_t c = 0; c < sizeof(commands) / sizeof(commands[0]); c++)
		ASSERT_TRUE(has_line(got, commands[c]));
	expect_completion("pidfd info -o PID,CG", "PID,CGROUPID\nPID,CGROUP\n");
	expect_completion("pidfd info --output +ST", "+STATE\n+START\n+STAT\n");
	expect_completion("pidfd info --sort PID,-%C", "PID,-%CPU\n");
	expect_completion("pidfd info -o C", "CGROUPID\nCGROUP\nCOMM\nCWD\n"
			  "COREDUMP\nCOREDUMPSIG\nCOREDUMPCODE\n");
	expect_completion("pidfd info -o PID,EX",
			  "PID,EXE\nPID,EXIT\nPID,EXITCODE\n");
	expect_completion("pidfd kill -s KI", "KILL\n");
	expect_completion("pidfd kill -SIGK", "-SIGKILL\n");
	expect_completion("pidfd kill -KI", "-KILL\n");
	got = complete("pidfd kill --signal rtmin+1");
	ASSERT_TRUE(has_line(got, "RTMIN+1"));
	got = complete("pidfd open self -- ech");
	ASSERT_TRUE(has_line(got, "echo"));
	expect_completion("pidfd op", "open\n");
	expect_completion("pidfd wait se", "self\n");
	got = complete("pidfd info 1");
	ASSERT_TRUE(has_line(got, "1"));
}

/*
 * bash splits "--signal=TE" at '=' (COMP_WORDBREAKS): the words are
 * "--signal" "=" "TE", or "--signal" "=" right after the '='. The value
 * is completed, never a process.
 */
TEST(completion_of_values_after_equals)
{
	const char *got = complete("pidfd kill --signal =");

	ASSERT_TRUE(has_line(got, "KILL") && !has_line(got, "self"));
	got = complete("pidfd info --fields =");
	ASSERT_TRUE(has_line(got, "PID") && !has_line(got, "self"));
	expect_completion("pidfd kill --signal = TE", "TERM\n");
	expect_completion("pidfd kill 1 --signal = sigk", "SIGKILL\n");
	expect_completion("pidfd info --output = PID,CG", "PID,CGROUPID\nPID,CGROUP\n");
	expect_completion("pidfd info -o = +ST", "+STATE\n+START\n+STAT\n");
	expect_completion("pidfd wait --timeout =", "");
	/* After a whole "--output=PID", processes again. */
	expect_completion("pidfd info --output = PID se", "self\n");
}

/* Signal names in any case, with or without SIG, as the tool takes them. */
TEST(completion_of_signals_any_case)
{
	expect_completion("pidfd kill -s sigte", "SIGTERM\n");
	expect_completion("pidfd kill -s SIGTE", "SIGTERM\n");
	expect_completion("pidfd kill -s te", "TERM\n");
	expect_completion("pidfd kill --signal Sigus", "SIGUSR1\nSIGUSR2\n");
	expect_completion("pidfd kill -sigte", "-SIGTERM\n");
	expect_completion("pidfd kill -te", "-TERM\n");
	/* kill --timeout MS SIGNAL: nothing for the milliseconds, then signals. */
	expect_completion("pidfd kill --timeout \"\"", "");
	expect_completion("pidfd kill --timeout 100 sigk", "SIGKILL\n");
	expect_completion("pidfd kill --timeout = 100 KI", "KILL\n");
	expect_completion("pidfd kill -q \"\"", "");
}

/* info --all takes no process, and its completion offers none. */
TEST(completion_after_all_offers_no_process)
{
	expect_completion("pidfd info -a \"\"", "");
	expect_completion("pidfd info --all se", "");
	expect_completion("pidfd info -Jna \"\"", "");
	expect_completion("pidfd info -o PID --all \"\"", "");
	/* Without it, processes. */
	expect_completion("pidfd info -J se", "self\n");
	expect_completion("pidfd info -o all se", "self\n");
}

/* -u takes a comma list: its last element is completed. */
TEST(completion_of_user_lists)
{
	ASSERT_TRUE(has_line(complete("pidfd info -u roo"), "root"));
	ASSERT_TRUE(has_line(complete("pidfd info -u nobody,roo"), "nobody,root"));
	ASSERT_TRUE(has_line(complete("pidfd info --user = nobody,roo"),
			     "nobody,root"));
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
