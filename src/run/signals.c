/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "run/signals.h"
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>

static atomic_int g_signal;
static sigset_t g_stop_signals;        /* and SIGUSR1 when asked for (run_signals_want_usr1) */
static atomic_int g_want_usr1;
static atomic_uint g_usr1;             /* SIGUSR1s taken: rtjitter watch's summary, asked for */
static int g_setup;
/* SIGCONT: written by on_cont only (on the main thread, the one thread that leaves it unblocked). */
static atomic_uint g_conts;
static _Atomic int64_t g_cont_ns[RUN_CONT_MAX];
static atomic_int g_cont_clock = CLOCK_MONOTONIC;

/* Async-signal-safe: sets a flag, nothing else. Installed so that the signals are not ignored (a shell starts
 * background jobs with SIGINT ignored, and an ignored signal never becomes pending for sigtimedwait). */
static void on_signal(int sig)
{
    if (sig == SIGUSR1)
        atomic_fetch_add(&g_usr1, 1);
    else
        atomic_store(&g_signal, sig);
}

/* Async-signal-safe (clock_gettime is, and the vDSO makes it no syscall): when and how often rtjitter was
 * continued after a stop. Never in the RT thread: SIGCONT is blocked in every thread but the main one. */
static void on_cont(int sig)
{
    (void)sig;
    int saved = errno;
    struct timespec ts;
    clock_gettime((clockid_t)atomic_load(&g_cont_clock), &ts);
    unsigned k = atomic_fetch_add(&g_conts, 1);
    if (k < RUN_CONT_MAX)
        atomic_store(&g_cont_ns[k], (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec);
    errno = saved;
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
    if (atomic_load(&g_want_usr1))
        sigaction(SIGUSR1, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    sa.sa_handler = on_cont;
    sa.sa_flags = SA_RESTART;
    sigaction(SIGCONT, &sa, NULL);
    sigset_t cont;
    sigemptyset(&cont);
    sigaddset(&cont, SIGCONT);
    pthread_sigmask(SIG_BLOCK, &cont, NULL); /* until run_signals_cont_here(): the threads started meanwhile keep it */
    sigemptyset(&g_stop_signals);
    sigaddset(&g_stop_signals, SIGINT);
    sigaddset(&g_stop_signals, SIGTERM);
    sigaddset(&g_stop_signals, SIGHUP);
    if (atomic_load(&g_want_usr1)) /* taken by the main thread's wait like the others, never by an RT thread */
        sigaddset(&g_stop_signals, SIGUSR1);
    pthread_sigmask(SIG_BLOCK, &g_stop_signals, NULL);
}

void run_signals_wait_ms(int ms)
{
    struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
    int sig = sigtimedwait(&g_stop_signals, NULL, &ts);
    if (sig == SIGUSR1)
        atomic_fetch_add(&g_usr1, 1);
    else if (sig > 0)
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

void run_signals_cont_here(clockid_t clock)
{
    atomic_store(&g_cont_clock, (int)clock);
    sigset_t cont;
    sigemptyset(&cont);
    sigaddset(&cont, SIGCONT);
    pthread_sigmask(SIG_UNBLOCK, &cont, NULL);
}

unsigned run_signals_conts(int64_t *ns, unsigned max)
{
    unsigned n = atomic_load(&g_conts);
    for (unsigned k = 0; k < n && k < max && k < RUN_CONT_MAX; k++)
        ns[k] = atomic_load(&g_cont_ns[k]);
    return n;
}

void run_signals_want_usr1(void)
{
    atomic_store(&g_want_usr1, 1);
}

unsigned run_signals_usr1(void)
{
    return atomic_load(&g_usr1);
}
