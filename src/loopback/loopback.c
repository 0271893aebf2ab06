/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Loopback analyzer. Stub: accepts everything, finds nothing, until the real analyzer lands. */
#include "loopback/loopback.h"
#include <stdio.h>
#include <stdlib.h>

struct lb {
    struct lb_config c;
    uint64_t lost_frames;
};

struct lb *lb_new(const struct lb_config *c, char *err, size_t len)
{
    if (!c || !c->rate_hz || !c->period_frames || !c->max_latency_frames) {
        snprintf(err, len, "loopback: rate, period and latency range must be above zero");
        return NULL;
    }
    struct lb *a = calloc(1, sizeof(*a));
    if (!a) {
        snprintf(err, len, "loopback: out of memory");
        return NULL;
    }
    a->c = *c;
    return a;
}

void lb_feed(struct lb *a, uint64_t pos, const float *in, unsigned n, uint64_t seq, int64_t t_entry_ns,
             unsigned phase, int measuring)
{
    (void)a; (void)pos; (void)in; (void)n; (void)seq; (void)t_entry_ns; (void)phase; (void)measuring;
}

void lb_lost(struct lb *a, uint64_t pos, unsigned n)
{
    (void)pos;
    a->lost_frames += n;
}

json_t *lb_report(struct lb *a)
{
    return json_pack("{s:b, s:I, s:[]}", "locked", 0, "lost_frames", (json_int_t)a->lost_frames, "glitches");
}

void lb_free(struct lb *a)
{
    free(a);
}
