/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "jack/jack_loop.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* RT-safe (runs in the loop client's RT thread): a copy through the delay line, no allocation, lock or syscall. */
static int loop_process(jack_nframes_t nframes, void *arg)
{
    struct rtj_loop *l = arg;
    const float *in = jack_port_get_buffer(l->in, nframes);
    float *out = jack_port_get_buffer(l->out, nframes);
    if (!in || !out)
        return 0;
    if (nframes > RTJ_LOOP_MAX_PERIOD) {
        memset(out, 0, nframes * sizeof(float));
        atomic_fetch_add_explicit(&l->too_long, 1, memory_order_relaxed);
        return 0;
    }
    /* Write this cycle's input, then read N frames behind it: with N = 0 the output is the input. */
    uint64_t w = l->w;
    for (jack_nframes_t i = 0; i < nframes; i++)
        l->line[(w + i) & l->mask] = in[i];
    uint64_t r = w - l->delay_frames;
    for (jack_nframes_t i = 0; i < nframes; i++)
        out[i] = l->line[(r + i) & l->mask];
    l->w = w + nframes;
    return 0;
}

static void quiet(const char *msg)
{
    (void)msg;
}

int rtj_loop_parse(const char *spec, unsigned *n)
{
    *n = 0;
    if (strncmp(spec, "internal", 8) != 0 || (spec[8] != '\0' && spec[8] != ':'))
        return 0;
    if (spec[8] == '\0')
        return 1;
    const char *s = spec + 9;
    char *end;
    if (*s < '0' || *s > '9')
        return -1;
    errno = 0;
    unsigned long v = strtoul(s, &end, 10);
    if (*end || errno || v > RTJ_LOOP_MAX_DELAY)
        return -1;
    *n = (unsigned)v;
    return 1;
}

int rtj_loop_open(struct rtj_loop *l, const char *server, const char *name, unsigned delay_frames, char *err,
                  size_t errlen)
{
    memset(l, 0, sizeof(*l));
    if (delay_frames > RTJ_LOOP_MAX_DELAY) {
        snprintf(err, errlen, "loop delay %u frames is over %u", delay_frames, RTJ_LOOP_MAX_DELAY);
        return -EINVAL;
    }
    l->delay_frames = delay_frames;
    uint64_t size = 1;
    while (size < (uint64_t)delay_frames + RTJ_LOOP_MAX_PERIOD)
        size <<= 1;
    l->line = calloc(size, sizeof(float));
    if (!l->line) {
        snprintf(err, errlen, "out of memory for the loop's delay line");
        return -ENOMEM;
    }
    memset(l->line, 0, size * sizeof(float)); /* touched and locked before the first cycle */
    (void)mlock(l->line, size * sizeof(float));
    l->mask = size - 1;
    atomic_init(&l->too_long, 0);
    jack_set_error_function(quiet);
    jack_set_info_function(quiet);
    jack_status_t st = 0;
    jack_options_t opt = JackNoStartServer | JackUseExactName | (server ? JackServerName : 0);
    l->client = server ? jack_client_open(name, opt, &st, server) : jack_client_open(name, opt, &st);
    if (!l->client) {
        snprintf(err, errlen, "cannot open the loop client '%s' on JACK server '%s' (status 0x%x)", name,
                 server ? server : "default", (unsigned)st);
        rtj_loop_close(l);
        return -ECONNREFUSED;
    }
    l->in = jack_port_register(l->client, "in", JACK_DEFAULT_AUDIO_TYPE, JackPortIsInput, 0);
    l->out = jack_port_register(l->client, "out", JACK_DEFAULT_AUDIO_TYPE, JackPortIsOutput, 0);
    if (!l->in || !l->out || jack_set_process_callback(l->client, loop_process, l)) {
        snprintf(err, errlen, "cannot register the loop client's ports");
        rtj_loop_close(l);
        return -EIO;
    }
    return 0;
}

int rtj_loop_activate(struct rtj_loop *l)
{
    return l->client && jack_activate(l->client) == 0 ? 0 : -EIO;
}

void rtj_loop_close(struct rtj_loop *l)
{
    if (l->client) {
        jack_deactivate(l->client);
        jack_client_close(l->client);
        l->client = NULL;
    }
    if (l->line) {
        munlock(l->line, (l->mask + 1) * sizeof(float));
        free(l->line);
        l->line = NULL;
    }
}
