/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * make bench: libpidfd_proc_open(fd, "status", O_RDONLY) and a read,
 * against a bare open("/proc/<pid>/status") and a read (racy: the pid may
 * be another's by then), and against the sound floor of the same: the
 * system calls no race-free open of a process's file can skip.
 *
 *   the name:  gettid + process_vm_readv of it (see below)
 *   the pid:   ioctl(PIDFD_GET_INFO), or the fdinfo (open, read, close)
 *   /proc:     openat("/proc", O_PATH) and the cheapest proof it is ours
 *              (statx + readlink thread-self/ns/pid on 6.8 and later)
 *   the file:  openat2(<pid>/status, RESOLVE_NO_XDEV|RESOLVE_NO_MAGICLINKS)
 *   unreaped:  pidfd_send_signal(fd, 0)
 *   then:      close(/proc); the answer moved down to the lowest free
 *              number, as the kernel's would be (fcntl F_DUPFD_CLOEXEC,
 *              close); read; close
 *
 * The name's copy is in the floor because a sound implementation cannot
 * skip it. The contract wants EFAULT for a bad name, never a crash, also
 * where another thread unmaps it in the middle of the call; the name must
 * be read to be judged (EINVAL for "/..." and "..") and to be put after
 * "<pid>/", so the path opened is not the caller's pointer and no system
 * call of the path reads the name for the library; and the cheapest copy
 * that reports EFAULT is process_vm_readv on the calling thread, which
 * names it by its id (docs/architecture.md, "The caller's memory").
 */
#include "bench.h"

static char g_abs[80], g_rel[64], g_fdinfo[64];
static int r_bare, r_floor_native, r_lib_native, r_floor_emul, r_lib_emul;

static int read_close(int fd)
{
	char buf[2048];
	long n;

	if (fd < 0)
		return -1;
	n = syscall(SYS_read, fd, buf, sizeof(buf));
	syscall(SYS_close, fd);
	return n > 0 ? 0 : -1;
}

static int op_bare(const struct row *r)
{
	(void)r;
	return read_close((int)syscall(SYS_openat, AT_FDCWD, g_abs,
				       O_RDONLY | O_CLOEXEC));
}

/* The pid as the library's path for this row reads it. */
static int floor_pid(int dir, const struct row *r)
{
	struct pidfd_info info = { .mask = 0 };
	char buf[512];
	int fd;

	if (r->path == P_NATIVE)
		return ioctl(g_fd[r->t], PIDFD_GET_INFO, &info);
	fd = (int)syscall(SYS_openat, dir, g_fdinfo, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	syscall(SYS_read, fd, buf, sizeof(buf));
	return (int)syscall(SYS_close, fd);
}

static int op_floor(const struct row *r)
{
	struct lpfd_open_how how = {
		.flags = O_RDONLY | O_CLOEXEC,
		.resolve = LPFD_RESOLVE_NO_XDEV | LPFD_RESOLVE_NO_MAGICLINKS,
	};
	static const char caller_name[] = "status";
	char name[sizeof(caller_name)];
	int dir, fd;

	copy_by_kernel(name, caller_name, sizeof(name));
	dir = r->path == P_NATIVE ? -1 : sound_proc_dir();
	if (r->path == P_NATIVE && floor_pid(dir, r) < 0)
		return -1;
	if (dir < 0 && (dir = sound_proc_dir()) < 0)
		return -1;
	if (r->path != P_NATIVE && floor_pid(dir, r) < 0)
		return -1;
	fd = (int)syscall(__NR_openat2, dir, g_rel, &how, sizeof(how));
	if (syscall(SYS_pidfd_send_signal, g_fd[r->t], 0, NULL, 0) < 0)
		return -1;
	syscall(SYS_close, dir);
	if (fd > dir) {
		int low = (int)syscall(SYS_fcntl, fd, F_DUPFD_CLOEXEC, 0);

		syscall(SYS_close, fd);
		fd = low;
	}
	return read_close(fd);
}

static int op_proc_open(const struct row *r)
{
	return read_close(libpidfd_proc_open(g_fd[r->t], "status", O_RDONLY));
}

void add_proc_open_rows(void)
{
	snprintf(g_rel, sizeof(g_rel), "%d/status", (int)g_pid[T_CHILD]);
	snprintf(g_abs, sizeof(g_abs), "/proc/%s", g_rel);
	snprintf(g_fdinfo, sizeof(g_fdinfo), "thread-self/fdinfo/%d",
		 g_fd[T_CHILD]);
	r_bare = add("proc_open", "open+read /proc/<pid>/status (racy)",
		     op_bare, T_CHILD, 0, P_NONE, 0);
	r_floor_native = r_lib_native = -1;
	if (g_have_ioctl && lpfd_kernel_has(LPFD_FEAT_OPENAT2) > 0) {
		r_floor_native = add("proc_open", "sound floor, pid by ioctl",
				     op_floor, T_CHILD, 0, P_NATIVE, 0);
		r_lib_native = add("proc_open", "proc_open(status)+read native",
				   op_proc_open, T_CHILD, 0, P_NATIVE, 0);
	}
	r_floor_emul = r_lib_emul = -1;
	if (lpfd_kernel_has(LPFD_FEAT_OPENAT2) > 0) {
		r_floor_emul = add("proc_open", "sound floor, pid by fdinfo",
				   op_floor, T_CHILD, 0, P_EMULATED, 0);
		r_lib_emul = add("proc_open", "proc_open(status)+read emulated",
				 op_proc_open, T_CHILD, 0, P_EMULATED, 0);
	}
}

void print_proc_open_targets(void)
{
	if (r_lib_native >= 0) {
		target("proc_open native / its sound floor", r_lib_native,
		       r_floor_native, 1.1);
		info_calls("proc_open native: system calls, its sound floor's",
			     r_lib_native, r_floor_native);
		info_ratio("proc_open native / bare open (racy)", r_lib_native,
			   r_bare);
	}
	if (r_lib_emul >= 0) {
		target("proc_open emulated / its sound floor", r_lib_emul,
		       r_floor_emul, 1.1);
		info_calls("proc_open emulated: system calls, its sound floor's",
			     r_lib_emul, r_floor_emul);
		info_ratio("proc_open emulated / bare open (racy)", r_lib_emul,
			   r_bare);
	}
}
