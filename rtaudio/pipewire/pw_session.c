/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A sweep on the native PipeWire backend (backend.h, backend_session_ops): PipeWire's clock.force-quantum and
 * clock.force-rate set per size for the whole graph while the sweep lasts (each size read back before its run), the
 * values they had kept in a state file and set back at its end: the same PipeWire part as a sweep under pw-jack
 * (jack/pw_settings.h, pw_force_session_*). Without it a native sweep measured only the size the graph already ran:
 * every other cell "not measured". Main thread only; nothing here runs in the RT thread. */
#include "pipewire/pw_session.h"
#include "jack/pw_settings.h"

struct pw_sess {
    struct pw_force pwf;           /* what clock.force-quantum / force-rate were, held in a state file */
    int restored;                  /* 1 set back, -errno could not, 0 not yet */
};

static int pws_check(void *ss, struct backend_session *s, const struct backend_config *cfg, char *err, size_t len)
{
    (void)ss, (void)cfg, (void)err, (void)len;
    pw_force_session_check(s);
    return 0;
}

static int pws_begin(void *ss, struct backend_session *s, char *err, size_t len)
{
    return pw_force_session_begin(&((struct pw_sess *)ss)->pwf, s, err, len);
}

static int pws_rate(void *ss, struct backend_session *s, int rate_hz, int period_frames, char *err, size_t len)
{
    (void)ss, (void)s, (void)rate_hz, (void)period_frames, (void)err, (void)len;
    return 0; /* the rate is forced with each size (period) */
}

static int pws_period(void *ss, struct backend_session *s, struct backend_config *cfg, char *err, size_t len)
{
    (void)s;
    return pw_force_session_period(&((struct pw_sess *)ss)->pwf, cfg, err, len);
}

static void pws_end(void *ss, struct backend_session *s)
{
    struct pw_sess *p = ss;
    pw_force_session_end(&p->pwf, s, &p->restored);
}

static void pws_describe(void *ss, json_t *audio)
{
    struct pw_sess *p = ss;
    pw_force_session_describe(&p->pwf, p->restored, audio);
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
