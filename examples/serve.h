/* SPDX-License-Identifier: MIT */
/*
 * The unix socket server of the peer examples (peercred.c, peer-exe.c):
 * with a PATH, serve each client on it, one check_peer() a connection;
 * without, a demonstration that starts one client of its own and serves
 * it alone. Copy it beside the example.
 */
#ifndef LIBPIDFD_EXAMPLE_SERVE_H
#define LIBPIDFD_EXAMPLE_SERVE_H

#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

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

/* Connect to path and wait until the daemon hangs up: the exit status. */
static int connect_and_wait(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int s = socket(AF_UNIX, SOCK_STREAM, 0);
	char c;

	strcpy(sa.sun_path, path);
	if (connect(s, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		return 3;
	(void)!read(s, &c, 1);
	return 0;
}

/*
 * Serve argv[1], or a demonstration socket named after name, whose one
 * client start_client() runs in a child (it does not return). 0 if every
 * peer passed check_peer(), 1 if not.
 */
static int serve(int argc, char **argv, const char *name,
		 int (*check_peer)(int conn),
		 void (*start_client)(char **argv, const char *path))
{
	char demo[108];
	const char *path = argc > 1 ? argv[1] : NULL;
	pid_t child = -1;
	int s, conn, rc = 0;

	if (!path) {
		snprintf(demo, sizeof(demo), "/tmp/%s-%d.sock", name, getpid());
		path = demo;
	}
	s = listen_on(path);
	if (s < 0) {
		perror(path);
		return 1;
	}
	if (path == demo) {
		chmod(path, 0777); /* the client may connect as another user */
		child = fork();
		if (child == 0)
			start_client(argv, path);
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

#endif
