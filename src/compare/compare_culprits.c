/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Culprits that came or went between two runs (compare_culprits.h). A culprit present in only one run is the
 * clearest thing compare can say about why two runs differ; one present in both shows its counts before and after. */
#include "compare/compare_culprits.h"
#include "report/access.h"
#include "report/phase_figures.h"
#include <math.h>
#include <string.h>

static json_int_t count_of(const json_t *c, const char *k)
{
    double v = doc_num(c, k);
    return isnan(v) ? 0 : (json_int_t)v;
}

/* The entry of top_culprits with c's kind and name in list, NULL when none. */
static const json_t *find(const json_t *list, const json_t *c)
{
    const char *kind = doc_str(c, "kind", ""), *name = doc_str(c, "name", "");
    size_t i;
    const json_t *x;
    json_array_foreach(list, i, x)
        if (!strcmp(doc_str(x, "kind", ""), kind) && !strcmp(doc_str(x, "name", ""), name))
            return x;
    return NULL;
}

static json_t *one(const json_t *c)
{
    return json_pack("{s:s, s:s, s:I, s:I}", "kind", doc_str(c, "kind", "?"), "name", doc_str(c, "name", "?"),
                     "events", count_of(c, "events"), "spikes", count_of(c, "spikes"));
}

/* Those of `from` not in `other`, in from's rank order. */
static json_t *only_in(const json_t *from, const json_t *other)
{
    json_t *a = json_array();
    size_t i;
    const json_t *c;
    json_array_foreach(from, i, c)
        if (json_is_object(c) && !find(other, c))
            json_array_append_new(a, one(c));
    return a;
}

static json_t *stayed(const json_t *before, const json_t *after)
{
    json_t *a = json_array();
    size_t i;
    const json_t *c, *d;
    json_array_foreach(before, i, c)
        if (json_is_object(c) && (d = find(after, c)))
            json_array_append_new(a, json_pack("{s:s, s:s, s:[I,I], s:[I,I]}", "kind", doc_str(c, "kind", "?"),
                                               "name", doc_str(c, "name", "?"), "events", count_of(c, "events"),
                                               count_of(d, "events"), "spikes", count_of(c, "spikes"),
                                               count_of(d, "spikes")));
    return a;
}

/* Report i's entry, NULL when neither it nor the baseline names a culprit under this load. */
static json_t *entry(const json_t *pa, const json_t *pb, size_t i)
{
    const json_t *ta = json_object_get(pa, "top_culprits"), *tb = json_object_get(pb, "top_culprits");
    if (!json_array_size(ta) && !json_array_size(tb))
        return NULL;
    int sa = json_is_array(ta), sb = json_is_array(tb);
    json_t *e = json_pack("{s:I, s:[b,b]}", "report", (json_int_t)i, "sought", sa, sb);
    if (sa && sb) {
        json_object_set_new(e, "came", only_in(tb, ta));
        json_object_set_new(e, "went", only_in(ta, tb));
        json_object_set_new(e, "stayed", stayed(ta, tb));
    } else {
        /* One run did not look: nothing came or went that anyone could tell; what the other named is kept. */
        json_object_set_new(e, "came", json_array());
        json_object_set_new(e, "went", json_array());
        json_object_set_new(e, "stayed", json_array());
        json_object_set_new(e, "seen", only_in(sa ? ta : tb, NULL));
    }
    return e;
}

json_t *compare_culprits(json_t *const *docs, size_t n, const char *key)
{
    const json_t *pa = n ? phasefig_find(docs[0], key) : NULL;
    json_t *out = NULL;
    for (size_t i = 1; pa && i < n; i++) {
        const json_t *pb = phasefig_find(docs[i], key);
        json_t *e = pb ? entry(pa, pb, i) : NULL;
        if (!e)
            continue;
        if (!out)
            out = json_array();
        json_array_append_new(out, e);
    }
    return out;
}
