/* SPDX-License-Identifier: MIT */
/*
 * madvise-self: advise the kernel about our own memory through
 * process_madvise(2) with PIDFD_SELF, no pidfd needed.
 *
 * process_madvise() takes a vector of ranges, so one call can advise many
 * scattered buffers. PIDFD_SELF names the caller on every kernel: Linux
 * 6.15 and later understand it, libpidfd opens a pidfd for older ones.
 *
 * Build: cc madvise-self.c $(pkg-config --cflags --libs libpidfd)
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

#include <libpidfd.h>

#ifndef MADV_COLD
#define MADV_COLD 20 /* Linux 5.4: reclaim these pages first */
#endif

#define CHUNKS 4

int main(void)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), len = 16 * page;
	struct iovec iov[CHUNKS];
	ssize_t done;

	/* A few separate buffers that we have used and will not need soon. */
	for (int i = 0; i < CHUNKS; i++) {
		void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED) {
			perror("mmap");
			return 1;
		}
		memset(p, 0x5a, len);
		iov[i] = (struct iovec){ .iov_base = p, .iov_len = len };
	}

	done = libpidfd_process_madvise(PIDFD_SELF, iov, CHUNKS, MADV_COLD, 0);
	if (done < 0) {
		perror("libpidfd_process_madvise(PIDFD_SELF, MADV_COLD)");
		return 1;
	}
	printf("advised %zd of %zu bytes as MADV_COLD\n", done, CHUNKS * len);
	return done == (ssize_t)(CHUNKS * len) ? 0 : 1;
}
