/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The noise probe's ops (see noise.h): the timer's, with the busy loop as the threads' body, the gap rings and the
 * classifier thread around them, and the per-phase figures for the report (phase_json). */
#include "noise/noise.h"
#include "cpulist.h"
#include "util/optdef.h"
#include <sched.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GAP_RING 4096                  /* gap records per CPU between two passes of the classifier (10 ms) */

#define O(f) offsetof(struct backend_config, f)
static const struct opt_def noise_params[] = {
    { "cpus", OPT_STR, O(cpus), 0, 0, "LIST", "CPUs to probe, one pinned thread each, such as 0-3,6 (default: every "
      "CPU this process may run on but the first). The probe burns them whole while it runs (--duration bounds it)",
      NULL, 0 },
    { "threshold", OPT_INT, O(noise_threshold_us), 1, 100000, "US", "noise: a gap between two clock reads longer "
      "than this is a noise event (default 5)", NULL, 0 },
    { "interval", OPT_INT, O(interval_us), 20, 1000000, "US", "period in µs of the cycles the probe reports beside "
      "its gaps (default: --period frames at --rate)", NULL, 0 },
    { "priority", OPT_INT, O(priority), 1, 98, "N", "real-time priority of the probe threads, SCHED_FIFO (default "
      "70, the audio thread's)", NULL, 'P' },
    { "no-dma-latency", OPT_FLAG, O(no_dma_latency), 0, 0, "", "do not hold /dev/cpu_dma_latency at 0 while "
      "measuring", NULL, 0 },
    { NULL, 0, 0, 0, 0, NULL, NULL, NULL, 0 },
};
#undef O

/* Main thread: the clock is always there. */
static int noise_unavailable(char *why, size_t len)
{
    (void)why;
    (void)len;
    return 0;
}

static int noise_stop(void *priv);

/* Main thread: the timer's grid and CPUs, then a gap ring per CPU. */
static int noise_open(void *priv, const struct backend_config *cfg, struct rt_sink *sink, char *err, size_t len)
{
    struct noise_probe *np = priv;
    np->tb.body = noise_thread;
    np->tb.noise = np;
    if (cfg->dsp_pct > 0) {
        snprintf(err, len, "--dsp: the noise probe burns its CPUs whole already; give no --dsp");
        return -EINVAL;
    }
    if (sink->ntags > NOISE_TAGS_MAX) {
        snprintf(err, len, "--backend noise measures at most %d phases at a time", (NOISE_TAGS_MAX - 1) / 2);
        return -EINVAL;
    }
    /* Without --cpus: every CPU this process may run on but the first, which is left to rtjitter's own threads (the
     * classifier, the collector) and the loads, as oslat keeps its main thread on CPU 0: a probe on every CPU would
     * leave them only what the real-time throttle gives. */
    struct backend_config c = *cfg;
    cpu_set_t mine;
    if (!c.cpus && sched_getaffinity(0, sizeof(mine), &mine) == 0 && CPU_COUNT(&mine) >= 2) {
        int first = 0;
        while (!CPU_ISSET(first, &mine))
            first++;
        CPU_CLR(first, &mine);
        cpulist_text(&mine, np->cpus_default, sizeof(np->cpus_default));
        c.cpus = np->cpus_default;
    }
    int e = timer_open(&np->tb, &c, sink, err, len);
    if (e < 0)
        return e;
    if (np->tb.nstreams > NOISE_CPUS_MAX) {
        snprintf(err, len, "--cpus: the noise probe takes at most %d CPUs at a time (give a list)", NOISE_CPUS_MAX);
        return -EINVAL;
    }
    np->threshold_ns = (int64_t)(cfg->noise_threshold_us > 0 ? cfg->noise_threshold_us
                                                             : NOISE_DEFAULT_THRESHOLD_US) * 1000;
    np->ntags = sink->ntags ? sink->ntags : 1;
    np->trace = cfg->noise_trace;
    np->trace_arg = cfg->noise_trace_arg;
    for (int i = 0; i < np->tb.nstreams; i++)
        if ((e = rt_ring_init(&np->s[i].gaps, GAP_RING)) < 0) {
            snprintf(err, len, "out of memory for the noise probe's rings");
            return e;
        }
    return 0;
}

/* Main thread: the classifier first (its first reading comes before any gap), then the probe threads. */
static int noise_start(void *priv)
{
    struct noise_probe *np = priv;
    int e = noise_classify_prepare(np);
    if (e < 0)
        return e;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 256 * 1024);
    /* The classifier on this process's other CPUs, when it has any: on a probed CPU it would run only when the
     * probe lets it (the real-time throttle's 50 ms a second), its readings late and the gap rings full. */
    cpu_set_t others;
    if (sched_getaffinity(0, sizeof(others), &others) == 0) {
        for (int i = 0; i < np->tb.nstreams; i++)
            CPU_CLR(np->tb.streams[i].cpu, &others);
        if (CPU_COUNT(&others) > 0)
            pthread_attr_setaffinity_np(&attr, sizeof(others), &others);
    }
    e = -pthread_create(&np->cls_thread, &attr, noise_classify_thread, np);
    pthread_attr_destroy(&attr);
    if (e == 0)
        pthread_setname_np(np->cls_thread, "rtj-noiseclass");
    if (e < 0) {
        noise_stop(np);
        return e;
    }
    np->cls_started = 1;
    if ((e = timer_start(&np->tb)) < 0)
        noise_stop(np);
    return e;
}

static void noise_status(void *priv, struct backend_status *st)
{
    timer_status(&((struct noise_probe *)priv)->tb, st);
}

/* Whether the CPU says it runs under a hypervisor (the "hypervisor" flag of /proc/cpuinfo): 1, 0, or -1 unknown. */
static int hypervisor(void)
{
    FILE *f = fopen("/proc/cpuinfo", "re");
    if (!f)
        return -1;
    char line[4096];
    int vm = -1;
    while (vm < 0 && fgets(line, sizeof line, f))
        if (strncmp(line, "flags", 5) == 0)
            vm = strstr(line, " hypervisor") != NULL;
    fclose(f);
    return vm;
}

/* Main thread: the timer's description, then what the probe is. */
static void noise_describe(void *priv, json_t *au)
{
    struct noise_probe *np = priv;
    timer_describe(&np->tb, au);
    json_object_set_new(au, "provider", json_string("noise"));
    json_object_set_new(au, "driver", json_string("a busy loop of clock reads (oslat's, rtla osnoise's method)"));
    json_object_set_new(au, "wakeup_method", json_string("the first clock read at or after each deadline of the "
                                                         "grid, minus the deadline, in ns"));
    json_object_set_new(au, "noise_threshold_us", json_real((double)np->threshold_ns / 1000.0));
    json_object_set_new(au, "noise_counter_readings", json_integer((json_int_t)np->readings));
    json_object_set_new(au, "noise_reading_mean_us",
                        np->readings ? json_real((double)np->read_ns / (double)np->readings / 1000.0) : json_null());
    json_object_set_new(au, "noise_smi_readable", json_boolean(np->smi_readable));
    int vm = hypervisor();
    json_object_set_new(au, "virtual", vm < 0 ? json_null() : json_boolean(vm)); /* below the kernel: a host */
}

/* Main thread: the threads, then the classifier, then what the rings still hold. Safe twice. */
static int noise_stop(void *priv)
{
    struct noise_probe *np = priv;
    timer_stop(&np->tb);
    if (np->cls_started) {
        atomic_store_explicit(&np->cls_stop, 1, memory_order_release);
        pthread_join(np->cls_thread, NULL);
        np->cls_started = 0;
    }
    noise_classify_drain(np);
    for (int i = 0; i < np->tb.nstreams; i++)
        rt_ring_free(&np->s[i].gaps);
    return 0;
}

static json_t *us_json(int64_t ns)
{
    return json_real((double)ns / 1000.0);
}

static int by_start(const void *a, const void *b)
{
    const struct noise_event *x = a, *y = b;
    return (x->start_ns > y->start_ns) - (x->start_ns < y->start_ns);
}

static const char *const holder_kinds[] = { "none", "task", "irq", "softirq" };

static json_t *holder_json(const struct noise_holder *h)
{
    return json_pack("{s:s, s:s, s:i}", "kind", holder_kinds[h->kind], "name", h->name,
                     h->kind == NH_TASK ? "pid" : h->kind == NH_IRQ ? "line" : "vector", h->id);
}

static int by_ns_desc(const void *a, const void *b)
{
    const struct noise_holder *x = a, *y = b;
    return (x->ns < y->ns) - (x->ns > y->ns);
}

/* What the kernel trace said of the tag's gaps of NOISE_TRACE_MIN_NS or more (its holders by their time, largest
 * first); null when the run had no trace (not root, --no-trace: it never answered). */
static json_t *trace_json(const struct noise_probe *np, unsigned tag)
{
    if (!np->trace || !np->trace_seen)
        return json_null();
    json_t *hs = json_array();
    struct noise_holder by[NOISE_HOLDERS_MAX];
    memcpy(by, np->holders[tag], sizeof(by));
    qsort(by, (size_t)np->nholders[tag], sizeof(struct noise_holder), by_ns_desc);
    for (int i = 0; i < np->nholders[tag]; i++) {
        const struct noise_holder *h = &by[i];
        json_t *j = holder_json(h);
        json_object_set_new(j, "class", json_string(noise_classes[h->cls].token));
        json_object_set_new(j, "gaps", json_integer((json_int_t)h->gaps));
        json_object_set_new(j, "held_us", us_json(h->ns));
        json_array_append_new(hs, j);
    }
    return json_pack("{s:f, s:I, s:I, s:I, s:I, s:I, s:o, s:I}", "min_gap_us", NOISE_TRACE_MIN_NS / 1000.0,
                     "answered", (json_int_t)np->tq[tag].answered, "not_covered", (json_int_t)np->tq[tag].not_covered,
                     "no_trace", (json_int_t)np->tq[tag].no_trace, "late", (json_int_t)np->tq[tag].late,
                     "skipped", (json_int_t)np->tq[tag].skipped, "holders", hs,
                     "holders_not_named", (json_int_t)np->holders_other[tag]);
}

/* Main thread, after stop: phase i's noise, per CPU and its events (tag i << 1 | 1: its measured part). */
static json_t *noise_phase_json(void *priv, int phase)
{
    struct noise_probe *np = priv;
    unsigned tag = ((unsigned)phase << 1) | 1u;
    if (tag >= np->ntags || tag >= NOISE_TAGS_MAX)
        return NULL;
    json_t *cpus = json_array();
    for (int i = 0; i < np->tb.nstreams; i++) {
        const struct noise_tagstat *t = &np->s[i].tag[tag];
        const struct noise_tagclass *c = &np->s[i].cls[tag];
        json_t *hist = json_array(), *classes = json_object();
        for (int k = 0; k < NOISE_HBINS; k++)
            if (t->hist[k])
                json_array_append_new(hist, json_pack("[i, i, I]", k ? 1 << k : 0, 1 << (k + 1),
                                                      (json_int_t)t->hist[k]));
        uint64_t classified = 0;
        for (int k = 0; k < NOISE_NCLASS; k++) {
            classified += c->n[k];
            json_object_set_new(classes, noise_classes[k].token, json_pack("{s:I, s:o, s:o, s:I}",
                "count", (json_int_t)c->n[k], "total_us", us_json(c->ns[k]), "max_us", us_json(c->max_ns[k]),
                "by_trace", (json_int_t)c->by_trace[k]));
        }
        json_array_append_new(cpus, json_pack("{s:i, s:o, s:I, s:o, s:o, s:o, s:o, s:o, s:I}",
            "cpu", np->tb.streams[i].cpu, "probed_s", json_real((double)t->spun_ns / 1e9), "gaps", (json_int_t)t->gaps,
            "total_noise_us", us_json(t->noise_ns), "max_noise_us", us_json(t->max_ns),
            "available_pct", t->spun_ns > 0 ? json_real(100.0 * (1.0 - (double)t->noise_ns / (double)t->spun_ns))
                                            : json_null(),
            "histogram", hist, "classes", classes,
            "unclassified", (json_int_t)(t->gaps > classified ? t->gaps - classified : 0)));
    }
    json_t *events = json_array(), *lines = json_array();
    uint64_t kept = np->nevents[tag] < NOISE_EVENTS_MAX ? np->nevents[tag] : NOISE_EVENTS_MAX;
    qsort(np->events[tag], kept, sizeof(struct noise_event), by_start);
    for (uint64_t k = 0; k < kept; k++) {
        const struct noise_event *ev = &np->events[tag][k];
        json_t *e = json_pack("{s:i, s:f, s:o, s:s, s:o, s:b}", "cpu", ev->cpu,
            "t_s", (double)ev->start_ns / 1e9, "length_us", us_json(ev->len_ns), "class", noise_classes[ev->cls].token,
            "line", ev->line >= 0 && ev->line < np->lines.n ? json_string(np->lines.name[ev->line]) : json_null(),
            "by_trace", ev->by_trace);
        if (ev->by_trace) {
            json_object_set_new(e, "holder", ev->holder >= 0 ? holder_json(&np->holders[tag][ev->holder]) : json_null());
            json_object_set_new(e, "held_us", us_json(ev->held_ns));
        }
        json_array_append_new(events, e);
    }
    for (int l = 0; l < np->lines.n; l++)
        if (np->line_n[tag][l])
            json_array_append_new(lines, json_pack("{s:s, s:s, s:I}", "line", np->lines.name[l], "kind",
                                                   np->lines.softirq[l] ? "softirq" : "irq",
                                                   "gaps", (json_int_t)np->line_n[tag][l]));
    json_t *o = json_pack("{s:f, s:o, s:o, s:I, s:I, s:s, s:o}", "threshold_us", (double)np->threshold_ns / 1000.0,
                          "cpus", cpus, "events", events, "events_total", (json_int_t)np->nevents[tag],
                          "events_kept", (json_int_t)kept, "events_kept_are", "the longest, in time order",
                          "lines", lines);
    json_object_set_new(o, "trace", trace_json(np, tag));
    return o;
}

const struct backend_ops backend_noise = {
    .name = "noise",
    .summary = "depth zero, as oslat: a busy loop of clock reads per CPU, every gap classified (it burns the CPUs "
               "it probes)",
    .params = noise_params,
    .private_size = sizeof(struct noise_probe),
    .dma_latency_default = 1,
    .unavailable = noise_unavailable,
    .open = noise_open,
    .start = noise_start,
    .status = noise_status,
    .describe = noise_describe,
    .stop = noise_stop,
    .phase_json = noise_phase_json,
    .session = NULL,
};
