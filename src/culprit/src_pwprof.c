/* SPDX-License-Identifier: GPL-2.0-or-later */
/* PipeWire's profiler as a culprit source (src_pwprof.h). The profile pod, as module-profiler sends it and
 * pw-profiler reads it (PipeWire src/tools/pw-profiler.c; the layout in spa/param/profiler.h): a Struct of Profiler
 * objects, one a driver cycle, whose properties are info (Struct: Long counter, Float cpu loads...), clock (Struct:
 * Int flags, Int id, String name, Long nsec, Fraction rate, Long position, Long duration, ...), driverBlock and
 * followerBlock (each a Struct: Int id, String name, Long prev_signal, Long signal, Long awake, Long finish, Int
 * status, Fraction latency, ...). Later versions append fields; the parse takes the leading ones only. Each
 * follower's rows become stalls and observations in src_pwprof_stall.c. */
#include "culprit/src_pwprof_internal.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pipewire/pipewire.h>
#include <pipewire/impl.h> /* pw_context_load_module */
#include <pipewire/extensions/profiler.h>
#include <spa/param/profiler.h>
#include <spa/pod/parser.h>
#include <spa/pod/iter.h>

static int64_t ns_of(clockid_t c)
{
    struct timespec ts;
    clock_gettime(c, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* clock - CLOCK_MONOTONIC, read between two readings of clock (the midpoint: error under a microsecond). */
static int64_t mono_offset(clockid_t clock)
{
    if (clock == CLOCK_MONOTONIC)
        return 0;
    int64_t a = ns_of(clock), m = ns_of(CLOCK_MONOTONIC), b = ns_of(clock);
    return a + (b - a) / 2 - m;
}

/* ---- the loop thread: profiles in (their stalls in src_pwprof_stall.c) ---------------------------------- */

static int parse_block(const struct spa_pod *pod, struct block *b)
{
    memset(b, 0, sizeof(*b));
    return spa_pod_parse_struct(pod, SPA_POD_Int(&b->id), SPA_POD_String(&b->name), SPA_POD_Long(&b->prev_signal),
                                SPA_POD_Long(&b->signal), SPA_POD_Long(&b->awake), SPA_POD_Long(&b->finish),
                                SPA_POD_Int(&b->status));
}

/* The driver's xrun count from the info property (Long counter, Float cpu loads x3, Int xrun_count), -1: none. */
static int32_t parse_xruns(const struct spa_pod *pod)
{
    int64_t counter = 0;
    float l0 = 0, l1 = 0, l2 = 0;
    int32_t xruns = -1;
    if (spa_pod_parse_struct(pod, SPA_POD_Long(&counter), SPA_POD_Float(&l0), SPA_POD_Float(&l1),
                             SPA_POD_Float(&l2), SPA_POD_Int(&xruns)) < 0)
        return -1;
    return xruns;
}

/* The graph's accounting of one profiled cycle (pwgraph.h): of our node's driver only (a profile our node is a
 * follower in), since another driver's nodes run in a graph of their own and cannot disturb ours. */
static void graph_cycle(struct pwprof *p, const struct block *drv, const struct block *fol, int nfol,
                        int64_t period_ns, int64_t nsec, int32_t xruns)
{
    struct pwgraph_row rows[NODES_MAX];
    int ours = !p->own[0];
    for (int i = 0; i < nfol; i++) {
        rows[i] = (struct pwgraph_row){ fol[i].id, fol[i].name, fol[i].signal, fol[i].status };
        ours |= strcmp(fol[i].name, p->own) == 0;
    }
    if (!ours)
        return;
    struct pwgraph_cycle c = { .nsec = nsec, .period_ns = period_ns, .xrun_count = xruns,
                               .driver = { drv->id, drv->name, drv->signal, drv->status },
                               .followers = rows, .nfollowers = nfol };
    pwgraph_cycle(&p->graph, &c);
}

/* The quantum's duration from the clock property: duration samples at rate (1/48000), and the clock's nsec (the
 * start of the cycle the profile was taken at). 0 when unknown. */
static int64_t parse_period(const struct spa_pod *pod, int64_t *nsec_out)
{
    int32_t flags = 0, id = 0;
    const char *name = NULL;
    int64_t nsec = 0, position = 0, duration = 0;
    struct spa_fraction rate = { 0, 0 };
    if (spa_pod_parse_struct(pod, SPA_POD_Int(&flags), SPA_POD_Int(&id), SPA_POD_String(&name),
                             SPA_POD_Long(&nsec), SPA_POD_Fraction(&rate), SPA_POD_Long(&position),
                             SPA_POD_Long(&duration)) < 0 || rate.denom == 0 || duration <= 0)
        return 0;
    *nsec_out = nsec;
    return duration * 1000000000LL * (rate.num ? rate.num : 1) / rate.denom;
}

/* One profiled cycle: the period first (the clock property may come after the blocks), then the blocks. */
static void one_cycle(struct pwprof *p, const struct spa_pod_object *obj, int64_t recv)
{
    struct spa_pod_prop *prop;
    struct block drv, fol[NODES_MAX];
    int nfol = 0, have_drv = 0;
    int64_t period_ns = 0, nsec = 0;
    int32_t xruns = -1;
    SPA_POD_OBJECT_FOREACH(obj, prop) {
        if (prop->key == SPA_PROFILER_info)
            xruns = parse_xruns(&prop->value);
        else if (prop->key == SPA_PROFILER_clock)
            period_ns = parse_period(&prop->value, &nsec);
        else if (prop->key == SPA_PROFILER_driverBlock)
            have_drv = parse_block(&prop->value, &drv) >= 0 && drv.name;
        else if (prop->key == SPA_PROFILER_followerBlock && nfol < NODES_MAX &&
                 parse_block(&prop->value, &fol[nfol]) >= 0 && fol[nfol].name)
            nfol++;
    }
    if (!have_drv || period_ns <= 0)
        return;
    graph_cycle(p, &drv, fol, nfol, period_ns, nsec, xruns);
    int64_t now = drv.finish > drv.signal ? drv.finish : drv.signal;
    for (int i = 0; i < nfol; i++) {
        if (p->own[0] && strcmp(fol[i].name, p->own) == 0) {
            pwprof_stall_follower(p, &p->own_stall, &fol[i], period_ns, now, recv);
            pwprof_stall_own_cycle(p, &fol[i], period_ns);
        } else {
            pwprof_stall_follower(p, pwprof_stall_slot(p, &fol[i]), &fol[i], period_ns, now, recv);
        }
    }
}

static void on_profile(void *data, const struct spa_pod *pod)
{
    struct pwprof *p = data;
    struct spa_pod *o;
    int64_t recv = ns_of(CLOCK_MONOTONIC);
    if (!spa_pod_is_struct(pod))
        return;
    SPA_POD_STRUCT_FOREACH(pod, o) {
        if (!spa_pod_is_object_type(o, SPA_TYPE_OBJECT_Profiler))
            continue;
        one_cycle(p, (const struct spa_pod_object *)o, recv);
    }
    pthread_mutex_lock(&p->mu);
    p->profiles++;
    pthread_mutex_unlock(&p->mu);
    /* a node that vanished from the profiles with a stall open (it left the graph) */
    for (int i = 0; i < NODES_MAX; i++)
        if (p->nodes[i].open && recv - p->nodes[i].last_seen > STALL_QUIET_NS)
            pwprof_stall_close(p, &p->nodes[i]);
    if (p->own_stall.open && recv - p->own_stall.last_seen > STALL_QUIET_NS)
        pwprof_stall_close(p, &p->own_stall);
}

static const struct pw_profiler_events profiler_events = {
    PW_VERSION_PROFILER_EVENTS,
    .profile = on_profile,
};

static void on_global(void *data, uint32_t id, uint32_t permissions, const char *type, uint32_t version,
                      const struct spa_dict *props)
{
    struct pwprof *p = data;
    (void)permissions, (void)version, (void)props;
    if (p->profiler || strcmp(type, PW_TYPE_INTERFACE_Profiler) != 0)
        return;
    p->profiler = pw_registry_bind(p->registry, id, type, PW_VERSION_PROFILER, 0);
    if (p->profiler)
        pw_proxy_add_object_listener(p->profiler, &p->profiler_listener, &profiler_events, p);
}

static const struct pw_registry_events registry_events = {
    PW_VERSION_REGISTRY_EVENTS,
    .global = on_global,
};

static void on_core_done(void *data, uint32_t id, int seq)
{
    struct pwprof *p = data;
    if (id == PW_ID_CORE && seq == p->sync_seq) {
        p->synced = 1;
        pw_thread_loop_signal(p->loop, false);
    }
}

static void on_core_error(void *data, uint32_t id, int seq, int res, const char *message)
{
    struct pwprof *p = data;
    (void)seq;
    if (id == PW_ID_CORE && res == -EPIPE) {
        snprintf(p->gone_why, sizeof(p->gone_why), "PipeWire went away: %s", message ? message : "");
        p->gone = 1;
        pw_thread_loop_signal(p->loop, false);
    }
}

static const struct pw_core_events core_events = {
    PW_VERSION_CORE_EVENTS,
    .done = on_core_done,
    .error = on_core_error,
};

/* ---- the engine's thread ------------------------------------------------------------------------------------ */

static int pp_poll(void *ctx, int64_t now_ns, struct culprit_obs *out, int max)
{
    struct pwprof *p = ctx;
    (void)now_ns;
    int64_t off = mono_offset(p->clock);
    int n = 0;
    pthread_mutex_lock(&p->mu);
    while (n < max && p->qlen > 0) {
        out[n] = p->queue[p->qhead];
        out[n].t0_ns += off;
        out[n].t1_ns += off;
        p->qhead = (p->qhead + 1) % QUEUE_MAX;
        p->qlen--;
        n++;
    }
    pthread_mutex_unlock(&p->mu);
    if (n == 0 && p->gone) /* set once by the loop thread; read without its lock: at worst one poll late */
        return -1;
    return n;
}

int pwprof_own_cycles(const struct culprit_source *src, int64_t t0_ns, int64_t t1_ns, struct pwprof_cycle *out,
                      int max)
{
    if (!src || !src->ctx || src->poll != pp_poll)
        return -1;
    struct pwprof *p = src->ctx;
    int64_t off = mono_offset(p->clock);
    int n = 0;
    pthread_mutex_lock(&p->mu);
    long first = p->own_n > OWN_MAX ? p->own_n - OWN_MAX : 0;
    for (long i = first; i < p->own_n && n < max; i++) {
        struct pwprof_cycle c = p->own_ring[i % OWN_MAX];
        if (c.signal_ns + off < t0_ns || c.signal_ns + off > t1_ns)
            continue;
        c.signal_ns += off, c.awake_ns += off, c.finish_ns += off;
        out[n++] = c;
    }
    pthread_mutex_unlock(&p->mu);
    return n;
}

void pwprof_source_hold(const struct culprit_source *src)
{
    if (src && src->ctx && src->poll == pp_poll)
        atomic_fetch_add(&((struct pwprof *)src->ctx)->refs, 1);
}

int pwprof_graph_take(const struct culprit_source *src, struct pwgraph_dist *out, int max, int64_t *known_ns)
{
    struct pwprof *p = src->ctx;
    int64_t known_mono = 0, off = mono_offset(p->clock);
    int n = pwgraph_take(&p->graph, out, max, &known_mono);
    for (int i = 0; i < n; i++)
        out[i].t_ns += off;
    *known_ns = known_mono ? known_mono + off : 0;
    return n;
}

json_t *pwprof_graph_summary(const struct culprit_source *src)
{
    return pwgraph_summary(&((struct pwprof *)src->ctx)->graph);
}

static json_t *pp_summary(void *ctx)
{
    struct pwprof *p = ctx;
    pthread_mutex_lock(&p->mu);
    json_t *own = json_null();
    if (p->own[0])
        own = json_pack("{s:s, s:I, s:I, s:I, s:f, s:f}", "name", p->own, "id", (json_int_t)p->own_id, "cycles",
                        (json_int_t)p->own_n, "over_period", (json_int_t)p->own_over_period,
                        "max_finish_minus_awake_us", p->own_max_run_ns / 1e3,
                        "max_awake_minus_signal_us", p->own_max_wake_ns / 1e3);
    json_t *j = json_pack("{s:s, s:I, s:I, s:I, s:I, s:o}", "remote", p->where, "profiles",
                          (json_int_t)p->profiles, "observations", (json_int_t)p->observations,
                          "unfinished_under_a_period", (json_int_t)p->short_unfinished, "dropped",
                          (json_int_t)p->dropped, "own_node", own ? own : json_null());
    pthread_mutex_unlock(&p->mu);
    json_object_set_new(j, "graph", pwgraph_summary(&p->graph));
    return j;
}

static void pp_close(void *ctx)
{
    struct pwprof *p = ctx;
    if (!p || atomic_fetch_sub(&p->refs, 1) > 1)
        return;
    if (p->loop)
        pw_thread_loop_stop(p->loop);
    if (p->profiler) {
        spa_hook_remove(&p->profiler_listener);
        pw_proxy_destroy(p->profiler);
    }
    if (p->registry) {
        spa_hook_remove(&p->registry_listener);
        pw_proxy_destroy((struct pw_proxy *)p->registry);
    }
    if (p->core) {
        spa_hook_remove(&p->core_listener);
        pw_core_disconnect(p->core);
    }
    if (p->context)
        pw_context_destroy(p->context);
    if (p->loop)
        pw_thread_loop_destroy(p->loop);
    pthread_mutex_destroy(&p->mu);
    pwgraph_destroy(&p->graph);
    free(p);
    pw_deinit();
}

/* Where pw_context_connect() looks (for the messages). */
static void describe_remote(char *out, size_t len)
{
    const char *remote = getenv("PIPEWIRE_REMOTE");
    const char *dir = getenv("PIPEWIRE_RUNTIME_DIR");
    if (!dir)
        dir = getenv("XDG_RUNTIME_DIR");
    if (remote && remote[0] == '/')
        snprintf(out, len, "%s", remote);
    else
        snprintf(out, len, "%s/%s", dir ? dir : "(no XDG_RUNTIME_DIR)", remote ? remote : "pipewire-0");
}

/* Under the loop's lock: connect, list the globals, wait for the answer to a sync (the registry's globals come
 * before it). */
static int connect_locked(struct pwprof *p, char *err, size_t errlen)
{
    /* the client side of the Profiler interface (its marshal) comes with the module, as in pw-profiler */
    pw_context_load_module(p->context, PW_EXTENSION_MODULE_PROFILER, NULL, NULL);
    p->core = pw_context_connect(p->context, NULL, 0);
    if (!p->core) {
        snprintf(err, errlen, "no PipeWire at %s: %s", p->where,
                 errno == EHOSTDOWN ? "nothing listens there" : strerror(errno));
        return -1;
    }
    pw_core_add_listener(p->core, &p->core_listener, &core_events, p);
    p->registry = pw_core_get_registry(p->core, PW_VERSION_REGISTRY, 0);
    pw_registry_add_listener(p->registry, &p->registry_listener, &registry_events, p);
    p->sync_seq = pw_core_sync(p->core, PW_ID_CORE, 0);
    struct timespec until;
    pw_thread_loop_get_time(p->loop, &until, CONNECT_TIMEOUT_S * SPA_NSEC_PER_SEC);
    while (!p->synced && !p->gone)
        if (pw_thread_loop_timed_wait_full(p->loop, &until) != 0)
            break;
    if (p->gone)
        snprintf(err, errlen, "no PipeWire at %s: %s", p->where, p->gone_why);
    else if (!p->synced)
        snprintf(err, errlen, "PipeWire at %s did not answer in %d s", p->where, CONNECT_TIMEOUT_S);
    else if (!p->profiler)
        snprintf(err, errlen, "PipeWire at %s has no profiler: module-profiler is not loaded", p->where);
    else
        return 0;
    return -1;
}

int pwprof_source_open(clockid_t clock, const char *own_name, struct culprit_source *out, char *err, size_t errlen)
{
    struct pwprof *p = calloc(1, sizeof(*p));
    if (!p) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    pw_init(NULL, NULL);
    pthread_mutex_init(&p->mu, NULL);
    pwgraph_init(&p->graph);
    atomic_init(&p->refs, 1);
    p->clock = clock;
    snprintf(p->own, sizeof(p->own), "%s", own_name ? own_name : "");
    p->own_stall.own = 1;
    describe_remote(p->where, sizeof(p->where));
    /* a normal-priority thread: pw_thread_loop asks for no real-time priority (module-rt is not loaded) */
    p->loop = pw_thread_loop_new("rtj-pwprof", NULL);
    p->context = p->loop ? pw_context_new(pw_thread_loop_get_loop(p->loop), NULL, 0) : NULL;
    if (!p->context || pw_thread_loop_start(p->loop) != 0) {
        snprintf(err, errlen, "cannot start libpipewire's loop: %s", strerror(errno));
        pp_close(p);
        return -1;
    }
    pw_thread_loop_lock(p->loop);
    int rc = connect_locked(p, err, errlen);
    pw_thread_loop_unlock(p->loop);
    if (rc != 0) {
        pp_close(p);
        return -1;
    }
    memset(out, 0, sizeof(*out));
    out->name = "PipeWire profiler";
    out->ctx = p;
    out->poll = pp_poll;
    out->explain = NULL;
    out->summary = pp_summary;
    out->close = pp_close;
    return 0;
}
