/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The caller's memory is touched only by system calls, once, and written
 * only by a call that succeeds:
 *
 *  - a failing call writes nothing (waitid aside, which clears *info on
 *    every error, as waitid(2) does): a struct in a MAP_SHARED file mapping
 *    keeps its contents and the file its mtime, and one in a MAP_PRIVATE
 *    mapping keeps sharing the file's page (no copy-on-write), on every
 *    error path, natively and emulated;
 *  - a struct, siginfo or iovec array that another thread unmaps in the
 *    middle of the call (stopped at a system call by a seccomp user
 *    notification, so the order is fixed) gives EFAULT, never SIGSEGV:
 *    get_info's through libpidfd-compat.so, which stands in for the
 *    kernel (the library itself takes valid pointers);
 *  - the same where a filter refuses process_vm_readv (the pipe fallback);
 *  - every copy works from a thread whose leader has exited.
 */
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <linux/seccomp.h>

#include "harness.h"
#include "internal.h"
#include "util.h"

#define PAGE 4096
#define FILL 0xa5
#define OLD_MTIME 1000000000 /* 2001: any write fault makes it "now" */
#define PM_FILE (1ULL << 61) /* pagemap: a file page, not a private copy */

struct file_map {
	int fd;
	char *shared, *private;
};

/* Scratch files on a real file system where there is one: tmpfs has no mtime on write faults. */
static int scratch_file(void)
{
	static const char *const dirs[] = { "/var/tmp", "/tmp", "." };

	for (size_t i = 0; i < UTIL_COUNT(dirs); i++) {
		int fd = open(dirs[i], O_TMPFILE | O_RDWR, 0600);

		if (fd >= 0)
			return fd;
	}
	FAIL("no directory takes an O_TMPFILE");
	return -1;
}

static void map_file(struct file_map *m)
{
	char page[PAGE];
	struct timespec t[2] = { { OLD_MTIME, 0 }, { OLD_MTIME, 0 } };

	m->fd = scratch_file();
	memset(page, FILL, sizeof(page));
	ASSERT_EQ(write(m->fd, page, PAGE), PAGE);
	ASSERT_EQ(fsync(m->fd), 0);
	m->shared = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, m->fd, 0);
	m->private = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE, m->fd, 0);
	ASSERT_TRUE(m->shared != MAP_FAILED && m->private != MAP_FAILED);
	ASSERT_EQ(futimens(m->fd, t), 0);
	/* Read faults: both map the file's page, neither is dirty. */
	ASSERT_EQ((unsigned char)m->shared[0], FILL);
	ASSERT_EQ((unsigned char)m->private[0], FILL);
}

static uint64_t pagemap(const void *p)
{
	uint64_t e = 0;
	int fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);

	ASSERT_TRUE(fd >= 0);
	ASSERT_EQ(pread(fd, &e, sizeof(e), (off_t)((uintptr_t)p / PAGE * 8)),
		  (ssize_t)sizeof(e));
	close(fd);
	return e;
}

/* Nothing written: contents, mtime, and the private page still the file's. */
static void assert_untouched(const struct file_map *m, const char *what)
{
	struct stat st;

	for (int i = 0; i < PAGE; i++)
		if ((unsigned char)m->shared[i] != FILL ||
		    (unsigned char)m->private[i] != FILL)
			FAIL("%s: byte %d written", what, i);
	ASSERT_EQ(fstat(m->fd, &st), 0);
	if (st.st_mtim.tv_sec != OLD_MTIME)
		FAIL("%s: the shared mapping's file got a new mtime", what);
	if (!(pagemap(m->private) & PM_FILE))
		FAIL("%s: the private mapping lost the file's page (copy-on-write)",
		     what);
}

/* A struct at the end of the page, so that a larger size crosses nothing. */
static void *in_page(char *page, size_t size)
{
	return page + PAGE - size;
}

static void failing_get_info(const struct file_map *m, bool emulate)
{
	int reaped, child, notpidfd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	size_t sz = sizeof(struct pidfd_info);
	char *maps[2] = { m->shared, m->private };

	util_spawn(NULL, NULL, &child);
	util_spawn(NULL, NULL, &reaped);
	util_kill_reap_keep_fd(reaped);
	util_set_path(emulate);
	for (int i = 0; i < 2; i++) {
		struct pidfd_info *info = in_page(maps[i], sz);

		/* The mask asked for is whatever the bytes say (0xa5...). */
		ASSERT_ERRNO(libpidfd_get_info(reaped, in_page(maps[i], 64), 64),
			     ESRCH);
		assert_untouched(m, "get_info on a reaped process");
		ASSERT_ERRNO(libpidfd_get_info(notpidfd, info, sz), ENOTTY);
		assert_untouched(m, "get_info on a file that is no pidfd");
		ASSERT_ERRNO(libpidfd_get_info(987654, info, sz), EBADF);
		assert_untouched(m, "get_info on a closed fd");
		ASSERT_ERRNO(libpidfd_get_info(-5, info, sz), EBADF);
		assert_untouched(m, "get_info on a negative fd");
		ASSERT_ERRNO(libpidfd_get_info(child, info, 63), EINVAL);
		assert_untouched(m, "get_info with a size below 64");
		ASSERT_ERRNO(libpidfd_get_info(child, (void *)maps[i], 16384), E2BIG);
		assert_untouched(m, "get_info with a size above 16383");
	}
	close(notpidfd);
	close(reaped);
	util_kill_reap(child);
}

TEST(failing_get_info_writes_nothing)
{
	struct file_map m;

	map_file(&m);
	failing_get_info(&m, true);
	failing_get_info(&m, false);
}

static void failing_others(const struct file_map *m, bool emulate)
{
	siginfo_t *si = in_page(m->shared, sizeof(siginfo_t));
	struct iovec *iov = in_page(m->private, 2 * sizeof(struct iovec));
	int err;

	util_set_path(emulate);
	/*
	 * si_signo is 0xa5a5a5a5: not the signal sent; the tail is nonzero,
	 * which the compat path of a 32-bit program never checks.
	 */
	err = util_siginfo_tail_checked() ? E2BIG : EINVAL;
	ASSERT_ERRNO(libpidfd_send_signal(PIDFD_SELF, SIGUSR1, si, 0), err);
	ASSERT_ERRNO(libpidfd_send_signal(PIDFD_SELF_PROCESS, SIGUSR1, si, 0),
		     err);
	assert_untouched(m, "send_signal with an unknown siginfo layout");
	/* iov_len 0xa5a5...: negative as ssize_t. */
	ASSERT_ERRNO(libpidfd_process_madvise(PIDFD_SELF, iov, 2, MADV_COLD, 0),
		     EINVAL);
	ASSERT_ERRNO(libpidfd_process_madvise(PIDFD_SELF, iov, 2, MADV_COLD, 1),
		     EINVAL);
	assert_untouched(m, "process_madvise with a negative length");
}

TEST(failing_calls_with_caller_memory_write_nothing)
{
	struct file_map m;

	map_file(&m);
	failing_others(&m, true);
	failing_others(&m, false);
}

/* A successful call writes what the kernel writes, no more: the tail past its struct zeroed, the byte after untouched. */
TEST(get_info_writes_only_the_callers_size)
{
	struct file_map m;
	size_t sz = 200;

	map_file(&m);
	for (int e = 0; e < 2; e++) {
		char *p = m.private + 100;

		util_set_path(e);
		memset(p, 0, 8);
		ASSERT_EQ(libpidfd_get_info(PIDFD_SELF, (void *)p, sz), 0);
		ASSERT_EQ((unsigned char)p[-1], FILL);
		ASSERT_EQ((unsigned char)p[sz], FILL);
		for (size_t i = sizeof(struct pidfd_info); i < sz; i++)
			ASSERT_EQ(p[i], 0);
	}
}

/* ------------------------------------------------------------------------
 * Unmapped in the middle of the call.
 */
enum call { C_INFO, C_INFO_SUPPORTED, C_SIGNAL, C_MADVISE };

struct race {
	enum call call;
	long stop_at[2]; /* the system calls at which the memory goes */
	bool refuse_vm;  /* a filter refuses process_vm_readv: the pipe fallback */
	int pidfd;
	char *page;      /* the caller's memory, unmapped at the first stop */
	int listener;
	long ret;
	int err;
};

/* Where process_madvise's advice goes: not the page that is unmapped. */
static char advised[2 * PAGE] __attribute__((aligned(PAGE)));

static void make_call(struct race *r)
{
	struct pidfd_info *info = in_page(r->page, sizeof(*info));
	siginfo_t *si = in_page(r->page, sizeof(*si));
	struct iovec *iov = in_page(r->page, 2 * sizeof(*iov));

	errno = 0;
	switch (r->call) {
	case C_INFO:
	case C_INFO_SUPPORTED:
		info->mask = r->call == C_INFO_SUPPORTED ?
				     PIDFD_INFO_SUPPORTED_MASK : 0;
		r->ret = util_shim_get_info(r->pidfd, info, sizeof(*info));
		break;
	case C_SIGNAL:
		memset(si, 0, sizeof(*si));
		si->si_signo = SIGUSR1;
		si->si_code = SI_QUEUE;
		r->ret = libpidfd_send_signal(PIDFD_SELF, SIGUSR1, si, 0);
		break;
	case C_MADVISE:
		iov[0] = (struct iovec){ advised, PAGE };
		iov[1] = (struct iovec){ advised + PAGE, PAGE };
		r->ret = libpidfd_process_madvise(PIDFD_SELF, iov, 2, MADV_COLD, 0);
	}
	r->err = errno;
}

static void *race_worker(void *arg)
{
	struct race *r = arg;
	int l = -1;

	if (!r->refuse_vm || util_errno_filter(SYS_process_vm_readv, EPERM) == 0)
		l = util_notif_filter2(r->stop_at[0], r->stop_at[1]);
	__atomic_store_n(&r->listener, l < 0 ? -2 : l, __ATOMIC_SEQ_CST);
	if (l >= 0)
		make_call(r);
	return NULL;
}

/*
 * The page goes, and a PROT_NONE placeholder keeps its address, so that
 * nothing this process maps meanwhile (a stack, an arena) lands there and
 * makes it memory again: any access faults, as in a hole.
 */
static void unmap(char *page)
{
	ASSERT_EQ(munmap(page, PAGE), 0);
	ASSERT_TRUE(mmap(page, PAGE, PROT_NONE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1,
			 0) == page);
}

/*
 * At the first stop the memory goes. A siginfo check without a target
 * (rt_tgsigqueueinfo(0, 0, ...), what the emulation judged the siginfo
 * with before it read si_signo itself) is answered as the kernel answers
 * a sound siginfo there: the memory went just after the kernel looked.
 */
static bool unmap_at_first(int stop, const struct seccomp_notif *req,
			   struct seccomp_notif_resp *resp, void *arg)
{
	struct race *r = arg;

	if (stop == 0)
		unmap(r->page);
	if (req->data.nr == SYS_rt_tgsigqueueinfo && req->data.args[0] == 0) {
		resp->error = -EINVAL;
		return true;
	}
	return false;
}

static void race(enum call call, long stop_at, long stop_at2, bool emulate,
		 bool refuse_vm, int pidfd, long want)
{
	struct race r = { .call = call, .stop_at = { stop_at, stop_at2 },
			  .refuse_vm = refuse_vm, .pidfd = pidfd, .listener = -1 };
	pthread_t w;
	int stops;

	r.page = mmap(NULL, PAGE, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(r.page != MAP_FAILED);
	util_set_path(emulate);
	ASSERT_EQ(pthread_create(&w, NULL, race_worker, &r), 0);
	stops = util_notif_serve(&r.listener, unmap_at_first, &r);
	ASSERT_EQ(pthread_join(w, NULL), 0);
	if (stops < 1)
		FAIL("call %d never stopped at system call %ld", call, stop_at);
	if (want < 0 ? r.ret != -1 || r.err != -want : r.ret != want)
		FAIL("call %d, stopped at syscall %ld, %s%s: %ld (%s), not %ld",
		     call, stop_at, emulate ? "emulated" : "native",
		     refuse_vm ? ", process_vm_readv refused" : "", r.ret,
		     strerror(r.err), want);
}

/*
 * get_info through libpidfd-compat.so, which stands in for the kernel (the
 * library takes valid pointers): stopped at the system call that ends
 * its work, the liveness check of the emulation or the ioctl, on the path
 * the test's mode gives it.
 */
static void info_races(bool refuse_vm, int child)
{
	struct pidfd_info info = { .mask = 0 };
	bool emulated = util_shim_emulated();
	long stop = emulated ? SYS_pidfd_send_signal : SYS_ioctl;

	ASSERT_EQ(util_shim_get_info(child, &info, sizeof(info)), 0);
	race(C_INFO, stop, stop, emulated, refuse_vm, child, -EFAULT);
	race(C_INFO_SUPPORTED, stop, stop, emulated, refuse_vm, child, -EFAULT);
}

/*
 * Each call once before any filter, so that its probes are cached; then
 * stopped where the emulation works after it has judged the memory: the
 * siginfo's check or send, the first madvise (all iovecs are read before
 * it: the answer is the kernel's for the array as it was).
 */
static void races(bool refuse_vm)
{
	int child;
	siginfo_t si = { .si_signo = 0 };
	struct iovec iov = { NULL, 0 };

	util_spawn(NULL, NULL, &child);
	signal(SIGUSR1, SIG_IGN);
	for (int e = 0; e < 2; e++) {
		util_set_path(e);
		ASSERT_ERRNO(libpidfd_send_signal(PIDFD_SELF, SIGUSR1, &si, 0),
			     EINVAL);
		ASSERT_TRUE(libpidfd_process_madvise(PIDFD_SELF, &iov, 1,
						     MADV_COLD, 0) >= 0);
	}
	info_races(refuse_vm, child);
	for (int e = 0; e < 2; e++)
		race(C_SIGNAL, SYS_rt_tgsigqueueinfo, SYS_pidfd_send_signal, e,
		     refuse_vm, 0, -EFAULT);
	race(C_MADVISE, SYS_madvise, SYS_madvise, true, refuse_vm, 0, 2 * PAGE);
	if (util_kernel_has(LPFD_FEAT_SELF_SENTINELS) &&
	    util_kernel_has(LPFD_FEAT_PROCESS_MADVISE))
		race(C_MADVISE, SYS_process_madvise, SYS_process_madvise, false,
		     refuse_vm, 0, -EFAULT);
	util_kill_reap(child);
}

TEST(memory_unmapped_during_the_call_is_efault)
{
	races(false);
}

TEST(memory_unmapped_during_the_call_is_efault_through_a_pipe)
{
	races(true);
}

/* ------------------------------------------------------------------------
 * After the leader is gone (pthread_exit()): the process's id then names a
 * task without memory, and a copy through it is ESRCH. Each call copies
 * on the calling thread's id, or on the process's where it has it
 * already and then again on the thread's.
 */
struct orphan {
	int child; /* a pidfd of another process */
	char page[PAGE] __attribute__((aligned(PAGE)));
};

/* Whether the leader is a zombie: after its exit_mm(), so it has no memory. */
static bool leader_is_zombie(void)
{
	char buf[512], *paren;

	if (util_read_close(open("/proc/self/stat", O_RDONLY | O_CLOEXEC), buf,
			    sizeof(buf)) <= 0)
		return false;
	paren = strrchr(buf, ')');
	return paren && paren[1] == ' ' && paren[2] == 'Z';
}

/* Which step failed, 0 for none: the exit code of the process. */
static int orphan_calls(struct orphan *o)
{
	struct pidfd_info info = { .mask = PIDFD_INFO_PID };
	struct iovec iov = { o->page, PAGE };
	struct libpidfd_features f;
	siginfo_t si;
	int fd;

	if (libpidfd_get_info(o->child, &info, sizeof(info)) != 0 ||
	    info.pid == 0)
		return 1;
	info.mask = PIDFD_INFO_PID | PIDFD_INFO_SUPPORTED_MASK;
	if (libpidfd_get_info(PIDFD_SELF_THREAD, &info, sizeof(info)) != 0 ||
	    info.pid != (uint32_t)gettid() ||
	    !(info.mask & PIDFD_INFO_SUPPORTED_MASK))
		return 2;
	/* Natively, the route's pid serves the copy until it is ESRCH. */
	memset(&info, 0, sizeof(info));
	info.mask = PIDFD_INFO_PID | PIDFD_INFO_SUPPORTED_MASK;
	if (libpidfd_get_info(PIDFD_SELF_PROCESS, &info, sizeof(info)) != 0 ||
	    info.pid != (uint32_t)getpid() || info.tgid != (uint32_t)getpid() ||
	    !(info.mask & PIDFD_INFO_SUPPORTED_MASK))
		return 7;
	if (libpidfd_process_madvise(PIDFD_SELF, &iov, 1, MADV_COLD, 0) != PAGE)
		return 3;
	memset(&si, 0, sizeof(si));
	si.si_signo = SIGUSR1;
	si.si_code = SI_QUEUE;
	if (libpidfd_send_signal(PIDFD_SELF, SIGUSR1, &si, 0) != 0)
		return 4;
	fd = libpidfd_proc_open(PIDFD_SELF_THREAD, "status", O_RDONLY);
	if (fd < 0)
		return 5;
	close(fd);
	return libpidfd_features(&f, sizeof(f)) == 0 ? 0 : 6;
}

static void *orphan_thread(void *arg)
{
	struct orphan *o = arg;

	while (!leader_is_zombie())
		sched_yield(); /* until an event: the leader's exit */
	for (int e = 0; e < 2; e++) {
		int r;

		util_set_path(e); /* 0: native, 1: emulated */
		r = orphan_calls(o);
		if (r)
			_exit(10 * (e + 1) + r);
	}
	_exit(0);
}

TEST(copies_work_after_the_leader_exited)
{
	static struct orphan o;
	int child, status;
	pid_t pid;

	util_spawn(NULL, NULL, &child);
	o.child = child;
	pid = fork();
	ASSERT_TRUE(pid >= 0);
	if (pid == 0) {
		pthread_t t;

		signal(SIGUSR1, SIG_IGN);
		if (pthread_create(&t, NULL, orphan_thread, &o) != 0)
			_exit(99);
		pthread_exit(NULL);
	}
	ASSERT_EQ(waitpid(pid, &status, 0), pid);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		FAIL("after the leader's exit, %s call %d failed (status %#x)",
		     WEXITSTATUS(status) >= 20 ? "emulated" : "native",
		     WEXITSTATUS(status) % 10, status);
	util_kill_reap(child);
}
