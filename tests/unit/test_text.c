/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The text form fitted to its reader: the table at 80, 100 and 200 columns keeps within the width with the
 * columns a musician needs first, --wide has them all, ASCII where the locale is not UTF-8, the options found
 * from the environment; and its figures against a truth computed here from the fixture's own samples. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "render/render.h"
#include "render/text.h"
#include "render/compare_text.h"
#include "compare/compare.h"
#include "unit/fixture_report.h"

__attribute__((noinline)) static char *render(const json_t *doc, int width, int wide, int ascii)
{
    struct render_opts o = { .width = width, .wide = wide, .ascii = ascii };
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    text_print_report_opts(f, doc, &o);
    fclose(f);
    return out;
}

/* Display columns of the line at s (up to its newline). */
static int cols(const char *s)
{
    int w = 0;
    for (; *s && *s != '\n'; s++)
        w += ((unsigned char)*s & 0xc0) != 0x80;
    return w;
}

/* The table: from the line above "Load" (the header is two lines) to the blank line after its note. */
static void table_bounds(const char *out, const char **start, const char **end)
{
    const char *load = strstr(out, "\nLoad ");
    assert_non_null(load);
    const char *s = load;
    while (s > out && s[-1] != '\n')
        s--;
    do
        s--;
    while (s > out && s[-1] != '\n');
    *start = s;
    const char *note = strstr(load, "% = share of the period");
    assert_non_null(note);
    const char *e = strstr(note, "\n\n");
    *end = e ? e : note + strlen(note);
}

static int table_width(const char *out)
{
    const char *s, *e;
    table_bounds(out, &s, &e);
    int w = 0;
    for (const char *l = s; l && l < e; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
        if (cols(l) > w)
            w = cols(l);
    return w;
}

/* Three phases: a quiet one, one with a 12 ms jitter, xruns and a missed deadline, and one with a big load
 * figure. */
static json_t *doc3(void)
{
    json_t *d = fx_report("6.1.0", "250", "full", 20000, 0, 7);
    json_t *phases = json_object_get(d, "phases");
    json_t *w = fx_phase("write", 20000, 0, 8, 3), *h = fx_phase("hackbench", 20000, 0, 9, 0);
    json_object_set_new(json_object_get(w, "jitter_us"), "abs_max", json_real(12043.7));
    json_object_set_new(w, "deadlines_missed", json_integer(1));
    json_object_set_new(w, "deadlines_met_pct", json_real(100.0 * 19999 / 20000));
    json_object_set_new(h, "load_metrics", json_pack("[{s:s, s:f, s:s}]", "name", "hackbench.messages", "value",
                                                     702345.0, "unit", "msg/s"));
    json_array_append_new(phases, w);
    json_array_append_new(phases, h);
    return d;
}

static void test_widths(void **state)
{
    (void)state;
    json_t *d = doc3();
    int widths[] = { 80, 100, 200 }, got[3];
    for (int i = 0; i < 3; i++) {
        char *out = render(d, widths[i], 0, 0);
        got[i] = table_width(out);
        if (got[i] > widths[i] || got[i] < widths[i] - 30)
            fail_msg("at %d columns the table is %d wide:\n%s", widths[i], got[i], out);
        /* what a musician reads first is there at every width */
        assert_non_null(strstr(out, "|jitter| p99"));
        assert_non_null(strstr(out, "|jitter| max"));
        assert_non_null(strstr(out, "deadlines"));
        assert_non_null(strstr(out, "xruns"));
        assert_non_null(strstr(out, "µs"));
        assert_non_null(strstr(out, "hackbench.messages 702 k msg/s"));
        assert_null(strstr(out, "e+0"));
        /* one missed deadline in 20000: 99.995 reads 99.99 */
        assert_non_null(strstr(out, " 99.99 "));
        free(out);
    }
    assert_true(got[0] < got[1] && got[1] <= got[2]);
    char *narrow = render(d, 80, 0, 0), *wide = render(d, 80, 1, 0);
    assert_non_null(strstr(narrow, "more columns with --wide"));
    assert_null(strstr(narrow, "mean ± SD"));
    assert_non_null(strstr(wide, "jitter mean ± SD"));
    assert_non_null(strstr(wide, "wakeup p99.9"));
    assert_non_null(strstr(wide, "dropped"));
    assert_true(table_width(wide) > 120); /* wide is wide, whatever the width */
    free(narrow);
    free(wide);
    json_decref(d);
}

static void test_ascii(void **state)
{
    (void)state;
    json_t *d = doc3();
    char *out = render(d, 100, 1, 1);
    for (const unsigned char *p = (const unsigned char *)out; *p; p++)
        if (*p >= 0x80)
            fail_msg("a byte outside ASCII at %.40s", (const char *)p);
    assert_non_null(strstr(out, " us "));
    assert_non_null(strstr(out, "+/-"));
    free(out);
    json_decref(d);
}

/* The |jitter| p99 the table shows, against the exact p99 of the samples the fixture drew (fx_phase's draws,
 * made again here): within the histogram's 1.6 % bucket. */
static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void test_figures_are_the_samples(void **state)
{
    (void)state;
    json_t *d = fx_report("6.1.0", "250", "full", 20000, 0, 7);
    enum { N = 20000 };
    static double ab[N], wk[N];
    uint64_t s = 7;
    for (int i = 0; i < N; i++) {
        wk[i] = (double)(int64_t)((40 - 10 * log(fx_uniform(&s))) * 1000) / 1000;
        double u1 = fx_uniform(&s), u2 = fx_uniform(&s);
        ab[i] = fabs((double)(int64_t)(20 * sqrt(-2 * log(u1)) * cos(2 * M_PI * u2) * 1000) / 1000);
    }
    qsort(ab, N, sizeof(double), cmp_double);
    qsort(wk, N, sizeof(double), cmp_double);
    double j99 = ab[(int)ceil(0.99 * N) - 1], w99 = wk[(int)ceil(0.99 * N) - 1];
    char *out = render(d, 100, 0, 0);
    const char *at = strstr(out, "\nnone ");
    assert_non_null(at);
    char row[512];
    snprintf(row, sizeof(row), "%.*s", (int)strcspn(at + 1, "\n"), at + 1);
    double t_j99, t_jmax, t_w99;
    char p1[16], p2[16];
    assert_int_equal(sscanf(row, "none %lf %15s %lf %15s %lf", &t_j99, p1, &t_jmax, p2, &t_w99), 5);
    if (fabs(t_j99 - j99) > 0.016 * j99 + 0.05 || fabs(t_w99 - w99) > 0.016 * w99 + 0.05 ||
        fabs(t_jmax - ab[N - 1]) > 0.05)
        fail_msg("table |jitter| p99 %.1f, max %.1f, wakeup p99 %.1f; samples %.2f, %.2f, %.2f\n%s", t_j99, t_jmax,
                 t_w99, j99, ab[N - 1], w99, out);
    /* and as a share of the 1333 µs period */
    char want[16];
    snprintf(want, sizeof(want), "%.0f%%", 100 * t_j99 / (1e6 * 64 / 48000));
    assert_string_equal(p1, want);
    free(out);
    json_decref(d);
}

static void test_detect(void **state)
{
    (void)state;
    FILE *f = tmpfile(); /* not a terminal */
    struct render_opts o;
    setenv("COLUMNS", "123", 1);
    setenv("LANG", "C.UTF-8", 1);
    unsetenv("LC_ALL");
    unsetenv("LC_CTYPE");
    render_opts_detect(&o, f);
    assert_int_equal(o.width, 123);
    assert_false(o.ascii);
    assert_false(o.wide);
    unsetenv("COLUMNS");
    setenv("LANG", "C", 1);
    render_opts_detect(&o, f);
    assert_int_equal(o.width, 80);
    assert_true(o.ascii);
    setenv("LC_ALL", "en_US.utf8", 1); /* LC_ALL wins over LANG */
    render_opts_detect(&o, f);
    assert_false(o.ascii);
    setenv("LC_ALL", "POSIX", 1);
    setenv("LANG", "en_US.UTF-8", 1);
    render_opts_detect(&o, f);
    assert_true(o.ascii);
    setenv("COLUMNS", "90x", 1); /* not a number: ignored */
    render_opts_detect(&o, f);
    assert_int_equal(o.width, 80);
    unsetenv("LC_ALL");
    unsetenv("COLUMNS");
    fclose(f);
    struct render_opts d = render_opts_or_default(NULL);
    assert_int_equal(d.width, RENDER_DEFAULT_WIDTH);
    struct render_opts tiny = { .width = 5 };
    assert_int_equal(render_opts_or_default(&tiny).width, RENDER_MIN_WIDTH);
}

/* compare's text at 80 columns: tables cut into blocks of reports, every line within the width. */
static void test_compare_blocks(void **state)
{
    (void)state;
    json_t *docs[5];
    const char *names[5] = { "a", "b", "c", "d", "e" };
    for (int i = 0; i < 5; i++)
        docs[i] = fx_report("6.1.0-a-rather-long-release-name", "250", "full", 2000, i * 100.0, (uint64_t)i + 1);
    json_t *cmp = compare_build(docs, names, 5);
    struct render_opts o = { .width = 80 };
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    compare_print_text_opts(f, cmp, &o);
    fclose(f);
    for (const char *l = out; *l; l = strchr(l, '\n') + 1) {
        if (cols(l) > 80)
            fail_msg("a line of %d columns: %.*s", cols(l), (int)strcspn(l, "\n"), l);
        if (!strchr(l, '\n'))
            break;
    }
    /* five reports do not fit beside each other at 80 columns: the answer's table (issue 35: the default text is the
     * answer and one table) comes in blocks, each labelled */
    const char *t = strstr(out, "Per load:");
    assert_non_null(t);
    int headers = 0;
    for (const char *p = t; (p = strstr(p, "\nload ")); p++)
        headers++;
    if (headers < 2)
        fail_msg("%d blocks:\n%s", headers, t);
    assert_non_null(strstr(t, "[5] "));
    free(out);
    json_decref(cmp);
    for (int i = 0; i < 5; i++)
        json_decref(docs[i]);
}

/* Figures as long as a double prints: each cell is cut to its buffer, and the xruns cell's event count (its own
 * 24-byte buffer, which the cell formatter once filled as if it had the cell's 48: 1e30 is 31 digits) neither
 * overflows nor, in a _FORTIFY_SOURCE build, aborts the render. Run it under `make sanitize` and the hardened
 * build (dpkg-buildflags, hardening=+all). */
static void test_long_figures(void **state)
{
    (void)state;
    json_t *d = fx_report("6.1.0", "250", "full", 2000, 0, 7);
    json_t *p = json_array_get(json_object_get(d, "phases"), 0);
    json_t *x = json_object_get(p, "xruns");
    json_object_set_new(x, "events", json_real(1e30));
    json_object_set_new(x, "reported", json_real(1e30));
    json_object_set_new(x, "detected", json_real(-1e30));
    json_object_set_new(x, "skipped_cycles", json_real(1e300));
    json_object_set_new(p, "cycles", json_real(1e300));
    json_object_set_new(p, "dropped", json_real(-1e300));
    json_object_set_new(p, "desired_cpu_pct", json_real(1e300));
    json_object_set_new(json_object_get(p, "jitter_us"), "abs_max", json_real(-1e300));
    json_object_set_new(json_object_get(p, "jitter_us"), "mean", json_real(1e300));
    json_object_set_new(json_object_get(p, "wakeup_us"), "max", json_real(1e300));
    for (int wide = 0; wide < 2; wide++) {
        char *out = render(d, 200, wide, 0);
        assert_non_null(out);
        const char *load = strstr(out, "\nnone ");
        if (!load)
            fail_msg("no row for the phase:\n%s", out);
        /* the xruns cell (shown with --wide: at 200 columns the long cells leave it no room), each of its three
         * figures cut to 12 characters */
        if (wide && !strstr(load, "100000000000(100000000000/-10000000000)"))
            fail_msg("no xruns cell in:\n%s", load);
        free(out);
    }
    json_decref(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_widths),
        cmocka_unit_test(test_ascii),
        cmocka_unit_test(test_figures_are_the_samples),
        cmocka_unit_test(test_detect),
        cmocka_unit_test(test_compare_blocks),
        cmocka_unit_test(test_long_figures),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
