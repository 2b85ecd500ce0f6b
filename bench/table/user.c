/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* make bench: what user code does today, racy and race-free. */

#include "bench.h"

int r_racy[T_COUNT];
static int r_racefree[T_COUNT];

/* What user code does today: fopen/fgets/sscanf of /proc/<pid>/status. */
struct user_ids {
	int pid, tgid, ppid;
	unsigned int uid[4], gid[4];
};

static int user_parse_status(pid_t pid, struct user_ids *u)
{
	char path[64], line[256];
	unsigned found = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (found != 0x1f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "Tgid: %d", &u->tgid) == 1)
			found |= 1;
		else if (sscanf(line, "Pid: %d", &u->pid) == 1)
			found |= 2;
		else if (sscanf(line, "PPid: %d", &u->ppid) == 1)
			found |= 4;
		else if (sscanf(line, "Uid: %u %u %u %u", &u->uid[0], &u->uid[1],
				&u->uid[2], &u->uid[3]) == 4)
			found |= 8;
		else if (sscanf(line, "Gid: %u %u %u %u", &u->gid[0], &u->gid[1],
				&u->gid[2], &u->gid[3]) == 4)
			found |= 16;
	}
	fclose(f);
	return found == 0x1f ? 0 : -1;
}

/* Racy: the pid may have been reused by another process since it was known. */
static int op_user_racy(const struct row *r)
{
	struct user_ids u;

	return user_parse_status(g_pid[r->t], &u);
}

/*
 * The same made race-free by hand: the pid from the pidfd's fdinfo, the
 * status, and a signal 0 through the pidfd to prove it was not reaped
 * (so its pid was not reused) while the status was read.
 */
static int op_user_racefree(const struct row *r)
{
	char path[64], line[256];
	struct user_ids u;
	int pid = -2;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", g_fd[r->t]);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Pid: %d", &pid) == 1)
			break;
	fclose(f);
	if (pid <= 0 || user_parse_status(pid, &u) < 0)
		return -1;
	return (int)syscall(SYS_pidfd_send_signal, g_fd[r->t], 0, NULL, 0);
}

void add_user_rows(void)
{
	char l[96];

	for (int t = 0; t < T_COUNT; t++) {
		snprintf(l, sizeof(l), "fopen/fgets/sscanf status, racy: %s",
			 target_name[t]);
		r_racy[t] = add("what user code does today", l, op_user_racy,
				t, 0, P_NONE, 0);
		snprintf(l, sizeof(l), "fdinfo+status+signal 0, race-free: %s",
			 target_name[t]);
		r_racefree[t] = add("what user code does today", l,
				    op_user_racefree, t, 0, P_NONE, 0);
	}
}
