/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Stop signals for a run: SIGINT, SIGTERM and SIGHUP are blocked in every thread and taken synchronously by the
 * main thread with sigtimedwait() in its wait loop; the handler only sets a flag (pw-top's way). */
#ifndef RTJ_SIGNALS_H
#define RTJ_SIGNALS_H
#include <stdint.h>
#include <time.h>

/* Main thread, before any other thread starts (threads inherit the mask). Idempotent. Also installs the SIGCONT
 * observer (a stopped process learns it was stopped only when it is continued), with SIGCONT blocked until
 * run_signals_cont_here(). */
void run_signals_setup(void);
/* Sleep up to ms, waking at once for a stop signal. */
void run_signals_wait_ms(int ms);
/* Why the run must stop because of a signal ("interrupted (SIGINT)"...), or NULL. */
const char *run_signals_reason(void);

/* Main thread, once every thread of the run (the RT ones above all) has started with SIGCONT blocked: from now on
 * a SIGCONT is observed here, its time read on clock (the records' measurement clock). */
void run_signals_cont_here(clockid_t clock);
/* How many times rtjitter was continued (SIGCONT) since the setup; the first min(that, max, RUN_CONT_MAX)
 * continuation times (ns, the clock given to run_signals_cont_here) go into ns. Main thread. */
#define RUN_CONT_MAX 16
unsigned run_signals_conts(int64_t *ns, unsigned max);

/* Before run_signals_setup(): SIGUSR1 is taken like the stop signals (blocked in every thread, waited for by the main
 * thread) but only counted: rtjitter watch prints its summary on it. */
void run_signals_want_usr1(void);
/* How many SIGUSR1s were taken so far. */
unsigned run_signals_usr1(void);

#endif
