/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The loopback analyzer's insides, shared by its files (loopback.c: feeding and the state machine; lb_match.c:
 * locking and matching; lb_glitch.c: what a glitch is; lb_wav.c: the WAVs and --record; lb_report.c: the JSON).
 * Not for use outside src/loopback/ except by its unit test. */
#ifndef RTJ_LB_INTERNAL_H
#define RTJ_LB_INTERNAL_H
#include "loopback/loopback.h"
#include <stdint.h>

#define LB_WIN 1024u          /* lock/verify window, frames */
#define LB_SCREEN 64u         /* screening window of the lock search */
#define LB_RESYNC 32u         /* consecutive matching frames that mean "in sync again" */
#define LB_JUMP_MAX 8u        /* a mismatch stretch at most this long beside a new alignment: a pure jump */
#define LB_CLICK_MAX 16u      /* an isolated mismatch at most this long, back in sync at once: a click */
#define LB_MATCH_RATIO 0.05   /* a window matches when its residual energy is below 5 % of its energy */
#define LB_CAND_RATIO 0.2     /* a latency is a candidate when one gain leaves less than 20 % unexplained */
#define LB_TAPS 7             /* the filter fitted around the latency (a cable: fraction of a frame, filters) */
#define LB_TAP_CENTER 3
#define LB_FLOOR_RMS 1e-3     /* below -60 dBFS rms there is no signal to lock onto */
#define LB_WAV_CAP 100u       /* glitch WAVs (and waveform excerpts) at most; later glitches are counted */
#define LB_LIST_CAP 1000u     /* glitch entries in the report at most; later ones are counted */
#define LB_CHECK_CAP 1000u    /* latency re-measurements kept */
#define LB_PHASE_CAP 256u     /* phases counted one by one; later phase indexes count in the last */
#define LB_BLK_RING 1024u     /* recent blocks remembered (their seq, time, phase) */
#define LB_EX_POINTS 200u     /* min/max pairs of a glitch's waveform excerpt */
#define LB_EX_SCALE 1000      /* excerpt values are integers: sample x 1000 */

enum lb_state { LB_SEARCH, LB_LOCKED, LB_GLITCH };

struct lb_fit {            /* what a lock found */
    int64_t lat;           /* latency, whole frames (the filter's centre tap) */
    double h[LB_TAPS];     /* capture[q] ~ sum h[k] reference[q - lat + LB_TAP_CENTER - k] */
    double gain;           /* the filter's norm */
    double ratio;          /* unexplained share of the window's energy (0 on a bit-exact loop) */
    double resid_rms;
    double frac;           /* the fraction of a frame beyond lat (the filter's phase delay at the tone) */
};

struct lb_blk {            /* one fed block (a cycle, or a piece of one) */
    uint64_t cycle_pos;    /* the cycle's first frame position (t_ns is its entry time) */
    uint64_t pos, n;       /* the frames of this piece */
    uint64_t seq;
    int64_t t_ns;
    unsigned phase;
    int measuring;
};

struct lb_excerpt {
    uint64_t start;        /* capture position of the first frame */
    unsigned fpp;          /* frames per point */
    unsigned glitch_point; /* the point holding the glitch */
    short v[4][LB_EX_POINTS];   /* capture min, capture max, reference min, reference max (x LB_EX_SCALE) */
};

struct lb_glitch {
    uint64_t pos;          /* capture frame position of the first mismatching frame */
    int64_t ref_pos;       /* the reference position expected there (pos - latency before) */
    int64_t t_ns;          /* when that frame was captured (its cycle's entry + offset), measurement clock */
    int64_t t_play_ns;     /* when the reference frame expected there (ref_pos) was played, same way; -1: unknown */
    uint64_t seq;
    unsigned phase;
    int measuring;
    const char *kind;
    uint64_t length;       /* frames: jumped (dropped, repeated) or of the stretch (others) */
    int64_t lat_before, lat_after;   /* lat_after -1: not found again */
    int wav_state;         /* 0: no WAV folder; 1: written; 2: failed (wav_err); 3: over the cap */
    char wav[32];
    char wav_err[96];
    const char *wav_cut;   /* why its WAV holds less than the context after it (NULL: it holds it all) */
    struct lb_excerpt *ex; /* NULL past the cap */
};

struct lb_check {          /* the latency measured again after a glitch (or a re-lock) */
    uint64_t glitch;       /* index of the glitch it follows (UINT64_MAX: the first lock) */
    int64_t before;        /* the latency before the glitch */
    int64_t frames;        /* after it; -1: lost (until a re-lock measures it) */
    int shifted;
};

struct lb_rec;             /* --record (lb_wav.c) */

struct lb {
    struct lb_config c;
    unsigned pre, post;    /* WAV context before and after a glitch, frames */
    unsigned chunk;        /* feeds are processed in pieces at most this long */
    /* capture history, indexed by frame position & hmask */
    float *hist;
    uint8_t *known;
    uint64_t hsize, hmask;
    int started;
    uint64_t end;          /* one past the newest captured position */
    uint64_t chk;          /* next position to compare */
    float *refbuf;         /* lock search scratch: max_latency + LB_WIN frames */
    float *wavbuf;         /* (pre + post) * 2 frames */
    struct lb_blk blk[LB_BLK_RING];
    uint64_t nblk;
    /* lock */
    enum lb_state state;
    int ever_locked;
    int64_t lat;           /* current alignment (frames) */
    int64_t lat0;          /* the first measured latency */
    struct lb_fit fit;     /* the current lock's filter */
    double thr;            /* the largest error of one frame that still matches */
    double frac0;          /* the first lock's fraction of a frame */
    uint64_t next_try;     /* no lock attempt before the capture reaches this position */
    unsigned dirty_tries;  /* locks put off for a residual that may be the signal's arrival */
    int pending_relock;    /* lost sync: the next lock is a re-measurement */
    uint64_t lost_glitch;  /* the glitch that lost sync (its list index; its length is known at the re-lock) */
    /* the glitch being resolved */
    uint64_t g_pos;
    int hole_after;        /* the glitch is named now because a hole of the capture follows it (lb_feed) */
    const char *cut_why;   /* the glitch is named now, before its context after it came: why (lb_feed, lb_report) */
    /* counters */
    uint64_t fed, checked, lost, gaps, nonfinite, resets;
    uint64_t nglitch, unlisted, wav_written, wav_failed, wav_over_cap;
    uint64_t ph_glitch[LB_PHASE_CAP], ph_warm[LB_PHASE_CAP];
    unsigned nphase;
    struct lb_glitch *gl;
    size_t ngl;
    struct lb_check *chkl;
    size_t nchk;
    int shifted_ever;
    int64_t reported_lat;  /* lb_set_reported_latency, -1 unset */
    struct lb_rec *rec;
    uint64_t rec_unfilled; /* frames of holes over 10 s not filled with silence in the recording */
    char rec_err[160];
    int rec_partial;       /* lb_set_partial: the run stopped early */
};

/* The signal's mean power (tone + marker). */
double lb_sig_power(void);

/* lb_match.c. The capture at position q (0 when not known). */
static inline float lb_cap(const struct lb *a, uint64_t q) { return a->hist[q & a->hmask]; }
static inline int lb_known(const struct lb *a, uint64_t q)
{
    return q < a->end && q + a->hsize >= a->end && a->known[q & a->hmask];
}
/* Lock onto the reference in the window [ws, ws+wlen) (all known), latency in [lo, hi], accepted when the
 * filter leaves less than max_ratio of the window's energy unexplained. 0 and *out; -1 no signal (too quiet or
 * not all known); -2 no lag matches. */
int lb_lock(struct lb *a, uint64_t ws, unsigned wlen, int64_t lo, int64_t hi, double max_ratio,
            struct lb_fit *out);
/* The capture expected at q at latency lat through the current filter. */
double lb_expected(const struct lb *a, uint64_t q, int64_t lat);
/* Does capture q match the reference at latency lat? */
int lb_match_at(const struct lb *a, uint64_t q, int64_t lat);
/* The threshold for one frame's error from a lock's gain and residual. */
double lb_threshold(double gain, double resid_rms);

/* lb_glitch.c: resolve the glitch at a->g_pos (final: no more capture will come). 1 resolved, 0 needs more. */
int lb_resolve(struct lb *a, int final);
/* The frames after a glitch's start needed before it can be resolved. */
uint64_t lb_need(const struct lb *a);
/* The block holding capture position q (or the nearest remembered). NULL before any feed. */
const struct lb_blk *lb_blk_of(const struct lb *a, uint64_t q);

/* lb_wav.c */
/* The opener of glitch WAVs: openat(dirfd, name, O_WRONLY|O_CREAT|O_EXCL|O_NOFOLLOW|O_CLOEXEC, 0644). A test
 * may point it elsewhere (a descriptor of /dev/full: a full disk). Returns a descriptor or -1 and errno. */
extern int (*lb_wav_openat)(int dirfd, const char *name);
/* A 2-channel float WAV of frames interleaved frames into dirfd/name, created exclusively. 0, or -1 and the
 * reason in err. */
int lb_wav_write(int dirfd, const char *name, unsigned rate, const float *inter, size_t frames, char *err,
                 size_t len);
/* --record: open (NULL and err on a bad name or a file that cannot be created), append, finish. The temporary files
 * of dead runs beside path are removed first, each one told to note (lb_config's; NULL: not told). */
struct lb_rec *lb_rec_open(const char *path, unsigned rate, void (*note)(const char *line, void *arg), void *note_arg,
                           char *err, size_t len);
/* Appends n frames (in NULL: n frames of silence). A failure is kept: lb_rec_error says it. */
void lb_rec_write(struct lb_rec *r, const float *in, uint64_t n);
/* Closes and puts the file in place: renamed over path, or (partial: the run stopped early) linked under a new
 * name beside it, STEM.partial-<UTC time>.EXT, never over an existing file. 0, or -1 (the error kept).
 * Idempotent. */
int lb_rec_finish(struct lb_rec *r, int partial);
const char *lb_rec_error(const struct lb_rec *r);
uint64_t lb_rec_frames(const struct lb_rec *r);
const char *lb_rec_format(const struct lb_rec *r);
const char *lb_rec_path(const struct lb_rec *r);            /* where the capture is (once finished) */
const char *lb_rec_requested_path(const struct lb_rec *r);  /* --record's own path */
int lb_rec_partial(const struct lb_rec *r);                 /* kept under a new name: the run stopped early */
void lb_rec_free(struct lb_rec *r);

/* lb_report.c */
json_t *lb_report_json(struct lb *a);

#endif
