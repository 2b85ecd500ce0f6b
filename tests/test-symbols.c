/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The promises the shared library makes by what it links against, checked
 * on the built libpidfd.so with nm -D: it imports no allocator, no stdio
 * and no lock (so it can be called from a signal handler or a forked child
 * of a threaded program), and it exports exactly the names of its version
 * script, each under that version.
 */
#include <libgen.h>

#include "harness.h"

#define MAX_SYMS 512

struct syms {
	char name[MAX_SYMS][128];
	char version[MAX_SYMS][32];
	int n;
};

/* The build directory: this program lives in BUILD/tests/. */
static void build_dir(char *out, size_t size)
{
	char self[4096];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	ASSERT_GE(n, 1);
	self[n] = '\0';
	snprintf(out, size, "%s", dirname(dirname(self)));
}

/* nm -D with these options on the shared library, one symbol a line. */
static void nm(const char *opts, struct syms *s)
{
	char dir[4096], cmd[8192], line[512];
	FILE *p;
	int status;

	build_dir(dir, sizeof(dir));
	snprintf(cmd, sizeof(cmd), "nm -D %s '%s/libpidfd.so' 2>&1", opts, dir);
	p = popen(cmd, "r");
	ASSERT_TRUE(p != NULL);
	s->n = 0;
	while (fgets(line, sizeof(line), p)) {
		char *name = strrchr(line, ' '), *at;

		if (!name || s->n == MAX_SYMS)
			FAIL("nm output: %s", line);
		name++;
		name[strcspn(name, "\n")] = '\0';
		s->version[s->n][0] = '\0';
		at = strchr(name, '@');
		if (at) {
			snprintf(s->version[s->n], sizeof(s->version[0]), "%s",
				 at + strspn(at, "@"));
			*at = '\0';
		}
		snprintf(s->name[s->n], sizeof(s->name[0]), "%s", name);
		s->n++;
	}
	status = pclose(p);
	if (status != 0)
		FAIL("%s: exit status %d", cmd, status);
	ASSERT_TRUE(s->n > 0);
}

static bool starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* What the library must never call. */
static const char *forbidden(const char *sym)
{
	static const char *const alloc[] = {
		"malloc", "calloc", "realloc", "reallocarray", "free",
		"posix_memalign", "aligned_alloc", "memalign", "valloc",
		"pvalloc", "strdup", "strndup", "asprintf", "vasprintf",
		"getline", "getdelim", "open_memstream",
	};
	static const char *const stdio[] = {
		"stdin", "stdout", "stderr", "puts", "putchar", "perror",
		"fopen", "fdopen", "freopen", "fclose", "fflush", "fread",
		"fwrite", "fgets", "fgetc", "getc", "fputs", "fputc", "putc",
		"setvbuf", "setbuf", "popen", "pclose", "tmpfile",
	};
	static const char *const locks[] = {
		"pthread_", "sem_", "mtx_", "cnd_", "call_once", "flock",
		"lockf", "__libc_lock", "_IO_",
	};

	for (size_t i = 0; i < sizeof(alloc) / sizeof(alloc[0]); i++)
		if (strcmp(sym, alloc[i]) == 0)
			return "an allocator";
	for (size_t i = 0; i < sizeof(stdio) / sizeof(stdio[0]); i++)
		if (strcmp(sym, stdio[i]) == 0)
			return "stdio";
	if (strstr(sym, "printf") || strstr(sym, "scanf"))
		return "stdio";
	for (size_t i = 0; i < sizeof(locks) / sizeof(locks[0]); i++)
		if (starts(sym, locks[i]))
			return "a lock";
	return NULL;
}

TEST(shared_library_imports_no_allocator_stdio_or_lock)
{
	static struct syms imp;
	char list[4096] = "";

	/* The list catches what it is meant to. */
	ASSERT_TRUE(forbidden("malloc") && forbidden("free") &&
		    forbidden("snprintf") && forbidden("stderr") &&
		    forbidden("pthread_mutex_lock") && !forbidden("memcpy"));
	nm("--undefined-only", &imp);
	for (int i = 0; i < imp.n; i++) {
		const char *why = forbidden(imp.name[i]);

		if (why)
			FAIL("libpidfd.so imports %s: %s", why, imp.name[i]);
		if (strlen(list) + strlen(imp.name[i]) + 2 < sizeof(list))
			strcat(strcat(list, " "), imp.name[i]);
	}
	printf("# imports:%s\n", list);
}

/* The global names of src/libpidfd.map, each with its version node. */
static int map_globals(char names[][128], char nodes[][128], int max)
{
	FILE *f = fopen("src/libpidfd.map", "re");
	char line[256], node[128] = "";
	bool global = false;
	int n = 0;

	if (!f)
		FAIL("src/libpidfd.map (run from the source tree): %s",
		     strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		char word[128];

		if (sscanf(line, " %127[A-Za-z0-9_.] {", word) == 1 &&
		    strchr(line, '{'))
			snprintf(node, sizeof(node), "%s", word);
		else if (strstr(line, "global:"))
			global = true;
		else if (strstr(line, "local:") || strchr(line, '}'))
			global = false;
		else if (global && sscanf(line, " %127[A-Za-z0-9_] ;", word) == 1) {
			ASSERT_TRUE(n < max && node[0]);
			snprintf(names[n], 128, "%s", word);
			snprintf(nodes[n++], 128, "%s", node);
		}
	}
	fclose(f);
	return n;
}

TEST(shared_library_exports_exactly_its_version_script)
{
	static struct syms exp;
	static char names[64][128], nodes[64][128];
	int n = map_globals(names, nodes, 64), found = 0;

	ASSERT_TRUE(n >= 10);
	nm("--defined-only", &exp);
	for (int i = 0; i < exp.n; i++) {
		int listed = -1;

		for (int j = 0; j < n; j++) {
			if (strcmp(exp.name[i], nodes[j]) == 0)
				listed = -2; /* a version node itself */
			else if (strcmp(exp.name[i], names[j]) == 0)
				listed = j;
		}
		if (listed == -2)
			continue;
		if (listed < 0)
			FAIL("libpidfd.so exports %s, which src/libpidfd.map does not list",
			     exp.name[i]);
		if (strcmp(exp.version[i], nodes[listed]) != 0)
			FAIL("%s is exported as version '%s', not %s",
			     exp.name[i], exp.version[i], nodes[listed]);
		found++;
	}
	/* And every name the script lists is there. */
	ASSERT_EQ(found, n);
}
