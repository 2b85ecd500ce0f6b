/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The programs of examples/, run as a user would run them, on every kernel:
 * each must do what its comment promises.
 */
#include "cli.h"
#include "util.h"

/* Bytes read from fd into buf (of cap) until it holds n lines; the count. */
static size_t read_lines(int fd, char *buf, size_t cap, int n)
{
	size_t len = 0;

	while (n > 0) {
		ssize_t r = read(fd, buf + len, cap - 1 - len);

		ASSERT_TRUE(r > 0 || (r < 0 && errno == EINTR));
		for (ssize_t i = 0; i < r; i++)
			n -= buf[len + (size_t)i] == '\n';
		len += r > 0 ? (size_t)r : 0;
	}
	buf[len] = '\0';
	return len;
}

/* In the supervisor before exec: the read end of the go pipe as fd 3. */
static void go_as_fd3(char **argv, void *go)
{
	int fd = *(int *)go;

	(void)argv;
	/*
	 * The commands inherit fd 3: dup2() clears close-on-exec, but not
	 * where the pipe already is fd 3.
	 */
	if (fd == 3 ? fcntl(3, F_SETFD, 0) < 0 : dup2(fd, 3) < 0)
		_exit(126);
}

/*
 * The supervisor with commands whose last one reads a line from fd 3: it
 * ends only once the supervisor has reported all the others, so the order
 * of its report is fixed by events, never by how fast each command runs.
 * The supervisor's output and exit status as cli_run() gives them.
 */
static int supervise_last_released(struct cli_out *o, char **argv)
{
	static struct cli_out rest;
	int out, err, go[2], others = 0;
	size_t len;
	pid_t pid;

	while (argv[others + 2])
		others++;
	ASSERT_EQ(pipe2(go, O_CLOEXEC), 0);
	pid = cli_start(argv, go_as_fd3, &go[0], &out, &err);
	close(go[0]);
	len = read_lines(out, o->out, sizeof(o->out), others);
	ASSERT_EQ(write(go[1], "go\n", 3), 3);
	close(go[1]);
	cli_drain(out, err, &rest);
	ASSERT_TRUE(len + strlen(rest.out) < sizeof(o->out));
	strcpy(o->out + len, rest.out);
	strcpy(o->err, rest.err);
	return cli_wait(o, pid);
}

TEST(example_supervisor_reports_each_ending)
{
	struct cli_out o;

	ASSERT_EQ(supervise_last_released(&o, (char *[]){ "examples/supervisor",
		"exit 0", "exit 4", "kill -KILL $$", "read go <&3", NULL }), 1);
	ASSERT_EQ(o.err[0], '\0');
	ASSERT_TRUE(strstr(o.out, " 'exit 0': exited 0\n") != NULL);
	ASSERT_TRUE(strstr(o.out, " 'exit 4': exited 4\n") != NULL);
	ASSERT_TRUE(strstr(o.out, " 'kill -KILL $$': killed by SIGKILL\n") != NULL);
	/* In the order they ended: the one released last is reported last. */
	ASSERT_TRUE(strstr(line_of(o.out, 3), " 'read go <&3': exited 0") != NULL);
	ASSERT_EQ(strcmp(line_of(o.out, 4), "2 of 4 failed"), 0);
	/* And its demonstration, with no arguments. */
	ASSERT_EQ(CLI(&o, "examples/supervisor"), 1);
	ASSERT_TRUE(strstr(o.out, "killed by SIGTERM") != NULL);
	ASSERT_EQ(CLI(&o, "examples/supervisor", "true"), 0);
}

/*
 * The client connects as nobody where the example runs as root, else as
 * whoever runs it: the daemon must see that uid from the peer's pidfd,
 * taken by SO_PEERPIDFD where the kernel has it (6.5).
 */
TEST(example_peercred_checks_the_peer)
{
	struct cli_out o;
	char ids[64];

	if (getuid() == 0)
		snprintf(ids, sizeof(ids), " uid 65534 gid 65534 ");
	else
		snprintf(ids, sizeof(ids), " uid %u gid %u ",
			 (unsigned)getuid(), (unsigned)getgid());
	ASSERT_EQ(CLI(&o, "examples/peercred"), 0);
	ASSERT_EQ(o.err[0], '\0');
	if (!strstr(o.out, ids))
		FAIL("the peer is not%s: %s", ids, o.out);
	if (!util_kernel_has_peerpidfd())
		ASSERT_TRUE(strstr(o.out, "(pidfd from libpidfd_open(SO_PEERCRED pid))") != NULL);
	else
		ASSERT_TRUE(strstr(o.out, "(pidfd from SO_PEERPIDFD)") != NULL);
}

/* The peer's own executable and command line, read through its pidfd. */
TEST(example_peer_exe_logs_the_peer)
{
	char want[PATH_MAX + 32];
	struct cli_out o;

	ASSERT_EQ(CLI(&o, "examples/peer-exe"), 0);
	ASSERT_EQ(o.err[0], '\0');
	snprintf(want, sizeof(want), " exe %s cmdline ", cli_path("examples/peer-exe"));
	ASSERT_TRUE(strstr(o.out, want) != NULL);
	ASSERT_TRUE(strstr(o.out, " --client /tmp/peer-exe-") != NULL);
}

TEST(example_madvise_self_advises_all)
{
	struct cli_out o;

	ASSERT_EQ(CLI(&o, "examples/madvise-self"), 0);
	ASSERT_EQ(o.err[0], '\0');
	ASSERT_TRUE(strstr(o.out, "advised ") == o.out);
	ASSERT_TRUE(strstr(o.out, " as MADV_COLD\n") != NULL);
}
