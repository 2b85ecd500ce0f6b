/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * pidfd info, end to end: a child with known, distinct credentials, read
 * back from the table and from the JSON and compared with what the test
 * knows; the cgroup path and id; the ending of a reaped process through an
 * inherited pidfd.
 */
#include <grp.h>
#include <pwd.h>
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <time.h>

#include <libpidfd.h>

#include "cli.h"
#include "internal.h"
#include "util.h"

/* Real, effective, saved ids all different, so that no column hides another. */
static void distinct_ids(void *arg)
{
	(void)arg;
	if (setresgid(1101, 1102, 1103) || setresuid(2201, 2202, 2203))
		_exit(90);
}

/* The cgroup2 path of the test, as /proc/self/cgroup names it. */
static const char *own_cgroup(void)
{
	static char path[1024];
	char line[1100];
	FILE *f = fopen("/proc/self/cgroup", "re");

	ASSERT_TRUE(f != NULL);
	path[0] = '\0';
	while (fgets(line, sizeof(line), f))
		if (strncmp(line, "0::", 3) == 0)
			sscanf(line + 3, "%1023s", path);
	fclose(f);
	return path;
}

/* Line n of a table split at blanks into f (copied into row): how many. */
static int fields_of_line(const char *text, int n, char row[4096],
			  char *f[16])
{
	int count = 0;

	snprintf(row, 4096, "%s", line_of(text, n));
	for (char *s = strtok(row, " "); s && count < 16; s = strtok(NULL, " "))
		f[count++] = s;
	return count;
}

TEST(info_table_of_known_child)
{
	struct cli_out o;
	char pidstr[16], row[4096], *f[16];
	int fd;
	pid_t pid;

	REQUIRE_PRIVILEGE("gives a child other credentials");
	pid = util_spawn_text(distinct_ids, NULL, &fd, pidstr);
	ASSERT_EQ(CLI(&o, "pidfd", "info", "--fields",
		      "PID,PPID,RUID,EUID,SUID,FSUID,RGID,EGID,SGID,FSGID,CGROUP",
		      pidstr), 0);
	ASSERT_EQ(o.err[0], '\0');
	ASSERT_EQ(fields_of_line(o.out, 0, row, f), 11);
	ASSERT_EQ(strcmp(f[0], "PID"), 0);
	ASSERT_EQ(strcmp(f[10], "CGROUP"), 0);
	ASSERT_EQ(fields_of_line(o.out, 1, row, f), 11);
	ASSERT_EQ(atoi(f[0]), pid);
	ASSERT_EQ(atoi(f[1]), getpid());
	ASSERT_EQ(atoi(f[2]), 2201);
	ASSERT_EQ(atoi(f[3]), 2202);
	ASSERT_EQ(atoi(f[4]), 2203);
	ASSERT_EQ(atoi(f[5]), 2202); /* fsuid follows euid */
	ASSERT_EQ(atoi(f[6]), 1101);
	ASSERT_EQ(atoi(f[7]), 1102);
	ASSERT_EQ(atoi(f[8]), 1103);
	ASSERT_EQ(atoi(f[9]), 1102);
	ASSERT_EQ(strcmp(f[10], own_cgroup()), 0);
	ASSERT_EQ(line_of(o.out, 2)[0], '\0');
	util_kill_reap(fd);
}

TEST(info_default_table_names_root)
{
	struct cli_out o;
	char row[4096], *f[16];

	ASSERT_EQ(CLI(&o, "pidfd", "info", "self"), 0);
	ASSERT_EQ(fields_of_line(o.out, 0, row, f), 10);
	ASSERT_EQ(strcmp(f[4], "EUSER"), 0);
	ASSERT_EQ(strcmp(f[9], "COMM"), 0);
	ASSERT_EQ(fields_of_line(o.out, 1, row, f), 10);
	ASSERT_EQ(atoi(f[1]), getpid()); /* pidfd's parent is this test */
	ASSERT_EQ(strcmp(f[4], getuid() == 0 ? "root" : f[4]), 0);
	ASSERT_EQ(strcmp(f[8], "-"), 0); /* a live process has no ending */
	ASSERT_EQ(strcmp(f[9], "pidfd"), 0);
}

TEST(info_json_of_known_child_and_self)
{
	struct pidfd_info mine = { .mask = PIDFD_INFO_CGROUPID };
	struct cli_out o;
	char pidstr[16], obj[4096], want[32];
	int fd;
	pid_t pid;

	REQUIRE_PRIVILEGE("gives a child other credentials");
	pid = util_spawn_text(distinct_ids, NULL, &fd, pidstr);
	ASSERT_EQ(CLI(&o, "pidfd", "info", "--json", pidstr, "self"), 0);
	/* One document, as util-linux writes it, a process a line. */
	ASSERT_TRUE(json_valid(o.out));
	ASSERT_EQ(strcmp(line_of(o.out, 0), "{"), 0);
	ASSERT_EQ(strcmp(line_of(o.out, 1), "   \"processes\": ["), 0);
	snprintf(obj, sizeof(obj), "%s", line_of(o.out, 2));
	ASSERT_EQ(strncmp(obj, "      {", 7), 0);
	ASSERT_EQ(atoi(json_get(obj, "pid")), pid);
	ASSERT_EQ(atoi(json_get(obj, "tgid")), pid);
	ASSERT_EQ(atoi(json_get(obj, "ppid")), getpid());
	ASSERT_EQ(atoi(json_get(obj, "ruid")), 2201);
	ASSERT_EQ(atoi(json_get(obj, "euid")), 2202);
	ASSERT_EQ(atoi(json_get(obj, "suid")), 2203);
	ASSERT_EQ(atoi(json_get(obj, "rgid")), 1101);
	ASSERT_EQ(atoi(json_get(obj, "egid")), 1102);
	ASSERT_EQ(atoi(json_get(obj, "sgid")), 1103);
	ASSERT_EQ(strcmp(json_get(obj, "exit"), "null"), 0);
	ASSERT_EQ(strcmp(json_get(obj, "cgroup"), own_cgroup()), 0);
	/* The cgroup id is the one the library gives this test. */
	ASSERT_EQ(libpidfd_get_info(PIDFD_SELF_PROCESS, &mine, sizeof(mine)), 0);
	ASSERT_TRUE(mine.mask & PIDFD_INFO_CGROUPID);
	snprintf(want, sizeof(want), "%llu", (unsigned long long)mine.cgroupid);
	ASSERT_EQ(strcmp(json_get(obj, "cgroupid"), want), 0);
	/* self: the tool, a child of this test, root like it. */
	snprintf(obj, sizeof(obj), "%s", line_of(o.out, 3));
	ASSERT_EQ(atoi(json_get(obj, "ppid")), getpid());
	ASSERT_EQ(atoi(json_get(obj, "euid")), (int)geteuid());
	if (geteuid() == 0)
		ASSERT_EQ(strcmp(json_get(obj, "euser"), "root"), 0);
	ASSERT_EQ(strcmp(line_of(o.out, 4), "   ]"), 0);
	ASSERT_EQ(strcmp(line_of(o.out, 5), "}"), 0);
	ASSERT_EQ(line_of(o.out, 6)[0], '\0');
	/* -j: the same objects, one a line. */
	ASSERT_EQ(CLI(&o, "pidfd", "info", "-j", pidstr, "self"), 0);
	ASSERT_EQ(atoi(json_get(line_of(o.out, 0), "pid")), pid);
	ASSERT_EQ(atoi(json_get(line_of(o.out, 1), "ppid")), getpid());
	ASSERT_EQ(line_of(o.out, 2)[0], '\0');
	util_kill_reap(fd);
}

struct inherit {
	int fd;
};

/* Hand the pidfd to the tool as its descriptor 3. */
static void pass_fd3(char **argv, void *arg)
{
	int fd = ((struct inherit *)arg)->fd;

	(void)argv;
	/* dup2() onto itself would keep close-on-exec. */
	if (fd == 3 ? fcntl(3, F_SETFD, 0) < 0 : dup2(fd, 3) != 3)
		_exit(91);
}

/*
 * A reaped process, named by an inherited pidfd: its ending where the
 * kernel keeps it (PIDFD_INFO_EXIT, 6.15), else the reason why not.
 */
TEST(info_ending_of_reaped_process)
{
	struct inherit in;
	struct cli_out o;
	siginfo_t si;
	int r;

	util_zombie(7, &in.fd);
	ASSERT_EQ(waitid(P_PIDFD, (id_t)in.fd, &si, WEXITED), 0);
	r = cli_run_pre(&o, (char *[]){ "pidfd", "info", "--json", "fd:3", NULL },
			pass_fd3, &in);
	if (util_exit_after_reap()) {
		ASSERT_EQ(r, 0);
		ASSERT_EQ(strcmp(json_get(o.out, "exit"), "exited 7"), 0);
		ASSERT_EQ(atoi(json_get(o.out, "exitcode")), 7 << 8);
		ASSERT_EQ(strcmp(json_get(o.out, "pid"), "null"), 0);
		/* Nothing from /proc, whoever has the pid now. */
		ASSERT_TRUE(strstr(o.out, "\"comm\":null,\"args\":null,"
				   "\"state\":null,\"start\":null") != NULL);
		ASSERT_EQ(strcmp(json_get(o.out, "cgroup"), "null"), 0);
	} else {
		ASSERT_EQ(r, 1);
		ASSERT_TRUE(json_valid(o.out));
		ASSERT_TRUE(strstr(o.out, "\"pid\"") == NULL);
		ASSERT_TRUE(strstr(o.err, "pidfd: info: cannot get information on "
				   "fd:3: No such process") != NULL);
	}
	close(in.fd);
}

/*
 * A child that dumps core (core_pattern "core") in a directory of its own,
 * on tmpfs in UML; its pidfd.
 */
static int crash_with_core(const char *dir)
{
	pid_t pid = fork();
	int fd;

	ASSERT_GE(pid, 0);
	if (pid == 0)
		util_dump_core(dir);
	fd = libpidfd_open(pid, 0);
	ASSERT_GE(fd, 0);
	return fd;
}

TEST(info_ending_killed_with_core)
{
	char dir[] = "/tmp/libpidfd-core.XXXXXX", cmd[64], how[16], code[16];
	struct inherit in;
	struct cli_out o;
	siginfo_t si;
	int r;

	ASSERT_TRUE(mkdtemp(dir) != NULL);
	ASSERT_EQ(chmod(dir, 0777), 0);
	in.fd = crash_with_core(dir);
	ASSERT_EQ(waitid(P_PIDFD, (id_t)in.fd, &si, WEXITED), 0);
	ASSERT_EQ(si.si_code, CLD_DUMPED);
	r = cli_run_pre(&o, (char *[]){ "pidfd", "info", "-o",
					"EXIT,COREDUMP,COREDUMPCODE", "fd:3",
					NULL }, pass_fd3, &in);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	ASSERT_EQ(system(cmd), 0);
	if (util_exit_after_reap()) {
		ASSERT_EQ(r, 0);
		ASSERT_TRUE(strstr(line_of(o.out, 1),
				   "killed by SIGSEGV (core dumped)") != NULL);
		ASSERT_TRUE(strstr(line_of(o.out, 1), "dumped") != NULL);
		/*
		 * raise(3): SI_TKILL, where the kernel tells how the core
		 * was dumped (to a file, 7.2 does not) and its code (7.1).
		 */
		ASSERT_EQ(sscanf(strstr(line_of(o.out, 1), "dumped)"),
				 "dumped) %15s %15s", how, code), 2);
		if (strcmp(how, "-") != 0 && util_native(LPFD_FEAT_INFO_CODE))
			ASSERT_EQ(strcmp(code, "-6"), 0);
	} else {
		ASSERT_EQ(r, 1);
	}
	close(in.fd);
}

TEST(info_missing_process_names_it)
{
	struct cli_out o;
	char pidstr[16];
	int fd;
	pid_t pid = util_zombie(0, &fd);

	util_kill_reap(fd);
	(void)pid;
	snprintf(pidstr, sizeof(pidstr), "%d", pid);
	ASSERT_EQ(CLI(&o, "pidfd", "info", "self", pidstr), 1);
	/* The good one is still shown. */
	ASSERT_TRUE(strstr(line_of(o.out, 0), "PID") != NULL);
	ASSERT_EQ(line_of(o.out, 2)[0], '\0');
	ASSERT_TRUE(strstr(o.err, pidstr) != NULL);
	ASSERT_TRUE(strstr(o.err, "No such process") != NULL);
}

/* The parsers behind COMM, STATE, START and ARGS, on what /proc can say. */
TEST(parse_stat_and_cmdline)
{
	static const char stat[] = "42 (a b) (c) Z 1 2 3 4 -1 5 6 7 8 9 10 11 "
				   "12 13 -20 -5 1 0 123456 7 8\n";
	static const char cut[] = "42 (x) S 1 2 3";
	static const char args[] = "sleep\0" "1000\0" "a b\0";
	struct lpfd_stat st;
	unsigned int flags;
	char out[16];

	ASSERT_EQ(lpfd_parse_stat(stat, sizeof(stat) - 1, &st), 0);
	ASSERT_EQ(strcmp(st.comm, "a b) (c"), 0);
	ASSERT_EQ(st.state, 'Z');
	ASSERT_EQ(st.start, 123456);
	ASSERT_EQ(st.have, LPFD_STAT_COMM | LPFD_STAT_STATE | LPFD_STAT_START |
			   LPFD_STAT_PS);
	ASSERT_EQ(st.ppid, 1);
	ASSERT_EQ(st.pgrp, 2);
	ASSERT_EQ(st.session, 3);
	ASSERT_EQ(st.tty, 4);
	ASSERT_EQ(st.tpgid, -1);
	ASSERT_EQ(st.cpu, 10 + 11);
	ASSERT_EQ(st.priority, -20);
	ASSERT_EQ(st.nice, -5);
	ASSERT_EQ(st.threads, 1);
	ASSERT_EQ(lpfd_parse_stat(cut, sizeof(cut) - 1, &st), 0);
	ASSERT_EQ(st.have, LPFD_STAT_COMM | LPFD_STAT_STATE);
	ASSERT_EQ(lpfd_parse_stat("42 x) S", 7, &st), -ENOENT);
	ASSERT_EQ(lpfd_parse_stat_flags(stat, sizeof(stat) - 1, &flags), 0);
	ASSERT_EQ(flags, 5);
	ASSERT_EQ(lpfd_parse_stat_flags(cut, sizeof(cut) - 1, &flags), -ENOENT);
	ASSERT_EQ(lpfd_parse_cmdline(args, sizeof(args) - 1, out, sizeof(out)), 14);
	ASSERT_EQ(strcmp(out, "sleep 1000 a b"), 0);
	ASSERT_EQ(lpfd_parse_cmdline(args, sizeof(args) - 1, out, 6), 5);
	ASSERT_EQ(strcmp(out, "sleep"), 0);
	ASSERT_EQ(lpfd_parse_cmdline("\0\0", 2, out, sizeof(out)), -ENOENT);
}

static void name_it(void *arg)
{
	prctl(PR_SET_NAME, (unsigned long)arg, 0, 0, 0);
}

/* The seconds since the epoch of an ISO 8601 time with a +hh:mm offset. */
static time_t iso_time(const char *s)
{
	struct tm tm = { 0 };
	const char *z = strptime(s, "%Y-%m-%dT%H:%M:%S", &tm);
	int sign, hh, mm;

	ASSERT_TRUE(z != NULL);
	ASSERT_EQ(sscanf(z, "%*c%2d:%2d", &hh, &mm), 2);
	sign = z[0] == '-' ? -1 : 1;
	return timegm(&tm) - sign * (hh * 3600 + mm * 60);
}

/* COMM, ARGS, STATE and START of a running, a stopped and a dead child. */
TEST(info_ps_columns)
{
	struct cli_out o;
	char pidstr[16], args[4096], obj[8192];
	siginfo_t si;
	int fd, afd;
	ssize_t n;
	pid_t pid = util_spawn_text(name_it, "a b) (c", &fd, pidstr);

	/* The child's arguments are the test's own. */
	afd = open("/proc/self/cmdline", O_RDONLY);
	n = read(afd, args, sizeof(args) - 1);
	close(afd);
	ASSERT_TRUE(n > 0);
	for (ssize_t i = 0; i < n; i++)
		args[i] = args[i] ? args[i] : ' ';
	while (n && args[n - 1] == ' ')
		n--;
	args[n] = '\0';
	ASSERT_EQ(kill(pid, SIGSTOP), 0);
	ASSERT_EQ(waitid(P_PID, (id_t)pid, &si, WSTOPPED | WNOWAIT), 0);
	ASSERT_EQ(CLI(&o, "pidfd", "info", "-j", "-o", "PID,COMM,ARGS,STATE,START",
		      pidstr), 0);
	snprintf(obj, sizeof(obj), "%s", line_of(o.out, 0));
	ASSERT_EQ(strcmp(json_get(obj, "comm"), "a b) (c"), 0);
	ASSERT_TRUE(strstr(obj, "\"state\":\"T\"") != NULL);
	ASSERT_TRUE(strstr(obj, args) != NULL);
	ASSERT_TRUE(labs((long)(iso_time(json_get(obj, "start")) - time(NULL))) < 300);
	/* The table: the start as ps shows a recent one, HH:MM. */
	ASSERT_EQ(CLI(&o, "pidfd", "info", "-n", "-o", "STATE,START", pidstr), 0);
	ASSERT_EQ(strlen(o.out), strlen("T     hh:mm\n"));
	ASSERT_EQ(o.out[8], ':');
	kill(pid, SIGKILL);
	util_wait_exit(fd);
	/* A zombie: the name and state are still there; no arguments left. */
	ASSERT_EQ(CLI(&o, "pidfd", "info", "-j", "-o", "COMM,ARGS,STATE", pidstr), 0);
	ASSERT_TRUE(strstr(o.out, "\"comm\":\"a b) (c\",\"args\":\"[a b) (c]\","
			   "\"state\":\"Z\"") != NULL);
	/* Reaped: nothing of /proc, whoever has the pid now. */
	ASSERT_EQ(waitid(P_PIDFD, (id_t)fd, &si, WEXITED), 0);
	close(fd);
	ASSERT_EQ(CLI(&o, "pidfd", "info", "-o", "COMM", pidstr), 1);
}

/*
 * EXE and CWD: the child's own links, through its pidfd; once it is
 * reaped, none (another process may have the pid by then).
 */
TEST(info_exe_and_cwd)
{
	struct cli_out o;
	char pidstr[16], exe[PATH_MAX], cwd[PATH_MAX], obj[8192];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	int fd;

	ASSERT_TRUE(n > 0);
	exe[n] = '\0';
	ASSERT_TRUE(getcwd(cwd, sizeof(cwd)) != NULL);
	util_spawn_text(NULL, NULL, &fd, pidstr);
	ASSERT_EQ(CLI(&o, "pidfd", "info", "-j", "-o", "EXE,CWD", pidstr), 0);
	snprintf(obj, sizeof(obj), "%s", line_of(o.out, 0));
	ASSERT_EQ(strcmp(json_get(obj, "exe"), exe), 0);
	ASSERT_EQ(strcmp(json_get(obj, "cwd"), cwd), 0);
	ASSERT_EQ(CLI(&o, "pidfd", "info", "-n", "-o", "CWD", "self"), 0);
	ASSERT_EQ(strncmp(o.out, cwd, strlen(cwd)), 0);
	util_kill_reap(fd);
	ASSERT_EQ(CLI(&o, "pidfd", "info", "-o", "EXE", pidstr), 1);
}

/* Whether a table's first column holds this pid. */
static bool lists_pid(const char *out, pid_t pid)
{
	for (int i = 0; line_of(out, i)[0]; i++)
		if (atoi(line_of(out, i)) == pid)
			return true;
	return false;
}

TEST(info_all_and_by_user)
{
	struct cli_out o;
	int fd;
	pid_t pid;

	REQUIRE_PRIVILEGE("gives a child other credentials");
	pid = util_spawn(distinct_ids, NULL, &fd);
	ASSERT_EQ(CLI(&o, "pidfd", "info", "--all", "-n", "-o", "PID,EUID,COMM"), 0);
	ASSERT_TRUE(lists_pid(o.out, 1));
	ASSERT_TRUE(lists_pid(o.out, getpid()));
	ASSERT_TRUE(lists_pid(o.out, pid));
	/* By effective user, by id or name; alone, -u looks at all. */
	ASSERT_EQ(CLI(&o, "pidfd", "info", "-u", "2202", "-n", "-o", "PID,EUID"), 0);
	ASSERT_TRUE(lists_pid(o.out, pid));
	ASSERT_TRUE(!lists_pid(o.out, getpid()));
	for (int i = 0; line_of(o.out, i)[0]; i++)
		ASSERT_EQ(atoi(strrchr(line_of(o.out, i), ' ') + 1), 2202);
	ASSERT_EQ(CLI(&o, "pidfd", "info", "-n", "-o", "PID", "--user", "root", "-a"), 0);
	ASSERT_TRUE(!lists_pid(o.out, pid));
	ASSERT_EQ(lists_pid(o.out, getpid()), geteuid() == 0);
	ASSERT_EQ(CLI(&o, "pidfd", "info", "-J", "-a", "-o", "PID"), 0);
	ASSERT_TRUE(json_valid(o.out));
	CLI_FAILS(&o, "unknown user", "pidfd", "info", "-u",
		  "no-such-user-here");
	ASSERT_EQ(CLI(&o, "pidfd", "info", "-a", "1"), 1);
	/* Nothing matched is 1, as in ps and pgrep; the JSON still valid. */
	ASSERT_EQ(CLI(&o, "pidfd", "info", "-u", "54329", "-J"), 1);
	ASSERT_TRUE(json_valid(o.out));
	ASSERT_EQ(o.err[0], '\0');
	ASSERT_EQ(CLI(&o, "pidfd", "info", "-u", "54329", "1"), 1);
	util_kill_reap(fd);
}

/*
 * A user or group without a name shows as its number, as in ps: the
 * child's ids (1101.., 2201..) are in no database here.
 */
TEST(info_unknown_user_and_group_as_numbers)
{
	static const char *const want[] = { "2201", "2202", "2202", "1101",
					    "1102", "1103" };
	char row[4096], pid_s[16], *f[16];
	struct cli_out o;
	int fd;
	pid_t pid;

	REQUIRE_PRIVILEGE("gives a child other credentials");
	ASSERT_TRUE(getpwuid(2202) == NULL && getgrgid(1102) == NULL);
	pid = util_spawn(distinct_ids, NULL, &fd);
	snprintf(pid_s, sizeof(pid_s), "%d", pid);
	ASSERT_EQ(CLI(&o, "pidfd", "info", "-n", "-o",
		      "RUSER,EUSER,FSUSER,RGROUP,EGROUP,SGROUP", pid_s), 0);
	ASSERT_EQ(fields_of_line(o.out, 0, row, f), 6);
	for (int i = 0; i < 6; i++)
		if (strcmp(f[i], want[i]) != 0)
			FAIL("column %d: %s, not %s", i, f[i], want[i]);
	ASSERT_EQ(CLI(&o, "pidfd", "info", "-J", "-o", "EUSER,EGROUP", pid_s), 0);
	ASSERT_TRUE(strstr(o.out, "\"euser\":\"2202\",\"egroup\":\"1102\"") != NULL);
	util_kill_reap(fd);
}

/* -u takes a comma list of users, names or ids, as ps -u does. */
TEST(info_user_comma_list)
{
	struct cli_out o;
	int fd;
	pid_t pid;

	REQUIRE_PRIVILEGE("gives a child other credentials");
	pid = util_spawn(distinct_ids, NULL, &fd);
	ASSERT_EQ(CLI(&o, "pidfd", "info", "-u", "root,2202", "-n", "-o", "PID"), 0);
	ASSERT_TRUE(lists_pid(o.out, pid));
	ASSERT_TRUE(lists_pid(o.out, getpid()));
	ASSERT_EQ(CLI(&o, "pidfd", "info", "-u", "nobody,2202", "-n", "-o", "PID,EUID"), 0);
	ASSERT_TRUE(lists_pid(o.out, pid));
	ASSERT_TRUE(!lists_pid(o.out, getpid()));
	for (int i = 0; line_of(o.out, i)[0]; i++) {
		int euid = atoi(strrchr(line_of(o.out, i), ' ') + 1);

		ASSERT_TRUE(euid == 2202 || euid == 65534);
	}
	CLI_FAILS(&o, "unknown user 'no-such-user-here'", "pidfd", "info",
		  "-u", "root,no-such-user-here");
	ASSERT_EQ(CLI(&o, "pidfd", "info", "-u", "root,", "-n"), 1);
	util_kill_reap(fd);
}

/*
 * The cgroup2 hierarchy mounted where mountinfo escapes the path ("\040"
 * for a space), alone in a mount namespace: the tool still resolves it.
 */
static char cg_dir[] = "/tmp/libpidfd cg\tdir.XXXXXX";

static void cgroup2_at_odd_path(char **argv, void *arg)
{
	char line[1024], dev[256], dir[512], type[64];
	bool again = true;

	(void)argv;
	(void)arg;
	if (unshare(CLONE_NEWNS) < 0 ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		_exit(97);
	while (again) {
		FILE *f = fopen("/proc/self/mounts", "re");

		again = false;
		while (f && fgets(line, sizeof(line), f))
			if (sscanf(line, "%255s %511s %63s", dev, dir, type) == 3 &&
			    strcmp(type, "cgroup2") == 0 &&
			    umount2(dir, MNT_DETACH) == 0)
				again = true;
		if (f)
			fclose(f);
	}
	if (mount("cgroup2", cg_dir, "cgroup2", 0, NULL) < 0)
		_exit(98);
}

TEST(info_cgroup_under_escaped_mount_point)
{
	struct cli_out o;
	char obj[4096];

	REQUIRE_PRIVILEGE("mounts cgroup2 in a mount namespace of its own");
	ASSERT_TRUE(mkdtemp(cg_dir) != NULL);
	ASSERT_EQ(cli_run_pre(&o, (char *[]){ "pidfd", "info", "-j", "-o",
					      "CGROUPID,CGROUP", "self", NULL },
			      cgroup2_at_odd_path, NULL), 0);
	rmdir(cg_dir);
	snprintf(obj, sizeof(obj), "%s", line_of(o.out, 0));
	ASSERT_EQ(strcmp(json_get(obj, "cgroup"), own_cgroup()), 0);
	ASSERT_TRUE(strcmp(json_get(obj, "cgroupid"), "null") != 0);
}
