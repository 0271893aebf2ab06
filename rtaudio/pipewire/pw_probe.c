/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The PipeWire probe (pw_probe.h): a connection of its own and one core sync, nothing else. */
#include "pipewire/pw_probe.h"
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <pipewire/pipewire.h>

struct probe {
    struct pw_thread_loop *loop;
    int seq;
    atomic_int answer; /* 0 waiting, 1 done, -1 error */
};

/* The probe's loop thread: our sync came back. */
static void on_done(void *data, uint32_t id, int seq)
{
    struct probe *p = data;
    if (id == PW_ID_CORE && seq == p->seq)
        atomic_store(&p->answer, 1);
    pw_thread_loop_signal(p->loop, false);
}

/* The probe's loop thread: the connection failed (EPIPE: nobody is there). */
static void on_error(void *data, uint32_t id, int seq, int res, const char *message)
{
    (void)seq;
    (void)res;
    (void)message;
    struct probe *p = data;
    if (id == PW_ID_CORE)
        atomic_store(&p->answer, -1);
    pw_thread_loop_signal(p->loop, false);
}

static const struct pw_core_events probe_events = {
    PW_VERSION_CORE_EVENTS,
    .done = on_done,
    .error = on_error,
};

int pwp_server_answers(const char *remote, int deadline_ms)
{
    struct probe p = { .loop = NULL, .seq = 0 };
    atomic_init(&p.answer, 0);
    pw_init(NULL, NULL);
    p.loop = pw_thread_loop_new("rtjitter-pwprobe", NULL);
    struct pw_context *ctx = p.loop ? pw_context_new(pw_thread_loop_get_loop(p.loop), NULL, 0) : NULL;
    if (!ctx || pw_thread_loop_start(p.loop) < 0) {
        if (ctx)
            pw_context_destroy(ctx);
        if (p.loop)
            pw_thread_loop_destroy(p.loop);
        return 0;
    }
    struct spa_hook listener;
    spa_zero(listener);
    pw_thread_loop_lock(p.loop);
    struct pw_properties *cp = remote ? pw_properties_new(PW_KEY_REMOTE_NAME, remote, NULL) : NULL;
    struct pw_core *core = pw_context_connect(ctx, cp, 0);
    if (core) {
        pw_core_add_listener(core, &listener, &probe_events, &p);
        p.seq = pw_core_sync(core, PW_ID_CORE, 0);
    }
    pw_thread_loop_unlock(p.loop);
    struct timespec ts = { 0, 10 * 1000000L };
    for (int waited = 0; core && waited < deadline_ms && atomic_load(&p.answer) == 0; waited += 10)
        nanosleep(&ts, NULL);
    int rc = atomic_load(&p.answer) == 1;
    pw_thread_loop_lock(p.loop);
    if (core) {
        spa_hook_remove(&listener);
        pw_core_disconnect(core);
    }
    pw_thread_loop_unlock(p.loop);
    pw_thread_loop_stop(p.loop);
    pw_context_destroy(ctx);
    pw_thread_loop_destroy(p.loop);
    return rc;
}

static int is_there(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

void pwp_socket_path(const char *remote, char *buf, size_t len)
{
    const char *name = remote && remote[0] ? remote : getenv("PIPEWIRE_REMOTE");
    if (!name || !name[0])
        name = "pipewire-0";
    if (name[0] == '/') {
        snprintf(buf, len, "%s", name);
        return;
    }
    const char *dir = getenv("PIPEWIRE_RUNTIME_DIR");
    if (!dir)
        dir = getenv("XDG_RUNTIME_DIR");
    if (!dir)
        dir = getenv("USERPROFILE");
    if (dir) {
        snprintf(buf, len, "%s/%s", dir, name);
        if (is_there(buf))
            return;
    }
    snprintf(buf, len, "/run/pipewire/%s", name);
    if (!is_there(buf) && dir)
        snprintf(buf, len, "%s/%s", dir, name); /* nowhere: the first place it looks */
}
