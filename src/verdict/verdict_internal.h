/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared by the verdict's files only (verdict.c: the phases and the summary; verdict_advice.c: the advice):
 * how the verdict sees a run, and the advice (defined in verdict_advice.c, used by verdict.c: one way only; the
 * text helper both use is verdict_text.h, below both). Not for other folders: verdict/verdict.h declares what the
 * verdict offers. Main thread, after the measurement. */
#ifndef RTJ_VERDICT_INTERNAL_H
#define RTJ_VERDICT_INTERNAL_H
#include <jansson.h>
#include <stddef.h>

/* One phase as the verdict sees it. */
struct pview {
    char name[48];       /* the load, with "@FRAMES" when the buffer size changed within the phase */
    long long xruns;     /* the larger of the server's count and the frame-clock gaps */
    long long missed;    /* cycles whose callback ended after the next cycle started */
    long long dropped;
    double met_pct;      /* deadlines met, %; NAN when unknown */
    double jitter_us;    /* worst |jitter| */
    double wakeup_p99_us;
    double margin_us;    /* tightest margin left before the deadline */
    const char *load_error;
    long long frames;    /* the buffer size this phase (or segment of one) ran at; 0 when the report has none */
    double rate_hz;
};

struct vctx {
    const json_t *doc, *audio, *sys, *profile;
    struct pview *ph;
    int nph;
    long long frames;
    double rate_hz, period_us;
    long long max_xruns, max_missed; /* FAIL thresholds (profile, or --max-xruns) */
    double max_jitter_us;            /* FAIL threshold from --max-jitter-us, < 0 when not set */
    double min_met_pct, max_wakeup_p99_us; /* --min-deadlines-pct, --max-wakeup-p99-us; < 0 when not set */
    long long xruns, missed, dropped; /* totals */
    int worst;                       /* the phase with the most trouble, -1 if none */
    int worst_jitter;                /* the phase with the largest |jitter|, -1 if none */
    double jitter_us, margin_us;     /* worst over all phases */
    int failing;                     /* phases over a FAIL threshold */
    int timing_warn;                 /* jitter or margin over the profile's WARN share */
    int rt, complete;
    int own_session;                 /* rtjitter watch's report: the phase of no load is the user's own session */
    int kernel_cleared;              /* a ladder's depth with only clean depths below (verdict/ladder_rule.h) */
    char below[128];                 /* those depths' names, "timer and alsa" */
    const char *depth;               /* this depth's name (the backend), or NULL outside a ladder */
};

/* What the verdict advises, in order: texts and ids for the report, hints for the summary's "Try ...". */
struct advice {
    json_t *texts, *ids;
    char hints[8][96];
    char hint_ids[8][32];            /* the id each hint came with */
    int nhints;
};

/* The advice for v, in the one order of advice (verdict_order.c): the run's privileges, what it saw, the server's
 * settings, idle states, the checks table's findings on the document's system identity, then a larger buffer.
 * Returns 0, or -ENOMEM. */
int verdict_advise(const struct vctx *v, struct advice *a);

/* The run's own rules: each says whether it applies, then why and how; hint is the few words of "Try ...". */
struct advice_rule {
    const char *id;
    int (*applies)(const struct vctx *v);
    void (*say)(const struct vctx *v, char *buf, size_t len);
    void (*hint)(const struct vctx *v, char *buf, size_t len); /* NULL: no entry in the summary's "Try" */
};

/* The run's own rules' advice ids, the culprits' included (each must be in verdict_order.c's table:
 * tests/unit/test_verdict_order.c). */
size_t verdict_rules_count(void);
const char *verdict_rule_id(size_t i);
/* The culprits' rules (verdict_culprit.c): advice from phases[].top_culprits, a culprit process first. */
size_t verdict_culprit_rules_count(void);
const struct advice_rule *verdict_culprit_rule(size_t i);

/* Rules the summary and the level use too. */
int verdict_not_realtime(const struct vctx *v);
int verdict_load_failed(const struct vctx *v);
int verdict_period_too_long(const struct vctx *v);
/* Whether the CPUs have an idle state that holding /dev/cpu_dma_latency at 0 keeps them out of (one enabled with an
 * exit latency above 0): 1 yes, 0 no (no cpuidle driver: an idle CPU halts, and holding it changes nothing), -1 the
 * report does not say (system.cpu.idle). */
int verdict_idle_governable(const struct vctx *v);
/* Appends at o what an idle CPU without idle states is, and what holding /dev/cpu_dma_latency cannot do there. */
size_t verdict_say_halts(const struct vctx *v, char *b, size_t n, size_t o);

#endif
