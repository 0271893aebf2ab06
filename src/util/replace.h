/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Before a run: will the rename that puts a finished file over the user's target be allowed at the end? Creating a
 * temporary file beside the target proves the directory writable, not that its entry may be replaced: in a sticky
 * directory (/tmp, mode 1777) only the entry's owner, the directory's owner or a process with CAP_FOWNER may
 * rename over (or remove) an entry, so a target there owned by another user passes every creation test and fails
 * only at the last step, after the whole measurement ("Operation not permitted"). The rule is the kernel's
 * (fs/namei.c, may_delete() and check_sticky()), read from the directory and the entry without touching either.
 * Main thread; not async-signal-safe. */
#ifndef RTJ_REPLACE_H
#define RTJ_REPLACE_H
#include <stddef.h>

/* May this process replace the entry name in the directory open at dirfd? 0 when it may (or there is no such
 * entry), -EPERM with one line in why (without the path: the caller names it) when the kernel would refuse,
 * another -errno when the entry or the directory cannot be looked at. */
int replace_allowed(int dirfd, const char *name, char *why, size_t len);
/* Opens the directory of path (O_DIRECTORY); *basep points into path at its last component. The fd, or -errno
 * (-EISDIR when there is no last component, or it is . or ..; -ENAMETOOLONG). */
int replace_open_parent(const char *path, const char **basep);
/* The same for a path (its directory is opened); why as above. */
int replace_allowed_path(const char *path, char *why, size_t len);

#endif
