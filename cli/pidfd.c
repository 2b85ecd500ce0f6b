/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * pidfd(1): process handles from the command line.
 *
 *   pidfd info [--json] PID|self...
 *   pidfd features
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libpidfd.h>

#define EXIT_NOTSUP 2

static void usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "pidfd: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\nTry 'pidfd --help' for more information.\n");
	exit(EXIT_FAILURE);
}

static void usage(void)
{
	printf("Usage:\n"
	       " pidfd info [--json] PID|self...\n"
	       " pidfd features\n"
	       "\n"
	       "Process handles (pidfds) on every Linux kernel.\n"
	       "\n"
	       "Commands:\n"
	       " info      what the kernel knows of each process\n"
	       " features  what this kernel does natively, and what is emulated\n"
	       "\n"
	       "Options:\n"
	       " -j, --json     one JSON object per process\n"
	       " -h, --help     display this help\n"
	       " -V, --version  display version\n");
	exit(EXIT_SUCCESS);
}

/* Open a pidfd for "self" or a decimal pid; -1 with errno on failure. */
static int open_target(const char *arg, pid_t *pid)
{
	char *end;
	long v;

	if (strcmp(arg, "self") == 0) {
		*pid = getpid();
		return libpidfd_open(*pid, 0);
	}
	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno || *end || end == arg || v <= 0 || v > INT32_MAX)
		usage_error("invalid pid: '%s'", arg);
	*pid = (pid_t)v;
	return libpidfd_open(*pid, 0);
}

static void print_info_table(const struct pidfd_info *i)
{
	printf("pid:      %u\n", i->pid);
	printf("tgid:     %u\n", i->tgid);
	printf("ppid:     %u\n", i->ppid);
	printf("uid:      %u %u %u %u  (real effective saved fs)\n", i->ruid,
	       i->euid, i->suid, i->fsuid);
	printf("gid:      %u %u %u %u  (real effective saved fs)\n", i->rgid,
	       i->egid, i->sgid, i->fsgid);
	if (i->mask & PIDFD_INFO_CGROUPID)
		printf("cgroupid: %" PRIu64 "\n", (uint64_t)i->cgroupid);
}

static void print_info_json(const struct pidfd_info *i)
{
	printf("{\"pid\":%u,\"tgid\":%u,\"ppid\":%u,"
	       "\"ruid\":%u,\"euid\":%u,\"suid\":%u,\"fsuid\":%u,"
	       "\"rgid\":%u,\"egid\":%u,\"sgid\":%u,\"fsgid\":%u",
	       i->pid, i->tgid, i->ppid, i->ruid, i->euid, i->suid, i->fsuid,
	       i->rgid, i->egid, i->sgid, i->fsgid);
	if (i->mask & PIDFD_INFO_CGROUPID)
		printf(",\"cgroupid\":%" PRIu64, (uint64_t)i->cgroupid);
	printf("}\n");
}

static int cmd_info(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool json = false;
	int c, rc = EXIT_SUCCESS;

	while ((c = getopt_long(argc, argv, "jh", opts, NULL)) != -1) {
		if (c == 'j')
			json = true;
		else if (c == 'h')
			usage();
		else
			usage_error("%s", "bad option");
	}
	if (optind >= argc)
		usage_error("%s", "info: no process given");
	for (int a = optind; a < argc; a++) {
		struct pidfd_info info = { .mask = PIDFD_INFO_CGROUPID };
		pid_t pid;
		int fd = open_target(argv[a], &pid);

		if (fd < 0 || libpidfd_get_info(fd, &info, sizeof(info)) < 0) {
			fprintf(stderr, "pidfd: process %d: %s\n", (int)pid,
				strerror(errno));
			rc = EXIT_FAILURE;
		} else if (json) {
			print_info_json(&info);
		} else {
			if (a > optind)
				putchar('\n');
			print_info_table(&info);
		}
		if (fd >= 0)
			close(fd);
	}
	return rc;
}

static const char *support_name(uint32_t s)
{
	switch (s) {
	case LIBPIDFD_NATIVE:
		return "native";
	case LIBPIDFD_EMULATED:
		return "emulated";
	default:
		return "unavailable";
	}
}

static int cmd_features(void)
{
	struct libpidfd_features f;
	const struct {
		const char *name;
		uint32_t *v;
	} rows[] = {
		{ "open", &f.open },
		{ "get_info", &f.get_info },
		{ "getpid", &f.getpid },
		{ "send_signal", &f.send_signal },
		{ "getfd", &f.getfd },
		{ "process_madvise", &f.process_madvise },
		{ "process_mrelease", &f.process_mrelease },
		{ "waitid", &f.waitid },
		{ "get_namespace", &f.get_namespace },
		{ "self_sentinels", &f.self_sentinels },
		{ "thread_pidfds", &f.thread_pidfds },
	};

	if (libpidfd_features(&f, sizeof(f)) < 0) {
		fprintf(stderr, "pidfd: features: %s\n", strerror(errno));
		return EXIT_FAILURE;
	}
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		printf("%-18s %s\n", rows[i].name, support_name(*rows[i].v));
	return EXIT_SUCCESS;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		usage_error("%s", "no command given");
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)
		usage();
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
		printf("pidfd from libpidfd %s\n", LIBPIDFD_VERSION_STRING);
		return EXIT_SUCCESS;
	}
	if (strcmp(argv[1], "info") == 0)
		return cmd_info(argc - 1, argv + 1);
	if (strcmp(argv[1], "features") == 0)
		return cmd_features();
	usage_error("unknown command '%s'", argv[1]);
	return EXIT_FAILURE;
}
