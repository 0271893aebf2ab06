/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The loopback block of the text report: what a musician asks first (did the audio drop out, where, can I
 * hear it), then the latency to give JACK. */
#include "render/loopback_render.h"
#include "render/textfmt.h"
#include "report/access.h"
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define TEXT_GLITCHES_SHOWN 10

void loopback_phase_name(const json_t *doc, json_int_t i, char *buf, size_t len)
{
    const json_t *p = i >= 0 ? json_array_get(json_object_get(doc, "phases"), (size_t)i) : NULL;
    if (json_is_object(p))
        doc_phase_name(p, buf, len);
    else
        snprintf(buf, len, "phase %lld", (long long)i);
}

static void say(FILE *f, const struct render_opts *o, const char *first, const char *text)
{
    char *t = tx_dup(o, text);
    tx_wrap(f, first, 10, o->width, t ? t : "");
    free(t);
}

/* Appends to line (of LINE_LEN bytes) at *n, never past its end (a report's numbers can be any size). */
#define LINE_LEN 1024
__attribute__((format(printf, 3, 4)))
static void add(char *line, size_t *n, const char *fmt, ...)
{
    if (*n >= LINE_LEN - 1)
        return;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(line + *n, LINE_LEN - *n, fmt, ap);
    va_end(ap);
    if (k > 0)
        *n = *n + (size_t)k < LINE_LEN - 1 ? *n + (size_t)k : LINE_LEN - 1;
}

static json_int_t ival(const json_t *o, const char *k, json_int_t dflt)
{
    const json_t *v = json_object_get(o, k);
    return json_is_integer(v) ? json_integer_value(v) : dflt;
}

void loopback_text(FILE *f, const json_t *doc, const struct render_opts *given)
{
    const json_t *lb = json_object_get(doc, "loopback");
    if (!json_is_object(lb))
        return;
    struct render_opts o = render_opts_or_default(given);
    char line[LINE_LEN];
    size_t n;
    const json_t *lat = json_object_get(lb, "latency");
    double rate = doc_num(lb, "rate");
    if (!json_is_true(json_object_get(lb, "locked"))) {
        n = 0;
        add(line, &n, "no measurement: %.300s",
                 doc_str(lb, "lock_error", "the reference signal was not found in the capture"));
        say(f, &o, "loopback: ", line);
    } else {
        n = 0;
        add(line, &n, "round trip %.0f frames = %.3f ms", doc_num(lat, "frames"), doc_num(lat, "ms"));
        double ex = doc_num(lat, "frames_exact");
        if (fabs(ex - doc_num(lat, "frames")) >= 0.05)    /* a cable's fraction of a frame */
            add(line, &n, " (%.2f frames exactly)", ex);
        if (json_is_false(json_object_get(lb, "hardware_in_loop")))
            add(line, &n, "; an internal loop: it measures the JACK graph's own latency, with no converter or cable "
                     "in it, so there is nothing to compensate (no -I/-O)");
        else if (json_is_integer(json_object_get(lat, "extra_frames")))
            add(line, &n, "; JACK reports %.0f, the extra %.0f frames: start jackd "
                     "with -I %.0f -O %.0f", doc_num(lat, "reported_frames"), doc_num(lat, "extra_frames"),
                     doc_num(lat, "jackd_io_frames"), doc_num(lat, "jackd_io_frames"));
        say(f, &o, "loopback: ", line);
    }
    json_int_t count = ival(lb, "glitch_count", 0);
    if (json_is_true(json_object_get(lb, "locked")) || count) {
        n = 0;
        add(line, &n, "%lld glitch%s heard in the loop", (long long)count,
                         count == 1 ? "" : "es");
        size_t i;
        const json_t *p;
        const char *sep = " (";
        json_array_foreach(json_object_get(lb, "phases"), i, p) {
            json_int_t g = ival(p, "glitches", 0), w = ival(p, "warmup_glitches", 0);
            if (!g && !w)
                continue;
            char name[PHASE_NAME_LEN];
            loopback_phase_name(doc, ival(p, "phase", (json_int_t)i), name, sizeof(name));
            add(line, &n, "%s%lld under %.60s", sep, (long long)g, name);
            if (w)
                add(line, &n, " + %lld in warm-up", (long long)w);
            sep = ", ";
        }
        if (strcmp(sep, ", ") == 0)
            add(line, &n, ")");
        say(f, &o, "          ", line);
    }
    size_t i;
    const json_t *g;
    json_array_foreach(json_object_get(lb, "glitches"), i, g) {
        if (i >= TEXT_GLITCHES_SHOWN) {
            snprintf(line, sizeof(line), "... %zu more in the report", json_array_size(json_object_get(lb,
                     "glitches")) - i);
            say(f, &o, "          ", line);
            break;
        }
        char name[PHASE_NAME_LEN];
        loopback_phase_name(doc, ival(g, "phase", -1), name, sizeof(name));
        n = 0;
        add(line, &n, "#%lld at %.3f s (%.60s): %.20s, %.0f frames", (long long)ival(g,
                         "index", (json_int_t)i + 1), rate > 0 ? doc_num(g, "pos") / rate : NAN, name,
                         doc_str(g, "kind", "?"), doc_num(g, "length_frames"));
        if (json_is_true(json_object_get(g, "latency_shifted")))
            add(line, &n, ", latency %.0f -> %.0f frames",
                          doc_num(g, "latency_before"), doc_num(g, "latency_after"));
        if (doc_str(g, "wav", NULL) && doc_str(g, "wav_cut", NULL))
            add(line, &n, ", %.100s (cut: %.40s)", doc_str(g, "wav", ""), doc_str(g, "wav_cut", ""));
        else if (doc_str(g, "wav", NULL))
            add(line, &n, ", %.100s", doc_str(g, "wav", ""));
        else if (doc_str(g, "wav_error", NULL))
            add(line, &n, ", no WAV: %.100s", doc_str(g, "wav_error", ""));
        say(f, &o, "          ", line);
    }
    if (json_is_true(json_object_get(lb, "latency_shifted")))
        say(f, &o, "          ", doc_str(lb, "latency_shift_note", "the round-trip latency changed"));
    const json_t *w = json_object_get(lb, "wavs");
    if (doc_num(w, "written") > 0) {
        snprintf(line, sizeof(line), "%.0f glitch WAV%s (capture left, reference right) in %.300s",
                 doc_num(w, "written"), doc_num(w, "written") == 1 ? "" : "s",
                 doc_str(lb, "wav_dir", "the WAV folder"));
        say(f, &o, "          ", line);
    }
    if (doc_num(w, "failed") > 0 || doc_num(w, "over_cap") > 0) {
        snprintf(line, sizeof(line), "%.0f glitch%s without a recording (see above), %.0f over the cap of %.0f",
                 doc_num(w, "failed"), doc_num(w, "failed") == 1 ? "" : "es", doc_num(w, "over_cap"),
                 doc_num(w, "cap"));
        say(f, &o, "          ", line);
    }
    if (doc_num(lb, "lost_frames") > 0) {
        snprintf(line, sizeof(line), "%.0f captured frames lost before the analysis (not glitches)",
                 doc_num(lb, "lost_frames"));
        say(f, &o, "          ", line);
    }
    const json_t *rec = json_object_get(lb, "record");
    if (doc_str(lb, "record_error", NULL)) {
        snprintf(line, sizeof(line), "recording NOT written (%.300s): %.300s", doc_str(rec, "path", "?"),
                 doc_str(lb, "record_error", ""));
        say(f, &o, "          ", line);
    } else if (json_is_true(json_object_get(rec, "partial"))) {
        snprintf(line, sizeof(line), "the capture until the run stopped: %.300s (%.10s, %.1f s; %.300s left as it "
                 "was)", doc_str(rec, "path", "?"), doc_str(rec, "format", "?"),
                 rate > 0 ? doc_num(rec, "frames") / rate : NAN, doc_str(rec, "requested_path", "?"));
        say(f, &o, "          ", line);
    } else if (json_is_object(rec)) {
        snprintf(line, sizeof(line), "the whole capture: %.300s (%.10s, %.1f s)", doc_str(rec, "path", "?"),
                 doc_str(rec, "format", "?"), rate > 0 ? doc_num(rec, "frames") / rate : NAN);
        say(f, &o, "          ", line);
    }
}
