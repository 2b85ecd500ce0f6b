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
 * Build: cc peercred.c $(pkg-config --cflags --libs libpidfd)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <libpidfd.h>

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

static int listen_on(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (s < 0 || strlen(path) >= sizeof(sa.sun_path))
		return -1;
	strcpy(sa.sun_path, path);
	unlink(path);
	if (bind(s, (struct sockaddr *)&sa, sizeof(sa)) < 0 || listen(s, 8) < 0) {
		close(s);
		return -1;
	}
	return s;
}

/* The demonstration's client: connect, as nobody if we are root, then wait. */
static void client(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int s = socket(AF_UNIX, SOCK_STREAM, 0);
	char c;

	strcpy(sa.sun_path, path);
	if (getuid() == 0 && (setgid(65534) < 0 || setuid(65534) < 0))
		_exit(2);
	if (connect(s, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		_exit(3);
	(void)!read(s, &c, 1); /* until the daemon hangs up */
	_exit(0);
}

int main(int argc, char **argv)
{
	char demo[108];
	const char *path = argc > 1 ? argv[1] : NULL;
	pid_t child = -1;
	int s, conn, rc = 0;

	if (!path) {
		snprintf(demo, sizeof(demo), "/tmp/peercred-%d.sock", getpid());
		path = demo;
	}
	s = listen_on(path);
	if (s < 0) {
		perror(path);
		return 1;
	}
	if (path == demo) {
		chmod(path, 0777); /* the client connects as nobody */
		child = fork();
		if (child == 0)
			client(path);
	}
	while ((conn = accept4(s, NULL, NULL, SOCK_CLOEXEC)) >= 0) {
		if (check_peer(conn) < 0)
			rc = 1;
		close(conn);
		if (child > 0)
			break;
	}
	if (child > 0) {
		waitpid(child, NULL, 0);
		unlink(path);
	}
	return rc;
}
