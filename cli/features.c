/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * pidfd features: per operation, whether this kernel does it (native), the
 * library does it (emulated) or nobody can (unavailable), and why: the
 * kernel feature that decides it, with the release that brought it.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "pidfd.h"
#include "internal/feature_list.h"

struct kfeature {
	uint64_t bit;
	const char *what;
	const char *since;
};

/* The library's own list of kernel features, names and releases. */
static const struct kfeature kfeatures[] = {
#define KFEATURE(NAME, name, since, emulable, what) \
	{ LIBPIDFD_KERNEL_##NAME, what, since },
	LPFD_FEATURES(KFEATURE)
#undef KFEATURE
};

/* The library's own list of PIDFD_INFO_* bits. */
static const struct bit_name info_bits[] = {
#define INFO_BIT(NAME, feat, emulated, last) { PIDFD_INFO_##NAME, #NAME },
	LPFD_INFO_BITS(INFO_BIT)
#undef INFO_BIT
};

/* An operation, the kernel feature it rests on, and what emulates it. */
struct op {
	const char *name;
	size_t offset;       /* of its enum libpidfd_support in the struct */
	uint64_t kernel;     /* the LIBPIDFD_KERNEL_* bit that makes it native */
	const char *emulation; /* how the library does it without, or NULL */
};

/* The library's own list of operations. */
static const struct op ops[] = {
#define OP(field, feat, without, how)                                          \
	{ #field, offsetof(struct libpidfd_features, field),                    \
	  LIBPIDFD_KERNEL_##feat, how },
	LPFD_OPERATIONS(OP)
#undef OP
};

static const struct kfeature *kfeature(uint64_t bit)
{
	for (size_t i = 0; i < ARRAY_SIZE(kfeatures); i++)
		if (kfeatures[i].bit == bit)
			return &kfeatures[i];
	abort();
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

/* Why an operation is done as it is, in one line. */
static void why(const struct libpidfd_features *f, const struct op *op,
		uint32_t s, char *buf, size_t size)
{
	const struct kfeature *k = kfeature(op->kernel);
	bool kernel_has = (f->kernel & op->kernel) != 0;

	if (s == LIBPIDFD_NATIVE)
		snprintf(buf, size, "kernel has %s (Linux %s)", k->what,
			 k->since);
	else if (s == LIBPIDFD_EMULATED && kernel_has && f->emulate_forced)
		snprintf(buf, size, "LIBPIDFD_EMULATE=1 forces it; %s",
			 op->emulation ? op->emulation : "emulated");
	else if (s == LIBPIDFD_EMULATED)
		snprintf(buf, size, "kernel lacks %s (Linux %s); %s", k->what,
			 k->since, op->emulation ? op->emulation : "emulated");
	else
		snprintf(buf, size, "kernel lacks %s (Linux %s)", k->what,
			 k->since);
}

static uint32_t support_of(const struct libpidfd_features *f,
			   const struct op *op)
{
	uint32_t v;

	memcpy(&v, (const char *)f + op->offset, sizeof(v));
	return v;
}

static void print_table(const struct libpidfd_features *f)
{
	char reason[160];

	printf("%-17s %-11s %s\n", "OPERATION", "SUPPORT", "WHY");
	for (size_t i = 0; i < ARRAY_SIZE(ops); i++) {
		uint32_t s = support_of(f, &ops[i]);

		why(f, &ops[i], s, reason, sizeof(reason));
		printf("%-17s %-11s %s\n", ops[i].name, support_name(s), reason);
	}
	printf("\n%-31s %-6s %s\n", "KERNEL FEATURE", "SINCE", "PRESENT");
	for (size_t i = 0; i < ARRAY_SIZE(kfeatures); i++)
		printf("%-31s %-6s %s\n", kfeatures[i].what, kfeatures[i].since,
		       f->kernel & kfeatures[i].bit ? "yes" : "no");
	printf("\nget_info returns:");
	for (size_t i = 0; i < ARRAY_SIZE(info_bits); i++)
		if (f->info_mask & info_bits[i].bit)
			printf(" %s", info_bits[i].name);
	printf("\nemulation forced: %s\n", f->emulate_forced ?
	       "yes (LIBPIDFD_EMULATE=1)" : "no");
}

/*
 * One document: the operations, the kernel features, what get_info
 * returns here, and whether the emulation is forced.
 */
static void print_json_doc(const struct libpidfd_features *f)
{
	char reason[160];
	size_t n = 0;

	json_doc_begin(stdout);
	json_array_begin(stdout, "operations", true);
	for (size_t i = 0; i < ARRAY_SIZE(ops); i++) {
		uint32_t s = support_of(f, &ops[i]);

		why(f, &ops[i], s, reason, sizeof(reason));
		json_array_item(stdout, i);
		printf("{\"operation\":\"%s\",\"support\":\"%s\",\"why\":",
		       ops[i].name, support_name(s));
		json_string(stdout, reason);
		putchar('}');
	}
	json_array_end(stdout);
	json_array_begin(stdout, "kernel", false);
	for (size_t i = 0; i < ARRAY_SIZE(kfeatures); i++) {
		json_array_item(stdout, i);
		printf("{\"feature\":");
		json_string(stdout, kfeatures[i].what);
		printf(",\"since\":\"%s\",\"present\":%s}", kfeatures[i].since,
		       f->kernel & kfeatures[i].bit ? "true" : "false");
	}
	json_array_end(stdout);
	json_array_begin(stdout, "info_mask", false);
	for (size_t i = 0; i < ARRAY_SIZE(info_bits); i++)
		if (f->info_mask & info_bits[i].bit) {
			json_array_item(stdout, n++);
			printf("\"%s\"", info_bits[i].name);
		}
	json_array_end(stdout);
	printf(",\n   \"emulate_forced\": %s", f->emulate_forced ? "true" : "false");
	json_doc_end(stdout);
}

/* One object per operation, then one for the kernel, one line each. */
static void print_json_lines(const struct libpidfd_features *f)
{
	char reason[160];

	for (size_t i = 0; i < ARRAY_SIZE(ops); i++) {
		uint32_t s = support_of(f, &ops[i]);

		why(f, &ops[i], s, reason, sizeof(reason));
		printf("{\"operation\":\"%s\",\"support\":\"%s\",\"why\":",
		       ops[i].name, support_name(s));
		json_string(stdout, reason);
		puts("}");
	}
	printf("{\"kernel\":{");
	for (size_t i = 0; i < ARRAY_SIZE(kfeatures); i++) {
		printf("%s", i ? "," : "");
		json_string(stdout, kfeatures[i].what);
		printf(":%s", f->kernel & kfeatures[i].bit ? "true" : "false");
	}
	printf("},\"info_mask\":%" PRIu64 ",\"emulate_forced\":%s}\n",
	       (uint64_t)f->info_mask, f->emulate_forced ? "true" : "false");
}

void help_features(void)
{
	fputs("Usage:\n"
	      " pidfd features [options]\n"
	      "\n"
	      "For each library operation, whether this kernel does it natively,\n"
	      "the library emulates it, or it is unavailable, and why.\n"
	      "\n"
	      "Options:\n"
	      HELP_JSON_OPTIONS
	      HELP_COMMON_OPTIONS
	      "\n"
	      "Exit status: 0 success, 1 failure.\n"
	      HELP_END,
	      stdout);
}

int cmd_features(int argc, char **argv)
{
	static const struct option opts[] = {
		OPTIONS_JSON,
		OPTIONS_COMMON_END,
	};
	struct libpidfd_features f;
	unsigned int given = 0;
	int c, json = 0;

	while ((c = getopt_long(argc, argv, "JjhV", opts, NULL)) != -1) {
		if (c == 'J' || c == 'j') {
			json = c;
			given |= c == 'J' ? OUT_JSON : OUT_JSON_LINES;
		} else
			common_option(c, argv, opts);
	}
	output_modes_check("features", given);
	if (optind < argc)
		usage_error("features: unexpected argument '%s'", argv[optind]);
	if (libpidfd_features(&f, sizeof(f)) < 0) {
		int err = errno;

		warn_escaped("cannot query features: %s", strerror(err));
		return exit_status_of(err);
	}
	if (json == 'J')
		print_json_doc(&f);
	else if (json)
		print_json_lines(&f);
	else
		print_table(&f);
	return EXIT_SUCCESS;
}
