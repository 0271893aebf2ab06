/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The answer first (headline.h). Main thread. */
#include "render/headline.h"
#include "report/access.h"
#include "report/phase_figures.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

/* The largest buffer `run --period` takes. */
#define HEADLINE_MAX_FRAMES 8192

static long long count(double v)
{
    return isnan(v) || v < 0 ? 0 : (long long)v;
}

/* "48", "44.1" */
static void khz(char *b, size_t n, double rate)
{
    snprintf(b, n, "%g", rate / 1000.0);
}

static long long dropouts_of(const json_t *p)
{
    return count(phasefig_xruns(p)) + count(doc_num(p, "deadlines_missed"));
}

/* The loads of the phases with dropouts (only_bad) or of all of them, "none, write" (cut to fit); a load seen
 * twice (its buffer size changed during the phase: one phase per size) is named once. */
static void loads_of(const json_t *phases, int only_bad, char *b, size_t n)
{
    size_t i, j, o = 0;
    const json_t *p, *q;
    b[0] = '\0';
    json_array_foreach(phases, i, p) {
        if (only_bad && !dropouts_of(p))
            continue;
        const char *name = doc_str(p, "load", "?");
        int seen = 0;
        json_array_foreach(phases, j, q) {
            if (j >= i)
                break;
            seen |= !strcmp(doc_str(q, "load", "?"), name) && (!only_bad || dropouts_of(q));
        }
        if (seen)
            continue;
        int k = snprintf(b + o, n - o, "%s%.40s", o ? ", " : "", name);
        if (k < 0 || (size_t)k >= n - o) {
            snprintf(b + (n > 5 ? n - 5 : 0), n > 5 ? 5 : n, "...");
            return;
        }
        o += (size_t)k;
    }
}

static const char *headline_measured(const json_t *doc, char *buf, size_t len, int no_advice);

/* What makes the run no kernel test, said before anything it measured: the audio thread without real-time
 * scheduling (--allow-no-rt, or no privileges); rtjitter itself stopped (SIGSTOP/Ctrl-Z) while it measured; the
 * idle trap (the verdict's "idle" advice: /dev/cpu_dma_latency not held, rest twice as late as a load) where the
 * phase at rest holds most of the dropouts. Into b ("" when none); returns 1 when the measured sizes are not to be
 * advised on (no real time: a larger buffer would not be the cure). */
static int invalid_words(const json_t *doc, long long dropouts, char *b, size_t n)
{
    const json_t *au = json_object_get(doc, "audio"), *v = json_object_get(doc, "verdict");
    const json_t *run = json_object_get(doc, "run");
    b[0] = '\0';
    if (json_is_false(json_object_get(au, "realtime"))) {
        snprintf(b, n, "Not a kernel test: the audio thread ran without real-time scheduling, so what it measured "
                       "is the scheduler's fairness, not the kernel's latency (rtjitter check says how to get real "
                       "time). ");
        return 1;
    }
    double stopped = doc_num(run, "stopped_s");
    if (json_array_size(json_object_get(run, "stops")) && stopped > 0) {
        snprintf(b, n, "Not a whole test: rtjitter itself was stopped (SIGSTOP/Ctrl-Z) for %.1f s while it measured; "
                       "the verdict leaves those cycles out. ", stopped);
        return 0;
    }
    int idle = 0;
    size_t i;
    const json_t *id, *p;
    json_array_foreach(json_object_get(v, "advice_ids"), i, id)
        idle |= json_is_string(id) && !strcmp(json_string_value(id), "idle");
    long long at_rest = 0;
    json_array_foreach(json_object_get(doc, "phases"), i, p)
        if (!strcmp(doc_str(p, "load", ""), "none"))
            at_rest += dropouts_of(p);
    /* no CPU idle states (system.cpu.idle): the idle CPUs halted, and holding /dev/cpu_dma_latency changes nothing */
    int governable = doc_idle_governable(json_object_get(doc, "system")) != 0;
    if (idle && dropouts > 0 && 2 * at_rest >= dropouts && !governable)
        snprintf(b, n, "Not a kernel test at rest: most dropouts came at rest, while the idle CPUs halted and were "
                       "run again late (this machine has no CPU idle states: --dma-latency changes nothing here). ");
    else if (idle && dropouts > 0 && 2 * at_rest >= dropouts)
        snprintf(b, n, "Not a kernel test at rest: the CPUs slept in deep idle states (/dev/cpu_dma_latency was not "
                       "held), and most dropouts came at rest; run again with --dma-latency. ");
    return 0;
}

/* The largest power-of-two buffer whose period fits the profile's warn_period_ms at rate; 0 when none of 16 frames
 * or more does. */
static long long fitting_frames(double warn_ms, double rate)
{
    long long f = 0;
    for (long long k = 16; k <= HEADLINE_MAX_FRAMES && 1000.0 * (double)k / rate <= warn_ms; k *= 2)
        f = k;
    return f;
}

const char *headline_report(const json_t *doc, char *buf, size_t len)
{
    char pre[400];
    long long all = 0;
    size_t i0;
    const json_t *p0;
    json_array_foreach(json_object_get(doc, "phases"), i0, p0)
        all += dropouts_of(p0);
    int no_advice = invalid_words(doc, all, pre, sizeof(pre));
    size_t pl = strlen(pre);
    if (pl + 1 >= len) {
        snprintf(buf, len, "%s", pre);
        return buf;
    }
    headline_measured(doc, buf + pl, len - pl, no_advice);
    memcpy(buf, pre, pl);
    return buf;
}

/* The headline of what was measured, after invalid_words(); no_advice: no size to try. */
static const char *headline_measured(const json_t *doc, char *buf, size_t len, int no_advice)
{
    const json_t *au = json_object_get(doc, "audio"), *phases = json_object_get(doc, "phases");
    const json_t *v = json_object_get(doc, "verdict");
    const char *level = doc_str(v, "level", NULL);
    int complete = json_is_true(json_object_get(doc, "complete"));
    double frames = doc_num(au, "period_frames"), rate = doc_num(au, "rate");
    size_t i;
    const json_t *p;
    long long dropouts = 0;
    int mixed = 0;
    json_array_foreach(phases, i, p) {
        dropouts += dropouts_of(p);
        double pf = doc_num(p, "period_frames");
        if (!isnan(pf) && pf != frames) {
            if (isnan(frames) || i == 0)
                frames = pf;
            else
                mixed = 1;
        }
    }
    char setting[64], k[16], loads[200];
    khz(k, sizeof(k), rate);
    if (!(frames > 0))
        snprintf(setting, sizeof(setting), "An unknown buffer size");
    else if (!(rate > 0))
        snprintf(setting, sizeof(setting), "%.0f frames", frames);
    else
        snprintf(setting, sizeof(setting), "%.0f frames at %s kHz", frames, k);
    if (json_array_size(phases) == 0) {
        snprintf(buf, len, "No answer: nothing was measured%s.", complete ? "" : " before the run stopped");
        return buf;
    }
    if (mixed) {
        snprintf(buf, len, "No answer for one size: the buffer size changed during the run (see each phase).");
        return buf;
    }
    const char *every = complete ? "under every load" : "under the loads measured before the run stopped";
    /* a buffer too large for live playing (PipeWire's default 1024 frames, 21 ms) reads like a pass otherwise: said
     * first, with the size that fits the profile's latency */
    const json_t *prof = json_object_get(doc, "profile");
    double warn_ms = doc_num(prof, "warn_period_ms"), period_ms = frames > 0 && rate > 0 ? 1000 * frames / rate : NAN;
    if ((dropouts == 0 || (level && strcmp(level, "fail"))) && period_ms > warn_ms && !no_advice) {
        long long fit = fitting_frames(warn_ms, rate);
        char tail[96] = "";
        if (fit > 0)
            snprintf(tail, sizeof(tail), ": try %lld frames (%.2f ms)", fit, 1000.0 * (double)fit / rate);
        char ran[160];
        if (dropouts)
            snprintf(ran, sizeof(ran), "It had %lld dropout%s, within what the profile accepts.", dropouts,
                     dropouts == 1 ? "" : "s");
        else
            snprintf(ran, sizeof(ran), "It ran without a dropout %s.", every);
        snprintf(buf, len, "%s is %.1f ms a period, too large for live playing (the %.40s profile accepts %g ms)%s. "
                 "%s", setting, period_ms, doc_str(prof, "name", "chosen"), warn_ms, tail, ran);
        return buf;
    }
    if (dropouts == 0) {
        loads_of(phases, 0, loads, sizeof(loads));
        if (level && !strcmp(level, "fail"))
            snprintf(buf, len, "%s ran without a dropout %s (%s), but over a limit: see the verdict.", setting,
                     every, loads);
        else if (level && !strcmp(level, "warn"))
            snprintf(buf, len, "%s ran without a dropout %s (%s), with a warning: see the verdict.", setting, every,
                     loads);
        else
            snprintf(buf, len, "%s ran without a dropout %s (%s).", setting, every, loads);
        return buf;
    }
    loads_of(phases, 1, loads, sizeof(loads));
    if (level && strcmp(level, "fail")) {
        /* the profile accepts this many: said as it is, with no size to move to */
        snprintf(buf, len, "%s: %lld dropout%s (under %s), within what the %.40s profile accepts.", setting,
                 dropouts, dropouts == 1 ? "" : "s", loads, doc_str(v, "profile", "chosen"));
        return buf;
    }
    char first[96];
    if (frames > 0 && rate > 0)
        snprintf(first, sizeof(first), "Dropouts at %.0f frames at %s kHz", frames, k);
    else
        snprintf(first, sizeof(first), "Dropouts (the buffer size is not in the report)");
    if (no_advice)
        snprintf(buf, len, "%s (under %s).", first, loads);
    else if (frames > 0 && 2 * frames <= HEADLINE_MAX_FRAMES)
        snprintf(buf, len, "%s (under %s): try %.0f frames.", first, loads, 2 * frames);
    else
        snprintf(buf, len, "%s (under %s), and no larger buffer to try.", first, loads);
    return buf;
}
