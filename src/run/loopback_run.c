/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --loopback in a run: see loopback_run.h. The WAV folder is made privately (mode 0700, a random name beginning
 * with a dot) beside where the report goes (--json FILE's folder, else --html FILE's, else the store), so that a
 * half-made folder never carries the final name; once the report is written it is renamed to its final name
 * (<report>-glitches, or glitches-<start time>-<pid> in the store), and on failure, or when no glitch was
 * recorded, it goes away with everything in it, through its descriptor (loaddir.h: no symlink is followed).
 * While it has its private name the run holds a lock on it (util/leftover.h): a run that died (SIGKILL) leaves
 * its folder unlocked, and the next --loopback run beside it removes it; a live run's folder is never touched. */
#include "run/loopback_run.h"
#include "run/run.h"
#include "capring.h"
#include "loaddir.h"
#include "loopback/loopback.h"
#include "report/report.h"
#include "report/store.h"
#include "rtclock.h"
#include "sysinfo/sysinfo.h"
#include "util/leftover.h"
#include "util/termtext.h"
#include "util/utf8.h"
#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define LBR_RING_SECONDS 1.0     /* capture the drain thread may fall behind by before frames are lost */
#define LBR_MAX_XRUNS 4096       /* xrun events kept to tie glitches to (the count goes on beyond) */

struct lbr_xrun {
    int64_t t_ns;                /* entry time of the cycle that saw it */
    uint64_t seq;
    uint64_t skipped_frames;     /* frame-clock jump beyond the previous cycle's end; 0: reported only */
    uint32_t reported;           /* change of the provider's xrun counter in that cycle */
    uint32_t phase;
};

struct lb_run {
    struct cap_ring cap;
    struct lb *lb;
    const char *record;
    pthread_t thread;
    int running;
    atomic_int stop;
    unsigned rate_hz, period_frames;
    /* the WAV folder */
    int parent_fd, dir_fd;
    char tmp_name[64];           /* its private name in parent while the run goes on */
    char final_name[512];        /* and the one it gets when the report is written */
    char parent_path[4096];
    /* drain thread only, until lbr_stop */
    float buf[CAP_MAX_FRAMES];
    uint64_t chunks, frames, lost_frames_seen;
    int have_prev;
    uint64_t next_pos;
    uint32_t prev_xruns;
    struct lbr_xrun xr[LBR_MAX_XRUNS];
    size_t nxr;
    uint64_t xr_total;
};

int lbr_wanted(const struct run_plan *p)
{
    return p->be.loopback != NULL;
}

struct cap_ring *lbr_ring(struct lb_run *r)
{
    return &r->cap;
}

/* "dir/name.json" -> parent "dir", final "name-glitches". */
static void beside(struct lb_run *r, const char *file)
{
    const char *slash = strrchr(file, '/');
    const char *base = slash ? slash + 1 : file;
    if (slash)
        snprintf(r->parent_path, sizeof(r->parent_path), "%.*s", (int)(slash - file) ? (int)(slash - file) : 1,
                 file);
    else
        snprintf(r->parent_path, sizeof(r->parent_path), ".");
    size_t n = strlen(base);
    const char *dot = strrchr(base, '.');
    if (dot && dot != base)
        n = (size_t)(dot - base);
    snprintf(r->final_name, sizeof(r->final_name), "%.*s-glitches", (int)n, base);
}

/* Is name a WAV folder under its private name, .rtjitter-glitches-XXXXXX (loaddir_make's 6 characters)? */
static enum leftover_kind glitch_leftover(const char *name)
{
    static const char prefix[] = ".rtjitter-glitches-";
    size_t n = sizeof(prefix) - 1;
    if (strncmp(name, prefix, n) != 0 || strlen(name) != n + 6)
        return LEFTOVER_NONE;
    for (size_t i = n; name[i]; i++)
        if (!((name[i] >= 'a' && name[i] <= 'z') || (name[i] >= 'A' && name[i] <= 'Z') ||
              (name[i] >= '0' && name[i] <= '9')))
            return LEFTOVER_NONE;
    return LEFTOVER_DIR;
}

static void glitch_swept(const char *name, void *arg)
{
    char shown[512];
    run_err("--loopback: removed %s/%s, the glitch folder of a run that died (no run holds "
                    "it)\n", term_str(shown, sizeof(shown), arg), name);
}

/* A line the analyzer has for the user (lb_config's note), said as the run's. */
static void lb_said(const char *line, void *arg)
{
    (void)arg;
    run_err("%s\n", line);
}

/* What dead runs left here goes first; then our folder, locked as soon as it exists (another run sweeping at that
 * moment may take a fresh one: then another name). 0 or -errno. */
static int make_folder(struct lb_run *r)
{
    leftover_sweep(r->parent_fd, glitch_leftover, loaddir_remove, glitch_swept, r->parent_path);
    for (int tries = 0; tries < 16; tries++) {
        int e = loaddir_make(r->parent_fd, ".rtjitter-glitches-", r->tmp_name, sizeof(r->tmp_name), &r->dir_fd);
        if (e < 0)
            return e;
        if (leftover_hold(r->parent_fd, r->tmp_name, r->dir_fd) == 0)
            return 0;
        close(r->dir_fd); /* the sweeping run that took it removes it */
        r->dir_fd = -1;
    }
    return -EAGAIN;
}

struct lb_run *lbr_prepare(const struct run_plan *p)
{
    struct lb_run *r = calloc(1, sizeof(*r));
    if (!r) {
        run_err("out of memory\n");
        return NULL;
    }
    r->parent_fd = r->dir_fd = -1;
    r->record = p->record;
    if (p->json || p->html) {
        beside(r, p->json ? p->json : p->html);
    } else {
        char rel[256];
        sysinfo_release("", rel, sizeof(rel));
        if (store_check(p->output, rel, r->parent_path, sizeof(r->parent_path)) < 0) {
            run_err("--loopback: the report store cannot be written\n");
            free(r);
            return NULL;
        }
        time_t now = time(NULL);
        struct tm tm;
        gmtime_r(&now, &tm);
        char ts[32];
        strftime(ts, sizeof(ts), "%Y%m%dT%H%M%SZ", &tm);
        snprintf(r->final_name, sizeof(r->final_name), "glitches-%s-%d", ts, (int)getpid());
    }
    r->parent_fd = open(r->parent_path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    char why[300];
    int e = r->parent_fd < 0 ? -errno : loaddir_check_parent(r->parent_fd, r->parent_path, why, sizeof(why));
    if (e == -EPERM) {
        run_err("--loopback: glitch recordings: %s\n", why);
    } else if (e < 0 || (e = make_folder(r)) < 0) {
        run_err("--loopback: cannot make the glitch folder in %s: %s\n", r->parent_path,
                strerror(-e));
    }
    if (e < 0) {
        lbr_free(r);
        return NULL;
    }
    return r;
}

/* Drain thread: a frame-clock jump or a change of the provider's xrun counter is an xrun event, kept (up to
 * LBR_MAX_XRUNS) to tie the analyzer's glitches to. */
static void note_xrun(struct lb_run *r, const struct cap_chunk *c)
{
    uint64_t skipped = r->have_prev && c->pos > r->next_pos ? c->pos - r->next_pos : 0;
    uint32_t rep = r->have_prev ? c->xruns - r->prev_xruns : 0;
    if (skipped == 0 && rep == 0)
        return;
    r->xr_total++;
    if (r->nxr < LBR_MAX_XRUNS)
        r->xr[r->nxr++] = (struct lbr_xrun){ c->t_entry_ns, c->seq, skipped, rep, c->phase };
}

/* Drain thread (or the main thread once it stopped): everything in the ring now into the analyzer. */
static void drain(struct lb_run *r)
{
    struct cap_chunk c;
    while (cap_ring_pop(&r->cap, &c, r->buf)) {
        if (c.lost_n) {
            lb_lost(r->lb, c.lost_pos, c.lost_n);
            r->lost_frames_seen += c.lost_n;
        }
        if (c.lost_n)
            r->have_prev = 0; /* what came between is unknown: no frame-clock jump is inferred across it */
        note_xrun(r, &c);
        lb_feed(r->lb, c.pos, r->buf, c.n, c.seq, c.t_entry_ns, c.phase, (int)c.measuring);
        r->have_prev = 1;
        r->next_pos = c.pos + c.n;
        r->prev_xruns = c.xruns;
        r->chunks++;
        r->frames += c.n;
    }
}

static void *drain_thread(void *arg)
{
    struct lb_run *r = arg;
    while (!atomic_load(&r->stop)) {
        drain(r);
        mono_nap_ms(10);
    }
    return NULL;
}

int lbr_start(struct lb_run *r, unsigned rate_hz, unsigned period_frames, char *err, size_t len)
{
    int e = cap_ring_init(&r->cap, rate_hz, period_frames, LBR_RING_SECONDS);
    if (e < 0) {
        snprintf(err, len, "--loopback: cannot allocate the capture ring: %s", strerror(-e));
        return e;
    }
    r->rate_hz = rate_hz;
    r->period_frames = period_frames;
    struct lb_config c = { .rate_hz = rate_hz, .period_frames = period_frames, .max_latency_frames = rate_hz,
                           .wav_dirfd = r->dir_fd, .record_path = r->record, .note = lb_said };
    char why[400];
    r->lb = lb_new(&c, why, sizeof(why));
    if (!r->lb) {
        snprintf(err, len, "%s%s", r->record ? "--record: " : "--loopback: ", why);
        return -EINVAL;
    }
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 256 * 1024); /* mlockall(MCL_FUTURE) would lock a default 8 MiB one */
    e = pthread_create(&r->thread, &attr, drain_thread, r);
    pthread_attr_destroy(&attr);
    if (e == 0)
        pthread_setname_np(r->thread, "rtj-capture");
    if (e) {
        snprintf(err, len, "--loopback: cannot start the capture thread: %s", strerror(e));
        return -e;
    }
    r->running = 1;
    return 0;
}

void lbr_stop(struct lb_run *r)
{
    if (!r || !r->running)
        return;
    atomic_store(&r->stop, 1);
    pthread_join(r->thread, NULL);
    r->running = 0;
    drain(r);
    /* Frames lost at the very end have no later chunk to carry them: the producer has stopped, so its pending
     * count may be read here. */
    if (r->cap.pend_lost_n) {
        lb_lost(r->lb, r->cap.pend_lost_pos, (unsigned)r->cap.pend_lost_n);
        r->lost_frames_seen += r->cap.pend_lost_n;
        r->cap.pend_lost_n = 0;
    }
}

/* The xrun event nearest to a glitch, within two periods of [t_from, t_to]: from the cycle that played the frame
 * expected there (t_play_ns, loopback.h) to the end of the glitch's frames after the cycle that captured the first
 * one (t_ns + length): a late server shows stale cycles before it notices and counts the xrun. NULL when none. */
static const struct lbr_xrun *nearest_xrun(const struct lb_run *r, int64_t t_from, int64_t t_to)
{
    int64_t period_ns = r->rate_hz ? (int64_t)r->period_frames * 1000000000LL / r->rate_hz : 0;
    const struct lbr_xrun *best = NULL;
    int64_t bd = 0;
    for (size_t i = 0; i < r->nxr; i++) {
        int64_t t = r->xr[i].t_ns;
        int64_t d = t < t_from ? t_from - t : t > t_to ? t - t_to : 0;
        if (d <= 2 * period_ns && (!best || d < bd)) {
            best = &r->xr[i];
            bd = d;
        }
    }
    return best;
}

json_t *lbr_report(struct lb_run *r, const json_t *provider, const struct run_info *ri, int *record_failed)
{
    *record_failed = 0;
    if (!r || !r->lb)
        return NULL;
    /* What JACK says the loop's ports add (the backend's describe put it there), for the -I/-O advice. An internal
     * loop (--loopback internal) has no converter or cable in it: nothing to compensate, so no advice. */
    const json_t *lbcfg = json_object_get(provider, "loopback");
    const char *mode = json_string_value(json_object_get(lbcfg, "mode"));
    int internal = mode && strcmp(mode, "internal") == 0;
    json_t *rl = json_object_get(lbcfg, "reported_latency_frames");
    if (json_is_integer(rl) && !internal)
        lb_set_reported_latency(r->lb, (unsigned)json_integer_value(rl));
    /* An incomplete run (Ctrl-C, SIGTERM, a lost server) keeps its capture under a new name, never over the
     * user's file of that name. */
    int partial = !ri->complete;
    if (partial)
        lb_set_partial(r->lb);
    json_t *lo = lb_report(r->lb);
    if (!lo)
        return NULL;
    json_t *rec = json_object_get(lo, "record");
    char shown[2][512];
    if (partial && json_is_true(json_object_get(rec, "partial")))
        run_err("--record: the run stopped early: the %.1f s captured are kept in %s (%s was "
                        "left as it was)\n",
                r->rate_hz ? (double)json_integer_value(json_object_get(rec, "frames")) / r->rate_hz : 0.0,
                term_str(shown[0], sizeof(shown[0]), json_string_value(json_object_get(rec, "path"))),
                term_str(shown[1], sizeof(shown[1]), json_string_value(json_object_get(rec, "requested_path"))));
    if (mode) /* the renderers' cue: advice for hardware only where there is hardware in the loop */
        json_object_set_new(lo, "hardware_in_loop", json_boolean(!internal));
    json_t *g;
    size_t i;
    size_t with_xrun = 0;
    json_array_foreach(json_object_get(lo, "glitches"), i, g) {
        json_t *t = json_object_get(g, "t_ns");
        json_t *ph = json_object_get(g, "phase");
        if (json_is_integer(ph)) { /* the load of the report's phase of that index */
            int exists = 0;
            const char *name = report_phase_load(ri, (size_t)json_integer_value(ph), &exists);
            json_t *load = exists ? utf8_json_string(name) : NULL;
            json_object_set_new(g, "load", load ? load : json_null());
        }
        json_t *tp = json_object_get(g, "t_play_ns");
        json_t *len = json_object_get(g, "length_frames");
        const struct lbr_xrun *x = NULL;
        if (json_is_integer(t)) {
            int64_t t0 = (int64_t)json_integer_value(t), tp0 = json_is_integer(tp) ? json_integer_value(tp) : t0;
            int64_t t1 = t0 + (json_is_integer(len) && r->rate_hz ?
                               (int64_t)((double)json_integer_value(len) * 1e9 / r->rate_hz) : 0);
            x = nearest_xrun(r, tp0 < t0 ? tp0 : t0, t1);
        }
        if (x) {
            with_xrun++;
            json_object_set_new(g, "xrun", json_pack("{s:I, s:f, s:I, s:I, s:i}", "t_ns", (json_int_t)x->t_ns,
                "dt_ms", (double)(x->t_ns - json_integer_value(t)) / 1e6, "seq", (json_int_t)x->seq,
                "skipped_frames", (json_int_t)x->skipped_frames, "reported", (int)x->reported));
        } else {
            json_object_set_new(g, "xrun", json_null());
        }
    }
    int64_t period_ns = r->rate_hz ? (int64_t)r->period_frames * 1000000000LL / r->rate_hz : 0;
    json_object_set_new(lo, "timeline", json_pack("{s:I, s:I, s:I, s:s}", "xrun_events_seen", (json_int_t)r->xr_total,
        "glitches_near_xrun", (json_int_t)with_xrun, "window_ns", (json_int_t)(2 * period_ns),
        "method", "a glitch is tied to the xrun event (a frame-clock jump or a change of the provider's xrun count, "
                  "seen in the capture's own cycles) nearest to it within two periods of its span: from the cycle "
                  "that played the frame expected there (t_play_ns) to the end of its frames after t_ns"));
    json_object_set_new(lo, "capture", json_pack("{s:I, s:I, s:I, s:I, s:I}", "chunks", (json_int_t)r->chunks,
        "frames", (json_int_t)r->frames, "lost_frames", (json_int_t)cap_ring_lost(&r->cap),
        "ring_bytes", (json_int_t)cap_ring_bytes(&r->cap), "ring_frames", (json_int_t)r->cap.nsamples));
    int any_wav = 0;
    json_array_foreach(json_object_get(lo, "glitches"), i, g)
        any_wav |= json_is_string(json_object_get(g, "wav"));
    json_object_set_new(lo, "wav_dir", any_wav ? json_string(r->final_name) : json_null());
    /* --record not written in full: the analyzer says so (record_error). */
    *record_failed = r->record && (json_is_string(json_object_get(lo, "record_error")) ||
                                   !json_is_object(json_object_get(lo, "record")));
    return lo;
}

int lbr_finish(struct lb_run *r, int ok)
{
    if (!r || r->dir_fd < 0)
        return 0;
    int e = 0;
    struct stat st;
    int empty = 1;
    /* Empty? (the analyzer writes only glitch-NNNN.wav files into it) */
    int fd2 = dup(r->dir_fd);
    DIR *d = fd2 >= 0 ? fdopendir(fd2) : NULL;
    if (d) {
        struct dirent *de;
        while ((de = readdir(d)))
            if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
                empty = 0;
        closedir(d);
    } else if (fd2 >= 0) {
        close(fd2);
    }
    if (!ok || empty) {
        e = loaddir_remove(r->parent_fd, r->tmp_name, r->dir_fd);
    } else if (fstatat(r->parent_fd, r->final_name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
        run_err("the glitch recordings stay in %s/%s: %s exists already\n", r->parent_path,
                r->tmp_name, r->final_name);
        e = -EEXIST;
    } else if (renameat(r->parent_fd, r->tmp_name, r->parent_fd, r->final_name) < 0) {
        e = -errno;
        run_err("the glitch recordings stay in %s/%s: %s\n", r->parent_path, r->tmp_name,
                strerror(-e));
    } else {
        printf("glitch recordings: %s/%s\n", r->parent_path, r->final_name);
    }
    close(r->dir_fd);
    r->dir_fd = -1;
    return e;
}

void lbr_free(struct lb_run *r)
{
    if (!r)
        return;
    lbr_stop(r);
    if (r->dir_fd >= 0)
        lbr_finish(r, 0);
    if (r->parent_fd >= 0)
        close(r->parent_fd);
    lb_free(r->lb);
    cap_ring_free(&r->cap);
    free(r);
}
