/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* make bench: get_info, native against the ioctl, emulated against floors. */

#include "bench.h"

static int op_ioctl(const struct row *r)
{
	struct pidfd_info info = { .mask = r->mask };

	return ioctl(g_fd[r->t], PIDFD_GET_INFO, &info);
}

/* What a program without the sentinels does: a pidfd of its own. */
static int op_open_ioctl_close(const struct row *r)
{
	struct pidfd_info info = { .mask = r->mask };
	int fd = sys_pidfd_open(getpid(), 0), ret;

	if (fd < 0)
		return -1;
	ret = ioctl(fd, PIDFD_GET_INFO, &info);
	close(fd);
	return ret;
}

static int op_get_info(const struct row *r)
{
	struct pidfd_info info = { .mask = r->mask };
	int fd = r->sentinel ? r->sentinel : g_fd[r->t];

	if (libpidfd_get_info(fd, &info, sizeof(info)) < 0)
		return -1;
	return info.pid == 0 ? -1 : 0;
}

const char *const cg_name[2] = { "", " +CGROUPID" };
static const uint64_t cg_mask[2] = { 0, PIDFD_INFO_CGROUPID };

int r_ioctl[T_COUNT][2], r_native[T_COUNT][2], r_emul[T_COUNT][2];
int r_snative[2], r_semul[2];
static int r_pnative = -1; /* native get_info on PIDFD_SELF_PROCESS */
static int r_open_close[2]; /* pidfd_open + ioctl + close */
static int r_floor_info[T_COUNT][2], r_sound[T_COUNT][2];

/* A get_info row on target t with mask cg, its label what and their names. */
static int add_info(const char *what, op_fn op, int t, int cg,
		    enum path path)
{
	char l[96];

	snprintf(l, sizeof(l), "%s %s%s", what, target_name[t], cg_name[cg]);
	return add("get_info", l, op, t, cg_mask[cg], path, 0);
}

static int add_emulated(int t, int cg)
{
	return add_info("get_info emulated", op_get_info, t, cg, P_EMULATED);
}

/*
 * Each row sits next to the row it is judged against, so that the
 * rotation times them a few milliseconds apart and each batch starts
 * with the caches as the other's left them: the emulated path right
 * after its sound floor (the same /proc files), the native path after
 * the kernel's PIDFD_GET_INFO.
 */
void add_get_info_rows(void)
{
	char l[96];

	for (int t = 0; t < T_COUNT; t++)
		for (int cg = 0; cg < 2; cg++) {
			r_ioctl[t][cg] = r_native[t][cg] = -1;
			if (t != T_SELF) {
				r_floor_info[t][cg] = add_info(
					"floor: raw fdinfo+status+signal 0",
					op_floor_info, t, cg, P_NONE);
				r_sound[t][cg] = add_info(
					"sound floor: + /proc dir + proof",
					op_sound_floor, t, cg, P_NONE);
				r_emul[t][cg] = add_emulated(t, cg);
			}
			if (g_have_ioctl) {
				r_ioctl[t][cg] = add_info("ioctl(PIDFD_GET_INFO)",
							  op_ioctl, t, cg, P_NONE);
				r_native[t][cg] = add_info("get_info native",
							   op_get_info, t, cg,
							   P_NATIVE);
			}
			if (t == T_SELF)
				r_emul[t][cg] = add_emulated(t, cg);
		}
	for (int cg = 0; cg < 2; cg++) {
		snprintf(l, sizeof(l), "pidfd_open + ioctl + close%s",
			 cg_name[cg]);
		r_open_close[cg] = g_have_ioctl ?
			add("get_info", l, op_open_ioctl_close, T_SELF,
			    cg_mask[cg], P_NONE, 0) : -1;
		snprintf(l, sizeof(l), "get_info native PIDFD_SELF%s",
			 cg_name[cg]);
		r_snative[cg] = g_have_ioctl ?
			add("get_info", l, op_get_info, T_SELF, cg_mask[cg],
			    P_NATIVE, PIDFD_SELF) : -1;
		snprintf(l, sizeof(l), "get_info emulated PIDFD_SELF%s",
			 cg_name[cg]);
		r_semul[cg] = add("get_info", l, op_get_info, T_SELF,
				  cg_mask[cg], P_EMULATED, PIDFD_SELF);
	}
	if (g_have_ioctl)
		r_pnative = add("get_info", "get_info native PIDFD_SELF_PROCESS",
				op_get_info, T_SELF, 0, P_NATIVE,
				PIDFD_SELF_PROCESS);
}

/* A sentinel costs the pidfd it opens and closes: so does its baseline. */
static void print_native_self_targets(void)
{
	char w[128];

	for (int cg = 0; cg < 2; cg++) {
		snprintf(w, sizeof(w),
			 "native get_info PIDFD_SELF%s / pidfd_open+ioctl+close",
			 cg_name[cg]);
		target(w, r_snative[cg], r_open_close[cg], 1.10);
	}
	target("native get_info PIDFD_SELF_PROCESS / pidfd_open+ioctl+close",
	       r_pnative, r_open_close[0], 1.10);
}

void print_native_targets(void)
{
	char w[128];

	if (!g_have_ioctl)
		return;
	for (int t = 0; t < T_COUNT; t++)
		for (int cg = 0; cg < 2; cg++) {
			snprintf(w, sizeof(w), "native get_info %s%s / ioctl",
				 target_name[t], cg_name[cg]);
			target(w, r_native[t][cg], r_ioctl[t][cg], 1.05);
			snprintf(w, sizeof(w),
				 "native get_info %s%s: system calls, the ioctl's",
				 target_name[t], cg_name[cg]);
			info_calls(w, r_native[t][cg], r_ioctl[t][cg]);
		}
	print_native_self_targets();
}

/*
 * The emulation against its sound floor: the /proc reads, the proof that
 * /proc is ours and the liveness check, made raw (floors.c); and, without
 * the cgroup id, the sentinels against the ioctl on a pidfd held open.
 */
void print_emulated_targets(void)
{
	static const double limit[2] = { 1.10, 1.20 };
	char w[128];

	for (int t = T_CHILD; t < T_COUNT; t++)
		for (int cg = 0; cg < 2; cg++) {
			snprintf(w, sizeof(w), "sound floor %s%s / floor (the proof)",
				 target_name[t], cg_name[cg]);
			info_ratio(w, r_sound[t][cg], r_floor_info[t][cg]);
			snprintf(w, sizeof(w), "emulated get_info %s%s / sound floor",
				 target_name[t], cg_name[cg]);
			target(w, r_emul[t][cg], r_sound[t][cg], limit[cg]);
			snprintf(w, sizeof(w),
				 "emulated get_info %s%s: system calls, the sound floor's",
				 target_name[t], cg_name[cg]);
			info_calls(w, r_emul[t][cg], r_sound[t][cg]);
		}
	if (!g_have_ioctl)
		return;
	target("emulated get_info PIDFD_SELF / ioctl on an open pidfd",
	       r_semul[0], r_ioctl[T_SELF][0], 2.5);
	info_ratio("emulated get_info PIDFD_SELF +CGROUPID / ioctl on an open pidfd",
		   r_semul[1], r_ioctl[T_SELF][1]);
}
