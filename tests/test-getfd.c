/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libpidfd_getfd on the sentinels (the seeds' pidfd_getfd_test.c checks):
 * a memfd duplicated through each sentinel and mapped to prove it is the
 * same file, from the main thread and from a thread with its own file
 * table, where PIDFD_SELF_THREAD reads the thread's table and
 * PIDFD_SELF_THREAD_GROUP the leader's.
 */
#include <fcntl.h>
#include <pthread.h>
#include <semaphore.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "util.h"

/* A memfd of one page whose first byte is c. */
static int memfd_with(char c)
{
	long page = sysconf(_SC_PAGESIZE);
	int fd = memfd_create("sentinel-getfd", 0);
	char *p;

	ASSERT_GE(fd, 0);
	ASSERT_EQ(ftruncate(fd, page), 0);
	p = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ASSERT_TRUE(p != MAP_FAILED);
	p[0] = c;
	ASSERT_EQ(munmap(p, page), 0);
	return fd;
}

/* Map fd and return its first byte. */
static char first_byte(int fd)
{
	long page = sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, page, PROT_READ, MAP_SHARED, fd, 0), c;

	ASSERT_TRUE(p != MAP_FAILED);
	c = p[0];
	ASSERT_EQ(munmap(p, page), 0);
	return c;
}

/*
 * The kernel's answer for a real pidfd where it has no pidfd_getfd
 * (before 5.6), else 0; the sentinels are the library's on every kernel.
 */
static int nosys(void)
{
	return util_kernel_has(LPFD_FEAT_GETFD) ? 0 : ENOSYS;
}

/* getfd(value, fd) gives a new close-on-exec fd of the file whose byte is c. */
static void expect_dup(int value, int fd, char c)
{
	int nfd = libpidfd_getfd(value, fd, 0);

	if (value >= 0 && nosys()) {
		ASSERT_EQ(nfd, -1);
		ASSERT_EQ(errno, ENOSYS);
		return;
	}
	ASSERT_GE(nfd, 0);
	ASSERT_NE(nfd, fd);
	ASSERT_EQ(fcntl(nfd, F_GETFD), FD_CLOEXEC);
	ASSERT_EQ(first_byte(nfd), c);
	close(nfd);
}

static void check_main_thread(void *arg)
{
	int memfd = memfd_with('x');

	(void)arg;
	for (size_t i = 0; i < UTIL_COUNT(util_self_values); i++)
		expect_dup(util_self_values[i], memfd, 'x');
	close(memfd);
}

TEST(getfd_memfd_from_main_thread)
{
	util_both_paths(check_main_thread, NULL);
}

static void *second_thread_shared_table(void *arg)
{
	int memfd = *(int *)arg;

	for (size_t i = 0; i < UTIL_COUNT(util_self_values); i++)
		expect_dup(util_self_values[i], memfd, 'x');
	return NULL;
}

static void check_second_thread(void *arg)
{
	int memfd = memfd_with('x');

	(void)arg;
	util_in_thread(second_thread_shared_table, &memfd);
	close(memfd);
}

TEST(getfd_memfd_from_second_thread)
{
	util_both_paths(check_second_thread, NULL);
}

/*
 * The thread unshares its file table; then fd numbers in it and in the
 * leader's name different files, or none at all.
 */
enum { ONLY_THREAD = 900, ONLY_LEADER = 901, BOTH = 902 };

struct unshared {
	sem_t unshared, leader_ready;
};

static void *unsharing_thread(void *arg)
{
	struct unshared *u = arg;
	int mine;

	ASSERT_EQ(unshare(CLONE_FILES), 0);
	mine = memfd_with('t');
	ASSERT_EQ(dup2(mine, ONLY_THREAD), ONLY_THREAD);
	ASSERT_EQ(dup2(mine, BOTH), BOTH);
	close(mine);
	sem_post(&u->unshared);
	sem_wait(&u->leader_ready);

	for (int emulate = 1; emulate >= 0; emulate--) {
		util_set_path(emulate);
		/* The thread's own table: its fds, not the leader's. */
		expect_dup(PIDFD_SELF_THREAD, ONLY_THREAD, 't');
		expect_dup(PIDFD_SELF_THREAD, BOTH, 't');
		ASSERT_ERRNO(libpidfd_getfd(PIDFD_SELF_THREAD, ONLY_LEADER, 0),
			     EBADF);
		/* The leader's table, under both spellings of the group. */
		for (size_t i = 1; i < UTIL_COUNT(util_self_values); i++) {
			if (nosys()) { /* only the kernel reads another table */
				ASSERT_ERRNO(libpidfd_getfd(util_self_values[i],
							    BOTH, 0), ENOSYS);
				continue;
			}
			expect_dup(util_self_values[i], ONLY_LEADER, 'l');
			expect_dup(util_self_values[i], BOTH, 'l');
			ASSERT_ERRNO(libpidfd_getfd(util_self_values[i], ONLY_THREAD, 0),
				     EBADF);
		}
	}
	return NULL;
}

TEST(getfd_from_thread_with_own_file_table)
{
	struct unshared u;
	pthread_t th;
	int leaders;

	sem_init(&u.unshared, 0, 0);
	sem_init(&u.leader_ready, 0, 0);
	ASSERT_EQ(pthread_create(&th, NULL, unsharing_thread, &u), 0);
	sem_wait(&u.unshared);
	leaders = memfd_with('l');
	ASSERT_EQ(dup2(leaders, ONLY_LEADER), ONLY_LEADER);
	ASSERT_EQ(dup2(leaders, BOTH), BOTH);
	close(leaders);
	sem_post(&u.leader_ready);
	ASSERT_EQ(pthread_join(th, NULL), 0);
}

static void check_errors(void *arg)
{
	int memfd = memfd_with('x'), closed = memfd_with('c');

	(void)arg;
	close(closed);
	for (size_t i = 0; i < UTIL_COUNT(util_self_values); i++) {
		ASSERT_ERRNO(libpidfd_getfd(util_self_values[i], memfd, 1), EINVAL);
		ASSERT_ERRNO(libpidfd_getfd(util_self_values[i], -1, 1), EINVAL);
		ASSERT_ERRNO(libpidfd_getfd(util_self_values[i], -1, 0), EBADF);
		ASSERT_ERRNO(libpidfd_getfd(util_self_values[i], closed, 0), EBADF);
		ASSERT_ERRNO(libpidfd_getfd(util_self_values[i], INT_MAX, 0), EBADF);
	}
	for (size_t i = 0; i < UTIL_COUNT(util_bad_values); i++) {
		ASSERT_ERRNO(libpidfd_getfd(util_bad_values[i], memfd, 0),
			     nosys() ?: EBADF);
		ASSERT_ERRNO(libpidfd_getfd(util_bad_values[i], memfd, 1),
			     nosys() ?: EINVAL);
	}
	close(memfd);
}

TEST(getfd_errors_match_kernel)
{
	util_both_paths(check_errors, NULL);
}

/* A pidfd on ourselves and a sentinel give the same file, and O_PATH fds too. */
TEST(getfd_real_pidfd_agrees)
{
	int memfd = memfd_with('r'), pfd = libpidfd_open(getpid(), 0);
	int opath = open("/", O_PATH | O_CLOEXEC), a, b;
	struct stat sa, sb;

	ASSERT_GE(pfd, 0);
	ASSERT_GE(opath, 0);
	expect_dup(pfd, memfd, 'r');
	b = libpidfd_getfd(PIDFD_SELF, opath, 0);
	ASSERT_GE(b, 0);
	ASSERT_EQ(fcntl(b, F_GETFL) & O_PATH, O_PATH);
	if (nosys()) {
		ASSERT_ERRNO(libpidfd_getfd(pfd, opath, 0), ENOSYS);
	} else {
		a = libpidfd_getfd(pfd, opath, 0);
		ASSERT_GE(a, 0);
		ASSERT_EQ(fstat(a, &sa), 0);
		ASSERT_EQ(fstat(b, &sb), 0);
		ASSERT_EQ(sa.st_ino, sb.st_ino);
		close(a);
	}
	close(b);
	close(opath);
	close(pfd);
	close(memfd);
}

/* Nothing cached: a child after fork() reads its own table. */
TEST(getfd_after_fork_reads_child_table)
{
	int memfd = memfd_with('p'), status;
	pid_t pid;

	expect_dup(PIDFD_SELF_PROCESS, memfd, 'p');
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		int mine = memfd_with('k');

		ASSERT_EQ(dup2(mine, 950), 950);
		expect_dup(PIDFD_SELF_PROCESS, 950, 'k');
		expect_dup(PIDFD_SELF, 950, 'k');
		_exit(0);
	}
	ASSERT_EQ(waitpid(pid, &status, 0), pid);
	ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	ASSERT_ERRNO(libpidfd_getfd(PIDFD_SELF_PROCESS, 950, 0), EBADF);
	close(memfd);
}

/*
 * A target that exited is ESRCH on every kernel, as from Linux 6.9 on
 * (5.10 says EBADF once the target has let go of its file table), whether
 * it is unreaped or killed; a live target without that fd stays EBADF.
 * (test-dumpable asks the same as a caller that is not dumpable.)
 */
static void getfd_of_exited(void *arg)
{
	int zombie, killed, live;

	(void)arg;
	util_zombie(0, &zombie);
	util_spawn(NULL, NULL, &killed);
	util_spawn(NULL, NULL, &live);
	ASSERT_EQ(libpidfd_send_signal(killed, SIGKILL, NULL, 0), 0);
	util_wait_exit(killed);
	ASSERT_ERRNO(libpidfd_getfd(zombie, 0, 0), nosys() ?: ESRCH);
	ASSERT_ERRNO(libpidfd_getfd(killed, 0, 0), nosys() ?: ESRCH);
	ASSERT_ERRNO(libpidfd_getfd(live, 987, 0), nosys() ?: EBADF);
	libpidfd_send_signal(live, SIGKILL, NULL, 0);
	close(zombie);
	close(killed);
	close(live);
}

TEST(getfd_of_an_exited_target_is_esrch)
{
	util_both_paths(getfd_of_exited, NULL);
}
