/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The culprits in a report's text: after the table, per load, the few that explain most of its xrun events and
 * spikes, each with the one line of evidence a musician can act on ("spin (pid 812, FIFO 95) ran 3.0 ms on CPU 1
 * in the 50 ms before the xrun"). Read from phases[].top_culprits (culprit/culprit.h, REPORT SCHEMA), which the
 * report's builder counted from the events' own lists: nothing here counts again. */
#include "render/text_culprits.h"
#include "render/textfmt.h"
#include "render/culprit_words.h"
#include "report/access.h"
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static void wrapped(FILE *f, const struct render_opts *o, const char *first, int indent, const char *text)
{
    char *t = tx_dup(o, text);
    tx_wrap(f, first, indent, o->width, t ? t : text);
    free(t);
}

/* "4 of 5 xrun events, 2 of 12 spikes" in b: the happenings it was among the culprits of, of the phase's listed. */
static void counts(char *b, size_t n, const json_t *c, size_t nev, size_t nsp)
{
    long long e = (long long)doc_num(c, "events"), s = (long long)doc_num(c, "spikes");
    int o = 0;
    b[0] = '\0';
    if (e > 0)
        o = snprintf(b, n, "%lld of %zu xrun event%s", e, nev, nev == 1 ? "" : "s");
    if (s > 0 && o >= 0 && (size_t)o < n)
        snprintf(b + o, n - (size_t)o, "%s%lld of %zu spike%s", o ? ", " : "", s, nsp, nsp == 1 ? "" : "s");
}

static void phase_culprits(FILE *f, const json_t *p, const struct render_opts *o)
{
    const json_t *top = json_object_get(p, "top_culprits");
    size_t nev = json_array_size(json_object_get(p, "events")), nsp = json_array_size(json_object_get(p, "spikes"));
    char name[PHASE_NAME_LEN], line[1024], first[PHASE_NAME_LEN + 8];
    doc_phase_name(p, name, sizeof(name));
    snprintf(first, sizeof(first), "  %s: ", name);
    if (json_array_size(top) == 0) {
        snprintf(line, sizeof(line), "%zu xrun event%s, %zu spike%s, none explained (the sampler had no data for "
                 "them)", nev, nev == 1 ? "" : "s", nsp, nsp == 1 ? "" : "s");
        wrapped(f, o, first, 4, line);
        return;
    }
    snprintf(line, sizeof(line), "%zu xrun event%s, %zu spike%s", nev, nev == 1 ? "" : "s", nsp, nsp == 1 ? "" : "s");
    wrapped(f, o, first, 4, line);
    size_t i;
    const json_t *c;
    json_array_foreach(top, i, c) {
        if (i == TEXT_CULPRITS_PER_LOAD)
            break;
        char cnt[160], head[8];
        counts(cnt, sizeof(cnt), c, nev, nsp);
        const char *nm = doc_str(c, "name", "?"), *kw = culprit_kind_text_words(doc_str(c, "kind", NULL));
        if (strcmp(doc_str(c, "kind", ""), "none") == 0) /* not known: no basis to give ("not known, observed") */
            snprintf(line, sizeof(line), "%.100s%s%s", nm, cnt[0] ? ", " : "", cnt);
        else if (strcasecmp(nm, kw) == 0) /* "not known: not known" says it once */
            snprintf(line, sizeof(line), "%.100s, %.20s%s%s", nm, doc_str(c, "basis", "correlated"), cnt[0] ? ", " : "",
                     cnt);
        else
            snprintf(line, sizeof(line), "%.100s: %s, %.20s%s%s", nm, kw, doc_str(c, "basis", "correlated"),
                     cnt[0] ? ", " : "", cnt);
        snprintf(head, sizeof(head), "    %zu. ", i + 1);
        wrapped(f, o, head, 7, line);
        if (json_string_value(json_object_get(c, "evidence")))
            wrapped(f, o, "       ", 7, doc_str(c, "evidence", ""));
    }
}

void text_culprits(FILE *f, const json_t *doc, const struct render_opts *o)
{
    const json_t *phases = json_object_get(doc, "phases"), *p;
    size_t i;
    int any = 0, happened = 0;
    json_array_foreach(phases, i, p) {
        any |= json_is_array(json_object_get(p, "top_culprits"));
        happened |= json_array_size(json_object_get(p, "events")) || json_array_size(json_object_get(p, "spikes"));
    }
    if (!any)
        return;
    fputc('\n', f);
    if (!happened) { /* culprits were sought, and nothing happened to explain: said, not an empty heading */
        wrapped(f, o, "", 0, "Culprits: no xrun and no spike to explain.");
        return;
    }
    wrapped(f, o, "", 0, "Culprits, the first 3 of each load (correlated: counters rose around it; observed: seen "
            "happening):");
    json_array_foreach(phases, i, p)
        if (json_is_array(json_object_get(p, "top_culprits")) &&
            (json_array_size(json_object_get(p, "events")) || json_array_size(json_object_get(p, "spikes"))))
            phase_culprits(f, p, o);
}
