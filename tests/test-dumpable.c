/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A caller that is not dumpable gets the same answers as one that is: the
 * daemons the library exists for drop privileges, and a process that
 * changes its uids or gids, or calls prctl(PR_SET_DUMPABLE, 0), stops being
 * dumpable. Before Linux 5.14 such a process, unless root, may not read
 * even its own /proc/thread-self/fdinfo, the only place that tells a
 * pidfd's pid there: for a pidfd of another live process the library then
 * answers EACCES (documented in libpidfd_get_info(3)), never ESRCH, and
 * never makes the caller dumpable, not even for a moment. Whether the
 * kernel refuses it is asked of the kernel, by behaviour, never by version.
 *
 * One process, as nobody, runs every public function three times on both
 * paths: not dumpable by its changed ids, made dumpable again (the
 * reference), and not dumpable by PR_SET_DUMPABLE 0. About itself (a real
 * pidfd of its own, from its leader) and about what can still be known
 * (closed fds, other files, a zombie's getfd) every answer is the
 * reference's; about another live process the reference's, or EACCES
 * where the fdinfo is refused. Each call's dumpability is checked after it.
 */
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/uio.h>
#include <sys/wait.h>

#include "cli.h"
#include "internal.h"
#include "util.h"

#define NOBODY 65534

static struct {
	int self;   /* a real pidfd of the testing process itself */
	int live;   /* its child, alive (root's) */
	int zombie; /* its child, exited, unreaped */
	int pipe;   /* a file that is no pidfd */
	int closed; /* a number that is not open */
} F;

enum { ABOUT_SELF, ABOUT_OTHER };

#define NCALLS 20

/* Call i, and whom it is about. */
static long call(int i, struct pidfd_info *info, int *about)
{
	siginfo_t si;

	*about = ABOUT_SELF;
	info->mask = PIDFD_INFO_CGROUPID | PIDFD_INFO_COREDUMP |
		     PIDFD_INFO_SUPPORTED_MASK;
	switch (i) {
	case 0: return libpidfd_get_info(F.self, info, sizeof(*info));
	case 1: return libpidfd_getpid(F.self) == getpid() ? 1 : -2;
	case 2: return util_fd_answer(libpidfd_get_namespace(F.self, PIDFD_GET_UTS_NAMESPACE));
	case 3: return libpidfd_send_signal(F.self, 0, NULL, 0);
	case 4: return util_fd_answer(libpidfd_getfd(F.self, F.pipe, 0));
	case 5: return util_madvise_page(F.self, MADV_WILLNEED, 0);
	case 6: return libpidfd_process_mrelease(F.self, 0);
	case 7: return libpidfd_waitid(F.self, &si, WEXITED | WNOHANG, NULL);
	case 8: return util_fd_answer(libpidfd_open(getpid(), 0));
	case 9: return util_features_answer(info);
	case 10: return libpidfd_get_info(PIDFD_SELF_PROCESS, info, sizeof(*info));
	case 11: return libpidfd_get_info(F.closed, info, sizeof(*info));
	case 12: return libpidfd_get_info(F.pipe, info, sizeof(*info));
	case 13: return libpidfd_getpid(F.closed);
	case 14: return libpidfd_getpid(F.pipe);
	case 15: return util_fd_answer(libpidfd_getfd(F.zombie, 0, 0));
	}
	*about = ABOUT_OTHER;
	switch (i) {
	case 16: return libpidfd_get_info(F.live, info, sizeof(*info));
	case 17: return libpidfd_getpid(F.live);
	case 18: return libpidfd_get_info(F.zombie, info, sizeof(*info));
	default: return util_fd_answer(libpidfd_get_namespace(F.live, PIDFD_GET_UTS_NAMESPACE));
	}
}

/* The calls' about[] and the dumpability they must leave as they found. */
struct table_arg {
	int *about;
	int dumpable;
};

/* call(i), which changes no dumpability (its errno kept). */
static long call_keeping_dumpable(int i, struct pidfd_info *info, void *arg)
{
	struct table_arg *t = arg;
	long r = call(i, info, &t->about[i]);
	int err = errno;

	ASSERT_EQ(prctl(PR_GET_DUMPABLE), t->dumpable);
	errno = err;
	return r;
}

/* Every call on both paths into out[2 * NCALLS]; dumpability unchanged. */
static void table(struct util_answer *out, int *about)
{
	struct table_arg t = { about, prctl(PR_GET_DUMPABLE) };

	util_answer_table(out, NCALLS, call_keeping_dumpable, &t);
}

static int compare(const struct util_answer *got, const struct util_answer *ref,
		   const int *about, bool refused, const char *how)
{
	int bad = 0;

	for (int i = 0; i < 2 * NCALLS; i++) {
		const struct util_answer *g = &got[i], *r = &ref[i];

		if (g->ret == r->ret && g->err == r->err &&
		    !memcmp(&g->info, &r->info, sizeof(r->info)))
			continue;
		if (refused && about[i % NCALLS] == ABOUT_OTHER &&
		    g->ret == -1 && g->err == EACCES)
			continue;
		printf("# %s, call %d (%s path): %ld/%s, dumpable %ld/%s\n",
		       how, i % NCALLS, i < NCALLS ? "native" : "emulated",
		       g->ret, lpfd_errno_name(g->err) ?: "0",
		       r->ret, lpfd_errno_name(r->err) ?: "0");
		bad++;
	}
	return bad;
}

/*
 * The coredump bits follow dumpability, which is what differs: they are
 * compared apart, against PR_GET_DUMPABLE's word.
 */
static void drop_coredump_bits(struct util_answer *a)
{
	for (int i = 0; i < 2 * NCALLS; i++) {
		a[i].info.mask &= ~(uint64_t)PIDFD_INFO_COREDUMP;
		a[i].info.coredump_mask = 0;
	}
}

static void as_nobody(void *arg)
{
	struct util_answer *t = arg; /* by ids, reference, by prctl */
	int about[NCALLS], bad;
	bool refused;

	ASSERT_EQ(setresgid(NOBODY, NOBODY, NOBODY), 0);
	ASSERT_EQ(setresuid(NOBODY, NOBODY, NOBODY), 0);
	ASSERT_EQ(prctl(PR_GET_DUMPABLE), 0);
	refused = util_own_fdinfo_refused();
	table(t, about);
	ASSERT_EQ(prctl(PR_SET_DUMPABLE, 1, 0, 0, 0), 0);
	ASSERT_TRUE(!util_own_fdinfo_refused());
	table(t + 2 * NCALLS, about);
	ASSERT_EQ(prctl(PR_SET_DUMPABLE, 0, 0, 0, 0), 0);
	ASSERT_EQ(util_own_fdinfo_refused(), refused);
	table(t + 4 * NCALLS, about);
	printf("# own fdinfo %s when not dumpable\n",
	       refused ? "refused (before 5.14)" : "readable");
	/* About itself: its own coredump bit says "not dumpable", then not. */
	ASSERT_EQ(t[0].ret, 0);
	ASSERT_EQ(t[0].info.mask & PIDFD_INFO_COREDUMP, PIDFD_INFO_COREDUMP);
	ASSERT_EQ(t[0].info.coredump_mask, PIDFD_COREDUMP_SKIP);
	ASSERT_EQ(t[2 * NCALLS].info.coredump_mask, PIDFD_COREDUMP_USER);
	ASSERT_EQ(t[0].info.pid, (uint32_t)getpid());
	ASSERT_EQ(t[0].info.euid, NOBODY);
	ASSERT_EQ(t[1].ret, 1);
	for (int i = 0; i < 3; i++)
		drop_coredump_bits(t + 2 * i * NCALLS);
	bad = compare(t, t + 2 * NCALLS, about, refused, "changed ids");
	bad += compare(t + 4 * NCALLS, t + 2 * NCALLS, about, refused,
		       "PR_SET_DUMPABLE 0");
	ASSERT_EQ(bad, 0);
	/* Another live process: its answer, or EACCES; never ESRCH. */
	ASSERT_TRUE(t[16].ret == 0 || (refused && t[16].err == EACCES));
	ASSERT_TRUE(t[NCALLS + 16].ret == 0 ||
		    (refused && t[NCALLS + 16].err == EACCES));
	_exit(0);
}

TEST(every_function_answers_the_same_when_not_dumpable)
{
	size_t n = 6 * NCALLS * sizeof(struct util_answer);
	struct util_answer *t = mmap(NULL, n, PROT_READ | PROT_WRITE,
				MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int p[2], status;
	pid_t pid;

	REQUIRE_PRIVILEGE("becomes nobody");
	ASSERT_TRUE(t != MAP_FAILED);
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		ASSERT_EQ(pipe2(p, O_CLOEXEC), 0);
		F.pipe = p[0];
		F.closed = p[1];
		close(p[1]);
		F.self = libpidfd_open(getpid(), 0);
		ASSERT_GE(F.self, 0);
		util_spawn(NULL, NULL, &F.live);
		util_zombie(3, &F.zombie);
		as_nobody(t);
	}
	ASSERT_EQ(waitpid(pid, &status, 0), pid);
	ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	munmap(t, n);
}
