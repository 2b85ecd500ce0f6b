/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * pidfd info never shows a recycled pid's /proc data. The tool runs under
 * a seccomp filter that stops it at every open; when it opens the
 * target's stat file (a process named), or its /proc/<pid> directory (a
 * process info --all listed), this test kills and reaps the target and
 * starts another process at the same pid, then lets the open go on. The
 * tool opens the newcomer's file, and must show none of it: the directory
 * it reads through is bound to the process it was asked about, and the
 * one it opens by number is checked through the pidfd.
 */
#include <libpidfd.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/uio.h>

#include "cli.h"
#include "util.h"

/* The pidfd the tool is asked about, by pid, and the newcomer at its pid. */
static struct cli_reuse ctx;
/* The opens (paths as the tool passes them) at which the reuse comes. */
static char reuse_at[2][64];

/* The path a stopped openat names, read from the tool's memory. */
static void path_of(const struct seccomp_notif *req, char *buf, size_t size)
{
	struct iovec local = { buf, size - 1 };
	struct iovec remote = { (void *)(uintptr_t)req->data.args[1], size - 1 };
	ssize_t n = process_vm_readv((pid_t)req->pid, &local, 1, &remote, 1, 0);

	buf[n > 0 ? n : 0] = '\0';
}

/* The reuse, at the first open that reuse_at names. */
static bool maybe_reuse(int stop, const struct seccomp_notif *req,
			struct seccomp_notif_resp *resp, void *arg)
{
	char path[64];

	(void)stop, (void)resp, (void)arg;
	if (req->data.nr != SYS_openat && req->data.nr != SYS_openat2)
		return false;
	path_of(req, path, sizeof(path));
	if (strcmp(path, reuse_at[0]) == 0 || strcmp(path, reuse_at[1]) == 0)
		cli_reuse_now(&ctx);
	return false;
}

static void name_old_owner(void *arg)
{
	(void)arg;
	prctl(PR_SET_NAME, (unsigned long)"old-owner", 0, 0, 0);
}

static void set_name(void)
{
	ctx.victim = util_spawn(name_old_owner, NULL, &ctx.victim_fd);
}

/* The tool under the trap, ended; the reuse made. */
static void run_trapped(struct cli_out *o, char **argv)
{
	struct cli_trap trap;
	pthread_t th;

	/* Every open stops (openat2 too: the library refuses mounts with it). */
	cli_trap_init(&trap, SYS_openat, SYS_openat2, maybe_reuse, NULL);
	ASSERT_EQ(pthread_create(&th, NULL, cli_trap_serve, &trap), 0);
	ASSERT_EQ(cli_run_pre(o, argv, cli_trap_pre, &trap), 0);
	pthread_join(th, NULL);
	ASSERT_TRUE(ctx.reused);
}

/* As pid 1 of a pid namespace with its own /proc, where pids can be chosen. */
static void reuse_under_the_tool(void)
{
	struct cli_out o;
	char pidstr[16], want[128];

	set_name();
	snprintf(pidstr, sizeof(pidstr), "%d", ctx.victim);
	/* Relative to /proc, or to the process's directory. */
	snprintf(reuse_at[0], sizeof(reuse_at[0]), "%d/stat", ctx.victim);
	snprintf(reuse_at[1], sizeof(reuse_at[1]), "stat");
	run_trapped(&o, (char *[]){ "pidfd", "info", "-j", "-o",
				    "PID,COMM,STATE,START,ARGS", pidstr, NULL });
	/* The pid the pidfd gave, and nothing that /proc said of the newcomer. */
	snprintf(want, sizeof(want), "{\"pid\":%s,\"comm\":null,\"state\":null,"
		 "\"start\":null,\"args\":null}\n", pidstr);
	if (strcmp(o.out, want) != 0)
		FAIL("want %s got %s", want, o.out);
	/* The newcomer is there, and the tool left it alone. */
	ASSERT_EQ(syscall(SYS_pidfd_send_signal, ctx.newcomer_fd, 0, NULL, 0), 0);
	util_kill_reap_keep_fd(ctx.newcomer_fd);
}

TEST_TIMEOUT(info_never_shows_a_recycled_pids_proc_data, 60)
{
	util_in_pidns(reuse_under_the_tool, true);
}

/*
 * info --all opens each listed process's directory by its number: the
 * reuse comes at that open. The victim, once reaped, may show with what
 * its pidfd still tells (natively, its exit), never with the newcomer's
 * ids (uid 2222) or command name.
 */
static void reuse_under_info_all(void)
{
	struct cli_out o;
	char victim[32], line[256] = "";
	const char *at;

	set_name();
	snprintf(reuse_at[0], sizeof(reuse_at[0]), "%d", ctx.victim);
	snprintf(reuse_at[1], sizeof(reuse_at[1]), "%d/", ctx.victim);
	run_trapped(&o, (char *[]){ "pidfd", "info", "--all", "-j", "-o",
				    "PID,EUID,COMM", NULL });
	ASSERT_TRUE(strstr(o.out, "\"euid\":2222") == NULL);
	snprintf(victim, sizeof(victim), "{\"pid\":%d,", ctx.victim);
	at = strstr(o.out, victim);
	if (at)
		sscanf(at, "%255[^\n]", line);
	if (at && !strstr(line, "\"comm\":null}") &&
	    !strstr(line, "\"comm\":\"old-owner\"}"))
		FAIL("the newcomer's name shown for the victim: %s", line);
	ASSERT_EQ(syscall(SYS_pidfd_send_signal, ctx.newcomer_fd, 0, NULL, 0), 0);
	util_kill_reap_keep_fd(ctx.newcomer_fd);
}

TEST_TIMEOUT(info_all_never_shows_a_recycled_pids_proc_data, 60)
{
	util_in_pidns(reuse_under_info_all, true);
}
