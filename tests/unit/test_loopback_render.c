/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The loopback object in the text and HTML reports: a real analyzer run over a capture with two dropouts put
 * at known places (built here from rtaudio/loopsig.h), rendered from the JSON alone: the latency, the kinds,
 * the WAV links relative to the page, one waveform per glitch with its glitch mark; then a hostile object
 * (markup in every string, a script link as the WAV name, huge numbers, wrong types): escaped, never linked,
 * no crash. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "fixture_report.h"
#include "loopback/loopback.h"
#include "loopsig.h"
#include "render/html.h"
#include "render/text.h"

#define EVIL "<script>alert(1)</script>"

static char tmpdir[256];

static json_t *analyzed(void)
{
    enum { RATE = 48000, PER = 64, N = RATE };
    static float cap[N];
    for (int64_t q = 0; q < N; q++) {
        int64_t r = q - 300 + (q >= 20000 ? 50 : 0) + (q >= 40000 ? -20 : 0);
        cap[q] = r < 0 ? 0.0f : loopsig_at((uint64_t)r);
    }
    int dirfd = open(tmpdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    assert_true(dirfd >= 0);
    struct lb_config cfg = { RATE, PER, RATE / 5, dirfd, NULL, NULL, NULL };
    char err[200];
    struct lb *a = lb_new(&cfg, err, sizeof(err));
    assert_non_null(a);
    for (int b = 0; b * PER < N; b++)
        lb_feed(a, (uint64_t)b * PER, cap + b * PER, PER, (uint64_t)b, 0, b * PER < 30000 ? 0 : 1, 1);
    lb_set_reported_latency(a, 256);
    json_t *o = lb_report(a);
    lb_free(a);
    close(dirfd);
    assert_non_null(o);
    json_object_set_new(o, "wav_dir", json_string("report-wavs"));
    return o;
}

static json_t *doc_with(json_t *lb)
{
    json_t *d = fx_report("6.1.0", "250", "full", 2000, 0, 2);
    json_object_set_new(d, "loopback", lb);
    return d;
}

static char *render(const json_t *d, int html)
{
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    if (html)
        html_report(f, d);
    else
        text_print_report_opts(f, d, &(struct render_opts){ .width = 1000 });
    fclose(f);
    return out;
}

static size_t count(const char *s, const char *what)
{
    size_t n = 0;
    for (const char *p = s; (p = strstr(p, what)); p++)
        n++;
    return n;
}

static void test_render(void **state)
{
    (void)state;
    json_t *d = doc_with(analyzed());
    char *t = render(d, 0);
    assert_non_null(strstr(t, "round trip 300 frames = 6.250 ms; JACK"));
    assert_null(strstr(t, "exactly"));
    assert_non_null(strstr(t, "JACK reports 256, the extra 44 frames: start jackd with -I 22 -O 22"));
    assert_non_null(strstr(t, "2 glitches heard in the loop"));
    assert_non_null(strstr(t, "dropped, 50 frames"));
    assert_non_null(strstr(t, "repeated, 20 frames"));
    assert_non_null(strstr(t, "glitch-0001.wav"));
    assert_non_null(strstr(t, "report-wavs"));
    free(t);
    char *h = render(d, 1);
    assert_non_null(strstr(h, "<h2>Loopback"));
    assert_non_null(strstr(h, "<a href=\"report-wavs/glitch-0001.wav\">"));
    assert_non_null(strstr(h, "<a href=\"report-wavs/glitch-0002.wav\">"));
    assert_int_equal(count(h, "<svg class=\"wave\""), 2);
    assert_int_equal(count(h, "<line class=\"at\""), 2);
    assert_non_null(strstr(h, "<code>-I 22 -O 22</code>"));
    free(h);
    json_decref(d);
}

/* --loopback internal: no hardware in the loop (the run sets hardware_in_loop false from audio.loopback.mode), so
 * neither form advises -I/-O, even were the JSON to carry a JACK-reported latency; each says why instead, and the
 * round trip each prints is the JSON's. */
static void test_internal_loop(void **state)
{
    (void)state;
    json_t *lb = analyzed();
    json_object_set_new(lb, "hardware_in_loop", json_false());
    json_t *d = doc_with(lb);
    long long frames = json_integer_value(json_object_get(json_object_get(lb, "latency"), "frames"));
    char want[64];
    snprintf(want, sizeof(want), "round trip %lld frames", frames);
    char *t = render(d, 0);
    assert_non_null(strstr(t, want));
    assert_null(strstr(t, "-I "));
    assert_null(strstr(t, "start jackd"));
    assert_non_null(strstr(t, "an internal loop: it measures the JACK graph's own latency"));
    assert_non_null(strstr(t, "nothing to compensate"));
    free(t);
    char *h = render(d, 1);
    snprintf(want, sizeof(want), "Round-trip latency: <b>%lld frames", frames);
    assert_non_null(strstr(h, want));
    assert_null(strstr(h, "<code>-I "));
    assert_null(strstr(h, "start jackd"));
    assert_non_null(strstr(h, "nothing to compensate"));
    free(h);
    json_decref(d);
    /* a loop through ports (hardware_in_loop true) keeps the advice */
    lb = analyzed();
    json_object_set_new(lb, "hardware_in_loop", json_true());
    d = doc_with(lb);
    t = render(d, 0);
    assert_non_null(strstr(t, "start jackd with -I 22 -O 22"));
    assert_null(strstr(t, "nothing to compensate"));
    free(t);
    json_decref(d);
}

static void test_hostile(void **state)
{
    (void)state;
    json_t *lb = analyzed();
    json_object_set_new(lb, "wav_dir", json_string("javascript:" EVIL));
    json_object_set_new(lb, "latency_shift_note", json_string(EVIL));
    json_object_set_new(lb, "record_error", json_string(EVIL));
    json_object_set_new(lb, "rate", json_real(1e308));
    json_t *g = json_array_get(json_object_get(lb, "glitches"), 0);
    json_object_set_new(g, "wav", json_string("javascript:alert(1)"));
    json_object_set_new(g, "wav_error", json_string(EVIL));
    json_object_set_new(g, "kind", json_string(EVIL));
    json_object_set_new(g, "pos", json_real(-1e308));
    json_object_set_new(g, "length_frames", json_real(1e308));
    json_object_set_new(g, "latency_before", json_real(1e308));
    json_object_set_new(g, "latency_after", json_real(-1e308));
    json_object_set_new(g, "latency_shifted", json_true());
    json_object_set_new(g, "phase", json_integer(1000000));
    json_t *ex = json_object_get(g, "excerpt");
    json_object_set_new(ex, "glitch_point", json_real(1e300));
    json_array_set_new(json_object_get(ex, "capture_max"), 3, json_string(EVIL));
    g = json_array_get(json_object_get(lb, "glitches"), 1);
    json_object_set_new(g, "wav", json_string("../../etc/passwd"));
    json_object_set_new(g, "excerpt", json_string("not an object"));
    json_array_append_new(json_object_get(lb, "glitches"), json_string(EVIL));
    json_array_append_new(json_object_get(lb, "phases"), json_pack("{s:s}", "phase", EVIL));
    json_t *d = doc_with(lb);
    free(render(d, 0));     /* text has no markup: it must only survive */
    {
        char *out = render(d, 1);
        assert_null(strstr(out, "<script"));
        assert_null(strstr(out, "href=\"javascript"));
        assert_null(strstr(out, "href=\"../"));
        assert_null(strstr(out, "passwd\">"));
        free(out);
    }
    json_decref(d);
    /* every key of another type */
    d = doc_with(json_pack("{s:s, s:s, s:s, s:s, s:i, s:[i]}", "latency", "x", "glitches", "x", "phases", "x",
                           "wavs", "x", "locked", 1, "record", 1));
    for (int html = 0; html < 2; html++)
        free(render(d, html));
    json_decref(d);
}

static int setup(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof(tmpdir), "%s/rtj-lbr-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[300];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

static int fresh(void **state)
{
    teardown(state);
    return setup(state);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_render, fresh),
        cmocka_unit_test_setup(test_internal_loop, fresh),
        cmocka_unit_test_setup(test_hostile, fresh),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
