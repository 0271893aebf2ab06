/* rtjitter's side of the loads: the parsed plan and the conversation with the load supervisor. */
#include "loadplan.h"
#include "loadspec.h"
#include "supervisor.h"
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define REPLY_TIMEOUT_MS 10000 /* a stop takes under a second; freeing many GB of memload can take a few */

struct load_plan {
    struct load_spec spec;
    pid_t sup;                         /* 0: no supervisor (only none, or it could not start) */
    int fd;
    char sup_error[160];               /* why there is no supervisor, when a phase needs one */
    char **errors;                     /* per phase, owned */
};

int load_plan_parse(const char *spec, const char *tmpdir, struct load_plan **out, char *err, size_t errlen)
{
    struct load_plan *p = calloc(1, sizeof(*p));
    if (!p) {
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    p->fd = -1;
    int e = load_spec_parse(spec, &p->spec, err, errlen);
    if (e < 0) {
        free(p);
        return e;
    }
    p->errors = calloc((size_t)p->spec.nphases, sizeof(*p->errors));
    if (!p->errors) {
        load_plan_free(p);
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    int real = 0;
    for (int i = 0; i < p->spec.nphases; i++)
        for (int j = 0; j < p->spec.phase[i].nuses; j++)
            real |= p->spec.phase[i].use[j].info->run != NULL;
    if (real && (e = supervisor_spawn(&p->spec, tmpdir, &p->sup, &p->fd)) < 0) {
        /* Not a usage error: the measurement still runs, each loaded phase says why it had no load. */
        snprintf(p->sup_error, sizeof(p->sup_error), "the load supervisor could not start: %s", strerror(-e));
        p->sup = 0;
    }
    *out = p;
    return 0;
}

int load_plan_count(const struct load_plan *p) { return p->spec.nphases; }

const char *load_plan_name(const struct load_plan *p, int phase)
{
    return phase >= 0 && phase < p->spec.nphases ? p->spec.phase[phase].name : "?";
}

static void supervisor_lost(struct load_plan *p, const char *why)
{
    snprintf(p->sup_error, sizeof(p->sup_error), "the load supervisor %s", why);
    if (p->fd >= 0)
        close(p->fd);
    p->fd = -1;
}

/* One request, one reply. 0, or -EPIPE once the supervisor is gone (p->sup_error says why). */
static int ask(struct load_plan *p, int op, int phase, struct sup_reply *r)
{
    if (p->fd < 0)
        return -EPIPE;
    struct sup_request q = { op, phase };
    if (send(p->fd, &q, sizeof(q), MSG_NOSIGNAL) != (ssize_t)sizeof(q)) {
        supervisor_lost(p, "is gone");
        return -EPIPE;
    }
    struct pollfd pf = { p->fd, POLLIN, 0 };
    int n;
    do
        n = poll(&pf, 1, REPLY_TIMEOUT_MS);
    while (n < 0 && errno == EINTR);
    if (n <= 0) {
        supervisor_lost(p, "stopped answering");
        return -EPIPE;
    }
    if (recv(p->fd, r, sizeof(*r), 0) != (ssize_t)sizeof(*r)) {
        supervisor_lost(p, "is gone");
        return -EPIPE;
    }
    r->error[sizeof(r->error) - 1] = '\0';
    return 0;
}

static int phase_has_process(const struct load_plan *p, int phase)
{
    for (int j = 0; j < p->spec.phase[phase].nuses; j++)
        if (p->spec.phase[phase].use[j].info->run)
            return 1;
    return 0;
}

int load_phase_start(struct load_plan *p, int phase)
{
    static struct sup_reply r;
    if (phase < 0 || phase >= p->spec.nphases)
        return -EINVAL;
    if (!phase_has_process(p, phase))
        return 0;
    return ask(p, SUP_START, phase, &r) < 0 ? 0 : r.rc; /* a lost supervisor is reported at the stop */
}

int load_phase_measure(struct load_plan *p, int phase)
{
    static struct sup_reply r;
    if (phase < 0 || phase >= p->spec.nphases || !phase_has_process(p, phase))
        return 0;
    return ask(p, SUP_MEASURE, phase, &r) < 0 ? 0 : r.rc;
}

void load_phase_stop(struct load_plan *p, int phase, json_t *metrics, const char **error)
{
    static struct sup_reply r;
    *error = NULL;
    if (phase < 0 || phase >= p->spec.nphases || !phase_has_process(p, phase))
        return;
    const char *msg = NULL;
    if (ask(p, SUP_STOP, phase, &r) < 0) {
        msg = p->sup_error;
    } else {
        for (int i = 0; i < r.nmetrics && i < SUP_MAX_METRICS; i++) {
            if (!isfinite(r.m[i].value))
                continue; /* JSON has no NaN; a load that measured nothing says so by its absence */
            json_t *m = json_object();
            r.m[i].name[sizeof(r.m[i].name) - 1] = '\0';
            r.m[i].unit[sizeof(r.m[i].unit) - 1] = '\0';
            json_object_set_new(m, "name", json_string(r.m[i].name));
            json_object_set_new(m, "value", json_real(r.m[i].value));
            json_object_set_new(m, "unit", json_string(r.m[i].unit));
            json_array_append_new(metrics, m);
        }
        if (r.error[0])
            msg = r.error;
    }
    if (msg) {
        free(p->errors[phase]);
        p->errors[phase] = strdup(msg);
        *error = p->errors[phase];
    }
}

void load_plan_free(struct load_plan *p)
{
    if (!p)
        return;
    if (p->fd >= 0)
        close(p->fd); /* the supervisor sees the end of its socket: it stops every load and removes the files */
    if (p->sup > 0) {
        int st;
        for (int waited = 0; waitpid(p->sup, &st, WNOHANG) == 0; waited += 10) {
            if (waited >= REPLY_TIMEOUT_MS) {
                kill(p->sup, SIGKILL);
                waitpid(p->sup, &st, 0);
                break;
            }
            struct timespec ts = { 0, 10000000L };
            nanosleep(&ts, NULL);
        }
    }
    if (p->errors)
        for (int i = 0; i < p->spec.nphases; i++)
            free(p->errors[i]);
    free(p->errors);
    load_spec_free(&p->spec);
    free(p);
}
