/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * pgrep's selection options in pidfd info, wait and kill, each compared
 * with procps's pgrep on the same processes: the test runs as pid 1 of a
 * pid namespace with a /proc of its own, starts processes that differ in
 * parent, ids, process group, session, terminal, state and namespaces,
 * and asks both tools the same question.
 *
 * Then the pidfile: a pid reused between the daemon's write and the kill
 * (clone3's set_tid puts a newcomer at the daemon's pid), before the tool
 * runs and while it runs (stopped at its pidfd_open), signals nobody.
 */
#include <libpidfd.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "cli.h"
#include "util.h"

/* procps's pgrep (Debian's procps package), run as the tool is. */
#define PGREP "/usr/bin/pgrep"

/* The numbers of a text, sorted, as "1 5 7". */
static const char *numbers(const char *text, char *buf, size_t size)
{
	long v[512];
	size_t n = 0, o = 0;

	for (const char *p = text; *p && n < 512;) {
		char *end;

		if (*p < '0' || *p > '9') {
			p++;
			continue;
		}
		v[n++] = strtol(p, &end, 10);
		p = end;
	}
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && v[j - 1] > v[j]; j--) {
			long t = v[j];

			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	buf[0] = '\0';
	for (size_t i = 0; i < n; i++)
		o += (size_t)snprintf(buf + o, size - o, "%s%ld", i ? " " : "", v[i]);
	return buf;
}

#define MAX_ARGS 8

/*
 * "pidfd info -n -o PID ARGS" and "pgrep PGREP_ARGS": the same processes,
 * the same exit status (0 some, 1 none).
 */
static void same_as_pgrep(const char *const ours[MAX_ARGS],
			  const char *const theirs[MAX_ARGS])
{
	char *a[MAX_ARGS + 6] = { "pidfd", "info", "-n", "-o", "PID" };
	char *b[MAX_ARGS + 2] = { PGREP };
	char got[4096], want[4096];
	struct cli_out o, p;
	int ro, rp;

	for (int i = 0; i < MAX_ARGS && ours[i]; i++)
		a[5 + i] = (char *)ours[i];
	for (int i = 0; i < MAX_ARGS && theirs[i]; i++)
		b[1 + i] = (char *)theirs[i];
	ro = cli_run(&o, a);
	rp = cli_run(&p, b);
	if (rp == 127)
		FAIL("pgrep (procps) is not installed: %s", p.err);
	numbers(o.out, got, sizeof(got));
	numbers(p.out, want, sizeof(want));
	if (ro != rp || strcmp(got, want) != 0)
		FAIL("pidfd info %s %s %s...: %d '%s' (%s); pgrep %s %s %s...: %d '%s'",
		     a[5], a[6] ? a[6] : "", a[6] && a[7] ? a[7] : "", ro, got,
		     o.err, b[1], b[2] ? b[2] : "", b[2] && b[3] ? b[3] : "", rp,
		     want);
}

/* Both tools given the same options. */
#define SAME(...)                                                             \
	same_as_pgrep((const char *const[MAX_ARGS]){ __VA_ARGS__ },           \
		      (const char *const[MAX_ARGS]){ __VA_ARGS__ })
/* Ours spelt one way, pgrep's another (a short option one of ours lacks). */
#define LIKE(ours, theirs) same_as_pgrep(ours, theirs)
#define ARGS(...) ((const char *const[MAX_ARGS]){ __VA_ARGS__ })

static void set_name(const char *name)
{
	cli_default_signals();
	prctl(PR_SET_NAME, (unsigned long)name, 0, 0, 0);
}

static void alpha(void *arg)
{
	(void)arg;
	set_name("sel-alpha");
	/* A grandchild of the test, for --parent. */
	if (fork() == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		prctl(PR_SET_NAME, (unsigned long)"sel-grand", 0, 0, 0);
		for (;;)
			pause();
	}
}

static void beta(void *arg)
{
	(void)arg;
	set_name("SEL-Beta");
	setpgid(0, 0);
}

/* A session of its own, with the terminal arg as its controlling one. */
static void gamma_(void *arg)
{
	set_name("sel-gamma");
	if (setsid() < 0 || open(arg, O_RDWR) < 0)
		_exit(95);
}

/* Real ids 4242 and 4343, effective ones still 0. */
static void delta(void *arg)
{
	(void)arg;
	set_name("sel-delta");
	if (setresgid(4343, 0, 0) < 0 || setresuid(4242, 0, 0) < 0)
		_exit(96);
}

static void epsilon(void *arg)
{
	(void)arg;
	set_name("sel-epsilon");
}

/* A UTS namespace of its own. */
static void eta(void *arg)
{
	(void)arg;
	set_name("sel-eta");
	if (unshare(CLONE_NEWUTS) < 0)
		_exit(97);
}

struct family {
	char a[16], b[16], c[16], e[16], h[16], tty[32];
	int fd[7], master;
};

/*
 * A pseudo-terminal, "pts/N". Where /dev has none (a UML guest, whose /dev
 * is the host's directory under it), this mount namespace gets a /dev of
 * its own with a devpts in it, so that both tools find the terminal as
 * they would on any system.
 */
static void open_terminal(struct family *f, char *slave, size_t size)
{
	int n;

	f->master = posix_openpt(O_RDWR | O_NOCTTY);
	if (f->master < 0 && errno == ENOENT) {
		ASSERT_EQ(mount("tmpfs", "/dev", "tmpfs", 0, "mode=0755"), 0);
		ASSERT_EQ(mknod("/dev/null", S_IFCHR | 0666, makedev(1, 3)), 0);
		ASSERT_EQ(mkdir("/dev/pts", 0755), 0);
		ASSERT_EQ(mount("devpts", "/dev/pts", "devpts", 0,
				"newinstance,ptmxmode=0666"), 0);
		ASSERT_EQ(symlink("pts/ptmx", "/dev/ptmx"), 0);
		f->master = posix_openpt(O_RDWR | O_NOCTTY);
	}
	ASSERT_GE(f->master, 0);
	ASSERT_EQ(unlockpt(f->master), 0);
	ASSERT_EQ(ioctl(f->master, TIOCGPTN, &n), 0);
	snprintf(f->tty, sizeof(f->tty), "pts/%d", n);
	snprintf(slave, size, "/dev/pts/%d", n);
}

static void start_family(struct family *f)
{
	char pid[16];
	char slave[32];
	siginfo_t si;

	open_terminal(f, slave, sizeof(slave));
	util_spawn_text(alpha, NULL, &f->fd[0], f->a);
	util_spawn_text(beta, NULL, &f->fd[1], f->b);
	util_spawn_text(gamma_, (void *)slave, &f->fd[2], f->c);
	util_spawn_text(delta, NULL, &f->fd[3], pid);
	util_spawn_text(epsilon, NULL, &f->fd[4], f->e);
	util_spawn_text(eta, NULL, &f->fd[5], f->h);
	util_zombie(0, &f->fd[6]);
	/* epsilon stopped, and known to be before anyone asks. */
	ASSERT_EQ(libpidfd_send_signal(f->fd[4], SIGSTOP, NULL, 0), 0);
	ASSERT_EQ(waitid(P_PIDFD, (id_t)f->fd[4], &si, WSTOPPED), 0);
}

static void end_family(struct family *f)
{
	for (int i = 0; i < 7; i++)
		util_kill_reap(f->fd[i]);
	close(f->master);
}

static void selections(void)
{
	struct family f;
	char cgroup[512] = "", *buf = util_read_text("/proc/self/cgroup"), *p;

	start_family(&f);
	p = strstr(buf, "0::");
	ASSERT_TRUE(p != NULL);
	sscanf(p + 3, "%511[^\n]", cgroup);
	free(buf);

	SAME("-P", f.a);
	SAME("-P", "1");
	SAME("-P", "1", "-v");
	LIKE(ARGS("-N", "sel-beta"), ARGS("sel-beta"));
	LIKE(ARGS("-i", "-x", "-N", "sel-BETA"), ARGS("-i", "-x", "sel-BETA"));
	SAME("-U", "4242");
	SAME("-U", "0");
	SAME("-G", "4343");
	/* --user is the effective uid, as pgrep -u: delta's is 0. */
	LIKE(ARGS("--user", "0", "-A"), ARGS("-u", "0", "-A"));
	SAME("-g", f.b);
	SAME("-g", "0");
	LIKE(ARGS("--session", f.c), ARGS("-s", f.c));
	LIKE(ARGS("--session", "0"), ARGS("-s", "0"));
	LIKE(ARGS("--terminal", f.tty), ARGS("-t", f.tty));
	LIKE(ARGS("--runstates", "T"), ARGS("-r", "T"));
	LIKE(ARGS("--runstates", "Z,T"), ARGS("-r", "Z,T"));
	/* The test itself (pid 1, their ancestor) runs while it reads them. */
	LIKE(ARGS("--runstates", "S", "-A"), ARGS("-r", "S", "-A"));
	LIKE(ARGS("-v", "-N", "^sel-"), ARGS("-v", "^sel-"));
	LIKE(ARGS("-A", "-v", "-N", "^sel-"), ARGS("-A", "-v", "^sel-"));
	LIKE(ARGS("--newest", "-N", "^sel-"), ARGS("-n", "^sel-"));
	LIKE(ARGS("--oldest", "-N", "^sel-"), ARGS("-o", "^sel-"));
	LIKE(ARGS("--newest", "-P", "1"), ARGS("-n", "-P", "1"));
	SAME("--cgroup", cgroup);
	SAME("--cgroup", "/no/such/cgroup");
	SAME("--ns", f.h, "--nslist", "uts");
	SAME("--ns", "1", "--nslist", "uts");
	SAME("--ns", "1", "--nslist", "net,ipc");
	/*
	 * Every namespace by default, as pgrep(1) says; procps 4.0.2's
	 * pgrep compares none unless --nslist names them (its six).
	 */
	LIKE(ARGS("--ns", f.h), ARGS("--ns", f.h, "--nslist",
				      "ipc,mnt,net,pid,user,uts"));
	/* Criteria together narrow the selection. */
	LIKE(ARGS("-P", "1", "--runstates", "S", "-N", "a"),
	     ARGS("-P", "1", "-r", "S", "a"));
	end_family(&f);
}

TEST_TIMEOUT(info_selects_as_pgrep, 60)
{
	util_in_pidns(selections, true);
}

/* --count, as pgrep -c: the number, 1 if it is 0. */
static void counts(void)
{
	struct cli_out o, p;
	struct family f;

	start_family(&f);
	ASSERT_EQ(CLI(&o, "pidfd", "info", "--count", "-N", "^sel-"), 0);
	ASSERT_EQ(cli_run(&p, (char *[]){ PGREP, "-c", "^sel-", NULL }), 0);
	ASSERT_EQ(strcmp(o.out, p.out), 0);
	ASSERT_EQ(CLI(&o, "pidfd", "info", "--count", "-J", "-N", "nothing"), 1);
	ASSERT_EQ(cli_run(&p, (char *[]){ PGREP, "-c", "nothing", NULL }), 1);
	ASSERT_EQ(strcmp(o.out, p.out), 0);
	ASSERT_EQ(strcmp(o.out, "0\n"), 0);
	/* kill --count: signals them, and says how many, as pkill -c. */
	ASSERT_EQ(CLI(&o, "pidfd", "kill", "-s", "0", "--count", "-P", "1",
		      "--runstates", "T"), 0);
	ASSERT_EQ(strcmp(o.out, "1\n"), 0);
	end_family(&f);
}

TEST(count_as_pgrep)
{
	util_in_pidns(counts, true);
}

/* kill and wait take the same options: each acts on pgrep's answer. */
static void kill_and_wait(void)
{
	struct family f;
	struct cli_out o;
	char err[128];

	start_family(&f);
	/* wait: the newest of the children, still running at the timeout. */
	ASSERT_EQ(CLI(&o, "pidfd", "wait", "-t", "0", "--newest", "-N",
		      "^sel-[a-d]|epsilon"), 3);
	snprintf(err, sizeof(err), "pidfd: wait: timed out; still running: %s\n",
		 f.e);
	if (strcmp(o.err, err))
		FAIL("%s", o.err);
	/* kill: the one other UTS namespace's process, nobody else. */
	ASSERT_EQ(CLI(&o, "pidfd", "kill", "-s", "KILL", "--ns", f.h,
		      "--nslist", "uts"), 0);
	ASSERT_EQ(cli_killed_by(f.fd[5]), SIGKILL);
	close(f.fd[5]);
	ASSERT_EQ(util_spawn(eta, NULL, &f.fd[5]) > 0, 1);
	for (int i = 0; i < 5; i++)
		ASSERT_TRUE(cli_alive(f.fd[i]));
	/* The session's leader, by --session, as pkill -s. */
	ASSERT_EQ(CLI(&o, "pidfd", "kill", "-s", "KILL", "--session", f.c), 0);
	if (o.err[0])
		FAIL("%s", o.err);
	ASSERT_EQ(cli_killed_by(f.fd[2]), SIGKILL);
	close(f.fd[2]);
	ASSERT_EQ(util_spawn(epsilon, NULL, &f.fd[2]) > 0, 1);
	ASSERT_TRUE(cli_alive(f.fd[1]));
	end_family(&f);
}

TEST_TIMEOUT(kill_and_wait_select_as_pgrep, 60)
{
	util_in_pidns(kill_and_wait, true);
}

TEST(selection_warnings_and_usage_errors)
{
	struct cli_out o, p;

	/* As pgrep: a plain name over 15 bytes can match no command name. */
	ASSERT_EQ(CLI(&o, "pidfd", "info", "-x", "-N", "a-name-of-sixteen"), 1);
	if (!strstr(o.err, "pidfd: info: a name longer than 15 bytes matches "
		    "no command name"))
		FAIL("%s", o.err);
	ASSERT_EQ(cli_run(&p, (char *[]){ PGREP, "-x", "a-name-of-sixteen",
					   NULL }), 1);
	ASSERT_TRUE(strstr(p.err, "15") != NULL);
	/* An expression may match shorter names: no warning. */
	ASSERT_EQ(CLI(&o, "pidfd", "info", "-x", "-N", "nothing|nothing-at-all"), 1);
	ASSERT_EQ(strcmp(o.err, ""), 0);
	CLI_FAILS(&o, "--newest and --oldest: choose one", "pidfd", "info",
		  "--newest", "--oldest");
	CLI_FAILS(&o, "--logpidfile needs --pidfile", "pidfd", "kill",
		  "--logpidfile", "1");
	CLI_FAILS(&o, "--nslist needs --ns", "pidfd", "wait", "--nslist",
		  "net");
	CLI_FAILS(&o, "unknown namespace: 'nets'", "pidfd", "info", "--ns",
		  "1", "--nslist", "nets");
	CLI_FAILS(&o, "pidfd: info: unknown user: 'no-such-user-here'",
		  "pidfd", "info", "-U", "no-such-user-here");
	CLI_FAILS(&o, "unknown terminal: 'pts/999999'", "pidfd", "info",
		  "--terminal", "pts/999999");
	CLI_FAILS(&o, "--ignore-case needs --name", "pidfd", "info", "-i",
		  "self");
}

/* ------------------------------------------------------------------------
 * The pidfile.
 */
static char pidfile[64];

/* A file name of our own, for the daemon to write. */
static void pidfile_name(void)
{
	int fd;

	snprintf(pidfile, sizeof(pidfile), "/tmp/pidfd-test-XXXXXX");
	fd = mkstemp(pidfile);
	ASSERT_GE(fd, 0);
	close(fd);
}

/*
 * A daemon: writes its pid to the pidfile and holds it locked, by fcntl
 * (a lock that names its holder), or with arg by flock (one that does not).
 */
static void daemon_main(void *arg)
{
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
	char text[16];
	int fd = open(pidfile, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	int n = snprintf(text, sizeof(text), "%d\n", (int)getpid());

	set_name("sel-daemon");
	if (fd < 0 || write(fd, text, (size_t)n) != n ||
	    (arg ? flock(fd, LOCK_EX) : fcntl(fd, F_SETLK, &fl)) < 0)
		_exit(94);
}

static void pidfile_reuse(bool by_flock)
{
	struct util_gen gen;
	struct cli_out o, p;
	char pid[16], err[256];
	int fd, newcomer;

	pidfile_name();
	util_spawn_text(daemon_main, by_flock ? "" : NULL, &fd, pid);
	/* The daemon alive, holding its lock: both tools find it. */
	SAME("-F", pidfile);
	LIKE(ARGS("-F", pidfile, "--logpidfile"), ARGS("-F", pidfile, "-L"));
	ASSERT_EQ(CLI(&o, "pidfd", "kill", "-s", "0", "--pidfile", pidfile,
		      "--logpidfile"), 0);
	/* Gone, its lock with it, and a newcomer at its pid (uid 2222). */
	util_kill_reap_keep_fd(fd);
	close(fd);
	ASSERT_EQ(util_spawn_gen(&gen, 2222, (pid_t)atoi(pid), &newcomer),
		  (pid_t)atoi(pid));
	LIKE(ARGS("-F", pidfile, "--logpidfile"), ARGS("-F", pidfile, "-L"));
	ASSERT_EQ(CLI(&o, "pidfd", "kill", "-s", "KILL", "-F", pidfile,
		      "--logpidfile"), 1);
	snprintf(err, sizeof(err), "pidfd: kill: pidfile %s: not locked by the "
		 "process it names\n", pidfile);
	if (strcmp(o.err, err))
		FAIL("%s", o.err);
	ASSERT_TRUE(cli_alive(newcomer));
	ASSERT_EQ(cli_run(&p, (char *[]){ PGREP, "-L", "-F", pidfile, NULL }), 1);
	/* Without --logpidfile a stale file names the newcomer, as for pgrep. */
	SAME("-F", pidfile);
	util_kill_reap(newcomer);
	unlink(pidfile);
	ASSERT_EQ(CLI(&o, "pidfd", "kill", "-F", pidfile), 1);
	snprintf(err, sizeof(err), "pidfd: kill: pidfile %s: No such file or "
		 "directory\n", pidfile);
	if (strcmp(o.err, err))
		FAIL("%s", o.err);
}

static void pidfile_checks(void)
{
	pidfile_reuse(false);
	pidfile_reuse(true);
}

TEST_TIMEOUT(pidfile_reused_before_the_kill_signals_nobody, 60)
{
	util_in_pidns(pidfile_checks, true);
}

/*
 * The reuse while the tool runs: it has read the pidfile and stops at its
 * pidfd_open; the daemon is killed and reaped, and a newcomer started at
 * its pid; then the open goes on, and opens the newcomer. With
 * --logpidfile the lock is gone with the daemon; without, the daemon's
 * pidfile went with it (the file is removed, as a daemon does at exit).
 */
static struct cli_reuse ctx;

static bool reuse_at_open(int stop, const struct seccomp_notif *req,
			  struct seccomp_notif_resp *resp, void *arg)
{
	(void)stop, (void)resp;
	if ((pid_t)req->data.args[0] == ctx.victim) {
		if (arg)
			unlink(pidfile);
		cli_reuse_now(&ctx);
	}
	return false;
}

static void kill_under_reuse(bool remove_file)
{
	struct cli_trap trap;
	struct cli_out o;
	pthread_t th;
	char *argv[] = { "pidfd", "kill", "-s", "KILL", "-F", pidfile,
			 remove_file ? NULL : "--logpidfile", NULL };

	ctx = (struct cli_reuse){ .reused = false };
	ctx.victim = util_spawn(daemon_main, NULL, &ctx.victim_fd);
	cli_trap_init(&trap, SYS_pidfd_open, SYS_pidfd_open, reuse_at_open,
		      remove_file ? &ctx : NULL);
	ASSERT_EQ(pthread_create(&th, NULL, cli_trap_serve, &trap), 0);
	ASSERT_EQ(cli_run_pre(&o, argv, cli_trap_pre, &trap), 1);
	pthread_join(th, NULL);
	ASSERT_TRUE(ctx.reused);
	if (!strstr(o.err, remove_file ? "changed while read" :
					  "not locked by the process it names"))
		FAIL("%s", o.err);
	/* The newcomer was never signalled. */
	ASSERT_TRUE(cli_alive(ctx.newcomer_fd));
	util_kill_reap(ctx.newcomer_fd);
	close(ctx.victim_fd);
	unlink(pidfile);
}

static void pidfile_races(void)
{
	pidfile_name();
	kill_under_reuse(false);
	kill_under_reuse(true);
}

TEST_TIMEOUT(pidfile_reused_during_the_kill_signals_nobody, 60)
{
	util_in_pidns(pidfile_races, true);
}
