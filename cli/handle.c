/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A handle a shell can carry. Since Linux 6.9 a pidfd is a file of pidfs,
 * whose inode number names one process for as long as the system runs
 * (util-linux 2.42's kill, waitpid and getino take it as "PID:INODE"): a
 * pidfd opened on PID is that process's only if its inode is INODE, so the
 * pair is checked after the open and cannot name a newcomer at the PID.
 * Before 6.9 every pidfd shares one anonymous inode, and the form is
 * refused as unsupported.
 *
 * And the other way round: "pidfd open PID -- COMMAND" runs COMMAND with
 * the pidfd on a descriptor it inherits, named in $PIDFD, for "fd:N".
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "pidfd.h"

#ifndef PIDFS_MAGIC
#define PIDFS_MAGIC 0x50494446
#endif

bool handle_parse(const char *arg, pid_t *pid, uint64_t *inode)
{
	const char *colon = strchr(arg, ':');
	char *end;
	unsigned long long v;
	long p;

	if (!colon || colon == arg || arg[0] < '0' || arg[0] > '9' ||
	    colon[1] < '0' || colon[1] > '9')
		return false;
	errno = 0;
	p = strtol(arg, &end, 10);
	if (end != colon || errno || p < 1 || p > INT32_MAX)
		return false;
	v = strtoull(colon + 1, &end, 10);
	if (*end || errno || v == 0)
		return false;
	*pid = (pid_t)p;
	*inode = v;
	return true;
}

/*
 * A 64-bit inode number on every ABI: glibc's plain fstat() on i386 has a
 * 32-bit st_ino (EOVERFLOW on a 64-bit kernel); musl's is always 64-bit.
 */
#ifdef __GLIBC__
#define stat_wide stat64
#define fstat_wide fstat64
#else
#define stat_wide stat
#define fstat_wide fstat
#endif

/* The pidfs inode of a pidfd: 0, or -1 with errno (EOPNOTSUPP before 6.9). */
static int inode_of(int pidfd, uint64_t *inode)
{
	struct statfs sfs;
	struct stat_wide st;

	if (fstatfs(pidfd, &sfs) < 0)
		return -1;
	if (sfs.f_type != PIDFS_MAGIC) {
		errno = EOPNOTSUPP;
		return -1;
	}
	if (fstat_wide(pidfd, &st) < 0)
		return -1;
	*inode = (uint64_t)st.st_ino;
	return 0;
}

int handle_inode(const struct target *t, uint64_t *inode)
{
	int fd, r, err;

	if (t->fd >= 0)
		return inode_of(t->fd, inode);
	/* A sentinel (self): a pidfd of our own for the while. */
	fd = libpidfd_open(getpid(), 0);
	if (fd < 0)
		return -1;
	r = inode_of(fd, inode);
	err = errno;
	close(fd);
	errno = err;
	return r;
}

int handle_open(struct target *t, pid_t pid, uint64_t inode)
{
	uint64_t got;

	t->pid = pid;
	t->fd = libpidfd_open(pid, 0);
	if (t->fd < 0)
		return -1;
	t->owned = true;
	if (inode_of(t->fd, &got) == 0 && got == inode)
		return 0;
	/* Another process holds the PID now: the one named is gone. */
	if (errno != EOPNOTSUPP)
		errno = ESRCH;
	target_close(t);
	return -1;
}

void help_open(void)
{
	fputs("Usage:\n"
	      " pidfd open [options] <process> [--] <command> [<argument>...]\n"
	      "\n"
	      "Run a command with a pidfd of the process on a descriptor it\n"
	      "inherits, whose number is in $PIDFD ('pidfd kill fd:$PIDFD').\n"
	      "\n"
	      "Options:\n"
	      HELP_COMMON_OPTIONS
	      "\n"
	      HELP_PROCESS
	      "\n"
	      "Exit status: the command's; 1 failure, 2 not supported by this\n"
	      "kernel, 126 the command cannot be run, 127 it is not found.\n"
	      HELP_END,
	      stdout);
}

/* The pidfd on a descriptor the command inherits: its number, or -1. */
static int inheritable(struct target *t)
{
	int fd = t->fd;

	if (t->self) /* the sentinel names pidfd, which the command replaces */
		fd = libpidfd_open(getpid(), 0);
	if (fd < 0 || fcntl(fd, F_SETFD, 0) < 0)
		return -1;
	return fd;
}

int cmd_open(int argc, char **argv)
{
	static const struct option opts[] = { OPTIONS_COMMON_END };
	const char *process;
	struct target t;
	char number[16], **command;
	int c, fd;

	/* "+": the command's own options are its own. */
	while ((c = getopt_long(argc, argv, "+hV", opts, NULL)) != -1)
		common_option(c, argv, opts);
	if (optind >= argc)
		usage_error("open: no process specified");
	process = argv[optind++];
	target_check(process);
	if (optind < argc && strcmp(argv[optind], "--") == 0)
		optind++;
	if (optind >= argc)
		usage_error("open: no command specified");
	command = argv + optind;
	if (target_open(process, &t) < 0 || (fd = inheritable(&t)) < 0) {
		int err = errno;

		warn_open(process, err);
		return exit_status_of(err);
	}
	snprintf(number, sizeof(number), "%d", fd);
	if (setenv("PIDFD", number, 1) < 0)
		abort();
	fflush(stdout);
	execvp(command[0], command);
	/* As env(1) and nice(1): 127 not found, 126 found but not run. */
	c = errno;
	warn_escaped("open: cannot run '%s': %s", command[0], strerror(c));
	return c == ENOENT ? 127 : 126;
}
