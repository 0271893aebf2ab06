/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Writes large valid rtjitter reports fast, for compare's attack tests and its bench (issue 21): a report of
 * PHASES phases, each with a timeline of SECONDS whole seconds without "s" (so that compare takes every one of them
 * as a unit, as it does for a report whose timeline lacks second numbers), seeded per-second values (wake-up and
 * |jitter| p99 and max, counts of xrun events and missed deadlines), SHIFT µs added to every wake-up value.
 *
 *   big_report OUT.json PHASES SECONDS SEED [SHIFT_US] [LABEL] [HOST] [COUNTS]
 *
 * COUNTS 1: every second also counts its xrun events and missed deadlines (one second in 20 has some); 0 (the
 * default): the timeline has no counts (as an older report's), and the entries are shorter (about 100 bytes:
 * 300 phases of 2000 seconds make a 60 MB report, under the reader's 64 MiB).
 *
 * Written with stdio (a 66 MB report in about a second): the tests never wait on building their input. */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static uint64_t next_u64(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static double unif(uint64_t *s)
{
    return ((double)(next_u64(s) >> 11) + 0.5) * 0x1.0p-53;
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: big_report OUT.json PHASES SECONDS SEED [SHIFT_US] [LABEL] [HOST] [COUNTS]\n");
        return 2;
    }
    long phases = strtol(argv[2], NULL, 10), secs = strtol(argv[3], NULL, 10);
    uint64_t seed = strtoull(argv[4], NULL, 10);
    double shift = argc > 5 ? strtod(argv[5], NULL) : 0;
    const char *label = argc > 6 ? argv[6] : "big";
    const char *host = argc > 7 ? argv[7] : "bighost";
    int counts = argc > 8 && atoi(argv[8]) == 1;
    FILE *f = fopen(argv[1], "wx");
    if (!f || phases < 1 || secs < 1) {
        perror(argv[1]);
        return 2;
    }
    static char buf[1 << 16];
    setvbuf(f, buf, _IOFBF, sizeof(buf));
    fprintf(f, "{\"schema\":\"rtjitter.report/1\",\"tool\":{\"name\":\"rtjitter\",\"version\":\"0\"},\"complete\":true,"
               "\"label\":\"%s\",\"started\":\"2026-12-02T10:00:%02dZ\",\"system\":{\"hostname\":\"%s\",\"kernel\":"
               "{\"release\":\"6.1.0-big\",\"cmdline\":\"quiet\",\"preempt\":\"full\"},\"cpu\":{\"governor\":"
               "\"performance\"}},\"audio\":{\"backend\":\"timer\",\"rate\":48000,\"period_frames\":64,"
               "\"period_us\":1333.33,\"priority_requested\":80},\"phases\":[",
            label, (int)(seed % 60), host);
    for (long p = 0; p < phases; p++) {
        uint64_t s = seed * 1000003u + (uint64_t)p;
        long ev = 0, dl = 0;
        fprintf(f, "%s{\"load\":\"load%ld\",\"duration_s\":%ld,\"measured_s\":%ld,\"cycles\":%ld,\"timeline\":[",
                p ? "," : "", p, secs, secs, secs * 750);
        for (long i = 0; i < secs; i++) {
            double u = unif(&s), w = 20 + 30 * u * u + shift, x = w * (1.2 + unif(&s));
            double j = 2 + 6 * unif(&s), jm = j * (1.5 + unif(&s));
            int e = unif(&s) < 0.05, d = e ? 1 + (int)(next_u64(&s) % 3) : 0;
            ev += e;
            dl += d;
            fprintf(f, "%s{\"cycles\":750,", i ? "," : "");
            if (counts)
                fprintf(f, "\"xrun_events\":%d,\"deadlines_missed\":%d,", e, d);
            fprintf(f, "\"wakeup_p99_us\":%.1f,\"wakeup_max_us\":%.1f,\"jitter_abs_p99_us\":%.1f,"
                       "\"jitter_abs_max_us\":%.1f}", w, x, j, jm);
        }
        if (!counts)
            ev = dl = 0;
        fprintf(f, "],\"xruns\":{\"reported\":%ld,\"detected\":%ld,\"events\":%ld},\"deadlines_missed\":%ld}", ev, ev,
                ev, dl);
    }
    fprintf(f, "]}\n");
    if (fclose(f) != 0) {
        perror(argv[1]);
        return 2;
    }
    return 0;
}
