/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Work functions' names from /proc/kallsyms (trace_ksym.h). The sampler thread only. */
#include "culprit/trace_ksym.h"
#include "culprit/trace_stream.h"
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *ksym_name(struct ksym_names *k, uint64_t addr, char *hex, size_t len)
{
    for (int i = 0; i < k->nfn; i++)
        if (k->fn[i].addr == addr)
            return k->fn[i].name;
    snprintf(hex, len, "0x%" PRIx64, addr);
    int known = 0;
    for (int i = 0; i < k->npending && !known; i++)
        known = k->pending[i] == addr;
    if (!known && k->npending < KSYM_PENDING)
        k->pending[k->npending++] = addr;
    return hex;
}

int ksym_resolve(struct ksym_names *k, struct trace_stream *ts)
{
    if (!k->npending)
        return 0;
    uint64_t at[KSYM_PENDING];
    char name[KSYM_PENDING][48];
    char cand[KSYM_PENDING][128]; /* the best line so far, as read ("name\t[module]"): formatted once, at the end */
    int n = k->npending;
    for (int i = 0; i < n; i++)
        at[i] = 0, name[i][0] = cand[i][0] = '\0';
    /* the text symbol at or below each address: its function (a pointer to a work function is its start); the file
     * is mostly in ascending order, so nearly every line below an address improves on the one before: copied only */
    FILE *f = fopen("/proc/kallsyms", "re");
    char line[512];
    while (f && fgets(line, sizeof(line), f)) {
        char *e;
        uint64_t a = strtoull(line, &e, 16);
        if (!a || e[0] != ' ' || (e[1] != 't' && e[1] != 'T') || e[2] != ' ')
            continue; /* a hidden address (kptr_restrict) is 0: nothing is named */
        size_t l = 0;
        for (int i = 0; i < n; i++) {
            if (a > k->pending[i] || a < at[i] || (a == at[i] && cand[i][0]))
                continue;
            if (!l)
                l = strnlen(e + 3, sizeof(cand[i]) - 1);
            at[i] = a;
            memcpy(cand[i], e + 3, l);
            cand[i][l] = '\0';
        }
    }
    if (f)
        fclose(f);
    for (int i = 0; i < n; i++) {
        if (!cand[i][0])
            continue;
        char *s = cand[i], *tab = strpbrk(s, "\t\n"), *mod = tab && *tab == '\t' ? strchr(tab, '[') : NULL;
        int sl = tab ? (int)(tab - s) : (int)strlen(s);
        size_t ml = mod ? strcspn(mod, "]\n") : 0;
        snprintf(name[i], sizeof(name[i]), "%.*s%s%.*s%s", sl, s, mod ? " " : "", (int)ml, mod ? mod : "",
                 mod ? "]" : "");
    }
    int named = 0;
    for (int i = 0; i < n; i++) {
        char hex[24];
        snprintf(hex, sizeof(hex), "0x%" PRIx64, k->pending[i]);
        /* an address with no symbol keeps its number, once: it is not looked up again */
        const char *nm = name[i][0] ? name[i] : hex;
        if (k->nfn < KSYM_NAMES) {
            k->fn[k->nfn].addr = k->pending[i];
            snprintf(k->fn[k->nfn++].name, sizeof(k->fn[0].name), "%.47s", nm);
        }
        if (name[i][0]) {
            if (ts)
                ts_rename_fn(ts, hex, nm);
            named++;
        }
    }
    k->npending = 0;
    return named;
}
