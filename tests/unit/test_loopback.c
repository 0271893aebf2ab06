/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The loopback analyzer against captures built here, outside it, with a known truth: the reference of
 * rtaudio/loopsig.h delayed by a known latency L (several, not multiples of the period), then edited at known
 * places: k frames removed (a dropout), inserted again (a repeat), zeroed, a click, a stale block replayed, a
 * new latency after a silence, a cable's gain, polarity and noise. Each glitch must be found within one period
 * of where it was put, of the right kind, the latency exactly L; the WAVs are read back with libsndfile and the
 * discontinuity found inside them by comparing their two channels; a full disk (/dev/full) gives "wav": null and
 * the reason; random input never crashes. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <sndfile.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "loopback/lb_internal.h"
#include "loopback/loopback.h"
#include "loopsig.h"

#define RATE 48000u
#define PER 64u
#define N (RATE * 2)     /* two seconds of capture */

/* The capture, by construction: refpos[q] is the reference position heard at capture position q (-1: zero). */
struct cap {
    int64_t refpos[N];
    float add[N];        /* added on top (a click, noise) */
    double gain;
    float out[N];
};

static struct cap *cap_new(int64_t lat)
{
    struct cap *c = calloc(1, sizeof(*c));
    assert_non_null(c);
    c->gain = 1.0;
    for (uint64_t q = 0; q < N; q++)
        c->refpos[q] = (int64_t)q - lat;
    return c;
}

/* From capture position p on, the reference is shifted by d (d > 0: frames skipped, a dropout). */
static void cap_shift(struct cap *c, uint64_t p, int64_t d)
{
    for (uint64_t q = p; q < N; q++)
        c->refpos[q] += d;
}

static void cap_render(struct cap *c)
{
    for (uint64_t q = 0; q < N; q++)
        c->out[q] = (c->refpos[q] < 0 ? 0.0f : (float)(c->gain * loopsig_at((uint64_t)c->refpos[q]))) + c->add[q];
}

static int wav_dir = -1;
static char tmpdir[256];

static struct lb *run(struct cap *c, int dirfd, const char *record, json_t **rep)
{
    cap_render(c);
    struct lb_config cfg = { RATE, PER, RATE / 5, dirfd, record, NULL, NULL };
    char err[200] = "";
    struct lb *a = lb_new(&cfg, err, sizeof(err));
    assert_non_null(a);
    for (uint64_t b = 0; b * PER < N; b++)
        lb_feed(a, b * PER, c->out + b * PER, PER, b, (int64_t)b * 1333333, b * PER < N / 2 ? 0 : 1, 1);
    *rep = lb_report(a);
    assert_non_null(*rep);
    return a;
}

static json_int_t ival(const json_t *o, const char *path)
{
    /* "a.b" */
    char k[64];
    const char *dot = strchr(path, '.');
    if (dot) {
        snprintf(k, sizeof(k), "%.*s", (int)(dot - path), path);
        return ival(json_object_get(o, k), dot + 1);
    }
    const json_t *v = json_object_get(o, path);
    if (!json_is_integer(v))
        fail_msg("%s is not an integer", path);
    return json_integer_value(v);
}

static const json_t *glitch(const json_t *rep, size_t i)
{
    const json_t *g = json_array_get(json_object_get(rep, "glitches"), i);
    assert_non_null(g);
    return g;
}

static const char *kind(const json_t *g)
{
    return json_string_value(json_object_get(g, "kind"));
}

static void assert_near(json_int_t got, json_int_t want, json_int_t tol)
{
    if (got < want - tol || got > want + tol)
        fail_msg("got %lld, want %lld +- %lld", (long long)got, (long long)want, (long long)tol);
}

static void one_glitch(const json_t *rep, const char *k, uint64_t p)
{
    assert_int_equal(ival(rep, "glitch_count"), 1);
    const json_t *g = glitch(rep, 0);
    assert_string_equal(kind(g), k);
    assert_near(ival(g, "pos"), (json_int_t)p, PER);
}

/* No glitch on a clean loop; the latency is L exactly, for latencies on and off the period grid. */
static void test_clean_latencies(void **state)
{
    (void)state;
    static const int64_t lats[] = { 0, 1, 63, 64, 300, 1000, 4801, 9599 };
    for (size_t i = 0; i < sizeof(lats) / sizeof(lats[0]); i++) {
        struct cap *c = cap_new(lats[i]);
        json_t *rep;
        struct lb *a = run(c, -1, NULL, &rep);
        assert_true(json_is_true(json_object_get(rep, "locked")));
        assert_int_equal(ival(rep, "latency.frames"), lats[i]);
        assert_int_equal(ival(rep, "glitch_count"), 0);
        assert_false(json_is_true(json_object_get(rep, "latency_shifted")));
        /* nearly everything after the first window is compared */
        assert_true(ival(rep, "frames_checked") > (json_int_t)(N - lats[i] - 2 * LB_WIN));
        json_decref(rep);
        lb_free(a);
        free(c);
    }
}

static void test_dropout(void **state)
{
    (void)state;
    static const struct { int64_t lat; uint64_t p; int64_t k; } t[] = {
        { 300, 20000, 50 }, { 1000, 50017, 1 }, { 777, 70000, 64 }, { 4801, 33333, 480 },
    };
    for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
        struct cap *c = cap_new(t[i].lat);
        cap_shift(c, t[i].p, t[i].k);
        json_t *rep;
        struct lb *a = run(c, -1, NULL, &rep);
        assert_int_equal(ival(rep, "latency.frames"), t[i].lat);
        one_glitch(rep, "dropped", t[i].p);
        const json_t *g = glitch(rep, 0);
        assert_int_equal(ival(g, "length_frames"), t[i].k);
        assert_int_equal(ival(g, "latency_after"), t[i].lat - t[i].k);
        assert_true(json_is_true(json_object_get(g, "latency_shifted")));
        assert_int_equal(ival(rep, "latency_now_frames"), t[i].lat - t[i].k);
        json_decref(rep);
        lb_free(a);
        free(c);
    }
}

static void test_repeat(void **state)
{
    (void)state;
    struct cap *c = cap_new(300);
    cap_shift(c, 40000, -37);
    json_t *rep;
    struct lb *a = run(c, -1, NULL, &rep);
    one_glitch(rep, "repeated", 40000);
    assert_int_equal(ival(glitch(rep, 0), "length_frames"), 37);
    assert_int_equal(ival(glitch(rep, 0), "latency_after"), 337);
    json_decref(rep);
    lb_free(a);
    free(c);
}

/* A stale period replayed where the next one should be, then the old alignment again. */
static void test_stale_block(void **state)
{
    (void)state;
    struct cap *c = cap_new(500);
    for (uint64_t q = 30000; q < 30000 + PER; q++)
        c->refpos[q] -= PER;
    json_t *rep;
    struct lb *a = run(c, -1, NULL, &rep);
    one_glitch(rep, "repeated", 30000);
    assert_near(ival(glitch(rep, 0), "length_frames"), PER, 4);
    assert_int_equal(ival(glitch(rep, 0), "latency_after"), 500);
    assert_false(json_is_true(json_object_get(rep, "latency_shifted")));
    json_decref(rep);
    lb_free(a);
    free(c);
}

static void test_silence_and_click(void **state)
{
    (void)state;
    struct cap *c = cap_new(123);
    for (uint64_t q = 25000; q < 25000 + 2 * PER; q++)
        c->refpos[q] = -1;
    c->add[60001] = 0.5f;
    json_t *rep;
    struct lb *a = run(c, -1, NULL, &rep);
    assert_int_equal(ival(rep, "glitch_count"), 2);
    assert_string_equal(kind(glitch(rep, 0)), "silence");
    assert_near(ival(glitch(rep, 0), "pos"), 25000, 4);
    assert_near(ival(glitch(rep, 0), "length_frames"), 2 * PER, 4);
    assert_int_equal(ival(glitch(rep, 0), "latency_after"), 123);
    assert_string_equal(kind(glitch(rep, 1)), "click");
    assert_int_equal(ival(glitch(rep, 1), "pos"), 60001);
    assert_true(ival(glitch(rep, 1), "length_frames") <= 2);
    /* per phase: the first half is phase 0, the second phase 1 */
    assert_int_equal(ival(json_array_get(json_object_get(rep, "phases"), 0), "glitches"), 1);
    assert_int_equal(ival(json_array_get(json_object_get(rep, "phases"), 1), "glitches"), 1);
    assert_int_equal(ival(rep, "latency.frames"), 123);
    json_decref(rep);
    lb_free(a);
    free(c);
}

/* A silence after which the loop comes back 200 frames later: the latency shifted, and the report says so. */
static void test_shift_after_silence(void **state)
{
    (void)state;
    struct cap *c = cap_new(1000);
    for (uint64_t q = 40000; q < 40000 + 3 * PER; q++)
        c->refpos[q] = -1;
    cap_shift(c, 40000 + 3 * PER, -200);
    json_t *rep;
    struct lb *a = run(c, -1, NULL, &rep);
    one_glitch(rep, "silence", 40000);
    assert_int_equal(ival(glitch(rep, 0), "latency_after"), 1200);
    assert_true(json_is_true(json_object_get(rep, "latency_shifted")));
    assert_non_null(json_string_value(json_object_get(rep, "latency_shift_note")));
    const json_t *k = json_array_get(json_object_get(rep, "latency_checks"), 0);
    assert_int_equal(ival(k, "frames"), 1200);
    assert_true(json_is_true(json_object_get(k, "shifted")));
    json_decref(rep);
    lb_free(a);
    free(c);
}

/* Noise from the reference's own unrelated stretch (garbage) long enough to lose sync, then a new latency. */
static void test_lost_sync(void **state)
{
    (void)state;
    struct cap *c = cap_new(400);
    uint32_t s = 12345;
    for (uint64_t q = 30000; q < 40000; q++) {
        c->refpos[q] = -1;
        s = s * 1664525u + 1013904223u;
        c->add[q] = ((float)(s >> 8) / (float)(1u << 24) - 0.5f) * 0.4f;
    }
    cap_shift(c, 40000, 1000);    /* back at latency -600?  no: 400 - 1000 < 0 is impossible; use +300 */
    cap_shift(c, 40000, -1300);   /* net -300: latency 700 after */
    json_t *rep;
    struct lb *a = run(c, -1, NULL, &rep);
    one_glitch(rep, "lost_sync", 30000);
    assert_int_equal(ival(glitch(rep, 0), "latency_after"), 700);
    assert_near(ival(glitch(rep, 0), "length_frames"), 10000, 4);
    assert_int_equal(ival(json_array_get(json_object_get(rep, "latency_checks"), 0), "frames"), 700);
    assert_int_equal(ival(rep, "latency_now_frames"), 700);
    json_decref(rep);
    lb_free(a);
    free(c);
}

/* A cable: gain, polarity, noise. The tolerance follows the level: no false glitch, the dropout found. */
static void test_cable(void **state)
{
    (void)state;
    static const double gains[] = { 0.5, -0.7, 0.05 };
    for (size_t i = 0; i < 3; i++) {
        struct cap *c = cap_new(777);
        c->gain = gains[i];
        uint64_t s = 99 + i;
        for (uint64_t q = 0; q < N; q++) {     /* Gaussian noise, 40 dB under the signal, Box-Muller */
            s = s * 6364136223846793005ull + 1442695040888963407ull;
            double u1 = ((s >> 11) + 1.0) / 9007199254740993.0;
            s = s * 6364136223846793005ull + 1442695040888963407ull;
            double u2 = (s >> 11) / 9007199254740992.0;
            c->add[q] = (float)(fabs(gains[i]) * 0.0013 * sqrt(-2 * log(u1)) * cos(2 * M_PI * u2));
        }
        cap_shift(c, 60000, 100);
        json_t *rep;
        struct lb *a = run(c, -1, NULL, &rep);
        assert_int_equal(ival(rep, "latency.frames"), 777);
        /* a whole number of frames: no fraction, whatever the polarity */
        assert_true(fabs(json_real_value(json_object_get(json_object_get(rep, "latency"), "frames_exact")) - 777)
                    < 0.02);
        one_glitch(rep, "dropped", 60000);
        assert_int_equal(ival(glitch(rep, 0), "length_frames"), 100);
        json_decref(rep);
        lb_free(a);
        free(c);
    }
}

/* The shape of a JACK stall on an internal loop (period 256, loop delay one period + 7): rtjitter's callback
 * misses 3 cycles, so its positions jump (those frames are never captured: a hole) while the loop client goes on
 * and plays rtjitter's stale output buffer (the last period it wrote) three times, which comes back one round
 * trip later. One glitch per stall, where the stale audio starts to be heard (within one period), latency
 * unchanged. */
static void test_jack_stall_shape(void **state)
{
    (void)state;
    enum { P = 256, L = 263 };
    static const uint64_t stalls[] = { 80, 150 };   /* first skipped cycle */
    struct cap *c = cap_new(L);
    for (size_t s = 0; s < 2; s++) {
        uint64_t k = stalls[s];
        for (uint64_t q = k * P + L; q < (k + 3) * P + L; q++)
            c->refpos[q] = (int64_t)((k - 1) * P + (q - L - k * P) % P);
    }
    cap_render(c);
    struct lb_config cfg = { RATE, P, RATE / 5, -1, NULL, NULL, NULL };
    char err[200];
    struct lb *a = lb_new(&cfg, err, sizeof(err));
    assert_non_null(a);
    for (uint64_t b = 0; b * P < N; b++) {
        if ((b >= stalls[0] && b < stalls[0] + 3) || (b >= stalls[1] && b < stalls[1] + 3))
            continue;      /* never ran: nothing captured */
        lb_feed(a, b * P, c->out + b * P, P, b, 0, 0, 1);
    }
    json_t *rep = lb_report(a);
    assert_int_equal(ival(rep, "latency.frames"), L);
    assert_int_equal(ival(rep, "glitch_count"), 2);
    for (size_t s = 0; s < 2; s++) {
        const json_t *g = glitch(rep, s);
        /* the first stale frame captured: the hole ends at (k+3)P, the stale audio began at kP + L */
        assert_near(ival(g, "pos"), (json_int_t)((stalls[s] + 3) * P), P);
        assert_int_equal(ival(g, "latency_after"), L);
        assert_false(json_is_true(json_object_get(g, "latency_shifted")));
    }
    assert_int_equal(ival(rep, "gap_frames"), 6 * P);
    json_decref(rep);
    lb_free(a);
    free(c);
}

/* Two JACK stalls a cycle apart on the internal loop (latency one period: each cycle captures the output of the
 * cycle before): a short one (cycle k skipped, then k+1 captures the stale output of k-1) and, at once, a long
 * one (k+2..k+4 skipped, then k+5 captures the stale output of k+1), or the same with 3 right cycles between
 * them. They are two disruptions, each at its own cycle: two glitches, at (k+1)P and at the long stall's first
 * cycle after it, not one stretch from the first (a stall's glitch must not be placed at an earlier xrun's cycle). Their times (t_ns) are the capturing cycles'
 * entry times, given here independently of the positions; t_play_ns is the cycle that played the frame expected
 * there (the one before), or null when that cycle never ran. */
static void stalls_back_to_back(unsigned clean)
{
    enum { P = 256, L = 256, K = 100 };
    const uint64_t b2 = K + 2 + clean;  /* the long stall's first skipped cycle */
    struct cap *c = cap_new(L);
    for (uint64_t i = 0; i < P; i++) {
        c->refpos[(K + 1) * P + i] = (int64_t)((K - 1) * P + i);
        c->refpos[(b2 + 3) * P + i] = (int64_t)((b2 - 1) * P + i);
    }
    cap_render(c);
    struct lb_config cfg = { RATE, P, RATE / 5, -1, NULL, NULL, NULL };
    char err[200];
    struct lb *a = lb_new(&cfg, err, sizeof(err));
    assert_non_null(a);
    for (uint64_t b = 0; b * P < N; b++) {
        if (b == K || (b >= b2 && b < b2 + 3))
            continue;      /* never ran: nothing captured */
        lb_feed(a, b * P, c->out + b * P, P, b, 1000000000LL + (int64_t)b * 7000000, 0, 1); /* 7 ms a cycle */
    }
    json_t *rep = lb_report(a);
    assert_int_equal(ival(rep, "latency.frames"), L);
    assert_int_equal(ival(rep, "glitch_count"), 2);
    const uint64_t at[2] = { K + 1, b2 + 3 };
    for (size_t s = 0; s < 2; s++) {
        const json_t *g = glitch(rep, s);
        assert_near(ival(g, "pos"), (json_int_t)(at[s] * P), 0);
        assert_string_equal(kind(g), "repeated");
        assert_int_equal(ival(g, "length_frames"), P);
        assert_int_equal(ival(g, "latency_after"), L);
        assert_int_equal(ival(g, "t_ns"), 1000000000LL + (json_int_t)at[s] * 7000000);
        /* the frame expected there was played in the cycle before, which never ran (skipped) */
        assert_true(json_is_null(json_object_get(g, "t_play_ns")));
    }
    json_decref(rep);
    lb_free(a);
    free(c);
}

static void test_stalls_back_to_back(void **state)
{
    (void)state;
    stalls_back_to_back(0);   /* no right frame between them */
    stalls_back_to_back(3);   /* 3 right cycles between them: less than a window to be in sync again on */
}

/* The frame clock steps back a period once (jack2 read while recovering): the output took the same positions,
 * so the capture replays a period; the loop stays locked, and a stall a few cycles later is still found at its
 * own cycle (it must not fall into a new lock search). */
static void test_step_back(void **state)
{
    (void)state;
    enum { P = 256, L = 256, K = 100 };
    struct cap *c = cap_new(L);
    cap_render(c);
    struct lb_config cfg = { RATE, P, RATE / 5, -1, NULL, NULL, NULL };
    char err[200];
    struct lb *a = lb_new(&cfg, err, sizeof(err));
    assert_non_null(a);
    /* cycles 0..K at their positions, then cycle K again (position K*P: a step back), then on; cycles K+3..K+5
     * skipped (less than a lock window after the step back) and K+6 captures the stale output of K+1 */
    float stale[P];
    for (uint64_t i = 0; i < P; i++)
        stale[i] = loopsig_at((K + 1) * P + i);
    for (uint64_t b = 0; b * P < N; b++) {
        if (b >= K + 3 && b <= K + 5)
            continue;
        lb_feed(a, b * P, b == K + 6 ? stale : c->out + b * P, P, b, (int64_t)b * 7000000, 0, 1);
        if (b == K)
            lb_feed(a, b * P, c->out + b * P, P, b, (int64_t)b * 7000000, 0, 1);
    }
    json_t *rep = lb_report(a);
    assert_int_equal(ival(rep, "position_resets"), 1);
    assert_int_equal(ival(rep, "glitch_count"), 1);
    assert_int_equal(ival(glitch(rep, 0), "pos"), (K + 6) * P);
    json_decref(rep);
    lb_free(a);
    free(c);
}

/* The played time of a glitch: a stale block with no hole, one period after the frame expected was played. */
static void test_play_time(void **state)
{
    (void)state;
    enum { P = 256, L = 256, K = 100 };
    struct cap *c = cap_new(L);
    for (uint64_t i = 0; i < P; i++)
        c->refpos[K * P + i] = (int64_t)((K - 2) * P + i);
    cap_render(c);
    struct lb_config cfg = { RATE, P, RATE / 5, -1, NULL, NULL, NULL };
    char err[200];
    struct lb *a = lb_new(&cfg, err, sizeof(err));
    assert_non_null(a);
    for (uint64_t b = 0; b * P < N; b++)
        lb_feed(a, b * P, c->out + b * P, P, b, 1000000000LL + (int64_t)b * 7000000, 0, 1);
    json_t *rep = lb_report(a);
    assert_int_equal(ival(rep, "glitch_count"), 1);
    const json_t *g = glitch(rep, 0);
    assert_int_equal(ival(g, "pos"), K * P);
    assert_int_equal(ival(g, "t_ns"), 1000000000LL + K * 7000000LL);
    assert_int_equal(ival(g, "t_play_ns"), 1000000000LL + (K - 1) * 7000000LL);
    json_decref(rep);
    lb_free(a);
    free(c);
}

/* A cable that delays by a fraction of a frame too (an ideal fractional delay built here: a Hann-windowed sinc
 * of 129 taps) with noise 50 dB under the signal: the whole frames by correlation, the fraction from the tone's
 * phase within 0.02 frame of the truth, no false glitch, and a dropout still found. */
static void test_fractional_delay(void **state)
{
    (void)state;
    static const double fr[] = { 0.25, 0.5, 0.75 };
    enum { HALF = 64 };
    for (size_t t = 0; t < 3; t++) {
        const int64_t L = 500;
        struct cap *c = cap_new(L);
        static double w[2 * HALF + 1];
        for (int j = -HALF; j <= HALF; j++) {
            double x = j - fr[t];
            w[j + HALF] = (x == 0 ? 1 : sin(M_PI * x) / (M_PI * x)) * (0.5 + 0.5 * cos(M_PI * j / (HALF + 1)));
        }
        uint64_t s = 5 + t;
        for (uint64_t q = 0; q < N; q++) {
            /* the edit: from 60000 on, 80 frames of the signal never arrive */
            int64_t base = (int64_t)q - L + (q >= 60000 ? 80 : 0);
            double v = 0;
            for (int j = -HALF; j <= HALF; j++)
                if (base - j >= 0)
                    v += 0.8 * w[j + HALF] * loopsig_at((uint64_t)(base - j));
            s = s * 6364136223846793005ull + 1442695040888963407ull;
            v += 0.8 * 0.0004 * ((double)(s >> 11) / 9007199254740992.0 - 0.5) * 3.46;
            c->add[q] = (float)v;
            c->refpos[q] = -1;
        }
        json_t *rep;
        struct lb *a = run(c, -1, NULL, &rep);
        double exact = json_real_value(json_object_get(json_object_get(rep, "latency"), "frames_exact"));
        fprintf(stderr, "fraction %.2f: frames %lld, exact %.3f, residual %g dB\n", fr[t],
                (long long)ival(rep, "latency.frames"), exact,
                json_number_value(json_object_get(json_object_get(rep, "match"), "residual_db")));
        assert_near(ival(rep, "latency.frames"), L + (fr[t] > 0.5), fr[t] == 0.5);
        assert_true(fabs(exact - (L + fr[t])) < 0.02);
        one_glitch(rep, "dropped", 60000);
        assert_int_equal(ival(glitch(rep, 0), "length_frames"), 80);
        json_decref(rep);
        lb_free(a);
        free(c);
    }
}

/* A glitch in the last frames of the capture, with too little after it to see the signal come back: a stale
 * period is still named (repeated), noise is "unresolved", not a loss of sync. */
static void test_glitch_at_end(void **state)
{
    (void)state;
    for (int t = 0; t < 2; t++) {
        struct cap *c = cap_new(300);
        uint32_t s = 99;
        for (uint64_t q = N - 200; q < N; q++) {
            if (t == 0) {
                c->refpos[q] -= PER;
            } else {
                c->refpos[q] = -1;
                s = s * 1664525u + 1013904223u;
                c->add[q] = ((float)(s >> 8) / (float)(1u << 24) - 0.5f) * 0.4f;
            }
        }
        json_t *rep;
        struct lb *a = run(c, -1, NULL, &rep);
        one_glitch(rep, t == 0 ? "repeated" : "unresolved", N - 200);
        assert_true(json_is_null(json_object_get(glitch(rep, 0), "latency_after")));
        json_decref(rep);
        lb_free(a);
        free(c);
    }
}

/* Frames lost on the way (lb_lost, a hole in the positions) are counted, never a glitch. */
static void test_lost_frames(void **state)
{
    (void)state;
    struct cap *c = cap_new(300);
    cap_render(c);
    struct lb_config cfg = { RATE, PER, RATE / 5, -1, NULL, NULL, NULL };
    char err[200];
    struct lb *a = lb_new(&cfg, err, sizeof(err));
    assert_non_null(a);
    for (uint64_t b = 0; b * PER < N; b++) {
        if (b % 100 == 50) {
            lb_lost(a, b * PER, PER);
            continue;
        }
        lb_feed(a, b * PER, c->out + b * PER, PER, b, 0, 0, 1);
    }
    json_t *rep = lb_report(a);
    assert_int_equal(ival(rep, "glitch_count"), 0);
    assert_int_equal(ival(rep, "lost_frames"), (json_int_t)(N / PER / 100) * PER);
    assert_int_equal(ival(rep, "gap_frames"), (json_int_t)(N / PER / 100) * PER);
    assert_int_equal(ival(rep, "latency.frames"), 300);
    json_decref(rep);
    lb_free(a);
    free(c);
}

static void test_no_signal(void **state)
{
    (void)state;
    struct cap *c = cap_new(0);
    for (uint64_t q = 0; q < N; q++)
        c->refpos[q] = -1;
    json_t *rep;
    struct lb *a = run(c, -1, NULL, &rep);
    assert_false(json_is_true(json_object_get(rep, "locked")));
    assert_non_null(json_string_value(json_object_get(rep, "lock_error")));
    assert_true(json_is_null(json_object_get(json_object_get(rep, "latency"), "frames")));
    json_decref(rep);
    lb_free(a);
    free(c);
}

static void test_bad_config(void **state)
{
    (void)state;
    char err[200];
    struct lb_config bad[] = {
        { 0, 64, 100, -1, NULL, NULL, NULL }, { 48000, 0, 100, -1, NULL, NULL, NULL },
        { 48000, 64, 0, -1, NULL, NULL, NULL }, { 48000, 64, 48000 * 11, -1, NULL, NULL, NULL },
        { 48000, 64, 100, -1, "x.mp3", NULL, NULL },
        { 48000, 64, 100, -1, "/nonexistent-dir-rtj/x.wav", NULL, NULL },
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        err[0] = 0;
        assert_null(lb_new(&bad[i], err, sizeof(err)));
        assert_true(err[0] != 0);
        assert_null(strchr(err, '\n'));
    }
}

/* The WAV of a dropout, read back: 2 channels, the rate, ~100 ms, float; its channels (capture, reference at
 * the latency before) agree bit for bit up to the place the frames were removed, and not after. */
static void test_wav(void **state)
{
    (void)state;
    struct cap *c = cap_new(300);
    cap_shift(c, 20000, 50);
    cap_shift(c, 80000, -40);
    json_t *rep;
    struct lb *a = run(c, wav_dir, NULL, &rep);
    assert_int_equal(ival(rep, "glitch_count"), 2);
    assert_int_equal(ival(rep, "wavs.written"), 2);
    static const uint64_t where[2] = { 20000, 80000 };
    for (int i = 0; i < 2; i++) {
        const json_t *g = glitch(rep, (size_t)i);
        const char *name = json_string_value(json_object_get(g, "wav"));
        assert_non_null(name);
        assert_true(json_is_null(json_object_get(g, "wav_error")));
        assert_true(json_is_null(json_object_get(g, "wav_cut")));   /* it holds its whole context */
        char path[400];
        snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
        SF_INFO info = { 0 };
        SNDFILE *sf = sf_open(path, SFM_READ, &info);
        assert_non_null(sf);
        assert_int_equal(info.channels, 2);
        assert_int_equal(info.samplerate, RATE);
        assert_int_equal(info.format, SF_FORMAT_WAV | SF_FORMAT_FLOAT);
        assert_int_equal(info.frames, RATE / 10);
        float *buf = malloc(sizeof(float) * 2 * (size_t)info.frames);
        assert_int_equal(sf_readf_float(sf, buf, info.frames), info.frames);
        sf_close(sf);
        /* the file's first frame is at capture position start_pos (in the excerpt) */
        json_int_t start = ival(g, "excerpt.start_pos");
        assert_int_equal(start, (json_int_t)where[i] - RATE / 20);
        sf_count_t first = -1;
        for (sf_count_t k = 0; k < info.frames && first < 0; k++)
            if (buf[2 * k] != buf[2 * k + 1])
                first = k;
        /* the first differing frame is where the edit is, give or take frames that agree by chance */
        assert_near(first + start, (json_int_t)where[i], 3);
        /* and the capture channel is the capture: truth from the construction */
        for (sf_count_t k = 0; k < info.frames; k++)
            assert_true(buf[2 * k] == c->out[start + k]);
        free(buf);
        /* the excerpt marks the glitch */
        assert_near(ival(g, "excerpt.glitch_point"), (RATE / 20) / ival(g, "excerpt.frames_per_point"), 1);
        assert_int_equal(json_array_size(json_object_get(json_object_get(g, "excerpt"), "capture_max")),
                         LB_EX_POINTS);
    }
    json_decref(rep);
    lb_free(a);
    free(c);
}

/* A capture whose loop jumps 50 frames at position g, and a loopback analyzer writing WAVs into wav_dir. */
static struct lb *shifted_at(uint64_t g, struct cap **out)
{
    struct cap *c = cap_new(300);
    cap_shift(c, g, 50);
    cap_render(c);
    struct lb_config cfg = { RATE, PER, RATE / 5, wav_dir, NULL, NULL, NULL };
    char err[200] = "";
    struct lb *a = lb_new(&cfg, err, sizeof(err));
    assert_non_null(a);
    *out = c;
    return a;
}

/* The WAV a listed glitch names, open for reading. */
static SNDFILE *wav_of(const json_t *g, SF_INFO *info)
{
    const char *name = json_string_value(json_object_get(g, "wav"));
    assert_non_null(name);
    char path[400];
    snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
    SNDFILE *sf = sf_open(path, SFM_READ, info);
    assert_non_null(sf);
    return sf;
}

/* A glitch that a long hole follows (the capture's positions jump by hsize/4 or more before the glitch is resolved:
 * the host stalled the machine, the server skipped cycles) is named at once; its WAV still holds 50 ms after it,
 * the hole's frames as zeros (never captured), not a WAV cut short at the hole as if the run had ended there. */
static void test_wav_hole_after(void **state)
{
    (void)state;
    struct cap *c;
    const uint64_t G = 20000;
    struct lb *a = shifted_at(G, &c);
    const uint64_t h0 = (G / PER + 2) * PER, h1 = h0 + ((a->hsize / 4) / PER + 10) * PER; /* the hole [h0, h1) */
    assert_true(h1 < N);
    for (uint64_t b = 0; b * PER < N; b++)
        if (b * PER < h0 || b * PER >= h1)
            lb_feed(a, b * PER, c->out + b * PER, PER, b, (int64_t)b * 1333333, 0, 1);
    json_t *rep = lb_report(a);
    assert_non_null(rep);
    const json_t *g = glitch(rep, 0);
    assert_near(ival(g, "pos"), (json_int_t)G, 3);
    SF_INFO info = { 0 };
    SNDFILE *sf = wav_of(g, &info);
    assert_int_equal(info.frames, RATE / 10);   /* 50 ms each side, the hole's part included */
    float *buf = malloc(sizeof(float) * 2 * (size_t)info.frames);
    assert_int_equal(sf_readf_float(sf, buf, info.frames), info.frames);
    sf_close(sf);
    json_int_t start = ival(g, "excerpt.start_pos");
    for (sf_count_t k = 0; k < info.frames; k++) {
        uint64_t q = (uint64_t)start + (uint64_t)k;
        assert_true(buf[2 * k] == (q < h0 ? c->out[q] : 0.0f));   /* the truth: what was fed, zeros in the hole */
    }
    free(buf);
    json_decref(rep);
    lb_free(a);
    free(c);
}

/* A glitch waiting for what follows it when the frame clock steps back a period (jack2's, read while the server
 * recovers) is named with the capture that came before the step: its WAV holds less than 50 ms after it, and the
 * report says why (wav_cut), as for a glitch at the run's end; a glitch with its whole context says nothing. */
static void test_wav_step_back(void **state)
{
    (void)state;
    struct cap *c;
    const uint64_t G = 20000;
    struct lb *a = shifted_at(G, &c);
    const uint64_t back = (G / PER + 2) * PER;  /* the capture's end when the clock steps back a period */
    uint64_t b;
    for (b = 0; b * PER < back; b++)
        lb_feed(a, b * PER, c->out + b * PER, PER, b, (int64_t)b * 1333333, 0, 1);
    for (uint64_t p = back - PER; p + PER <= N; p += PER, b++)
        lb_feed(a, p, c->out + p, PER, b, (int64_t)b * 1333333, 0, 1);
    json_t *rep = lb_report(a);
    assert_non_null(rep);
    const json_t *g = glitch(rep, 0);
    assert_near(ival(g, "pos"), (json_int_t)G, 3);
    assert_string_equal(json_string_value(json_object_get(g, "wav_cut")), "the frame clock went back");
    SF_INFO info = { 0 };
    SNDFILE *sf = wav_of(g, &info);
    sf_close(sf);
    assert_int_equal(info.frames, (sf_count_t)(back - (uint64_t)ival(g, "excerpt.start_pos")));
    for (size_t i = 1; i < json_array_size(json_object_get(rep, "glitches")); i++)
        if (ival(glitch(rep, i), "pos") + RATE / 10 < (json_int_t)N)
            assert_true(json_is_null(json_object_get(glitch(rep, i), "wav_cut")));
    json_decref(rep);
    lb_free(a);
    free(c);
}

static int open_dev_full(int dirfd, const char *name)
{
    (void)dirfd;
    (void)name;
    return open("/dev/full", O_WRONLY | O_CLOEXEC);
}

/* A full disk while writing WAVs: the analysis goes on, each glitch says it has no recording and why. */
static void test_wav_full_disk(void **state)
{
    (void)state;
    struct cap *c = cap_new(300);
    cap_shift(c, 20000, 50);
    c->add[70000] = -0.6f;
    json_t *rep;
    int (*saved)(int, const char *) = lb_wav_openat;
    lb_wav_openat = open_dev_full;
    struct lb *a = run(c, wav_dir, NULL, &rep);
    lb_wav_openat = saved;
    assert_int_equal(ival(rep, "glitch_count"), 2);
    assert_string_equal(kind(glitch(rep, 1)), "click");
    assert_int_equal(ival(rep, "wavs.failed"), 2);
    assert_int_equal(ival(rep, "wavs.written"), 0);
    for (size_t i = 0; i < 2; i++) {
        assert_true(json_is_null(json_object_get(glitch(rep, i), "wav")));
        assert_string_equal(json_string_value(json_object_get(glitch(rep, i), "wav_error")),
                            strerror(ENOSPC));
    }
    json_decref(rep);
    lb_free(a);
    free(c);
}

/* --record, WAV and FLAC: the whole capture read back (holes as zeros); a user's file is replaced only once
 * the recording is complete. */
static void test_record(void **state)
{
    (void)state;
    static const char *const names[] = { "rec.wav", "rec.flac" };
    for (int i = 0; i < 2; i++) {
        char path[400];
        snprintf(path, sizeof(path), "%s/%s", tmpdir, names[i]);
        FILE *old = fopen(path, "w");
        assert_non_null(old);
        fputs("the user's old file\n", old);
        fclose(old);
        struct cap *c = cap_new(200);
        cap_render(c);
        struct lb_config cfg = { RATE, PER, RATE / 5, -1, path, NULL, NULL };
        char err[200];
        struct lb *a = lb_new(&cfg, err, sizeof(err));
        assert_non_null(a);
        for (uint64_t b = 0; b * PER < N; b++)
            if (b != 10)
                lb_feed(a, b * PER, c->out + b * PER, PER, b, 0, 0, 1);
        /* not finished yet: the old file is still there, whole */
        SF_INFO info = { 0 };
        assert_null(sf_open(path, SFM_READ, &info));
        json_t *rep = lb_report(a);
        assert_true(json_is_null(json_object_get(rep, "record_error")));
        assert_int_equal(ival(rep, "record.frames"), N);
        SNDFILE *sf = sf_open(path, SFM_READ, &info);
        assert_non_null(sf);
        assert_int_equal(info.channels, 1);
        assert_int_equal(info.samplerate, RATE);
        assert_int_equal(info.frames, N);
        float *buf = malloc(sizeof(float) * N);
        assert_int_equal(sf_readf_float(sf, buf, N), N);
        sf_close(sf);
        double tol = i == 0 ? 0 : 2.0 / (1 << 23);
        for (uint64_t q = 0; q < N; q++) {
            float want = q / PER == 10 ? 0.0f : c->out[q];
            if (fabs(buf[q] - want) > tol)
                fail_msg("%s frame %llu: %g, want %g", names[i], (unsigned long long)q, buf[q], want);
        }
        free(buf);
        json_decref(rep);
        lb_free(a);
        free(c);
    }
}

struct notes {
    int n;
    char last[1024];
};

static void note_kept(const char *line, void *arg)
{
    struct notes *w = arg;
    w->n++;
    snprintf(w->last, sizeof(w->last), "%s", line);
}

/* --record beside a temporary file a dead run left (no lock held on it): removed, and the line that says so goes to
 * the caller's note (the analyzer prints nothing itself); a name that is not one of ours stays. */
static void test_record_leftover(void **state)
{
    (void)state;
    char path[400], dead[600], other[600];
    snprintf(path, sizeof(path), "%s/rec.wav", tmpdir);
    snprintf(dead, sizeof(dead), "%s/.rec.wav.tmp-0123456789ab", tmpdir);
    snprintf(other, sizeof(other), "%s/.rec.wav.tmp-0123456789AB", tmpdir);
    for (const char *f = dead; f; f = f == dead ? other : NULL) {
        FILE *o = fopen(f, "w");
        assert_non_null(o);
        fputs("half a take\n", o);
        fclose(o);
    }
    struct notes w = { 0 };
    struct lb_config cfg = { RATE, PER, RATE / 5, -1, path, note_kept, &w };
    char err[200];
    struct lb *a = lb_new(&cfg, err, sizeof(err));
    assert_non_null(a);
    assert_int_equal(w.n, 1);
    assert_non_null(strstr(w.last, "--record: removed "));
    assert_non_null(strstr(w.last, ".rec.wav.tmp-0123456789ab, a recording a run that died left unfinished"));
    assert_null(strchr(w.last, '\n'));
    assert_int_equal(access(dead, F_OK), -1);
    assert_int_equal(access(other, F_OK), 0);
    lb_free(a);
    unlink(other);
}

/* --record in a run that stopped early (lb_set_partial): the user's older file keeps every byte; the capture is
 * linked under REC.partial-<UTC time>.EXT, and when every name the next seconds could give is taken (decoys, each
 * left as it was), under the first free -N of it; libsndfile reads it back whole; no temporary file stays. */
static void test_record_partial(void **state)
{
    (void)state;
    char path[400], name[64], dpath[600];
    snprintf(path, sizeof(path), "%s/rec.flac", tmpdir);
    FILE *old = fopen(path, "w");
    assert_non_null(old);
    fputs("the user's older take\n", old);
    fclose(old);
    time_t now = time(NULL);
    for (int s = 0; s < 10; s++) {     /* the run below ends within 10 s (it takes milliseconds) */
        time_t t = now + s;
        struct tm tm;
        gmtime_r(&t, &tm);
        strftime(name, sizeof(name), "rec.partial-%Y%m%dT%H%M%SZ.flac", &tm);
        snprintf(dpath, sizeof(dpath), "%s/%s", tmpdir, name);
        FILE *d = fopen(dpath, "w");
        assert_non_null(d);
        fprintf(d, "decoy %d\n", s);
        fclose(d);
    }
    struct cap *c = cap_new(200);
    cap_render(c);
    struct lb_config cfg = { RATE, PER, RATE / 5, -1, path, NULL, NULL };
    char err[200];
    struct lb *a = lb_new(&cfg, err, sizeof(err));
    assert_non_null(a);
    for (uint64_t b = 0; b * PER < N / 2; b++)
        lb_feed(a, b * PER, c->out + b * PER, PER, b, 0, 0, 1);
    lb_set_partial(a);
    json_t *rep = lb_report(a);
    assert_true(json_is_null(json_object_get(rep, "record_error")));
    json_t *rec = json_object_get(rep, "record");
    assert_true(json_is_true(json_object_get(rec, "partial")));
    assert_string_equal(json_string_value(json_object_get(rec, "requested_path")), path);
    const char *kept = json_string_value(json_object_get(rec, "path"));
    assert_non_null(kept);
    /* REC.partial-<time>-N.flac, N >= 2: the plain name of its second was a decoy */
    const char *base = strrchr(kept, '/') + 1;
    assert_int_equal(strncmp(base, "rec.partial-", 12), 0);
    assert_non_null(strstr(base, "Z-"));
    assert_string_equal(base + strlen(base) - 5, ".flac");
    char buf[64] = "";
    old = fopen(path, "r");
    assert_non_null(old);
    assert_non_null(fgets(buf, sizeof(buf), old));
    fclose(old);
    assert_string_equal(buf, "the user's older take\n");
    for (int s = 0; s < 10; s++) {
        time_t t = now + s;
        struct tm tm;
        gmtime_r(&t, &tm);
        strftime(name, sizeof(name), "rec.partial-%Y%m%dT%H%M%SZ.flac", &tm);
        snprintf(dpath, sizeof(dpath), "%s/%s", tmpdir, name);
        char want[32], got[32] = "";
        snprintf(want, sizeof(want), "decoy %d\n", s);
        FILE *d = fopen(dpath, "r");
        assert_non_null(d);
        assert_non_null(fgets(got, sizeof(got), d));
        fclose(d);
        assert_string_equal(got, want);
    }
    SF_INFO info = { 0 };
    SNDFILE *sf = sf_open(kept, SFM_READ, &info);
    assert_non_null(sf);
    assert_int_equal(info.frames, ival(rep, "record.frames"));
    assert_true(info.frames >= N / 2 - PER && info.frames <= N / 2 + PER);
    sf_close(sf);
    char cmd[600];
    snprintf(cmd, sizeof(cmd), "! ls -A '%s' | grep -q '\\.tmp-'", tmpdir);
    assert_int_equal(system(cmd), 0);
    json_decref(rep);
    lb_free(a);
    free(c);
}

/* --record fails half-way (a file size limit: the kernel refuses the writes past it, EFBIG): the analysis goes
 * on (the dropout is still found), the report says the recording was not written and why, and the user's
 * old file at that name is left as it was. In a child process, whose limit dies with it. */
static void test_record_fails(void **state)
{
    (void)state;
    char path[400];
    snprintf(path, sizeof(path), "%s/rec.wav", tmpdir);
    FILE *old = fopen(path, "w");
    assert_non_null(old);
    fputs("old\n", old);
    fclose(old);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        signal(SIGXFSZ, SIG_IGN);
        struct rlimit rl = { 100000, 100000 };
        if (setrlimit(RLIMIT_FSIZE, &rl) != 0)
            _exit(10);
        struct cap *c = cap_new(300);
        cap_shift(c, 60000, 30);
        json_t *rep;
        (void)run(c, -1, path, &rep);     /* the child exits: its memory goes with it */
        const char *why = json_string_value(json_object_get(rep, "record_error"));
        int ok = why && strcmp(why, strerror(EFBIG)) == 0 &&
                 json_is_false(json_object_get(json_object_get(rep, "record"), "written")) &&
                 ival(rep, "glitch_count") == 1 && strcmp(kind(glitch(rep, 0)), "dropped") == 0;
        if (!ok)
            fprintf(stderr, "record_error %s\n", why ? why : "(null)");
        _exit(ok ? 0 : 11);
    }
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 0);
    char buf[16] = "";
    old = fopen(path, "r");
    assert_non_null(old);
    assert_non_null(fgets(buf, sizeof(buf), old));
    fclose(old);
    assert_string_equal(buf, "old\n");
    /* and no temporary file left behind */
    char cmd[600];
    snprintf(cmd, sizeof(cmd), "test $(ls -A '%s' | wc -l) -eq 1", tmpdir);
    assert_int_equal(system(cmd), 0);
}

/* Random blocks, values (NaN, Inf, huge), positions (holes, going back) and losses: no crash, a report. */
static void test_fuzz(void **state)
{
    (void)state;
    uint64_t s = 7;
    float *buf = malloc(sizeof(float) * 9000);
    for (int round = 0; round < 15; round++) {
        struct lb_config cfg = { RATE, PER, 1 + (unsigned)(s % RATE), wav_dir, NULL, NULL, NULL };
        char err[200];
        struct lb *a = lb_new(&cfg, err, sizeof(err));
        assert_non_null(a);
        uint64_t pos = 0;
        for (int b = 0; b < 120; b++) {
            s = s * 6364136223846793005ull + 1442695040888963407ull;
            unsigned n = (unsigned)(s >> 33) % 3000;
            int mode = (int)((s >> 20) % 8);
            for (unsigned i = 0; i < n; i++) {
                s = s * 6364136223846793005ull + 1442695040888963407ull;
                float v = (float)((double)(s >> 11) / 9007199254740992.0 - 0.5);
                buf[i] = mode == 0 ? loopsig_at(pos + i) : mode == 1 ? loopsig_at(pos + i + 100) + v * 0.01f
                       : mode == 2 ? (i % 7 ? NAN : INFINITY) : mode == 3 ? v * 1e30f : mode == 4 ? 0.0f : v;
            }
            lb_feed(a, pos, buf, n, (uint64_t)b, b, (unsigned)(s % 1000), (int)(s & 1));
            pos += n;
            if ((s >> 40) % 10 == 0)
                pos += (s >> 45) % 5000;
            if ((s >> 40) % 10 == 1)
                pos = pos > 3000 ? pos - 3000 : 0;
            if ((s >> 40) % 10 == 2)
                lb_lost(a, pos, 100);
        }
        json_t *rep = lb_report(a);
        assert_non_null(rep);
        json_decref(rep);
        lb_free(a);
    }
    free(buf);
}

static int setup(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof(tmpdir), "%s/rtj-lb-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(tmpdir))
        return -1;
    wav_dir = open(tmpdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    return wav_dir < 0 ? -1 : 0;
}

static int teardown(void **state)
{
    (void)state;
    close(wav_dir);
    char cmd[300];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

/* Each test writes into a fresh folder (WAV names are exclusive). */
static int fresh(void **state)
{
    teardown(state);
    return setup(state);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_clean_latencies),
        cmocka_unit_test(test_dropout),
        cmocka_unit_test(test_repeat),
        cmocka_unit_test(test_stale_block),
        cmocka_unit_test(test_silence_and_click),
        cmocka_unit_test(test_shift_after_silence),
        cmocka_unit_test(test_lost_sync),
        cmocka_unit_test(test_cable),
        cmocka_unit_test(test_jack_stall_shape),
        cmocka_unit_test(test_stalls_back_to_back),
        cmocka_unit_test(test_play_time),
        cmocka_unit_test(test_step_back),
        cmocka_unit_test(test_fractional_delay),
        cmocka_unit_test(test_glitch_at_end),
        cmocka_unit_test(test_lost_frames),
        cmocka_unit_test(test_no_signal),
        cmocka_unit_test(test_bad_config),
        cmocka_unit_test_setup(test_wav, fresh),
        cmocka_unit_test_setup(test_wav_hole_after, fresh),
        cmocka_unit_test_setup(test_wav_step_back, fresh),
        cmocka_unit_test_setup(test_wav_full_disk, fresh),
        cmocka_unit_test_setup(test_record, fresh),
        cmocka_unit_test_setup(test_record_fails, fresh),
        cmocka_unit_test_setup(test_record_partial, fresh),
        cmocka_unit_test_setup(test_record_leftover, fresh),
        cmocka_unit_test_setup(test_fuzz, fresh),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
