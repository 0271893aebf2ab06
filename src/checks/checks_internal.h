/* Shared by the files of src/checks only: the checks each group file defines (listed once, in checks.c's
 * table) and the small helpers they write their results with. */
#ifndef RTJ_CHECKS_INTERNAL_H
#define RTJ_CHECKS_INTERNAL_H
#include "checks/checks.h"

/* kernel.c */
extern const struct check check_threadirqs, check_preempt, check_high_res_timers, check_rt_throttling;
/* irq.c: the sound cards' interrupts */
extern const struct check check_rtirq, check_shared_irq;
/* cpu.c: CPU and memory */
extern const struct check check_governor, check_swappiness;

/* Sets the status and the one-line why. */
void check_say(struct check_result *r, enum check_status s, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void check_fix(struct check_result *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void check_advise(struct check_result *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void check_hint(struct check_result *r, const char *hint);

/* Reading the identity: NULL or NAN when the key is missing or not of that type. */
const char *check_str(const json_t *o, const char *key);
double check_num(const json_t *o, const char *key);

#endif
