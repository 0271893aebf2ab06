/* SPDX-License-Identifier: GPL-2.0-or-later */
/* src/loopback/: the loopback analyzer (non-RT). It is fed the captured blocks of a loopback (the output carried
 * the reference signal of rtaudio/loopsig.h), locks onto the signal, measures the round-trip latency, follows it
 * sample by sample, and finds every glitch (dropped, repeated, silence, click...), writes a short WAV around each
 * and optionally the whole capture (--record). May include rtaudio/loopsig.h, util/, jansson and libsndfile;
 * never run/ (it prints nothing: a line for the user goes back to the caller, lb_config's note). All functions:
 * any one non-RT thread (one struct lb is used by one thread at a time). */
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
    /* Told each line the user should read about what lb_new did (a --record file a dead run left unfinished, now
     * removed), without the program's prefix or a newline: the caller prints it (the analyzer prints nothing).
     * NULL: not told. */
    void (*note)(const char *line, void *arg);
    void *note_arg;
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

/* What JACK says the loop's ports add (playback + capture latency, frames), so that the report can give the
 * extra latency for jackd -I/-O (jack_iodelay's advice: half each). Optional. */
void lb_set_reported_latency(struct lb *a, unsigned frames);
/* The run stopped early (Ctrl-C, SIGTERM, a lost server): the --record capture is kept under a new name beside the
 * target, never over it (lb_report). Before lb_report. */
void lb_set_partial(struct lb *a);

/* The report's "loopback" object. Never NULL except on ENOMEM. It also finishes: a glitch still waiting for the
 * capture that follows it is resolved with what there is, and the --record file is closed and put in place
 * (later feeds are analysed but not recorded). Call it once, at the end.
 *
 *   rate, period_frames, max_latency_frames
 *   locked (bool: the reference was found), lock_error (string or null)
 *   latency {frames, frames_exact (with the fraction of a frame: the tone's phase through the fitted filter),
 *            ms, method, resolution_frames 1 (of "frames"), reported_frames, extra_frames, jackd_io_frames}
 *                                      the first measured round trip; nulls where unknown
 *   hardware_in_loop (bool, set by the run from audio.loopback.mode: false for --loopback internal, whose
 *                                      loop is the graph's own, with nothing to compensate: no -I/-O advice then)
 *   match {gain_db, residual_db (what the fitted filter leaves unexplained; null: nothing, a bit-exact loop)}
 *                                      of the lock in force at the end (null: never locked)
 *   latency_now_frames                 the alignment at the end (null: not in sync)
 *   latency_shifted (bool), latency_shift_note (string or null)
 *   latency_checks [{after_glitch (1-based index), before, frames (null: lost), shifted}]
 *   frames_fed, frames_checked (compared with the reference and matched), lost_frames (lb_lost), gap_frames
 *   (positions never fed, lost ones included), nonfinite_samples (NaN/Inf captured, taken as 0),
 *   position_resets (the position went back; the search starts again)
 *   glitch_count, glitches_unlisted (past the list's cap of 1000)
 *   phases [{phase, glitches (measuring), warmup_glitches}]
 *   wavs {written, failed, over_cap, cap}
 *   glitches [{index (1-based), pos (capture frame position of the first wrong frame), ref_pos (the reference
 *             position expected there), t_ns, t_play_ns (below), seq, phase, measuring,
 *             kind: dropped|repeated|skipped|silence|click|garbled|lost_sync|unresolved (lb_glitch.c says what
 *             each is),
 *             length_frames, length_ms, latency_before, latency_after (null: lost), latency_shifted,
 *             wav (file name in the WAV folder, or null), wav_error (why not: "No space left on device",
 *             "no WAV folder", "over the WAV cap"; null when written), wav_cut (why a written WAV holds less than
             the 50 ms after the glitch: "the run ended", "the frame clock went back" (the positions after it were
             captured again: the glitch is named with what came before), "the capture ended"; null: it holds them),
 *             excerpt {start_pos, frames_per_point, points, glitch_point, scale, capture_min, capture_max,
 *                      reference_min, reference_max}   (integers: sample x scale; first 100 glitches only)}]
 *   record {path (where the capture is: --record's FILE, or the partial take's new name), requested_path (FILE),
 *   partial (bool: the run stopped early and FILE was left as it was), format "wav"|"flac", frames, written,
 *   unfilled_gap_frames (holes over 10 s are not filled with silence)} or null; record_error (string or null: a requested
 *   output was not written, the run's exit must say so)
 * Times of a glitch (measurement clock, ns, through the frame clock of the fed blocks):
 *   t_ns       when its first wrong frame was CAPTURED: the entry time of the cycle whose lb_feed carried position
 *              `pos`, plus (pos - that cycle's first position) frames at the rate. A disruption of the frame clock
 *              (cycles skipped by an xrun, a stale buffer) moves capture and playback positions together, so it
 *              shows in the capture at the very cycle it happened in: t_ns is that cycle (for JACK, the first
 *              cycle after a stall; it is never before the disruption).
 *   t_play_ns  when the reference frame expected at pos (ref_pos = pos - latency_before) was PLAYED, found the same
 *              way from the cycle that output it (null: that cycle is no longer remembered or never ran, e.g. it
 *              fell in a hole). A disruption on the playback side alone (a dropout in the output path) happened
 *              then and reached the input `latency` frames later; the xrun it belongs to lies between the two.
 * A glitch ends at a hole in the capture (positions never captured): what follows a hole is compared afresh, so
 * each frame-clock jump is its own glitch (lb_glitch.c).
 * A caller may add "wav_dir" (string: the WAV folder relative to the report) for the renderers' links. */
json_t *lb_report(struct lb *a);

void lb_free(struct lb *a);

#endif
