/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The version: the header's LIBPIDFD_VERSION_* are the Makefile's VERSION
 * (which the build passes as LIBPIDFD_VERSION_STRING), the running
 * library says the same, and both checks answer "this version or later"
 * for every order of the three numbers. The shared library exports the
 * functions under LIBPIDFD_0.2.
 */
#include <dlfcn.h>
#include <libgen.h>

#include "harness.h"
#include <libpidfd.h>

#define MAJ LIBPIDFD_VERSION_MAJOR
#define MIN LIBPIDFD_VERSION_MINOR
#define PAT LIBPIDFD_VERSION_PATCH

TEST(header_version_is_the_makefiles)
{
	char v[64];

	snprintf(v, sizeof(v), "%d.%d.%d", MAJ, MIN, PAT);
	ASSERT_EQ(strcmp(v, LIBPIDFD_VERSION_STRING), 0);
}

TEST(library_version_is_the_headers)
{
	ASSERT_EQ(libpidfd_major_version(), MAJ);
	ASSERT_EQ(libpidfd_minor_version(), MIN);
	ASSERT_EQ(libpidfd_patch_version(), PAT);
}

/* Every version around the current one, and whether it is "at most" ours. */
static const struct {
	int major, minor, patch, ok;
} cases[] = {
	{ MAJ, MIN, PAT, 1 },
	{ MAJ, MIN, PAT + 1, 0 },
	{ MAJ, MIN + 1, 0, 0 },
	{ MAJ + 1, 0, 0, 0 },
	{ MAJ, MIN + 1, -1, 0 },
	{ MAJ, MIN - 1, PAT + 100, 1 },
	{ MAJ - 1, MIN + 100, PAT + 100, 1 },
	{ MAJ, MIN, PAT - 1, 1 },
	{ 0, 0, 0, 1 },
	{ -1, -1, -1, 1 },
};

TEST(check_version_is_this_version_or_later)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int ok = libpidfd_check_version(cases[i].major, cases[i].minor,
						cases[i].patch);

		if (!ok != !cases[i].ok)
			FAIL("libpidfd_check_version(%d, %d, %d) = %d",
			     cases[i].major, cases[i].minor, cases[i].patch, ok);
		ok = LIBPIDFD_CHECK_VERSION(cases[i].major, cases[i].minor,
					    cases[i].patch);
		if (!ok != !cases[i].ok)
			FAIL("LIBPIDFD_CHECK_VERSION(%d, %d, %d) = %d",
			     cases[i].major, cases[i].minor, cases[i].patch, ok);
	}
}

/* The build directory: this program lives in BUILD/tests/. */
static void *open_shared_library(void)
{
	char self[4096], path[4200];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	void *h;

	ASSERT_GE(n, 1);
	self[n] = '\0';
	snprintf(path, sizeof(path), "%s/libpidfd.so.0", dirname(dirname(self)));
	h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!h)
		FAIL("dlopen %s: %s", path, dlerror());
	return h;
}

/*
 * musl's dynamic linker binds by name alone and has no dlvsym(): a musl
 * program gets each name's one definition, whatever its node (test-symbols
 * reads the nodes from the library itself).
 */
#ifdef __GLIBC__
#define versioned_sym(h, name, node) dlvsym(h, name, node)
#else
#define versioned_sym(h, name, node) ((void)(node), dlsym(h, name))
#endif

TEST(shared_library_answers_under_node_0_2)
{
	void *h = open_shared_library();
	const char *v2 = "LIBPIDFD_0.2";
	int (*major)(void) = (int (*)(void))versioned_sym(
		h, "libpidfd_major_version", v2);
	int (*minor)(void) = (int (*)(void))versioned_sym(
		h, "libpidfd_minor_version", v2);
	int (*patch)(void) = (int (*)(void))versioned_sym(
		h, "libpidfd_patch_version", v2);
	int (*check)(int, int, int) = (int (*)(int, int, int))versioned_sym(
		h, "libpidfd_check_version", v2);

	ASSERT_TRUE(major && minor && patch && check);
	ASSERT_EQ(major(), MAJ);
	ASSERT_EQ(minor(), MIN);
	ASSERT_EQ(patch(), PAT);
	ASSERT_EQ(check(MAJ, MIN, PAT), 1);
	ASSERT_EQ(check(MAJ, MIN + 1, 0), 0);
	/* The 0.1 names did not move. */
	ASSERT_TRUE(versioned_sym(h, "libpidfd_open", "LIBPIDFD_0.1") != NULL);
#ifdef __GLIBC__
	ASSERT_TRUE(dlvsym(h, "libpidfd_major_version", "LIBPIDFD_0.1") == NULL);
#else
	/* Under musl the one definition answers, asked for any node. */
	ASSERT_TRUE(versioned_sym(h, "libpidfd_major_version", "LIBPIDFD_0.1") ==
		    (void *)major);
#endif
	dlclose(h);
}
