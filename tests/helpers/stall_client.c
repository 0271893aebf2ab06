/* Test client: stalls its process callback for a known time every K cycles, and counts the xrun
 * notifications it receives itself, to be compared with what rtjitter reports.
 *
 * usage: stall_client SERVER STALL_MS EVERY_K COUNT [CONNECT_TO_PORT]
 * It activates (and connects) at once, then idles until SIGUSR1: from then on it stalls COUNT times and counts
 * xruns; 1 s after the last stall it stops counting and prints "stalls N" and "xruns N". It stays active until
 * SIGTERM, so that neither its arrival nor its departure falls in the window it counted. */
#include <jack/jack.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static atomic_uint_fast64_t xruns;
static atomic_int counting;
static atomic_int stalls_done;
static int stall_ms, every_k, count;
static unsigned long cycle;
static jack_port_t *out;

/* Deliberately NOT real-time safe: it sleeps, which is the point of this client. */
static int process(jack_nframes_t n, void *arg)
{
    (void)arg;
    float *buf = jack_port_get_buffer(out, n);
    memset(buf, 0, n * sizeof(float));
    if (atomic_load(&counting) && ++cycle % (unsigned long)every_k == 0 && atomic_load(&stalls_done) < count) {
        struct timespec ts = { stall_ms / 1000, (long)(stall_ms % 1000) * 1000000L };
        nanosleep(&ts, NULL);
        atomic_fetch_add(&stalls_done, 1);
    }
    return 0;
}

static int on_xrun(void *arg)
{
    (void)arg;
    if (atomic_load(&counting))
        atomic_fetch_add(&xruns, 1);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: %s SERVER STALL_MS EVERY_K COUNT [CONNECT_TO]\n", argv[0]);
        return 2;
    }
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
    jack_client_t *c = jack_client_open("stall", JackNoStartServer | JackServerName, &st, argv[1]);
    if (!c) {
        fprintf(stderr, "cannot open client on %s\n", argv[1]);
        return 1;
    }
    out = jack_port_register(c, "out", JACK_DEFAULT_AUDIO_TYPE, JackPortIsOutput, 0);
    jack_set_process_callback(c, process, NULL);
    jack_set_xrun_callback(c, on_xrun, NULL);
    if (jack_activate(c)) {
        fprintf(stderr, "cannot activate\n");
        return 1;
    }
    if (argc > 5 && jack_connect(c, jack_port_name(out), argv[5])) {
        fprintf(stderr, "cannot connect to %s\n", argv[5]);
        return 1;
    }
    alarm(120); /* a test that forgets to signal must not hang: SIGALRM ends the client */
    fprintf(stderr, "ready\n");
    int sig = 0;
    sigwait(&set, &sig);
    if (sig == SIGUSR1) {
        atomic_store(&counting, 1);
        while (atomic_load(&stalls_done) < count)
            usleep(10000);
        sleep(1); /* let the last notifications arrive */
        atomic_store(&counting, 0);
        printf("stalls %d\nxruns %llu\n", atomic_load(&stalls_done), (unsigned long long)atomic_load(&xruns));
        fflush(stdout);
        sigdelset(&set, SIGUSR1);
        sigwait(&set, &sig);
    }
    jack_deactivate(c);
    jack_client_close(c);
    return 0;
}
