/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Test probe: polls one culprit source as the engine would (every POLL_MS on CLOCK_MONOTONIC_RAW) and prints each
 * observation with its times, for a test to place against a stalling client's own log.
 *
 * usage: culprit_src_probe jacklog LOGFILE SECONDS [POLL_MS]
 *        culprit_src_probe pwprof OWN_NAME SECONDS [POLL_MS]
 * Prints "ready" on stderr once the source is open (or one line and exit 1 when it cannot be), then one line an
 * observation: "obs T0 T1 TPOLL KIND NAME<TAB>EVIDENCE" (seconds on CLOCK_MONOTONIC_RAW; TPOLL: the poll that gave it), and at the end (SECONDS, or
 * SIGTERM/SIGINT) "summary JSON" and "polls N interval_max_ms X" (the longest gap between two polls: the test's
 * bound uses it); for pwprof also "own_long AWAKE FINISH STATUS" for each cycle of OWN_NAME longer than its period
 * and "own_cycles N max_finish_minus_awake_ms X". */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "culprit/src_jacklog.h"
#include "culprit/src_pwprof.h"

static volatile sig_atomic_t stop;
static void on_sig(int s) { (void)s; stop = 1; }

static int64_t now_raw(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: %s jacklog LOGFILE | pwprof OWN_NAME  SECONDS [POLL_MS]\n", argv[0]);
        return 2;
    }
    double seconds = atof(argv[3]);
    int poll_ms = argc > 4 ? atoi(argv[4]) : 50;
    struct culprit_source src;
    char err[256] = "";
    int rc = strcmp(argv[1], "pwprof") == 0
                 ? pwprof_source_open(CLOCK_MONOTONIC_RAW, argv[2], &src, err, sizeof(err))
                 : jacklog_source_open(argv[2], 0, CLOCK_MONOTONIC_RAW, &src, err, sizeof(err));
    if (rc != 0) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    signal(SIGTERM, on_sig);
    signal(SIGINT, on_sig);
    fprintf(stderr, "ready\n");
    setvbuf(stdout, NULL, _IOLBF, 0);
    int64_t start = now_raw(), last = start, gap_max = 0;
    long polls = 0;
    struct culprit_obs o[32];
    for (;;) {
        int64_t now = now_raw();
        if (now - last > gap_max)
            gap_max = now - last;
        last = now;
        int n = src.poll(src.ctx, now, o, 32);
        polls++;
        if (n < 0) {
            fprintf(stderr, "source gone\n");
            break;
        }
        for (int i = 0; i < n; i++)
            printf("obs %.6f %.6f %.6f %s %s\t%s\n", o[i].t0_ns / 1e9, o[i].t1_ns / 1e9, now / 1e9,
                   culprit_kind_name(o[i].kind), o[i].name, o[i].evidence);
        if (stop || now - start > (int64_t)(seconds * 1e9))
            break;
        struct timespec nap = { poll_ms / 1000, (long)(poll_ms % 1000) * 1000000L };
        nanosleep(&nap, NULL);
    }
    json_t *j = src.summary ? src.summary(src.ctx) : NULL;
    char *s = j ? json_dumps(j, JSON_COMPACT) : NULL;
    printf("summary %s\n", s ? s : "{}");
    printf("polls %ld interval_max_ms %.1f\n", polls, gap_max / 1e6);
    if (strcmp(argv[1], "pwprof") == 0) {
        static struct pwprof_cycle c[8192];
        int n = pwprof_own_cycles(&src, 0, INT64_MAX, c, 8192);
        int64_t worst = 0;
        for (int i = 0; i < n; i++) {
            int64_t run = c[i].finish_ns - c[i].awake_ns;
            if (run > worst)
                worst = run;
            if (run > c[i].period_ns)
                printf("own_long %.6f %.6f %d\n", c[i].awake_ns / 1e9, c[i].finish_ns / 1e9, c[i].status);
        }
        printf("own_cycles %d max_finish_minus_awake_ms %.3f\n", n, worst / 1e6);
    }
    free(s);
    json_decref(j);
    src.close(src.ctx);
    return 0;
}
