/* SPDX-License-Identifier: LGPL-2.1-or-later OR MIT */
/*
 * libpidfd_features(): what the library does on this kernel, per call, from
 * the probe table.
 */
#include <string.h>

#include "internal.h"

static uint64_t kernel_mask(void)
{
	uint64_t m = 0;

	for (int i = 0; i < LPFD_FEAT_COUNT; i++)
		if (lpfd_kernel_has((enum lpfd_feature)i) > 0)
			m |= 1ULL << i;
	return m;
}

/* Native where the kernel has it, else the library's emulation. */
static uint32_t native_or(enum lpfd_feature f, uint32_t otherwise)
{
	return lpfd_native(f) > 0 ? LIBPIDFD_NATIVE : otherwise;
}

static void fill(struct libpidfd_features *f)
{
	f->open = native_or(LPFD_FEAT_PIDFD_OPEN, LIBPIDFD_UNAVAILABLE);
	f->get_info = native_or(LPFD_FEAT_GET_INFO, LIBPIDFD_EMULATED);
	f->getpid = f->get_info;
	f->send_signal = native_or(LPFD_FEAT_SEND_SIGNAL, LIBPIDFD_UNAVAILABLE);
	f->getfd = native_or(LPFD_FEAT_GETFD, LIBPIDFD_UNAVAILABLE);
	f->process_madvise =
		native_or(LPFD_FEAT_PROCESS_MADVISE, LIBPIDFD_UNAVAILABLE);
	f->process_mrelease =
		native_or(LPFD_FEAT_PROCESS_MRELEASE, LIBPIDFD_UNAVAILABLE);
	f->waitid = native_or(LPFD_FEAT_WAITID_PIDFD, LIBPIDFD_UNAVAILABLE);
	f->get_namespace = native_or(LPFD_FEAT_NS_IOCTLS, LIBPIDFD_EMULATED);
	f->self_sentinels =
		native_or(LPFD_FEAT_SELF_SENTINELS, LIBPIDFD_EMULATED);
	f->thread_pidfds =
		native_or(LPFD_FEAT_PIDFD_THREAD, LIBPIDFD_UNAVAILABLE);
	f->emulate_forced = lpfd_emulate_forced();
	f->info_mask = lpfd_info_supported_mask();
	f->kernel = kernel_mask();
}

/*
 * Every probe, run now if it has not: one that could not run this time
 * (EMFILE, say) gives its error rather than a feature shown as absent.
 */
static int probe_all(void)
{
	for (int i = 0; i < LPFD_FEAT_COUNT; i++) {
		int r = lpfd_kernel_has((enum lpfd_feature)i);

		if (r < 0)
			return r;
	}
	return 0;
}

static int do_features(struct libpidfd_features *out, size_t size)
{
	struct libpidfd_features f;
	int r;

	if (!out || lpfd_user_writable(out, size) < 0)
		return -EFAULT;
	r = probe_all();
	if (r < 0)
		return r;
	memset(&f, 0, sizeof(f));
	fill(&f);
	memcpy(out, &f, size < sizeof(f) ? size : sizeof(f));
	if (size > sizeof(f))
		memset((char *)out + sizeof(f), 0, size - sizeof(f));
	return 0;
}

LIBPIDFD_API int libpidfd_features(struct libpidfd_features *out, size_t size)
{
	int saved = errno;

	return (int)lpfd_return(saved, do_features(out, size));
}
