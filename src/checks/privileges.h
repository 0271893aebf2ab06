/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Whether a run can have what a real-time audio thread needs (SCHED_FIFO at its priority, locked memory), and
 * if not, the one fix that gets it, in the order to do it: the first thing a musician who is not root must
 * hear, before any advice about the kernel. `rtjitter run` calls privileges_check() before measuring; the
 * privileges group of the checks table (privileges.c) says the same in `rtjitter check`. Main thread. */
#ifndef RTJ_PRIVILEGES_H
#define RTJ_PRIVILEGES_H
#include <jansson.h>

/* The one priority figure (issue 35): the real-time priority rtjitter asks for and advises everywhere. The
 * real-time gate and `check` ask the login's RLIMIT_RTPRIO for it, `check` starts its test thread at it, `run`
 * starts its private jackd at it (-P; jack2 runs its clients 5 below), and the advice says "jackd -P" it. Above the
 * interrupt threads' 50 (threadirqs, PREEMPT_RT), below the 80-95 rtirq gives the sound card's interrupt. */
#define RTJ_AUDIO_PRIORITY 70

struct priv_result {
    int realtime;       /* a thread of this process got SCHED_FIFO at the priority asked for */
    int mlock;          /* memory can be locked: RLIMIT_MEMLOCK unlimited or >= 256 MiB, or CAP_IPC_LOCK */
    int root;           /* running as root (real-time and locking are then root's, not the musician's) */
    char user[64];      /* whose set-up was judged (under sudo, SUDO_USER) */
    char why[1300];     /* what is missing, with the values read; "" when both can be had */
    char fix[1300];     /* the exact fix, first step first (log out and in again, usermod -aG, the limits file to
                         * write...); never "join audio" for a member of audio; "" when both can be had */
};

/* Probes this process (a SCHED_FIFO thread at priority, its limits and groups) and reads the limits files and
 * /etc/group of this machine. 0, or -ENOMEM (out is then "cannot be had", with why saying so). */
int privileges_check(int priority, struct priv_result *out);
/* The same judgement on an object as checks_collect() makes it (setup {...}, process {...}): for tests. */
void privileges_judge(const json_t *sys, struct priv_result *out);
/* {realtime, mlock, root, user, why, fix} (why and fix null when empty), for the report's audio object; NULL
 * when out of memory. */
json_t *privileges_json(const struct priv_result *r);

#endif
