/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * pidfd info's output whatever a process is called: tables escape what a
 * terminal would act on as util-linux does, align by display width in the
 * user's locale, and take -n and -r; JSON stays valid UTF-8.
 */
#include <sys/prctl.h>

#include <libpidfd.h>

#include "cli.h"
#include "util.h"

static void set_name(void *arg)
{
	prctl(PR_SET_NAME, (unsigned long)arg, 0, 0, 0);
}

/* A child named name, its pid in pidstr. */
static int named_child(const char *name, char *pidstr, size_t size)
{
	int fd;
	pid_t pid = util_spawn(set_name, (void *)name, &fd);

	snprintf(pidstr, size, "%d", pid);
	return fd;
}

static void utf8_locale(char **argv, void *arg)
{
	(void)argv;
	(void)arg;
	setenv("LC_ALL", "C.UTF-8", 1);
}

static void c_locale(char **argv, void *arg)
{
	(void)argv;
	(void)arg;
	setenv("LC_ALL", "C", 1);
}

/* Columns on a terminal: a UTF-8 text of narrow characters. */
static size_t columns_of(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

TEST(no_raw_byte_reaches_the_terminal)
{
	struct cli_out o;
	char pidstr[16];
	int fd = named_child("a\033[2Jb\xff\\x41", pidstr, sizeof(pidstr));

	ASSERT_EQ(cli_run_pre(&o, (char *[]){ "pidfd", "info", "-o", "COMM",
					      pidstr, NULL }, utf8_locale, NULL), 0);
	ASSERT_EQ(strcmp(line_of(o.out, 1), "a\\x1b[2Jb\\xff\\x5cx41"), 0);
	ASSERT_TRUE(strchr(o.out, '\033') == NULL);

	/* JSON: the control byte as \u001b, the byte that is no UTF-8 as \xff. */
	ASSERT_EQ(CLI(&o, "pidfd", "info", "-J", "-o", "PID,COMM,ARGS", pidstr), 0);
	ASSERT_TRUE(json_valid(o.out));
	ASSERT_TRUE(strstr(o.out, "\"comm\":\"a\\u001b[2Jb\\\\xff\\\\x5cx41\"") != NULL);
	util_kill_reap(fd);
}

TEST(width_by_display_columns_in_the_locale)
{
	struct cli_out o;
	char a[16], b[16], row1[256];
	int fa = named_child("j\xc3\xbcrgen", a, sizeof(a));
	int fb = named_child("plain", b, sizeof(b));

	/* UTF-8: "ü" is one column, and the PID column lines up after it. */
	ASSERT_EQ(cli_run_pre(&o, (char *[]){ "pidfd", "info", "-o", "COMM,PID",
					      a, b, NULL }, utf8_locale, NULL), 0);
	snprintf(row1, sizeof(row1), "%s", line_of(o.out, 1));
	ASSERT_TRUE(strncmp(row1, "j\xc3\xbcrgen ", 8) == 0);
	ASSERT_EQ(columns_of(row1), columns_of(line_of(o.out, 0)));
	ASSERT_EQ(columns_of(line_of(o.out, 2)), columns_of(line_of(o.out, 0)));

	/* The C locale knows no "ü": its bytes are escaped, as util-linux does. */
	ASSERT_EQ(cli_run_pre(&o, (char *[]){ "pidfd", "info", "-o", "COMM,PID",
					      a, b, NULL }, c_locale, NULL), 0);
	ASSERT_TRUE(strncmp(line_of(o.out, 1), "j\\xc3\\xbcrgen ", 14) == 0);
	ASSERT_EQ(strlen(line_of(o.out, 1)), strlen(line_of(o.out, 2)));
	util_kill_reap(fa);
	util_kill_reap(fb);
}

TEST(noheadings_and_raw)
{
	struct cli_out o;
	char pidstr[16], want[64];
	int fd = named_child("x y", pidstr, sizeof(pidstr));

	ASSERT_EQ(CLI(&o, "pidfd", "info", "-n", "-o", "PID", pidstr), 0);
	snprintf(want, sizeof(want), "%s\n", pidstr);
	ASSERT_EQ(strcmp(o.out, want), 0);

	/* Raw: one space between columns, no padding, blanks escaped. */
	ASSERT_EQ(CLI(&o, "pidfd", "info", "--raw", "-o", "PID,COMM,EXIT",
		      pidstr, "1"), 0);
	ASSERT_EQ(strcmp(line_of(o.out, 0), "PID COMM EXIT"), 0);
	snprintf(want, sizeof(want), "%s x\\x20y -", pidstr);
	ASSERT_EQ(strcmp(line_of(o.out, 1), want), 0);
	ASSERT_EQ(strncmp(line_of(o.out, 2), "1 ", 2), 0);
	ASSERT_EQ(CLI(&o, "pidfd", "info", "-rn", "--output", "PID", "1"), 0);
	ASSERT_EQ(strcmp(o.out, "1\n"), 0);
	util_kill_reap(fd);
}

/* Every JSON output is one valid document, whatever the names hold. */
TEST(json_always_valid)
{
	static const char *const names[] = { "\"q\\uote\"", "\x01\x7f", "\xc3",
					     "\xed\xa0\x80", "\xf4\x90\x80\x80" };
	struct cli_out o;
	char pids[5][16];
	int fds[5];

	for (int i = 0; i < 5; i++)
		fds[i] = named_child(names[i], pids[i], sizeof(pids[i]));
	ASSERT_EQ(CLI(&o, "pidfd", "info", "--json", pids[0], pids[1], pids[2],
		      pids[3], pids[4]), 0);
	if (!json_valid(o.out))
		FAIL("not JSON: %s", o.out);
	ASSERT_TRUE(strstr(o.out, "\"comm\":\"\\\"q\\\\uote\\\"\"") != NULL);
	ASSERT_TRUE(strstr(o.out, "\"comm\":\"\\u0001\x7f\"") != NULL);
	ASSERT_TRUE(strstr(o.out, "\"comm\":\"\\\\xc3\"") != NULL);
	ASSERT_TRUE(strstr(o.out, "\"comm\":\"\\\\xed\\\\xa0\\\\x80\"") != NULL);
	ASSERT_EQ(CLI(&o, "pidfd", "info", "-J", "-o", "PID", "2147483647"), 1);
	ASSERT_TRUE(json_valid(o.out));
	for (int i = 0; i < 5; i++)
		util_kill_reap(fds[i]);
}
