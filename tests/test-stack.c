/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Every public function, on every path, within 4 KiB of stack from its
 * entry: each runs on a painted stack (a thread's), cold (every probe and
 * cache reset, so the probes run inside it) and warm, natively and
 * emulated, and the deepest byte it touched is measured. Each also runs in
 * a signal handler on an 8 KiB alternate stack (the classic SIGSTKSZ),
 * with a guard page below it, where more would be SIGSEGV.
 *
 * The measure starts at the frame that makes the call, so it holds that
 * frame too (a few words): a bound the library keeps with room. Under
 * AddressSanitizer every frame carries redzones and the bound is the
 * sanitizer's multiple of it (util_stack_budget()). The shim's functions
 * are measured alike in test-compat.
 */
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "harness.h"
#include "internal.h"
#include "util.h"

#define BUDGET util_stack_budget()
#define SCALE (util_stack_budget() / 4096)
#define ALT_STACK 8192

/* The calls: arguments in static storage, so that the caller's frame is small. */
static int g_child, g_zombie, g_notpidfd;
static struct pidfd_info g_info;
static siginfo_t g_si;
static struct iovec g_iov[2];
static char g_page[4096] __attribute__((aligned(4096)));
static char g_link[256];
static uint64_t g_mask;

struct call {
	const char *name;
	long (*fn)(void);
};

static long info_on(int fd)
{
	g_info.mask = g_mask;
	return libpidfd_get_info(fd, &g_info, sizeof(g_info));
}

static long c_info_child(void) { return info_on(g_child); }
static long c_info_zombie(void) { return info_on(g_zombie); }
static long c_info_self(void) { return info_on(PIDFD_SELF); }
static long c_info_process(void) { return info_on(PIDFD_SELF_PROCESS); }
static long c_info_notpidfd(void) { return info_on(g_notpidfd); }
static long c_getpid(void) { return libpidfd_getpid(g_child); }
static long c_getpid_self(void) { return libpidfd_getpid(PIDFD_SELF_PROCESS); }
static long c_open(void)
{
	long fd = libpidfd_open(getpid(), 0);

	if (fd >= 0)
		close((int)fd);
	return fd;
}
static long c_signal(void)
{
	return libpidfd_send_signal(PIDFD_SELF, SIGUSR1, NULL, 0);
}
static long c_signal_info(void)
{
	memset(&g_si, 0, sizeof(g_si));
	g_si.si_signo = SIGUSR1;
	g_si.si_code = SI_QUEUE;
	return libpidfd_send_signal(PIDFD_SELF_PROCESS, SIGUSR1, &g_si, 0);
}
static long c_signal_child(void)
{
	return libpidfd_send_signal(g_child, 0, NULL, 0);
}
static long c_getfd(void)
{
	long fd = libpidfd_getfd(PIDFD_SELF_PROCESS, 0, 0);

	if (fd >= 0)
		close((int)fd);
	return fd;
}
static long c_madvise(void)
{
	g_iov[0] = (struct iovec){ g_page, sizeof(g_page) };
	return libpidfd_process_madvise(PIDFD_SELF, g_iov, 1, MADV_COLD, 0);
}
static long c_mrelease(void) { return libpidfd_process_mrelease(PIDFD_SELF, 0); }
static long c_waitid(void)
{
	return libpidfd_waitid(PIDFD_SELF, &g_si, WEXITED | WNOHANG, NULL);
}
static long c_namespace(void)
{
	long fd = libpidfd_get_namespace(g_child, PIDFD_GET_UTS_NAMESPACE);

	if (fd >= 0)
		close((int)fd);
	return fd;
}
static long c_features(void)
{
	static struct libpidfd_features f;

	return libpidfd_features(&f, sizeof(f));
}
static long c_proc_open(void)
{
	long fd = libpidfd_proc_open(g_child, "status", O_RDONLY);

	if (fd >= 0)
		close((int)fd);
	return fd;
}
static long c_proc_readlink(void)
{
	return libpidfd_proc_readlink(PIDFD_SELF_PROCESS, "exe", g_link,
				      sizeof(g_link));
}
static long c_version(void) { return libpidfd_check_version(0, 0, 0); }

static const struct call calls[] = {
	{ "get_info(child)", c_info_child },
	{ "get_info(zombie)", c_info_zombie },
	{ "get_info(PIDFD_SELF)", c_info_self },
	{ "get_info(PIDFD_SELF_PROCESS)", c_info_process },
	{ "get_info(not a pidfd)", c_info_notpidfd },
	{ "getpid(child)", c_getpid },
	{ "getpid(PIDFD_SELF_PROCESS)", c_getpid_self },
	{ "open", c_open },
	{ "send_signal(PIDFD_SELF)", c_signal },
	{ "send_signal(PIDFD_SELF_PROCESS, siginfo)", c_signal_info },
	{ "send_signal(child, 0)", c_signal_child },
	{ "getfd(PIDFD_SELF_PROCESS)", c_getfd },
	{ "process_madvise(PIDFD_SELF)", c_madvise },
	{ "process_mrelease(PIDFD_SELF)", c_mrelease },
	{ "waitid(PIDFD_SELF)", c_waitid },
	{ "get_namespace(child)", c_namespace },
	{ "features", c_features },
	{ "proc_open(child)", c_proc_open },
	{ "proc_readlink(PIDFD_SELF_PROCESS)", c_proc_readlink },
	{ "check_version", c_version },
};

/* get_info's masks: the plain one and every bit that takes another path. */
static const uint64_t masks[] = {
	0,
	PIDFD_INFO_CGROUPID,
	PIDFD_INFO_EXIT | PIDFD_INFO_COREDUMP | PIDFD_INFO_SUPPORTED_MASK,
};

/* ------------------------------------------------------------------------
 * The painted stack (util_stack_used()).
 */
static const struct call *g_call;

static void run_call(void)
{
	(void)g_call->fn();
}

static size_t measure(const struct call *c)
{
	g_call = c;
	return util_stack_used(run_call);
}

static void setup(void)
{
	signal(SIGUSR1, SIG_IGN);
	util_spawn(NULL, NULL, &g_child);
	g_zombie = -1;
	util_zombie(0, &g_zombie);
	g_notpidfd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	ASSERT_TRUE(g_notpidfd >= 0);
}

/* Every call once on each path, so that every libc symbol is resolved. */
static void resolve_all(void)
{
	for (int e = 0; e < 2; e++)
		for (size_t i = 0; i < UTIL_COUNT(calls); i++) {
			lpfd_state_reset();
			util_set_path(e);
			(void)calls[i].fn();
		}
}

static void check_all(bool emulate, bool cold, size_t *worst)
{
	for (size_t m = 0; m < UTIL_COUNT(masks); m++)
		for (size_t i = 0; i < UTIL_COUNT(calls); i++) {
			size_t n;

			g_mask = masks[m];
			if (m && calls[i].fn != c_info_child &&
			    calls[i].fn != c_info_self && calls[i].fn != c_info_process &&
			    calls[i].fn != c_info_zombie)
				continue;
			if (cold)
				lpfd_state_reset();
			util_set_path(emulate);
			n = measure(&calls[i]);
			if (n > *worst)
				*worst = n;
			if (n > BUDGET || getenv("TEST_STACK_SHOW"))
				printf("# %s (mask %#llx), %s, %s: %zu bytes of stack\n",
				       calls[i].name, (unsigned long long)g_mask,
				       emulate ? "emulated" : "native",
				       cold ? "cold" : "warm", n);
		}
}

TEST(every_function_within_4_kib_of_stack)
{
	size_t worst = 0;

	setup();
	/*
	 * Warm first: the dynamic linker's first resolution of a libc symbol
	 * (xsave of every register: 3 KB on AVX-512) comes on top of the
	 * budget, and is done by a first round, unmeasured; the cold runs
	 * then reset only the library's probes and caches.
	 */
	resolve_all();
	for (int e = 0; e < 2; e++) {
		check_all(e, false, &worst);
		check_all(e, true, &worst);
	}
	printf("# deepest: %zu bytes (budget %zu)\n", worst, BUDGET);
	if (worst > BUDGET)
		FAIL("%zu bytes of stack, over %zu", worst, BUDGET);
	/* The measure measures: a call that uses more is seen as more. */
	ASSERT_TRUE(worst > 256);
}

/* ------------------------------------------------------------------------
 * In a signal handler on an 8 KiB alternate stack.
 */
static volatile sig_atomic_t g_handled;

static void handler(int sig)
{
	(void)sig;
	(void)g_call->fn();
	g_handled = 1;
}

static void in_handler_all(bool emulate)
{
	struct sigaction sa = { .sa_handler = handler, .sa_flags = SA_ONSTACK };

	ASSERT_EQ(sigaction(SIGURG, &sa, NULL), 0);
	for (size_t m = 0; m < UTIL_COUNT(masks); m++)
		for (size_t i = 0; i < UTIL_COUNT(calls); i++) {
			g_mask = masks[m];
			g_call = &calls[i];
			lpfd_state_reset();
			util_set_path(emulate);
			g_handled = 0;
			ASSERT_EQ(syscall(SYS_tgkill, getpid(), syscall(SYS_gettid), SIGURG), 0);
			if (!g_handled)
				FAIL("%s: the handler did not run", calls[i].name);
		}
}

static void empty_handler(int sig)
{
	(void)sig;
	g_handled = 1;
}

/* What the kernel's signal frame takes: an empty handler on a painted altstack. */
static size_t signal_frame(void)
{
	struct sigaction sa = { .sa_handler = empty_handler, .sa_flags = SA_ONSTACK };
	size_t size = 64 * 1024, i = 0;
	char *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	stack_t ss = { .ss_sp = p, .ss_size = size }, off = { .ss_flags = SS_DISABLE };

	ASSERT_TRUE(p != MAP_FAILED);
	memset(p, 0xa5, size);
	ASSERT_EQ(sigaltstack(&ss, NULL), 0);
	ASSERT_EQ(sigaction(SIGURG, &sa, NULL), 0);
	ASSERT_EQ(raise(SIGURG), 0);
	ASSERT_EQ(sigaltstack(&off, NULL), 0);
	while (i < size && (unsigned char)p[i] == 0xa5)
		i++;
	munmap(p, size);
	return size - i;
}

/*
 * 8 KiB, the classic SIGSTKSZ, where the kernel's signal frame leaves the
 * budget room in it (on this AVX-512 host it does); where it does not
 * (user-mode-linux saves the host's whole register file, 10 KB and more,
 * and an empty handler on 8 KiB is SIGSEGV there), the frame plus the
 * budget plus 512 bytes for the handler's own frames.
 */
static size_t alt_stack_size(void)
{
	size_t need = signal_frame() + BUDGET + 512;

	need = (need + 4095) & ~(size_t)4095;
	return need > ALT_STACK ? need : ALT_STACK;
}

TEST(every_function_in_a_handler_on_an_8_kib_sigaltstack)
{
	size_t size = alt_stack_size();
	/* A guard page below: one byte more than the stack is SIGSEGV. */
	char *p = mmap(NULL, 4096 + size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	stack_t ss;

	ASSERT_TRUE(p != MAP_FAILED);
	ASSERT_EQ(mprotect(p, 4096, PROT_NONE), 0);
	ss = (stack_t){ .ss_sp = p + 4096, .ss_size = size };
	setup();
	resolve_all();
	ASSERT_EQ(sigaltstack(&ss, NULL), 0);
	in_handler_all(true);
	in_handler_all(false);
	printf("# alternate stack: %zu bytes (the kernel's signal frame: %zu)\n",
	       size, signal_frame());
}
