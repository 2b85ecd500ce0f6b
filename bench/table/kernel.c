/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* make bench: the kernel work under the emulation, each piece alone. */

#include "bench.h"

/* The kernel work under the /proc rows, alone. */
static int read_whole(const char *path)
{
	char buf[4096];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	return n > 0 ? 0 : -1;
}

static int op_k_status_read(const struct row *r)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/status", (int)g_pid[r->t]);
	return read_whole(path);
}

static int g_status_fd = -1; /* /proc/<child>/status, held open */

void open_status_fd(void)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/status", (int)g_pid[T_CHILD]);
	g_status_fd = open(path, O_RDONLY | O_CLOEXEC);
	if (g_status_fd < 0)
		die("open %s", path);
}

/* seq_file regenerates the text on every read from offset 0. */
static int op_k_status_gen(const struct row *r)
{
	char buf[4096];

	(void)r;
	return pread(g_status_fd, buf, sizeof(buf), 0) > 0 ? 0 : -1;
}

static int op_k_fdinfo_read(const struct row *r)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", g_fd[r->t]);
	return read_whole(path);
}

static int op_k_readlink_self(const struct row *r)
{
	char buf[32];

	(void)r;
	return readlink("/proc/self", buf, sizeof(buf)) > 0 ? 0 : -1;
}

static int op_k_readlink_cgns(const struct row *r)
{
	char buf[64];

	(void)r;
	return readlink("/proc/thread-self/ns/cgroup", buf, sizeof(buf)) > 0 ?
		0 : -1;
}

static int op_k_cgroup_read(const struct row *r)
{
	(void)r;
	return read_whole("/proc/self/cgroup");
}

static int op_k_mountinfo_read(const struct row *r)
{
	char buf[4096];
	int fd = open("/proc/self/mountinfo", O_RDONLY | O_CLOEXEC);
	ssize_t n;

	(void)r;
	if (fd < 0)
		return -1;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		;
	close(fd);
	return n == 0 ? 0 : -1;
}

static int op_k_name_to_handle(const struct row *r)
{
	struct {
		struct file_handle fh;
		unsigned char buf[64];
	} h;
	int mnt_id;

	(void)r;
	h.fh.handle_bytes = sizeof(h.buf);
	return name_to_handle_at(AT_FDCWD, g_cgroup_dir, &h.fh, &mnt_id, 0);
}

static int op_k_signal_pidfd(const struct row *r)
{
	return (int)syscall(SYS_pidfd_send_signal, g_fd[r->t], 0, NULL, 0);
}

/* What the emulation is made of: each piece of kernel work alone. */
static int r_k_status, r_k_fdinfo, r_k_signal, r_k_cgroup, r_k_handle;

void add_kernel_rows(void)
{
	static const char g[] = "the kernel work under the emulation";

	add(g, "pread /proc/<child>/status, held open", op_k_status_gen,
	    T_CHILD, 0, P_NONE, 0);
	r_k_status = add(g, "open+read+close /proc/<child>/status",
			 op_k_status_read, T_CHILD, 0, P_NONE, 0);
	r_k_fdinfo = add(g, "open+read+close /proc/self/fdinfo/<pidfd>",
			 op_k_fdinfo_read, T_CHILD, 0, P_NONE, 0);
	add(g, "readlink /proc/self", op_k_readlink_self, T_SELF, 0, P_NONE,
	    0);
	r_k_signal = add(g, "pidfd_send_signal(child pidfd, 0)",
			 op_k_signal_pidfd, T_CHILD, 0, P_NONE, 0);
	r_k_cgroup = add(g, "open+read+close /proc/self/cgroup",
			 op_k_cgroup_read, T_SELF, 0, P_NONE, 0);
	add(g, "readlink /proc/thread-self/ns/cgroup", op_k_readlink_cgns,
	    T_SELF, 0, P_NONE, 0);
	r_k_handle = add(g, "name_to_handle_at(<cgroup2 dir>)",
			 op_k_name_to_handle, T_SELF, 0, P_NONE, 0);
	add(g, "open+read all+close /proc/self/mountinfo",
	    op_k_mountinfo_read, T_SELF, 0, P_NONE, 0);
}

/*
 * What the floors are made of, as sums of kernel-row medians, against the
 * kernel's ioctl (where there is one) and the racy parse of user code.
 */
static void floor_line(const char *what, double floor, int lib, int native,
		       int racy_row)
{
	printf("%-58s %7.0f ns =", what, floor);
	if (native >= 0)
		printf(" %5.1fx %s,", floor / rows[native].med,
		       racy_row >= 0 ? "ioctl" : "native");
	if (racy_row >= 0)
		printf(" %4.2fx racy parse,", floor / rows[racy_row].med);
	printf(" library %4.2fx this sum\n", rows[lib].med / floor);
}

void print_floors(void)
{
	double pid_and_creds = rows[r_k_fdinfo].med + rows[r_k_status].med +
			       rows[r_k_signal].med;
	double cgroup = rows[r_k_cgroup].med + rows[r_k_handle].med;

	printf("\n%s\n", "floors of the emulation (sums of kernel-row medians)");
	floor_line("another process: fdinfo + status + signal 0", pid_and_creds,
		   r_emul[T_CHILD][0], r_ioctl[T_CHILD][0], r_racy[T_CHILD]);
	floor_line("  +CGROUPID: + cgroup file + name_to_handle_at",
		   pid_and_creds + cgroup, r_emul[T_CHILD][1],
		   r_ioctl[T_CHILD][1], r_racy[T_CHILD]);
	floor_line("PIDFD_SELF +CGROUPID: cgroup file + name_to_handle_at",
		   cgroup, r_semul[1], r_snative[1], -1);
	printf("the proof used here: %s\n", proof_name[g_proof]);
}
