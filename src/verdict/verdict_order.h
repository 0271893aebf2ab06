/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one order of advice (rtjitter(1), VERDICTS AND PROFILES): every verdict path orders its advice by this
 * table, never by the order its rules happen to run in. Main thread; nothing here is real-time safe. */
#ifndef RTJ_VERDICT_ORDER_H
#define RTJ_VERDICT_ORDER_H
#include <stddef.h>

/* The classes, in the order a musician should try them. */
enum advice_class {
    ADVICE_PRIVILEGES, /* real-time scheduling, memory locking: nothing else can be judged without them */
    ADVICE_RUN,        /* what the run itself saw: its completeness, its records, its loads (the culprits, issue 20) */
    ADVICE_SERVER,     /* the server's settings: the audio thread's priority, rtirq, the quantum */
    ADVICE_IDLE,       /* idle states and the CPU's power settings */
    ADVICE_KERNEL,     /* the system's settings and the kernel's options: sysctls, interrupts, boot options */
    ADVICE_BUFFER,     /* a larger buffer: the last thing worth trying */
    ADVICE_NCLASSES
};

struct advice_order {
    const char *id; /* an advice id (verdict.advice_ids): a rule's or a check's (src/checks) */
    enum advice_class cls;
};

/* The table, in order; its classes never go back. */
size_t verdict_order_count(void);
const struct advice_order *verdict_order_get(size_t i);
/* "privileges", "run", "server", "idle", "kernel", "buffer". */
const char *verdict_order_class_name(enum advice_class c);
/* The rank of an id: its index in the table; an id the table lacks ranks after the kernel options, before the
 * buffer (tests/unit/test_verdict_order.c checks that every id a verdict can give is in the table). */
size_t verdict_order_rank(const char *id);
/* Sorts n entries, ids[i] naming entry i, by rank (stable: equal ranks keep their order); perm receives the
 * original index of each sorted entry. */
void verdict_order_sort(const char *const *ids, size_t n, size_t *perm);

/* The share of the dropouts an advice explains, as its own text states it ("17 of 129 xrun events": 17/129; the
 * culprits' advice says what it explains in those words, verdict_culprit.c), 0 when it states none. */
double verdict_order_share(const char *text);
/* The same sort, then by weight (issue 35): within the one order, the entries that explain a share of the dropouts
 * (share[i] > 0) are ranked among the places they hold by that share, the largest first (17 of 129 events before
 * 7 of 129); the privileges never move, nor does any entry without a share. */
void verdict_order_sort_weighed(const char *const *ids, const double *share, size_t n, size_t *perm);
/* The hint of id ("threadirqs and rtirq", "stopping canary", "128 frames") as a step with its own verb ("boot with
 * threadirqs and install rtirq", "stop canary", "use 128 frames"), into buf. */
void verdict_order_step(const char *id, const char *hint, char *buf, size_t n);
/* How many steps a verdict's summary names, and how many pieces of advice its text shows without --wide. */
#define VERDICT_ADVICE_SHOWN 3

#endif
