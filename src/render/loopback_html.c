/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The loopback section of the HTML report: the latency, glitches per phase, and one row per glitch with a link
 * to its WAV (relative to the page: the report's "wav_dir" beside it) and a small waveform drawn from the
 * excerpt in the JSON (capture in blue, reference in grey, the glitch marked red). No script. */
#include "render/html.h"
#include "render/loopback_render.h"
#include "report/access.h"
#include <math.h>
#include <string.h>

#define WAVE_W 200
#define WAVE_H 48

static json_int_t ival(const json_t *o, const char *k, json_int_t dflt)
{
    const json_t *v = json_object_get(o, k);
    return json_is_integer(v) ? json_integer_value(v) : dflt;
}

/* A name we wrote ourselves (glitch-NNNN.wav), so that a link can never be a script or leave the folder. */
static int safe_wav_name(const char *s)
{
    if (!s || strncmp(s, "glitch-", 7) != 0)
        return 0;
    size_t i = 7;
    while (s[i] >= '0' && s[i] <= '9')
        i++;
    return i > 7 && strcmp(s + i, ".wav") == 0;
}

/* A relative folder: no scheme, not absolute, no "..". */
static int safe_dir(const char *s)
{
    return s && *s && s[0] != '/' && !strchr(s, ':') && !strstr(s, "..") && !strchr(s, '\\');
}

static void band(FILE *f, const json_t *mn, const json_t *mx, double scale, const char *cls)
{
    size_t n = json_array_size(mn) < json_array_size(mx) ? json_array_size(mn) : json_array_size(mx);
    if (!n || n > 1000)
        return;
    fprintf(f, "<path class=\"%s\" d=\"", cls);
    for (size_t p = 0; p < n; p++) {
        double a = json_number_value(json_array_get(mn, p)), b = json_number_value(json_array_get(mx, p));
        double x = (double)p * WAVE_W / (double)n + 0.5;
        double y1 = WAVE_H / 2.0 - b * scale, y2 = WAVE_H / 2.0 - a * scale;
        if (!(y2 - y1 >= 0.8))      /* a flat stretch still shows */
            y2 = y1 + 0.8;
        fprintf(f, "M%.1f %.1fV%.1f", x, fmin(fmax(y1, 0), WAVE_H), fmin(fmax(y2, 0), WAVE_H));
    }
    fputs("\"/>", f);
}

static void waveform(FILE *f, const json_t *ex)
{
    const json_t *cmn = json_object_get(ex, "capture_min"), *cmx = json_object_get(ex, "capture_max");
    const json_t *rmn = json_object_get(ex, "reference_min"), *rmx = json_object_get(ex, "reference_max");
    double peak = 1;
    const json_t *arrs[4] = { cmn, cmx, rmn, rmx };
    for (int k = 0; k < 4; k++) {
        size_t i;
        const json_t *v;
        json_array_foreach(arrs[k], i, v)
            if (json_is_number(v) && fabs(json_number_value(v)) > peak)
                peak = fabs(json_number_value(v));
    }
    double scale = (WAVE_H / 2.0 - 2) / peak, points = (double)json_array_size(cmx);
    fprintf(f, "<svg class=\"wave\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" "
            "aria-label=\"waveform around the glitch\">", WAVE_W, WAVE_H, WAVE_W, WAVE_H);
    band(f, rmn, rmx, scale, "ref");
    band(f, cmn, cmx, scale, "cap");
    double gp = doc_num(ex, "glitch_point");
    if (points > 0 && gp >= 0 && gp < points)
        fprintf(f, "<line class=\"at\" x1=\"%.1f\" x2=\"%.1f\" y1=\"0\" y2=\"%d\"/>", gp * WAVE_W / points + 0.5,
                gp * WAVE_W / points + 0.5, WAVE_H);
    fputs("</svg>", f);
}

void loopback_html(FILE *f, const json_t *doc)
{
    const json_t *lb = json_object_get(doc, "loopback");
    if (!json_is_object(lb))
        return;
    const json_t *lat = json_object_get(lb, "latency");
    double rate = doc_num(lb, "rate");
    fputs("<h2>Loopback: dropouts you can hear</h2>\n<p>", f);
    if (!json_is_true(json_object_get(lb, "locked"))) {
        fputs("<b>No measurement:</b> ", f);
        html_escape(f, doc_str(lb, "lock_error", "the reference signal was not found in the capture"));
    } else {
        fputs("Round-trip latency: <b>", f);
        html_num(f, doc_num(lat, "frames"), 0);
        fputs(" frames = ", f);
        html_num(f, doc_num(lat, "ms"), 3);
        fputs(" ms</b> (", f);
        html_escape(f, doc_str(lat, "method", "?"));
        fputs(")", f);
        if (json_is_false(json_object_get(lb, "hardware_in_loop"))) {
            fputs("; an internal loop: it measures the JACK graph's own latency, with no converter or cable in it, "
                  "so there is nothing to compensate (no <code>-I</code>/<code>-O</code>)", f);
        } else if (json_is_integer(json_object_get(lat, "extra_frames"))) {
            fputs("; JACK reports ", f);
            html_num(f, doc_num(lat, "reported_frames"), 0);
            fputs(", the extra ", f);
            html_num(f, doc_num(lat, "extra_frames"), 0);
            fputs(" frames: start jackd with <code>-I ", f);
            html_num(f, doc_num(lat, "jackd_io_frames"), 0);
            fputs(" -O ", f);
            html_num(f, doc_num(lat, "jackd_io_frames"), 0);
            fputs("</code>", f);
        }
        fputs(". Glitches heard in the loop: <b>", f);
        html_num(f, doc_num(lb, "glitch_count"), 0);
        fputs("</b>.", f);
    }
    fputs("</p>\n", f);
    if (json_is_true(json_object_get(lb, "latency_shifted"))) {
        fputs("<p class=\"warning\"><b>Latency shifted:</b> ", f);
        html_escape(f, doc_str(lb, "latency_shift_note", "the round-trip latency changed after a glitch"));
        fputs("</p>\n", f);
    }
    if (doc_str(lb, "record_error", NULL)) {
        fputs("<p class=\"warning\"><b>The recording was not written:</b> ", f);
        html_escape(f, doc_str(lb, "record_error", ""));
        fputs("</p>\n", f);
    } else if (json_is_true(json_object_get(json_object_get(lb, "record"), "partial"))) {
        fputs("<p>The capture until the run stopped: <code>", f);
        html_escape(f, doc_str(json_object_get(lb, "record"), "path", "?"));
        fputs("</code> (<code>", f);
        html_escape(f, doc_str(json_object_get(lb, "record"), "requested_path", "?"));
        fputs("</code> was left as it was)</p>\n", f);
    } else if (json_is_object(json_object_get(lb, "record"))) {
        fputs("<p>The whole capture: <code>", f);
        html_escape(f, doc_str(json_object_get(lb, "record"), "path", "?"));
        fputs("</code></p>\n", f);
    }
    size_t i;
    const json_t *p, *g;
    if (json_array_size(json_object_get(lb, "phases"))) {
        fputs("<table>\n<tr><th>Load</th><th>Glitches</th><th>In warm-up</th></tr>\n", f);
        json_array_foreach(json_object_get(lb, "phases"), i, p) {
            char name[PHASE_NAME_LEN];
            loopback_phase_name(doc, ival(p, "phase", (json_int_t)i), name, sizeof(name));
            fputs("<tr><td>", f);
            html_escape(f, name);
            fputs("</td><td class=\"num\">", f);
            html_num(f, doc_num(p, "glitches"), 0);
            fputs("</td><td class=\"num\">", f);
            html_num(f, doc_num(p, "warmup_glitches"), 0);
            fputs("</td></tr>\n", f);
        }
        fputs("</table>\n", f);
    }
    const json_t *gl = json_object_get(lb, "glitches");
    if (!json_array_size(gl))
        return;
    const char *dir = doc_str(lb, "wav_dir", NULL);
    fputs("<div class=\"wide\"><table>\n<tr><th>#</th><th>At (s)</th><th>Load</th><th>Kind</th><th>Length "
          "(frames)</th><th>Latency before → after</th><th>Recording</th><th>Waveform</th></tr>\n", f);
    json_array_foreach(gl, i, g) {
        char name[PHASE_NAME_LEN];
        loopback_phase_name(doc, ival(g, "phase", -1), name, sizeof(name));
        fputs("<tr><td class=\"num\">", f);
        html_num(f, doc_num(g, "index"), 0);
        fputs("</td><td class=\"num\">", f);
        html_num(f, rate > 0 ? doc_num(g, "pos") / rate : NAN, 3);
        fputs("</td><td>", f);
        html_escape(f, name);
        fputs("</td><td>", f);
        html_escape(f, doc_str(g, "kind", "?"));
        fputs("</td><td class=\"num\">", f);
        html_num(f, doc_num(g, "length_frames"), 0);
        fputs("</td><td class=\"num\">", f);
        html_num(f, doc_num(g, "latency_before"), 0);
        fputs(" → ", f);
        html_num(f, doc_num(g, "latency_after"), 0);
        if (json_is_true(json_object_get(g, "latency_shifted")))
            fputs(" <b>shifted</b>", f);
        fputs("</td><td>", f);
        const char *wav = doc_str(g, "wav", NULL);
        if (safe_wav_name(wav)) {
            fputs("<a href=\"", f);
            if (safe_dir(dir)) {
                html_escape(f, dir);
                fputc('/', f);
            }
            html_escape(f, wav);
            fputs("\">", f);
            html_escape(f, wav);
            fputs("</a>", f);
            if (doc_str(g, "wav_cut", NULL)) {
                fputs(" (cut: ", f);
                html_escape(f, doc_str(g, "wav_cut", ""));
                fputs(")", f);
            }
        } else {
            fputs("none: ", f);
            html_escape(f, doc_str(g, "wav_error", "no recording"));
        }
        fputs("</td><td>", f);
        if (json_is_object(json_object_get(g, "excerpt")))
            waveform(f, json_object_get(g, "excerpt"));
        fputs("</td></tr>\n", f);
    }
    fputs("</table></div>\n", f);
}
