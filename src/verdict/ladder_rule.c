/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The depth ladder's rule (see ladder_rule.h). */
#include "verdict/ladder_rule.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

size_t ladder_trouble_start(const char *const *levels, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (levels[i] && strcmp(levels[i], "fail") == 0)
            return i;
    return n;
}

#define LADDER_BELOW_MAX 8

int ladder_kernel_cleared(const json_t *doc, char *names, size_t len)
{
    const json_t *below = json_object_get(json_object_get(doc, "ladder"), "below");
    size_t n = json_array_size(below);
    if (len)
        names[0] = '\0';
    if (n == 0 || n > LADDER_BELOW_MAX)
        return 0;
    const char *levels[LADDER_BELOW_MAX];
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        const json_t *d = json_array_get(below, i);
        levels[i] = json_string_value(json_object_get(d, "level"));
        if (!levels[i])
            return 0; /* a depth not judged cleared nothing */
        const char *name = json_string_value(json_object_get(d, "depth"));
        if (o < len) {
            int k = snprintf(names + o, len - o, "%s%.40s", i == 0 ? "" : i == n - 1 ? " and " : ", ",
                             name ? name : "?");
            o = k < 0 ? o : o + (size_t)k;
        }
    }
    return ladder_trouble_start(levels, n) == n;
}

double ladder_below_kernel_us(const json_t *doc, double *gaps)
{
    double max = NAN, n = 0;
    size_t i, k;
    const json_t *p, *c;
    json_array_foreach(json_object_get(doc, "phases"), i, p) {
        const json_t *nz = json_object_get(p, "noise");
        json_array_foreach(json_object_get(nz, "cpus"), k, c) {
            const json_t *b = json_object_get(json_object_get(c, "classes"), "below_kernel");
            double m = json_number_value(json_object_get(b, "max_us"));
            n += json_number_value(json_object_get(b, "count"));
            if (json_is_number(json_object_get(b, "max_us")) && (isnan(max) || m > max))
                max = m;
        }
    }
    if (gaps)
        *gaps = n;
    return max;
}

double ladder_host_first(const json_t *doc, double period_us, int *vm)
{
    const json_t *au = json_object_get(doc, "audio");
    const json_t *virt = json_object_get(au, "virtual");
    double max = ladder_below_kernel_us(doc, NULL);
    size_t i;
    const json_t *d;
    json_array_foreach(json_object_get(json_object_get(doc, "ladder"), "below"), i, d) {
        const json_t *m = json_object_get(d, "below_kernel_max_us");
        if (json_is_number(m) && (isnan(max) || json_number_value(m) > max)) {
            max = json_number_value(m);
            virt = json_object_get(d, "virtual");
        }
    }
    *vm = json_is_boolean(virt) ? json_is_true(virt) : -1;
    return !isnan(max) && period_us > 0 && max >= period_us ? max : NAN;
}
