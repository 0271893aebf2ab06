/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The noise probe's counters and classes (src/util/noise_counters.c, noise_class.c) on a fake /proc written by the
 * test: the truth is what the test wrote between two readings, on a synthetic clock (the windows' lengths are
 * given, nothing is timed). Below the kernel cannot be injected in a VM: here it is a gap across which nothing the
 * kernel counts moved. Also: columns found by the header's CPU numbers (an offline CPU has none), a line that
 * appears between two readings, the lines that hold no per-CPU counts, and bytes that are no /proc file. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "util/noise_class.h"

#define TID 4243
struct tree {
    char root[64];
    unsigned long long loc, tlb, netrx, steal, run_delay, invol;
    int tlb_line;                      /* the TLB line exists */
};

static void put(const struct tree *t, const char *rel, const char *text)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", t->root, rel);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* CPU 1 is offline: CPU 3's column is the second. */
static void write_tree(const struct tree *t)
{
    char b[2048];
    snprintf(b, sizeof b, "           CPU0       CPU2       CPU3       \n"
             "  36:          0          7 %10llu  PCI-MSIX-0000:00:02.0   1-edge      virtio1-req.0\n"
             "LOC:        100        200 %10llu   Local timer interrupts\n"
             "ERR:          0\n"
             "MIS:          0\n", 5ULL, t->loc);
    if (t->tlb_line) { /* a line that appears: before ERR */
        char *end = strstr(b, "ERR:");
        char rest[64];
        snprintf(rest, sizeof rest, "%s", end);
        snprintf(end, sizeof b - (size_t)(end - b), "TLB:          0          0 %10llu   TLB shootdowns\n%s", t->tlb,
                 rest);
    }
    put(t, "proc/interrupts", b);
    snprintf(b, sizeof b, "                    CPU0       CPU2       CPU3       \n"
             "          HI:          0          0          0\n"
             "      NET_RX:         10         20 %10llu\n", t->netrx);
    put(t, "proc/softirqs", b);
    snprintf(b, sizeof b, "cpu  1 2 3 4 5 6 7 8 0 0\ncpu0 1 2 3 4 5 6 7 0 0 0\ncpu2 1 2 3 4 5 6 7 0 0 0\n"
             "cpu3 1 2 3 4 5 6 7 %llu 0 0\nintr 12345\n", t->steal);
    put(t, "proc/stat", b);
    snprintf(b, sizeof b, "123456789 %llu 42\n", t->run_delay);
    put(t, "proc/self/task/4243/schedstat", b);
    snprintf(b, sizeof b, "Name:\trtjitter\nvoluntary_ctxt_switches:\t3\nnonvoluntary_ctxt_switches:\t%llu\n", t->invol);
    put(t, "proc/self/task/4243/status", b);
}

static int setup(void **state)
{
    static struct tree t;
    memset(&t, 0, sizeof t);
    snprintf(t.root, sizeof t.root, "/tmp/rtj-noise-XXXXXX");
    assert_non_null(mkdtemp(t.root));
    char d[256];
    const char *dirs[] = { "proc", "proc/self", "proc/self/task", "proc/self/task/4243" };
    for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++) {
        snprintf(d, sizeof d, "%s/%s", t.root, dirs[i]);
        assert_int_equal(mkdir(d, 0700), 0);
    }
    t.loc = 1000;
    *state = &t;
    return 0;
}

static int teardown(void **state)
{
    struct tree *t = *state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", t->root);
    return system(cmd) == 0 ? 0 : -1;
}

struct probe {
    struct noise_reader rd;
    struct noise_lines lines;
    struct noise_counts before, after;
    struct noise_bg bg;
};

static int cpu3 = 3, tid = TID;

static void reading(struct tree *t, struct probe *p, struct noise_counts *c)
{
    write_tree(t);
    memset(c, 0, sizeof *c);
    noise_read(&p->rd, &p->lines, &cpu3, &tid, 1, c);
}

static int line_of(const struct probe *p, const char *name)
{
    for (int i = 0; i < p->lines.n; i++)
        if (strcmp(p->lines.name[i], name) == 0)
            return i;
    return -1;
}

/* A gap whose window is window_ns long, the counters moved by what change() did between the two readings. */
static struct noise_why gap(struct tree *t, struct probe *p, void (*change)(struct tree *), int64_t window_ns)
{
    reading(t, p, &p->before);
    change(t);
    reading(t, p, &p->after);
    struct noise_why w;
    noise_classify(&p->before, &p->after, p->lines.n, &p->bg, window_ns, &w);
    return w;
}

static void nothing(struct tree *t) { (void)t; }
static void tick2(struct tree *t) { t->loc += 2; }
static void tick12(struct tree *t) { t->loc += 12; }
static void shootdown(struct tree *t) { t->tlb_line = 1; t->tlb += 3; t->loc += 2; }
static void netrx(struct tree *t) { t->netrx += 4; }
static void preempted(struct tree *t) { t->invol++; t->loc += 40; }
static void waited(struct tree *t) { t->run_delay += 50000; }
static void stolen(struct tree *t) { t->steal++; t->netrx += 9; }

static void test_columns_and_lines(void **state)
{
    struct tree *t = *state;
    struct probe p;
    memset(&p, 0, sizeof p);
    noise_reader_open(&p.rd, t->root, &cpu3, 1);
    reading(t, &p, &p.before);
    assert_int_equal(p.before.ok, NOISE_OK_IRQ | NOISE_OK_SOFTIRQ | NOISE_OK_STAT | NOISE_OK_SCHED | NOISE_OK_STATUS);
    int loc = line_of(&p, "LOC"), dev = line_of(&p, "36:virtio1-req.0"), rx = line_of(&p, "NET_RX");
    assert_true(loc >= 0 && dev >= 0 && rx >= 0);
    assert_int_equal(p.before.line[loc], 1000); /* CPU 3's column, the third: not CPU 2's 200 */
    assert_int_equal(p.before.line[dev], 5);
    assert_int_equal(p.lines.softirq[rx], 1);
    assert_int_equal(line_of(&p, "ERR"), -1); /* one total, no per-CPU count */
    assert_int_equal(line_of(&p, "MIS"), -1);
    assert_int_equal(p.before.run_delay_ns, 0);
    assert_int_equal(p.before.exec_ns, 123456789);
    assert_int_equal(p.before.smi, -1); /* no MSR file in the tree */
    noise_reader_close(&p.rd, 1);
}

static void test_classes(void **state)
{
    struct tree *t = *state;
    struct probe p;
    memset(&p, 0, sizeof p);
    noise_reader_open(&p.rd, t->root, &cpu3, 1);
    /* Before any background: nothing moved -> below the kernel; a tick -> named (no background says it is usual). */
    struct noise_why w = gap(t, &p, nothing, 10000000);
    assert_int_equal(w.cls, NOISE_BELOW);
    w = gap(t, &p, tick2, 10000000);
    assert_int_equal(w.cls, NOISE_IRQ);
    assert_string_equal(p.lines.name[w.line], "LOC");
    /* The background: 100 ms without a gap, 20 ticks (2 per 10 ms). */
    reading(t, &p, &p.before);
    t->loc += 20;
    reading(t, &p, &p.after);
    noise_bg_add(&p.bg, &p.before, &p.after, p.lines.n, 100000000);
    /* The usual 2 ticks in 10 ms: nothing beyond the background -> below the kernel (a host's stall). */
    w = gap(t, &p, tick2, 10000000);
    assert_int_equal(w.cls, NOISE_BELOW);
    w = gap(t, &p, tick12, 10000000); /* 12 where 2 are usual */
    assert_int_equal(w.cls, NOISE_IRQ);
    assert_string_equal(p.lines.name[w.line], "LOC");
    assert_int_equal(w.line_delta, 12);
    w = gap(t, &p, shootdown, 10000000); /* a line that appeared: its 3 against a background of none */
    assert_int_equal(w.cls, NOISE_IRQ);
    assert_string_equal(p.lines.name[w.line], "TLB");
    w = gap(t, &p, netrx, 10000000);
    assert_int_equal(w.cls, NOISE_IRQ);
    assert_string_equal(p.lines.name[w.line], "NET_RX");
    /* Three gaps in one window where TLB rose by 2 beyond its background: two are named TLB, the third is below the
     * kernel (a line is named for no more gaps than its count rose). */
    reading(t, &p, &p.before);
    t->tlb += 2;
    reading(t, &p, &p.after);
    uint32_t budget[NOISE_LINES_MAX];
    noise_budget(&p.before, &p.after, p.lines.n, &p.bg, 10000000, budget);
    enum noise_class got[3];
    for (int g = 0; g < 3; g++) {
        noise_classify_gap(&p.before, &p.after, p.lines.n, budget, &w);
        got[g] = w.cls;
    }
    assert_int_equal(got[0], NOISE_IRQ);
    assert_int_equal(got[1], NOISE_IRQ);
    assert_int_equal(got[2], NOISE_BELOW);
    /* The thread's own counters win over the lines that rose with them. */
    w = gap(t, &p, preempted, 10000000);
    assert_int_equal(w.cls, NOISE_SCHED);
    w = gap(t, &p, waited, 10000000);
    assert_int_equal(w.cls, NOISE_SCHED);
    /* How many gaps of a window the scheduler explains: one per involuntary switch, one for a run delay alone. */
    reading(t, &p, &p.before);
    t->invol += 2;
    t->run_delay += 1000;
    reading(t, &p, &p.after);
    assert_int_equal(noise_sched_count(&p.before, &p.after), 2);
    reading(t, &p, &p.before);
    t->run_delay += 1000;
    reading(t, &p, &p.after);
    assert_int_equal(noise_sched_count(&p.before, &p.after), 1);
    reading(t, &p, &p.before);
    reading(t, &p, &p.after);
    assert_int_equal(noise_sched_count(&p.before, &p.after), 0);
    w = gap(t, &p, stolen, 10000000);
    assert_int_equal(w.cls, NOISE_STEAL);
    /* An SMI count (MSR 0x34) that moved. */
    reading(t, &p, &p.before);
    p.after = p.before;
    p.before.smi = 7;
    p.after.smi = 8;
    noise_classify(&p.before, &p.after, p.lines.n, &p.bg, 10000000, &w);
    assert_int_equal(w.cls, NOISE_SMI);
    /* Counters not read (the softirqs file gone): not known, never below the kernel. */
    char path[256];
    snprintf(path, sizeof path, "%s/proc/softirqs", t->root);
    reading(t, &p, &p.before);
    unlink(path);
    memset(&p.after, 0, sizeof p.after);
    noise_read(&p.rd, &p.lines, &cpu3, &tid, 1, &p.after);
    noise_classify(&p.before, &p.after, p.lines.n, &p.bg, 10000000, &w);
    assert_int_equal(w.cls, NOISE_UNKNOWN);
    noise_reader_close(&p.rd, 1);
}

/* Bytes that are no /proc file: fewer rows, never a crash or a read past the end. */
static void test_garbage(void **state)
{
    (void)state;
    struct noise_lines lines;
    struct noise_counts c[1];
    memset(&lines, 0, sizeof lines);
    memset(c, 0, sizeof c);
    const char *bad[] = { "", "CPU3", "   CPU3\nLOC:", "   CPU3\nLOC: 99999999999999999999999 x\n",
                          "\xff\xfe CPU3\n:::\n 1: 2\n", "   CPU3 CPU4\nX: 1\nY:\t\t\n" };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        noise_parse_table(bad[i], strlen(bad[i]), 0, &lines, &cpu3, 1, c);
        noise_parse_steal(bad[i], strlen(bad[i]), &cpu3, 1, c);
        noise_parse_schedstat(bad[i], strlen(bad[i]), c);
        noise_parse_invol(bad[i], strlen(bad[i]), c);
    }
    assert_int_equal(noise_parse_table("   CPU0\n", 8, 0, &lines, &cpu3, 1, c), -1); /* no column of CPU 3 */
    /* a huge count saturates */
    const char *big = "   CPU3\nLOC: 99999999999999999999999 x\n";
    assert_int_equal(noise_parse_table(big, strlen(big), 0, &lines, &cpu3, 1, c), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_columns_and_lines, setup, teardown),
        cmocka_unit_test_setup_teardown(test_classes, setup, teardown),
        cmocka_unit_test(test_garbage),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
