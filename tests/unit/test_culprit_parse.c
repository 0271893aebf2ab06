/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The culprit sampler's parsers (sample_proc.c) on fixture files (tests/fixtures/culprit/: this machine's
 * /proc/interrupts, softirqs and stat, copied; a 64-CPU /proc/interrupts whose cell (line L, CPU c) holds
 * L * 1000 + c, written by gen_interrupts64.py; a truncated and a non-UTF-8 one), on random bytes, on a file over
 * the read cap, and the engine ticking on the 64-CPU and the non-UTF-8 trees: never a crash, every string it keeps
 * valid UTF-8. And the period finder (periodic.c) on times the test made. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include "culprit/engine_internal.h"
#include <math.h>
#include "util/utf8.h"
#include "unit/culprit_tree.h"

/* A fixture's path: from the tree's top (RTJ_TOP, else the current directory, as make check runs). */
static const char *fix(const char *name)
{
    static char path[4096];
    const char *top = getenv("RTJ_TOP");
    snprintf(path, sizeof path, "%s/tests/fixtures/culprit/%s", top ? top : ".", name);
    return path;
}

struct rows {
    int n, named, max_cols;
    char last[16];
    uint64_t loc0, line30_c63, line223_c5;
    char rest[64];
};

static void row(void *ctx, const char *label, const uint64_t *v, int n, const char *rest)
{
    struct rows *r = ctx;
    r->n++;
    r->max_cols = n > r->max_cols ? n : r->max_cols;
    r->named += label[0] < '0' || label[0] > '9';
    snprintf(r->last, sizeof r->last, "%s", label);
    if (!strcmp(label, "LOC") && n > 0)
        r->loc0 = v[0];
    if (!strcmp(label, "30") && n > 63)
        r->line30_c63 = v[63];
    if (!strcmp(label, "223") && n > 5)
        r->line223_c5 = v[5];
    if (!strcmp(label, "30"))
        snprintf(r->rest, sizeof r->rest, "%s", rest);
}

static void test_interrupts_this_machine(void **state)
{
    (void)state;
    struct ce_buf b = {0};
    assert_int_equal(ce_read(&b, fix("interrupts-2cpu")), 0);
    struct rows r = {0};
    assert_int_equal(ce_parse_table(b.p, b.len, row, &r), 2);
    assert_int_equal(r.n, 35); /* every line but the header */
    assert_int_equal(r.loc0, 19786773);
    assert_string_equal(r.last, "PIW"); /* the file's last line */
    ce_buf_free(&b);
}

static void test_interrupts_64(void **state)
{
    (void)state;
    struct ce_buf b = {0};
    assert_int_equal(ce_read(&b, fix("interrupts-64cpu")), 0);
    struct rows r = {0};
    assert_int_equal(ce_parse_table(b.p, b.len, row, &r), 64);
    assert_int_equal(r.n, 207);
    assert_int_equal(r.named, 7);
    assert_int_equal(r.max_cols, 64);
    assert_int_equal(r.line30_c63, 30 * 1000 + 63);
    assert_int_equal(r.line223_c5, 223 * 1000 + 5);
    assert_string_equal(r.rest, "IR-PCI-MSI-0000:00:06.0 6-edge      dev30-q6");
    ce_buf_free(&b);
}

static void test_truncated_and_bad_utf8(void **state)
{
    (void)state;
    struct ce_buf b = {0};
    struct rows r = {0};
    assert_int_equal(ce_read(&b, fix("interrupts-truncated")), 0);
    assert_int_equal(ce_parse_table(b.p, b.len, row, &r), 2);
    assert_true(r.n > 10 && r.n < 35);
    memset(&r, 0, sizeof r);
    assert_int_equal(ce_read(&b, fix("interrupts-badutf8")), 0);
    assert_int_equal(ce_parse_table(b.p, b.len, row, &r), 2);
    assert_int_equal(r.n, 2);
    ce_buf_free(&b);
}

static void steal_row(void *ctx, int cpu, uint64_t steal)
{
    uint64_t *s = ctx;
    if (cpu < 2)
        s[cpu] = steal;
}

static void test_stat_softirqs_small_files(void **state)
{
    (void)state;
    struct ce_buf b = {0};
    uint64_t steal[2] = {0};
    assert_int_equal(ce_read(&b, fix("stat-2cpu")), 0);
    assert_int_equal(ce_parse_stat_steal(b.p, b.len, steal_row, steal), 2);
    assert_int_equal(steal[0], 13380);
    assert_int_equal(steal[1], 43806);
    struct rows r = {0};
    assert_int_equal(ce_read(&b, fix("softirqs-2cpu")), 0);
    assert_int_equal(ce_parse_table(b.p, b.len, row, &r), 2);
    assert_int_equal(r.n, 10);
    int64_t run, delay, psi;
    const char *ss = "633172 25618 2\n";
    assert_int_equal(ce_parse_schedstat(ss, strlen(ss), &run, &delay), 0);
    assert_int_equal(run, 633172);
    assert_int_equal(delay, 25618);
    assert_int_equal(ce_parse_schedstat("12", 2, &run, &delay), -1);
    const char *p = "some avg10=1.27 avg60=20.26 avg300=9.50 total=11348731376\nfull avg10=0 total=0\n";
    assert_int_equal(ce_parse_psi_some(p, strlen(p), &psi), 0);
    assert_int_equal(psi, 11348731376LL);
    assert_int_equal(ce_parse_psi_some("full total=1", 12, &psi), -1);
    ce_buf_free(&b);
}

static void test_task_stat_and_cpulist(void **state)
{
    (void)state;
    struct ctree t;
    ctree_init(&t);
    ctree_stat(&t, "s", 77, "a) b (c", 3, 95, 1);
    char path[300];
    snprintf(path, sizeof path, "%s/s", t.root);
    struct ce_buf b = {0};
    assert_int_equal(ce_read(&b, path), 0);
    struct ce_task_stat st;
    assert_int_equal(ce_parse_task_stat(b.p, b.len, &st), 0);
    assert_string_equal(st.comm, "a) b (c");
    assert_int_equal(st.processor, 3);
    assert_int_equal(st.rt_priority, 95);
    assert_int_equal(st.policy, 1);
    assert_int_equal(ce_parse_task_stat("1 (x) S 1 2 3", 13, &st), -1); /* cut short */
    uint64_t m[CE_CPUS_MAX / 64] = {0};
    assert_int_equal(ce_parse_cpulist("0-3,8,10-11", m, CE_CPUS_MAX), 7);
    assert_int_equal(m[0], 0xd0full);
    assert_int_equal(ce_parse_cpulist("3-1", m, CE_CPUS_MAX), -1);
    assert_int_equal(ce_parse_cpulist("x", m, CE_CPUS_MAX), -1);
    const char *st2 = "Name:\tx\nCpus_allowed:\tff\nCpus_allowed_list:\t1\n";
    memset(m, 0, sizeof m);
    assert_int_equal(ce_parse_allowed(st2, strlen(st2), m, CE_CPUS_MAX), 1);
    assert_int_equal(m[0], 2);
    ce_buf_free(&b);
    ctree_free(&t);
}

static void ignore_row(void *ctx, const char *label, const uint64_t *v, int n, const char *rest)
{
    (void)v;
    (void)ctx;
    assert_true(strlen(label) < 16 && strlen(rest) < 64 && n >= 0 && n <= CE_CPUS_MAX);
}

static void ignore_steal(void *ctx, int cpu, uint64_t s)
{
    (void)ctx;
    (void)s;
    assert_true(cpu >= 0 && cpu < CE_CPUS_MAX);
}

/* Random bytes, biased to the characters the parsers look for, into every parser. */
static void test_random_bytes(void **state)
{
    (void)state;
    static const char alpha[] = "0123456789 :()\n-,CPUcpusometal=FIFOx\t\xff\xc3";
    char *buf = malloc(8192);
    uint32_t x = 12345;
    for (int it = 0; it < 3000; it++) {
        size_t len = (x = x * 1103515245 + 12345) % 8192;
        for (size_t i = 0; i < len; i++) {
            x = x * 1103515245 + 12345;
            buf[i] = (x >> 16) % 4 ? alpha[(x >> 8) % (sizeof alpha - 1)] : (char)(x >> 8);
        }
        if (it % 2 && len > 5)
            memcpy(buf, "  CPU0", 6);
        int64_t a, b;
        struct ce_task_stat st;
        uint64_t m[CE_CPUS_MAX / 64] = {0};
        ce_parse_table(buf, len, ignore_row, NULL);
        ce_parse_stat_steal(buf, len, ignore_steal, NULL);
        ce_parse_schedstat(buf, len, &a, &b);
        ce_parse_psi_some(buf, len, &a);
        if (ce_parse_task_stat(buf, len, &st) == 0)
            assert_true(strlen(st.comm) < CE_COMM && st.processor <= CE_CPUS_MAX);
        ce_parse_allowed(buf, len, m, CE_CPUS_MAX);
    }
    free(buf);
}

/* A file over the cap is read up to the cap and said truncated. */
static void test_huge_file(void **state)
{
    (void)state;
    struct ctree t;
    ctree_init(&t);
    char path[300];
    snprintf(path, sizeof path, "%s/huge", t.root);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "  CPU0 CPU1\n");
    for (int i = 0; i < 700000; i++)
        fprintf(f, "%d: 1 2 x\n", i);
    fclose(f);
    struct ce_buf b = {0};
    assert_int_equal(ce_read(&b, path), 0);
    assert_true(b.truncated);
    assert_true(b.len <= CE_FILE_MAX);
    struct rows r = {0};
    assert_int_equal(ce_parse_table(b.p, b.len, row, &r), 2);
    assert_true(r.n > 100000);
    ce_buf_free(&b);
    ctree_free(&t);
}

/* The engine on a tree whose /proc/interrupts is the 64-CPU fixture, then the non-UTF-8 one. */
static void engine_on(const char *fixture, int want_lines)
{
    struct ctree t;
    ctree_init(&t);
    ctree_write(&t);
    char cmd[600], proc[300], sys[300], err[200];
    snprintf(cmd, sizeof cmd, "cp %s %s/proc/interrupts", fixture, t.root);
    assert_int_equal(system(cmd), 0);
    ctree_file(&t, "sys/kernel/irq/30/actions", "caf\xc3\xa9\xff\n");
    snprintf(proc, sizeof proc, "%s/proc", t.root);
    snprintf(sys, sizeof sys, "%s/sys", t.root);
    struct culprit_config cfg = {.clock = CLOCK_MONOTONIC, .proc_root = proc, .sys_root = sys, .audio_pid = 4242};
    struct culprit_engine *e = ce_create(&cfg, err, sizeof err);
    assert_non_null(e);
    for (int k = 0; k < 5; k++)
        ce_tick(e, (int64_t)(k + 1) * 50000000);
    assert_int_equal(e->nlines, want_lines);
    for (int i = 0; i < e->nlines; i++)
        assert_true(utf8_valid(e->lines[i].dev) && utf8_valid(e->lines[i].desc) && utf8_valid(e->lines[i].label));
    culprit_engine_note(e, CS_SPIKE, 0, 100000000, 100000000, 1, 0);
    culprit_engine_stop(e);
    struct culprit_results r = culprit_engine_results(e);
    json_t *s = r.summary(r.ctx);
    char *js = json_dumps(s, 0);
    assert_non_null(js);
    free(js);
    json_decref(s);
    struct culprit c[CULPRITS_MAX];
    assert_int_equal(r.lookup(r.ctx, CS_SPIKE, 0, 100000000, c, CULPRITS_MAX), 1);
    assert_int_equal(c[0].kind, CK_NONE);
    culprit_engine_free(e);
    ctree_free(&t);
}

static void test_engine_64_and_bad_utf8(void **state)
{
    (void)state;
    engine_on(fix("interrupts-64cpu"), 207);
    engine_on(fix("interrupts-badutf8"), 2);
}

/* ---- periodicity ---- */

static void test_period_found(void **state)
{
    (void)state;
    int64_t t[64];
    int n = 0;
    uint32_t x = 7;
    for (int k = 0; k < 12; k++) {
        if (k == 3 || k == 7)
            continue; /* missing ones */
        x = x * 1103515245 + 12345;
        int64_t jitter = (int64_t)((x >> 8) % 100) * 1000000 - 50000000; /* +- 50 ms */
        t[n] = 5000000000LL + k * 60000000000LL + jitter;
        t[n + 1] = t[n] + 30000000; /* a second happening of the same burst */
        n += 2;
    }
    for (int k = 0; k < 5; k++) /* noise */
        t[n++] = 17000000000LL + k * 113000000000LL;
    for (int i = 1; i < n; i++) /* sorted, as the engine gives them */
        for (int j = i; j > 0 && t[j] < t[j - 1]; j--) {
            int64_t s = t[j];
            t[j] = t[j - 1];
            t[j - 1] = s;
        }
    struct ce_period p;
    unsigned char fit[64];
    assert_int_equal(ce_period_find(t, n, &p, fit), 1);
    assert_true(fabs(p.period_s - 60.0) < 0.6);
    assert_int_equal(p.count, 10);
    assert_true(p.spread_s < 0.05);
    int fits = 0;
    for (int i = 0; i < n; i++)
        fits += fit[i];
    assert_int_equal(fits, 20);
}

/* Seen beside another test's FIFO 90 hog: two of five bursts 40 ms late, and a stray spike before them. The
 * chosen 300 ms must win over 600 ms (which fits three on time with no slot empty). */
static void test_period_late_moments(void **state)
{
    (void)state;
    int64_t ms = 1000000;
    int64_t t[] = {52 * ms, 1500 * ms, 1840 * ms, 2100 * ms, 2440 * ms, 2700 * ms};
    struct ce_period p;
    unsigned char fit[6];
    assert_int_equal(ce_period_find(t, 6, &p, fit), 1);
    assert_true(fabs(p.period_s - 0.3) < 0.3 * 0.05);
    assert_int_equal(p.count, 3);
    assert_int_equal(fit[0] + fit[1] + fit[2] + fit[3] + fit[4] + fit[5], 3);
}

static void test_no_period(void **state)
{
    (void)state;
    /* doubling gaps: no period fits half of its slots */
    int64_t t[] = {1000000000LL, 2000000000LL, 4000000000LL, 8000000000LL, 16000000000LL, 32000000000LL};
    struct ce_period p;
    unsigned char fit[6];
    assert_int_equal(ce_period_find(t, 6, &p, fit), 0);
    assert_int_equal(ce_period_find(t, 2, &p, fit), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_interrupts_this_machine),
        cmocka_unit_test(test_interrupts_64),
        cmocka_unit_test(test_truncated_and_bad_utf8),
        cmocka_unit_test(test_stat_softirqs_small_files),
        cmocka_unit_test(test_task_stat_and_cpulist),
        cmocka_unit_test(test_random_bytes),
        cmocka_unit_test(test_huge_file),
        cmocka_unit_test(test_engine_64_and_bad_utf8),
        cmocka_unit_test(test_period_found),
        cmocka_unit_test(test_period_late_moments),
        cmocka_unit_test(test_no_period),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
