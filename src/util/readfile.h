/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Reading a whole file that someone else may have made: a FIFO, a device or a huge file must not hang or exhaust
 * rtjitter (report, compare, --profile and the store all read through here). */
#ifndef RTJ_READFILE_H
#define RTJ_READFILE_H
#include <stddef.h>

/* Opens path without blocking (O_NONBLOCK: a FIFO with no writer would block open() for ever), refuses anything
 * that is not a regular file and anything over max bytes, and reads it whole. On success *buf (malloc'd, NUL-
 * terminated) and *len. Returns 0 or -errno with one line in err ("not a regular file", "larger than N MiB"...). */
int read_regular_file(const char *path, size_t max, char **buf, size_t *len, char *err, size_t errlen);

#endif
