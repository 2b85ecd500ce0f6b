/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "internal.h"
#include "util.h"

#ifndef P_PIDFD
#define P_PIDFD 3
#endif

pid_t util_spawn(void (*fn)(void *), void *arg, int *pidfd)
{
	int ready[2];
	char c = 0;
	pid_t pid;

	ASSERT_EQ(pipe2(ready, O_CLOEXEC), 0);
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (fn)
			fn(arg);
		if (write(ready[1], &c, 1) != 1)
			_exit(99);
		for (;;)
			pause();
	}
	close(ready[1]);
	ASSERT_EQ(read(ready[0], &c, 1), 1);
	close(ready[0]);
	*pidfd = libpidfd_open(pid, 0);
	ASSERT_GE(*pidfd, 0);
	return pid;
}

pid_t util_zombie(int code, int *pidfd)
{
	int go[2];
	char c = 0;
	pid_t pid;

	ASSERT_EQ(pipe2(go, O_CLOEXEC), 0);
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		if (read(go[0], &c, 1) != 1)
			_exit(98);
		_exit(code);
	}
	close(go[0]);
	*pidfd = libpidfd_open(pid, 0);
	ASSERT_GE(*pidfd, 0);
	ASSERT_EQ(write(go[1], &c, 1), 1);
	close(go[1]);
	util_wait_exit(*pidfd);
	return pid;
}

void util_wait_exit(int pidfd)
{
	struct pollfd p = { .fd = pidfd, .events = POLLIN };

	/* No time limit of its own: the harness's timeout, which scales. */
	ASSERT_EQ(poll(&p, 1, -1), 1);
}

void util_kill_reap(int pidfd)
{
	siginfo_t si;

	syscall(SYS_pidfd_send_signal, pidfd, SIGKILL, NULL, 0);
	ASSERT_EQ(waitid(P_PIDFD, (id_t)pidfd, &si, WEXITED), 0);
	close(pidfd);
}

void util_get_info(int fd, uint64_t mask, size_t size, bool emulate,
		   struct util_res *r)
{
	struct pidfd_info *info = (struct pidfd_info *)(void *)r->buf;

	memset(r->buf, 0xa5, sizeof(r->buf));
	info->mask = mask;
	lpfd_emulate_override(emulate);
	errno = 0;
	r->ret = libpidfd_get_info(fd, info, size);
	r->err = errno;
}

bool util_have_native_info(void)
{
	return lpfd_kernel_has(LPFD_FEAT_GET_INFO) > 0;
}

bool util_kernel_has(int feat)
{
	return lpfd_kernel_has((enum lpfd_feature)feat) > 0;
}

bool util_native(int feat)
{
	return lpfd_native((enum lpfd_feature)feat) > 0;
}

bool util_kernel_gives_exit_after_reap(void)
{
	struct pidfd_info info = { .mask = PIDFD_INFO_EXIT };
	siginfo_t si;
	int fd, r;

	util_zombie(0, &fd);
	ASSERT_EQ(waitid(P_PIDFD, (id_t)fd, &si, WEXITED), 0);
	r = ioctl(fd, PIDFD_GET_INFO, &info);
	close(fd);
	return r == 0 && (info.mask & PIDFD_INFO_EXIT);
}

bool util_exit_after_reap(void)
{
	if (util_native(LPFD_FEAT_INFO_EXIT))
		return true;
	if (!getenv("TEST_PERSONALITY") || !util_native(LPFD_FEAT_GET_INFO))
		return false;
	return util_kernel_gives_exit_after_reap();
}

bool util_kernel_has_peerpidfd(void)
{
	int sv[2], fd = -1;
	socklen_t len = sizeof(fd);
	int r;

	ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
	r = getsockopt(sv[0], SOL_SOCKET, 77 /* SO_PEERPIDFD */, &fd, &len);
	if (r < 0)
		ASSERT_EQ(errno, ENOPROTOOPT);
	else
		close(fd);
	close(sv[0]);
	close(sv[1]);
	return r == 0;
}

void util_as_pidns_init(void (*fn)(void))
{
	pid_t init;
	int status;

	ASSERT_EQ(unshare(CLONE_NEWPID), 0);
	init = fork();
	ASSERT_GE(init, 0);
	if (init == 0) {
		if (unshare(CLONE_NEWNS) ||
		    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
		    mount("proc", "/proc", "proc", 0, NULL))
			_exit(80);
		fn();
		_exit(0);
	}
	ASSERT_EQ(waitpid(init, &status, 0), init);
	ASSERT_EQ(status, 0);
}

const char *util_cgroup2_mount(void)
{
	static char mnt[512];
	char line[1024], dev[256], dir[512], type[64];
	FILE *f = fopen("/proc/self/mounts", "re");

	mnt[0] = '\0';
	if (!f)
		return mnt;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%255s %511s %63s", dev, dir, type) == 3 &&
		    strcmp(type, "cgroup2") == 0) {
			snprintf(mnt, sizeof(mnt), "%s", dir);
			break;
		}
	}
	fclose(f);
	return mnt;
}

uint64_t util_cgroup_id(const char *dir)
{
	struct {
		struct file_handle fh;
		unsigned char bytes[64];
	} h = { .fh.handle_bytes = 64 };
	int mnt;
	uint64_t id;

	ASSERT_EQ(name_to_handle_at(AT_FDCWD, dir, &h.fh, &mnt, 0), 0);
	ASSERT_EQ(h.fh.handle_bytes, 8);
	memcpy(&id, h.fh.f_handle, sizeof(id));
	return id;
}
