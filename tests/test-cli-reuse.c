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

struct reuse_ctx {
	int req[2], ack[2]; /* the tool's listener handed over, and taken */
	int victim_fd;      /* the pidfd the tool is asked about, by pid */
	pid_t victim;
	struct util_gen gen; /* the newcomer at the victim's pid */
	int newcomer_fd;
	bool reused;
	char at[2][64]; /* the opens (relative paths) that trigger the reuse */
};

static struct reuse_ctx ctx;

struct handover {
	pid_t pid;
	int listener;
};

/*
 * In the tool's process before exec: every open stops for the test
 * (openat, and openat2, with which the library refuses mounts inside
 * /proc).
 */
static void trap_opens(char **argv, void *arg)
{
	struct handover h = { getpid(), -1 };
	char c;

	(void)argv;
	(void)arg;
	h.listener = util_notif_filter2(SYS_openat, SYS_openat2);
	/* The listener is close-on-exec: the test takes it before the exec. */
	if (h.listener < 0 || write(ctx.req[1], &h, sizeof(h)) != sizeof(h) ||
	    read(ctx.ack[0], &c, 1) != 1)
		_exit(91);
}

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
	char path[64];

	(void)stop, (void)resp, (void)arg;
	if (req->data.nr != SYS_openat && req->data.nr != SYS_openat2)
		return false;
	path_of(req, path, sizeof(path));
	if (ctx.reused || (strcmp(path, ctx.at[0]) != 0 &&
			   strcmp(path, ctx.at[1]) != 0))
		return false;
	util_kill_reap_keep_fd(ctx.victim_fd);
	ASSERT_EQ(util_spawn_gen(&ctx.gen, 2222, ctx.victim, &ctx.newcomer_fd),
		  ctx.victim);
	ctx.reused = true;
	return false;
}

static void *supervise(void *arg)
{
	struct handover h;
	int tool, listener;

	(void)arg;
	ASSERT_EQ(read(ctx.req[0], &h, sizeof(h)), sizeof(h));
	tool = libpidfd_open(h.pid, 0);
	ASSERT_GE(tool, 0);
	listener = (int)syscall(SYS_pidfd_getfd, tool, h.listener, 0);
	ASSERT_GE(listener, 0);
	close(tool);
	ASSERT_EQ(write(ctx.ack[1], "", 1), 1);
	util_notif_serve(&listener, maybe_reuse, NULL); /* until the tool is gone */
	return NULL;
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
	pthread_t th;

	ASSERT_EQ(pipe2(ctx.req, O_CLOEXEC), 0);
	ASSERT_EQ(pipe2(ctx.ack, O_CLOEXEC), 0);
	ASSERT_EQ(pthread_create(&th, NULL, supervise, NULL), 0);
	ASSERT_EQ(cli_run_pre(o, argv, trap_opens, NULL), 0);
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
	snprintf(ctx.at[0], sizeof(ctx.at[0]), "%d/stat", ctx.victim);
	snprintf(ctx.at[1], sizeof(ctx.at[1]), "stat");
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
	snprintf(ctx.at[0], sizeof(ctx.at[0]), "%d", ctx.victim);
	snprintf(ctx.at[1], sizeof(ctx.at[1]), "%d/", ctx.victim);
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
