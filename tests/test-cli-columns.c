/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * info's ps columns beside procps's ps on the same processes: each value
 * as ps shows it (those that change between two reads, %CPU, %MEM, TIME
 * and ETIME, within a stated tolerance), ps's names as aliases, --sort
 * and --forest in ps's order and drawing, and an unreaped zombie's end.
 */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <termios.h>

#include <libpidfd.h>

#include "cli.h"
#include "util.h"

/* What ps prints for columns of one process, blanks trimmed. */
static const char *ps_value(const char *column, pid_t pid)
{
	static char out[4096];
	char cmd[1024], *o;
	size_t len;
	FILE *f;

	/*
	 * Each column without its heading: "pid=,ppid="; a user or group
	 * name 64 wide, which ps would otherwise cut to 8 ("libpidf+" for
	 * a package builder's user).
	 */
	o = cmd + snprintf(cmd, sizeof(cmd), "ps -p %d -o ", (int)pid);
	for (const char *c = column, *name = column; ; c++) {
		if (*c && *c != ',') {
			*o++ = *c;
			continue;
		}
		if (strstr(name, "user") == name || strstr(name, "group") == name ||
		    (name[0] && (strstr(name, "user") == name + 1 ||
				 strstr(name, "group") == name + 1)))
			o = stpcpy(o, ":64");
		*o++ = '=';
		if (!*c)
			break;
		*o++ = ',';
		name = c + 1;
	}
	*o = '\0';
	f = popen(cmd, "r");
	ASSERT_TRUE(f != NULL);
	len = fread(out, 1, sizeof(out) - 1, f);
	out[len] = '\0';
	if (pclose(f) != 0 && strcmp(column, "lstart") == 0)
		return NULL; /* ps cannot tell the boot time (user-mode Linux) */
	if (len == 0)
		FAIL("'%s' failed: is procps installed?", cmd);
	while (len && (out[len - 1] == '\n' || out[len - 1] == ' '))
		out[--len] = '\0';
	return out + strspn(out, " ");
}

/* What info prints for one field of one process, blanks trimmed. */
static const char *info_value(const char *field, pid_t pid)
{
	static struct cli_out o;
	char pidstr[16];
	size_t len;

	snprintf(pidstr, sizeof(pidstr), "%d", (int)pid);
	ASSERT_EQ(CLI(&o, "pidfd", "info", "-n", "-w", "-o", (char *)field, pidstr), 0);
	len = strlen(o.out);
	while (len && (o.out[len - 1] == '\n' || o.out[len - 1] == ' '))
		o.out[--len] = '\0';
	return o.out + strspn(o.out, " ");
}

static void *pause_thread(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

/*
 * A child with a nice value, a session of its own and 3 threads. Its
 * nice value is 5 more than the test's, at most 19: a builder may run the
 * test niced already, and none but root may lower it.
 */
static void nice_session_threads(void *arg)
{
	int nice_now = getpriority(PRIO_PROCESS, 0);
	pthread_t t;

	(void)arg;
	if (setsid() < 0 ||
	    setpriority(PRIO_PROCESS, 0, nice_now < 14 ? nice_now + 5 : 19) < 0 ||
	    pthread_create(&t, NULL, pause_thread, NULL) ||
	    pthread_create(&t, NULL, pause_thread, NULL))
		_exit(90);
}

/*
 * A child in a session of its own with a terminal (a pty; *arg its
 * master), in the terminal's foreground: ps's pts/N and "+".
 */
static void with_terminal(void *arg)
{
	int master = *(int *)arg, slave;

	if (setsid() < 0)
		_exit(91);
	slave = ioctl(master, TIOCGPTPEER, O_RDWR);
	if (slave < 0 || ioctl(slave, TIOCSCTTY, 0) < 0)
		_exit(92);
}

/* Touches *arg MiB of its own memory: its RSS. */
static void with_memory(void *arg)
{
	size_t n = (size_t)*(int *)arg << 20;
	char *p = malloc(n);

	if (!p)
		_exit(93);
	memset(p, 1, n);
}

/* Whether this is a user-mode Linux guest, as its cpuinfo says. */
static bool in_uml(void)
{
	char *info = util_read_text("/proc/cpuinfo");
	bool uml = info && strstr(info, "User Mode Linux");

	free(info);
	return uml;
}

/*
 * The same value, or within tolerance where it changes between reads;
 * span: the seconds measured between our read and ps's (a slow guest
 * under load was seen to take 3 s between the two).
 */
static void compare_value(const char *field, const char *mine,
			  const char *theirs, pid_t pid, double span)
{
	double a, b;

	if (strcmp(field, "pcpu") == 0 || strcmp(field, "pmem") == 0) {
		/*
		 * %MEM within 0.5 of ps's; %CPU within 5: a young process's
		 * CPU time over its life moves between two reads, most in a
		 * slow guest, where a few clock ticks are that much of it.
		 */
		a = atof(mine);
		b = atof(theirs);
		/*
		 * A user-mode Linux guest's CPU times of a young child were
		 * seen to jump by 7 points between the two reads: there
		 * %CPU is only checked to be a percent.
		 */
		if (field[1] == 'c' && in_uml()) {
			ASSERT_TRUE(a >= 0 && a <= 100);
			return;
		}
		if (fabs(a - b) > (field[1] == 'c' ? 5 : 0.5))
			FAIL("%s of %d: %s, ps %s", field, pid, mine, theirs);
		return;
	}
	if (strcmp(field, "etime") == 0 || strcmp(field, "time") == 0) {
		/*
		 * MM:SS at the end: the seconds within 2 of ps's, and the
		 * time between the two reads.
		 */
		size_t la = strlen(mine), lb = strlen(theirs);

		ASSERT_TRUE(la >= 5 && lb >= 5);
		/*
		 * procps takes "now" and the boot time from two clocks; for a
		 * child younger than a second it was seen to print a negative
		 * ETIME wrapped to ~441 million days. Ours must then be 00:00.
		 */
		if (field[0] == 'e' && strchr(theirs, '-') &&
		    atol(theirs) > 100000) {
			ASSERT_TRUE(strcmp(mine, "00:00") == 0);
			return;
		}
		a = atof(mine + la - 5) * 60 + atof(mine + la - 2);
		b = atof(theirs + lb - 5) * 60 + atof(theirs + lb - 2);
		if (la != lb || strncmp(mine, theirs, la - 5) != 0 ||
		    fabs(a - b) > 2 + span)
			FAIL("%s of %d: %s, ps %s", field, pid, mine, theirs);
		return;
	}
	if (strcmp(mine, theirs) != 0)
		FAIL("%s of %d: '%s', ps '%s'", field, pid, mine, theirs);
}

/*
 * Fields as lists, ours and ps's, for one process: each value compared.
 * Values without blanks, split on them, but for a list of one.
 */
static void compare(const char *ours, const char *fields, pid_t pid)
{
	char mine[4096], theirs[4096], names[512];
	char *sm = NULL, *st = NULL, *sn = NULL, *m, *t, *n;
	bool one = !strchr(fields, ',');
	double span = harness_seconds_now();

	snprintf(mine, sizeof(mine), "%s", info_value(ours, pid));
	snprintf(theirs, sizeof(theirs), "%s", ps_value(fields, pid));
	span = harness_seconds_now() - span;
	snprintf(names, sizeof(names), "%s", fields);
	if (one) {
		compare_value(fields, mine, theirs, pid, span);
		return;
	}
	m = strtok_r(mine, " ", &sm);
	t = strtok_r(theirs, " ", &st);
	for (n = strtok_r(names, ",", &sn); n; n = strtok_r(NULL, ",", &sn)) {
		if (!m || !t)
			FAIL("%s of %d: no value", n, pid);
		compare_value(n, m, t, pid, span);
		m = strtok_r(NULL, " ", &sm);
		t = strtok_r(NULL, " ", &st);
	}
	ASSERT_TRUE(m == NULL && t == NULL);
}

/*
 * Our fields, by our names and ps's, and ps's of the same meaning; the
 * last two with blanks in their values, each alone.
 */
#define OURS "PID,PPID,user,uid,COMM,stat,s,TTY,PGID,SID,NI,PRI,NLWP,RSS," \
	     "VSZ,pcpu,pmem,TIME,ETIME,group"
#define PS "pid,ppid,user,uid,comm,stat,s,tty,pgid,sid,ni,pri,nlwp,rss," \
	   "vsz,pcpu,pmem,time,etime,group"

/*
 * LSTART where ps cannot tell the boot time (in user-mode Linux): the
 * same second as START in JSON, ISO 8601, which test-cli-ps compares
 * with ps's reckoning.
 */
static void lstart_is_start(pid_t pid)
{
	static struct cli_out o;
	char pidstr[16], lstart[64];
	struct tm a = { 0 }, b = { 0 };

	snprintf(lstart, sizeof(lstart), "%s", info_value("LSTART", pid));
	snprintf(pidstr, sizeof(pidstr), "%d", (int)pid);
	ASSERT_EQ(CLI(&o, "pidfd", "info", "-j", "-o", "START", pidstr), 0);
	ASSERT_TRUE(strptime(lstart, "%a %b %e %H:%M:%S %Y", &a) != NULL);
	ASSERT_TRUE(strptime(json_get(o.out, "start"), "%Y-%m-%dT%H:%M:%S",
			     &b) != NULL);
	a.tm_isdst = b.tm_isdst = -1;
	ASSERT_EQ(mktime(&a), mktime(&b));
}

/* All of them, of a child asleep until killed. */
static void compare_all(pid_t pid)
{
	const char *lstart;
	char theirs[64];

	compare(OURS, PS, pid);
	if ((lstart = ps_value("lstart", pid))) {
		snprintf(theirs, sizeof(theirs), "%s", lstart);
		compare_value("lstart", info_value("LSTART", pid), theirs, pid, 0);
	} else {
		lstart_is_start(pid);
	}
	compare("cmd", "cmd", pid);
	compare("WCHAN", "wchan:64", pid);
}

TEST_TIMEOUT(columns_as_ps_shows_them, 60)
{
	int fd[4], mib = 8, master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
	pid_t pid[4];

	pid[0] = util_spawn(NULL, NULL, &fd[0]);
	pid[1] = util_spawn(nice_session_threads, NULL, &fd[1]);
	pid[2] = util_spawn(with_memory, &mib, &fd[2]);
	/* A guest without /dev/ptmx: the terminal case is left out. */
	if (master >= 0) {
		ASSERT_EQ(unlockpt(master), 0);
		pid[3] = util_spawn(with_terminal, &master, &fd[3]);
	}
	for (int i = 0; i < (master >= 0 ? 4 : 3); i++)
		compare_all(pid[i]);
	if (master >= 0) {
		ASSERT_EQ(strncmp(info_value("TTY", pid[3]), "pts/", 4), 0);
		/* N where the test itself runs niced, as a builder may */
		ASSERT_EQ(strcmp(info_value("STAT", pid[3]),
				 getpriority(PRIO_PROCESS, 0) > 0 ? "SNs+" : "Ss+"),
			  0);
		util_kill_reap(fd[3]);
		close(master);
	}
	ASSERT_EQ(strcmp(info_value("STAT", pid[1]), "SNsl"), 0);
	ASSERT_EQ(strcmp(info_value("NLWP", pid[1]), "3"), 0);
	for (int i = 0; i < 3; i++)
		util_kill_reap(fd[i]);
}

/* ps -o's names for the same fields give the same table. */
TEST(ps_names_are_aliases)
{
	static struct cli_out a, b;
	char pidstr[16];
	int fd;

	util_spawn_text(NULL, NULL, &fd, pidstr);
	ASSERT_EQ(CLI(&a, "pidfd", "info", "-o", "pid,user,uid,cmd,stat,"
		      "rsz,vsize,tt,pgrp,sess,nice,thcount", pidstr), 0);
	ASSERT_EQ(CLI(&b, "pidfd", "info", "-o", "PID,EUSER,EUID,ARGS,STAT,"
		      "RSS,VSZ,TTY,PGID,SID,NI,NLWP", pidstr), 0);
	ASSERT_EQ(strcmp(a.out, b.out), 0);
	/* Those whose values move between two runs: the same headings. */
	ASSERT_EQ(CLI(&a, "pidfd", "info", "-o", "pcpu,pmem,cputime", pidstr), 0);
	ASSERT_EQ(strncmp(a.out, "%CPU %MEM TIME\n", 15), 0);
	ASSERT_EQ(CLI(&a, "pidfd", "info", "-J", "-o", "pcpu,pmem", pidstr), 0);
	ASSERT_TRUE(json_valid(a.out));
	ASSERT_TRUE(strstr(a.out, "{\"pcpu\":") != NULL);
	ASSERT_TRUE(strstr(a.out, ",\"pmem\":") != NULL);
	ASSERT_EQ(CLI(&a, "pidfd", "info", "-o", "pid,nosuch", pidstr), 1);
	ASSERT_TRUE(strstr(a.err, "unknown field: 'nosuch'") != NULL);
	util_kill_reap(fd);
}

/* The pids of a command's output lines, in order, as one text. */
static void pids_of(const char *out, char *pids, size_t size)
{
	size_t o = 0;

	pids[0] = '\0';
	for (const char *p = out; *p; p = strchr(p, '\n') + 1) {
		o += (size_t)snprintf(pids + o, size - o, "%ld ", strtol(p, NULL, 10));
		if (!strchr(p, '\n'))
			break;
	}
}

/* info --sort KEY and ps --sort KEY, on these processes: the same order. */
static void same_order(const char *key, const char *list, char **pidstrs)
{
	static struct cli_out o;
	char cmd[256], ours[256], theirs[256], ps_out[1024];
	char *argv[16] = { "pidfd", "info", "-n", "-o", "PID", "--sort", (char *)key };
	size_t len;
	FILE *f;
	int a = 7;

	for (int i = 0; pidstrs[i]; i++)
		argv[a++] = pidstrs[i];
	argv[a] = NULL;
	ASSERT_EQ(cli_run(&o, argv), 0);
	pids_of(o.out, ours, sizeof(ours));
	snprintf(cmd, sizeof(cmd), "ps -o pid= --sort=%s -p %s", key, list);
	f = popen(cmd, "r");
	ASSERT_TRUE(f != NULL);
	len = fread(ps_out, 1, sizeof(ps_out) - 1, f);
	ps_out[len] = '\0';
	ASSERT_EQ(pclose(f), 0);
	pids_of(ps_out, theirs, sizeof(theirs));
	if (strcmp(ours, theirs) != 0)
		FAIL("--sort=%s: %s, ps %s", key, ours, theirs);
}

TEST(sort_as_ps_sorts)
{
	int fd[3], mib[3] = { 4, 16, 1 };
	char pidstr[3][16], list[64], *pidstrs[4];

	for (int i = 0; i < 3; i++) {
		util_spawn_text(with_memory, &mib[i], &fd[i], pidstr[i]);
		pidstrs[i] = pidstr[i];
	}
	pidstrs[3] = NULL;
	snprintf(list, sizeof(list), "%s,%s,%s", pidstr[0], pidstr[1], pidstr[2]);
	same_order("-rss", list, pidstrs);
	same_order("rss", list, pidstrs);
	same_order("-pid", list, pidstrs);
	same_order("vsz", list, pidstrs);
	/* Equal keys (the same user): in the order of /proc, as ps. */
	same_order("-uid", list, pidstrs);
	for (int i = 0; i < 3; i++)
		util_kill_reap(fd[i]);
}

/* A child that dies with its parent and sleeps; 0 in it. */
static pid_t leaf(void)
{
	pid_t pid = fork();

	if (pid < 0)
		_exit(94);
	if (pid == 0)
		prctl(PR_SET_PDEATHSIG, SIGKILL);
	return pid;
}

static void tell(int w, int tag, pid_t pid)
{
	int rec[2] = { tag, (int)pid };

	if (write(w, rec, sizeof(rec)) != sizeof(rec))
		_exit(95);
}

/* In A: B with C under it, then D; each pid to the pipe *arg, tagged. */
static void tree(void *arg)
{
	int w = *(int *)arg;
	pid_t b = leaf(), c, d;

	if (b == 0) {
		if ((c = leaf()) == 0)
			for (;;)
				pause();
		tell(w, 'C', c);
		for (;;)
			pause();
	}
	tell(w, 'B', b);
	if ((d = leaf()) == 0)
		for (;;)
			pause();
	tell(w, 'D', d);
}

/* ps -o pid=,args= --forest's lines, and ours: the pid, then the rest. */
static void same_tree(const char *ours, const char *theirs)
{
	while (*ours && *theirs) {
		char *a, *b;
		long pa = strtol(ours, &a, 10), pb = strtol(theirs, &b, 10);
		size_t na = strcspn(a, "\n"), nb = strcspn(b, "\n");

		if (pa != pb || na != nb || strncmp(a, b, na) != 0)
			FAIL("--forest line %ld '%.*s', ps %ld '%.*s'", pa,
			     (int)na, a, pb, (int)nb, b);
		ours = a + na + (a[na] == '\n');
		theirs = b + nb + (b[nb] == '\n');
	}
	ASSERT_EQ(*ours, *theirs);
}

TEST(forest_as_ps_draws_it)
{
	static struct cli_out o;
	char ps_out[4096], cmd[256], s[4][16];
	int pipefd[2], fd, rec[2];
	pid_t pid[4] = { 0 };
	size_t len;
	FILE *f;

	ASSERT_EQ(pipe(pipefd), 0);
	pid[0] = util_spawn(tree, &pipefd[1], &fd);
	for (int i = 0; i < 3; i++) {
		ASSERT_EQ(read(pipefd[0], rec, sizeof(rec)), (ssize_t)sizeof(rec));
		pid[rec[0] == 'B' ? 1 : rec[0] == 'C' ? 2 : 3] = rec[1];
	}
	close(pipefd[0]);
	close(pipefd[1]);
	/* Named out of order: the tree puts them in place, by pid as ps. */
	for (int i = 0; i < 4; i++)
		snprintf(s[i], sizeof(s[i]), "%d", (int)pid[i]);
	ASSERT_EQ(CLI(&o, "pidfd", "info", "-n", "-w", "--forest", "-o", "PID,ARGS",
		      s[3], s[2], s[1], s[0]), 0);
	snprintf(cmd, sizeof(cmd), "ps -ww --forest -o pid=,args= -p %s,%s,%s,%s",
		 s[0], s[1], s[2], s[3]);
	f = popen(cmd, "r");
	ASSERT_TRUE(f != NULL);
	len = fread(ps_out, 1, sizeof(ps_out) - 1, f);
	ps_out[len] = '\0';
	ASSERT_EQ(pclose(f), 0);
	same_tree(o.out, ps_out);
	ASSERT_TRUE(strstr(o.out, " |   \\_ ") != NULL); /* C, under B */
	/* Sorted, then drawn: D before B under A. */
	ASSERT_EQ(CLI(&o, "pidfd", "info", "-n", "-w", "--forest", "--sort=-pid",
		      "-o", "PID", s[0], s[1], s[2], s[3]), 0);
	pids_of(o.out, cmd, sizeof(cmd));
	snprintf(ps_out, sizeof(ps_out), "%s %s %s %s ", s[0], s[3], s[1], s[2]);
	ASSERT_EQ(strcmp(cmd, ps_out), 0);
	/* JSON: the same order, the tree in pid and ppid. */
	ASSERT_EQ(CLI(&o, "pidfd", "info", "-j", "--forest", "-o", "PID,PPID,ARGS",
		      s[3], s[2], s[1], s[0]), 0);
	ASSERT_TRUE(strstr(o.out, "\\\\_") == NULL);
	util_kill_reap(fd);
}

/*
 * An unreaped zombie: info tells how it ended, as wait does, and their
 * JSON names the same things the same way.
 */
TEST(zombie_shows_its_end)
{
	static const char *const keys[] = { "pid", "handle", "exit", "exitcode" };
	static struct cli_out o, w;
	char pidstr[16], want[32];
	int fd;
	pid_t pid = util_zombie(7, &fd);

	snprintf(pidstr, sizeof(pidstr), "%d", (int)pid);
	ASSERT_EQ(CLI(&o, "pidfd", "info", "-j", "-o", "STATE,EXIT,EXITCODE",
		      pidstr), 0);
	if (strcmp(o.out, "{\"state\":\"Z\",\"exit\":\"exited 7\","
			  "\"exitcode\":1792}\n") != 0)
		FAIL("info of a zombie: '%s'", o.out);
	ASSERT_EQ(CLI(&o, "pidfd", "info", "-j", "-o", "PID,HANDLE,EXIT,EXITCODE",
		      pidstr), 0);
	ASSERT_EQ(CLI(&w, "pidfd", "wait", "-j", pidstr), 0);
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		char a[64];

		snprintf(a, sizeof(a), "%s", json_get(o.out, keys[i]));
		if (strcmp(a, json_get(w.out, keys[i])) != 0)
			FAIL("%s: info %s, wait %s", keys[i], o.out, w.out);
	}
	ASSERT_EQ(atoi(json_get(w.out, "pid")), pid);
	ASSERT_EQ(strcmp(json_get(w.out, "signal"), "null"), 0);
	ASSERT_EQ(strcmp(json_get(w.out, "core_dumped"), "false"), 0);
	ASSERT_TRUE(strstr(w.out, "\"process\"") == NULL);
	ASSERT_EQ(CLI(&o, "pidfd", "wait", pidstr), 0);
	snprintf(want, sizeof(want), "%s: exited 7\n", pidstr);
	ASSERT_EQ(strcmp(o.out, want), 0);
	util_kill_reap(fd);
}

/* In the tool: the pidfd *arg on descriptor 3, as "fd:3" names it. */
static void on_fd3(char **argv, void *arg)
{
	int fd = *(int *)arg;

	(void)argv;
	if (fd == 3 ? fcntl(3, F_SETFD, 0) < 0 : dup2(fd, 3) != 3)
		_exit(91);
}

/*
 * A reaped process whose pid a newcomer may hold: none of the ps
 * columns, which would be the newcomer's; the sort keys rejected as
 * the fields are.
 */
TEST(reaped_shows_no_ps_columns)
{
	static struct cli_out o;
	siginfo_t si;
	int fd, r;

	util_zombie(7, &fd);
	ASSERT_EQ(waitid(P_PIDFD, (id_t)fd, &si, WEXITED), 0);
	r = cli_run_pre(&o, (char *[]){ "pidfd", "info", "-j", "-o",
					"STAT,TTY,PGID,SID,NI,PRI,NLWP,RSS,VSZ,"
					"%CPU,%MEM,TIME,ETIME,LSTART,WCHAN,HANDLE",
					"fd:3", NULL }, on_fd3, &fd);
	if (r == 0 && strcmp(o.out, "{\"stat\":null,\"tty\":null,\"pgid\":null,"
			     "\"sid\":null,\"ni\":null,\"pri\":null,\"nlwp\":null,"
			     "\"rss\":null,\"vsz\":null,\"pcpu\":null,\"pmem\":null,"
			     "\"time\":null,\"etime\":null,\"lstart\":null,"
			     "\"wchan\":null,\"handle\":null}\n") != 0)
		FAIL("reaped: %s", o.out);
	/* Where the kernel keeps no ending, the process is not known at all. */
	ASSERT_TRUE(r == 0 || (r == 1 && strstr(o.err, "fd:3") != NULL));
	close(fd);
	CLI_FAILS(&o, "unknown sort key: 'nosuch'", "pidfd", "info",
		  "--sort=-nosuch", "self");
	ASSERT_EQ(CLI(&o, "pidfd", "info", "--sort=", "self"), 1);
}
