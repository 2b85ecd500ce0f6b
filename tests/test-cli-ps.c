/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * pidfd info beside ps: ARGS whole, however long (ps -ww), in tables and
 * JSON; START from /proc/stat's btime, as ps takes it, to the second; on
 * a terminal (a pty here) the table fits its width, ARGS cut, unless -w.
 */
#include <sched.h>
#include <sys/mount.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <time.h>

#include <libpidfd.h>

#include "cli.h"
#include "util.h"

#define LONG_ARG 6000

/*
 * A shell whose command line is "sh -c read x sh aaa...a": it waits on
 * a pipe, and has exec'd once its close-on-exec pipe reads end of file.
 */
static pid_t long_args_child(int *pidfd, int *stdin_w, char *args, size_t size)
{
	static char arg[LONG_ARG + 1];
	int in[2], exec_done[2];
	char c;
	pid_t pid;

	memset(arg, 'a', LONG_ARG);
	ASSERT_EQ(pipe(in), 0);
	ASSERT_EQ(pipe2(exec_done, O_CLOEXEC), 0);
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		dup2(in[0], 0);
		execl("/bin/sh", "sh", "-c", "read x", "sh", arg, (char *)NULL);
		_exit(127);
	}
	close(in[0]);
	close(exec_done[1]);
	ASSERT_EQ(read(exec_done[0], &c, 1), 0);
	close(exec_done[0]);
	*stdin_w = in[1];
	*pidfd = libpidfd_open(pid, 0);
	ASSERT_GE(*pidfd, 0);
	snprintf(args, size, "sh -c read x sh %s", arg);
	return pid;
}

TEST(args_whole_in_tables_and_json)
{
	static char args[LONG_ARG + 64], want[LONG_ARG + 128];
	static struct cli_out o;
	char pidstr[16];
	int fd, in;
	pid_t pid = long_args_child(&fd, &in, args, sizeof(args));

	snprintf(pidstr, sizeof(pidstr), "%d", pid);
	/* Not a terminal: the table's line is the whole command line. */
	ASSERT_EQ(CLI(&o, "pidfd", "info", "-n", "-o", "ARGS", pidstr), 0);
	snprintf(want, sizeof(want), "%s\n", args);
	if (strcmp(o.out, want) != 0)
		FAIL("table: %zu bytes, want %zu", strlen(o.out), strlen(want));
	ASSERT_EQ(CLI(&o, "pidfd", "info", "-J", "-o", "ARGS", pidstr), 0);
	ASSERT_TRUE(json_valid(o.out));
	snprintf(want, sizeof(want), "{\"args\":\"%s\"}", args);
	if (!strstr(o.out, want))
		FAIL("JSON: %zu bytes, want the %zu of the arguments",
		     strlen(o.out), strlen(args));
	close(in);
	util_kill_reap(fd);
}

/*
 * A boot time whose fraction of a second is 0.99 in a new time
 * namespace (CLOCK_BOOTTIME offset), so that the clocks, each cut to
 * whole seconds, put it a second later than btime almost always. Where
 * time namespaces are not there (before 5.6, user-mode Linux), the boot
 * time is the host's.
 */
static void boot_fraction_near_one(void)
{
	struct timespec real, boot;
	long long frac, off;
	char text[64];
	int fd;

	if (unshare(CLONE_NEWTIME) < 0)
		return;
	ASSERT_EQ(clock_gettime(CLOCK_REALTIME, &real), 0);
	ASSERT_EQ(clock_gettime(CLOCK_BOOTTIME, &boot), 0);
	frac = ((real.tv_nsec - boot.tv_nsec) % 1000000000 + 1000000000) %
	       1000000000;
	off = ((frac - 990000000) % 1000000000 + 1000000000) % 1000000000;
	snprintf(text, sizeof(text), "boottime 0 %lld\n", off);
	fd = open("/proc/self/timens_offsets", O_WRONLY | O_CLOEXEC);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

static long long number_after(const char *text, const char *key)
{
	const char *p = strstr(text, key);

	ASSERT_TRUE(p != NULL);
	return atoll(p + strlen(key));
}

/* ps's start time of pid: btime + starttime / Hz, local, ISO 8601. */
static void ps_start(pid_t pid, char *out, size_t size)
{
	char path[64], *stat = util_read_text("/proc/stat"), *pstat, *p;
	unsigned long long ticks;
	struct tm tm;
	time_t t;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	pstat = util_read_text(path);
	ASSERT_TRUE(stat && pstat && (p = strrchr(pstat, ')')));
	/* Field 22, the 20th after the ")". */
	for (int i = 0; i < 20; i++)
		ASSERT_TRUE((p = strchr(p + 1, ' ')) != NULL);
	ticks = strtoull(p + 1, NULL, 10);
	t = (time_t)(number_after(stat, "\nbtime ") +
		     (long long)(ticks / (unsigned long long)sysconf(_SC_CLK_TCK)));
	localtime_r(&t, &tm);
	strftime(out, size, "%Y-%m-%dT%H:%M:%S", &tm);
	free(stat);
	free(pstat);
}

/* In the time namespace (a child): what ps would say, through a pipe. */
static void expected_start(void *arg)
{
	int *p = arg;
	char want[64] = "";

	ps_start(p[0], want, sizeof(want));
	if (write(p[1], want, sizeof(want)) != sizeof(want))
		_exit(98);
}

TEST(start_is_ps_start_to_the_second)
{
	struct cli_out o;
	char pidstr[16], want[64];
	int fd, fd2, pipefd[2], arg[2];
	pid_t pid;

	boot_fraction_near_one();
	pid = util_spawn_text(NULL, NULL, &fd, pidstr);
	ASSERT_EQ(pipe2(pipefd, O_CLOEXEC), 0);
	arg[0] = pid;
	arg[1] = pipefd[1];
	util_spawn(expected_start, arg, &fd2);
	ASSERT_EQ(read(pipefd[0], want, sizeof(want)), (ssize_t)sizeof(want));
	ASSERT_EQ(CLI(&o, "pidfd", "info", "-J", "-o", "START", pidstr), 0);
	if (strncmp(json_get(o.out, "start"), want, strlen(want)) != 0)
		FAIL("start %s, ps's %s", json_get(o.out, "start"), want);
	util_kill_reap(fd2);
	util_kill_reap(fd);
}

/* In the tool's process: stdout on the pty's end, *arg. */
static void stdout_on_pty(char **argv, void *arg)
{
	(void)argv;
	if (dup2(*(int *)arg, 1) < 0)
		_exit(96);
	unsetenv("COLUMNS");
}

/*
 * A pty's master. A guest without /dev/ptmx (user-mode Linux's), or
 * without a devpts on /dev/pts behind it (ENODEV), gets a devpts
 * instance of its own, in a mount namespace of this test's.
 */
static int pty_master(void)
{
	char dir[] = "/tmp/libpidfd-pts.XXXXXX", ptmx[64];
	int fd = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);

	if (fd >= 0)
		return fd;
	REQUIRE_PRIVILEGE("a devpts of its own, where /dev/ptmx is not");
	ASSERT_EQ(unshare(CLONE_NEWNS), 0);
	ASSERT_EQ(mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL), 0);
	ASSERT_TRUE(mkdtemp(dir) != NULL);
	ASSERT_EQ(mount("devpts", dir, "devpts", 0, "newinstance,ptmxmode=0666"), 0);
	snprintf(ptmx, sizeof(ptmx), "%s/ptmx", dir);
	return open(ptmx, O_RDWR | O_NOCTTY | O_CLOEXEC);
}

/* Run the tool with stdout on a terminal of 80 columns: its output. */
static int run_on_terminal(char **argv, char *out, size_t size)
{
	struct winsize ws = { .ws_row = 24, .ws_col = 80 };
	struct cli_out o;
	size_t len = 0;
	ssize_t n;
	int master = pty_master(), slave, rc;

	ASSERT_GE(master, 0);
	ASSERT_EQ(unlockpt(master), 0);
	ASSERT_EQ(ioctl(master, TIOCSWINSZ, &ws), 0);
	slave = ioctl(master, TIOCGPTPEER, O_RDWR | O_NOCTTY | O_CLOEXEC);
	ASSERT_GE(slave, 0);
	rc = cli_run_pre(&o, argv, stdout_on_pty, &slave);
	close(slave);
	ASSERT_EQ(o.err[0], '\0');
	/* What it wrote stays readable once the terminal's end is closed. */
	while (len + 1 < size && (n = read(master, out + len, size - 1 - len)) > 0)
		len += (size_t)n;
	close(master);
	out[len] = '\0';
	/* The terminal's \r\n as \n. */
	for (char *r; (r = strchr(out, '\r'));)
		memmove(r, r + 1, strlen(r));
	return rc;
}

static size_t longest_line(const char *s)
{
	size_t most = 0;

	while (*s) {
		size_t n = strcspn(s, "\n");

		most = n > most ? n : most;
		s += n + (s[n] == '\n');
	}
	return most;
}

TEST(table_fits_the_terminal_args_cut)
{
	static char args[LONG_ARG + 64], out[65536], want[128];
	char pidstr[16];
	int fd, in;
	pid_t pid = long_args_child(&fd, &in, args, sizeof(args));

	snprintf(pidstr, sizeof(pidstr), "%d", pid);
	/* ARGS last, as ps has it: the line ends at the 80th column. */
	ASSERT_EQ(run_on_terminal((char *[]){ "pidfd", "info", "-o",
					      "PID,ARGS", pidstr, NULL },
				  out, sizeof(out)), 0);
	if (longest_line(out) != 80)
		FAIL("lines of up to %zu columns on 80: '%s'",
		     longest_line(out), out);
	snprintf(want, sizeof(want), "%s sh -c read x sh aaa", pidstr);
	if (!strstr(out, want))
		FAIL("no '%s' in '%s'", want, out);
	/* ARGS first: narrowed, and the columns after it still shown. */
	ASSERT_EQ(run_on_terminal((char *[]){ "pidfd", "info", "-o",
					      "ARGS,PID", pidstr, NULL },
				  out, sizeof(out)), 0);
	ASSERT_EQ(longest_line(out), 80);
	snprintf(want, sizeof(want), "aaa %s\n", pidstr);
	ASSERT_TRUE(strstr(out, want) != NULL);
	/* Still too wide with ARGS narrowed: each line cut, as by ps. */
	ASSERT_EQ(run_on_terminal((char *[]){ "pidfd", "info", "-o", "all",
					      pidstr, NULL }, out, sizeof(out)), 0);
	/*
	 * Cut at the 80th column, then trailing blanks dropped: a line ends
	 * before it where the cut falls in a column's padding, which depends
	 * on the widths of the ids and names shown.
	 */
	if (longest_line(out) > 80 || longest_line(out) < 70)
		FAIL("-o all: lines of up to %zu columns on 80", longest_line(out));
	ASSERT_EQ(strncmp(out + strspn(out, " "), "PID ", 4), 0);
	ASSERT_TRUE(strstr(out, "COREDUMPCODE") == NULL);
	ASSERT_TRUE(strstr(out, "aaa") == NULL);
	/* -w: whole lines on the terminal too. */
	ASSERT_EQ(run_on_terminal((char *[]){ "pidfd", "info", "-w", "-o",
					      "ARGS", pidstr, NULL },
				  out, sizeof(out)), 0);
	ASSERT_TRUE(strstr(out, args) != NULL);
	ASSERT_EQ(run_on_terminal((char *[]){ "pidfd", "info", "--wide", "-o",
					      "PID,ARGS", pidstr, NULL },
				  out, sizeof(out)), 0);
	ASSERT_TRUE(strstr(out, args) != NULL);
	close(in);
	util_kill_reap(fd);
}
