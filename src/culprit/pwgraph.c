/* SPDX-License-Identifier: GPL-2.0-or-later */
/* PipeWire's own accounting of its graph as disturbances (pwgraph.h).
 *
 * What 0.3.65 profiles of a follower stalled 20 ms at 5.3 ms periods (tests/integration/pipewire_xruns.sh): the
 * stalled cycle awake (status 2), then a row of status 1 (triggered, not awake: it is still inside the stalled
 * cycle) for each cycle it missed, each with that cycle's own signal time, then a finished row once it ran again.
 * A cycle's rows may come in two profiles (when the driver starts the next cycle with the graph unfinished, then
 * when it completes): a node's cycle is known by its signal time and counted once. The driver's xrun count did not
 * move there; a version whose count does is still one disturbance per cycle: a rise with an unfinished node in the
 * same profile is that node's. */
#include "culprit/pwgraph.h"
#include "util/utf8.h"
#include <stdio.h>
#include <string.h>

enum { ST_TRIGGERED = 1, ST_AWAKE = 2 };

void pwgraph_init(struct pwgraph *g)
{
    memset(g, 0, sizeof(*g));
    pthread_mutex_init(&g->mu, NULL);
    g->drv_xruns = -1;
}

void pwgraph_destroy(struct pwgraph *g)
{
    pthread_mutex_destroy(&g->mu);
}

/* The loop thread's: 1 when this node's cycle at signal_ns was counted already, else remembers it. */
static int seen(struct pwgraph *g, uint32_t id, int64_t signal_ns)
{
    for (int i = 0; i < g->nlast; i++)
        if (g->last[i].id == id) {
            if (g->last[i].signal_ns >= signal_ns)
                return 1;
            g->last[i].signal_ns = signal_ns;
            return 0;
        }
    int k = g->nlast < PWGRAPH_NODES ? g->nlast++ : g->last_next++ % PWGRAPH_NODES;
    g->last[k].id = id;
    g->last[k].signal_ns = signal_ns;
    return 0;
}

/* Locked by the caller. */
static void count(struct pwgraph *g, const char *node)
{
    for (int i = 0; i < g->ncounted; i++)
        if (strcmp(g->counted[i].node, node) == 0) {
            g->counted[i].cycles++;
            return;
        }
    if (g->ncounted == PWGRAPH_COUNTED) {
        g->others++;
        return;
    }
    snprintf(g->counted[g->ncounted].node, PWGRAPH_NAME_MAX, "%s", node);
    g->counted[g->ncounted++].cycles = 1;
}

/* Locked by the caller. */
static void push(struct pwgraph *g, int64_t t_ns, int64_t period_ns, const char *node)
{
    count(g, node);
    if (g->qlen == PWGRAPH_QUEUE) {
        g->dropped++;
        return;
    }
    struct pwgraph_dist *d = &g->q[(g->qhead + g->qlen++) % PWGRAPH_QUEUE];
    d->t_ns = t_ns;
    d->period_ns = period_ns;
    snprintf(d->node, sizeof(d->node), "%s", node);
}

/* A row of a node that was triggered this cycle or before and had not finished when the profile was taken. */
static int unfinished(const struct pwgraph_row *r)
{
    return r->name && r->signal_ns > 0 && (r->status == ST_TRIGGERED || r->status == ST_AWAKE);
}

void pwgraph_cycle(struct pwgraph *g, const struct pwgraph_cycle *c)
{
    pthread_mutex_lock(&g->mu);
    g->profiles++;
    int here = 0;
    const struct pwgraph_row *rows[1 + 64];
    int nrows = 0;
    rows[nrows++] = &c->driver;
    for (int i = 0; i < c->nfollowers && nrows < (int)(sizeof(rows) / sizeof(rows[0])); i++)
        rows[nrows++] = &c->followers[i];
    for (int i = 0; i < nrows; i++) {
        const struct pwgraph_row *r = rows[i];
        if (!unfinished(r))
            continue;
        here++;
        if (seen(g, r->id, r->signal_ns))
            continue;
        g->unfinished++;
        push(g, r->signal_ns, c->period_ns, r->name);
    }
    /* The driver's count: its first value is the past's; a rise is this cycle's (the driver's own, unless a node
     * above did not finish: then that node's, already counted). */
    if (c->xrun_count >= 0) {
        if (g->drv_xruns >= 0 && g->drv_id == c->driver.id && c->xrun_count > g->drv_xruns) {
            g->driver_xruns += (uint64_t)(c->xrun_count - g->drv_xruns);
            if (!here && c->driver.name)
                push(g, c->driver.signal_ns > 0 ? c->driver.signal_ns : c->nsec, c->period_ns, c->driver.name);
        }
        g->drv_xruns = c->xrun_count;
        g->drv_id = c->driver.id;
    }
    if (c->nsec > g->known_ns)
        g->known_ns = c->nsec;
    pthread_mutex_unlock(&g->mu);
}

int pwgraph_take(struct pwgraph *g, struct pwgraph_dist *out, int max, int64_t *known_ns)
{
    int n = 0;
    pthread_mutex_lock(&g->mu);
    while (n < max && g->qlen > 0) {
        out[n++] = g->q[g->qhead];
        g->qhead = (g->qhead + 1) % PWGRAPH_QUEUE;
        g->qlen--;
    }
    /* with some left in the queue, only what was taken is known */
    *known_ns = g->qlen ? out[n - 1].t_ns : g->known_ns;
    pthread_mutex_unlock(&g->mu);
    return n;
}

json_t *pwgraph_summary(struct pwgraph *g)
{
    pthread_mutex_lock(&g->mu);
    json_t *by = json_array();
    for (int i = 0; i < g->ncounted; i++)
        json_array_append_new(by, json_pack("{s:o, s:I}", "node", utf8_json_string(g->counted[i].node), "cycles",
                                            (json_int_t)g->counted[i].cycles));
    if (g->others)
        json_array_append_new(by, json_pack("{s:n, s:I}", "node", "cycles", (json_int_t)g->others));
    json_t *j = json_pack("{s:I, s:I, s:I, s:I, s:o}", "profiles", (json_int_t)g->profiles, "unfinished_cycles",
                          (json_int_t)g->unfinished, "driver_xruns", (json_int_t)g->driver_xruns, "dropped",
                          (json_int_t)g->dropped, "by_node", by);
    pthread_mutex_unlock(&g->mu);
    return j;
}
