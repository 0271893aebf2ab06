/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One tick of the culprit sampler: reads what moved since the last tick into a new history sample (sparse deltas,
 * fixed caps, overflow counted). What any user may read: /proc/interrupts (devices from
 * /sys/kernel/irq/N/actions), /proc/softirqs, /proc/stat's steal, the audio thread's schedstat,
 * /proc/pressure (cpu, io, memory),
 * the audio CPUs' cpufreq, the real-time tasks (rtscan.c). The sampler thread only (never RT). The first tick only
 * primes the counters: a delta needs two readings. */
#include "culprit/engine_internal.h"
#include "util/utf8.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* A reader's state for the summary: one that worked and then failed (the audio thread ended before the sampler)
 * stays "on", and says what happened last. */
static void reader(struct culprit_engine *e, int r, const char *state, const char *why)
{
    struct ce_reader *rd = &e->readers[r];
    pthread_mutex_lock(&e->mu); /* the summary may read it meanwhile */
    if (strcmp(state, "on") == 0)
        rd->ok++;
    if (strcmp(state, "on") != 0 && rd->ok > 0) {
        snprintf(rd->why, sizeof rd->why, "read %lu times, then: %s", rd->ok, why ? why : state);
    } else {
        rd->state = state;
        snprintf(rd->why, sizeof rd->why, "%s", why ? why : "");
    }
    pthread_mutex_unlock(&e->mu);
}

static uint32_t clamp32(uint64_t d)
{
    return d > UINT32_MAX ? UINT32_MAX : (uint32_t)d;
}

static struct ce_sample *cur_sample(struct culprit_engine *e)
{
    return &e->hist[e->hist_head];
}

static void add_count(struct ce_sample *s, struct ce_count *arr, uint16_t *n, int cap, int id, int cpu, uint64_t d)
{
    if (*n >= cap) {
        s->lost++;
        return;
    }
    arr[*n] = (struct ce_count){(uint16_t)id, (uint16_t)cpu, clamp32(d)};
    (*n)++;
}

/* ---- /proc/interrupts ---- */

static void line_device(struct culprit_engine *e, struct ce_line *l)
{
    char path[400];
    struct ce_buf b = {0};
    snprintf(path, sizeof path, "%s/kernel/irq/%d/actions", e->sys, l->irq);
    if (l->irq >= 0 && ce_read(&b, path) == 0 && b.len > 0) {
        size_t n = strcspn(b.p, "\n");
        b.p[n] = '\0';
        snprintf(l->dev, sizeof l->dev, "%s", b.p);
        for (char *c = l->dev; *c; c++)
            if ((unsigned char)*c < 0x20)
                *c = ' ';
        utf8_trim(l->dev);
    }
    ce_buf_free(&b);
}

static int line_index(struct culprit_engine *e, const char *label, const char *rest, int hint, bool *fresh)
{
    *fresh = false;
    if (hint < e->nlines && strcmp(e->lines[hint].label, label) == 0)
        return hint;
    for (int i = 0; i < e->nlines; i++)
        if (strcmp(e->lines[i].label, label) == 0)
            return i;
    if (e->nlines >= CE_LINES_MAX) {
        e->lines_lost++;
        return -1;
    }
    struct ce_line *l = &e->lines[e->nlines];
    snprintf(l->label, sizeof l->label, "%s", label);
    utf8_trim(l->label);
    char *endp;
    long n = strtol(label, &endp, 10);
    l->irq = (*label && !*endp && n >= 0) ? (int)n : -1;
    snprintf(l->desc, sizeof l->desc, "%s", rest);
    utf8_trim(l->desc);
    l->dev[0] = '\0';
    line_device(e, l);
    *fresh = true;
    return e->nlines++;
}

struct irq_ctx {
    struct culprit_engine *e;
    struct ce_sample *s;
    int row;
};

static void irq_row(void *vctx, const char *label, const uint64_t *v, int n, const char *rest)
{
    struct irq_ctx *c = vctx;
    struct culprit_engine *e = c->e;
    bool fresh;
    int idx = line_index(e, label, rest, c->row++, &fresh);
    if (idx < 0)
        return;
    uint64_t *prev = &e->irq_prev[(size_t)idx * (size_t)e->irq_prev_ncpu];
    for (int cpu = 0; cpu < n && cpu < e->irq_prev_ncpu; cpu++) {
        if (!fresh && e->primed && v[cpu] > prev[cpu])
            add_count(c->s, c->s->irq, &c->s->n_irq, CE_S_IRQ, idx, cpu, v[cpu] - prev[cpu]);
        prev[cpu] = v[cpu];
    }
}

static void sample_interrupts(struct culprit_engine *e, struct ce_sample *s)
{
    char path[400];
    snprintf(path, sizeof path, "%s/interrupts", e->proc);
    if (ce_read_kept(e, path) < 0) {
        reader(e, CER_INTERRUPTS, "absent", "/proc/interrupts cannot be read");
        return;
    }
    /* the columns first: the previous values are sized by them (a CPU brought up re-primes) */
    struct irq_ctx c = {e, s, 0};
    int cols = 0;
    const char *nl = memchr(e->buf.p, '\n', e->buf.len);
    for (const char *p = e->buf.p; p && p < nl; p++)
        if (p + 3 < nl && p[0] == 'C' && p[1] == 'P' && p[2] == 'U' && (p == e->buf.p || p[-1] == ' '))
            cols++;
    if (cols > CE_CPUS_MAX)
        cols = CE_CPUS_MAX;
    if (cols > 0 && cols != e->irq_prev_ncpu) {
        free(e->irq_prev);
        free(e->irq_roll);
        e->irq_prev = calloc((size_t)CE_LINES_MAX * (size_t)cols, sizeof *e->irq_prev);
        e->irq_roll = calloc((size_t)CE_LINES_MAX * (size_t)cols, sizeof *e->irq_roll);
        if (!e->irq_roll) {
            free(e->irq_prev);
            e->irq_prev = NULL;
        }
        e->irq_prev_ncpu = e->irq_prev ? cols : 0;
        /* the history's line indices and sums no longer hold: it starts again (a CPU brought up or down) */
        e->nlines = 0;
        e->hist_n = 0;
        /* (the first reading finds them zero, as calloc left them: not touched, not made private memory) */
        if (e->primed) {
            memset(e->soft_roll, 0, sizeof *e->soft_roll * CE_SOFT_MAX * CE_CPUS_MAX);
            memset(e->steal_roll, 0, sizeof *e->steal_roll * CE_CPUS_MAX);
        }
        memset(e->psi_roll, 0, sizeof e->psi_roll);
    }
    if (!e->irq_prev || ce_parse_table(e->buf.p, e->buf.len, irq_row, &c) < 0) {
        reader(e, CER_INTERRUPTS, "failing", "/proc/interrupts has no CPU columns");
        return;
    }
    e->ncpu = cols;
    reader(e, CER_INTERRUPTS, "on", e->buf.truncated ? "truncated at 8 MiB" : NULL);
}

/* ---- /proc/softirqs ---- */

struct soft_ctx {
    struct culprit_engine *e;
    struct ce_sample *s;
};

static void soft_row(void *vctx, const char *label, const uint64_t *v, int n, const char *rest)
{
    (void)rest;
    struct soft_ctx *c = vctx;
    struct culprit_engine *e = c->e;
    int idx = -1;
    bool fresh = false;
    for (int i = 0; i < e->nsoft; i++)
        if (strcmp(e->soft_names[i], label) == 0)
            idx = i;
    if (idx < 0) {
        if (e->nsoft >= CE_SOFT_MAX)
            return;
        idx = e->nsoft++;
        snprintf(e->soft_names[idx], sizeof e->soft_names[idx], "%s", label);
        utf8_trim(e->soft_names[idx]);
        fresh = true;
    }
    for (int cpu = 0; cpu < n && cpu < CE_CPUS_MAX; cpu++) {
        uint64_t *prev = &e->soft_prev[CE_SOFT_AT(idx, cpu)];
        if (!fresh && e->primed && v[cpu] > *prev)
            add_count(c->s, c->s->soft, &c->s->n_soft, CE_S_SOFT, idx, cpu, v[cpu] - *prev);
        *prev = v[cpu];
    }
}

static void sample_softirqs(struct culprit_engine *e, struct ce_sample *s)
{
    char path[400];
    snprintf(path, sizeof path, "%s/softirqs", e->proc);
    struct soft_ctx c = {e, s};
    if (ce_read_kept(e, path) < 0 || ce_parse_table(e->buf.p, e->buf.len, soft_row, &c) < 0)
        reader(e, CER_SOFTIRQS, "absent", "/proc/softirqs cannot be read");
    else
        reader(e, CER_SOFTIRQS, "on", NULL);
}

/* ---- /proc/stat steal ---- */

struct steal_ctx {
    struct culprit_engine *e;
    struct ce_sample *s;
    long hz;
};

static void steal_row(void *vctx, int cpu, uint64_t steal)
{
    struct steal_ctx *c = vctx;
    uint64_t *prev = &c->e->steal_prev[cpu];
    if (c->e->primed && *prev != UINT64_MAX && steal > *prev) {
        if (c->s->n_steal < CE_S_STEAL) {
            uint64_t us = (steal - *prev) * 1000000u / (uint64_t)c->hz;
            c->s->steal[c->s->n_steal].cpu = (uint16_t)cpu;
            c->s->steal[c->s->n_steal++].us = clamp32(us);
        } else {
            c->s->lost++;
        }
    }
    *prev = steal;
}

static void sample_steal(struct culprit_engine *e, struct ce_sample *s)
{
    char path[400];
    long hz = sysconf(_SC_CLK_TCK);
    struct steal_ctx c = {e, s, hz > 0 ? hz : 100};
    snprintf(path, sizeof path, "%s/stat", e->proc);
    if (ce_read_kept(e, path) < 0 || ce_parse_stat_steal(e->buf.p, e->buf.len, steal_row, &c) <= 0)
        reader(e, CER_STAT, "absent", "/proc/stat has no per-CPU steal");
    else
        reader(e, CER_STAT, "on", NULL);
}

/* ---- the audio thread, PSI, cpufreq ---- */

static void sample_audio(struct culprit_engine *e, struct ce_sample *s)
{
    pthread_mutex_lock(&e->mu);
    int tid = e->audio_tid;
    pthread_mutex_unlock(&e->mu);
    s->audio_run_ns = s->audio_delay_ns = -1;
    if (tid <= 0) {
        reader(e, CER_SCHEDSTAT, "on", "the audio thread is not known yet");
        return;
    }
    char path[400];
    int64_t run, delay;
    snprintf(path, sizeof path, "%s/%d/task/%d/schedstat", e->proc, e->cfg.audio_pid, tid);
    if (ce_read_kept(e, path) < 0 || ce_parse_schedstat(e->buf.p, e->buf.len, &run, &delay) < 0) {
        reader(e, CER_SCHEDSTAT, "failing", "the audio thread's schedstat cannot be read");
        e->audio_prev_tid = 0;
        return;
    }
    if (e->audio_prev_tid == tid && run >= e->audio_prev_run && delay >= e->audio_prev_delay) {
        s->audio_run_ns = run - e->audio_prev_run;
        s->audio_delay_ns = delay - e->audio_prev_delay;
    }
    e->audio_prev_tid = tid;
    e->audio_prev_run = run;
    e->audio_prev_delay = delay;
    reader(e, CER_SCHEDSTAT, "on", NULL);
}

static void sample_psi(struct culprit_engine *e, struct ce_sample *s)
{
    static const char *const names[3] = {"cpu", "io", "memory"};
    int found = 0;
    for (int i = 0; i < 3; i++) {
        char path[400];
        int64_t total;
        s->psi_us[i] = -1;
        snprintf(path, sizeof path, "%s/pressure/%s", e->proc, names[i]);
        if (ce_read_kept(e, path) < 0 || ce_parse_psi_some(e->buf.p, e->buf.len, &total) < 0) {
            e->psi_prev[i] = -1;
            continue;
        }
        found++;
        if (e->psi_prev[i] >= 0 && total >= e->psi_prev[i])
            s->psi_us[i] = total - e->psi_prev[i];
        e->psi_prev[i] = total;
    }
    reader(e, CER_PSI, found ? "on" : "absent", found ? NULL : "no /proc/pressure (PSI off in this kernel)");
}

static void sample_freq(struct culprit_engine *e, struct ce_sample *s)
{
    int cpus[CE_AUDIO_CPUS], n, found = 0;
    pthread_mutex_lock(&e->mu);
    n = e->naudio_cpus;
    memcpy(cpus, e->audio_cpus, sizeof cpus);
    pthread_mutex_unlock(&e->mu);
    /* no cpufreq on the audio CPUs (a VM): looked for again once a second, not at every tick */
    if (n > 0 && e->freq_absent_ns && s->t_ns - e->freq_absent_ns < 1000000000) {
        reader(e, CER_CPUFREQ, "absent", "no cpufreq on the audio CPUs");
        return;
    }
    for (int i = 0; i < n && s->n_freq < CE_S_FREQ; i++) {
        char path[400];
        snprintf(path, sizeof path, "%s/devices/system/cpu/cpu%d/cpufreq/scaling_cur_freq", e->sys, cpus[i]);
        if (ce_read_kept(e, path) < 0)
            continue;
        long khz = strtol(e->buf.p, NULL, 10);
        if (khz <= 0)
            continue;
        found++;
        s->freq[s->n_freq].cpu = (uint16_t)cpus[i];
        s->freq[s->n_freq++].khz = (uint32_t)(khz > UINT32_MAX ? UINT32_MAX : khz);
    }
    e->freq_absent_ns = n > 0 && !found ? s->t_ns : 0;
    if (n == 0)
        reader(e, CER_CPUFREQ, "on", "no audio CPU known yet");
    else
        reader(e, CER_CPUFREQ, found ? "on" : "absent", found ? NULL : "no cpufreq on the audio CPUs");
}

static void audio_mask(struct culprit_engine *e, uint64_t *mask)
{
    memset(mask, 0, CE_CPUS_MAX / 8);
    pthread_mutex_lock(&e->mu);
    for (int i = 0; i < e->naudio_cpus; i++)
        mask[e->audio_cpus[i] / 64] |= 1ull << (e->audio_cpus[i] % 64);
    pthread_mutex_unlock(&e->mu);
}

/* Adds a sample to the rolling sums (sign 1) or takes it out as it leaves the ring (sign -1). */
static void roll(struct culprit_engine *e, const struct ce_sample *s, int sign)
{
    for (int i = 0; e->irq_roll && i < s->n_irq; i++)
        if (s->irq[i].id < e->nlines && s->irq[i].cpu < e->irq_prev_ncpu)
            e->irq_roll[(size_t)s->irq[i].id * (size_t)e->irq_prev_ncpu + s->irq[i].cpu] +=
                (uint64_t)(int64_t)sign * s->irq[i].delta;
    for (int i = 0; i < s->n_soft; i++)
        e->soft_roll[CE_SOFT_AT(s->soft[i].id, s->soft[i].cpu)] +=
            (uint64_t)(int64_t)sign * s->soft[i].delta;
    for (int i = 0; i < s->n_steal; i++)
        e->steal_roll[s->steal[i].cpu] += (uint64_t)(int64_t)sign * s->steal[i].us;
    for (int i = 0; i < 3; i++)
        if (s->psi_us[i] > 0)
            e->psi_roll[i] += sign * s->psi_us[i];
}

/* The sample's arrays out of the scratch into one block of their size. */
static void keep(struct culprit_engine *e, struct ce_sample *s)
{
    size_t a = sizeof(*s->irq) * s->n_irq, b = sizeof(*s->soft) * s->n_soft, c = sizeof(*s->steal) * s->n_steal,
           d = sizeof(*s->freq) * s->n_freq, t = sizeof(*s->task) * s->n_task;
    /* the task runs first: the block's alignment is theirs (int64_t), and the others' need less */
    char *m = a + b + c + d + t ? malloc(t + a + b + c + d) : NULL;
    if (!m) {
        if (a + b + c + d + t)
            e->kept_lost++;
        s->n_irq = s->n_soft = s->n_steal = s->n_freq = s->n_task = 0;
        s->irq = NULL, s->soft = NULL, s->steal = NULL, s->freq = NULL, s->task = NULL, s->block = NULL;
        return;
    }
    s->block = m;
    s->task = memcpy(m, s->task, t);
    s->irq = memcpy(m + t, s->irq, a);
    s->soft = memcpy(m + t + a, s->soft, b);
    s->steal = memcpy(m + t + a + b, s->steal, c);
    s->freq = memcpy(m + t + a + b + c, s->freq, d);
}

void ce_sample_tick(struct culprit_engine *e, int64_t now_ns)
{
    struct timespec r0, r1; /* next to now_ns (taken by the caller just before), on a clock of its rate */
    clock_gettime(CLOCK_MONOTONIC, &r0);
    /* the oldest sample leaves the history (and its block the heap) when the ring is full, and when it is older
     * than history_s: the ring is sized for history_s at hz, and at watch's quiet 4 Hz it held five times as long
     * (150 s, ~190 kB of blocks) for baselines that are rates over the span held (rank.c hist_ns) */
    int64_t keep_ns = (int64_t)(e->cfg.history_s * 1e9);
    while (e->primed && e->hist_n > 0) {
        struct ce_sample *o = &e->hist[(e->hist_head - e->hist_n + e->hist_cap) % e->hist_cap];
        if (e->hist_n < e->hist_cap && (e->hist_n == 1 || now_ns - o->t_ns <= keep_ns))
            break;
        roll(e, o, -1);
        free(o->block);
        memset(o, 0, sizeof(*o));
        e->hist_n--;
    }
    struct ce_sample *s = cur_sample(e);
    free(s->block); /* the slot's last sample, out of the history (or never in it) */
    memset(s, 0, sizeof(*s));
    s->irq = e->scratch.irq, s->soft = e->scratch.soft, s->steal = e->scratch.steal, s->freq = e->scratch.freq;
    s->task = e->scratch.task;
    s->quiet = e->quiet;
    s->t0_ns = e->primed ? e->last_t_ns : now_ns;
    s->t_ns = now_ns;
    /* the times first, next to the tick's stamp: what runs after the stamp and before its read would be counted in
     * this sample, before its real time; the task scan (milliseconds) last, for the same reason */
    ce_rt_read(e, s);
    clock_gettime(CLOCK_MONOTONIC, &r1);
    /* a task read late (the sampler preempted after its stamp) counted run time past t_ns: its bound (rank.c) */
    s->task_read_ns = (int64_t)(r1.tv_sec - r0.tv_sec) * 1000000000 + (r1.tv_nsec - r0.tv_nsec);
    sample_audio(e, s);
    sample_interrupts(e, s);
    sample_softirqs(e, s);
    sample_steal(e, s);
    sample_psi(e, s);
    sample_freq(e, s);
    /* the real-time tasks' scan (~500 system calls on a desktop's few hundred threads): once a second, once in
     * CE_SCAN_QUIET_NS while all is quiet (watch: a task made real time then is found within that) */
    if (!e->primed || now_ns - e->last_scan_ns >= (e->quiet ? CE_SCAN_QUIET_NS : 1000000000)) {
        uint64_t mask[CE_CPUS_MAX / 64];
        audio_mask(e, mask);
        ce_rt_rescan(e, mask);
        e->last_scan_ns = now_ns;
    }
    keep(e, s);
    e->ticks++;
    if (!e->primed) {
        e->primed = true;
        e->first_t_ns = e->last_t_ns = now_ns;
        return;
    }
    e->last_t_ns = now_ns;
    roll(e, s, 1);
    e->hist_head = (e->hist_head + 1) % e->hist_cap;
    e->hist_n++;
}

const struct ce_sample *ce_hist_at(const struct culprit_engine *e, int i)
{
    int oldest = (e->hist_head - e->hist_n + e->hist_cap) % e->hist_cap;
    return &e->hist[(oldest + i) % e->hist_cap];
}

void ce_sampler_free(struct culprit_engine *e)
{
    ce_buf_free(&e->buf);
    free(e->irq_prev);
    free(e->soft_prev);
    free(e->steal_prev);
    free(e->irq_roll);
    free(e->soft_roll);
    free(e->steal_roll);
    for (int i = 0; e->hist && i < e->hist_cap; i++)
        free(e->hist[i].block);
    for (int i = 0; i < CE_FILES_MAX; i++)
        ce_fd_close(&e->files[i].kept);
    for (int i = 0; i < e->ntasks; i++) {
        ce_fd_close(&e->tasks[i].stat_fd);
        ce_fd_close(&e->tasks[i].sched_fd);
    }
    free(e->hist);
    e->irq_roll = e->soft_roll = e->steal_roll = NULL;
    e->irq_prev = e->soft_prev = e->steal_prev = NULL;
    e->hist = NULL;
}
