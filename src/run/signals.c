/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "run/signals.h"
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>

static atomic_int g_signal;
static sigset_t g_stop_signals;
static int g_setup;

/* Async-signal-safe: sets a flag, nothing else. Installed so that the signals are not ignored (a shell starts
 * background jobs with SIGINT ignored, and an ignored signal never becomes pending for sigtimedwait). */
static void on_signal(int sig)
{
    atomic_store(&g_signal, sig);
}

void run_signals_setup(void)
{
    if (g_setup)
        return;
    g_setup = 1;
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    sigemptyset(&g_stop_signals);
    sigaddset(&g_stop_signals, SIGINT);
    sigaddset(&g_stop_signals, SIGTERM);
    sigaddset(&g_stop_signals, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &g_stop_signals, NULL);
}

void run_signals_wait_ms(int ms)
{
    struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
    int sig = sigtimedwait(&g_stop_signals, NULL, &ts);
    if (sig > 0)
        atomic_store(&g_signal, sig);
}

const char *run_signals_reason(void)
{
    switch (atomic_load(&g_signal)) {
    case SIGINT: return "interrupted (SIGINT)";
    case SIGTERM: return "terminated (SIGTERM)";
    case SIGHUP: return "hung up (SIGHUP)";
    default: return NULL;
    }
}
