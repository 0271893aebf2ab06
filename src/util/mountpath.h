/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Paths as /proc/mounts and /proc/self/mountinfo write them: a space, tab, newline and backslash as \ooo. */
#ifndef RTJ_MOUNTPATH_H
#define RTJ_MOUNTPATH_H

/* Undoes the octal escapes in place. */
void mountpath_unescape(char *s);

#endif
