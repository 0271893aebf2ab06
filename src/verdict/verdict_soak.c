/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A soak's verdict line: see verdict_soak.h. */
#include "verdict/verdict_soak.h"
#include "report/access.h"
#include "verdict/verdict_text.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

/* The phase with a "soak" object (a soak has one phase, or one per buffer size it met). */
static const json_t *soak_of(const json_t *doc, double *max_us, long long *overflow, long long *count)
{
    const json_t *p, *found = NULL;
    size_t i;
    *max_us = NAN;
    *overflow = *count = 0;
    json_array_foreach(json_object_get(doc, "phases"), i, p) {
        const json_t *s = json_object_get(p, "soak");
        if (!json_is_object(s))
            continue;
        if (!found) { /* the segments of the phase share it: counted once */
            found = s;
            *max_us = doc_num(s, "max_us");
            *overflow = (long long)json_integer_value(json_object_get(s, "overflow"));
            *count = (long long)json_integer_value(json_object_get(s, "count"));
        }
    }
    return found;
}

json_t *verdict_soak(const json_t *doc, const json_t *profile, double period_us, int strict)
{
    double max_us;
    long long overflow, count;
    const json_t *s = soak_of(doc, &max_us, &overflow, &count);
    if (!s)
        return NULL;
    const char *from = "soak_max_wakeup_pct";
    double pct = doc_num(profile, from);
    if (isnan(pct)) {
        from = "warn_jitter_pct";
        pct = doc_num(profile, from);
    }
    double thr = period_us > 0 && !isnan(pct) ? period_us * pct / 100 : NAN;
    int over = !isnan(thr) && !isnan(max_us) && max_us > thr;
    const char *level = over || overflow > 0 || count == 0 ? "fail" : "pass";
    char line[512];
    size_t o = 0;
    const char *pname = doc_str(profile, "name", "?");
    if (count == 0)
        o = vadd(line, sizeof(line), o, "Soak: no wake-up was measured.");
    else if (isnan(thr))
        o = vadd(line, sizeof(line), o, "Soak: maximum wake-up %.0f µs over %lld cycles (no threshold: the period "
                 "is unknown).", max_us, count);
    else
        o = vadd(line, sizeof(line), o, "Soak: maximum wake-up %.0f µs over %lld cycles, %s the %s profile's %.0f µs "
                 "(%g %% of the period).", max_us, count, over ? "over" : "within", pname, thr, pct);
    if (overflow > 0)
        o = vadd(line, sizeof(line), o, " %lld wake-up%s beyond the 10 ms of the 1 µs bins (overflow): a stall "
                 "no audio buffer hides.", overflow, overflow == 1 ? " was" : "s were");
    const json_t *stop = json_object_get(s, "stop");
    if (json_is_true(json_object_get(stop, "tripped")))
        vadd(line, sizeof(line), o, " Stopped at the first wake-up beyond %g µs (--stop-at-us): %.0f µs, %.3f s in.",
             doc_num(stop, "stop_at_us"), doc_num(stop, "wakeup_us"), doc_num(stop, "at_s"));
    return json_pack("{s:s, s:s, s:o, s:o, s:o, s:s, s:I, s:b}", "level", level, "line", line,
                     "max_us", isnan(max_us) ? json_null() : json_real(max_us),
                     "threshold_us", isnan(thr) ? json_null() : json_real(thr),
                     "threshold_pct", isnan(pct) ? json_null() : json_real(pct), "threshold_from", from,
                     "overflow", (json_int_t)overflow, "enforced", strict);
}

size_t verdict_soak_text(const json_t *soak, char *b, size_t n, size_t o)
{
    const char *line = json_string_value(json_object_get(soak, "line"));
    return line ? vadd(b, n, o, "%s ", line) : o;
}
