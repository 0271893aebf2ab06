/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "jack/jack_loopback.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* RT-safe (runs in the loop client's RT thread): a copy through the delay line, no allocation, lock or syscall. */
static int jlb_process(jack_nframes_t nframes, void *arg)
{
    struct jlb_client *l = arg;
    const float *in = jack_port_get_buffer(l->in, nframes);
    float *out = jack_port_get_buffer(l->out, nframes);
    if (!in || !out)
        return 0;
    if (nframes > JLB_MAX_PERIOD) {
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

int jlb_parse(const char *spec, unsigned *n)
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
    if (*end || errno || v > JLB_MAX_DELAY)
        return -1;
    *n = (unsigned)v;
    return 1;
}

int jlb_open(struct jlb_client *l, const char *server, const char *name, unsigned delay_frames, char *err,
                  size_t errlen)
{
    memset(l, 0, sizeof(*l));
    if (delay_frames > JLB_MAX_DELAY) {
        snprintf(err, errlen, "loop delay %u frames is over %u", delay_frames, JLB_MAX_DELAY);
        return -EINVAL;
    }
    l->delay_frames = delay_frames;
    uint64_t size = 1;
    while (size < (uint64_t)delay_frames + JLB_MAX_PERIOD)
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
        jlb_close(l);
        return -ECONNREFUSED;
    }
    l->in = jack_port_register(l->client, "in", JACK_DEFAULT_AUDIO_TYPE, JackPortIsInput, 0);
    l->out = jack_port_register(l->client, "out", JACK_DEFAULT_AUDIO_TYPE, JackPortIsOutput, 0);
    if (!l->in || !l->out || jack_set_process_callback(l->client, jlb_process, l)) {
        snprintf(err, errlen, "cannot register the loop client's ports");
        jlb_close(l);
        return -EIO;
    }
    return 0;
}

int jlb_activate(struct jlb_client *l)
{
    return l->client && jack_activate(l->client) == 0 ? 0 : -EIO;
}

void jlb_close(struct jlb_client *l)
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
