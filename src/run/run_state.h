/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The run engine's own state, shared by its files (run.c: the phases; run_wait.c: the waits, the stop reasons, the
 * status line, the warnings; run_report.c: the report; run_dsp.c: --dsp's calibration in the run and the RT
 * threads' CPU time per phase and per ramp step). Not for other folders. */
#ifndef RTJ_RUN_STATE_H
#define RTJ_RUN_STATE_H
#include "util/utf8.h"
#include "run/collector.h"
#include "run/dma_hold.h"
#include "run/loopback_run.h"
#include "run/run_output.h"
#include "run/signals.h"
#include "run/ramp_driver.h"
#include "run/rt_cpu.h"
#include "loadplan.h"
#include "report/report.h"
#include "report/report_ramp.h"
#include "render/render.h"
#include "render/text.h"
#include "report/thresholds.h"
#include "rtclock.h"
#include "sysinfo/sysinfo.h"
#include "verdict/profile.h"
#include "checks/privileges.h"
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "run/run.h"
#include "run/run_culprits.h"
#include "culprit/culprit_engine.h"
#include "run/watch.h"

struct run_state {
    const struct run_plan *p;
    int hurried;                   /* the main thread's nice before the stop (util/hurry.h), put back at the end */
    const struct backend_ops *be;
    void *bpriv;                   /* the backend's private state, zeroed and locked */
    struct rt_ring ring;
    struct rt_sink sink;
    atomic_uint phase_tag;
    atomic_uint_fast64_t *lost_by_tag; /* the sink's: records the ring dropped, by phase tag (2 nphases + 1) */
    struct collector col;
    struct load_plan *plan;
    struct phase_stats *stats;
    struct phase_result *results;
    int nphases;
    json_t *warnings;
    json_t *profile;               /* the verdict's thresholds (data/profiles/) */
    const char *stop_reason;
    int status_on;
    double part_t0;                /* mono_s() when the phase's warm-up or measured part under way began (0: none
                                    * yet, the calibration's wait) */
    int part_warming;              /* that part is the warm-up */
    const char *us;                /* "µs", or "us" where the terminal cannot show it */
    int abandoned;                 /* the backend left a provider call behind: keep bpriv, leave with _exit */
    char load_why[200];            /* why the load supervisor is gone */
    struct priv_result priv;       /* real-time rights of this login, checked before measuring */
    struct rt_dsp_ctl dsp;         /* the DSP work asked of the RT threads: written here only */
    struct dsp_calibration cal;    /* how it was calibrated (--dsp PCT or ramp) */
    int calibrated;
    struct ramp_stats *ramps;      /* --dsp ramp: one per phase, fed by the collector; else NULL */
    struct rt_meter meter;         /* the RT threads' TIDs and counts, for their CPU time (rt_cpu.h) */
    json_t **shares;               /* per phase: its "dsp_share" (the RT threads' CPU time), or NULL */
    struct rt_cpu_reading *marks;  /* --dsp ramp: per phase, a reading at each step's start and one at the end */
    int *nmarks, marks_cap;        /* readings taken per phase; room per phase */
    uint64_t last_cycles;          /* the sink's cycle count when it last moved */
    double last_cycle_s;           /* and when */
    unsigned conts_seen;           /* SIGCONTs (run/signals.h) seen by the hang check: a stop is not a hang */
    int provider_lost;             /* the run stopped because the provider said it was lost (its server went away) */
    struct lb_run *lbr;            /* --loopback: capture ring, analyzer, glitch folder (NULL: none) */
    struct dma_hold dma;           /* /dev/cpu_dma_latency, held while the cycles run (--dma-latency) */
    json_t *server_sched;          /* the audio server's threads as /proc shows them once cycles run, or NULL */
    json_t *client_thread;         /* the audio thread as /proc/self/task/TID/stat shows it after the phases, or NULL */
    json_t *irq_threads;           /* the interrupt threads' scheduling as /proc shows it (sysinfo_irq_threads) */
    struct culprit_engine *culprits; /* run/run_culprits.h: started before the collector, NULL: none */
    unsigned usr1_seen;            /* rtjitter watch: the SIGUSR1s answered with a summary */
    struct culprit_results culprit_res; /* its results (set at the start: read while it runs, and after) */
    struct trace_slices *trace_slices; /* with privileges: the trace's slices, saved beside the report */
    int culprits_audio_told;       /* the engine knows the audio thread */
    /* The trace source once it opened (a copy of the engine's; the engine closes it at its stop): the noise probe's
     * classifier asks it about its gaps (run_noise_trace) while trace_live is 1. Cleared before the engine stops,
     * which is after the backend stopped (its classifier joined): the source is never closed under a question. */
    struct culprit_source trace_src;
    atomic_int trace_live;
    /* Under PipeWire (native or pw-jack): its profiler, the graph's own xruns (collector_graph.c) and the engine's
     * observations; one connection, a holder each. graph_why: why it did not open ("" before any try). */
    struct culprit_source graph_src;
    int graph_open;
    char graph_why[256];
    json_t *graph_json;            /* its counts, kept as it closed (run_graph_close) for the report */
    int64_t spike_noted_ns;        /* the collector's: the last spike noted to the engine, and its phase */
    int spike_noted_phase;
    struct watch_feed *watch;      /* rtjitter watch's live feed (the plan's), or NULL */
    struct soak_stats soak;        /* --soak: fed by the collector (col.soak points here), read after it stops */
    int soak_on;
    int soak_trip_seen;            /* the main thread has acted on --stop-at-us's trip (run_soak_tripped) */
    FILE **spills;                 /* run_spill.h: per phase, the file its statistics were written to, or NULL;
                                    * NULL: this run does not write its phases out */
    int spilled;                   /* the phases before it were written out, or had nothing to write */
    int spill_stuck;               /* one could not be written out: it and the rest stay in memory */
    const char *spill_lost;        /* one could not be read back: the report is incomplete for this reason */
};

/* --dsp ramp: rampdrv_drive()'s wait between two steps is the phase's own wait (status line, stop reasons). It is
 * called right after each step's share is set: the RT threads' CPU time is read there (the step's start). */
struct ramp_wait {
    struct run_state *st;
    int phase;
    struct phase_result *res;
    double total_s;
    double t0, measured_s;
};

/* run_wait.c: wait secs of a phase (pr: its result, sampled; NULL in a warm-up), watching why the run must stop
 * and drawing the status line. Returns 0, or -EINTR when the run must stop (st->stop_reason says why). */
int run_wait_phase(struct run_state *st, int phase, double secs, struct phase_result *pr, double t_total);
/* A warning: into the report's warnings, and on stderr unless quiet. */
void run_warn(struct run_state *st, const char *msg);
/* rtjitter watch: its first line (or Waybar state), once the cycles run. */
void run_watch_begin(struct run_state *st, const struct backend_status *bs);

/* run_report.c: the report of what was measured (its parts handed to report_build), its verdict, the text on
 * stdout and the outputs, once the backend stopped. Returns the exit status. */
int run_report(struct run_state *st, struct run_info *ri, int rc, int mlocked);
/* A "Key: N kB" line of a /proc/self file, KiB; -1 when unknown. */
long run_proc_kib(const char *file, const char *key);

/* run_soak.c: --soak's figures (stats/soakhist.h) and --stop-at-us */
int run_soak_init(struct run_state *st);
void run_soak_free(struct run_state *st);
/* Main thread, in the waits: 1 when --stop-at-us tripped (the first time: the line on stderr and the culprit
 * snapshot's hook), so the soak's wait ends there; 0 otherwise. */
int run_soak_tripped(struct run_state *st);
/* The soak's figures into its phase's result (res->soak), at the report. */
void run_soak_report(struct run_state *st, int64_t wall_offset_ns);

/* run_dsp.c */
void run_ramp_mark(struct run_state *st, int phase);
int run_ramp_wait_step(void *ctx, double secs);
void run_calibrate_in_run(struct run_state *st);
json_t *run_share_json(struct run_state *st, const struct rt_cpu_reading *a, const struct rt_cpu_reading *b,
                       double requested_pct);
void run_ramp_steps_measured(struct run_state *st, int phase, json_t *ramp);

#endif
