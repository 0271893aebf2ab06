/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The comparison's plain words: see compare_summary.h. A difference of the two runs alone (worse or better in this
 * pair) is said first when there is one, and counted apart: it is not a call on the set-ups, and it is not "no clear
 * difference" either. */
#include "compare/compare_summary.h"
#include "compare/compare_verdict.h"
#include "report/access.h"
#include "util/utf8.h"
#include <stdio.h>
#include <string.h>

/* The outcomes a sentence names measures of, in the order of named[] below. */
static const char *const onames[4] = { "worse", "better", "worse_in_pair", "better_in_pair" };

/* The measures of report i of each outcome (onames), in the words of the tables and verdict lines (|jitter|), at most
 * 6 named: into named[0..4) (new arrays). */
static void named_measures(const json_t *loads, size_t i, json_t *named[4])
{
    size_t li;
    const json_t *kv;
    for (int L = 0; L < 4; L++)
        named[L] = json_array();
    json_array_foreach(loads, li, kv) {
        size_t j;
        const json_t *v;
        json_array_foreach(json_object_get(kv, "verdicts"), j, v) {
            if ((size_t)json_integer_value(json_object_get(v, "report")) != i)
                continue;
            const char *o = doc_str(v, "outcome", "");
            char s[200];
            const char *metric = doc_str(v, "metric", "");
            int jit = !strncmp(metric, "jitter", 6);
            snprintf(s, sizeof(s), "%s%s under %s", jit ? "|jitter|" : "", jit ? metric + 6 : metric,
                     doc_str(kv, "load", NULL));
            utf8_trim(s);
            for (int L = 0; L < 4; L++)
                if (!strcmp(o, onames[L]) && json_array_size(named[L]) < 6)
                    json_array_append_new(named[L], json_string(s));
        }
    }
}

/* One report's sentence into line (len bytes; cut when longer), from its tally and named measures. */
static void summary_line(char *line, size_t len, const char *title, const char *base, const struct tally *ty,
                         json_t *const named[4])
{
    size_t off = 0;
#define SAY(...)                                                                                                       \
    do {                                                                                                               \
        if (off < len) {                                                                                               \
            int k_ = snprintf(line + off, len - off, __VA_ARGS__);                                                     \
            off = k_ < 0 ? len : off + (size_t)k_;                                                                     \
        }                                                                                                              \
    } while (0)
    SAY("%s against %s: ", title, base);
    if (ty->worse_pair || ty->better_pair) {
        if (ty->worse_pair)
            SAY("worse in %d measure%s in this pair", ty->worse_pair, ty->worse_pair == 1 ? "" : "s");
        if (ty->better_pair)
            SAY("%sbetter in %d measure%s in this pair", ty->worse_pair ? ", " : "", ty->better_pair,
                ty->better_pair == 1 ? "" : "s");
        SAY(", not yet confirmed across runs: run each set-up twice more, into one directory, and compare again.");
        for (int L = 2; L < 4; L++) {
            size_t j;
            const json_t *s;
            json_array_foreach(named[L], j, s)
                SAY("%s%s", j ? ", " : L == 2 ? " Worse in this pair: " : " Better in this pair: ",
                    json_string_value(s));
            if (json_array_size(named[L]))
                SAY(".");
        }
        SAY(" Across runs: ");
    }
    SAY("better in %d measure%s, worse in %d, no clear difference in %d", ty->better, ty->better == 1 ? "" : "s",
        ty->worse, ty->same);
    if (ty->na)
        SAY(", not compared in %d (too few seconds, or no count per second)", ty->na);
    SAY(".");
    for (int L = 0; L < 2; L++) {
        size_t j;
        const json_t *s;
        json_array_foreach(named[L], j, s)
            SAY("%s%s", j ? ", " : L == 0 ? " Worse: " : " Better: ", json_string_value(s));
        if (json_array_size(named[L]))
            SAY(".");
    }
    if (!ty->better && !ty->worse && !ty->worse_pair && !ty->better_pair)
        SAY(" Nothing here is beyond run-to-run noise.");
#undef SAY
    utf8_trim(line);
}

json_t *compare_summary(const json_t *loads, const struct tally *tallies, const char *const *titles, size_t n)
{
    json_t *summary = json_array();
    for (size_t i = 1; i < n; i++) {
        json_t *named[4];
        named_measures(loads, i, named);
        char line[3072];
        summary_line(line, sizeof(line), titles[i], titles[0], &tallies[i], named);
        json_array_append_new(summary, json_string(line));
        for (int L = 0; L < 4; L++)
            json_decref(named[L]);
    }
    return summary;
}
