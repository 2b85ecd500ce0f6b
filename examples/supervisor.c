/* SPDX-License-Identifier: MIT */
/*
 * supervisor: start several commands, wait for all of them through pidfds
 * and report how each one ended.
 *
 *   supervisor 'COMMAND' ['COMMAND'...]    (each run by /bin/sh -c)
 *   supervisor                              (a demonstration set)
 *
 * A pidfd names one process for good: unlike a pid it cannot be recycled
 * while we hold it, and it polls readable when the process exits, so one
 * poll() waits for any number of children without SIGCHLD handlers.
 *
 * Build: cc supervisor.c $(pkg-config --cflags --libs libpidfd)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <libpidfd.h>

static const char *demo[] = {
	"exit 0",
	"sleep 0.2; exit 3",
	"kill -TERM $$",
	"sleep 0.1",
};

/* Start one command; its pidfd, or -1. */
static int start(const char *cmd, pid_t *pid)
{
	int fd;

	*pid = fork();
	if (*pid < 0)
		return -1;
	if (*pid == 0) {
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	/* Safe: an unreaped child keeps its pid, so this is our child. */
	fd = libpidfd_open(*pid, 0);
	if (fd < 0)
		perror("libpidfd_open");
	return fd;
}

/*
 * sigabbrev_np() is glibc's alone (musl has none): the signals that end a
 * command most often by name, any other by number.
 */
static const char *signal_name(int sig, char *buf, size_t size)
{
	static const struct { int sig; const char *name; } names[] = {
		{ SIGHUP, "SIGHUP" },   { SIGINT, "SIGINT" },
		{ SIGQUIT, "SIGQUIT" }, { SIGABRT, "SIGABRT" },
		{ SIGKILL, "SIGKILL" }, { SIGSEGV, "SIGSEGV" },
		{ SIGPIPE, "SIGPIPE" }, { SIGTERM, "SIGTERM" },
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].sig == sig)
			return names[i].name;
	snprintf(buf, size, "signal %d", sig);
	return buf;
}

static void report(pid_t pid, const char *cmd, const siginfo_t *si)
{
	char name[16];

	switch (si->si_code) {
	case CLD_EXITED:
		printf("%d '%s': exited %d\n", pid, cmd, si->si_status);
		break;
	case CLD_KILLED:
	case CLD_DUMPED:
		printf("%d '%s': killed by %s%s\n", pid, cmd,
		       signal_name(si->si_status, name, sizeof(name)),
		       si->si_code == CLD_DUMPED ? " (core dumped)" : "");
		break;
	}
}

int main(int argc, char **argv)
{
	const char **cmds = argc > 1 ? (const char **)argv + 1 : demo;
	int n = argc > 1 ? argc - 1 : (int)(sizeof(demo) / sizeof(demo[0]));
	struct pollfd *pfd = calloc((size_t)n, sizeof(*pfd));
	pid_t *pids = calloc((size_t)n, sizeof(*pids));
	int left = 0, failed = 0;

	if (!pfd || !pids)
		return 1;
	/* Each ending is news when it happens, also into a pipe or a log. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (int i = 0; i < n; i++) {
		pfd[i].fd = start(cmds[i], &pids[i]);
		pfd[i].events = POLLIN;
		left += pfd[i].fd >= 0;
	}
	while (left > 0) {
		if (poll(pfd, (nfds_t)n, -1) < 0) {
			if (errno == EINTR)
				continue;
			perror("poll");
			return 1;
		}
		for (int i = 0; i < n; i++) {
			siginfo_t si = { 0 };

			if (pfd[i].fd < 0 || !(pfd[i].revents & POLLIN))
				continue;
			/* Reap exactly this child, through its pidfd. */
			if (libpidfd_waitid(pfd[i].fd, &si, WEXITED, NULL) < 0) {
				perror("libpidfd_waitid");
				return 1;
			}
			report(pids[i], cmds[i], &si);
			failed += si.si_code != CLD_EXITED || si.si_status != 0;
			close(pfd[i].fd);
			pfd[i].fd = -1; /* poll() skips negative fds */
			left--;
		}
	}
	printf("%d of %d failed\n", failed, n);
	free(pfd);
	free(pids);
	return failed ? 1 : 0;
}
