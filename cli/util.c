/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the pidfd(1) commands share: process arguments, signals, endings. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <linux/magic.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../lib/names.h"
#include "pidfd.h"

void fputs_escaped(const char *s, FILE *f)
{
	size_t width;
	char *e = cell_encode(s, false, &width);

	fputs(e, f);
	free(e);
}

/* "pidfd: " and the message, escaped: it may quote an operand's bytes. */
static void vwarn_escaped(const char *fmt, va_list ap)
{
	char *msg;

	const char *cmd = command_name();
	size_t n = cmd ? strlen(cmd) : 0;

	if (vasprintf(&msg, fmt, ap) < 0)
		abort();
	/* One style: "pidfd: <command>: ...", said once. */
	fputs("pidfd: ", stderr);
	if (cmd && (strncmp(msg, cmd, n) != 0 || strncmp(msg + n, ": ", 2) != 0))
		fprintf(stderr, "%s: ", cmd);
	fputs_escaped(msg, stderr);
	free(msg);
}

void warn_escaped(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn_escaped(fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn_escaped(fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	try_help();
	exit(EXIT_FAILURE);
}

void output_modes_check(const char *cmd, unsigned int given)
{
	static const char *const names[] = { "--json", "--json-lines",
					      "--noheadings", "--raw" };
	char list[64] = "";

	if (!(given & (OUT_JSON | OUT_JSON_LINES)) || !(given & (given - 1)))
		return;
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (given & (1u << i))
			snprintf(list + strlen(list), sizeof(list) - strlen(list),
				 " %s", names[i]);
	usage_error("%s: mutually exclusive arguments:%s", cmd, list);
}

/*
 * What is wrong with /proc, or NULL: the emulation reads pids there, and
 * so does "info --all", so it must be a procfs of our own pid namespace
 * (after "unshare -p" without "--mount-proc" it is the parent namespace's).
 */
const char *proc_trouble(void)
{
	struct statfs sfs;

	if (procfs_check() != -ENOSYS)
		return NULL;
	if (statfs("/proc", &sfs) < 0 || sfs.f_type != PROC_SUPER_MAGIC)
		return "/proc is not mounted (mount -t proc proc /proc)";
	return "/proc belongs to another pid namespace (mount this "
	       "namespace's: mount -t proc proc /proc)";
}

static const char *reason(int err, bool opened)
{
	if (err == ESRCH)
		return opened ? "No such process (it has exited)" :
				"No such process";
	if (err == ENOSYS)
		return proc_trouble() ?: "not supported by this kernel";
	return strerror(err);
}

static void report(const char *what, const char *arg, const char *why)
{
	if (strncmp(arg, "fd:", 3) == 0 || strcmp(arg, "self") == 0)
		warn_escaped("%s %s: %s", what, arg, why);
	else
		warn_escaped("%s process %s: %s", what, arg, why);
}

/*
 * The descriptors that "fd:N" operands named and that were open when the
 * tool started. Only those are the caller's: a number that was free then
 * may by now be one the tool opened itself (a pidfd of an earlier
 * operand, its /proc), which must never stand in for the caller's.
 */
static int *inherited_fds;
static size_t inherited_count;

static long long parse_number(const char *s, long long min);

void inherited_fds_record(int argc, char **argv)
{
	inherited_fds = calloc((size_t)argc + 1, sizeof(*inherited_fds));
	if (!inherited_fds)
		abort();
	for (int i = 1; i < argc; i++) {
		long long fd;

		if (strncmp(argv[i], "fd:", 3) != 0)
			continue;
		fd = parse_number(argv[i] + 3, 0);
		if (fd >= 0 && fcntl((int)fd, F_GETFD) >= 0)
			inherited_fds[inherited_count++] = (int)fd;
	}
}

static bool inherited_fd_open(int fd)
{
	for (size_t i = 0; i < inherited_count; i++)
		if (inherited_fds[i] == fd)
			return true;
	return false;
}

void warn_open(const char *arg, int err)
{
	const char *why = reason(err, false);

	if (err == EBADF && strncmp(arg, "fd:", 3) == 0)
		why = inherited_fd_open(atoi(arg + 3)) ?
			"not a pidfd" : "not an open file descriptor";
	if (strncmp(arg, "fd:", 3) != 0 && strchr(arg, ':'))
		why = err == EOPNOTSUPP ? "PID:INODE needs pidfs (Linux 6.9)" :
		      err == ESRCH ? "No such process (the PID is free, or "
				     "another process's)" : why;
	report("cannot open", arg, why);
}

void warn_target(const char *what, const char *arg, int err)
{
	report(what, arg, reason(err, true));
}

/*
 * A signal to a process's group: the kernel's ESRCH says only that no
 * process group has the process's id, which a live process that leads
 * no group gets too.
 */
void warn_group_target(const char *what, const char *arg, int err)
{
	report(what, arg, err == ESRCH ? "No process group with its id (it "
					 "leads none, or has exited)" :
					 reason(err, true));
}

int exit_status_of(int err)
{
	if (err == ENOSYS && proc_trouble())
		return EXIT_FAILURE;
	return err == ENOSYS || err == EOPNOTSUPP ? EXIT_NOTSUP : EXIT_FAILURE;
}

/* A decimal number in [min, INT_MAX], the whole string; -1 if not. */
static long long parse_number(const char *s, long long min)
{
	char *end;
	long long v;

	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno || *end || v < min || v > INT_MAX)
		return -1;
	return v;
}

void target_check(const char *arg)
{
	uint64_t inode;
	pid_t pid;

	if (strcmp(arg, "self") == 0)
		return;
	if (strncmp(arg, "fd:", 3) == 0) {
		if (parse_number(arg + 3, 0) < 0)
			usage_error("invalid file descriptor: '%s'", arg);
		return;
	}
	if (parse_number(arg, 1) < 0 && !handle_parse(arg, &pid, &inode))
		usage_error("invalid process: '%s' (a PID, PID:INODE, 'self' "
			    "or 'fd:N')", arg);
}

/*
 * An inherited descriptor must have been open at startup, and a pidfd:
 * libpidfd_getpid() says so, and gives the pid while the process is
 * unreaped (ESRCH after the reap).
 */
static int target_inherited(struct target *t, int fd)
{
	pid_t pid;

	if (!inherited_fd_open(fd)) {
		errno = EBADF;
		return -1;
	}
	pid = libpidfd_getpid(fd);

	if (pid < 0 && errno != ESRCH)
		return -1;
	t->fd = fd;
	t->pid = pid > 0 ? pid : 0;
	return 0;
}

/*
 * Not a process: maybe a thread. Its process T is read by number, then
 * opened, and through T's pidfd (bound to T, never to a recycled pid)
 * "task/<tid>" proves that tid is still one of T's tasks: then T's pidfd
 * is the thread's process. Else the first error stands.
 */
static int target_thread_group(struct target *t, pid_t tid, int err)
{
	pid_t tgid = procfs_tgid_of(tid);
	char task[32];
	int fd, dir;

	if (tgid <= 0 || tgid == tid)
		goto fail;
	fd = libpidfd_open(tgid, 0);
	if (fd < 0)
		goto fail;
	snprintf(task, sizeof(task), "task/%d", (int)tid);
	dir = libpidfd_proc_open(fd, task, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dir < 0) {
		close(fd);
		goto fail;
	}
	close(dir);
	t->fd = fd;
	t->pid = tgid;
	t->tid = tid;
	t->owned = true;
	return 0;
fail:
	errno = err;
	return -1;
}

int target_open(const char *arg, struct target *t)
{
	uint64_t inode;

	*t = (struct target){ .arg = arg, .fd = -1 };
	target_check(arg);
	if (strcmp(arg, "self") == 0) {
		t->self = true;
		t->fd = PIDFD_SELF_PROCESS;
		t->pid = getpid();
		return 0;
	}
	if (strncmp(arg, "fd:", 3) == 0)
		return target_inherited(t, (int)parse_number(arg + 3, 0));
	if (handle_parse(arg, &t->pid, &inode))
		return handle_open(t, t->pid, inode);
	t->pid = (pid_t)parse_number(arg, 1);
	t->fd = libpidfd_open(t->pid, 0);
	if (t->fd < 0)
		return errno == ENOENT ?
		       target_thread_group(t, t->pid, ENOENT) : -1;
	t->owned = true;
	return 0;
}

/*
 * The thread's own pidfd, opened by its number, is that thread's only if
 * it is alive with that tid while the tid is one of T's tasks (T's pidfd
 * held): live tids are unique.
 */
static int thread_pidfd(const struct target *t)
{
	int fd = libpidfd_open(t->tid, PIDFD_THREAD), dir, err;
	char task[32];

	if (fd < 0)
		return -1;
	snprintf(task, sizeof(task), "task/%d", (int)t->tid);
	dir = libpidfd_proc_open(t->fd, task, O_PATH | O_DIRECTORY | O_CLOEXEC);
	err = errno;
	if (dir >= 0)
		close(dir);
	if (dir < 0 || libpidfd_getpid(fd) != t->tid) {
		close(fd);
		errno = dir < 0 ? err : ESRCH;
		return -1;
	}
	return fd;
}

int target_open_thread(const char *arg, struct target *t)
{
	int fd;

	if (target_open(arg, t) < 0)
		return -1;
	if (!t->tid)
		return 0;
	fd = thread_pidfd(t);
	if (fd >= 0) {
		close(t->fd);
		t->fd = fd;
		t->pid = t->tid;
		return 0;
	}
	if (errno != EINVAL) {
		int err = errno;

		target_close(t);
		errno = err;
		return -1;
	}
	/* No thread pidfds before Linux 6.9: the process stands for it. */
	warn_escaped("%s is a thread of process %d (this kernel has no "
		     "thread pidfds): showing process %d", arg, (int)t->pid,
		     (int)t->pid);
	return 0;
}

void target_close(struct target *t)
{
	if (t->owned && t->fd >= 0)
		close(t->fd);
	t->fd = -1;
	t->owned = false;
}

const char *signal_name(int sig, char *buf, size_t size)
{
	const char *abbrev = sig > 0 && sig < SIGRTMIN ? lpfd_signal_abbrev(sig) : NULL;

	if (abbrev)
		snprintf(buf, size, "SIG%s", abbrev);
	else if (sig == SIGRTMIN)
		snprintf(buf, size, "SIGRTMIN");
	else if (sig > SIGRTMIN && sig <= SIGRTMAX)
		snprintf(buf, size, "SIGRTMIN+%d", sig - SIGRTMIN);
	else
		snprintf(buf, size, "signal %d", sig);
	return buf;
}

/* "RTMIN", "RTMIN+N", "RTMAX", "RTMAX-N" (already without "SIG"). */
static int signal_parse_rt(const char *s)
{
	long long n = 0;

	if (strncasecmp(s, "RTMIN", 5) == 0) {
		if (s[5] && (s[5] != '+' || (n = parse_number(s + 6, 0)) < 0))
			return -1;
		return SIGRTMIN + n <= SIGRTMAX ? SIGRTMIN + (int)n : -1;
	}
	if (strncasecmp(s, "RTMAX", 5) == 0) {
		if (s[5] && (s[5] != '-' || (n = parse_number(s + 6, 0)) < 0))
			return -1;
		return SIGRTMAX - n >= SIGRTMIN ? SIGRTMAX - (int)n : -1;
	}
	return -1;
}

int signal_parse(const char *s)
{
	long long n = parse_number(s, 0);

	if (n >= 0)
		return n < _NSIG ? (int)n : -1;
	if (strncasecmp(s, "SIG", 3) == 0)
		s += 3;
	for (int sig = 1; sig < SIGRTMIN; sig++) {
		const char *abbrev = lpfd_signal_abbrev(sig);

		if (abbrev && strcasecmp(abbrev, s) == 0)
			return sig;
	}
	return signal_parse_rt(s);
}

struct ending ending_of_wait_status(int status)
{
	if (WIFEXITED(status))
		return (struct ending){ END_EXITED, WEXITSTATUS(status), false };
	if (WIFSIGNALED(status))
		return (struct ending){ END_KILLED, WTERMSIG(status),
					WCOREDUMP(status) };
	return (struct ending){ END_UNKNOWN, 0, false };
}

struct ending ending_of_siginfo(const siginfo_t *si)
{
	switch (si->si_code) {
	case CLD_EXITED:
		return (struct ending){ END_EXITED, si->si_status, false };
	case CLD_KILLED:
		return (struct ending){ END_KILLED, si->si_status, false };
	case CLD_DUMPED:
		return (struct ending){ END_KILLED, si->si_status, true };
	default:
		return (struct ending){ END_UNKNOWN, 0, false };
	}
}

const char *ending_text(const struct ending *e, char *buf, size_t size)
{
	char sig[32];

	switch (e->how) {
	case END_EXITED:
		snprintf(buf, size, "exited %d", e->value);
		break;
	case END_KILLED:
		snprintf(buf, size, "killed by %s%s",
			 signal_name(e->value, sig, sizeof(sig)),
			 e->core ? " (core dumped)" : "");
		break;
	default:
		snprintf(buf, size, "exited (status unknown)");
	}
	return buf;
}
