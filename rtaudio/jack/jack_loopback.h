/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `--loopback internal[:N]`: a second JACK client, in rtjitter's own process (or standalone in the test helper
 * tests/helpers/jack_loopback.c), whose process callback copies its input port to its output port through a delay line
 * of N extra frames. Connected as rtjitter:out -> loop:in, loop:out -> rtjitter:in, it closes a loop inside the JACK
 * graph with a known delay, so the loopback check runs headless on a dummy server.
 *
 * Round trip through it: jack2 breaks the cycle of that graph with one feedback connection, whose data arrive one
 * cycle later, so what our input receives in a cycle is what our output played one period earlier, delayed by N
 * more frames: period + N frames (the truth the tests check against jack_iodelay on the same loop). */
#ifndef RTJ_JACK_LOOPBACK_H
#define RTJ_JACK_LOOPBACK_H
#include <jack/jack.h>
#include <stdatomic.h>
#include <stdint.h>

#define JLB_MAX_DELAY 192000u /* frames: 1 s at 192 kHz */
#define JLB_MAX_PERIOD 16384u  /* the largest JACK buffer the delay line is sized for */

struct jlb_client {
    jack_client_t *client;
    jack_port_t *in, *out;
    unsigned delay_frames;          /* N */
    /* --- RT thread (process callback) --- */
    float *line;                    /* the delay line: a power of two >= N + JLB_MAX_PERIOD, zeroed, locked */
    uint64_t mask;
    uint64_t w;                     /* frames written so far */
    atomic_uint_fast64_t too_long;  /* cycles longer than the line could hold: silence out, counted */
};

/* Non-RT. Opens the loop client `name` on server `server` (NULL: the default), registers "in" and "out" and its
 * process callback; not activated. 0 or -errno, one line in err. */
int jlb_open(struct jlb_client *l, const char *server, const char *name, unsigned delay_frames, char *err,
                  size_t errlen);
int jlb_activate(struct jlb_client *l);
/* Non-RT: deactivate, close, free. Safe after a failed open and twice. */
void jlb_close(struct jlb_client *l);

/* Parse "internal" or "internal:N" (N frames, 0..JLB_MAX_DELAY). 1 and *n when spec is an internal loop, 0
 * when it is not one (a port pair), -1 when it is a bad one. */
int jlb_parse(const char *spec, unsigned *n);

#endif
