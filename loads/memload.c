/* SPDX-License-Identifier: GPL-2.0-or-later */
/* memload: takes memory up to a share of what is available and keeps writing through it, the way a large sample
 * library or a browser competes with the audio process for memory and memory bandwidth. */
#include "load.h"
#include "memavail.h"
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

enum { P_PCT, P_MB };
#define CHUNK ((uint64_t)16 << 20)
#define MAX_CHUNKS 65536              /* 1 TB of 16 MB chunks */
/* Chunk i's size: CHUNK, except the last one, cut at the bound (page-rounded). */
static uint64_t chunk_size(int i, uint64_t target)
{
    uint64_t sz = (uint64_t)(i + 1) * CHUNK <= target ? CHUNK : target - (uint64_t)i * CHUNK;
    return (sz + 4095) & ~(uint64_t)4095;
}

static void run(struct load_child *c)
{
    static void *chunk[MAX_CHUNKS]; /* static: the load's stack is small */
    uint64_t avail0, total, meminfo;
    int e = mem_available_detail("", &avail0, &total, &meminfo);
    if (e < 0) {
        load_fail(c, "cannot read /proc/meminfo: %s", strerror(-e));
        return;
    }
    struct memload_bounds b = memload_bounds(avail0, total, c->param[P_PCT], c->param[P_MB]);
    char why[256];
    if (memload_can_start(avail0, meminfo, &b, CHUNK, why, sizeof(why)) < 0) {
        load_fail(c, "%s", why); /* a phase without its load must say so, not report 0 MB/s */
        return;
    }
    uint64_t target = b.target;
    int n = 0, want = (int)((target + CHUNK - 1) / CHUNK);
    if (want > MAX_CHUNKS)
        want = MAX_CHUNKS;
    unsigned char pattern = 1;
    for (;;) {
        /* Grow, up to 1 GB a round, touching each new chunk at once so that the kernel counts it before the
         * next one is taken. */
        uint64_t avail = 0;
        if (load_mem_available(&avail) < 0)
            avail = 0;
        for (int grown = 0; n < want && grown < 64 && memload_decide(avail, &b, (uint64_t)n * CHUNK, CHUNK) > 0;
             grown++) {
            uint64_t sz = chunk_size(n, target);
            void *p = mmap(NULL, sz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
            if (p == MAP_FAILED) {
                if (n == 0 && atomic_load(&c->shared->count[0]) == 0) {
                    load_fail(c, "cannot take any memory: mmap of %.0f MB: %s", sz / 1048576.0, strerror(errno));
                    return;
                }
                break;
            }
            memset(p, pattern, sz);
            load_count(c, 0, sz);
            chunk[n++] = p;
            atomic_fetch_add(&c->shared->count[1], sz);
            if (load_mem_available(&avail) < 0)
                break;
        }
        if (n == 0) {
            struct timespec ts = { 0, 50000000L };
            nanosleep(&ts, NULL); /* nothing may be taken now: wait for memory to come back */
            continue;
        }
        /* One pass over all we hold, a new byte value each pass so no page stays shared or zero. Before each
         * chunk (a few ms of work), look again: when others need memory, give it back at once, as much as it
         * takes, rather than after a pass that may last seconds. */
        for (int i = 0; i < n; i++) {
            if (load_mem_available(&avail) < 0)
                avail = 0;
            while (n > 0 && memload_decide(avail, &b, (uint64_t)n * CHUNK, CHUNK) < 0) {
                --n;
                munmap(chunk[n], chunk_size(n, target));
                atomic_fetch_sub(&c->shared->count[1], chunk_size(n, target));
                load_count(c, 2, 1); /* chunks yielded to others */
                if (load_mem_available(&avail) < 0)
                    avail = 0;
            }
            if (i >= n)
                break;
            uint64_t sz = chunk_size(i, target);
            memset(chunk[i], pattern, sz);
            load_count(c, 0, sz);
        }
        pattern++;
    }
}

static int report(const struct load_child *c, const struct load_sample *s, struct load_metric *m)
{
    if (s->wall_s <= 0)
        return 0;
    int n = load_metric_set(&m[0], "memload", "touched", s->count[0] / 1048576.0 / s->wall_s, "MB/s");
    /* count[1] is a level (bytes held now), not a sum: report its value, not a difference. */
    n += load_metric_set(&m[n], "memload", "held", atomic_load(&c->shared->count[1]) / 1048576.0, "MB");
    n += load_metric_set(&m[n], "memload", "yielded", (double)s->count[2], "chunks given back");
    return n;
}

const struct load_info load_memload = {
    .name = "memload",
    .summary = "takes memory (16 MB at a time) up to a share of MemAvailable and keeps writing through all of it",
    .metric = "memload.touched",
    .unit = "MB/s",
    .bounds = "pct of MemAvailable (lowered to the headroom of every memory cgroup above it, v1 or v2), at most "
              "95 %; gives memory back at once whenever less than max(5 % of what was available, 2 % of RAM, "
              "256 MB) stays available, so the OOM killer never has a reason to wake; oom_score_adj 1000 all the "
              "same",
    .example = "memload:mb=128",
    .params = { { "pct", LP_DOUBLE, 80, 1, 95, "%", "share of MemAvailable to take" },
                { "mb", LP_INT, 0, 0, 1048576, "MB", "upper cap in MB; 0: none" } },
    .run = run,
    .report = report,
};
