/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * pidfd(1): what the commands share (cli/util.c) and the commands
 * themselves (cli/info.c, cli/wait.c, cli/kill.c, cli/features.c).
 */
#ifndef PIDFD_CLI_H
#define PIDFD_CLI_H

#include <signal.h>
#include <stdbool.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include <libpidfd.h>

/* Exit status, as util-linux's waitpid(1) has it. */
#define EXIT_NOTSUP 2  /* the kernel cannot do what was asked */
#define EXIT_TIMEOUT 3 /* wait --timeout expired */
#define EXIT_PARTIAL 64 /* kill: some processes signalled, not all */

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* A usage error: message, the "Try" line, exit 1. */
void usage_error(const char *fmt, ...)
	__attribute__((noreturn, format(printf, 1, 2)));
/*
 * The output options a command was given (OUT_* bits): a JSON document,
 * JSON lines and a table's options exclude each other, a usage error as
 * lsblk's "mutually exclusive arguments".
 */
enum { OUT_JSON = 1, OUT_JSON_LINES = 2, OUT_NOHEADINGS = 4, OUT_RAW = 8 };
void output_modes_check(const char *cmd, unsigned int given);
/*
 * "pidfd: " and a message, then a newline, on stderr: every control byte
 * escaped as a table cell's (\xHH), since it may quote an operand.
 */
void warn_escaped(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Text with its control bytes escaped, as warn_escaped() does. */
void fputs_escaped(const char *s, FILE *f);
/*
 * A process that could not be opened: "pidfd: cannot open <arg>: <reason>"
 * ("no such process", "not a pidfd", what is wrong with /proc).
 */
void warn_open(const char *arg, int err);
/* What is wrong with /proc where the emulation needs it, or NULL. */
const char *proc_trouble(void);
/* An error about an opened process: "pidfd: <what> <arg>: <reason>". */
void warn_target(const char *what, const char *arg, int err);
/* The same for a signal to the target's process group. */
void warn_group_target(const char *what, const char *arg, int err);
/* 1 (failure) or 2 (not supported) for an errno. */
int exit_status_of(int err);

/*
 * A process named on the command line: "PID", "self" (the tool itself, by
 * the PIDFD_SELF_PROCESS sentinel) or "fd:N" (a pidfd inherited from the
 * caller, the only name that cannot have been recycled already).
 */
struct target {
	const char *arg;
	int fd;       /* a pidfd or PIDFD_SELF_PROCESS */
	pid_t pid;    /* 0 where not known (an inherited pidfd of a reaped process) */
	pid_t tid;    /* a thread id named: fd is its process's (pid), or its own */
	bool owned;   /* the tool opened fd and closes it */
	bool self;
};

/*
 * Note which "fd:N" operands name a descriptor open now: called first in
 * main(), before the tool opens any of its own.
 */
void inherited_fds_record(int argc, char **argv);
/* Check the syntax of a process argument: usage error if wrong. */
void target_check(const char *arg);
/*
 * Open a target: 0, or -1 with errno. A thread id opens the thread's
 * process, as kill(1) signals it, with t->tid set.
 */
int target_open(const char *arg, struct target *t);
/*
 * As target_open(), but a thread id opens the thread itself where the
 * kernel has thread pidfds (PIDFD_THREAD, 6.9); else its process, with a
 * note saying so on stderr.
 */
int target_open_thread(const char *arg, struct target *t);
void target_close(struct target *t);

/*
 * "PID:INODE" (cli/handle.c), util-linux 2.42's handle: the process at
 * PID whose pidfd has that pidfs inode (Linux 6.9), no other.
 */
bool handle_parse(const char *arg, pid_t *pid, uint64_t *inode);
/* Open it: 0, or -1 with errno (ESRCH: not that process; EOPNOTSUPP). */
int handle_open(struct target *t, pid_t pid, uint64_t inode);
/* A target's pidfs inode: 0, or -1 with errno (EOPNOTSUPP before 6.9). */
int handle_inode(const struct target *t, uint64_t *inode);

/* "SIGKILL", "SIGRTMIN+3", or "signal 99" into buf. */
const char *signal_name(int sig, char *buf, size_t size);
/* A signal by name ("KILL", "SIGKILL", "kill", "RTMIN+1") or number; -1 if none. */
int signal_parse(const char *s);

/* How a process ended. */
struct ending {
	enum { END_UNKNOWN, END_EXITED, END_KILLED } how;
	int value;  /* exit code or signal */
	bool core;  /* dumped core */
};
struct ending ending_of_wait_status(int status);
/*
 * An unreaped zombie's wait status, through its pidfd (cli/wait.c): false
 * where it is no zombie or the kernel hides the status from us.
 */
bool zombie_exit_status(int pidfd, int *status);
struct ending ending_of_siginfo(const siginfo_t *si);
/* "exited 3", "killed by SIGKILL (core dumped)", "exited (status unknown)". */
const char *ending_text(const struct ending *e, char *buf, size_t size);

/*
 * A JSON string literal, or null for NULL: always valid UTF-8, a byte that
 * is not UTF-8 as the text \xHH (cli/output.c).
 */
void json_string(FILE *f, const char *s);
/* One JSON document: {"name": [ item, item ], "name2": [ ... ]}. */
void json_doc_begin(FILE *f);
void json_array_begin(FILE *f, const char *name, bool first);
void json_array_item(FILE *f, size_t index);
void json_array_end(FILE *f);
void json_doc_end(FILE *f);

/*
 * A table cell as util-linux shows it: control bytes, invalid multibyte
 * sequences and unprintable characters as \xHH, "\x" itself as \x5cx,
 * blanks too if raw. Allocated; its display width in *width.
 */
char *cell_encode(const char *s, bool raw, size_t *width);

/* A table of text cells (allocated, NULL for unknown, shown as "-"). */
struct table {
	size_t ncols;
	const char **names;
	const bool *right; /* right-aligned (numbers) */
	char ***rows;      /* rows[r][c] */
	size_t nrows, cap;
	/*
	 * As ps on a terminal: lines no wider than this (0: any width), the
	 * truncatable column (trunc[c], ARGS) cut to fit.
	 */
	size_t max_width;
	const bool *trunc;
};
/* The width of the terminal on stdout, 0 if it is none (a pipe, a file). */
size_t terminal_width(void);
void table_add_row(struct table *t, char **values); /* takes them */
void table_print(FILE *f, struct table *t, bool headings, bool raw);
void table_free(struct table *t);

/* A flag and its name, for the tables that spell a mask out. */
struct bit_name {
	uint64_t bit;
	const char *name;
};

/*
 * The long options several commands share, for their getopt_long()
 * tables: --json and --json-lines; --help and --version, which every
 * command takes and common_option() handles, and the table's end.
 */
#define OPTIONS_JSON                                  \
	{ "json", no_argument, NULL, 'J' },           \
	{ "json-lines", no_argument, NULL, 'j' }
#define OPTIONS_COMMON_END                            \
	{ "help", no_argument, NULL, 'h' },           \
	{ "version", no_argument, NULL, 'V' },        \
	{ NULL, 0, NULL, 0 }

/*
 * --help (the command's own), --version, or getopt's '?' (a usage error,
 * its message escaped: main() sets opterr to 0): never returns. argv and
 * opts are what getopt_long() was given.
 */
void common_option(int c, char **argv, const struct option *opts)
	__attribute__((noreturn));
/* The command being run ("info"), or NULL before one is named. */
const char *command_name(void);
/* "Try 'pidfd [command] --help' for more information." on stderr. */
void try_help(void);

/* Each command's --help, on stdout (in the command's file). */
void help_info(void);
void help_wait(void);
void help_kill(void);
void help_features(void);
void help_open(void);
/* What every --help says. */
#define HELP_PROCESS                                                        \
	"A <process> is a PID, 'self' (pidfd itself), 'fd:N' (a pidfd\n"     \
	"inherited on file descriptor N) or PID:INODE (the process at PID\n" \
	"whose pidfd has that pidfs inode, Linux 6.9). A thread ID stands\n"  \
	"for its process (info shows the thread where the kernel can).\n"
#define HELP_COMMON_OPTIONS                                                 \
	" -h, --help               display this help\n"                      \
	" -V, --version            display version\n"
/* info, wait and features: --json and --json-lines (OPTIONS_JSON). */
#define HELP_JSON_OPTIONS                                                   \
	" -J, --json               one JSON document\n"                      \
	" -j, --json-lines         one JSON object per line\n"
/* info, wait and kill: --name, --full, --exact (cli/select.c). */
#define HELP_SELECT_OPTIONS                                                 \
	" -N, --name <pattern>     only processes whose command name\n"       \
	"                            matches, an extended regular expression\n" \
	"                            as pgrep's; each checked again through\n" \
	"                            its pidfd\n"                              \
	" -f, --full               the pattern matches the whole command\n"   \
	"                            line\n"                                   \
	" -x, --exact              the pattern matches the whole name or\n"   \
	"                            command line\n"                         \
	" -i, --ignore-case        the pattern matches in any case\n"        \
	" -P, --parent <pids>      only children of these processes\n"       \
	" -F, --pidfile <file>     only the process this pidfile names,\n"   \
	"                            checked again once its pidfd is open\n" \
	"     --logpidfile         only if that process holds the pidfile\n" \
	"                            locked\n"                                \
	" -U, --uid <users>        only processes of these real users\n"     \
	" -G, --group <groups>     only processes of these real groups\n"    \
	" -g, --pgroup <pgids>     only processes of these process groups\n" \
	"                            (0: pidfd's own)\n"                      \
	"     --session <sids>     only processes of these sessions (0:\n"   \
	"                            pidfd's own)\n"                          \
	"     --terminal <ttys>    only processes of these terminals (pts/1)\n" \
	"     --runstates <states> only processes in these states (D,R,S)\n" \
	" -v, --inverse            every process the rest does not select\n" \
	" -A, --ignore-ancestors   never pidfd's own ancestors\n"            \
	"     --newest             only the newest process selected\n"       \
	"     --oldest             only the oldest process selected\n"       \
	"     --cgroup <paths>     only processes of these cgroups (v2)\n"   \
	"     --ns <pid>           only processes in the namespaces of <pid>\n" \
	"     --nslist <types>     the namespaces compared: ipc,mnt,\n" \
	"                            net,pid,user,uts,cgroup,time (all)\n"
/* info and kill: --count. */
#define HELP_SELECT_COUNT                                                   \
	"     --count              print how many processes were selected\n" \
	"                            (info: instead of them)\n"
#define HELP_END "\nFor more details see pidfd(1).\n"
/* The info fields and what each means, for --help. */
void info_list_fields(FILE *f);

/*
 * /proc beyond libpidfd_get_info() (cli/procfs.c), through the pidfd (or
 * PIDFD_SELF_PROCESS): true where read and well-formed, and then the
 * process's own, never a recycled pid's.
 */
struct lpfd_stat;
#include <dirent.h>
/* 0 where /proc is a procfs of our pid namespace, else -errno (ENOSYS). */
int procfs_check(void);
/* That procfs's root, to list the processes, or NULL with errno. */
DIR *procfs_list(void);
/* The Tgid of /proc/<tid>/status, a hint to check through a pidfd; or -1. */
pid_t procfs_tgid_of(pid_t tid);
/* /proc/stat's btime, the boot time that ps uses. */
bool procfs_boot_time(long long *btime);
/* /proc/meminfo's MemTotal, in KiB, which ps's %MEM divides by. */
bool procfs_mem_total(long long *kb);
/*
 * A process's /proc directory for the reads of one query: its pidfd and,
 * where the kernel has openat2, the directory itself, bound to the
 * process (fd -1: each file through libpidfd_proc_open()).
 */
struct procdir {
	int pidfd;
	int fd;
};
void procdir_open(struct procdir *d, int pidfd);
/* One info --all listed: pidfd opened on pid, root from procfs_list(). */
int procdir_open_listed(struct procdir *d, int pidfd, pid_t pid, int root);
void procdir_close(struct procdir *d);
/* Ids and credentials as libpidfd_get_info() emulated has them. */
bool procdir_info(const struct procdir *d, pid_t pid,
		  struct libpidfd_info *info);
bool procdir_stat(const struct procdir *d, struct lpfd_stat *st);
/*
 * A zombie's exit_code (its /proc stat's field 52), as waitpid(2) gives
 * it: false where it is no zombie. The kernel shows 0 to a reader that
 * may not ptrace-read the process: the caller decides whether to trust it.
 */
bool procfs_exit_code(int pidfd, int *code);
/* Virtual and resident memory in pages, from statm. */
bool procdir_statm(const struct procdir *d, unsigned long long *size,
		   unsigned long long *resident);
/* The kernel function it sleeps in (ps's WCHAN), NUL-terminated. */
bool procdir_wchan(const struct procdir *d, char *out, size_t size);
/* The whole command line, allocated; NULL if none. */
char *procdir_args(const struct procdir *d);
/* The cgroup2 path, as the process's cgroup file names it. */
bool procdir_cgroup(const struct procdir *d, char *out, size_t size);
/* A link of the process's directory ("exe", "cwd"), NUL-terminated. */
bool procfs_link(int pidfd, const char *name, char *out, size_t size);

/*
 * Selection, as pgrep(1) selects (cli/select.c): by name (--name PATTERN,
 * an extended regular expression matched against the command name;
 * --full against the arguments; --exact the whole of it), by parent,
 * ids, process group, session, terminal, state, cgroup, namespaces, or a
 * pidfile. Each process found is opened and checked again through its
 * pidfd before any command acts on it.
 */
#include <regex.h>
/* The long-only selection options, clear of every command's own values. */
enum {
	SEL_LOGPIDFILE = 0x300,
	SEL_SESSION,
	SEL_TERMINAL,
	SEL_RUNSTATES,
	SEL_NEWEST,
	SEL_OLDEST,
	SEL_COUNT,
	SEL_CGROUP,
	SEL_NS,
	SEL_NSLIST,
};
#define OPTIONS_SELECT                                             \
	{ "name", required_argument, NULL, 'N' },                  \
	{ "full", no_argument, NULL, 'f' },                        \
	{ "exact", no_argument, NULL, 'x' },                       \
	{ "ignore-case", no_argument, NULL, 'i' },                 \
	{ "parent", required_argument, NULL, 'P' },                \
	{ "pidfile", required_argument, NULL, 'F' },               \
	{ "logpidfile", no_argument, NULL, SEL_LOGPIDFILE },       \
	{ "uid", required_argument, NULL, 'U' },                   \
	{ "group", required_argument, NULL, 'G' },                 \
	{ "pgroup", required_argument, NULL, 'g' },                \
	{ "session", required_argument, NULL, SEL_SESSION },       \
	{ "terminal", required_argument, NULL, SEL_TERMINAL },     \
	{ "runstates", required_argument, NULL, SEL_RUNSTATES },   \
	{ "inverse", no_argument, NULL, 'v' },                     \
	{ "ignore-ancestors", no_argument, NULL, 'A' },            \
	{ "newest", no_argument, NULL, SEL_NEWEST },               \
	{ "oldest", no_argument, NULL, SEL_OLDEST },               \
	{ "cgroup", required_argument, NULL, SEL_CGROUP },         \
	{ "ns", required_argument, NULL, SEL_NS },                 \
	{ "nslist", required_argument, NULL, SEL_NSLIST }
/* --count: info and kill (wait has a --count of its own). */
#define OPTION_SELECT_COUNT { "count", no_argument, NULL, SEL_COUNT }
#define SHORT_SELECT "N:fxiP:F:U:G:g:vA"

/* A comma list of numbers (pids, ids, terminals' device numbers). */
struct id_list {
	long long *v;
	size_t n;
};

struct selection {
	const char *pattern;
	bool full, exact, icase, inverse, no_ancestors, newest, oldest;
	bool count, logpidfile;
	bool active;   /* some criterion given */
	bool compiled; /* re holds the pattern */
	regex_t re;
	struct id_list parents, uids, gids, pgroups, sessions, ttys, ancestors;
	const char *runstates, *pidfile;
	char **cgroups;
	size_t ncgroups;
	pid_t ns_pid;
	unsigned int nslist;      /* bits of the namespace types compared */
	unsigned long long ns[8]; /* ns_pid's namespace inodes */
	/* --newest, --oldest: the one kept so far, and its start time. */
	struct target best;
	unsigned long long best_start;
	bool have_best;
	size_t matched; /* processes handed on */
	int rc;         /* EXIT_SUCCESS, or the status of a failure seen */
	char **texts;   /* the pids handed on, as text (each target's arg) */
	size_t ntexts, cap_texts;
};
struct select_ops {
	/* Takes a confirmed target; from then on it is the command's. */
	void (*take)(struct target *t, void *arg);
	/* Descriptors ran out: close some (true), or cannot (false). */
	bool (*release)(void *arg);
};
/* True if getopt's c was one of OPTIONS_SELECT, now noted. */
bool selection_option(struct selection *s, int c, const char *arg);
/* After the options: compile the pattern (usage error if bad). */
void selection_ready(struct selection *s, const char *cmd);
/* Every match among the operands, or among all of /proc where none. */
void selection_run(struct selection *s, const char *cmd, char **operands,
		   int n, const struct select_ops *ops, void *arg);
void selection_free(struct selection *s);

/*
 * info's rows, in the order --sort and --forest give (cli/order.c): the
 * cells, the values of the sort keys (a number, or text where str is
 * set) and the ids the tree is drawn from (0: unknown).
 */
struct sort_value {
	bool known;
	double num;
	char *str;
};
struct row {
	char **cells;
	struct sort_value *keys;
	uint32_t pid, ppid;
	size_t seq; /* the order found in */
};
/* By the keys in turn, desc[k] descending; ties in the order found. */
void rows_sort(struct row *rows, size_t n, const bool *desc, size_t nkeys);
/*
 * The rows in tree order, each under its parent (allocated indices), and
 * each row's prefix (" |   \_ ", allocated) in *prefix, by row.
 */
size_t *rows_forest(const struct row *rows, size_t n, char ***prefix);

int cmd_info(int argc, char **argv);
int cmd_wait(int argc, char **argv);
int cmd_kill(int argc, char **argv);
int cmd_features(int argc, char **argv);
int cmd_open(int argc, char **argv);

#endif
