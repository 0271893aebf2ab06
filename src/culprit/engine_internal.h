/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The culprit engine's insides, shared by its files (engine.c: thread, notes, results; sampler.c: one tick's reads;
 * sample_proc.c: the /proc and /sys parsers; rtscan.c: the real-time task table; rank.c: one happening's culprits;
 * periodic.c: the period of the happenings) and by the unit tests, which drive ticks by hand on fixture trees.
 * Nothing here runs in the RT thread.
 *
 * Memory is bounded: the history is a ring of fixed-size samples, each holding only the counters that moved (sparse
 * deltas) up to fixed caps; what does not fit is counted (lost), never grown. */
#ifndef RTJ_CULPRIT_ENGINE_INTERNAL_H
#define RTJ_CULPRIT_ENGINE_INTERNAL_H
#include "culprit/culprit_engine.h"

/* A polled source tells of a stall late: jackd writes its log lines from a message thread and the log source
 * folds a client's lines until none came for 150 ms (seen: 144-236 ms after the stall's end); PipeWire's profiler
 * sends its blocks in batches (21-180 ms); a busy machine adds to both. With such a source, a happening is
 * explained this much later, and an observation that began up to this long after the window still counts for it. */
#define CE_SOURCE_LAG_NS 600000000LL
#define CE_SCAN_QUIET_NS 5000000000LL /* the real-time tasks' scan while the sampler is quiet (sampler.c) */
#include <pthread.h>
#include <stdbool.h>
#include <string.h>
#include <stdint.h>

#define CE_CPUS_MAX 1024        /* CPUs counted; a column beyond is ignored */
#define CE_LINES_MAX 512        /* interrupt lines named (/proc/interrupts rows); beyond: counted in lines_lost */
#define CE_SOFT_MAX 16          /* softirq types (the kernel has 10) */
#define CE_SOFT_AT(type, cpu) ((size_t)(cpu) * CE_SOFT_MAX + (size_t)(type))
#define CE_S_IRQ 384            /* moved (line, cpu) counters kept per sample */
#define CE_S_SOFT 128           /* moved (type, cpu) counters kept per sample */
#define CE_S_STEAL 32           /* CPUs with steal kept per sample */
#define CE_S_TASK 32            /* real-time tasks that ran, kept per sample */
#define CE_S_FREQ 8             /* audio CPUs whose frequency is kept per sample */
#define CE_TASKS_MAX 256        /* real-time tasks followed */
#define CE_AUDIO_CPUS 16        /* audio CPUs remembered */
#define CE_OBS_MAX 256          /* source observations kept (a ring: the newest; a happening is explained ~0.7 s
                                 * after it, and a jackd log's line each xrun at 60 a second is 4 s of them; 368
                                 * bytes each, 1,024 held 0.4 MB of a watch's private memory) */
#define CE_SOURCES_MAX 8
#define CE_RESULTS_MAX 20000    /* happenings held at once (noted, not yet forgotten); beyond: counted, not explained */
#define CE_FILES_MAX 24         /* /proc and /sys files read every tick kept open (ce_read_kept) */
#define CE_KEPT_FD_MAX 768      /* no file kept open at or above this descriptor: room left for the rest */
#define CE_FILE_MAX (8u << 20)  /* a /proc file larger than this is read up to here (and said truncated) */
#define CE_COMM 16

/* A moved counter: its row (line or type index), its CPU, how much it moved in the sample. */
struct ce_count {
    uint16_t id, cpu;
    uint32_t delta;
};

/* A real-time task that ran in a sample: who, where it was (stat's processor at the tick), its CPU time there. */
struct ce_task_run {
    int pid, tid, cpu, prio;
    int only_cpu;                /* the one CPU its affinity allows (the scan's Cpus_allowed_list), -1 several */
    char policy;                 /* 'F' FIFO, 'R' RR */
    bool kthread;                /* a kernel thread: what its kind allows, never "lower it" */
    char comm[CE_COMM];
    int64_t run_ns;              /* schedstat's run time, delta */
    int64_t since_ns;            /* the delta is of the run time since a read at or after this (a tick's stamp) */
};

/* One tick: what moved in (t0_ns, t_ns] on the measurement clock. */
struct ce_steal { uint16_t cpu; uint32_t us; };
struct ce_freq { uint16_t cpu; uint32_t khz; };

struct ce_sample {
    int64_t t0_ns, t_ns;
    uint16_t n_irq, n_soft, n_steal, n_task, n_freq;
    uint8_t quiet;               /* it followed a quiet wait (watch): it may span quiet_ns by design, not lateness */
    uint32_t lost;               /* entries that did not fit the caps below */
    int64_t task_read_ns;        /* how long the task reads took after t_ns: a task's run time is up to there */
    int64_t audio_run_ns, audio_delay_ns; /* -1: the audio thread was not known or not readable */
    int64_t psi_us[3];           /* cpu, io, memory "some" stall time, delta; -1 where PSI is off */
    /* n_* entries each: while the sample is read, the engine's scratch arrays (CE_S_* long); once kept, one block of
     * just their size (block), so the history's memory is what moved, not 30 s of the caps (3.8 MB) */
    struct ce_count *irq, *soft;
    struct ce_steal *steal;
    struct ce_freq *freq;
    struct ce_task_run *task;
    void *block;
};

/* The arrays a sample is read into (sampler.c), at their caps. */
struct ce_scratch {
    struct ce_count irq[CE_S_IRQ], soft[CE_S_SOFT];
    struct ce_steal steal[CE_S_STEAL];
    struct ce_freq freq[CE_S_FREQ];
    struct ce_task_run task[CE_S_TASK];
};

/* An interrupt line: its row label ("145", "LOC"), its number (-1 named), its device and /proc description. */
struct ce_line {
    char label[16];
    int irq;
    char dev[40];
    char desc[40];
};

/* A followed real-time task. */
struct ce_task {
    int pid, tid, cpu, prio;
    int only_cpu;                /* the one CPU its Cpus_allowed_list allows, -1 several or unknown */
    char policy;
    bool kthread;
    char comm[CE_COMM];
    int64_t last_run_ns;         /* schedstat at the last read, -1 before the first */
    int64_t read_t_ns;           /* a stamp at or before that read (its tick's, or the one before at a scan) */
    bool seen;                   /* found by the current scan */
    int stat_fd, sched_fd;       /* its stat and schedstat kept open, + 1 (0: none; ce_read_fd) */
};

/* What a reader of the sampler found on this machine (the summary's sources). */
struct ce_reader {
    const char *name;
    const char *state;           /* "on", "absent", "failing" */
    char why[96];
    unsigned long ok;            /* ticks it was read */
};
enum { CER_INTERRUPTS, CER_SOFTIRQS, CER_STAT, CER_SCHEDSTAT, CER_PSI, CER_CPUFREQ, CER_RTTASKS, CER_COUNT };

struct ce_source_slot {
    struct culprit_source src;
    const char *state;           /* "on", "closed", "unavailable" */
    char name[48];
    char why[96];
    json_t *summary;             /* the source's summary, taken before it is closed */
};

/* A kept culprit (struct culprit without its evidence buffer): an explained happening is held while the report may
 * still list it (EVENT_KEEP_LATEST + EVENT_KEEP_WORST events and SEGMENT_SPIKES_MAX spikes a segment), each with up
 * to CULPRITS_MAX culprits, so each name and evidence is kept at its own length, after the result's n of these in one
 * block (ce_kept_pack): 48 bytes and the two texts' lengths, where struct culprit takes 344 (112 with the name in
 * place: four loaded phases at 16 frames / 192 kHz kept ~2,000 of them). */
struct rank_ctx;

struct ce_kept {
    const char *name, *evidence; /* in the same block */
    double score;
    int32_t pid, tid, cpu, irq;
    uint8_t kind;                /* enum culprit_kind */
    uint8_t basis;               /* enum culprit_basis */
    int8_t affinity_fixed;
};

/* n culprits into one malloc'd block of kept ones (NULL when out of memory or n is 0); ce_kept_unpack: one back. */
/* Whether a source is the kernel trace (src_trace.c): its explain accounts the audio threads' waits. */
static inline bool ce_is_trace(const struct ce_source_slot *s)
{
    return s->src.name && strcmp(s->src.name, "tracefs") == 0;
}

struct ce_kept *ce_kept_pack(const struct culprit *c, int n);
/* The newest result of that happening not forgotten, NULL when none. Under e->mu. */
struct ce_result *ce_find(struct culprit_engine *e, enum culprit_subject subj, int phase, int64_t start_ns);
void ce_kept_unpack(const struct ce_kept *k, struct culprit *out);

/* 56 bytes (88 with int-sized fields: at 16 frames / 192 kHz a run's results array reached 3,700 of them, 324 KiB) */
struct ce_result {
    int64_t start_ns, end_ns, cb_max_ns;
    int64_t trace_wait_ns;       /* with traced 0: the audio threads' wait the trace saw */
    struct ce_kept *c;           /* n culprits (one malloc'd block: ce_kept_pack) */
    int32_t phase;
    int32_t traced;              /* the trace's answer: -1 no trace, 0 it had no account of the audio threads' waits
                                  * in it (not known), n > 0 its holders (obs[] with wait_ns, t0/t1 = start/end) */
    int16_t cpu;
    uint8_t subj;                /* enum culprit_subject */
    uint8_t state;               /* 0 pending, 1 explained, 2 no data, 3 forgotten (culprit_engine_forget: its slot
                                  * is reclaimed by the sampler thread's next compaction) */
    bool asked;                  /* the sources' explain() was asked (ce_ask_sources): its answer is in obs[] */
    int8_t trace_why;            /* with traced 0: why (enum culprit_none_why) */
    uint8_t n;
};

/* The sampler's file reading state: one growing buffer, reused. */
struct ce_buf {
    char *p;
    size_t cap, len;
    bool truncated;
};

/* A /proc or /sys file read every tick, kept open and read again from its start: no path walk at each tick. */
struct ce_file {
    int kept;                    /* its descriptor + 1; 0: none */
    char path[160];
};

struct culprit_engine {
    struct culprit_config cfg;
    char own_client[CULPRIT_NAME_MAX]; /* cfg.own_client, copied ("": none) */
    char proc[256], sys[256];
    bool real_proc;              /* proc is the machine's own /proc (not a unit test's fixture tree) */
    int64_t interval_ns;
    int64_t quiet_ns;            /* the interval while quiet (cfg.quiet_hz), 0: never quiet */
    int64_t quiet_after_ns;
    /* under mu: until when (CLOCK_MONOTONIC) the sampler stays at hz; a wake asked of it; its ticks, and how many
     * of them and how long it was quiet (the summary) */
    int64_t active_until_ns;
    bool wake;
    bool polling_quiet;          /* the sampler's own: this tick's polls are quiet ones (culprit_source.quiet) */
    bool quiet;                  /* the sampler's own: its last wait was a quiet one (quiet_ns, or cut short by a
                                  * wake): the next sample spans it (ce_sample.quiet), the task scan slows */
    unsigned long quiet_ticks;
    struct rank_ctx *rank_scratch; /* ce_rank's, from its first call to the engine's free (the sampler's thread) */
    unsigned long traced_slow_ticks; /* ticks at quiet_hz with something happening: the trace on (engine.c) */
    int64_t quiet_total_ns;
    /* the sampler's own state (its thread only, or the test driving ticks) */
    struct ce_buf buf;
    struct ce_file files[CE_FILES_MAX];
    int ncpu;                    /* columns of /proc/interrupts */
    struct ce_line lines[CE_LINES_MAX];
    int nlines;
    uint32_t lines_lost;
    uint64_t *irq_prev;          /* [CE_LINES_MAX][ncpu], allocated at the first read */
    int irq_prev_ncpu;
    char soft_names[CE_SOFT_MAX][16];
    int nsoft;
    uint64_t *soft_prev;         /* [CE_CPUS_MAX][CE_SOFT_MAX]: CE_SOFT_AT (a CPU's types side by side: the
                                  * pages touched are the CPUs', not a page a type) */
    uint64_t *steal_prev;        /* [CE_CPUS_MAX], USER_HZ ticks */
    /* rolling baselines: the sums of every delta in the history ring, kept as samples come and go */
    uint64_t *irq_roll;          /* [CE_LINES_MAX][irq_prev_ncpu] */
    uint64_t *soft_roll;         /* [CE_CPUS_MAX][CE_SOFT_MAX]: CE_SOFT_AT */
    uint64_t *steal_roll;        /* [CE_CPUS_MAX], µs */
    int64_t psi_roll[3];
    int64_t psi_prev[3];
    int64_t audio_prev_run, audio_prev_delay;
    int audio_prev_tid;
    struct ce_task tasks[CE_TASKS_MAX];
    int ntasks;
    uint32_t tasks_lost;
    int64_t last_scan_ns;
    int64_t freq_absent_ns;      /* the tick that found no cpufreq on the audio CPUs (0: found, or not looked) */
    struct ce_reader readers[CER_COUNT];
    struct ce_sample *hist;      /* a ring of hist_cap samples */
    struct ce_scratch scratch;   /* the sample being read */
    unsigned long kept_lost;     /* samples whose moved counters could not be kept (out of memory): kept empty */
    int hist_cap, hist_n, hist_head; /* head: the next slot written */
    int64_t first_t_ns, last_t_ns;
    bool primed;                 /* the first tick read the counters (no deltas yet) */
    uint64_t ticks;
    struct culprit_obs obs[CE_OBS_MAX];
    int obs_n, obs_head;
    uint32_t obs_lost;
    uint32_t late_windows;       /* happenings whose samples came too late to cover them: "not known" */
    int res_peak;                /* the most results held at once (noted, not forgotten) */
    /* shared with the collector and the audio side: under mu */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int audio_tid, audio_prio;
    int audio_cpus[CE_AUDIO_CPUS];
    int naudio_cpus;
    struct ce_source_slot sources[CE_SOURCES_MAX];
    int nsources;
    int polled_sources;            /* sources with a poll (a server's log, a profiler): explaining waits for them */
    struct ce_result *res;
    int nres, res_cap, res_first_pending;
    int nforgotten;              /* results in state 3, awaiting compaction (ce_explain_due) */
    uint32_t res_lost;
    uint64_t forgotten_pending;  /* forgotten before they were explained (their explanation was never asked) */
    int64_t cpu_ns;              /* the sampler thread's CPU time so far */
    int64_t wall_t0_ns, wall_t1_ns; /* CLOCK_MONOTONIC at start and stop */
    bool stop, running, stopped;
    pthread_t thread;
    _Atomic int tid; /* the sampler thread's (gettid), 0 until it runs: hurried at the stop (util/hurry.h) */
};

/* engine.c */
struct culprit_engine *ce_create(const struct culprit_config *cfg, char *err, size_t errlen);
void ce_tick(struct culprit_engine *e, int64_t now_ns);          /* one sample, the sources, due explanations */
void ce_explain_due(struct culprit_engine *e, bool all);
int64_t ce_now(const struct culprit_engine *e);

/* sample_proc.c: parsers of text already read; never crash on any bytes. A row callback gets the row's label,
 * its numbers (n of them) and the rest of the line. */
typedef void (*ce_row_fn)(void *ctx, const char *label, const uint64_t *v, int n, const char *rest);
int ce_parse_table(const char *buf, size_t len, ce_row_fn fn, void *ctx); /* columns found, -1 malformed */
int ce_parse_stat_steal(const char *buf, size_t len, void (*fn)(void *, int cpu, uint64_t steal), void *ctx);
int ce_parse_schedstat(const char *buf, size_t len, int64_t *run_ns, int64_t *delay_ns);
int ce_parse_psi_some(const char *buf, size_t len, int64_t *total_us);
struct ce_task_stat {
    char comm[CE_COMM];
    int processor, rt_priority, policy;
    bool kthread;                /* PF_KTHREAD in flags (field 9): a kernel thread */
};
int ce_parse_task_stat(const char *buf, size_t len, struct ce_task_stat *out);
int ce_parse_cpulist(const char *s, uint64_t *mask, int maxcpu); /* bits set, -1 malformed */
int ce_parse_allowed(const char *status, size_t len, uint64_t *mask, int maxcpu);
int ce_read(struct ce_buf *b, const char *path);                  /* 0, or -errno */
/* the same, kept open between reads (/proc and /sys only): by the caller's descriptor (+ 1, 0 none), or in the
 * engine's table by path (into e->buf) */
int ce_read_fd(struct ce_buf *b, int *kept, const char *path);
int ce_read_kept(struct culprit_engine *e, const char *path);
void ce_fd_close(int *kept);
void ce_buf_free(struct ce_buf *b);

/* sampler.c */
void ce_sample_tick(struct culprit_engine *e, int64_t now_ns);
void ce_sampler_free(struct culprit_engine *e);
const struct ce_sample *ce_hist_at(const struct culprit_engine *e, int i); /* 0: the oldest */

/* rtscan.c */
void ce_rt_rescan(struct culprit_engine *e, const uint64_t *audio_mask);
void ce_rt_read(struct culprit_engine *e, struct ce_sample *s);

/* rank.c: the culprits of one happening from the history; returns how many (<= max), 0 when no sample covers it */
int ce_rank(struct culprit_engine *e, const struct ce_result *r, struct culprit *out, int max);
/* As soon as the window after r is sampled (before the polled sources' lag has passed): asks every source with an
 * explain() about r ([start, end]) and keeps the answers with the polled observations. A trace's ring holds well under a
 * second of a busy machine: asked after the lag, the window was gone (seen beside stress-ng --io). rank.c. */
/* returns r's traced; *why and *wait_ns its trace_why and trace_wait_ns */
int ce_ask_sources(struct culprit_engine *e, const struct ce_result *r, int *why, int64_t *wait_ns);
/* One more observation into the ring (engine.c). */
void ce_keep_obs(struct culprit_engine *e, const struct culprit_obs *o);

/* periodic.c */
struct ce_period {
    double period_s, spread_s;
    int count;
};
/* times sorted ascending; fit[i] set for the times in the found period's moments; 1 when one was found */
int ce_period_find(const int64_t *t, int n, struct ce_period *out, unsigned char *fit);

#endif
