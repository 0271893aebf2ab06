/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A run with --loopback: the capture ring the RT thread fills, the drain thread that feeds the analyzer
 * (src/loopback/), the private folder the glitch WAVs go to until the report is written, and the report's
 * "loopback" object with each glitch tied to the cycle timeline. Main thread, except the drain thread itself. */
#ifndef RTJ_LOOPBACK_RUN_H
#define RTJ_LOOPBACK_RUN_H
#include <jansson.h>
#include "run/run.h"

struct lb_run;

/* Does the plan ask for a loopback? */
int lbr_wanted(const struct run_plan *p);
/* Before the backend opens (bad input: exit 2): where the WAVs will go, made now as a private folder. NULL with
 * one line on stderr. */
struct lb_run *lbr_prepare(const struct run_plan *p);
/* After the backend opened, before its cycles start: the ring (sized to rate and period), the analyzer, the drain
 * thread. 0, or -errno with one line in err (-EINVAL: bad input, such as a --record file that cannot be made). */
int lbr_start(struct lb_run *r, unsigned rate_hz, unsigned period_frames, char *err, size_t len);
/* The ring the backend's RT thread pushes into (valid from lbr_prepare; sized by lbr_start). */
struct cap_ring *lbr_ring(struct lb_run *r);
/* After the backend stopped: drain what is left, stop the thread. */
void lbr_stop(struct lb_run *r);
/* The report's "loopback" object (for report_build to place: report/report.h), glitches tied to the xruns the
 * drain thread saw and to the loads of the report's phases (those report_build makes of ri); provider is the
 * backend's describe() (its "loopback": the ports' latency), ri->complete whether the run ended as planned. NULL
 * when there is none. *record_failed gets 1 when an output the user asked for (--record) was not written in
 * full, else 0. */
struct run_info;
json_t *lbr_report(struct lb_run *r, const json_t *provider, const struct run_info *ri, int *record_failed);
/* After the outputs: the WAV folder goes into place (ok) or away with everything in it (not ok, or empty).
 * 0, or -errno (said on stderr). */
int lbr_finish(struct lb_run *r, int ok);
void lbr_free(struct lb_run *r);

#endif
