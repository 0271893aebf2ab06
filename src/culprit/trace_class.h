/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One class per culprit of a wait (issue "Culprits, true"): who held the CPU while the audio thread waited
 * (trace_stream.h's account) becomes an observed culprit of one kind, and the verdict keeps one rule of advice per
 * kind (src/verdict/verdict_culprit.c):
 *  - no event on the CPU (no tick, IPI or IRQ)        -> CK_BELOW      below the kernel: the host, firmware, SMI
 *  - the CPU idle while the audio thread waited        -> CK_IDLE_EXIT  waking the CPU took the time
 *    ... far longer than its idle states take to leave -> CK_BELOW      it was not running (the host, firmware)
 *  - a hard IRQ, or its irq/N thread                   -> CK_IRQ        the line (a vector: LOC, RES, CAL: named)
 *  - a softirq                                         -> CK_SOFTIRQ
 *  - a kernel thread                                   -> CK_KTHREAD    what its kind allows (culprit_kthread_kind)
 *  - a user task at or above a real-time audio thread  -> CK_RT_TASK    lower it or move it
 *  - a user task below a real-time audio thread        -> CK_NO_PREEMPT the kernel could not preempt it
 *  - any task, the audio thread not real time          -> CK_THREAD     it shared the CPU fairly
 * Each evidence is one sentence: "cc1 (pid 812, SCHED_OTHER) kept CPU 1 for 9.4 ms of the audio thread's 9.5 ms
 * wait (trace)". */
#ifndef RTJ_TRACE_CLASS_H
#define RTJ_TRACE_CLASS_H
#include "culprit/culprit_engine.h"
#include "culprit/trace_stream.h"

/* Below this a holder is not listed (nor below a tenth of the wait). */
#define TRACE_CLASS_MIN_NS 20000
/* An idle CPU that let the woken audio thread wait longer than twice its slowest idle state's exit latency plus this
 * was not running (an IPI's delivery and the switch take a few microseconds on real hardware). */
#define TRACE_CLASS_IDLE_SLACK_NS 50000

/* The kind of a holder, by the audio thread's kernel prio in the wait (-1: not known). */
enum culprit_kind trace_class_kind(const struct ts_holder *h, int audio_prio);
/* Whether the account proves who held most of the wait: 0 when its main holder held more than the next one and all
 * the time the stream does not know together (that time could be anyone's); else why not: CNW_LOST when the CPU's
 * ring lost events in the wait (a stretch of lost events is never "no event": the CPU may have run anything then),
 * else trace_class_why's. */
int trace_class_unproven(const struct ts_account *a);
/* Why the account does not prove who held the wait, by what is not known of it: CNW_LOST when the CPU's ring lost
 * events in the wait, CNW_MISSED when most of it came after a switch the trace does not hold, CNW_NOT_COVERED
 * otherwise (the wait began before the stream's ring). */
int trace_class_why(const struct ts_account *a);
/* The account's holders as observations over [t0, t1] (largest first); returns how many. */
int trace_class_obs(const struct ts_account *a, int64_t t0_ns, int64_t t1_ns, struct culprit_obs *out, int max);

#endif
