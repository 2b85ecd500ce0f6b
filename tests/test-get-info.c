/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libpidfd_get_info: the native and emulated paths agree, field by field and
 * errno by errno, on the same targets; and both tell the truth, which the
 * test knows independently. Where the kernel has no PIDFD_GET_INFO (Linux
 * 6.1) both calls take the emulation and the truth is what is checked.
 */
#include <fcntl.h>
#include <linux/capability.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/fsuid.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>

#include "harness.h"
#include "internal.h"
#include "util.h"

#define INFO(r) ((struct pidfd_info *)(void *)(r)->buf)
#define WANT (PIDFD_INFO_CGROUPID)

/*
 * Bits the paths may legitimately differ in (docs/architecture.md,
 * "What the emulation can and cannot know"): dumpability of
 * another process is known to the kernel only, and the emulation looks the
 * cgroup up only when asked, and can name it only through a cgroup2 mount
 * in sight (a build chroot may have none: then it leaves the bit clear).
 */
static uint64_t comparable(uint64_t mask, uint64_t req, bool own_process)
{
	if (!own_process)
		mask &= ~(uint64_t)PIDFD_INFO_COREDUMP;
	if (!(req & PIDFD_INFO_CGROUPID) || !util_cgroup2_mount()[0])
		mask &= ~(uint64_t)PIDFD_INFO_CGROUPID;
	return mask;
}

static const struct {
	const char *name;
	size_t offset, size;
	uint64_t bit;
} fields[] = {
#define FIELD(field, offset, since, bit, column)                               \
	{ #field, offset, sizeof(((struct pidfd_info *)0)->field), bit },
	LPFD_INFO_FIELDS(FIELD)
#undef FIELD
};

/*
 * Every field of the list that both answers say they filled is the same;
 * the supported mask says what each path can do, which differs.
 */
static void same_fields(const struct pidfd_info *a, const struct pidfd_info *b,
			bool own_process)
{
	uint64_t both = comparable(a->mask & b->mask, ~0ULL, own_process);

	for (size_t i = 0; i < lpfd_array_size(fields); i++)
		if ((fields[i].bit & both) &&
		    fields[i].bit != PIDFD_INFO_SUPPORTED_MASK &&
		    memcmp((const char *)a + fields[i].offset,
			   (const char *)b + fields[i].offset, fields[i].size))
			FAIL("native and emulated %s differ", fields[i].name);
}

/*
 * Query both paths; they must agree. Returns the native answer (or the
 * emulated one where the kernel lacks the ioctl) in *out.
 */
static void both(int fd, uint64_t mask, size_t size, bool own_process,
		 struct util_res *out)
{
	struct util_res n, e;

	util_get_info(fd, mask, size, true, &e);
	if (!util_have_native_info()) {
		*out = e;
		return;
	}
	util_get_info(fd, mask, size, false, &n);
	ASSERT_EQ(n.ret, e.ret);
	ASSERT_EQ(n.err, e.err);
	if (n.ret == 0) {
		struct pidfd_info *a = INFO(&n), *b = INFO(&e);

		ASSERT_EQ(comparable(a->mask, mask, own_process),
			  comparable(b->mask, mask, own_process));
		if (!(mask & PIDFD_INFO_CGROUPID) || !util_cgroup2_mount()[0])
			ASSERT_TRUE(!(b->mask & PIDFD_INFO_CGROUPID));
		same_fields(a, b, own_process);
		/* Past the struct both leave the caller's bytes alone. */
		ASSERT_TRUE(memcmp(n.buf + 88, e.buf + 88, sizeof(n.buf) - 88) == 0);
	}
	*out = n;
}

static void expect_self(const struct pidfd_info *i, pid_t pid)
{
	unsigned r, e, s;

	ASSERT_TRUE(i->mask & PIDFD_INFO_PID);
	ASSERT_TRUE(i->mask & PIDFD_INFO_CREDS);
	ASSERT_EQ(i->pid, pid);
	ASSERT_EQ(i->tgid, getpid());
	ASSERT_EQ(i->ppid, getppid());
	getresuid(&r, &e, &s);
	ASSERT_EQ(i->ruid, r);
	ASSERT_EQ(i->euid, e);
	ASSERT_EQ(i->suid, s);
	ASSERT_EQ(i->fsuid, setfsuid(-1));
	getresgid(&r, &e, &s);
	ASSERT_EQ(i->rgid, r);
	ASSERT_EQ(i->egid, e);
	ASSERT_EQ(i->sgid, s);
	ASSERT_EQ(i->fsgid, setfsgid(-1));
}

TEST(self_pidfd)
{
	struct util_res r;
	int fd = libpidfd_open(getpid(), 0);

	ASSERT_GE(fd, 0);
	both(fd, WANT | PIDFD_INFO_COREDUMP, sizeof(struct pidfd_info), true, &r);
	ASSERT_EQ(r.ret, 0);
	expect_self(INFO(&r), getpid());
	ASSERT_TRUE(INFO(&r)->mask & PIDFD_INFO_CGROUPID);
	ASSERT_TRUE(INFO(&r)->mask & PIDFD_INFO_COREDUMP);
	ASSERT_EQ(INFO(&r)->coredump_mask,
		  prctl(PR_GET_DUMPABLE) == 1 ? PIDFD_COREDUMP_USER :
						PIDFD_COREDUMP_SKIP);
	close(fd);
}

/* The plain call a program makes: its own pidfd, the default mask. */
TEST(get_info_self_fd)
{
	struct pidfd_info info = { .mask = 0 };
	int fd = libpidfd_open(getpid(), 0);

	ASSERT_GE(fd, 0);
	ASSERT_EQ(libpidfd_get_info(fd, &info, sizeof(info)), 0);
	ASSERT_EQ(info.pid, getpid());
	ASSERT_EQ(info.tgid, getpid());
	ASSERT_EQ(info.ppid, getppid());
	ASSERT_EQ(info.ruid, getuid());
	ASSERT_EQ(info.euid, geteuid());
	ASSERT_TRUE(info.mask & PIDFD_INFO_PID);
	ASSERT_TRUE(info.mask & PIDFD_INFO_CREDS);
	close(fd);
}

/*
 * The library's own struct, passed without a cast (the header's _Generic
 * macro), gets the same answer as struct pidfd_info, byte for byte.
 */
TEST(libpidfd_info_is_answered_as_pidfd_info)
{
	struct libpidfd_info own;
	struct pidfd_info sys;

	memset(&own, 0x5a, sizeof(own));
	memset(&sys, 0x5a, sizeof(sys));
	own.mask = sys.mask = PIDFD_INFO_CGROUPID | PIDFD_INFO_COREDUMP |
			      PIDFD_INFO_SUPPORTED_MASK;
	ASSERT_EQ(sizeof(own), sizeof(sys));
	ASSERT_EQ(libpidfd_get_info(PIDFD_SELF_PROCESS, &own, sizeof(own)), 0);
	ASSERT_EQ(libpidfd_get_info(PIDFD_SELF_PROCESS, &sys, sizeof(sys)), 0);
	ASSERT_EQ(own.pid, getpid());
	ASSERT_EQ(own.euid, geteuid());
	ASSERT_EQ(memcmp(&own, &sys, sizeof(own)), 0);
}

TEST(self_sentinels)
{
	struct util_res r;

	both(PIDFD_SELF_PROCESS, WANT, sizeof(struct pidfd_info), true, &r);
	ASSERT_EQ(r.ret, 0);
	expect_self(INFO(&r), getpid());
	both(LIBPIDFD_SELF_THREAD_GROUP_OLD, WANT, 88, true, &r);
	ASSERT_EQ(r.ret, 0);
	expect_self(INFO(&r), getpid());
	both(PIDFD_SELF, WANT, 88, true, &r);
	ASSERT_EQ(r.ret, 0);
	expect_self(INFO(&r), gettid());
	/* Not a sentinel: no such fd. */
	both(-10002, WANT, 88, true, &r);
	ASSERT_EQ(r.ret, -1);
	ASSERT_EQ(r.err, EBADF);
}

static void *thread_self(void *arg)
{
	struct util_res r;

	(void)arg;
	both(PIDFD_SELF_THREAD, WANT, 88, true, &r);
	ASSERT_EQ(r.ret, 0);
	expect_self(INFO(&r), gettid());
	ASSERT_NE(gettid(), getpid());
	both(PIDFD_SELF_THREAD_GROUP, WANT, 88, true, &r);
	ASSERT_EQ(r.ret, 0);
	expect_self(INFO(&r), getpid());
	return NULL;
}

TEST(self_sentinels_from_thread)
{
	pthread_t t;

	ASSERT_EQ(pthread_create(&t, NULL, thread_self, NULL), 0);
	ASSERT_EQ(pthread_join(t, NULL), 0);
}

TEST(live_child)
{
	struct util_res r;
	int fd;
	pid_t pid = util_spawn(NULL, NULL, &fd);

	both(fd, WANT, 88, false, &r);
	ASSERT_EQ(r.ret, 0);
	ASSERT_EQ(INFO(&r)->pid, pid);
	ASSERT_EQ(INFO(&r)->tgid, pid);
	ASSERT_EQ(INFO(&r)->ppid, getpid());
	ASSERT_EQ(INFO(&r)->euid, geteuid());
	ASSERT_TRUE(INFO(&r)->mask & PIDFD_INFO_CGROUPID);
	/* Without asking: the kernel returns the cgroup anyway, the emulation
	 * spares the lookup; everything else agrees. */
	both(fd, 0, 88, false, &r);
	ASSERT_EQ(r.ret, 0);
	ASSERT_EQ(INFO(&r)->pid, pid);
	util_kill_reap(fd);
}

/*
 * Before 7.1 the native path learns whether a request asks for
 * PIDFD_INFO_SUPPORTED_MASK from the kernel's compare with the last
 * request read, or else by copying it (src/get_info.c): whatever the call
 * before asked, and wherever the struct lies (off 4-alignment the compare
 * refuses), the answer is the same, byte for byte, and carries the bit
 * and the mask exactly where asked. On every path: where the kernel has no
 * PIDFD_GET_INFO the same holds of the emulation.
 */
static void answer_at(int fd, size_t off, uint64_t req, struct pidfd_info *out)
{
	static unsigned char buf[sizeof(*out) + 8] __attribute__((aligned(8)));
	void *at = buf + off;

	memset(buf, 0, sizeof(buf));
	memcpy(at, &req, sizeof(req));
	ASSERT_EQ(libpidfd_get_info(fd, at, sizeof(*out)), 0);
	memcpy(out, at, sizeof(*out));
}

TEST(native_answers_alike_whatever_the_call_before)
{
	static const uint64_t reqs[] = {
		0, PIDFD_INFO_PID, PIDFD_INFO_SUPPORTED_MASK,
		PIDFD_INFO_CGROUPID | PIDFD_INFO_SUPPORTED_MASK,
		~(uint64_t)PIDFD_INFO_SUPPORTED_MASK, ~0ULL,
	};
	static const size_t offs[] = { 0, 4, 1 };
	struct pidfd_info want[lpfd_array_size(reqs)], got;
	int fd;

	util_spawn(NULL, NULL, &fd);
	util_set_path(false);
	for (size_t q = 0; q < lpfd_array_size(reqs); q++) {
		answer_at(fd, 0, reqs[q], &want[q]);
		answer_at(fd, 0, reqs[q], &got); /* the hint is this request */
		ASSERT_TRUE(memcmp(&got, &want[q], sizeof(got)) == 0);
		ASSERT_EQ(!!(got.mask & PIDFD_INFO_SUPPORTED_MASK),
			  !!(reqs[q] & PIDFD_INFO_SUPPORTED_MASK));
		ASSERT_EQ(!!(got.supported_mask & PIDFD_INFO_PID),
			  !!(reqs[q] & PIDFD_INFO_SUPPORTED_MASK));
	}
	for (size_t o = 0; o < lpfd_array_size(offs); o++)
		for (size_t p = 0; p < lpfd_array_size(reqs); p++)
			for (size_t q = 0; q < lpfd_array_size(reqs); q++) {
				answer_at(fd, offs[o], reqs[p], &got);
				answer_at(fd, offs[o], reqs[q], &got);
				ASSERT_TRUE(memcmp(&got, &want[q], sizeof(got)) == 0);
			}
	util_kill_reap(fd);
}

/* ids that differ in every slot: real, effective, saved, filesystem */
static void become_odd_creds(void *arg)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];

	(void)arg;
	if (setresgid(11, 12, 13) || setfsgid(14) < 0 ||
	    prctl(PR_SET_KEEPCAPS, 1) || setresuid(1, 2, 3))
		_exit(90);
	if (syscall(SYS_capget, &h, d))
		_exit(91);
	d[0].effective |= 1u << CAP_SETUID;
	if (syscall(SYS_capset, &h, d))
		_exit(92);
	setfsuid(4);
	if (setfsuid(-1) != 4)
		_exit(93);
}

TEST(child_with_distinct_credentials)
{
	struct util_res r;
	int fd;

	REQUIRE_PRIVILEGE("gives a child other credentials");
	util_spawn(become_odd_creds, NULL, &fd);
	both(fd, WANT, 88, false, &r);
	ASSERT_EQ(r.ret, 0);
	ASSERT_EQ(INFO(&r)->ruid, 1);
	ASSERT_EQ(INFO(&r)->euid, 2);
	ASSERT_EQ(INFO(&r)->suid, 3);
	ASSERT_EQ(INFO(&r)->fsuid, 4);
	ASSERT_EQ(INFO(&r)->rgid, 11);
	ASSERT_EQ(INFO(&r)->egid, 12);
	ASSERT_EQ(INFO(&r)->sgid, 13);
	ASSERT_EQ(INFO(&r)->fsgid, 14);
	util_kill_reap(fd);
}

TEST(zombie_has_no_exit_status)
{
	struct util_res r;
	int fd;
	pid_t pid = util_zombie(3, &fd);

	both(fd, WANT | PIDFD_INFO_EXIT, 88, false, &r);
	ASSERT_EQ(r.ret, 0);
	ASSERT_EQ(INFO(&r)->pid, pid);
	ASSERT_EQ(INFO(&r)->ppid, getpid());
	ASSERT_TRUE(!(INFO(&r)->mask & PIDFD_INFO_EXIT));
	util_kill_reap(fd);
}

TEST(reaped_child)
{
	struct util_res n, e;
	siginfo_t si;
	int fd;

	util_zombie(3, &fd);
	ASSERT_EQ(waitid(P_PIDFD, (id_t)fd, &si, WEXITED), 0);
	/* Without PIDFD_INFO_EXIT, both: ESRCH. */
	both(fd, WANT, 88, false, &n);
	ASSERT_EQ(n.ret, -1);
	ASSERT_EQ(n.err, ESRCH);
	/* With it, the emulation cannot know (ESRCH); the kernel may. */
	util_get_info(fd, PIDFD_INFO_EXIT, 88, true, &e);
	ASSERT_EQ(e.ret, -1);
	ASSERT_EQ(e.err, ESRCH);
	util_get_info(fd, PIDFD_INFO_EXIT, 88, false, &n);
	if (util_exit_after_reap()) {
		ASSERT_EQ(n.ret, 0);
		ASSERT_EQ(INFO(&n)->mask & (PIDFD_INFO_EXIT | PIDFD_INFO_PID),
			  PIDFD_INFO_EXIT);
		ASSERT_EQ(INFO(&n)->exit_code, 3 << 8);
	} else {
		ASSERT_EQ(n.ret, -1);
		ASSERT_EQ(n.err, ESRCH);
	}
	close(fd);
}

/*
 * The kernel keeps a dump's details (6.16 on) only for a dump through a
 * coredump socket: core_pattern "@PATH", a setting of the whole machine.
 * It is changed only where the machine is the test's (the user-mode-linux
 * guest, which tests/uml.sh marks with TEST_OWNS_MACHINE), and put back
 * as soon as the dump has arrived.
 */
struct core_socket {
	int listener, pattern;
	char old[256];
};

static bool may_dump_to_a_socket(void)
{
	return getenv("TEST_OWNS_MACHINE") &&
	       util_native(LPFD_FEAT_INFO_COREDUMP);
}

static void core_socket_open(struct core_socket *cs, const char *dir)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	char pattern[sizeof(a.sun_path) + 1];
	ssize_t n;

	snprintf(a.sun_path, sizeof(a.sun_path), "%s/core.sock", dir);
	snprintf(pattern, sizeof(pattern), "@%s", a.sun_path);
	cs->listener = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	ASSERT_GE(cs->listener, 0);
	ASSERT_EQ(bind(cs->listener, (struct sockaddr *)&a, sizeof(a)), 0);
	ASSERT_EQ(listen(cs->listener, 1), 0);
	cs->pattern = open("/proc/sys/kernel/core_pattern", O_RDWR | O_CLOEXEC);
	ASSERT_GE(cs->pattern, 0);
	n = read(cs->pattern, cs->old, sizeof(cs->old) - 1);
	ASSERT_GE(n, 1);
	cs->old[n] = '\0';
	ASSERT_EQ(pwrite(cs->pattern, pattern, strlen(pattern), 0),
		  (ssize_t)strlen(pattern));
}

/* The dump, read to its end: until then the child cannot finish dying. */
static void core_socket_drain(struct core_socket *cs, int pidfd)
{
	struct pollfd p[2] = { { .fd = cs->listener, .events = POLLIN },
			       { .fd = pidfd, .events = POLLIN } };
	char buf[65536];
	ssize_t n, total = 0;
	int c = -1;

	ASSERT_GE(poll(p, 2, -1), 1);
	if (p[0].revents & POLLIN)
		c = accept4(cs->listener, NULL, NULL, SOCK_CLOEXEC);
	while (c >= 0 && (n = read(c, buf, sizeof(buf))) > 0)
		total += n;
	ASSERT_GE(pwrite(cs->pattern, cs->old, strlen(cs->old), 0), 0);
	close(cs->pattern);
	close(cs->listener);
	ASSERT_GE(c, 0); /* the kernel connected, not the child exited */
	close(c);
	ASSERT_GE(total, 1);
}

/* A child that dumped core, reaped; whether through a socket. */
static bool reaped_core_dump(int *pidfd)
{
	char dir[] = "/tmp/libpidfd-core.XXXXXX", cmd[64];
	bool to_socket = may_dump_to_a_socket();
	struct core_socket cs;
	siginfo_t si;
	pid_t pid;

	ASSERT_TRUE(mkdtemp(dir) != NULL);
	if (to_socket)
		core_socket_open(&cs, dir);
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0)
		util_dump_core(dir);
	*pidfd = libpidfd_open(pid, 0);
	ASSERT_GE(*pidfd, 0);
	if (to_socket)
		core_socket_drain(&cs, *pidfd);
	ASSERT_EQ(waitid(P_PIDFD, (id_t)*pidfd, &si, WEXITED), 0);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	ASSERT_EQ(system(cmd), 0);
	ASSERT_EQ(si.si_code, CLD_DUMPED);
	return to_socket;
}

/*
 * A child that dumped core, reaped: how it ended is the kernel's to keep
 * (6.15), with the core's bit in the exit code; the emulation cannot know
 * (ESRCH), as for any reaped process. Where the kernel answers
 * PIDFD_INFO_COREDUMP (6.16) the library hands on its answer as the
 * kernel wrote it, and for a dump through a socket that answer says what
 * happened: dumped, as the user, by SIGSEGV (6.19), raised with tgkill
 * (7.1). For a dump to a file the kernel keeps nothing: 6.16-6.19 set the
 * COREDUMP bit over an empty mask, 7.x leaves it clear.
 */
TEST(reaped_child_that_dumped_core)
{
	const uint64_t req = PIDFD_INFO_EXIT | PIDFD_INFO_COREDUMP |
		PIDFD_INFO_COREDUMP_SIGNAL | PIDFD_INFO_COREDUMP_CODE;
	struct pidfd_info raw = { .mask = req }, *i;
	struct util_res n, e;
	int fd;
	bool to_socket = reaped_core_dump(&fd);

	util_get_info(fd, req, sizeof(struct pidfd_info), true, &e);
	ASSERT_EQ(e.ret, -1);
	ASSERT_EQ(e.err, ESRCH);
	util_get_info(fd, req, sizeof(struct pidfd_info), false, &n);
	i = INFO(&n);
	if (!util_exit_after_reap()) {
		ASSERT_EQ(n.ret, -1);
		ASSERT_EQ(n.err, ESRCH);
	} else {
		ASSERT_EQ(n.ret, 0);
		ASSERT_TRUE(i->mask & PIDFD_INFO_EXIT);
		ASSERT_EQ(i->exit_code, SIGSEGV | 0x80); /* WCOREDUMP */
	}
	if (util_native(LPFD_FEAT_INFO_COREDUMP)) {
		ASSERT_EQ(ioctl(fd, PIDFD_GET_INFO, &raw), 0);
		ASSERT_EQ(memcmp(i, &raw, sizeof(raw)), 0);
	}
	close(fd);
	if (!to_socket)
		return;
	ASSERT_TRUE(i->mask & PIDFD_INFO_COREDUMP);
	ASSERT_EQ(i->coredump_mask, PIDFD_COREDUMPED | PIDFD_COREDUMP_USER);
	if (util_native(LPFD_FEAT_INFO_SUPPORTED)) {
		ASSERT_TRUE(i->mask & PIDFD_INFO_COREDUMP_SIGNAL);
		ASSERT_EQ(i->coredump_signal, SIGSEGV);
	}
	if (util_native(LPFD_FEAT_INFO_CODE)) {
		ASSERT_TRUE(i->mask & PIDFD_INFO_COREDUMP_CODE);
		ASSERT_EQ((int)i->coredump_code, SI_TKILL); /* raise(3) */
	}
}

TEST(thread_pidfd)
{
	struct util_parked t;
	struct util_res r;
	pid_t thread_tid = util_park_thread(&t);
	int fd;

	fd = libpidfd_open(thread_tid, PIDFD_THREAD);
	if (lpfd_kernel_has(LPFD_FEAT_PIDFD_THREAD) > 0) {
		ASSERT_GE(fd, 0);
		both(fd, WANT, 88, true, &r);
		ASSERT_EQ(r.ret, 0);
		ASSERT_EQ(INFO(&r)->pid, thread_tid);
		ASSERT_EQ(INFO(&r)->tgid, getpid());
		ASSERT_EQ(INFO(&r)->ppid, getppid());
		close(fd);
	} else {
		/* Before 6.9 no kernel can name a thread with a pidfd. */
		ASSERT_EQ(fd, -1);
		ASSERT_EQ(errno, EINVAL);
	}
	util_unpark_thread(&t);
}

/*
 * A process in a child pid namespace is seen with its pid in ours; from
 * inside that namespace (with its own /proc) our process is not visible:
 * EREMOTE on both paths.
 */
static int outside_pidfd;

static void outside_process_is_eremote(void)
{
	struct util_res r;

	ASSERT_EQ(getpid(), 1);
	both(outside_pidfd, WANT, 88, false, &r);
	ASSERT_EQ(r.ret, -1);
	ASSERT_EQ(r.err, EREMOTE);
	ASSERT_ERRNO(libpidfd_getpid(outside_pidfd), EREMOTE);
}

TEST(child_pid_namespace)
{
	outside_pidfd = libpidfd_open(getpid(), 0);
	ASSERT_GE(outside_pidfd, 0);
	util_in_pidns(outside_process_is_eremote, true);
}

TEST(child_in_pid_namespace_seen_from_parent)
{
	struct util_res r;
	int fd;
	pid_t pid;

	REQUIRE_PRIVILEGE("creates a pid namespace");
	ASSERT_EQ(unshare(CLONE_NEWPID), 0);
	pid = util_spawn(NULL, NULL, &fd);
	both(fd, WANT, 88, false, &r);
	ASSERT_EQ(r.ret, 0);
	ASSERT_EQ(INFO(&r)->pid, pid);
	ASSERT_EQ(INFO(&r)->ppid, getpid());
	util_kill_reap(fd);
}

static void expect_error(int fd, int err)
{
	struct util_res r;

	both(fd, WANT, 88, false, &r);
	ASSERT_EQ(r.ret, -1);
	ASSERT_EQ(r.err, err);
}

TEST(fds_that_are_not_pidfds)
{
	char path[64];
	int p[2], f, d;

	f = open("/proc/self/status", O_RDONLY | O_CLOEXEC);
	ASSERT_GE(f, 0);
	expect_error(f, ENOTTY);
	ASSERT_EQ(pipe2(p, O_CLOEXEC), 0);
	expect_error(p[0], ENOTTY);
	snprintf(path, sizeof(path), "/proc/%d", getpid());
	d = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ASSERT_GE(d, 0);
	expect_error(d, ENOTTY);
	close(f);
	close(p[0]);
	close(p[1]);
	close(d);
	expect_error(d, EBADF);
	expect_error(-1, EBADF);
	expect_error(INT32_MIN, EBADF);
}

TEST(null_and_small_sizes)
{
	int fd = libpidfd_open(getpid(), 0);
	int p[2];

	ASSERT_GE(fd, 0);
	for (int emulate = 0; emulate < 2; emulate++) {
		util_set_path(emulate);
		ASSERT_ERRNO(libpidfd_get_info(fd, NULL, 88), EINVAL);
		ASSERT_ERRNO(libpidfd_get_info(PIDFD_SELF, NULL, 88), EINVAL);
		/* The fd is judged first, as the kernel's ioctl does. */
		ASSERT_EQ(pipe2(p, O_CLOEXEC), 0);
		ASSERT_ERRNO(libpidfd_get_info(p[0], NULL, 88), ENOTTY);
		close(p[0]);
		close(p[1]);
		ASSERT_ERRNO(libpidfd_get_info(p[0], NULL, 88), EBADF);
	}
	close(fd);
}

/* Every size from 0 to 128: below 64 EINVAL; the tail past 88 zeroed; past
 * the size nothing touched. */
TEST(every_struct_size)
{
	struct util_res r;
	int fd = libpidfd_open(getpid(), 0);

	ASSERT_GE(fd, 0);
	for (size_t size = 0; size <= 128; size++) {
		both(fd, WANT | PIDFD_INFO_SUPPORTED_MASK, size, true, &r);
		if (size < PIDFD_INFO_SIZE_VER0) {
			ASSERT_EQ(r.ret, -1);
			ASSERT_EQ(r.err, EINVAL);
			for (size_t i = 8; i < sizeof(r.buf); i++)
				ASSERT_EQ(r.buf[i], 0xa5);
			continue;
		}
		ASSERT_EQ(r.ret, 0);
		ASSERT_EQ(INFO(&r)->pid, getpid());
		for (size_t i = 88; i < size; i++)
			ASSERT_EQ(r.buf[i], 0);
		for (size_t i = size; i < sizeof(r.buf); i++)
			ASSERT_EQ(r.buf[i], 0xa5);
		if (size >= 88) {
			ASSERT_TRUE(INFO(&r)->mask & PIDFD_INFO_SUPPORTED_MASK);
			ASSERT_EQ(INFO(&r)->supported_mask &
				  (PIDFD_INFO_PID | PIDFD_INFO_CREDS |
				   PIDFD_INFO_CGROUPID | PIDFD_INFO_SUPPORTED_MASK),
				  PIDFD_INFO_PID | PIDFD_INFO_CREDS |
				  PIDFD_INFO_CGROUPID | PIDFD_INFO_SUPPORTED_MASK);
		}
	}
	close(fd);
}

TEST(unknown_mask_bits_are_ignored)
{
	struct util_res r;
	int fd = libpidfd_open(getpid(), 0);

	ASSERT_GE(fd, 0);
	both(fd, WANT | (1ULL << 8) | (1ULL << 40) | (1ULL << 63), 88, true, &r);
	ASSERT_EQ(r.ret, 0);
	ASSERT_EQ(INFO(&r)->mask & ~0xffULL, 0);
	ASSERT_EQ(INFO(&r)->mask & (PIDFD_INFO_PID | PIDFD_INFO_CREDS),
		  PIDFD_INFO_PID | PIDFD_INFO_CREDS);
	close(fd);
}

TEST(supported_mask_tells_the_truth)
{
	struct util_res r;
	uint64_t want = PIDFD_INFO_PID | PIDFD_INFO_CREDS | PIDFD_INFO_CGROUPID |
			PIDFD_INFO_SUPPORTED_MASK;

	util_get_info(PIDFD_SELF, PIDFD_INFO_SUPPORTED_MASK, 88, true, &r);
	ASSERT_EQ(r.ret, 0);
	/* The emulation never knows an exit status (only after reap, and then
	 * not at all), but does know the caller's dumpability. */
	ASSERT_EQ(INFO(&r)->supported_mask, want | PIDFD_INFO_COREDUMP);
	util_get_info(PIDFD_SELF, PIDFD_INFO_SUPPORTED_MASK, 88, false, &r);
	ASSERT_EQ(r.ret, 0);
	if (util_have_native_info()) {
		ASSERT_EQ(INFO(&r)->supported_mask & want, want);
		ASSERT_EQ(!!(INFO(&r)->supported_mask & PIDFD_INFO_EXIT),
			  lpfd_kernel_has(LPFD_FEAT_INFO_EXIT) > 0);
	}
}

/*
 * supported_mask claims what this call can answer, on this kernel, path
 * and caller, and nothing more: every bit it claims for a process is
 * returned when asked of that process (EXIT once it is reaped), and the
 * core-dump details only where the kernel has them (the library cannot
 * make them up).
 */
static uint64_t claimed(int fd, bool emulate)
{
	struct util_res r;

	util_get_info(fd, PIDFD_INFO_SUPPORTED_MASK, 88, emulate, &r);
	ASSERT_EQ(r.ret, 0);
	ASSERT_TRUE(INFO(&r)->mask & PIDFD_INFO_SUPPORTED_MASK);
	return INFO(&r)->supported_mask;
}

static void expect_answered(int fd, bool emulate, uint64_t claim,
			    uint64_t bits)
{
	struct util_res r;

	for (int b = 0; b < 64; b++) {
		uint64_t bit = 1ULL << b;

		if (!(claim & bits & bit))
			continue;
		util_get_info(fd, bit, 88, emulate, &r);
		ASSERT_EQ(r.ret, 0);
		if (!(INFO(&r)->mask & bit))
			FAIL("%s path: claims %#llx, does not return it",
			     emulate ? "emulated" : "kernel's",
			     (unsigned long long)bit);
	}
}

static void expect_only_existing(uint64_t claim, bool emulate)
{
	bool native = !emulate && util_have_native_info();

	if (claim & PIDFD_INFO_COREDUMP_SIGNAL)
		ASSERT_TRUE(native && util_kernel_has(LPFD_FEAT_INFO_SUPPORTED));
	if (claim & PIDFD_INFO_COREDUMP_CODE)
		ASSERT_TRUE(native && util_kernel_has(LPFD_FEAT_INFO_CODE));
	if (claim & PIDFD_INFO_EXIT)
		ASSERT_TRUE(native && util_kernel_has(LPFD_FEAT_INFO_EXIT));
}

TEST(supported_mask_claims_only_what_the_call_answers)
{
	const uint64_t live = PIDFD_INFO_PID | PIDFD_INFO_CREDS |
			      PIDFD_INFO_COREDUMP;
	siginfo_t si;

	for (int emulate = 1; emulate >= 0; emulate--) {
		int self = libpidfd_open(getpid(), 0), fd;
		uint64_t c;
		pid_t pid;

		ASSERT_GE(self, 0);
		c = claimed(self, emulate);
		expect_only_existing(c, emulate);
		expect_answered(self, emulate, c, live);
		ASSERT_EQ(claimed(PIDFD_SELF, emulate), c);
		close(self);

		/* Another process: claimed while it runs, asked as it stops. */
		util_spawn(NULL, NULL, &fd);
		c = claimed(fd, emulate);
		expect_only_existing(c, emulate);
		expect_answered(fd, emulate, c, live);
		util_kill_reap_keep_fd(fd);
		expect_answered(fd, emulate, c, PIDFD_INFO_EXIT);
		close(fd);

		/* Reaped by a waitid() the library never saw. */
		pid = util_zombie(3, &fd);
		c = claimed(fd, emulate);
		expect_only_existing(c, emulate);
		ASSERT_EQ(waitid(P_PID, (id_t)pid, &si, WEXITED), 0);
		expect_answered(fd, emulate, c, PIDFD_INFO_EXIT);
		close(fd);
	}
}

/* A cgroup of our own: the id both paths give is the directory's. */
TEST(cgroup_id_of_a_child_in_its_own_cgroup)
{
	char dir[600];
	struct util_res r;
	int fd;
	pid_t pid;
	const char *mnt = util_cgroup2_mount();

	REQUIRE_PRIVILEGE("creates a cgroup");
	ASSERT_TRUE(mnt[0]); /* the suite mounts cgroup2 where there is none */
	snprintf(dir, sizeof(dir), "%s/libpidfd-test-%d", mnt, getpid());
	ASSERT_EQ(mkdir(dir, 0755), 0);
	pid = util_spawn(NULL, NULL, &fd);
	util_cgroup_move(dir, pid);
	both(fd, WANT, 88, false, &r);
	ASSERT_EQ(r.ret, 0);
	ASSERT_TRUE(INFO(&r)->mask & PIDFD_INFO_CGROUPID);
	ASSERT_EQ(INFO(&r)->cgroupid, util_cgroup_id(dir));
	util_kill_reap(fd);
	util_cgroup_remove(dir);
}
