/* SPDX-License-Identifier: MIT */
/*
 * peercred: a daemon that checks who is on the other end of a unix socket,
 * from a pidfd for the peer.
 *
 *   peercred PATH    serve on the unix socket PATH, one line per client
 *   peercred         demonstration: serve one client that we start
 *
 * Linux 6.5 and later hand out a pidfd for the peer (SO_PEERPIDFD), taken
 * when it connected: it names that process even if it has exited since
 * and its pid was reused. On older kernels we fall back to the pid of
 * SO_PEERCRED and libpidfd_open(); that pid could in principle be reused
 * before we open it, which is why the credentials are compared as well.
 * Either way libpidfd_get_info() then tells who the peer is.
 *
 * Build (serve.h beside it): cc peercred.c $(pkg-config --cflags --libs libpidfd)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>

#include <libpidfd.h>

#include "serve.h"

#ifndef SO_PEERPIDFD
#define SO_PEERPIDFD 77 /* Linux 6.5 */
#endif

/* A pidfd for the peer of a connected socket; *how says where it came from. */
static int peer_pidfd(int conn, const struct ucred *cred, const char **how)
{
	socklen_t len = sizeof(int);
	int fd;

	if (getsockopt(conn, SOL_SOCKET, SO_PEERPIDFD, &fd, &len) == 0) {
		*how = "SO_PEERPIDFD";
		return fd;
	}
	if (errno != ENOPROTOOPT)
		return -1;
	*how = "libpidfd_open(SO_PEERCRED pid)";
	return libpidfd_open(cred->pid, 0);
}

/* Say who the client is; 0 if its credentials check out. */
static int check_peer(int conn)
{
	struct libpidfd_info info = { .mask = PIDFD_INFO_CGROUPID };
	struct ucred cred;
	socklen_t len = sizeof(cred);
	const char *how;
	int pidfd;

	if (getsockopt(conn, SOL_SOCKET, SO_PEERCRED, &cred, &len) < 0) {
		perror("SO_PEERCRED");
		return -1;
	}
	pidfd = peer_pidfd(conn, &cred, &how);
	if (pidfd < 0) {
		perror("peer pidfd");
		return -1;
	}
	if (libpidfd_get_info(pidfd, &info, sizeof(info)) < 0) {
		perror("libpidfd_get_info");
		close(pidfd);
		return -1;
	}
	close(pidfd);
	printf("peer pid %u ppid %u uid %u gid %u (pidfd from %s)\n",
	       info.pid, info.ppid, info.euid, info.egid, how);
	/* SO_PEERCRED was taken at connect(): they must be the same process. */
	if (info.tgid != (__u32)cred.pid || info.euid != cred.uid) {
		printf("peer credentials do not match SO_PEERCRED: rejected\n");
		return -1;
	}
	return 0;
}

/* The demonstration's client: connect as nobody if we are root. */
static void start_client(char **argv, const char *path)
{
	(void)argv;
	if (getuid() == 0 && (setgid(65534) < 0 || setuid(65534) < 0))
		_exit(2);
	_exit(connect_and_wait(path));
}

int main(int argc, char **argv)
{
	return serve(argc, argv, "peercred", check_peer, start_client);
}
