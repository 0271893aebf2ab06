/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Numbers for people: see numfmt.h. */
#include "util/numfmt.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

/* v (|v| < 10000) with 3 significant figures but never an exponent, and never fewer than the integer digits. */
static void plain(char *buf, size_t len, double v)
{
    double a = fabs(v);
    int dec = a >= 100 ? 0 : a >= 10 ? 1 : a >= 1 ? 2 : 3;
    if (a > 0 && a < 0.001)
        dec = (int)ceil(-log10(a)) + 2; /* 0.00012 keeps its 2 significant figures */
    if (dec > 9)
        dec = 9;
    snprintf(buf, len, "%.*f", dec, v);
    /* 3 significant figures: 4.250 -> 4.25 -> kept; trailing zeros after the point go (0.380 -> 0.38). */
    if (strchr(buf, '.')) {
        size_t l = strlen(buf);
        while (l > 0 && buf[l - 1] == '0')
            buf[--l] = '\0';
        if (l > 0 && buf[l - 1] == '.')
            buf[--l] = '\0';
    }
    if (!strcmp(buf, "-0"))
        snprintf(buf, len, "0");
}

char *num_human(char *buf, size_t len, double v)
{
    if (!len)
        return buf;
    if (!isfinite(v)) {
        snprintf(buf, len, "-");
        return buf;
    }
    static const struct { double scale; const char *suffix; } big[] = {
        { 1e9, "G" }, { 1e6, "M" }, { 1e3, "k" },
    };
    double a = fabs(v);
    if (a >= 9999.5) {
        for (size_t i = 0; i < sizeof(big) / sizeof(big[0]); i++) {
            double s = v / big[i].scale;
            if (fabs(s) < 0.9995 && i + 1 < sizeof(big) / sizeof(big[0]))
                continue;
            /* 3 significant figures of the scaled value: 961 k, 12.3 k, 1.23 M; 1e15 is 1000000 G. */
            double as = fabs(s);
            int dec = as >= 99.95 ? 0 : as >= 9.995 ? 1 : 2;
            char num[64];
            snprintf(num, sizeof(num), "%.*f", dec, s);
            if (strchr(num, '.')) {
                size_t l = strlen(num);
                while (num[l - 1] == '0')
                    num[--l] = '\0';
                if (num[l - 1] == '.')
                    num[--l] = '\0';
            }
            snprintf(buf, len, "%s %s", num, big[i].suffix);
            return buf;
        }
    }
    plain(buf, len, v);
    return buf;
}

char *num_human_unit(char *buf, size_t len, double v, const char *unit)
{
    char n[64];
    num_human(n, sizeof(n), v);
    if (unit && *unit && isfinite(v))
        snprintf(buf, len, "%s %s", n, unit);
    else
        snprintf(buf, len, "%s", n);
    return buf;
}

char *pct_met(char *buf, size_t len, double pct)
{
    if (!isfinite(pct)) {
        snprintf(buf, len, "-");
        return buf;
    }
    /* Rounded down to 0.01, with a little slack for the binary fraction (99.99 stored as 99.98999...). */
    double down = floor(pct * 100 + 1e-6) / 100;
    snprintf(buf, len, "%.2f", down);
    return buf;
}

char *dur_human(char *buf, size_t len, double us, const char *us_unit)
{
    char n[64];
    if (!isfinite(us)) {
        snprintf(buf, len, "-");
        return buf;
    }
    double a = fabs(us);
    if (a >= 999999.5) {
        plain(n, sizeof(n), us / 1e6);
        snprintf(buf, len, "%s s", n);
    } else if (a >= 999.5) {
        plain(n, sizeof(n), us / 1e3);
        snprintf(buf, len, "%s ms", n);
    } else {
        plain(n, sizeof(n), us);
        snprintf(buf, len, "%s %s", n, us_unit ? us_unit : "µs");
    }
    return buf;
}
