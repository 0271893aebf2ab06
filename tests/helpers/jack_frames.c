/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Test helper: the JACK server's own frame count against CLOCK_MONOTONIC, as an independent observer. A client
 * whose process callback notes (its entry time on CLOCK_MONOTONIC, jack_last_frame_time(), the cycle's frames) each
 * cycle; the main thread prints the latest pair every 50 ms as "t SECONDS FRAMES" (frames widened to 64 bits) until
 * SIGTERM or SIGINT, then every cycle it saw as "c SECONDS FRAMES NFRAMES RAW_SECONDS" (its entry on CLOCK_MONOTONIC
 * and on CLOCK_MONOTONIC_RAW, the clock jack2 times with; up to MAXC of them; "lost N" if more).
 * A test finds the observer's own cycles at the ends of rtjitter's measured window (clock_window_s, same clock):
 * the graph's frames and the time between them there, with no interpolation (a busy machine makes the graph's
 * cycles irregular, so a line through samples 50 ms apart is off by a stall).
 *
 * usage: jack_frames SERVER */
#include <jack/jack.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>
#include "helper_alarm.h"

static _Atomic uint64_t seqlock; /* odd while the callback writes the pair */
static _Atomic int64_t pair_t_ns;
static _Atomic uint64_t pair_f;
static uint32_t last_ft;
static uint64_t frames64;
static int have;
static jack_client_t *client;
#define MAXC (1u << 20) /* 5 minutes at 16 frames, 48 kHz */
static struct cyc { int64_t t_ns, raw_ns; uint64_t f; uint32_t n; } cycs[MAXC];
static _Atomic uint32_t ncyc;
static uint64_t lost;

/* Only this test client's RT thread: clock read, integer updates. */
static int process(jack_nframes_t n, void *arg)
{
    (void)arg;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    uint32_t ft = jack_last_frame_time(client);
    if (have)
        frames64 += (uint32_t)(ft - last_ft);
    last_ft = ft;
    have = 1;
    int64_t t_ns = (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
    struct timespec raw;
    clock_gettime(CLOCK_MONOTONIC_RAW, &raw);
    int64_t raw_ns = (int64_t)raw.tv_sec * 1000000000LL + raw.tv_nsec;
    uint32_t i = atomic_load_explicit(&ncyc, memory_order_relaxed);
    if (i < MAXC) {
        cycs[i] = (struct cyc){ t_ns, raw_ns, frames64, n };
        atomic_store_explicit(&ncyc, i + 1, memory_order_release);
    } else {
        lost++;
    }
    atomic_fetch_add(&seqlock, 1);
    atomic_store(&pair_t_ns, t_ns);
    atomic_store(&pair_f, frames64);
    atomic_fetch_add(&seqlock, 1);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s SERVER\n", argv[0]);
        return 2;
    }
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGINT);
    pthread_sigmask(SIG_BLOCK, &set, NULL);
    jack_status_t st;
    client = jack_client_open("frames", JackNoStartServer | JackServerName, &st, argv[1]);
    if (!client) {
        fprintf(stderr, "cannot open a client on %s\n", argv[1]);
        return 1;
    }
    /* an input port, so a test can put it downstream of a client (it then runs after that client in each cycle) */
    jack_port_register(client, "in", JACK_DEFAULT_AUDIO_TYPE, JackPortIsInput, 0);
    jack_set_process_callback(client, process, NULL);
    if (jack_activate(client)) {
        fprintf(stderr, "cannot activate\n");
        return 1;
    }
    printf("rate %u period %u\n", jack_get_sample_rate(client), jack_get_buffer_size(client));
    fflush(stdout);
    helper_alarm();
    struct timespec poll = { 0, 50 * 1000 * 1000 }, zero = { 0, 0 };
    for (;;) {
        siginfo_t si;
        if (sigtimedwait(&set, &si, &zero) > 0)
            break;
        uint64_t s0, s1;
        double t;
        uint64_t f;
        do {
            s0 = atomic_load(&seqlock);
            t = (double)atomic_load(&pair_t_ns) / 1e9;
            f = atomic_load(&pair_f);
            s1 = atomic_load(&seqlock);
        } while (s0 != s1 || (s0 & 1));
        if (t > 0)
            printf("t %.6f %llu\n", t, (unsigned long long)f);
        fflush(stdout);
        nanosleep(&poll, NULL);
    }
    jack_deactivate(client);
    uint32_t n = atomic_load_explicit(&ncyc, memory_order_acquire);
    for (uint32_t i = 0; i < n; i++)
        printf("c %.9f %llu %u %.9f\n", (double)cycs[i].t_ns / 1e9, (unsigned long long)cycs[i].f, cycs[i].n,
               (double)cycs[i].raw_ns / 1e9);
    if (lost)
        printf("lost %llu\n", (unsigned long long)lost);
    jack_client_close(client);
    return 0;
}
