/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one table of culprit kinds (culprit/culprit_kinds.c), looped over: every kind has a token that parses back and
 * survives a JSON round trip, words for HTML and compare and for the text, and either a verdict rule (whose id is in
 * the verdict's own rule table, and whose row says the advice or leaves it to the rule) or nothing of the verdict's.
 * A kind added to the enum without its row, or a rule renamed on one side only, fails here. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "culprit/culprit.h"
#include "render/culprit_words.h"
#include "verdict/verdict_internal.h"

static const struct advice_rule *rule_by_id(const char *id)
{
    for (size_t i = 0; i < verdict_culprit_rules_count(); i++)
        if (strcmp(verdict_culprit_rule(i)->id, id) == 0)
            return verdict_culprit_rule(i);
    return NULL;
}

static int has_placeholders(const char *s)
{
    int n = 0;
    for (const char *p = s; p && (p = strchr(p, '%')); p++)
        n += p[1] == 's' ? 1 : 100; /* only "%s", at most once */
    return n;
}

static void every_kind_has_its_row(void **state)
{
    (void)state;
    for (int k = 0; k < CK_COUNT; k++) {
        const struct culprit_kind_info *in = culprit_kind_info((enum culprit_kind)k);
        assert_non_null(in);
        assert_non_null(in->token);
        assert_true(in->token[0] != '\0');
        assert_int_equal(culprit_kind_parse(in->token), k);
        assert_string_equal(culprit_kind_name((enum culprit_kind)k), in->token);
        assert_ptr_equal(culprit_kind_info_of(in->token), in);
        assert_non_null(in->words);
        assert_true(in->words[0] != '\0');
        assert_non_null(in->text_words);
        assert_true(in->text_words[0] != '\0');
        assert_string_equal(culprit_kind_words(in->token), in->words);
        assert_string_equal(culprit_kind_text_words(in->token), in->text_words);
        assert_true(has_placeholders(in->lead) <= 1);
        assert_true(has_placeholders(in->hint) <= 1);
        assert_true(has_placeholders(in->advice) == 0);
        if (!in->rule) { /* nothing of the verdict's without a rule */
            assert_null(in->lead);
            assert_null(in->advice);
            assert_null(in->hint);
            continue;
        }
        const struct advice_rule *r = rule_by_id(in->rule);
        if (!r)
            fail_msg("kind %s: rule %s is not in the verdict's table", in->token, in->rule);
        assert_non_null(r->applies);
        assert_non_null(r->say);
        if (in->hint)
            assert_non_null(r->hint);
        /* its row tells the advice, or its rule writes it: a row with words for the rule to write is never half */
        if (in->advice)
            assert_non_null(in->lead);
    }
    /* and no two kinds share a token or a rule, and every culprit rule of the verdict is some kind's */
    for (int a = 0; a < CK_COUNT; a++)
        for (int b = a + 1; b < CK_COUNT; b++) {
            assert_string_not_equal(culprit_kind_info(a)->token, culprit_kind_info(b)->token);
            if (culprit_kind_info(a)->rule && culprit_kind_info(b)->rule)
                assert_string_not_equal(culprit_kind_info(a)->rule, culprit_kind_info(b)->rule);
        }
    for (size_t i = 0; i < verdict_culprit_rules_count(); i++) {
        int found = 0;
        for (int k = 0; k < CK_COUNT; k++)
            found += culprit_kind_info(k)->rule && strcmp(culprit_kind_info(k)->rule, verdict_culprit_rule(i)->id) == 0;
        if (found != 1)
            fail_msg("verdict rule %s is the rule of %d kinds", verdict_culprit_rule(i)->id, found);
    }
}

static void unknown_kinds(void **state)
{
    (void)state;
    assert_int_equal(culprit_kind_parse("no_such_kind"), CK_COUNT);
    assert_int_equal(culprit_kind_parse(NULL), CK_COUNT);
    assert_null(culprit_kind_info_of("no_such_kind"));
    assert_null(culprit_kind_info(CK_COUNT));
    assert_string_equal(culprit_kind_name(CK_COUNT), "none");
    /* a renderer shows an unknown kind by its own name, a missing one as "?" */
    assert_string_equal(culprit_kind_words("no_such_kind"), "no_such_kind");
    assert_string_equal(culprit_kind_text_words(NULL), "?");
}

static void json_round_trip(void **state)
{
    (void)state;
    for (int k = 0; k < CK_COUNT; k++) {
        struct culprit c = { .kind = (enum culprit_kind)k, .basis = CB_OBSERVED, .pid = 812, .tid = 813, .cpu = 1,
                             .irq = 145, .affinity_fixed = k % 2 ? 1 : -1, .score = 2.5 }, back;
        snprintf(c.name, sizeof(c.name), "name of %d", k);
        snprintf(c.evidence, sizeof(c.evidence), "evidence of %d", k);
        json_t *j = culprit_json(&c);
        assert_non_null(j);
        assert_string_equal(json_string_value(json_object_get(j, "kind")), culprit_kind_info(k)->token);
        char *text = json_dumps(j, 0);
        json_t *again = json_loads(text, 0, NULL);
        assert_int_equal(culprit_from_json(again, &back), 0);
        assert_int_equal(back.kind, k);
        assert_int_equal(back.basis, CB_OBSERVED);
        assert_string_equal(back.name, c.name);
        assert_string_equal(back.evidence, c.evidence);
        assert_int_equal(back.pid, 812);
        assert_int_equal(back.tid, 813);
        assert_int_equal(back.cpu, 1);
        assert_int_equal(back.irq, k == CK_IRQ ? 145 : -1); /* irq is written for CK_IRQ only */
        assert_int_equal(back.affinity_fixed, k == CK_IRQ ? c.affinity_fixed : 0); /* "fixed" or "movable" */
        assert_true(back.score == 2.5);
        free(text);
        json_decref(again);
        json_decref(j);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_kind_has_its_row),
        cmocka_unit_test(unknown_kinds),
        cmocka_unit_test(json_round_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
