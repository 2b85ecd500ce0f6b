/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * pidfd info never shows a recycled pid's /proc data. The tool runs under
 * a seccomp filter that stops it at every open; when it opens the
 * target's /proc/<pid>/stat, this test kills and reaps the target and
 * starts another process at the same pid, then lets the open go on. The
 * tool reads the newcomer's file, and must show none of it: its check
 * through the pidfd finds the process it was asked about reaped.
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

/* The path a stopped openat names, read from the tool's memory. */
static void path_of(const struct seccomp_notif *req, char *buf, size_t size)
{
	struct iovec local = { buf, size - 1 };
	struct iovec remote = { (void *)(uintptr_t)req->data.args[1], size - 1 };
	ssize_t n = process_vm_readv((pid_t)req->pid, &local, 1, &remote, 1, 0);

	buf[n > 0 ? n : 0] = '\0';
}

/* The reuse, at the open of the victim's stat file. */
static bool maybe_reuse(int stop, const struct seccomp_notif *req,
			struct seccomp_notif_resp *resp, void *arg)
{
	char path[64], want[64];

	(void)stop, (void)resp, (void)arg;
	if (req->data.nr != SYS_openat && req->data.nr != SYS_openat2)
		return false;
	snprintf(want, sizeof(want), "%d/stat", ctx.victim); /* relative to /proc */
	path_of(req, path, sizeof(path));
	if (strcmp(path, want) == 0)
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

/* As pid 1 of a pid namespace with its own /proc, where pids can be chosen. */
static void reuse_under_the_tool(void)
{
	struct cli_trap trap;
	struct cli_out o;
	char pidstr[16], want[128];
	pthread_t th;

	/* Every open stops (openat2 too: the library refuses mounts with it). */
	cli_trap_init(&trap, SYS_openat, SYS_openat2, maybe_reuse, NULL);
	set_name();
	snprintf(pidstr, sizeof(pidstr), "%d", ctx.victim);
	ASSERT_EQ(pthread_create(&th, NULL, cli_trap_serve, &trap), 0);
	ASSERT_EQ(cli_run_pre(&o, (char *[]){ "pidfd", "info", "-j", "-o",
					      "PID,COMM,STATE,START,ARGS", pidstr,
					      NULL }, cli_trap_pre, &trap), 0);
	pthread_join(th, NULL);
	ASSERT_TRUE(ctx.reused);
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
