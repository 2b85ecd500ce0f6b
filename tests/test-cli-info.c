/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * pidfd info, end to end: a child with known, distinct credentials, read
 * back from the table and from the JSON and compared with what the test
 * knows; the cgroup path and id; the ending of a reaped process through an
 * inherited pidfd.
 */
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>

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

/* The whitespace-separated fields of a table line. */
static int split(char *line, char **f, int max)
{
	int n = 0;

	for (char *s = strtok(line, " "); s && n < max; s = strtok(NULL, " "))
		f[n++] = s;
	return n;
}

TEST(info_table_of_known_child)
{
	struct cli_out o;
	char pidstr[16], row[4096], *f[16];
	int fd;
	pid_t pid = util_spawn(distinct_ids, NULL, &fd);

	snprintf(pidstr, sizeof(pidstr), "%d", pid);
	ASSERT_EQ(CLI(&o, "pidfd", "info", "--fields",
		      "PID,PPID,RUID,EUID,SUID,FSUID,RGID,EGID,SGID,FSGID,CGROUP",
		      pidstr), 0);
	ASSERT_EQ(o.err[0], '\0');
	snprintf(row, sizeof(row), "%s", line_of(o.out, 0));
	ASSERT_EQ(split(row, f, 16), 11);
	ASSERT_EQ(strcmp(f[0], "PID"), 0);
	ASSERT_EQ(strcmp(f[10], "CGROUP"), 0);
	snprintf(row, sizeof(row), "%s", line_of(o.out, 1));
	ASSERT_EQ(split(row, f, 16), 11);
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
	snprintf(row, sizeof(row), "%s", line_of(o.out, 0));
	ASSERT_EQ(split(row, f, 16), 9);
	ASSERT_EQ(strcmp(f[4], "EUSER"), 0);
	snprintf(row, sizeof(row), "%s", line_of(o.out, 1));
	ASSERT_EQ(split(row, f, 16), 9);
	ASSERT_EQ(atoi(f[1]), getpid()); /* pidfd's parent is this test */
	ASSERT_EQ(strcmp(f[4], getuid() == 0 ? "root" : f[4]), 0);
	ASSERT_EQ(strcmp(f[8], "-"), 0); /* a live process has no ending */
}

TEST(info_json_of_known_child_and_self)
{
	struct pidfd_info mine = { .mask = PIDFD_INFO_CGROUPID };
	struct cli_out o;
	char pidstr[16], obj[4096], want[32];
	int fd;
	pid_t pid = util_spawn(distinct_ids, NULL, &fd);

	snprintf(pidstr, sizeof(pidstr), "%d", pid);
	ASSERT_EQ(CLI(&o, "pidfd", "info", "--json", pidstr, "self"), 0);
	snprintf(obj, sizeof(obj), "%s", line_of(o.out, 0));
	ASSERT_EQ(obj[0], '{');
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
	snprintf(obj, sizeof(obj), "%s", line_of(o.out, 1));
	ASSERT_EQ(atoi(json_get(obj, "ppid")), getpid());
	ASSERT_EQ(atoi(json_get(obj, "euid")), (int)geteuid());
	if (geteuid() == 0)
		ASSERT_EQ(strcmp(json_get(obj, "euser"), "root"), 0);
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
	if (util_native(__LPFD_FEAT_INFO_EXIT)) {
		ASSERT_EQ(r, 0);
		ASSERT_EQ(strcmp(json_get(o.out, "exit"), "exited 7"), 0);
		ASSERT_EQ(atoi(json_get(o.out, "exitcode")), 7 << 8);
		ASSERT_EQ(strcmp(json_get(o.out, "pid"), "null"), 0);
	} else {
		ASSERT_EQ(r, 1);
		ASSERT_EQ(o.out[0], '\0');
		ASSERT_TRUE(strstr(o.err, "pidfd: cannot get information on fd:3: "
				   "no such process") != NULL);
	}
	close(in.fd);
}

/*
 * A child that dumps core (core_pattern "core") in a directory of its own,
 * on tmpfs in UML; its pidfd.
 */
static int crash_with_core(const char *dir)
{
	struct rlimit unlimited = { RLIM_INFINITY, RLIM_INFINITY };
	pid_t pid = fork();
	int fd;

	ASSERT_GE(pid, 0);
	if (pid == 0) {
		if (chdir(dir) || setrlimit(RLIMIT_CORE, &unlimited))
			_exit(92);
		prctl(PR_SET_DUMPABLE, 1);
		signal(SIGSEGV, SIG_DFL); /* not a sanitizer's handler */
		raise(SIGSEGV);
		_exit(93);
	}
	fd = libpidfd_open(pid, 0);
	ASSERT_GE(fd, 0);
	return fd;
}

TEST(info_ending_killed_with_core)
{
	char dir[] = "/tmp/libpidfd-core.XXXXXX", cmd[64];
	struct inherit in;
	struct cli_out o;
	siginfo_t si;
	int r;

	ASSERT_TRUE(mkdtemp(dir) != NULL);
	ASSERT_EQ(chmod(dir, 0777), 0);
	in.fd = crash_with_core(dir);
	ASSERT_EQ(waitid(P_PIDFD, (id_t)in.fd, &si, WEXITED), 0);
	ASSERT_EQ(si.si_code, CLD_DUMPED);
	r = cli_run_pre(&o, (char *[]){ "pidfd", "info", "-o", "EXIT,COREDUMP",
					"fd:3", NULL }, pass_fd3, &in);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	ASSERT_EQ(system(cmd), 0);
	if (util_native(__LPFD_FEAT_INFO_EXIT)) {
		ASSERT_EQ(r, 0);
		ASSERT_TRUE(strstr(line_of(o.out, 1),
				   "killed by SIGSEGV (core dumped)") != NULL);
		ASSERT_TRUE(strstr(line_of(o.out, 1), "dumped") != NULL);
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
	ASSERT_TRUE(strstr(o.err, "no such process") != NULL);
}
