/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The loopback reference signal (see loopsig.h): a tone plus a hashed marker, a pure function of the position. */
#include "loopsig.h"
#include <math.h>

/* RT-safe: splitmix64's finaliser, a bijective mix of the position (no state). */
static inline uint64_t mix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* RT-safe: pure function of pos (sinf of a phase reduced modulo the tone's period, so every call gives the same
 * float for the same position, whatever the position). */
float loopsig_at(uint64_t pos)
{
    unsigned k = (unsigned)(pos % LOOPSIG_TONE_PERIOD);
    float tone = LOOPSIG_TONE_AMP * sinf(6.28318530717958647692f * (float)k / (float)LOOPSIG_TONE_PERIOD);
    /* 24 bits of the hash: uniform in [-1, 1), exactly representable in a float. */
    float u = (float)(int32_t)((mix64(pos) >> 40) - (1u << 23)) / (float)(1u << 23);
    return tone + LOOPSIG_MARK_AMP * u;
}

/* RT-safe: pure function of the positions, no state. */
void loopsig_fill(float *out, uint64_t pos, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        out[i] = loopsig_at(pos + i);
}
