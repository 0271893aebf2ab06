/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The culprit engine (culprit_engine.h): its thread, the collector's notes, the sources, the results and the
 * summary. The sampler thread is a plain pthread at normal priority (SCHED_OTHER, never real time, never the RT
 * thread); each tick samples (sampler.c), polls the sources, and explains the happenings whose window after them
 * has been sampled (rank.c). The collector's note takes a mutex and appends: cheap, never blocking on a file.
 * Unit tests drive ticks by hand on fixture trees (ce_create, ce_tick). */
#include "culprit/engine_internal.h"
#include "util/hurry.h"
#include <stdatomic.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "util/utf8.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int64_t ce_now(const struct culprit_engine *e)
{
    struct timespec ts;
    clock_gettime(e->cfg.clock, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void init_readers(struct culprit_engine *e)
{
    static const char *const names[CER_COUNT] = {
        [CER_INTERRUPTS] = "/proc/interrupts", [CER_SOFTIRQS] = "/proc/softirqs", [CER_STAT] = "/proc/stat steal",
        [CER_SCHEDSTAT] = "audio thread schedstat", [CER_PSI] = "/proc/pressure", [CER_CPUFREQ] = "cpufreq",
        [CER_RTTASKS] = "real-time tasks"};
    for (int i = 0; i < CER_COUNT; i++)
        e->readers[i] = (struct ce_reader){names[i], "absent", "not read yet", 0};
}

static int alloc_state(struct culprit_engine *e)
{
    e->soft_prev = calloc((size_t)CE_SOFT_MAX * CE_CPUS_MAX, sizeof *e->soft_prev);
    e->soft_roll = calloc((size_t)CE_SOFT_MAX * CE_CPUS_MAX, sizeof *e->soft_roll);
    e->steal_prev = malloc(sizeof *e->steal_prev * CE_CPUS_MAX);
    e->steal_roll = calloc(CE_CPUS_MAX, sizeof *e->steal_roll);
    e->hist = calloc((size_t)e->hist_cap, sizeof *e->hist);
    if (!e->soft_prev || !e->soft_roll || !e->steal_prev || !e->steal_roll || !e->hist)
        return -1;
    memset(e->steal_prev, 0xff, sizeof *e->steal_prev * CE_CPUS_MAX);
    for (int i = 0; i < 3; i++)
        e->psi_prev[i] = -1;
    return 0;
}

struct culprit_engine *ce_create(const struct culprit_config *cfg, char *err, size_t errlen)
{
    struct culprit_engine *e = calloc(1, sizeof *e);
    if (!e) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    e->cfg = *cfg;
    if (e->cfg.hz <= 0)
        e->cfg.hz = 20;
    e->cfg.hz = e->cfg.hz < 10 ? 10 : e->cfg.hz > 20 ? 20 : e->cfg.hz;
    if (e->cfg.history_s <= 0)
        e->cfg.history_s = 30;
    if (e->cfg.history_s > 120)
        e->cfg.history_s = 120;
    e->interval_ns = (int64_t)(1e9 / e->cfg.hz);
    if (e->cfg.quiet_hz > 0) {
        e->cfg.quiet_hz = e->cfg.quiet_hz < 2 ? 2 : e->cfg.quiet_hz > 10 ? 10 : e->cfg.quiet_hz;
        e->cfg.quiet_hz = e->cfg.quiet_hz > e->cfg.hz ? e->cfg.hz : e->cfg.quiet_hz;
        e->quiet_ns = (int64_t)(1e9 / e->cfg.quiet_hz);
        e->quiet_after_ns = (int64_t)(1e9 * (e->cfg.quiet_after_s > 0 ? e->cfg.quiet_after_s : 1));
    }
    e->hist_cap = (int)(e->cfg.history_s * e->cfg.hz) + 1;
    snprintf(e->proc, sizeof e->proc, "%s", cfg->proc_root ? cfg->proc_root : "/proc");
    snprintf(e->sys, sizeof e->sys, "%s", cfg->sys_root ? cfg->sys_root : "/sys");
    e->real_proc = strcmp(e->proc, "/proc") == 0;
    snprintf(e->own_client, sizeof e->own_client, "%s", cfg->own_client ? cfg->own_client : "");
    e->cfg.proc_root = e->cfg.sys_root = e->cfg.own_client = NULL; /* the copies above are what is used */
    init_readers(e);
    pthread_mutex_init(&e->mu, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&e->cv, &ca);
    pthread_condattr_destroy(&ca);
    e->wall_t0_ns = mono_ns();
    if (alloc_state(e) < 0) {
        snprintf(err, errlen, "out of memory for %d samples of history", e->hist_cap);
        culprit_engine_free(e);
        return NULL;
    }
    return e;
}

/* ---- sources ---- */

static void source_close(struct ce_source_slot *s)
{
    if (s->src.summary && !s->summary)
        s->summary = s->src.summary(s->src.ctx);
    if (s->src.close)
        s->src.close(s->src.ctx);
    s->src.close = NULL;
    s->src.summary = NULL;
}

static void source_gone(struct ce_source_slot *s)
{
    s->state = "closed";
    snprintf(s->why, sizeof s->why, "the source ended (its poll failed)");
    source_close(s);
}

static void keep_obs(struct culprit_engine *e, const struct culprit_obs *o)
{
    if (e->obs_n == CE_OBS_MAX)
        e->obs_lost++;
    else
        e->obs_n++;
    e->obs[e->obs_head] = *o;
    e->obs_head = (e->obs_head + 1) % CE_OBS_MAX;
}

void ce_keep_obs(struct culprit_engine *e, const struct culprit_obs *o)
{
    keep_obs(e, o);
}

static void poll_sources(struct culprit_engine *e, int64_t now_ns)
{
    pthread_mutex_lock(&e->mu);
    int ns = e->nsources;
    pthread_mutex_unlock(&e->mu);
    for (int i = 0; i < ns; i++) {
        struct ce_source_slot *s = &e->sources[i]; /* only this thread changes a slot once added */
        if (strcmp(s->state, "on") != 0 || !s->src.poll)
            continue;
        struct culprit_obs o[32];
        if (s->src.quiet)
            s->src.quiet(s->src.ctx, e->polling_quiet);
        int n = s->src.poll(s->src.ctx, now_ns, o, 32);
        if (n < 0) {
            pthread_mutex_lock(&e->mu);
            source_gone(s);
            pthread_mutex_unlock(&e->mu);
            continue;
        }
        for (int k = 0; k < n && k < 32; k++)
            keep_obs(e, &o[k]);
    }
}

/* ---- explaining ---- */

static bool due(const struct culprit_engine *e, const struct ce_result *r, bool all)
{
    int64_t lag = e->polled_sources ? CE_SOURCE_LAG_NS : 0; /* the engine's thread reads it: sources are added
                                                              * before the cycles start */
    return all || (e->hist_n > 0 && e->last_t_ns >= r->end_ns + e->interval_ns + lag);
}

static void explain_one(struct culprit_engine *e, int idx)
{
    struct ce_result r;
    pthread_mutex_lock(&e->mu);
    r = e->res[idx];
    pthread_mutex_unlock(&e->mu);
    struct culprit c[CULPRITS_MAX];
    int n = e->hist_n > 0 ? ce_rank(e, &r, c, CULPRITS_MAX) : 0;
    struct ce_kept *copy = ce_kept_pack(c, n);
    pthread_mutex_lock(&e->mu);
    if (e->res[idx].state == 3) { /* forgotten while it was explained: no one will ask */
        pthread_mutex_unlock(&e->mu);
        free(copy);
        return;
    }
    e->res[idx].c = copy;
    e->res[idx].n = copy ? n : 0;
    e->res[idx].state = copy ? 1 : 2;
    pthread_mutex_unlock(&e->mu);
}

/* Reclaims the forgotten results' slots (their culprits were freed when forgotten), keeping the others in the
 * order they were noted. The sampler's thread only (it alone holds indices into res across unlocks); under mu. */
static void compact(struct culprit_engine *e)
{
    if (e->nforgotten < 64 || 8 * e->nforgotten < e->nres) /* (an eighth: the array's pages touched follow its peak) */
        return;
    int w = 0, first = e->res_first_pending;
    for (int i = 0; i < e->nres; i++) {
        if (e->res[i].state == 3) {
            if (i < e->res_first_pending)
                first--;
            continue;
        }
        e->res[w++] = e->res[i];
    }
    e->nres = w;
    e->res_first_pending = first;
    e->nforgotten = 0;
}

struct ce_result *ce_find(struct culprit_engine *e, enum culprit_subject subj, int phase, int64_t start_ns)
{
    for (int i = e->nres; i-- > 0;) {
        struct ce_result *r = &e->res[i];
        if (r->subj == subj && r->phase == phase && r->start_ns == start_ns && r->state != 3)
            return r;
    }
    return NULL;
}

bool culprit_engine_pending(struct culprit_engine *e, enum culprit_subject subj, int phase, int64_t start_ns)
{
    if (!e)
        return false;
    pthread_mutex_lock(&e->mu);
    const struct ce_result *r = e->stopped ? NULL : ce_find(e, subj, phase, start_ns);
    bool pending = r && r->state == 0;
    pthread_mutex_unlock(&e->mu);
    return pending;
}

void culprit_engine_forget(struct culprit_engine *e, enum culprit_subject subj, int phase, int64_t start_ns)
{
    if (!e)
        return;
    pthread_mutex_lock(&e->mu);
    struct ce_result *r = ce_find(e, subj, phase, start_ns);
    if (r) {
        if (r->state == 0 && subj == CS_EVENT) /* summed as "not known"; a spike pushed out is only counted */
            e->forgotten_pending++;
        free(r->c);
        r->c = NULL;
        r->n = 0;
        r->state = 3;
        e->nforgotten++;
    }
    pthread_mutex_unlock(&e->mu);
}

void ce_explain_due(struct culprit_engine *e, bool all)
{
    pthread_mutex_lock(&e->mu);
    compact(e);
    int first = e->res_first_pending, n = e->nres;
    pthread_mutex_unlock(&e->mu);
    bool all_before = true;
    for (int i = first; i < n; i++) {
        pthread_mutex_lock(&e->mu);
        struct ce_result r = e->res[i];
        pthread_mutex_unlock(&e->mu);
        if (r.state == 0 && !r.asked && (all || (e->hist_n > 0 && e->last_t_ns >= r.end_ns + e->interval_ns))) {
            int why = 0;
            int64_t wait_ns = 0;
            int traced = ce_ask_sources(e, &r, &why, &wait_ns);
            pthread_mutex_lock(&e->mu);
            e->res[i].asked = true;
            e->res[i].traced = r.traced = traced;
            e->res[i].trace_why = r.trace_why = (int8_t)why;
            e->res[i].trace_wait_ns = r.trace_wait_ns = wait_ns;
            pthread_mutex_unlock(&e->mu);
        }
        if (r.state == 0 && due(e, &r, all))
            explain_one(e, i);
        else if (r.state == 0)
            all_before = false;
        if (all_before) {
            pthread_mutex_lock(&e->mu);
            e->res_first_pending = i + 1;
            pthread_mutex_unlock(&e->mu);
        }
    }
}

static void account_cpu(struct culprit_engine *e)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
        return;
    pthread_mutex_lock(&e->mu);
    e->cpu_ns = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
    pthread_mutex_unlock(&e->mu);
}

void ce_tick(struct culprit_engine *e, int64_t now_ns)
{
    ce_sample_tick(e, now_ns);
    poll_sources(e, now_ns);
    ce_explain_due(e, false);
}

/* ---- the thread ---- */

/* Whether a trace source is on: its explain accounts the audio threads' waits, and a happening it explains keeps
 * none of the counters but steal (rank.c trace_rules). Under mu. */
static bool traced_on(const struct culprit_engine *e)
{
    for (int i = 0; i < e->nsources; i++)
        if (strcmp(e->sources[i].state, "on") == 0 && ce_is_trace(&e->sources[i]))
            return true;
    return false;
}

/* Whether the sampler may slow down: quiet configured, nothing begun or noted for quiet_after, nothing left to
 * explain (a pending one is explained at hz: its window after, and the sources' lag). Under mu. */
static bool quiet_now(const struct culprit_engine *e, int64_t now)
{
    return e->quiet_ns > 0 && now >= e->active_until_ns && e->res_first_pending >= e->nres;
}

static void ts_add(struct timespec *t, int64_t ns)
{
    int64_t v = (int64_t)t->tv_sec * 1000000000 + t->tv_nsec + ns;
    t->tv_sec = (time_t)(v / 1000000000);
    t->tv_nsec = (long)(v % 1000000000);
}

static void *sampler_main(void *arg)
{
    struct culprit_engine *e = arg;
    atomic_store(&e->tid, (int)syscall(SYS_gettid));
    struct timespec next;
    clock_gettime(CLOCK_MONOTONIC, &next);
    pthread_mutex_lock(&e->mu);
    e->active_until_ns = mono_ns() + e->quiet_after_ns; /* the first samples at hz: the baselines fill */
    while (!e->stop) {
        /* quiet still (a wait that timed out, nothing begun): the sources may leave their background reading */
        e->polling_quiet = quiet_now(e, mono_ns());
        pthread_mutex_unlock(&e->mu);
        ce_tick(e, ce_now(e));
        account_cpu(e);
        pthread_mutex_lock(&e->mu);
        int64_t now = mono_ns();
        bool quiet = quiet_now(e, now);
        /* with the trace on, the counters are context only (rank.c trace_rules keeps none of them but steal for a
         * traced happening): watch reads them at quiet_hz even while something happens, and the trace, drained at
         * each of those ticks (polling_quiet stays false), explains */
        bool slow = quiet || (e->quiet_ns > 0 && traced_on(e));
        int64_t iv = slow ? e->quiet_ns : e->interval_ns;
        e->quiet_ticks += quiet;
        e->traced_slow_ticks += slow && !quiet;
        e->quiet = slow;
        ts_add(&next, iv);
        int64_t t0 = now;
        while (!e->stop && !e->wake && pthread_cond_timedwait(&e->cv, &e->mu, &next) != ETIMEDOUT)
            ;
        now = mono_ns();
        if (quiet)
            e->quiet_total_ns += now - t0;
        if (e->wake) { /* something began: sample now, at hz from here */
            e->wake = false;
            clock_gettime(CLOCK_MONOTONIC, &next);
        }
    }
    e->polling_quiet = false;
    pthread_mutex_unlock(&e->mu);
    /* a last sample, so that what ended just before the stop has its window after, then everything pending */
    ce_tick(e, ce_now(e));
    ce_explain_due(e, true);
    account_cpu(e);
    return NULL;
}

/* Under mu: the sampler stays at hz for quiet_after from now; a quiet one is woken to sample at once. */
static void keep_active(struct culprit_engine *e)
{
    if (e->quiet_ns <= 0)
        return;
    int64_t now = mono_ns();
    if (e->running && quiet_now(e, now)) {
        e->wake = true;
        pthread_cond_signal(&e->cv);
    }
    e->active_until_ns = now + e->quiet_after_ns;
}

void culprit_engine_wake(struct culprit_engine *e)
{
    if (!e)
        return;
    pthread_mutex_lock(&e->mu);
    keep_active(e);
    pthread_mutex_unlock(&e->mu);
}

struct culprit_engine *culprit_engine_start(const struct culprit_config *cfg, char *err, size_t errlen)
{
    struct culprit_engine *e = ce_create(cfg, err, errlen);
    if (!e)
        return NULL;
    /* normal priority whatever the caller is: a thread inherits its creator's policy unless told otherwise */
    pthread_attr_t a;
    pthread_attr_init(&a);
    pthread_attr_setinheritsched(&a, PTHREAD_EXPLICIT_SCHED);
    pthread_attr_setschedpolicy(&a, SCHED_OTHER);
    struct sched_param sp = {.sched_priority = 0};
    pthread_attr_setschedparam(&a, &sp);
    int rc = pthread_create(&e->thread, &a, sampler_main, e);
    pthread_attr_destroy(&a);
    if (rc == 0) /* named for top and ps, and for a culprit list that names one of ours */
        pthread_setname_np(e->thread, "rtj-culprits");
    if (rc != 0) {
        snprintf(err, errlen, "cannot start the sampler thread: %s", strerror(rc));
        culprit_engine_free(e);
        return NULL;
    }
    e->running = true;
    return e;
}

void culprit_engine_set_audio(struct culprit_engine *e, int tid, int rt_priority)
{
    pthread_mutex_lock(&e->mu);
    e->audio_tid = tid;
    e->audio_prio = rt_priority;
    pthread_mutex_unlock(&e->mu);
}

void culprit_engine_audio_cpu(struct culprit_engine *e, int cpu)
{
    if (cpu < 0 || cpu >= CE_CPUS_MAX)
        return;
    pthread_mutex_lock(&e->mu);
    bool known = false;
    for (int i = 0; i < e->naudio_cpus; i++)
        known |= e->audio_cpus[i] == cpu;
    if (!known && e->naudio_cpus < CE_AUDIO_CPUS)
        e->audio_cpus[e->naudio_cpus++] = cpu;
    pthread_mutex_unlock(&e->mu);
}

void culprit_engine_set_server(struct culprit_engine *e, int pid)
{
    pthread_mutex_lock(&e->mu);
    e->cfg.server_pid = pid; /* an int the ranking reads on the engine's thread: one store */
    pthread_mutex_unlock(&e->mu);
}

int culprit_engine_add_source(struct culprit_engine *e, const struct culprit_source *src)
{
    pthread_mutex_lock(&e->mu);
    int rc = -1;
    if (e->nsources < CE_SOURCES_MAX) {
        struct ce_source_slot *s = &e->sources[e->nsources];
        *s = (struct ce_source_slot){.src = *src, .state = "on"};
        snprintf(s->name, sizeof s->name, "%s", src->name ? src->name : "source");
        e->nsources++;
        if (src->poll && !src->explain) /* it tells only as it polls, late (CE_SOURCE_LAG_NS) */
            e->polled_sources++;
        rc = 0;
    }
    pthread_mutex_unlock(&e->mu);
    return rc;
}

void culprit_engine_source_unavailable(struct culprit_engine *e, const char *name, const char *why)
{
    pthread_mutex_lock(&e->mu);
    if (e->nsources < CE_SOURCES_MAX) {
        struct ce_source_slot *s = &e->sources[e->nsources++];
        *s = (struct ce_source_slot){.state = "unavailable"};
        snprintf(s->name, sizeof s->name, "%s", name ? name : "source");
        snprintf(s->why, sizeof s->why, "%s", why ? why : "");
        utf8_trim(s->why);
    }
    pthread_mutex_unlock(&e->mu);
}

void culprit_engine_note(struct culprit_engine *e, enum culprit_subject subj, int phase, int64_t start_ns,
                         int64_t end_ns, int cpu, int64_t callback_max_ns)
{
    pthread_mutex_lock(&e->mu);
    if (e->nres == e->res_cap && e->nforgotten > 0 && !e->running)
        compact(e); /* driven by hand (tests): this thread is the sampler's */
    if (e->nres == e->res_cap && e->res_cap < CE_RESULTS_MAX) {
        int nc = e->res_cap ? e->res_cap * 2 : 256;
        nc = nc > CE_RESULTS_MAX ? CE_RESULTS_MAX : nc;
        struct ce_result *p = realloc(e->res, sizeof *p * (size_t)nc);
        if (p) {
            e->res = p;
            e->res_cap = nc;
        }
    }
    keep_active(e); /* before the result is added: quiet_now looks at what is pending */
    if (e->nres < e->res_cap && !e->stopped) {
        e->res[e->nres++] = (struct ce_result){.subj = (uint8_t)subj, .phase = phase, .cpu = (int16_t)cpu,
                                               .start_ns = start_ns,
                                               .end_ns = end_ns < start_ns ? start_ns : end_ns,
                                               .cb_max_ns = callback_max_ns, .traced = -1};
        if (e->nres - e->nforgotten > e->res_peak)
            e->res_peak = e->nres - e->nforgotten;
    } else {
        e->res_lost++;
    }
    pthread_mutex_unlock(&e->mu);
}

void culprit_engine_stop(struct culprit_engine *e)
{
    if (!e)
        return;
    /* its last sample and what is still pending are explained before the run may exit: at more than a fair share
     * of a machine full of ordinary tasks (the thread ends after; nothing to put back) */
    if (e->running && atomic_load(&e->tid) > 0)
        (void)hurry_begin((pid_t)atomic_load(&e->tid));
    pthread_mutex_lock(&e->mu);
    e->stop = true;
    pthread_cond_signal(&e->cv);
    pthread_mutex_unlock(&e->mu);
    if (e->running)
        pthread_join(e->thread, NULL);
    else
        ce_explain_due(e, true); /* driven by hand (tests) */
    pthread_mutex_lock(&e->mu);
    e->running = false;
    if (!e->stopped)
        e->wall_t1_ns = mono_ns();
    e->stopped = true;
    for (int i = 0; i < e->nsources; i++)
        if (strcmp(e->sources[i].state, "on") == 0) { /* it stays "on" in the summary: it was, to the end */
            source_close(&e->sources[i]);
            e->sources[i].src.poll = NULL;
            e->sources[i].src.explain = NULL;
        }
    pthread_mutex_unlock(&e->mu);
}

void culprit_engine_free(struct culprit_engine *e)
{
    if (!e)
        return;
    if (e->running)
        culprit_engine_stop(e);
    for (int i = 0; i < e->nres; i++)
        free(e->res[i].c);
    for (int i = 0; i < e->nsources; i++)
        json_decref(e->sources[i].summary);
    free(e->res);
    ce_sampler_free(e);
    free(e->rank_scratch);
    pthread_mutex_destroy(&e->mu);
    pthread_cond_destroy(&e->cv);
    free(e);
}
