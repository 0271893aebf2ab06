/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The size a PipeWire graph runs at, decided from what its settings metadata says (rtaudio/pipewire/pw_size.c): the
 * values as PipeWire 0.3.65's `pw-metadata -n settings 0` prints them on a private PipeWire (clock.rate '48000',
 * clock.allowed-rates '[ 48000 ]', clock.quantum '1024', clock.force-quantum '0' or '256', clock.force-rate '0'). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include "pipewire/pw_size.h"

static void test_values_as_pipewire_writes_them(void **state)
{
    (void)state;
    assert_int_equal(pws_parse_value("256"), 256);
    assert_int_equal(pws_parse_value("0"), 0);
    assert_int_equal(pws_parse_value(NULL), -1);
    assert_int_equal(pws_parse_value(""), -1);
    assert_int_equal(pws_parse_value("-1"), -1);
    assert_int_equal(pws_parse_value(" 64"), -1);
    assert_int_equal(pws_parse_value("64x"), -1);
    assert_int_equal(pws_parse_value("99999999999999999999"), -1);
    assert_int_equal(pws_parse_rates("[ 48000 ]"), 48000);
    assert_int_equal(pws_parse_rates("[ 44100 48000 ]"), 0);
    assert_int_equal(pws_parse_rates("[44100,48000]"), 0);
    assert_int_equal(pws_parse_rates("[ ]"), -1);
    assert_int_equal(pws_parse_rates("48000"), -1);
    assert_int_equal(pws_parse_rates("[ 48000"), -1);
    assert_int_equal(pws_parse_rates("[ 48000 ] x"), -1);
    assert_int_equal(pws_parse_rates(NULL), -1);
}

/* A forced quantum is the answer whether a graph runs or not; so is a forced rate. */
static void test_forced_wins(void **state)
{
    (void)state;
    int rate = 0, period = 0;
    struct pws_facts f = { .force_quantum = 256, .quantum = 1024, .force_rate = 0, .rate = 48000,
                           .allowed_rate = 48000, .running_nodes = 3 };
    assert_int_equal(pws_decide(&f, &rate, &period), 1);
    assert_int_equal(period, 256);
    assert_int_equal(rate, 48000);
    f.force_rate = 96000;
    f.allowed_rate = 0;
    assert_int_equal(pws_decide(&f, &rate, &period), 1);
    assert_int_equal(rate, 96000);
    /* several allowed rates, a graph running, the rate not forced: which one it runs is not told */
    f.force_rate = 0;
    rate = period = 0;
    assert_int_equal(pws_decide(&f, &rate, &period), 0);
    assert_int_equal(rate, 0);
    assert_int_equal(period, 0);
}

/* Unforced, clock.quantum is only the default: known while no node runs, not known while a graph runs (its nodes'
 * node.latency decide it) or when whether one runs is not known. */
static void test_default_only_when_idle(void **state)
{
    (void)state;
    int rate = 0, period = 0;
    struct pws_facts f = { .force_quantum = 0, .quantum = 1024, .force_rate = 0, .rate = 48000,
                           .allowed_rate = 48000, .running_nodes = 0 };
    assert_int_equal(pws_decide(&f, &rate, &period), 1);
    assert_int_equal(period, 1024);
    assert_int_equal(rate, 48000);
    f.running_nodes = 1;
    assert_int_equal(pws_decide(&f, &rate, &period), 0);
    f.running_nodes = -1;
    assert_int_equal(pws_decide(&f, &rate, &period), 0);
}

/* What the server did not say is never guessed: no settings metadata (every fact -1), or a value it could not
 * parse. */
static void test_untold_is_not_known(void **state)
{
    (void)state;
    int rate = 7, period = 7;
    struct pws_facts none = { -1, -1, -1, -1, -1, -1 };
    assert_int_equal(pws_decide(&none, &rate, &period), 0);
    struct pws_facts no_rate = { .force_quantum = 256, .quantum = 1024, .force_rate = -1, .rate = -1,
                                 .allowed_rate = -1, .running_nodes = 0 };
    assert_int_equal(pws_decide(&no_rate, &rate, &period), 0);
    struct pws_facts bad_force = { .force_quantum = -1, .quantum = 1024, .force_rate = 0, .rate = 48000,
                                   .allowed_rate = 48000, .running_nodes = 0 };
    assert_int_equal(pws_decide(&bad_force, &rate, &period), 0);
    assert_int_equal(rate, 7);
    assert_int_equal(period, 7);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values_as_pipewire_writes_them),
        cmocka_unit_test(test_forced_wins),
        cmocka_unit_test(test_default_only_when_idle),
        cmocka_unit_test(test_untold_is_not_known),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
