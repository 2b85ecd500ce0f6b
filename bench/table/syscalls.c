/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* make bench: the system calls of each row, counted under ptrace. */

#include "bench.h"

#define SC(x) { SYS_##x, #x }
static const struct {
	long nr;
	const char *name;
} sc_names[] = {
	SC(read), SC(write), SC(openat), SC(close), SC(newfstatat),
	SC(fstat), SC(readlinkat), SC(readlink), SC(ioctl), SC(getpid),
	SC(gettid), SC(getppid), SC(getresuid), SC(getresgid),
	SC(setfsuid), SC(setfsgid), SC(name_to_handle_at), SC(fcntl),
	SC(madvise), SC(lseek), SC(brk), SC(mmap), SC(munmap), SC(tgkill), SC(tkill),
	SC(kill), SC(rt_sigqueueinfo), SC(rt_tgsigqueueinfo), SC(prctl),
	SC(statx), SC(pread64), SC(pidfd_open), SC(pidfd_send_signal),
	SC(pidfd_getfd), SC(process_madvise), SC(dup), SC(dup3),
	SC(rt_sigprocmask), SC(kcmp), SC(open), SC(fstatfs), SC(statfs),
	SC(futex), SC(openat2), SC(close_range), SC(process_vm_readv), SC(pipe2),
};

static const char *sc_name(long nr, char *buf, size_t size)
{
	for (size_t i = 0; i < sizeof(sc_names) / sizeof(sc_names[0]); i++)
		if (sc_names[i].nr == nr)
			return sc_names[i].name;
	snprintf(buf, size, "sys_%ld", nr);
	return buf;
}

static void marker(unsigned long what)
{
	syscall(SYS_write, -1, NULL, what);
}

static void counted_child(struct row *r)
{
	/* "self" is the process that runs the calls. */
	close(g_fd[T_SELF]);
	open_self();
	set_path(r);
	if (r->op(r) < 0) /* first call: lazy set-up stays out of the count */
		_exit(2);
	if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) < 0)
		_exit(3);
	raise(SIGSTOP);
	marker(MARK_START);
	for (int i = 0; i < COUNT_ITERS; i++)
		if (r->op(r) < 0)
			_exit(4);
	marker(MARK_END);
	_exit(0);
}

#define NR_MAX 1024

/*
 * The stop's system call, entry or exit. user-mode-linux has no
 * PTRACE_GET_SYSCALL_INFO: there the stops alternate, entry first, and
 * the registers tell the number and arguments.
 */
static int syscall_entry(pid_t pid, struct __ptrace_syscall_info *si,
			 bool *at_entry)
{
	*at_entry = !*at_entry;
	if (ptrace(PTRACE_GET_SYSCALL_INFO, pid, (void *)sizeof(*si), si) > 0)
		return 0;
#if defined(__x86_64__)
	struct user_regs_struct regs;

	if (ptrace(PTRACE_GETREGS, pid, NULL, &regs) < 0)
		return -1;
	memset(si, 0, sizeof(*si));
	si->op = *at_entry ? PTRACE_SYSCALL_INFO_ENTRY : PTRACE_SYSCALL_INFO_EXIT;
	si->entry.nr = regs.orig_rax;
	si->entry.args[0] = regs.rdi;
	si->entry.args[1] = regs.rsi;
	si->entry.args[2] = regs.rdx;
	return 0;
#else
	return -1;
#endif
}

/* Syscall-entry stops between the two markers, per call; -1 if it failed. */
static double count_syscalls(struct row *r, unsigned hist[NR_MAX])
{
	struct __ptrace_syscall_info si;
	bool counting = false, at_entry = false;
	unsigned total = 0;
	int status;
	pid_t pid;

	memset(hist, 0, NR_MAX * sizeof(hist[0]));
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0)
		counted_child(r);
	if (waitpid(pid, &status, 0) != pid || !WIFSTOPPED(status))
		goto fail;
	if (ptrace(PTRACE_SETOPTIONS, pid, NULL,
		   (void *)(long)(PTRACE_O_TRACESYSGOOD | PTRACE_O_EXITKILL)) < 0)
		goto fail;
	for (int sig = 0;;) {
		if (ptrace(PTRACE_SYSCALL, pid, NULL, (void *)(long)sig) < 0)
			goto fail;
		sig = 0;
		if (waitpid(pid, &status, 0) != pid)
			goto fail;
		if (WIFEXITED(status) || WIFSIGNALED(status))
			break;
		if (WSTOPSIG(status) != (SIGTRAP | 0x80)) {
			sig = WSTOPSIG(status); /* pass real signals on */
			continue;
		}
		if (syscall_entry(pid, &si, &at_entry) < 0)
			goto fail;
		if (si.op != PTRACE_SYSCALL_INFO_ENTRY)
			continue;
		if (si.entry.nr == SYS_write && (int)si.entry.args[0] == -1 &&
		    (si.entry.args[2] == MARK_START ||
		     si.entry.args[2] == MARK_END)) {
			counting = si.entry.args[2] == MARK_START;
			continue;
		}
		if (counting && si.entry.nr < NR_MAX) {
			hist[si.entry.nr]++;
			total++;
		}
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return -1;
	return (double)total / COUNT_ITERS;
fail:
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	return -1;
}

void count_all(void)
{
	static unsigned hist[NR_MAX], empty[NR_MAX];
	double base = count_syscalls(&rows[r_empty], empty);

	if (base < 0)
		die("counting system calls under ptrace failed");
	for (int i = 0; i < nrows; i++) {
		struct row *r = &rows[i];
		size_t o = 0;
		char nb[24];

		r->syscalls = count_syscalls(r, hist);
		if (r->syscalls < 0) {
			snprintf(r->sclist, sizeof(r->sclist), "(not counted)");
			continue;
		}
		r->syscalls -= base;
		for (long nr = 0; nr < NR_MAX; nr++) {
			double per;

			if (hist[nr] <= empty[nr])
				continue;
			per = (double)(hist[nr] - empty[nr]) / COUNT_ITERS;
			if (o + 40 >= sizeof(r->sclist))
				break;
			if (per == 1.0)
				o += (size_t)snprintf(r->sclist + o,
						      sizeof(r->sclist) - o, "%s%s",
						      o ? " " : "",
						      sc_name(nr, nb, sizeof(nb)));
			else
				o += (size_t)snprintf(r->sclist + o,
						      sizeof(r->sclist) - o,
						      "%s%s*%.4g", o ? " " : "",
						      sc_name(nr, nb, sizeof(nb)),
						      per);
		}
	}
}
