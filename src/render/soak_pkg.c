/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A soak's cases in LAVA and JUnit: see soak_pkg.h. */
#include "render/soak_pkg.h"
#include "render/html.h"
#include "report/access.h"
#include <math.h>
#include <string.h>

static const json_t *soak_of(const json_t *doc)
{
    const json_t *p;
    size_t i;
    json_array_foreach(json_object_get(doc, "phases"), i, p)
        if (json_is_object(json_object_get(p, "soak")))
            return json_object_get(p, "soak");
    return NULL;
}

static const char *const stat_keys[] = { "min_us", "avg_us", "max_us" };
static const char *const stat_names[] = { "min-latency", "avg-latency", "max-latency" };

/* The maximum's outcome: 'u' no threshold, 'p' pass, 'f' fail (enforced), 's' failed, advice only. */
static char max_outcome(const json_t *v, double max_us)
{
    double thr = doc_num(v, "threshold_us");
    if (isnan(thr))
        return 'u';
    if (!(max_us > thr))
        return 'p';
    return json_is_true(json_object_get(v, "enforced")) ? 'f' : 's';
}

void soak_lava(FILE *f, const json_t *doc)
{
    const json_t *s = soak_of(doc), *t, *v = json_object_get(json_object_get(doc, "verdict"), "soak");
    size_t i;
    if (!s)
        return;
    json_array_foreach(json_object_get(s, "threads"), i, t) {
        long long n = (long long)json_integer_value(json_object_get(t, "thread"));
        for (int k = 0; k < 3; k++) {
            double x = doc_num(t, stat_keys[k]);
            if (isnan(x))
                continue;
            /* only the maximum has a threshold; a figure nothing judges is "unknown" (lava.c) */
            char o = k == 2 ? max_outcome(v, x) : 'u';
            fprintf(f, "lava-test-case t%lld-%s --result %s --measurement %.0f --units us\n", n, stat_names[k],
                    o == 'p' ? "pass" : o == 'u' ? "unknown" : "fail", ceil(x));
        }
    }
    fprintf(f, "lava-test-case soak-overflow --result unknown --measurement %lld --units events\n",
            (long long)json_integer_value(json_object_get(s, "overflow")));
}

size_t soak_junit(FILE *f, const json_t *doc, size_t *failures)
{
    const json_t *s = soak_of(doc), *t, *v = json_object_get(json_object_get(doc, "verdict"), "soak");
    size_t i, n = 0;
    if (!s)
        return 0;
    json_array_foreach(json_object_get(s, "threads"), i, t) {
        long long th = (long long)json_integer_value(json_object_get(t, "thread"));
        for (int k = 0; k < 3; k++) {
            double x = doc_num(t, stat_keys[k]);
            if (isnan(x))
                continue;
            char o = k == 2 ? max_outcome(v, x) : 'p';
            o = o == 'u' ? 'p' : o; /* JUnit has no "not judged": a case without a failure */
            n++;
            *failures += o != 'p'; /* advice that failed is a failure too (junit.c) */
            if (!f)
                continue;
            fprintf(f, "    <testcase name=\"t%lld-%s\" classname=\"rtjitter.soak\" time=\"0\"", th, stat_names[k]);
            if (o == 'p') {
                fputs("/>\n", f);
                continue;
            }
            char msg[256];
            snprintf(msg, sizeof(msg), "thread %lld (CPU %lld): maximum wake-up %.0f us over the soak's threshold "
                     "%.0f us%s", th, (long long)json_integer_value(json_object_get(t, "cpu")), x,
                     doc_num(v, "threshold_us"), o == 's' ? ": the exit status did not count it (give --profile to enforce it)" : "");
            fputs(">\n      <failure message=\"", f);
            html_escape(f, msg);
            fprintf(f, "\" type=\"%s\"/>\n    </testcase>\n", o == 'f' ? "threshold" : "advice");
        }
    }
    return n;
}
