/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The binary trace's work functions named (src/culprit/trace_ksym.c) against /proc/kallsyms read by this test
 * itself: a function's start address and an address inside it get the kernel's name for it ("name", or "name
 * [module]" as %ps prints a module's), an address is remembered once, and a name the stream holds as "0x..." is
 * renamed in its table. Skipped where kallsyms hides its addresses (not root, kptr_restrict). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "culprit/trace_ksym.h"

/* A text symbol of kallsyms alone at its address (aliases share one: the kernel's %ps may print any of them) with
 * more than one byte to the next: its address, its name as %ps prints it. 0 when the addresses are hidden. */
static uint64_t pick(char *name, size_t len, int want_module)
{
    FILE *f = fopen("/proc/kallsyms", "re");
    char line[512], prev[264] = "";
    unsigned long long pa = 0, ppa = 0;
    int pmod = 0;
    while (f && fgets(line, sizeof(line), f)) {
        unsigned long long a;
        char t, sym[200], mod[64] = "";
        int n = sscanf(line, "%llx %c %199s %63s", &a, &t, sym, mod);
        if (n < 3 || !a)
            continue;
        if (pa && a > pa + 1 && pa > ppa && pmod == (want_module != 0) && prev[0]) {
            snprintf(name, len, "%s", prev);
            fclose(f);
            return pa;
        }
        ppa = pa, pa = a, pmod = n == 4, prev[0] = '\0';
        if (t == 't' || t == 'T')
            snprintf(prev, sizeof(prev), "%s%s%s", sym, n == 4 ? " " : "", n == 4 ? mod : "");
    }
    if (f)
        fclose(f);
    return 0;
}

static void test_named(void **state)
{
    (void)state;
    char want[256];
    uint64_t a = pick(want, sizeof(want), 0);
    if (!a)
        skip(); /* kallsyms hides its addresses here */
    static struct ksym_names k;
    memset(&k, 0, sizeof(k));
    char hex[24], hex2[24];
    const char *n = ksym_name(&k, a, hex, sizeof(hex));
    char expect[24];
    snprintf(expect, sizeof(expect), "0x%" PRIx64, a);
    assert_string_equal(n, expect);                 /* not named yet: its address */
    ksym_name(&k, a, hex, sizeof(hex));             /* remembered once */
    ksym_name(&k, a + 1, hex2, sizeof(hex2));       /* inside the function */
    assert_int_equal(k.npending, 2);
    assert_int_equal(ksym_resolve(&k, NULL), 2);
    assert_int_equal(k.npending, 0);
    assert_string_equal(ksym_name(&k, a, hex, sizeof(hex)), want);
    assert_string_equal(ksym_name(&k, a + 1, hex, sizeof(hex)), want);
    char mod[256];
    uint64_t m = pick(mod, sizeof(mod), 1);
    if (m) { /* a module's function, as %ps prints it: "name [module]" */
        ksym_name(&k, m, hex, sizeof(hex));
        assert_int_equal(ksym_resolve(&k, NULL), 1);
        assert_string_equal(ksym_name(&k, m, hex, sizeof(hex)), mod);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = { cmocka_unit_test(test_named) };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
