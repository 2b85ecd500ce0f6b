/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A program that makes no pidfd call at all, only heavy ioctl(), syscall()
 * and waitid() traffic of other kinds, and prints a digest of every result
 * and errno (and of errno after each success, which libc leaves alone).
 * tests/test-compat.c runs it with and without libpidfd-compat.so: the
 * output and the exit status must be the same.
 */
#include <errno.h>
#include <linux/futex.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

/*
 * 512 rounds cycle every write size (1 to 64 bytes) eight times and fork
 * four times; more only slows user-mode-linux, where each of the ~25
 * calls of a round is a round trip through the host's ptrace.
 */
#define ROUNDS 512
#define ROUNDS_PER_FORK 128

static uint64_t digest = 1469598103934665603ULL;
static unsigned long calls;

/* One call's result, its errno, and errno as the call left it on success. */
static void note(long r)
{
	uint64_t v[2] = { (uint64_t)r, (uint64_t)(r < 0 ? errno : errno + 1000) };

	for (int i = 0; i < 2; i++) {
		digest ^= v[i];
		digest *= 1099511628211ULL;
	}
	calls++;
	errno = 77; /* a success must leave it so */
}

static void ioctls(int rfd, int wfd, int round)
{
	char buf[64];
	int avail = -1;
	struct termios t;

	note(write(wfd, buf, (size_t)(round % 64) + 1));
	note(ioctl(rfd, FIONREAD, &avail));
	note(avail);
	note(syscall(SYS_ioctl, rfd, FIONREAD, &avail));
	note(avail);
	note(read(rfd, buf, sizeof(buf)));
	note(ioctl(rfd, TCGETS, &t));         /* ENOTTY */
	note(ioctl(-1, FIONREAD, &avail));     /* EBADF */
	note(ioctl(rfd, _IO(0xFF, 12), 0));    /* the pidfs magic, not a pidfd */
	note(ioctl(rfd, _IOWR(0xFF, 11, char[88]), buf));
	note(syscall(SYS_ioctl, rfd, _IO(0xFF, 4), 0));
	note(ioctl(rfd, FIONBIO, &(int){ round & 1 }));
}

static void syscalls(int round)
{
	int word = round;
	void *p;

	note(syscall(SYS_getpid) == getpid());
	note(syscall(SYS_gettid) == gettid());
	note(syscall(-1));                     /* ENOSYS */
	note(syscall(100000));                 /* ENOSYS */
	note(syscall(SYS_futex, &word, FUTEX_WAKE, 1, NULL, NULL, 0));
	note(syscall(SYS_futex, &word, FUTEX_WAIT, round + 1, NULL, NULL, 0));
	p = (void *)syscall(SYS_mmap, NULL, 4096, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	note(p != MAP_FAILED);
	note(syscall(SYS_munmap, p, 4096));
	note(syscall(SYS_close, -1));          /* EBADF */
}

static void waits(void)
{
	siginfo_t si = { 0 };
	pid_t pid = fork();

	if (pid == 0)
		_exit(5);
	note(waitid(P_PID, (id_t)pid, &si, WEXITED));
	note(si.si_status);
	note(waitid(P_ALL, 0, &si, WEXITED | WNOHANG)); /* ECHILD */
	note(syscall(SYS_waitid, P_ALL, 0, &si, WEXITED | WNOHANG, NULL));
	note(waitid(P_PGID, 0, &si, WEXITED | WNOHANG));
}

int main(void)
{
	int p[2];

	if (pipe(p))
		return 2;
	for (int i = 0; i < ROUNDS; i++) {
		ioctls(p[0], p[1], i);
		syscalls(i);
		if (i % ROUNDS_PER_FORK == 0)
			waits();
	}
	printf("%lu calls, digest %016llx\n", calls, (unsigned long long)digest);
	return 3; /* an exit status of its own, which must come through */
}
