/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one order of advice (src/verdict/verdict_order.c): its classes never go back; every id a verdict can give (the
 * run's own rules, the checks the verdict uses) is in it; advice given in any order comes out in the table's order,
 * an unknown id after the kernel options and before the buffer. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "verdict/verdict_order.h"
#include "verdict/verdict_internal.h"
#include "checks/checks.h"

static void test_classes_in_order(void **state)
{
    (void)state;
    size_t n = verdict_order_count();
    assert_true(n > 0);
    int seen[ADVICE_NCLASSES] = { 0 };
    for (size_t i = 0; i < n; i++) {
        const struct advice_order *e = verdict_order_get(i);
        assert_non_null(e);
        seen[e->cls] = 1;
        if (i > 0)
            assert_true(verdict_order_get(i - 1)->cls <= e->cls); /* never back to an earlier class */
        for (size_t j = 0; j < i; j++)
            assert_string_not_equal(verdict_order_get(j)->id, e->id); /* each id once */
        assert_int_equal(verdict_order_rank(e->id), i);
    }
    /* privileges first, the buffer last; the classes the order names are all there but the culprits (issue 20) */
    assert_int_equal(verdict_order_get(0)->cls, ADVICE_PRIVILEGES);
    assert_int_equal(verdict_order_get(n - 1)->cls, ADVICE_BUFFER);
    for (int c = 0; c < ADVICE_NCLASSES; c++)
        assert_true(seen[c]);
    assert_null(verdict_order_get(n));
    assert_string_equal(verdict_order_class_name(ADVICE_SERVER), "server");
}

/* Every id a verdict can give is in the table: a new rule or check cannot slip in unordered. */
static void test_every_id_ordered(void **state)
{
    (void)state;
    size_t n = verdict_order_count();
    for (size_t i = 0; i < verdict_rules_count(); i++) {
        const char *id = verdict_rule_id(i);
        size_t r = verdict_order_rank(id);
        assert_true(r < n);
        assert_string_equal(verdict_order_get(r)->id, id);
    }
    for (size_t i = 0; i < checks_count(); i++) {
        const struct check *c = checks_get(i);
        if (c->matters == CHECK_MATTERS_CHECKLIST)
            continue;
        size_t r = verdict_order_rank(c->id);
        assert_true(r < n);
        assert_string_equal(verdict_order_get(r)->id, c->id);
    }
    /* the server's priority and rtirq before any kernel option; threadirqs among the kernel options */
    assert_int_equal(verdict_order_get(verdict_order_rank("priority"))->cls, ADVICE_SERVER);
    assert_int_equal(verdict_order_get(verdict_order_rank("rtirq"))->cls, ADVICE_SERVER);
    assert_int_equal(verdict_order_get(verdict_order_rank("threadirqs"))->cls, ADVICE_KERNEL);
    assert_int_equal(verdict_order_get(verdict_order_rank("idle"))->cls, ADVICE_IDLE);
    /* the culprits (issue 24): a process, a client, our DSP, steal with what the run saw; an interrupt with the
     * server's settings; all before any kernel option */
    static const char *const run_culprits[] = { "culprit_process", "culprit_client", "culprit_dsp", "culprit_steal" };
    for (size_t i = 0; i < 4; i++)
        assert_int_equal(verdict_order_get(verdict_order_rank(run_culprits[i]))->cls, ADVICE_RUN);
    assert_int_equal(verdict_order_get(verdict_order_rank("culprit_irq"))->cls, ADVICE_SERVER);
    assert_int_equal(verdict_order_get(verdict_order_rank("culprit_softirq"))->cls, ADVICE_SERVER);
    assert_true(verdict_order_rank("culprit_softirq") < verdict_order_rank("threadirqs"));
}

/* Shuffled advice comes out in the table's order; duplicates of an id keep the order they came in. */
static void test_shuffled(void **state)
{
    (void)state;
    size_t n = verdict_order_count(), m = n + 3;
    const char **ids = calloc(m, sizeof(*ids)), **expect = calloc(m, sizeof(*expect));
    size_t *perm = calloc(m, sizeof(*perm));
    assert_non_null(ids);
    assert_non_null(expect);
    assert_non_null(perm);
    /* the expected order: the table, two unknown ids (a new one, and none) just before the buffer, a second "idle"
     * after the first */
    size_t k = 0;
    int inserted = 0;
    for (size_t i = 0; i < n; i++) {
        if (verdict_order_get(i)->cls == ADVICE_BUFFER && !inserted) {
            expect[k++] = "culprit-x";
            expect[k++] = NULL;
            inserted = 1;
        }
        expect[k++] = verdict_order_get(i)->id;
        if (strcmp(verdict_order_get(i)->id, "idle") == 0)
            expect[k++] = "idle";
    }
    assert_int_equal(k, m);
    srand(19);
    for (int round = 0; round < 200; round++) {
        for (size_t i = 0; i < m; i++)
            ids[i] = expect[i];
        for (size_t i = m - 1; i > 0; i--) { /* Fisher-Yates */
            size_t j = (size_t)rand() % (i + 1);
            const char *t = ids[i];
            ids[i] = ids[j];
            ids[j] = t;
        }
        verdict_order_sort(ids, m, perm);
        size_t last_idle = 0, last_unknown = 0;
        int idles = 0, unknowns = 0;
        for (size_t i = 0; i < m; i++) {
            const char *got = ids[perm[i]];
            /* the unknown ones (culprit-x, NULL) sit together before the buffer, in the order they came */
            if (!got || strcmp(got, "culprit-x") == 0) {
                assert_true(!expect[i] || strcmp(expect[i], "culprit-x") == 0);
                if (unknowns++)
                    assert_true(perm[i] > last_unknown); /* stable */
                last_unknown = perm[i];
                continue;
            }
            assert_non_null(expect[i]);
            assert_string_equal(got, expect[i]);
            if (strcmp(got, "idle") == 0) {
                if (idles++)
                    assert_true(perm[i] > last_idle); /* stable: the second idle stays second */
                last_idle = perm[i];
            }
        }
        assert_int_equal(idles, 2);
        assert_int_equal(unknowns, 2);
    }
    free(ids);
    free(expect);
    free(perm);
}

/* Weight within the order (issue 35): the share an advice states it explains is read from its words; entries with
 * one are ranked by it among the places they hold, the privileges and the entries without one stay; each hint
 * becomes a step with its own verb. */
static void test_weighed(void **state)
{
    (void)state;
    assert_true(fabs(verdict_order_share("IRQ 36 rose on the audio CPU before 17 of 129 xrun events under write") -
                     17.0 / 129) < 1e-12);
    assert_true(verdict_order_share("The CPU frequency governor is powersave: 2 of them") == 0);
    assert_true(verdict_order_share("3 of 129 wake-up spikes under none") == 0);
    const char *ids[] = { "buffer", "culprit_irq", "priority", "culprit_process", "realtime" };
    const double share[] = { 0, 17.0 / 129, 0, 7.0 / 129, 0.9 };
    size_t perm[5];
    verdict_order_sort_weighed(ids, share, 5, perm);
    const char *want[] = { "realtime", "culprit_irq", "priority", "culprit_process", "buffer" };
    for (size_t i = 0; i < 5; i++)
        assert_string_equal(ids[perm[i]], want[i]);
    char b[160];
    static const char *const steps[][3] = {
        { "threadirqs", "threadirqs and rtirq", "boot with threadirqs and install rtirq" },
        { "culprit_process", "stopping canary", "stop canary" },
        { "culprit_irq", "moving IRQ 36 off the audio CPU", "move IRQ 36 off the audio CPU" },
        { "buffer", "128 frames", "use 128 frames" },
        { "preempt", "preempt=full", "boot with preempt=full" },
        { "preempt", "a lowlatency kernel", "install a lowlatency kernel" },
        { "idle", "--dma-latency", "run with --dma-latency" },
        { "priority", "jackd -P 70", "start jackd -P 70" },
        { "governor", "the performance governor", "use the performance governor" },
    };
    for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
        verdict_order_step(steps[i][0], steps[i][1], b, sizeof(b));
        assert_string_equal(b, steps[i][2]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_classes_in_order),
        cmocka_unit_test(test_every_id_ordered),
        cmocka_unit_test(test_shuffled),
        cmocka_unit_test(test_weighed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
