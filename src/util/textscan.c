/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Scanning /proc's text in place (textscan.h). */
#include "util/textscan.h"
#include <string.h>

size_t scan_line_end(const char *b, size_t len, size_t i)
{
    const char *nl = memchr(b + i, '\n', len - i);
    return nl ? (size_t)(nl - b) : len;
}

size_t scan_skip_blank(const char *b, size_t end, size_t i)
{
    while (i < end && (b[i] == ' ' || b[i] == '\t'))
        i++;
    return i;
}

size_t scan_word_end(const char *b, size_t end, size_t i)
{
    while (i < end && b[i] != ' ' && b[i] != '\t')
        i++;
    return i;
}

size_t scan_read_u64(const char *b, size_t end, size_t i, uint64_t *v)
{
    uint64_t x = 0;
    size_t j = i;
    for (; j < end && b[j] >= '0' && b[j] <= '9'; j++)
        x = x > (UINT64_MAX - 9) / 10 ? UINT64_MAX : x * 10 + (uint64_t)(b[j] - '0');
    *v = x;
    return j;
}
