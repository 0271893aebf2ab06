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

const char *headline_report(const json_t *doc, char *buf, size_t len)
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
    if (frames > 0 && 2 * frames <= HEADLINE_MAX_FRAMES)
        snprintf(buf, len, "%s (under %s): try %.0f frames.", first, loads, 2 * frames);
    else
        snprintf(buf, len, "%s (under %s), and no larger buffer to try.", first, loads);
    return buf;
}
