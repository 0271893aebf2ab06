/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The depth ladder's rule (see ladder_rule.h). */
#include "verdict/ladder_rule.h"
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
