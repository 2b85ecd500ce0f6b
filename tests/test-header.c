/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * <libpidfd.h> compiles alone and in either order with each system header
 * that may define the same names (<linux/pidfd.h>, <sys/pidfd.h>,
 * <linux/fcntl.h>, <fcntl.h>), with gcc, clang and g++, warning-free; it
 * gives the newest 88-byte struct pidfd_info even where an older system
 * header declared a shorter one. The library also builds warning-free with
 * clang.
 */
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "harness.h"

static const char *const system_headers[] = {
	NULL, "linux/pidfd.h", "sys/pidfd.h", "linux/fcntl.h", "fcntl.h",
};

/* What a user writes: every name of the contract, checked at compile time. */
static const char body[] =
	"#ifdef __cplusplus\n#define SA static_assert\n#else\n#define SA _Static_assert\n#endif\n"
	"SA(sizeof(struct pidfd_info) == 88, \"size\");\n"
	"SA(offsetof(struct pidfd_info, cgroupid) == 8, \"cgroupid\");\n"
	"SA(offsetof(struct pidfd_info, pid) == 16, \"pid\");\n"
	"SA(offsetof(struct pidfd_info, fsgid) == 56, \"fsgid\");\n"
	"SA(offsetof(struct pidfd_info, exit_code) == 60, \"exit_code\");\n"
	"SA(offsetof(struct pidfd_info, coredump_mask) == 64, \"coredump_mask\");\n"
	"SA(offsetof(struct pidfd_info, coredump_signal) == 68, \"signal\");\n"
	"SA(offsetof(struct pidfd_info, coredump_code) == 72, \"code\");\n"
	"SA(offsetof(struct pidfd_info, coredump_pad) == 76, \"pad\");\n"
	"SA(offsetof(struct pidfd_info, supported_mask) == 80, \"supported\");\n"
	"SA(_IOC_SIZE(PIDFD_GET_INFO) == 88, \"ioctl size\");\n"
	"SA(PIDFD_SELF == -10000 && PIDFD_SELF_PROCESS == -10001, \"sentinels\");\n"
	"SA(PIDFD_INFO_SIZE_VER0 == 64 && PIDFD_INFO_SIZE_VER1 == 72, \"ver\");\n"
	"SA(PIDFD_INFO_SIZE_VER2 == 80 && PIDFD_INFO_SIZE_VER3 == 88, \"ver\");\n"
	"unsigned long names[] = { PIDFD_NONBLOCK, PIDFD_THREAD,\n"
	"  PIDFD_SIGNAL_THREAD, PIDFD_SIGNAL_THREAD_GROUP, PIDFD_SIGNAL_PROCESS_GROUP,\n"
	"  PIDFD_INFO_PID, PIDFD_INFO_CREDS, PIDFD_INFO_CGROUPID, PIDFD_INFO_EXIT,\n"
	"  PIDFD_INFO_COREDUMP, PIDFD_INFO_SUPPORTED_MASK, PIDFD_INFO_COREDUMP_SIGNAL,\n"
	"  PIDFD_INFO_COREDUMP_CODE, PIDFD_COREDUMPED, PIDFD_COREDUMP_SKIP,\n"
	"  PIDFD_COREDUMP_USER, PIDFD_COREDUMP_ROOT, PIDFS_IOCTL_MAGIC, PIDFD_GET_INFO,\n"
	"  PIDFD_GET_CGROUP_NAMESPACE, PIDFD_GET_IPC_NAMESPACE, PIDFD_GET_MNT_NAMESPACE,\n"
	"  PIDFD_GET_NET_NAMESPACE, PIDFD_GET_PID_NAMESPACE,\n"
	"  PIDFD_GET_PID_FOR_CHILDREN_NAMESPACE, PIDFD_GET_TIME_NAMESPACE,\n"
	"  PIDFD_GET_TIME_FOR_CHILDREN_NAMESPACE, PIDFD_GET_USER_NAMESPACE,\n"
	"  PIDFD_GET_UTS_NAMESPACE };\n"
	"int use(struct pidfd_info *i, siginfo_t *si, struct libpidfd_features *f)\n"
	"{ (void)f; return libpidfd_get_info(PIDFD_SELF, i, sizeof(*i)) +\n"
	"  libpidfd_send_signal(PIDFD_SELF_PROCESS, 0, si, 0) + (int)names[0]; }\n";

static char dir[64];
static char *cleanup_cmd;

static void cleanup(void)
{
	if (system(cleanup_cmd) != 0)
		fprintf(stderr, "# %s failed\n", cleanup_cmd);
}

static void write_file(const char *name, const char *text)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	ASSERT_TRUE(f);
	ASSERT_TRUE(fputs(text, f) >= 0);
	ASSERT_EQ(fclose(f), 0);
}

/* Compile dir/name with cc and extra flags; the exit status. */
static int compile(const char *cc, const char *name, const char *extra)
{
	char cmd[1024], cwd[512];

	ASSERT_TRUE(getcwd(cwd, sizeof(cwd)));
	snprintf(cmd, sizeof(cmd),
		 "%s %s -fsyntax-only -Wall -Wextra -Werror -I%s/include %s "
		 "%s/%s", cc, strcmp(cc, "g++") ? "-std=gnu11" : "-x c++ -std=gnu++17",
		 cwd, extra, dir, name);
	return system(cmd);
}

static void source(char *buf, size_t size, const char *sys, bool ours_first)
{
	char sysinc[64] = "";

	if (sys)
		snprintf(sysinc, sizeof(sysinc), "#include <%s>\n", sys);
	snprintf(buf, size, "%s#include <libpidfd.h>\n%s%s",
		 ours_first ? "" : sysinc, ours_first ? sysinc : "", body);
}

static void make_dir(void)
{
	char cmd[96];

	snprintf(dir, sizeof(dir), "/tmp/libpidfd-header-%d", getpid());
	ASSERT_EQ(mkdir(dir, 0700), 0);
	/* The harness runs each test in its own process: clean up at its exit. */
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	cleanup_cmd = strdup(cmd);
	atexit(cleanup);
}

static void every_order(const char *cc)
{
	char src[sizeof(body) + 256];

	make_dir();
	for (size_t i = 0; i < sizeof(system_headers) / sizeof(*system_headers); i++) {
		for (int first = 0; first < 2; first++) {
			source(src, sizeof(src), system_headers[i], first);
			write_file("t.c", src);
			if (compile(cc, "t.c", "") != 0)
				FAIL("%s: <%s> %s <libpidfd.h>", cc,
				     system_headers[i] ? system_headers[i] : "-",
				     first ? "after" : "before");
		}
	}
}

TEST_TIMEOUT(include_orders_gcc, 120) { every_order("gcc"); }
TEST_TIMEOUT(include_orders_clang, 120) { every_order("clang"); }
TEST_TIMEOUT(include_orders_gxx, 120) { every_order("g++"); }

/* A system header from 6.13 to 7.0 declares a shorter struct: ours wins. */
TEST_TIMEOUT(older_system_struct, 120)
{
	char src[sizeof(body) + 256];

	make_dir();
	ASSERT_EQ(mkdir(strcat(strcpy(src, dir), "/linux"), 0700), 0);
	write_file("linux/pidfd.h",
		   "#ifndef _LINUX_PIDFD_H\n#define _LINUX_PIDFD_H\n"
		   "#include <linux/types.h>\n#include <linux/ioctl.h>\n"
		   "#define PIDFD_INFO_SIZE_VER0 64\n"
		   "struct pidfd_info { __u64 mask, cgroupid; __u32 pid, tgid, ppid,"
		   " ruid, rgid, euid, egid, suid, sgid, fsuid, fsgid; __s32 exit_code; };\n"
		   "#define PIDFS_IOCTL_MAGIC 0xFF\n"
		   "#define PIDFD_GET_INFO _IOWR(PIDFS_IOCTL_MAGIC, 11, struct pidfd_info)\n"
		   "#endif\n");
	source(src, sizeof(src), "linux/pidfd.h", false);
	write_file("t.c", src);
	snprintf(src, sizeof(src), "-I%s", dir);
	ASSERT_EQ(compile("gcc", "t.c", src), 0);
	ASSERT_EQ(compile("g++", "t.c", src), 0);
}

TEST_TIMEOUT(library_builds_with_clang, 300)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd),
		 "make -s O=/tmp/libpidfd-clang-%d CC=clang lib >/dev/null",
		 getpid());
	ASSERT_EQ(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), "rm -rf /tmp/libpidfd-clang-%d", getpid());
	ASSERT_EQ(system(cmd), 0);
}
