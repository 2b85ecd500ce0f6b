/* SPDX-License-Identifier: MIT */
/*
 * peer-exe: a daemon that logs what runs on the other end of a unix
 * socket, its executable and command line, without a pid-reuse race.
 *
 *   peer-exe PATH    serve on the unix socket PATH, one line per client
 *   peer-exe         demonstration: serve one client that we start
 *
 * The peer is named by a pidfd: SO_PEERPIDFD (Linux 6.5), taken when it
 * connected, or before 6.5 libpidfd_open() of SO_PEERCRED's pid, checked
 * against the connection's credentials. Its /proc files are then read
 * through that pidfd (libpidfd_proc_readlink(), libpidfd_proc_open()):
 * they are the peer's own or the call fails with ESRCH, never those of a
 * process that took its pid since.
 *
 * Build (serve.h beside it): cc peer-exe.c $(pkg-config --cflags --libs libpidfd)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <libpidfd.h>

#include "serve.h"

#ifndef SO_PEERPIDFD
#define SO_PEERPIDFD 77 /* Linux 6.5 */
#endif

/* A pidfd for the peer of a connected socket. */
static int peer_pidfd(int conn)
{
	struct libpidfd_info info = { .mask = 0 };
	struct ucred cred;
	socklen_t len = sizeof(int);
	int fd;

	if (getsockopt(conn, SOL_SOCKET, SO_PEERPIDFD, &fd, &len) == 0)
		return fd;
	len = sizeof(cred);
	if (getsockopt(conn, SOL_SOCKET, SO_PEERCRED, &cred, &len) < 0)
		return -1;
	fd = libpidfd_open(cred.pid, 0);
	/* The pid may have been reused before the open: same credentials? */
	if (fd >= 0 && (libpidfd_get_info(fd, &info, sizeof(info)) < 0 ||
			info.euid != cred.uid || info.egid != cred.gid)) {
		close(fd);
		errno = ESRCH;
		return -1;
	}
	return fd;
}

/* The command line, its arguments joined by spaces. */
static ssize_t peer_cmdline(int pidfd, char *buf, size_t size)
{
	int fd = libpidfd_proc_open(pidfd, "cmdline", O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -1;
	for (ssize_t i = 0; i < n; i++)
		buf[i] = buf[i] ? buf[i] : ' ';
	while (n && buf[n - 1] == ' ')
		n--;
	buf[n] = '\0';
	return n;
}

static int log_peer(int conn)
{
	char exe[PATH_MAX], args[4096];
	int pidfd = peer_pidfd(conn);
	ssize_t n;

	if (pidfd < 0) {
		perror("peer pidfd");
		return -1;
	}
	n = libpidfd_proc_readlink(pidfd, "exe", exe, sizeof(exe) - 1);
	if (n < 0 || peer_cmdline(pidfd, args, sizeof(args)) < 0) {
		perror("peer /proc");
		close(pidfd);
		return -1;
	}
	exe[n] = '\0';
	printf("peer pid %d exe %s cmdline %s\n", libpidfd_getpid(pidfd), exe,
	       args);
	close(pidfd);
	return 0;
}

/* The demonstration's client: itself again, so that it has an exe. */
static void start_client(char **argv, const char *path)
{
	execl("/proc/self/exe", argv[0], "--client", path, (char *)NULL);
	_exit(127);
}

int main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "--client") == 0)
		return connect_and_wait(argv[2]);
	return serve(argc, argv, "peer-exe", log_peer, start_client);
}
