/* SPDX-License-Identifier: GPL-2.0-or-later */
/* verdict_text.h: the verdict's sentences, appended and clipped. */
#include "verdict/verdict_text.h"
#include <stdarg.h>
#include <stdio.h>

size_t vadd(char *b, size_t n, size_t o, const char *fmt, ...)
{
    if (o >= n)
        return o;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(b + o, n - o, fmt, ap);
    va_end(ap);
    return k < 0 ? o : o + (size_t)k >= n ? n - 1 : o + (size_t)k;
}
