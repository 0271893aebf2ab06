/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The loopback reference signal (see loopsig.h). Stub: silence until the real signal lands. */
#include "loopsig.h"

/* RT-safe: pure function of pos. */
float loopsig_at(uint64_t pos)
{
    (void)pos;
    return 0.0f;
}

/* RT-safe: pure function of the positions, no state. */
void loopsig_fill(float *out, uint64_t pos, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        out[i] = loopsig_at(pos + i);
}
