/* SPDX-License-Identifier: GPL-2.0-or-later */
/* /dev/cpu_dma_latency held at 0 while a run measures, for every backend: the kernel's PM QoS interface keeps the
 * CPUs out of idle states slower to leave than the value written, for as long as the file stays open (what
 * cyclictest does unless told otherwise). Without it, a CPU at rest sleeps deep and every wake-up pays the idle
 * state's exit latency (in a VM, the host's halt of the virtual CPU): the idle trap, where a quiet machine measures
 * worse than a loaded one. The file is root's only on most systems (crw-------); a normal user's run records "not
 * held" and why. Main thread only: taken before the backend starts its cycles, let go after it stops them. */
#ifndef RTJ_DMA_HOLD_H
#define RTJ_DMA_HOLD_H
#include <jansson.h>

struct dma_hold {
    int fd;           /* open while held, else -1 */
    int was_held;     /* it was held during the run */
    char note[200];   /* what the report says: held, off and why, or not held and why */
};

/* Hold it (want != 0) or record off_note; path is /dev/cpu_dma_latency except in tests. Returns 0 when held or
 * not wanted, -errno when it was wanted and could not be held (h->note says why). */
int dma_hold_take(struct dma_hold *h, const char *path, int want, const char *off_note);
/* Let it go (safe twice, and when never taken). */
void dma_hold_release(struct dma_hold *h);
/* The report's audio.cpu_dma_latency_us (0 when held, else null) and audio.cpu_dma_latency (the note). */
void dma_hold_describe(const struct dma_hold *h, json_t *audio);

#endif
