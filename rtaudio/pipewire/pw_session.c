/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A sweep on the native PipeWire backend (backend.h, backend_session_ops): PipeWire's clock.force-quantum and
 * clock.force-rate set per size for the whole graph while the sweep lasts (each size read back before its run), the
 * values they had kept in a state file and set back at its end, as for a sweep under pw-jack (jack/pw_settings.h
 * does both). Without it a native sweep measured only the size the graph already ran: every other cell "not
 * measured". Main thread only; nothing here runs in the RT thread. */
#include "pipewire/pw_session.h"
#include "jack/pw_settings.h"
#include <errno.h>
#include <stdio.h>
#include <string.h>

struct pw_sess {
    struct pw_force pwf;           /* what clock.force-quantum / force-rate were, held in a state file */
    int restored;                  /* 1 set back, -errno could not, 0 not yet */
};

static int pws_check(void *ss, struct backend_session *s, const struct backend_config *cfg, char *err, size_t len)
{
    (void)ss, (void)cfg, (void)err, (void)len;
    s->buffer_change = "pipewire_force_quantum";
    s->not_in_force = " (PipeWire: clock.force-quantum was set, yet the graph ran another size: see "
                      "pw-metadata -n settings 0 and pw-top)";
    return 0;
}

static int pws_begin(void *ss, struct backend_session *s, char *err, size_t len)
{
    struct pw_sess *p = ss;
    char why[512];
    int e = pw_force_take(&p->pwf, s->quiet, why, sizeof(why));
    if (e < 0) {
        snprintf(err, len, "PipeWire: %s", why);
        s->why = "PipeWire's quantum could not be taken over";
        return e;
    }
    /* said even with --quiet: every other client of this PipeWire hears it */
    fprintf(stderr, "%s: PipeWire: the whole PipeWire graph (every client of it) runs at each size tried while the "
            "sweep lasts (clock.force-quantum, clock.force-rate); set back after to clock.force-quantum %ld, "
            "clock.force-rate %ld (kept in %s/%s until then)\n", s->who, p->pwf.old_quantum, p->pwf.old_rate,
            p->pwf.dir, p->pwf.name);
    return 0;
}

static int pws_rate(void *ss, struct backend_session *s, int rate_hz, int period_frames, char *err, size_t len)
{
    (void)ss, (void)s, (void)rate_hz, (void)period_frames, (void)err, (void)len;
    return 0; /* the rate is forced with each size (period) */
}

static int pws_period(void *ss, struct backend_session *s, struct backend_config *cfg, char *err, size_t len)
{
    struct pw_sess *p = ss;
    (void)s;
    char why[300];
    int e = pw_force_set(&p->pwf, cfg->period_frames, cfg->rate_hz, why, sizeof(why));
    if (e < 0) {
        snprintf(err, len, "PipeWire did not take the size: %s (the command: pw-metadata -n settings 0 "
                 "clock.force-quantum %d)", why, cfg->period_frames);
        return e;
    }
    return 0;
}

static void pws_end(void *ss, struct backend_session *s)
{
    struct pw_sess *p = ss;
    if (!p->pwf.held)
        return;
    /* the main path, after an interrupt too (signals only set a flag): PipeWire chooses again */
    int e = pw_force_restore(&p->pwf);
    p->restored = e < 0 ? e : 1;
    if (e < 0)
        fprintf(stderr, "%s: PipeWire: cannot set the quantum back (%s): the next start of rtjitter does it, or run: "
                "pw-metadata -n settings 0 clock.force-quantum %ld; pw-metadata -n settings 0 clock.force-rate %ld\n",
                s->who, strerror(-e), p->pwf.old_quantum, p->pwf.old_rate);
    else if (!s->quiet)
        fprintf(stderr, "%s: PipeWire: clock.force-quantum set back to %ld, clock.force-rate to %ld\n", s->who,
                p->pwf.old_quantum, p->pwf.old_rate);
}

static void pws_describe(void *ss, json_t *audio)
{
    struct pw_sess *p = ss;
    json_object_set_new(audio, "pipewire", json_pack("{s:I, s:I, s:b}", "force_quantum_before",
                        (json_int_t)p->pwf.old_quantum, "force_rate_before", (json_int_t)p->pwf.old_rate,
                        "restored", p->restored == 1));
}

const struct backend_session_ops pipewire_session = {
    .private_size = sizeof(struct pw_sess),
    .check = pws_check,
    .begin = pws_begin,
    .rate = pws_rate,
    .period = pws_period,
    .end = pws_end,
    .describe = pws_describe,
};
