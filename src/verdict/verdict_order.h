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

#endif
