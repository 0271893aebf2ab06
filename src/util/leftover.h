/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What a run that died (SIGKILL, a crash, a power cut) leaves in the user's directories: hidden temporary files
 * and folders under names only rtjitter makes. A run holds an exclusive flock(2) on each such entry (on the file,
 * or on the folder's own descriptor) from the moment it exists until it has its final name or is gone; the kernel
 * drops the lock when the last descriptor closes, so with the process. A later run removes an entry only when it
 * can take that lock itself: the proof its owner is dead. A live run's entry is never touched (its lock is held),
 * nor another user's, nor one that is not what its name says (a symlink, a file where a folder was expected).
 *
 * Between its creation and the owner's lock an entry is unlocked: a sweeping run could take it then. The owner
 * sees that (its lock refused, or its name gone or pointing elsewhere once locked) and makes another: no run
 * ever writes into an entry it does not hold. Main thread; not async-signal-safe. */
#ifndef RTJ_LEFTOVER_H
#define RTJ_LEFTOVER_H
#include <stddef.h>

enum leftover_kind { LEFTOVER_NONE, LEFTOVER_FILE, LEFTOVER_DIR };

/* Owner: takes the lock on fd, just created as name in the directory open at dirfd (a file, or a folder opened
 * O_DIRECTORY). 0, or -EAGAIN when a sweeping run took the entry first (remove nothing: make another name). */
int leftover_hold(int dirfd, const char *name, int fd);
/* Sweeper: removes from the directory open at dirfd every entry of ours (this effective user's) that match()
 * says is one of rtjitter's (LEFTOVER_FILE or LEFTOVER_DIR, of that type) and whose lock nobody holds. A folder
 * goes through remove_dir(dirfd, name, fd) (fd: the folder, locked; NULL: folders are left); removed() is told
 * each name that went. Returns how many went, or -errno when the directory cannot be read. */
int leftover_sweep(int dirfd, enum leftover_kind (*match)(const char *name),
                   int (*remove_dir)(int parent, const char *name, int fd),
                   void (*removed)(const char *name, void *arg), void *arg);

#endif
