/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <signal.h>
#include <stdarg.h>
#include <sys/wait.h>
#include <time.h>

#include "harness.h"

#if defined(__SANITIZE_ADDRESS__)
#define HARNESS_LSAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HARNESS_LSAN 1
#endif
#endif

#define MAX_TESTS 512

static struct {
	const char *name;
	harness_fn fn;
	unsigned timeout;
} tests[MAX_TESTS];
static int ntests;

void harness_register(const char *name, harness_fn fn, unsigned timeout_s)
{
	if (ntests == MAX_TESTS) {
		fprintf(stderr, "too many tests\n");
		exit(2);
	}
	tests[ntests].name = name;
	tests[ntests].fn = fn;
	tests[ntests].timeout = timeout_s;
	ntests++;
}

void harness_fail(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	fprintf(stdout, "# %s:%d: ", file, line);
	va_start(ap, fmt);
	vfprintf(stdout, fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
	fflush(stdout);
	_exit(1);
}

const char *harness_mode(void)
{
	const char *m = getenv("TEST_MODE");

	return m ? m : "native";
}

#ifdef HARNESS_LSAN
#include <fcntl.h>
#include <sched.h>
/*
 * LeakSanitizer's check at exit clones a tracer, which lands in the pid
 * namespace for children: after a test's unshare(CLONE_NEWPID), whose init
 * is gone by then, that clone fails and so does the check. The test child
 * keeps its own pid namespace open (on a high fd) and goes back to it.
 */
static int lsan_pidns = -1;

static void lsan_save_pidns(void)
{
	int fd = open("/proc/self/ns/pid", O_RDONLY | O_CLOEXEC);

	if (fd >= 0) {
		lsan_pidns = fcntl(fd, F_DUPFD_CLOEXEC, 1000);
		close(fd);
	}
}

static void lsan_restore_pidns(void)
{
	if (lsan_pidns >= 0)
		setns(lsan_pidns, CLONE_NEWPID);
}
#else
static void lsan_save_pidns(void) {}
static void lsan_restore_pidns(void) {}
#endif

/* Sanitizer builds run slower: TEST_TIMEOUT_SCALE=N gives each test N times its time. */
static unsigned timeout_scale(void)
{
	const char *e = getenv("TEST_TIMEOUT_SCALE");
	long n = e ? strtol(e, NULL, 10) : 1;

	return n >= 1 && n <= 100 ? (unsigned)n : 1;
}

/* Run one test in a child of its own, killed at its timeout. */
static bool run_one(int i)
{
	pid_t pid;
	int status;

	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		perror("fork");
		return false;
	}
	if (pid == 0) {
		setpgid(0, 0);
		alarm(tests[i].timeout * timeout_scale());
		lsan_save_pidns();
		tests[i].fn();
		lsan_restore_pidns();
		exit(0); /* atexit() clean-ups run */
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	kill(-pid, SIGKILL); /* whatever the test left behind */
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return true;
	if (WIFSIGNALED(status))
		printf("# killed by signal %d%s\n", WTERMSIG(status),
		       WTERMSIG(status) == SIGALRM ? " (timeout)" : "");
	return false;
}

int main(int argc, char **argv)
{
	const char *only = argc > 1 ? argv[1] : NULL;
	int passed = 0, failed = 0, n = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	personality_install();
	for (int i = 0; i < ntests; i++) {
		if (only && strcmp(only, tests[i].name) != 0)
			continue;
		n++;
		if (run_one(i)) {
			passed++;
			printf("ok %d - %s\n", n, tests[i].name);
		} else {
			failed++;
			printf("not ok %d - %s\n", n, tests[i].name);
		}
	}
	printf("# %s: %d passed, %d failed\n", argv[0], passed, failed);
	return failed ? 1 : 0;
}
