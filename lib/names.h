/* SPDX-License-Identifier: LGPL-2.1-or-later OR MIT */
/*
 * Names of errno values and signals, for the tool and the tests: glibc's
 * strerrorname_np() and sigabbrev_np() exist in no other C library (musl),
 * and the names printed must be the same whatever the C library.
 */
#ifndef LIBPIDFD_NAMES_H
#define LIBPIDFD_NAMES_H

/* "EBADF" for EBADF, "0" for 0; NULL for a number with no name. */
const char *lpfd_errno_name(int err);
/* "KILL" for SIGKILL (as sigabbrev_np); NULL for a real-time or unknown one. */
const char *lpfd_signal_abbrev(int sig);

#endif
