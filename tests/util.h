/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Helpers shared by the tests: children to query, both paths, cgroups. */
#ifndef LIBPIDFD_TEST_UTIL_H
#define LIBPIDFD_TEST_UTIL_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include <libpidfd.h>

/* A child that runs fn (if any) and then sleeps until killed; 0 when fn is done. */
pid_t util_spawn(void (*fn)(void *), void *arg, int *pidfd);
/* A child that exits at once with this code, left unreaped (a zombie). */
pid_t util_zombie(int code, int *pidfd);
/* Block until the pidfd polls readable (the process exited). */
void util_wait_exit(int pidfd);
/* Kill and reap a child through its pidfd. */
void util_kill_reap(int pidfd);

/* Run libpidfd_get_info on one path (emulate or not), keeping errno. */
struct util_res {
	int ret;
	int err;
	unsigned char buf[256]; /* the struct, then bytes that must stay untouched */
};
void util_get_info(int fd, uint64_t mask, size_t size, bool emulate,
		   struct util_res *r);
bool util_have_native_info(void);
/*
 * What the running kernel has, from the library's probe table (an enum
 * lpfd_feature), whatever LIBPIDFD_EMULATE says: tests expect what the
 * kernel has, never what a mode name suggests.
 */
bool util_kernel_has(int feat);
/* What the library uses: the kernel's feature, unless emulation is forced. */
bool util_native(int feat);
/*
 * Whether a reaped process's exit status comes through the native
 * PIDFD_GET_INFO (PIDFD_INFO_EXIT, 6.15). Under a kernel personality
 * (tests/personality.c) the struct is the host kernel's, exit status
 * included, which no filter can take away: then it is the host's answer.
 */
bool util_exit_after_reap(void);
/* The raw kernel's answer to that, asked with a child of our own. */
bool util_kernel_gives_exit_after_reap(void);
/* SO_PEERPIDFD (Linux 6.5), which the library does not probe. */
bool util_kernel_has_peerpidfd(void);

/*
 * Run fn as pid 1 of a fresh pid namespace, with a /proc of its own (the
 * emulation reads /proc from the caller's namespace); fn's failures fail
 * the test.
 */
void util_as_pidns_init(void (*fn)(void));

/* The cgroup2 mount point of this system ("" if none). */
const char *util_cgroup2_mount(void);
/* The cgroup id (file handle) of a cgroup directory. */
uint64_t util_cgroup_id(const char *dir);

#endif
