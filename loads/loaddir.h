/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Load files are made, used and removed only through directory descriptors: a path name is walked once, when
 * --tmpdir is opened, and never again, so nobody can swap a directory of ours for a symlink between two calls and
 * have us write or delete elsewhere. Used by rtjitter (loadplan.c), the supervisor and the loads; every function
 * returns 0 (or a descriptor) or -errno. */
#ifndef RTJ_LOADDIR_H
#define RTJ_LOADDIR_H
#include <stddef.h>

/* May our private directory go into the directory open at fd (path: for the message only)? -EPERM with one line
 * in why when another user than us and root could rename entries in it, and so replace our directory: writable by
 * group or others without the sticky bit, or owned by another user (an owner may rename anything in its directory,
 * sticky or not). A root-owned sticky directory such as /tmp is fine: in it, our entry is ours alone. */
int loaddir_check_parent(int fd, const char *path, char *why, size_t len);
/* mkdirat(parent, prefix + 6 random characters, 0700), retried on a name taken; name gets the entry's name,
 * *fd the new directory, opened without following a symlink and checked to be ours. */
int loaddir_make(int parent, const char *prefix, char *name, size_t namelen, int *fd);
/* The same with an exact name: -EEXIST when it is taken. */
int loaddir_make_exact(int parent, const char *name, int *fd);
/* Removes everything inside the directory open at fd. No symlink is followed and no other file system entered
 * (a mount point is left, and counted as a failure). 0, or the first error (what could not go stays). */
int loaddir_empty(int fd);
/* Empties fd, then removes parent's entry name if it is still that same directory: an entry that was swapped for
 * something else is left alone. */
int loaddir_remove(int parent, const char *name, int fd);
/* The last step of a removal: rmdir parent/name, an empty directory, only while it is still the directory fd is
 * open on (never one swapped in since). Returns rc, or the first error when rc is 0. */
int loaddir_unlink_if_ours(int parent, const char *name, int fd, int rc);
/* An anonymous file in the directory open at fd (O_TMPFILE, else a fresh name unlinked at once): it vanishes with
 * the process. flags: O_WRONLY or O_RDWR (O_CLOEXEC is added). */
int loaddir_tmpfile(int fd, int flags);

#endif
