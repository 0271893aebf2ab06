/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The culprits in a report's text (src/render/text_culprits.c): per load, the first 3 of its top_culprits with what
 * they are, their basis, what they explain of the load's listed events and spikes, and their first evidence line,
 * every line within the width; nothing at all when no phase has top_culprits. The truth: the culprits this test
 * writes into its document. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "render/text_culprits.h"
#include "util/wrap.h"

static char *render(const json_t *doc, int width)
{
    struct render_opts o = { .width = width };
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    assert_non_null(f);
    text_culprits(f, doc, &o);
    fclose(f);
    return out;
}

static json_t *top(const char *kind, const char *name, int ev, int sp, const char *evidence)
{
    return json_pack("{s:s, s:s, s:s, s:i, s:i, s:s}", "kind", kind, "name", name, "basis", "correlated", "events",
                     ev, "spikes", sp, "evidence", evidence);
}

static void test_top_three_within_width(void **state)
{
    (void)state;
    const char *ev = "a real-time task above the audio thread ran on CPU 1: spin (pid 812, FIFO 95), 3.0 ms in the 50 "
                     "ms before the xrun";
    json_t *doc = json_pack("{s:[{s:s, s:[{}, {}, {}, {}, {}], s:[{}, {}], s:[o, o, o, o]}]}", "phases", "load",
                            "burn", "events", "spikes", "top_culprits", top("rt_task", "spin", 4, 0, ev),
                            top("irq", "IRQ 145 (iwlwifi)", 2, 1, "IRQ 145 (iwlwifi) on CPU 2: 41 in 100 ms, usually 2"),
                            top("steal", "steal", 1, 0, "the host took 4.0 ms"),
                            top("softirq", "NET_RX", 1, 0, "the fourth, not shown"));
    char *out = render(doc, 60);
    assert_non_null(strstr(out, "Culprits"));
    assert_non_null(strstr(out, "  burn: 5 xrun events, 2 spikes\n"));
    assert_non_null(strstr(out, "    1. spin: real-time task, correlated, 4 of 5 xrun events\n"));
    assert_non_null(strstr(out, "2. IRQ 145 (iwlwifi): interrupt, correlated, 2 of 5 xrun"));
    assert_non_null(strstr(out, "1 of 2 spikes"));
    assert_non_null(strstr(out, "3. steal: hypervisor steal"));
    assert_null(strstr(out, "NET_RX"));
    assert_non_null(strstr(out, "       a real-time task above the audio thread ran on CPU 1:"));
    for (char *l = strtok(out, "\n"); l; l = strtok(NULL, "\n"))
        if (wrap_cols(l) > 60)
            fail_msg("over 60 columns: %s", l);
    free(out);
    json_decref(doc);
}

/* No top_culprits anywhere: not a byte (the golden outputs of reports without culprits stay as they were). */
static void test_nothing_without_culprits(void **state)
{
    (void)state;
    json_t *doc = json_pack("{s:[{s:s, s:[{}]}]}", "phases", "load", "none", "events");
    char *out = render(doc, 80);
    assert_string_equal(out, "");
    free(out);
    json_decref(doc);
}

/* Culprits sought (top_culprits there, empty) and nothing happened: one line says so, never an empty heading (seen
 * at 1024 frames: "Culprits, the first 3 of each load ...:" and nothing under it). */
static void test_nothing_happened(void **state)
{
    (void)state;
    json_t *doc = json_pack("{s:[{s:s, s:[], s:[], s:[]}]}", "phases", "load", "none", "events", "spikes",
                            "top_culprits");
    char *out = render(doc, 80);
    assert_string_equal(out, "\nCulprits: no xrun and no spike to explain.\n");
    free(out);
    json_decref(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_top_three_within_width),
        cmocka_unit_test(test_nothing_without_culprits),
        cmocka_unit_test(test_nothing_happened),
    };
    return cmocka_run_group_tests_name("text_culprits", tests, NULL, NULL);
}
