/* SPDX-License-Identifier: GPL-2.0-or-later */
/* jack2's server registry (/dev/shm/jack-shm-registry): what holds its 8 slots, freeing the slots of dead rtjitter
 * servers, and what to tell the user about the rest.
 *
 * jack2 (common/shm.c) keeps one registry for the machine, every user's servers together: a header, then 8
 * entries of a pid and "jack-UID:NAME:". A server frees its entry when it exits cleanly; a killed one (SIGKILL, a
 * crash) keeps it, and jack2 frees a dead entry only when a server of the *same name* starts (jack_register_server:
 * "it's gone, reclaim this entry"). Names used once (rtjitter's private servers, a test suite's) so hold their
 * slots until reboot, and once 8 are held no jackd starts ("Too many servers already active").
 *
 * Freeing a slot here is what jack2 itself does for a dead entry of the same name: under jack2's own registry lock
 * (the System V semaphore 0x282929, with SEM_UNDO as jack2 takes it), the entry is zeroed once its server's pid is
 * seen dead (kill: ESRCH) inside the lock. The segments the dead server allocated are freed by the next jackd's
 * start (jack_cleanup_shm frees every dead allocator's). Only rtjitter's own names, only dead ones: a name
 * rtjitter-PID-RANDOM-SUFFIX (or rtjitter-PID-SUFFIX, an older rtjitter's) whose rtjitter PID is gone too (or is
 * this process), of this user (any user's as root). Others are named, with the command that frees them.
 * A file of src/util/: libc only. Main thread; not real-time safe. */
#ifndef RTJ_UTIL_JACKREG_H
#define RTJ_UTIL_JACKREG_H
#include <stddef.h>

#define JACKREG_PATH "/dev/shm/jack-shm-registry"
#define JACKREG_SLOTS 8

struct jackreg_slot {
    int index;          /* 0..7 in the registry */
    int pid;            /* the server's */
    int uid;            /* from "jack-UID:", -1 when unreadable */
    char name[64];      /* the server's name ("?" when unreadable or longer) */
    int alive;          /* the server's pid lives */
    int rtj_pid;        /* an rtjitter private server's name: the PID of that rtjitter; else 0 */
    int rtj_alive;      /* ... that rtjitter lives */
};

struct jackreg {
    int held;                                 /* slots held */
    int dead;                                 /* of them, by dead servers */
    struct jackreg_slot slot[JACKREG_SLOTS];  /* the held ones, [0 .. held) */
};

/* The registry's bytes (at least its header and 8 entries) into r; liveness by alive(pid, arg) (NULL: kill(pid, 0)
 * on this machine). 0, or -EINVAL when it is not jack2's registry (magic, header size). Pure but for alive(). */
int jackreg_parse(const void *buf, size_t len, int (*alive)(int pid, void *arg), void *arg, struct jackreg *r);
/* The registry under a root prefix ("" this machine; the liveness then by kill, else by ROOT/proc/PID). 0,
 * -ENOENT when there is none (no jack2 server has run since boot: every slot free), or -errno. */
int jackreg_read(const char *root, struct jackreg *r);
/* The PID of an rtjitter private server's name, rtjitter-PID-XXXXXXXX-SUFFIX (8 hex digits) or rtjitter-PID-SUFFIX
 * (SUFFIX lowercase letters), or 0. */
int jackreg_rtjitter_pid(const char *name);
/* Frees the slots of dead rtjitter servers (above) in the registry at path (NULL: JACKREG_PATH). Returns how many,
 * or -errno (-ENOENT: no registry; -ETIMEDOUT: jack2's lock was not free within 2 s). */
int jackreg_reclaim(const char *path);
/* One line: "3 of 8 held: dead rtjt-a (uid 0, pid 12), ...; live jackd-x (uid 1000, pid 40)". */
void jackreg_describe(const struct jackreg *r, char *out, size_t n);
/* One shell line that frees the dead slots rtjitter does not free itself (each name started once and stopped, as
 * its user: jack2 then frees the entry), e.g. "for n in rtjt-a rtjt-b; do jackd -n \"$n\" -d dummy & sleep 2;
 * kill $!; done"; as "sudo setpriv --reuid=UID ..." for another user's. "" when there is none. Names with
 * characters outside [A-Za-z0-9._-] are left out (said in the line). */
void jackreg_free_command(const struct jackreg *r, int my_uid, char *out, size_t n);

#endif
