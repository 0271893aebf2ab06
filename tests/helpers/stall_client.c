/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Test client: stalls its process callback for a known time every K cycles, and counts the xrun
 * notifications it receives itself, to be compared with what rtjitter reports.
 *
 * usage: stall_client SERVER STALL_MS EVERY_K COUNT [CONNECT_TO_PORT]
 * It activates (and connects) at once, then idles until SIGUSR1: from then on it stalls COUNT times, then prints
 * "stalls N". It notes the time of every xrun notification it receives (CLOCK_MONOTONIC_RAW, jack2's clock), and
 * on SIGTERM prints "xrun_times T1 T2 ..." in seconds and leaves: a test counts those inside rtjitter's measured
 * window (the report's clock_window_s) and compares. It also prints "stall_times S1 E1 S2 E2 ..." (the start and the
 * end of each of its stalls, same clock), so a test can place what the stalls caused. With STALL_CLOCK=mono in its
 * environment every time is on CLOCK_MONOTONIC instead: the clock PipeWire's JACK times with (a report's
 * audio.clock), so a test under pw-jack matches the two on the same clock. And "late_times S1 E1 ...": every cycle of
 * its own that finished past its period (jack_frame_time at its end beyond its jack_last_frame_time), from the
 * cycle's start to that end, and every wake of its own more than 1.5 periods after the one before, from a period
 * after that one to it: its own view of when it did not finish, stalled or not (a busy machine may preempt it), for
 * a test that excuses a culprit naming it then. STALL_NAME=NAME in its environment: the client's name (default
 * "stall"), for bystanders of a graph (COUNT 0: they never stall). RTJ_HELPER_ALARM_S=N: SIGALRM ends it N seconds
 * after it is ready (default 120: a test that forgets it must not leave it running; a long bench sets more). */
#include <jack/jack.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "helper_alarm.h"

#define MAX_XRUNS 100000
static double xrun_times[MAX_XRUNS];
static atomic_int nxruns;
static atomic_int counting;
static atomic_int stalls_done;
static int stall_ms, every_k, count;
static unsigned long cycle;
static jack_port_t *out;
#define MAX_STALLS 1000
#define MAX_LATE 10000
static double late_start[MAX_LATE], late_end[MAX_LATE];
static atomic_int nlate;
static jack_client_t *client;
static double stall_start[MAX_STALLS], stall_end[MAX_STALLS];

static clockid_t clk = CLOCK_MONOTONIC_RAW;

static double now_raw(void)
{
    struct timespec ts;
    clock_gettime(clk, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Deliberately NOT real-time safe: it sleeps, which is the point of this client. */
static int process(jack_nframes_t n, void *arg)
{
    (void)arg;
    jack_nframes_t cycle_start = jack_last_frame_time(client); /* this cycle's start, read at its start */
    static double prev_entry;
    double entry = now_raw(), per = (double)n / (double)jack_get_sample_rate(client);
    if (prev_entry > 0 && entry - prev_entry > 1.5 * per) { /* it woke late: preempted, or the graph was late */
        int i = atomic_fetch_add(&nlate, 1);
        if (i < MAX_LATE) {
            late_start[i] = prev_entry + per;
            late_end[i] = entry;
        }
    }
    prev_entry = entry;
    float *buf = jack_port_get_buffer(out, n);
    memset(buf, 0, n * sizeof(float));
    if (atomic_load(&counting) && ++cycle % (unsigned long)every_k == 0 && atomic_load(&stalls_done) < count) {
        struct timespec ts = { stall_ms / 1000, (long)(stall_ms % 1000) * 1000000L };
        int k = atomic_load(&stalls_done);
        if (k < MAX_STALLS)
            stall_start[k] = now_raw();
        nanosleep(&ts, NULL);
        if (k < MAX_STALLS)
            stall_end[k] = now_raw();
        atomic_fetch_add(&stalls_done, 1);
    }
    jack_nframes_t since = jack_frame_time(client) - cycle_start; /* the server's cycles go on meanwhile: its
                                                                   * latest cycle's start would say less */
    if (since > n && since < 100 * n) { /* finished past its period */
        double end = now_raw();
        int i = atomic_fetch_add(&nlate, 1);
        if (i < MAX_LATE) {
            late_end[i] = end;
            late_start[i] = end - (double)since / (double)jack_get_sample_rate(client);
        }
    }
    return 0;
}

/* jack2 calls the graph-order callback on its notification thread as the client activates: that thread is raised to
 * SCHED_FIFO 1, as rtjitter raises its own (rtaudio/jack/jack_client.h), so this observer's notification times are
 * not held back by a busy machine either. */
static atomic_int notify_tid;
static int on_graph_order(void *arg)
{
    (void)arg;
    int zero = 0;
    if (atomic_compare_exchange_strong(&notify_tid, &zero, (int)gettid())) {
        struct sched_param sp = { .sched_priority = 1 };
        sched_setscheduler(0, SCHED_FIFO, &sp); /* best effort: a root test's observer */
    }
    return 0;
}

/* jack2 calls this from its notification thread: a test client may read the clock and store here. */
static int on_xrun(void *arg)
{
    (void)arg;
    struct timespec ts;
    clock_gettime(clk, &ts);
    int i = atomic_fetch_add(&nxruns, 1);
    if (i < MAX_XRUNS)
        xrun_times[i] = (double)ts.tv_sec + ts.tv_nsec / 1e9;
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: %s SERVER STALL_MS EVERY_K COUNT [CONNECT_TO]\n", argv[0]);
        return 2;
    }
    const char *ck = getenv("STALL_CLOCK");
    if (ck && strcmp(ck, "mono") == 0)
        clk = CLOCK_MONOTONIC;
    stall_ms = atoi(argv[2]);
    every_k = atoi(argv[3]);
    count = atoi(argv[4]);
    /* JACK's threads inherit this mask: the signals come to sigwait() in the main thread only. */
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGUSR1);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGINT);
    pthread_sigmask(SIG_BLOCK, &set, NULL);
    jack_status_t st;
    const char *name = getenv("STALL_NAME"); /* a bystander of the graph: another name, COUNT 0 */
    jack_client_t *c = jack_client_open(name && *name ? name : "stall", JackNoStartServer | JackServerName, &st,
                                        argv[1]);
    client = c;
    if (!c) {
        fprintf(stderr, "cannot open client on %s\n", argv[1]);
        return 1;
    }
    out = jack_port_register(c, "out", JACK_DEFAULT_AUDIO_TYPE, JackPortIsOutput, 0);
    jack_set_process_callback(c, process, NULL);
    jack_set_xrun_callback(c, on_xrun, NULL);
    jack_set_graph_order_callback(c, on_graph_order, NULL);
    if (jack_activate(c)) {
        fprintf(stderr, "cannot activate\n");
        return 1;
    }
    if (argc > 5 && jack_connect(c, jack_port_name(out), argv[5])) {
        fprintf(stderr, "cannot connect to %s\n", argv[5]);
        return 1;
    }
    helper_alarm(); /* a test that forgets to signal must not hang: SIGALRM ends the client */
    fprintf(stderr, "ready\n");
    int sig = 0;
    sigwait(&set, &sig);
    if (sig == SIGUSR1) {
        atomic_store(&counting, 1);
        sigdelset(&set, SIGUSR1);
        /* Stall COUNT times, or until told to stop (SIGTERM, SIGINT): a test may end it before COUNT. */
        int stopped = 0;
        while (atomic_load(&stalls_done) < count && !stopped) {
            struct timespec nap = { 0, 10 * 1000000L };
            stopped = sigtimedwait(&set, NULL, &nap) > 0;
        }
        atomic_store(&counting, 0);
        printf("stalls %d\n", atomic_load(&stalls_done));
        fflush(stdout);
        if (!stopped)
            sigwait(&set, &sig);
    }
    /* first: tests read the lines after "stall_times" up to "xrun_times", and after "xrun_times" to the end */
    printf("late_times");
    for (int i = 0; i < atomic_load(&nlate) && i < MAX_LATE; i++)
        printf(" %.6f %.6f", late_start[i], late_end[i]);
    printf("\n");
    printf("stall_times");
    for (int i = 0; i < atomic_load(&stalls_done) && i < MAX_STALLS; i++)
        printf(" %.6f %.6f", stall_start[i], stall_end[i]);
    printf("\n");
    int n = atomic_load(&nxruns);
    printf("xrun_times");
    for (int i = 0; i < n && i < MAX_XRUNS; i++)
        printf(" %.6f", xrun_times[i]);
    printf("\n");
    fflush(stdout);
    jack_deactivate(c);
    jack_client_close(c);
    return 0;
}
