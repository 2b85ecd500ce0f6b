/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* make bench: get_info, native against the ioctl, emulated against floors. */

#include <linux/futex.h>

#include "bench.h"

static int op_ioctl(const struct row *r)
{
	struct pidfd_info info = { .mask = r->mask };

	return ioctl(g_fd[r->t], PIDFD_GET_INFO, &info);
}

/*
 * The least a sound native get_info can do before 7.1, whose layouts the
 * library brings to the newest where PIDFD_INFO_SUPPORTED_MASK is asked
 * for: the request compared by the kernel with the one asked before
 * (FUTEX_CMP_REQUEUE that moves no waiter: a read, EFAULT, never a crash
 * or a write), then the ioctl.
 */
static int op_ioctl_compared(const struct row *r)
{
	static uint32_t none;
	struct pidfd_info info = { .mask = r->mask };

	if (syscall(SYS_futex, &info.mask, FUTEX_CMP_REQUEUE_PRIVATE, 0, 0,
		    &none, (uint32_t)r->mask) != 0)
		return -1;
	return ioctl(g_fd[r->t], PIDFD_GET_INFO, &info);
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
static int r_checked[T_COUNT][2]; /* ioctl + the request compared, before 7.1 */
int r_snative[2], r_semul[2];
static int r_pnative = -1; /* native get_info on PIDFD_SELF_PROCESS */
static int r_floor_info[T_COUNT][2], r_sound[T_COUNT][2];
static int r_sound_checked[T_COUNT][2], r_sound_merged[T_COUNT][2];

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
 * after its sound floor with the copies (the same /proc files), the
 * native path after
 * the kernel's PIDFD_GET_INFO. After a batch of ioctls an emulated batch
 * would start cold where its floor starts warm, and lose a few percent
 * to the order alone.
 */
void add_get_info_rows(void)
{
	char l[96];

	for (int t = 0; t < T_COUNT; t++)
		for (int cg = 0; cg < 2; cg++) {
			r_ioctl[t][cg] = r_native[t][cg] = r_checked[t][cg] = -1;
			if (t != T_SELF) {
				r_floor_info[t][cg] = add_info(
					"floor: raw fdinfo+status+signal 0",
					op_floor_info, t, cg, P_NONE);
				r_sound[t][cg] = add_info(
					"sound floor: + /proc dir + proof",
					op_sound_floor, t, cg, P_NONE);
				r_sound_checked[t][cg] = add_info(
					"sound floor + request read + answer write",
					op_sound_floor_checked, t, cg, P_NONE);
				r_emul[t][cg] = add_emulated(t, cg);
				r_sound_merged[t][cg] = add_info(
					"sound floor, closes merged",
					op_sound_floor_merged, t, cg, P_NONE);
			}
			if (g_have_ioctl) {
				r_ioctl[t][cg] = add_info("ioctl(PIDFD_GET_INFO)",
							  op_ioctl, t, cg, P_NONE);
				if (g_request_checked)
					r_checked[t][cg] = add_info(
						"ioctl + request compared",
						op_ioctl_compared, t, cg, P_NONE);
				r_native[t][cg] = add_info("get_info native",
							   op_get_info, t, cg,
							   P_NATIVE);
			}
			if (t == T_SELF)
				r_emul[t][cg] = add_emulated(t, cg);
		}
	for (int cg = 0; cg < 2; cg++) {
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

/*
 * A sentinel costs the pidfd it opens and closes, and the id it opens it
 * by (gettid, getpid), which a request's copy would reuse: three system
 * calls over the native call's baseline (the ioctl with its request
 * compared before 7.1, the bare ioctl from 7.1 on).
 */
static void print_native_self_targets(void)
{
	const int *base = g_request_checked ? r_checked[T_SELF] : r_ioctl[T_SELF];
	const char *name = g_request_checked ? "ioctl+compare" : "ioctl";
	char w[128];

	for (int cg = 0; cg < 2; cg++) {
		snprintf(w, sizeof(w),
			 "native get_info PIDFD_SELF%s: system calls <= %s's + 3",
			 cg_name[cg], name);
		target_calls_plus(w, r_snative[cg], base[cg], 3);
	}
	snprintf(w, sizeof(w),
		 "native get_info PIDFD_SELF_PROCESS: system calls <= %s's + 3",
		 name);
	target_calls_plus(w, r_pnative, base[0], 3);
}

static double g_paired[T_COUNT][2];

void measure_pairs(void)
{
	for (int t = T_CHILD; t < T_COUNT; t++)
		for (int cg = 0; cg < 2; cg++)
			g_paired[t][cg] = paired_ratio(&rows[r_emul[t][cg]],
						       &rows[r_sound_checked[t][cg]]);
}

void print_native_targets(void)
{
	char w[128];

	if (!g_have_ioctl)
		return;
	for (int t = 0; t < T_COUNT; t++)
		for (int cg = 0; cg < 2; cg++) {
			if (g_request_checked) {
				snprintf(w, sizeof(w), "native get_info %s%s / ioctl",
					 target_name[t], cg_name[cg]);
				info_ratio(w, r_native[t][cg], r_ioctl[t][cg]);
				snprintf(w, sizeof(w),
					 "native get_info %s%s / ioctl+compare",
					 target_name[t], cg_name[cg]);
				target(w, r_native[t][cg], r_checked[t][cg], 1.05);
				snprintf(w, sizeof(w),
					 "native get_info %s%s: system calls <= ioctl+compare's",
					 target_name[t], cg_name[cg]);
				target_calls(w, r_native[t][cg], r_checked[t][cg]);
				continue;
			}
			snprintf(w, sizeof(w), "native get_info %s%s / ioctl",
				 target_name[t], cg_name[cg]);
			target(w, r_native[t][cg], r_ioctl[t][cg], 1.05);
		}
	print_native_self_targets();
}

/*
 * The emulation against the race-free floor, where a sound proof that
 * /proc is ours fits in 15% of it; where it does not (the sound floor
 * costs more than 1.15 floors), against the sound floor instead, with
 * the two copies that EFAULT, never a crash, costs any emulation (the
 * request read and the answer write, docs/architecture.md).
 */
void print_emulated_targets(void)
{
	static const double limit[2] = { 1.15, 1.3 };
	bool unique = handle_names_unique_mount();
	char w[128];

	for (int t = T_CHILD; t < T_COUNT; t++)
		for (int cg = 0; cg < 2; cg++) {
			/*
			 * Decided by the same statistic the targets use: one
			 * lucky round (under user-mode-linux a row's minimum
			 * can be half its median) must not pick the limit.
			 */
			bool proof_fits = ratio(r_sound[t][0],
						r_floor_info[t][0]) <= 1.15;

			snprintf(w, sizeof(w), "sound floor %s%s / floor (the proof)",
				 target_name[t], cg_name[cg]);
			info_ratio(w, r_sound[t][cg], r_floor_info[t][cg]);
			snprintf(w, sizeof(w), "emulated get_info %s%s / floor",
				 target_name[t], cg_name[cg]);
			if (proof_fits)
				target(w, r_emul[t][cg], r_floor_info[t][cg],
				       limit[cg]);
			else
				info_ratio(w, r_emul[t][cg], r_floor_info[t][cg]);
			snprintf(w, sizeof(w), "emulated get_info %s%s / sound floor",
				 target_name[t], cg_name[cg]);
			info_ratio(w, r_emul[t][cg], r_sound[t][cg]);
			snprintf(w, sizeof(w), "emulated get_info %s%s / sound floor + copies",
				 target_name[t], cg_name[cg]);
			if (proof_fits)
				info_ratio(w, r_emul[t][cg], r_sound_checked[t][cg]);
			else
				target(w, r_emul[t][cg], r_sound_checked[t][cg],
				       cg ? limit[cg] : 1.1);
			/*
			 * CGROUPID reads the cgroup file twice and resolves
			 * its path twice (src/cgroup.c says why), which this
			 * floor does once: the second read is a pread of the
			 * file kept open, and the closes merged pay for the
			 * rest. Before 6.12 the remembered mount's root is
			 * checked with one handle more, which the floor, its
			 * mount known, does not make.
			 */
			snprintf(w, sizeof(w),
				 "emulated get_info %s%s: system calls <= sound floor + copies'%s",
				 target_name[t], cg_name[cg],
				 cg && !unique ? " + 1" : "");
			target_calls_plus(w, r_emul[t][cg], r_sound_checked[t][cg],
					  cg && !unique);
			/* What close_range's merge saves the floor (src/proc.c's held file). */
			snprintf(w, sizeof(w), "sound floor, closes merged %s%s / sound floor",
				 target_name[t], cg_name[cg]);
			info_ratio(w, r_sound_merged[t][cg], r_sound[t][cg]);
			/* And once the floor merges two closes as the library does. */
			snprintf(w, sizeof(w), "emulated get_info %s%s / sound floor, closes merged",
				 target_name[t], cg_name[cg]);
			info_ratio(w, r_emul[t][cg], r_sound_merged[t][cg]);
			snprintf(w, sizeof(w), "emulated get_info %s%s / sound floor + copies, paired",
				 target_name[t], cg_name[cg]);
			info_value(w, g_paired[t][cg]);
		}
}
