/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A finished phase written out and read back (stats/phase_spill.h): the report built from the phase read back is
 * byte for byte the one built from the phase before it was written (report_build, not the spill code, is the
 * judge), with two segments, events beyond the lists (summed per minute), spikes beyond theirs, compacted
 * histograms and a settled timeline. A write that fails frees nothing; a file cut short or altered reads back as
 * nothing, without a leak (make sanitize), and a phase read back takes a late cycle as before. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "report/report.h"
#include "stats/phase_spill.h"

/* One phase: 24,000 cycles of 64 frames at 48 kHz, then 6,000 of 128 (a second segment); every 400th cycle three
 * skipped (an xrun event), every 37th woke 0.9 ms late (a spike), the rest 20-50 µs. Lists shared as among 8
 * phases (32 events, 16 spikes listed), settled as the collector settles a phase. */
static void feed(struct phase_stats *ps)
{
    phase_init(ps);
    struct phase_lists l;
    phase_lists_share(&l, 8);
    phase_set_lists(ps, &l);
    int64_t t = 1000000000LL;
    uint64_t f = 0, seq = 0;
    for (int k = 0; k < 30000; k++) {
        uint32_t n = k < 24000 ? 64 : 128;
        int64_t period = (int64_t)n * 1000000000LL / 48000;
        if (k % 400 == 399) {
            f += 3 * n;
            t += 3 * period;
        }
        int64_t wake = k % 37 == 36 ? 900000 : 20000 + (k * 7919) % 30000;
        struct rt_record r;
        memset(&r, 0, sizeof(r));
        r.seq = seq++;
        r.start_ns = t;
        r.t_entry_ns = t + wake;
        r.t_exit_ns = r.t_entry_ns + 50000 + (k % 13) * 1000;
        r.frame_pos = f;
        r.nframes = n;
        r.rate_hz = 48000;
        r.cpu = 1;
        r.flags = RTREC_MEASURING | RTREC_HAS_START;
        assert_int_equal(phase_add(ps, &r), 0);
        f += n;
        t += period;
    }
    phase_finish(ps);
    phase_settle(ps);
}

/* The report's "phases" of ps, as text. */
static char *phases_text(struct phase_stats *ps)
{
    struct phase_result pr = { .load = "write", .duration_s = 40, .measured_s = 40, .measured = 1, .finished = 1,
                               .stats = ps };
    struct run_info ri = { .command = "rtjitter run", .complete = 1, .phases = &pr, .nphases = 1, .max_xruns = -1,
                           .max_jitter_us = -1 };
    ri.audio.backend = "jack";
    ri.audio.rate_hz = 48000;
    ri.audio.period_frames = 64;
    json_t *doc = report_build(&ri);
    assert_non_null(doc);
    char *s = json_dumps(json_object_get(doc, "phases"), JSON_COMPACT);
    json_decref(doc);
    assert_non_null(s);
    return s;
}

static void test_read_back_reports_the_same(void **state)
{
    (void)state;
    struct phase_stats ps;
    feed(&ps);
    assert_int_equal(ps.nseg, 2);
    assert_true(ps.seg[0]->events.summarised > 0);      /* events beyond the lists: summed */
    assert_true(ps.seg[0]->spikes_unlisted > 0);        /* spikes beyond theirs */
    assert_non_null(ps.seg[0]->m[M_WAKEUP].hist.sparse); /* compacted */
    char *before = phases_text(&ps);
    FILE *f = tmpfile();
    assert_non_null(f);
    assert_int_equal(phase_spill_write(&ps, f), 0);
    assert_int_equal(ps.nseg, 0);
    assert_int_equal(ps.spilled, 2);
    assert_int_equal(phase_spill_read(&ps, f), 0);
    assert_int_equal(ps.nseg, 2);
    assert_int_equal(ps.spilled, 0);
    char *after = phases_text(&ps);
    assert_string_equal(before, after);
    /* a late cycle of the phase read back: counted, as in a phase never written out */
    uint64_t cycles = ps.seg[1]->cycles;
    struct rt_record r;
    memset(&r, 0, sizeof(r));
    r.seq = 30000;
    r.start_ns = ps.seg[1]->prev_entry_ns + 2000000;
    r.t_entry_ns = r.start_ns + 30000;
    r.t_exit_ns = r.t_entry_ns + 50000;
    r.frame_pos = ps.seg[1]->last_frame + 128;
    r.nframes = 128;
    r.rate_hz = 48000;
    r.flags = RTREC_MEASURING | RTREC_HAS_START;
    assert_int_equal(phase_add(&ps, &r), 0);
    assert_int_equal(ps.seg[1]->cycles, cycles + 1);
    free(before);
    free(after);
    fclose(f);
    phase_free(&ps);
}

static void test_failed_write_frees_nothing(void **state)
{
    (void)state;
    struct phase_stats ps;
    feed(&ps);
    char *before = phases_text(&ps);
    FILE *f = fopen("/dev/null", "r"); /* every write fails */
    assert_non_null(f);
    assert_int_equal(phase_spill_write(&ps, f), -1);
    assert_int_equal(ps.nseg, 2);
    assert_int_equal(ps.spilled, 0);
    char *after = phases_text(&ps);
    assert_string_equal(before, after);
    fclose(f);
    /* a histogram left dense (phase_settle had no memory to compact it) is not written: its buckets would be lost */
    struct histogram *h = &ps.seg[1]->m[M_WAKEUP].hist;
    struct hist_bin *sparse = h->sparse;
    uint32_t nsparse = h->nsparse;
    h->sparse = NULL;
    f = tmpfile();
    assert_int_equal(phase_spill_write(&ps, f), -1);
    assert_int_equal(ps.nseg, 2);
    h->sparse = sparse;
    h->nsparse = nsparse;
    free(before);
    free(after);
    fclose(f);
    phase_free(&ps);
}

/* A file cut anywhere, or with its counts altered, reads back as nothing: -1, no segment, nothing leaked. */
static void test_bad_file_reads_as_nothing(void **state)
{
    (void)state;
    struct phase_stats ps;
    feed(&ps);
    FILE *f = tmpfile();
    assert_int_equal(phase_spill_write(&ps, f), 0);
    long len = ftell(f);
    assert_true(len > 1000);
    char *buf = malloc((size_t)len);
    rewind(f);
    assert_int_equal(fread(buf, 1, (size_t)len, f), (size_t)len);
    long cuts[] = { 0, 3, 4, 100, len / 3, len / 2, len - 1 };
    for (size_t i = 0; i < sizeof(cuts) / sizeof(cuts[0]); i++) {
        FILE *g = tmpfile();
        assert_int_equal(fwrite(buf, 1, (size_t)cuts[i], g), (size_t)cuts[i]);
        assert_int_equal(phase_spill_read(&ps, g), -1);
        assert_int_equal(ps.nseg, 0);
        assert_int_equal(ps.spilled, 2);
        fclose(g);
    }
    buf[0] = 3; /* three segments, where two were written */
    FILE *g = tmpfile();
    assert_int_equal(fwrite(buf, 1, (size_t)len, g), (size_t)len);
    assert_int_equal(phase_spill_read(&ps, g), -1);
    assert_int_equal(ps.nseg, 0);
    fclose(g);
    buf[0] = 2;
    g = tmpfile(); /* as written: it reads back */
    assert_int_equal(fwrite(buf, 1, (size_t)len, g), (size_t)len);
    assert_int_equal(phase_spill_read(&ps, g), 0);
    assert_int_equal(ps.nseg, 2);
    fclose(g);
    free(buf);
    fclose(f);
    phase_free(&ps);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_read_back_reports_the_same),
        cmocka_unit_test(test_failed_write_frees_nothing),
        cmocka_unit_test(test_bad_file_reads_as_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
