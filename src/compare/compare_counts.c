/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Two phases' counts per second, for the permutation test of their ranks (stats/perm_test.c): see compare_counts.h
 * for why. */
#include "compare/compare_counts.h"
#include "compare/compare_blocks.h"
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* count_test() halves the runs as blocks_half_shifts() does */
_Static_assert(COUNTS_HALF_MIN == BLOCKS_HALF_MIN, "the halves of a run: one size for counts and latencies");

int count_test_phases(const json_t *pa, const json_t *pb, const char *key, struct count_test *out)
{
    double *a, *b;
    int na = blocks_of(pa, key, &a), nb = blocks_of(pb, key, &b), rc;
    memset(out, 0, sizeof(*out));
    out->rate_a = out->rate_b = out->p_value = out->half_lo = out->half_hi = NAN;
    if (na < 0 || nb < 0) {
        rc = -ENOMEM;
        goto out;
    }
    /* every whole second must count key: a second without the key is not a second without events */
    double *ca, *cb;
    int wa = blocks_of(pa, "cycles", &ca), wb = blocks_of(pb, "cycles", &cb);
    free(ca);
    free(cb);
    if (na == 0 || nb == 0 || na != wa || nb != wb) {
        out->na = (size_t)(wa > 0 ? wa : 0);
        out->nb = (size_t)(wb > 0 ? wb : 0);
        rc = -ENODATA;
        goto out;
    }
    rc = count_test(a, (size_t)na, b, (size_t)nb, out);
out:
    free(a);
    free(b);
    return rc;
}
