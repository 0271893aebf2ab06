/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Test helper: the --loopback internal loop client (rtaudio/jack/jack_loopback.c) on its own, so that another tool
 * (jack2's jack_iodelay, or rtjitter --loopback OUT:IN) can be run through the very same loop.
 *
 * usage: jack_loopback SERVER NAME DELAY_FRAMES [FROM_PORT TO_PORT]
 * Opens client NAME with ports NAME:in and NAME:out, delaying by DELAY_FRAMES; with FROM_PORT and TO_PORT, connects
 * FROM_PORT -> NAME:in and NAME:out -> TO_PORT. Prints "ready" on stderr, and leaves on SIGTERM or SIGINT (or after
 * 120 s, so a test that forgets it does not leave it behind), printing "xruns N" on stderr: the server's xrun
 * notifications it received while it ran (an observer of the graph's own xruns, beside any tool under test). */
#include "jack/jack_loopback.h"
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "helper_alarm.h"

static atomic_uint xruns;
/* jack2 calls it from its notification thread (PipeWire's JACK: the RT thread): one atomic increment */
static int on_xrun(void *arg)
{
    (void)arg;
    atomic_fetch_add(&xruns, 1);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 4 && argc != 6) {
        fprintf(stderr, "usage: %s SERVER NAME DELAY_FRAMES [FROM_PORT TO_PORT]\n", argv[0]);
        return 2;
    }
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGALRM);
    pthread_sigmask(SIG_BLOCK, &set, NULL);
    static struct jlb_client l;
    char err[512];
    if (jlb_open(&l, argv[1], argv[2], (unsigned)atoi(argv[3]), err, sizeof(err)) < 0) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    jack_set_xrun_callback(l.client, on_xrun, NULL);
    if (jlb_activate(&l) < 0) {
        fprintf(stderr, "cannot activate\n");
        jlb_close(&l);
        return 1;
    }
    if (argc == 6 && (jack_connect(l.client, argv[4], jack_port_name(l.in)) ||
                      jack_connect(l.client, jack_port_name(l.out), argv[5]))) {
        fprintf(stderr, "cannot connect %s -> loop -> %s\n", argv[4], argv[5]);
        jlb_close(&l);
        return 1;
    }
    helper_alarm(); /* a test that forgets to stop it must not leave it running */
    fprintf(stderr, "ready\n");
    int sig = 0;
    sigwait(&set, &sig);
    jlb_close(&l);
    fprintf(stderr, "xruns %u\n", atomic_load(&xruns));
    return 0;
}
