/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The JACK backend's session (backend.h), for runs one after another at changing sizes (a sweep). Three ways the
 * size changes: under PipeWire's JACK (pw-jack) no jackd can start and jack_set_buffer_size does nothing, so the
 * whole graph is sized by PipeWire's own setting (clock.force-quantum, pw_settings.h), taken over for the
 * session and set back at its end; on a running jack2 named by --server, each run sets its size with
 * jack_set_buffer_size (--set-buffer-size, which every client of it hears); else the session starts its own
 * private jackd per rate (rtjitter-PID-sweep) and each run sets its size there. Main thread only. */
#include "jack/jack_session.h"
#include "jack/jack_client.h"
#include "jack/jackserver.h"
#include "jack/pw_settings.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct jack_sess {
    int own_server;                /* the session runs its own private jackd (one per rate) */
    int srv_up;                    /* srv was started and is not stopped yet */
    struct private_server srv;
    int pipewire;                  /* PipeWire's JACK: the session forces PipeWire's quantum per size */
    struct pw_force pwf;           /* what clock.force-quantum / force-rate were, held in a state file */
    int pw_restored;               /* 1 set back, -errno could not, 0 not yet */
    const char *device;            /* the private jackd's ALSA device (NULL: dummy), periods, priority (cfg's) */
    int nperiods, priority;
};

static int jack_sess_check(void *ss, struct backend_session *s, const struct backend_config *cfg, char *err,
                           size_t len)
{
    struct jack_sess *j = ss;
    j->device = cfg->device;
    j->nperiods = cfg->nperiods;
    j->priority = cfg->priority;
    if (strcmp(rtj_jack_provider(NULL, 0), "pipewire-jack") == 0) {
        /* pw-jack: the JACK server is PipeWire; no jackd can start under its libjack, and jack_set_buffer_size does
         * nothing there. PipeWire's own setting sizes the graph. */
        j->pipewire = 1;
        pw_force_session_check(s);
        if (cfg->device)
            fprintf(stderr, "%s: --device %s is ignored under PipeWire's JACK (PipeWire drives its own devices)\n",
                    s->who, cfg->device);
    } else if (cfg->server) {
        if (!cfg->set_buffer_size) {
            snprintf(err, len, "--server %s: a running server keeps its buffer size; add --set-buffer-size to let the "
                     "sweep change it (every client of it hears the change), or leave out --server and the sweep "
                     "starts its own", cfg->server);
            return -EINVAL;
        }
        s->buffer_change = "set_buffer_size";
    } else {
        j->own_server = 1;
        s->buffer_change = "set_buffer_size";
        s->server = "private";
    }
    return 0;
}

static int jack_sess_begin(void *ss, struct backend_session *s, char *err, size_t len)
{
    struct jack_sess *j = ss;
    return j->pipewire ? pw_force_session_begin(&j->pwf, s, err, len) : 0;
}

static int jack_sess_rate(void *ss, struct backend_session *s, int rate_hz, int period_frames, char *err,
                          size_t len)
{
    struct jack_sess *j = ss;
    if (!j->own_server)
        return 0;
    if (j->srv_up)
        jackserver_stop(&j->srv);
    j->srv_up = 0;
    char why[512];
    int e = jackserver_start_named(&j->srv, "sweep", j->device, rate_hz, period_frames, j->nperiods, j->priority,
                                   why, sizeof(why));
    if (e < 0) {
        snprintf(err, len, "cannot start a private JACK server: %s", why);
        s->why = "the private JACK server did not start";
        return e;
    }
    j->srv_up = 1;
    /* A load that runs a JACK client of its own (exec:...) reaches the server being measured. */
    setenv("JACK_DEFAULT_SERVER", j->srv.name, 1);
    return 0;
}

static int jack_sess_period(void *ss, struct backend_session *s, struct backend_config *cfg, char *err, size_t len)
{
    struct jack_sess *j = ss;
    (void)s;
    if (j->own_server) {
        cfg->server = j->srv.name;
        cfg->set_buffer_size = 1;
    }
    if (j->pipewire) {
        /* PipeWire's graph runs at the forced quantum for every client; read back before the run measures it (the
         * run's own report then says what the JACK client saw: jack_get_buffer_size and its buffer-size callback) */
        cfg->set_buffer_size = 0;
        return pw_force_session_period(&j->pwf, cfg, err, len);
    }
    return 0;
}

static void jack_sess_end(void *ss, struct backend_session *s)
{
    struct jack_sess *j = ss;
    if (j->srv_up)
        jackserver_stop(&j->srv);
    j->srv_up = 0;
    if (j->pipewire)
        pw_force_session_end(&j->pwf, s, &j->pw_restored);
}

static void jack_sess_describe(void *ss, json_t *audio)
{
    struct jack_sess *j = ss;
    if (j->pipewire)
        pw_force_session_describe(&j->pwf, j->pw_restored, audio);
}

const struct backend_session_ops jack_session = {
    .private_size = sizeof(struct jack_sess),
    .check = jack_sess_check,
    .begin = jack_sess_begin,
    .rate = jack_sess_rate,
    .period = jack_sess_period,
    .end = jack_sess_end,
    .describe = jack_sess_describe,
};
