/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The size a PipeWire graph runs at (pw_size.h): a connection of its own, the "settings" metadata and the nodes'
 * states read in two core syncs, nothing else. Main thread and libpipewire's loop thread; never the RT thread. */
#include "pipewire/pw_size.h"
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <pipewire/pipewire.h>
#include <pipewire/extensions/metadata.h>

#define PWS_MAX_NODES 128 /* nodes whose state is asked; a graph with more: whether one runs is not known */
#define PWS_MAX_VALUE 1048576L

long pws_parse_value(const char *value)
{
    if (!value || !*value)
        return -1;
    char *end;
    errno = 0;
    long v = strtol(value, &end, 10);
    if (errno || *end || v < 0 || v > PWS_MAX_VALUE || !(*value >= '0' && *value <= '9'))
        return -1;
    return v;
}

long pws_parse_rates(const char *value)
{
    if (!value)
        return -1;
    const char *s = value + strspn(value, " \t");
    if (*s++ != '[')
        return -1;
    long one = -1;
    int n = 0;
    for (;;) {
        s += strspn(s, " \t,");
        if (*s == ']')
            break;
        char *end;
        errno = 0;
        long v = strtol(s, &end, 10);
        if (end == s || errno || v <= 0 || v > PWS_MAX_VALUE)
            return -1;
        one = v;
        n++;
        s = end;
    }
    s += 1 + strspn(s + 1, " \t");
    return *s || n == 0 ? -1 : n == 1 ? one : 0;
}

/* Which figure is the truth. PipeWire 0.3.65 (pw_context_recalc_graph) gives a graph clock.force-quantum when it is
 * set (not 0), over every node's own node.latency, and clock.force-rate likewise: a forced size is the one every
 * driver runs, idle or not, so it is the answer. Unforced, clock.quantum is only the default: the quantum a graph
 * runs is the smallest node.latency its running nodes ask for (within clock.min-quantum and clock.max-quantum),
 * and a driver's current quantum is told to no client but through the profiler. So an unforced quantum is known
 * only while no node runs: our node, which asks for no latency of its own, then starts the graph at clock.quantum.
 * The rate likewise: clock.force-rate, else clock.rate when no node runs (one that runs may have moved the graph to
 * another of clock.allowed-rates) or when clock.allowed-rates lists that rate alone. Anything else: not known. */
int pws_decide(const struct pws_facts *f, int *rate_hz, int *period_frames)
{
    long q = -1, r = -1;
    if (f->force_quantum > 0)
        q = f->force_quantum;
    else if (f->force_quantum == 0 && f->running_nodes == 0 && f->quantum > 0)
        q = f->quantum;
    if (f->force_rate > 0)
        r = f->force_rate;
    else if (f->force_rate == 0 && f->rate > 0 && (f->running_nodes == 0 || f->allowed_rate == f->rate))
        r = f->rate;
    if (q <= 0 || r <= 0)
        return 0;
    *rate_hz = (int)r;
    *period_frames = (int)q;
    return 1;
}

struct pws_node {
    struct pws_ask *ask;
    struct pw_proxy *proxy;
    struct spa_hook listener;
    int state; /* enum pw_node_state once its info came, else a value below PW_NODE_STATE_ERROR */
};

/* Written by the loop thread, read by the main thread after `answer` (an atomic) said the loop is done with them. */
struct pws_ask {
    struct pw_thread_loop *loop;
    struct pw_core *core;
    struct pw_registry *registry;
    struct pw_proxy *metadata;
    struct spa_hook core_listener, registry_listener, metadata_listener;
    int seq, syncs;
    struct pws_facts facts;
    struct pws_node nodes[PWS_MAX_NODES];
    int nnodes, too_many;
    atomic_int answer; /* 0 waiting, 1 done, -1 error */
};

#define NO_STATE (PW_NODE_STATE_ERROR - 1)

/* The loop thread: a settings value (subject 0) as the server has it. */
static int on_property(void *data, uint32_t subject, const char *key, const char *type, const char *value)
{
    (void)type;
    struct pws_ask *a = data;
    if (subject != PW_ID_CORE || !key)
        return 0;
    if (!strcmp(key, "clock.force-quantum"))
        a->facts.force_quantum = pws_parse_value(value);
    else if (!strcmp(key, "clock.quantum"))
        a->facts.quantum = pws_parse_value(value);
    else if (!strcmp(key, "clock.force-rate"))
        a->facts.force_rate = pws_parse_value(value);
    else if (!strcmp(key, "clock.rate"))
        a->facts.rate = pws_parse_value(value);
    else if (!strcmp(key, "clock.allowed-rates"))
        a->facts.allowed_rate = pws_parse_rates(value);
    return 0;
}

static const struct pw_metadata_events metadata_events = {
    PW_VERSION_METADATA_EVENTS,
    .property = on_property,
};

/* The loop thread: a node's state. */
static void on_node_info(void *data, const struct pw_node_info *info)
{
    struct pws_node *n = data;
    n->state = info->state;
}

static const struct pw_node_events node_events = {
    PW_VERSION_NODE_EVENTS,
    .info = on_node_info,
};

/* The loop thread: the settings metadata and every node are bound as they are announced. */
static void on_global(void *data, uint32_t id, uint32_t permissions, const char *type, uint32_t version,
                      const struct spa_dict *props)
{
    (void)permissions;
    (void)version;
    struct pws_ask *a = data;
    if (!strcmp(type, PW_TYPE_INTERFACE_Metadata) && !a->metadata) {
        const char *name = props ? spa_dict_lookup(props, PW_KEY_METADATA_NAME) : NULL;
        if (!name || strcmp(name, "settings"))
            return;
        a->metadata = pw_registry_bind(a->registry, id, PW_TYPE_INTERFACE_Metadata, PW_VERSION_METADATA, 0);
        if (a->metadata)
            pw_metadata_add_listener((struct pw_metadata *)a->metadata, &a->metadata_listener, &metadata_events, a);
    } else if (!strcmp(type, PW_TYPE_INTERFACE_Node)) {
        if (a->nnodes == PWS_MAX_NODES) {
            a->too_many = 1;
            return;
        }
        struct pws_node *n = &a->nodes[a->nnodes];
        n->ask = a;
        n->state = NO_STATE;
        n->proxy = pw_registry_bind(a->registry, id, PW_TYPE_INTERFACE_Node, PW_VERSION_NODE, 0);
        if (!n->proxy) {
            a->too_many = 1;
            return;
        }
        pw_node_add_listener((struct pw_node *)n->proxy, &n->listener, &node_events, n);
        a->nnodes++;
    }
}

static const struct pw_registry_events registry_events = {
    PW_VERSION_REGISTRY_EVENTS,
    .global = on_global,
};

/* The loop thread: the first sync came back once every global was announced (and bound); the second once every
 * bound object told its first values. */
static void on_done(void *data, uint32_t id, int seq)
{
    struct pws_ask *a = data;
    if (id != PW_ID_CORE || seq != a->seq)
        return;
    if (++a->syncs == 1)
        a->seq = pw_core_sync(a->core, PW_ID_CORE, 0);
    else
        atomic_store(&a->answer, 1);
}

/* The loop thread: the connection failed (EPIPE: nobody is there). */
static void on_error(void *data, uint32_t id, int seq, int res, const char *message)
{
    (void)seq;
    (void)res;
    (void)message;
    struct pws_ask *a = data;
    if (id == PW_ID_CORE)
        atomic_store(&a->answer, -1);
}

static const struct pw_core_events core_events = {
    PW_VERSION_CORE_EVENTS,
    .done = on_done,
    .error = on_error,
};

/* Main thread, the loop locked: the facts from what came (a node whose info did not come: not known). */
static void gather(struct pws_ask *a)
{
    int running = 0;
    for (int i = 0; i < a->nnodes; i++) {
        if (a->nodes[i].state == NO_STATE)
            a->too_many = 1;
        else if (a->nodes[i].state == PW_NODE_STATE_RUNNING)
            running++;
    }
    a->facts.running_nodes = a->too_many ? -1 : running;
}

int pws_server_size(const char *remote, int deadline_ms, int *rate_hz, int *period_frames)
{
    struct pws_ask *a = calloc(1, sizeof(*a));
    if (!a)
        return 0;
    a->facts = (struct pws_facts){ -1, -1, -1, -1, -1, -1 };
    atomic_init(&a->answer, 0);
    pw_init(NULL, NULL);
    a->loop = pw_thread_loop_new("rtjitter-pwsize", NULL);
    struct pw_context *ctx = a->loop ? pw_context_new(pw_thread_loop_get_loop(a->loop), NULL, 0) : NULL;
    if (!ctx || pw_thread_loop_start(a->loop) < 0) {
        if (ctx)
            pw_context_destroy(ctx);
        if (a->loop)
            pw_thread_loop_destroy(a->loop);
        free(a);
        return 0;
    }
    pw_thread_loop_lock(a->loop);
    struct pw_properties *cp = remote ? pw_properties_new(PW_KEY_REMOTE_NAME, remote, NULL) : NULL;
    a->core = pw_context_connect(ctx, cp, 0);
    if (a->core) {
        pw_core_add_listener(a->core, &a->core_listener, &core_events, a);
        a->registry = pw_core_get_registry(a->core, PW_VERSION_REGISTRY, 0);
        if (a->registry)
            pw_registry_add_listener(a->registry, &a->registry_listener, &registry_events, a);
        a->seq = pw_core_sync(a->core, PW_ID_CORE, 0);
    }
    pw_thread_loop_unlock(a->loop);
    struct timespec ts = { 0, 5 * 1000000L };
    for (int waited = 0; a->core && a->registry && waited < deadline_ms && atomic_load(&a->answer) == 0;
         waited += 5)
        nanosleep(&ts, NULL);
    int rc = 0;
    pw_thread_loop_lock(a->loop);
    if (atomic_load(&a->answer) == 1) {
        gather(a);
        rc = pws_decide(&a->facts, rate_hz, period_frames);
    }
    /* Our hooks off first, then the proxies and the connection: nothing of ours is called after this. */
    for (int i = 0; i < a->nnodes; i++) {
        spa_hook_remove(&a->nodes[i].listener);
        pw_proxy_destroy(a->nodes[i].proxy);
    }
    if (a->metadata) {
        spa_hook_remove(&a->metadata_listener);
        pw_proxy_destroy(a->metadata);
    }
    if (a->registry) {
        spa_hook_remove(&a->registry_listener);
        pw_proxy_destroy((struct pw_proxy *)a->registry);
    }
    if (a->core) {
        spa_hook_remove(&a->core_listener);
        pw_core_disconnect(a->core);
    }
    pw_thread_loop_unlock(a->loop);
    pw_thread_loop_stop(a->loop);
    pw_context_destroy(ctx);
    pw_thread_loop_destroy(a->loop);
    free(a);
    return rc;
}
