/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * pidfd wait with waitpid(1)'s options (--count, --exited), its own
 * --exit-status, and the status of someone else's zombie, read from its
 * /proc stat through the pidfd where the kernel shows it to the reader.
 */
#include <grp.h>
#include <linux/capability.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#include <libpidfd.h>

#include "cli.h"
#include "util.h"

#define NOBODY 65534

/*
 * In the tool's process: root still, without CAP_SYS_PTRACE (gone from
 * the bounding set, so the exec does not give it back): the kernel then
 * shows it a zombie's exit_code only where its ids are all root's. (Not
 * nobody: the tool's path need not be searchable by nobody.)
 */
static void without_ptrace_cap(char **argv, void *arg)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];
	unsigned int bit = 1u << (CAP_SYS_PTRACE % 32), i = CAP_SYS_PTRACE / 32;

	(void)argv;
	(void)arg;
	if (prctl(PR_CAPBSET_DROP, CAP_SYS_PTRACE, 0, 0, 0) < 0 ||
	    syscall(SYS_capget, &h, d) < 0)
		_exit(95);
	d[i].effective &= ~bit;
	d[i].permitted &= ~bit;
	d[i].inheritable &= ~bit;
	if (syscall(SYS_capset, &h, d) < 0)
		_exit(95);
}

/* A zombie of nobody's: a helper's child, both of them nobody's. */
static void nobodys_zombie(void *arg)
{
	int *out = arg;
	pid_t z;

	if (setgroups(0, NULL) < 0 || setresgid(NOBODY, NOBODY, NOBODY) < 0 ||
	    setresuid(NOBODY, NOBODY, NOBODY) < 0)
		_exit(95);
	z = fork();
	if (z == 0)
		_exit(9);
	if (z < 0 || write(*out, &z, sizeof(z)) != sizeof(z))
		_exit(94);
}

static void zombie_text(int code, int *fd, char pid[16])
{
	snprintf(pid, 16, "%d", util_zombie(code, fd));
}

/* Two zombies that exited with codes a and b, and one killed by SIGTERM. */
struct zombies {
	char a[16], b[16], k[16];
	int fa, fb, fk;
};

static void zombies_make(struct zombies *z, int a, int b)
{
	zombie_text(a, &z->fa, z->a);
	zombie_text(b, &z->fb, z->b);
	util_spawn_text(NULL, NULL, &z->fk, z->k);
	ASSERT_EQ(libpidfd_send_signal(z->fk, SIGTERM, NULL, 0), 0);
	util_wait_exit(z->fk);
}

static void zombies_reap(struct zombies *z)
{
	util_kill_reap(z->fa);
	util_kill_reap(z->fb);
	util_kill_reap(z->fk);
}

TEST(zombie_status_from_its_proc_stat)
{
	struct cli_out o;
	struct zombies z;

	zombies_make(&z, 9, 0);
	ASSERT_EQ(CLI(&o, "pidfd", "wait", "-j", z.a, z.b, z.k), 0);
	ASSERT_EQ(o.err[0], '\0');
	ASSERT_EQ(strcmp(json_get(line_of(o.out, 0), "exit"), "exited 9"), 0);
	ASSERT_EQ(strcmp(json_get(line_of(o.out, 0), "source"), "proc_stat"), 0);
	/* 0 too: as root the kernel shows the real exit_code. */
	ASSERT_EQ(strcmp(json_get(line_of(o.out, 1), "exit"), "exited 0"), 0);
	ASSERT_EQ(strcmp(json_get(line_of(o.out, 2), "exit"),
			 "killed by SIGTERM"), 0);
	ASSERT_EQ(strcmp(json_get(line_of(o.out, 2), "core_dumped"), "false"), 0);
	zombies_reap(&z);
}

/*
 * Another user's zombie (nobody's, which exited 9): the kernel shows a
 * reader without CAP_SYS_PTRACE 0 for its exit_code, which is no status.
 * The tool waits for the reap a while, then says unknown, never
 * "exited 0", and whether it dumped core is as unknown as the rest.
 */
TEST(zombie_of_another_user_status_unknown)
{
	struct cli_out o;
	char z[16];
	int p[2], helper, zfd;
	pid_t pid;

	REQUIRE_PRIVILEGE("makes a zombie of nobody's");
	ASSERT_EQ(pipe2(p, O_CLOEXEC), 0);
	util_spawn(nobodys_zombie, &p[1], &helper);
	ASSERT_EQ(read(p[0], &pid, sizeof(pid)), (ssize_t)sizeof(pid));
	/* The helper is alive: its child stays a zombie, its pid its own. */
	zfd = libpidfd_open(pid, 0);
	ASSERT_GE(zfd, 0);
	util_wait_exit(zfd);
	snprintf(z, sizeof(z), "%d", pid);
	ASSERT_EQ(cli_run_pre(&o, (char *[]){ "pidfd", "wait", "-J", z, NULL },
			      without_ptrace_cap, NULL), 0);
	ASSERT_TRUE(json_valid(o.out));
	if (strcmp(json_get(o.out, "exitcode"), "null") != 0)
		FAIL("nobody's zombie, seen without CAP_SYS_PTRACE: %s", o.out);
	ASSERT_EQ(atoi(json_get(o.out, "pid")), pid);
	ASSERT_EQ(strcmp(json_get(o.out, "source"), "null"), 0);
	ASSERT_EQ(strcmp(json_get(o.out, "core_dumped"), "null"), 0);
	/* With the capability, the kernel shows it. */
	ASSERT_EQ(CLI(&o, "pidfd", "wait", "-j", z), 0);
	ASSERT_EQ(strcmp(json_get(o.out, "exit"), "exited 9"), 0);
	close(zfd);
	util_kill_reap(helper);
}

/* The same user's zombie, without the capability: its 0 is believed. */
TEST(zombie_of_the_same_user_exit_0_is_known)
{
	struct cli_out o;
	char z[16];
	int fd;

	REQUIRE_PRIVILEGE("drops CAP_SYS_PTRACE from the bounding set");
	zombie_text(0, &fd, z);
	ASSERT_EQ(cli_run_pre(&o, (char *[]){ "pidfd", "wait", "-j", z, NULL },
			      without_ptrace_cap, NULL), 0);
	if (strcmp(json_get(o.out, "exit"), "exited 0") != 0)
		FAIL("root's zombie, seen without CAP_SYS_PTRACE: %s", o.out);
	ASSERT_EQ(strcmp(json_get(o.out, "source"), "proc_stat"), 0);
	util_kill_reap(fd);
}

TEST(count_stops_after_that_many_ends)
{
	struct cli_out o;
	char live[16], z1[16], z2[16];
	int fl, f1, f2;

	util_spawn_text(NULL, NULL, &fl, live);
	zombie_text(1, &f1, z1);
	zombie_text(2, &f2, z2);
	ASSERT_EQ(CLI(&o, "pidfd", "wait", "--count", "2", live, z1, z2), 0);
	ASSERT_TRUE(strstr(o.out, z1) && strstr(o.out, z2));
	ASSERT_TRUE(strstr(o.out, live) == NULL);
	ASSERT_EQ(strcmp(line_of(o.out, 2), ""), 0);
	ASSERT_EQ(CLI(&o, "pidfd", "wait", "-J", "-c", "1", live, z2), 0);
	ASSERT_TRUE(json_valid(o.out));
	ASSERT_TRUE(strstr(o.out, z2) != NULL);
	/* Still alive: no more than the count was waited for. */
	ASSERT_EQ(libpidfd_send_signal(fl, 0, NULL, 0), 0);
	/* As waitpid(1): more than there are, or with --exited, is wrong. */
	CLI_FAILS(&o, "cannot wait for 3 of 2", "pidfd", "wait", "-c", "3",
		  z1, z2);
	ASSERT_EQ(CLI(&o, "pidfd", "wait", "-c", "0", z1), 1);
	CLI_FAILS(&o, "mutually exclusive", "pidfd", "wait", "-c", "1", "-e",
		  z1);
	util_kill_reap(fl);
	util_kill_reap(f1);
	util_kill_reap(f2);
}

TEST(exited_takes_a_gone_process_as_ended)
{
	struct cli_out o;
	char gone[16], z[16];
	int fg, fz;

	zombie_text(0, &fg, gone);
	util_kill_reap(fg);
	zombie_text(4, &fz, z);
	ASSERT_EQ(CLI(&o, "pidfd", "wait", "--exited", gone, z), 0);
	ASSERT_EQ(o.err[0], '\0');
	ASSERT_TRUE(strstr(o.out, z) == o.out);
	ASSERT_EQ(CLI(&o, "pidfd", "wait", "-e", gone), 0);
	ASSERT_EQ(o.out[0], '\0');
	/* Without it, an error, as before. */
	ASSERT_EQ(CLI(&o, "pidfd", "wait", gone, z), 1);
	util_kill_reap(fz);
}

TEST(exit_status_is_the_last_processs_own)
{
	struct cli_out o;
	struct zombies z;

	zombies_make(&z, 9, 3);
	ASSERT_EQ(CLI(&o, "pidfd", "wait", "--exit-status", z.a), 9);
	ASSERT_EQ(CLI(&o, "pidfd", "wait", z.a), 0);
	ASSERT_EQ(CLI(&o, "pidfd", "wait", "--exit-status", z.k), 128 + SIGTERM);
	/* Ended together: reported in the order named, the last one's. */
	ASSERT_EQ(CLI(&o, "pidfd", "wait", "--exit-status", z.a, z.b), 3);
	ASSERT_EQ(CLI(&o, "pidfd", "wait", "--exit-status", z.b, z.a), 9);
	/* The tool's own failure first: a process that cannot be opened. */
	ASSERT_EQ(CLI(&o, "pidfd", "wait", "--exit-status", z.a, "2147483647"), 1);
	zombies_reap(&z);
}
