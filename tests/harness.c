/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <limits.h>
#include <linux/capability.h>
#include <signal.h>
#include <stdarg.h>
#include <sys/mman.h>
#include <sys/syscall.h>
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

static struct test {
	const char *name;
	harness_fn fn;
	unsigned timeout;
	const char *file;
	int line;
} tests[MAX_TESTS];
static int ntests;

void harness_register(const char *name, harness_fn fn, unsigned timeout_s,
		      const char *file, int line)
{
	if (ntests == MAX_TESTS) {
		fprintf(stderr, "too many tests\n");
		exit(2);
	}
	tests[ntests] = (struct test){ name, fn, timeout_s, file, line };
	ntests++;
}

static int by_place(const void *a, const void *b)
{
	const struct test *x = a, *y = b;
	int c = strcmp(x->file, y->file);

	return c ? c : (x->line > y->line) - (x->line < y->line);
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

/*
 * A skipping test writes its reason here (shared with the harness) and
 * exits with SKIP_EXIT; either alone is a failure.
 */
#define SKIP_EXIT 77
static char *skip_reason;

void harness_skip(const char *fmt, ...)
{
	va_list ap;

	if (skip_reason) {
		va_start(ap, fmt);
		vsnprintf(skip_reason, 256, fmt, ap);
		va_end(ap);
	}
	fflush(stdout);
	_exit(SKIP_EXIT);
}

bool harness_privileged(void)
{
	struct __user_cap_header_struct h = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct d[_LINUX_CAPABILITY_U32S_3];
	const char *declined = getenv("TEST_UNPRIVILEGED");

	/* A package build's test step declines privilege even as root. */
	if (declined && strcmp(declined, "1") == 0)
		return false;
	if (geteuid() != 0 || syscall(SYS_capget, &h, d) != 0)
		return false;
	return d[CAP_TO_INDEX(CAP_SYS_ADMIN)].effective &
	       CAP_TO_MASK(CAP_SYS_ADMIN);
}

/* TEST_MODE, else LIBPIDFD_EMULATE=1's "emulated", else "native". */
const char *harness_mode(void)
{
	const char *m = getenv("TEST_MODE"), *e = getenv("LIBPIDFD_EMULATE");

	if (m && *m)
		return m;
	return e && strcmp(e, "1") == 0 ? "emulated" : "native";
}

/*
 * The one mode, and LIBPIDFD_EMULATE made to agree with it. The library
 * reads LIBPIDFD_EMULATE when it is loaded, as exec left it: where it has
 * to change, the program starts again with it changed.
 */
static void set_mode(char **argv)
{
	const char *m = harness_mode(), *e = getenv("LIBPIDFD_EMULATE");
	bool want = strcmp(m, "emulated") == 0, have = e && strcmp(e, "1") == 0;

	if (strcmp(m, "native") != 0 && !want && strcmp(m, "uml") != 0 &&
	    strcmp(m, "qemu") != 0) {
		fprintf(stderr, "TEST_MODE=%s: not native, emulated, uml or qemu\n", m);
		exit(2);
	}
	setenv("TEST_MODE", m, 1);
	if (want == have)
		return;
	if (want)
		setenv("LIBPIDFD_EMULATE", "1", 1);
	else
		unsetenv("LIBPIDFD_EMULATE");
	execv("/proc/self/exe", argv);
	perror("execv /proc/self/exe");
	exit(2);
}

/*
 * The pidfd tool of a build is linked with that build's libpidfd.so, not
 * installed: whatever a test runs finds it in the build directory, the
 * one above the test's own (the tests themselves link libpidfd.a).
 */
static void set_library_path(void)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char *slash;

	if (n <= 0)
		return;
	self[n] = '\0';
	for (int up = 0; up < 2 && (slash = strrchr(self, '/')); up++)
		*slash = '\0';
	setenv("LD_LIBRARY_PATH", self, 1);
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

enum result { PASS, FAIL, SKIP };

double harness_seconds_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * A test that used a third of its time is named: on a busier machine it
 * would be the next timeout, and the log says so before it happens.
 */
static void note_if_slow(int i, double took)
{
	unsigned limit = tests[i].timeout * timeout_scale();

	if (took > limit / 3.0)
		printf("# slow: %s took %.1f s of its %u s\n", tests[i].name,
		       took, limit);
}

/* Run one test in a child of its own, killed at its timeout. */
static enum result run_one(int i)
{
	double start = harness_seconds_now();
	pid_t pid;
	int status;

	fflush(stdout);
	skip_reason[0] = '\0';
	pid = fork();
	if (pid < 0) {
		perror("fork");
		return FAIL;
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
	note_if_slow(i, harness_seconds_now() - start);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return PASS;
	if (WIFEXITED(status) && WEXITSTATUS(status) == SKIP_EXIT &&
	    skip_reason[0])
		return SKIP;
	if (WIFSIGNALED(status))
		printf("# killed by signal %d%s\n", WTERMSIG(status),
		       WTERMSIG(status) == SIGALRM ? " (timeout)" : "");
	return FAIL;
}

static int find_test(const char *name)
{
	for (int i = 0; i < ntests; i++)
		if (strcmp(name, tests[i].name) == 0)
			return i;
	return -1;
}

/* The tests to run: all, or those named (every name must exist). */
static bool selected(int i, int argc, char **argv)
{
	if (argc < 2)
		return true;
	for (int a = 1; a < argc; a++)
		if (strcmp(argv[a], tests[i].name) == 0)
			return true;
	return false;
}

int main(int argc, char **argv)
{
	int passed = 0, failed = 0, skipped = 0, n = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	qsort(tests, (size_t)ntests, sizeof(tests[0]), by_place);
	if (argc == 2 && strcmp(argv[1], "-l") == 0) {
		for (int i = 0; i < ntests; i++)
			printf("%s\n", tests[i].name);
		return 0;
	}
	for (int a = 1; a < argc; a++) {
		if (find_test(argv[a]) < 0) {
			fprintf(stderr, "%s: no test named '%s' (-l lists them)\n",
				argv[0], argv[a]);
			return 2;
		}
	}
	set_mode(argv);
	set_library_path();
	personality_install();
	skip_reason = mmap(NULL, 256, PROT_READ | PROT_WRITE,
			   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (skip_reason == MAP_FAILED) {
		perror("mmap");
		return 2;
	}
	for (int i = 0; i < ntests; i++) {
		if (!selected(i, argc, argv))
			continue;
		n++;
		switch (run_one(i)) {
		case PASS:
			passed++;
			printf("ok %d - %s\n", n, tests[i].name);
			break;
		case SKIP:
			skipped++;
			printf("ok %d - %s # SKIP %s\n", n, tests[i].name,
			       skip_reason);
			break;
		case FAIL:
			failed++;
			printf("not ok %d - %s\n", n, tests[i].name);
			break;
		}
	}
	printf("# %s: %d passed, %d failed", argv[0], passed, failed);
	if (skipped)
		printf(", %d skipped", skipped);
	printf("\n");
	return failed ? 1 : 0;
}
