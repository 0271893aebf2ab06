/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Stop signals for a run: SIGINT, SIGTERM and SIGHUP are blocked in every thread and taken synchronously by the
 * main thread with sigtimedwait() in its wait loop; the handler only sets a flag (pw-top's way). */
#ifndef RTJ_SIGNALS_H
#define RTJ_SIGNALS_H

/* Main thread, before any other thread starts (threads inherit the mask). Idempotent. */
void run_signals_setup(void);
/* Sleep up to ms, waking at once for a stop signal. */
void run_signals_wait_ms(int ms);
/* Why the run must stop because of a signal ("interrupted (SIGINT)"...), or NULL. */
const char *run_signals_reason(void);

#endif
