/* SPDX-License-Identifier: GPL-2.0-or-later */
/* src/loopback/: the loopback analyzer (non-RT). It is fed the captured blocks of a loopback (the output carried
 * the reference signal of rtaudio/loopsig.h), locks onto the signal, measures the round-trip latency, follows it
 * sample by sample, and finds every glitch (dropped, repeated, silence, click...), writes a short WAV around each
 * and optionally the whole capture (--record). May include rtaudio/loopsig.h, util/, jansson and libsndfile.
 * All functions: any one non-RT thread (one struct lb is used by one thread at a time). */
#ifndef RTJ_LOOPBACK_H
#define RTJ_LOOPBACK_H
#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

struct lb_config {
    unsigned rate_hz;
    unsigned period_frames;
    unsigned max_latency_frames;   /* search range for the round-trip latency (e.g. 1 s) */
    int wav_dirfd;                 /* where glitch WAVs go (-1: none); files created O_EXCL, named glitch-NNNN.wav */
    const char *record_path;       /* --record FILE (.wav or .flac by extension), NULL: none */
};

struct lb;

/* NULL + one line in err on error (bad configuration, --record file not creatable). */
struct lb *lb_new(const struct lb_config *c, char *err, size_t len);

/* One captured block: the n input samples captured in the cycle whose OUTPUT carried the reference signal at
 * frame positions pos..pos+n-1 (the input samples are from the same cycle). seq: the cycle's record seq;
 * t_entry_ns: its entry time on the measurement clock; phase: phase index; measuring: past warm-up. */
void lb_feed(struct lb *a, uint64_t pos, const float *in, unsigned n, uint64_t seq, int64_t t_entry_ns,
             unsigned phase, int measuring);

/* n captured frames at pos were lost before reaching the analyzer (capture ring full): counted and shown,
 * never a glitch. */
void lb_lost(struct lb *a, uint64_t pos, unsigned n);

/* The report's "loopback" object. Never NULL except on ENOMEM. */
json_t *lb_report(struct lb *a);

void lb_free(struct lb *a);

#endif
