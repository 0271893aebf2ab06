/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The timer backend's RT thread: cyclictest's measuring loop, feeding the sink. */
#include "timer/timer.h"
#include "rtclock.h"
#include <errno.h>
#include <string.h>
#include <time.h>

/* RT-safe (runs in the RT thread): the pacing wait. clock_nanosleep returns its error (EINTR when a signal
 * handler ran in this thread), it does not set errno. */
static void sleep_until(int64_t deadline_ns)
{
    struct timespec ts = { (time_t)(deadline_ns / 1000000000LL), (long)(deadline_ns % 1000000000LL) };
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
        ;
}

/* Before the first cycle, in the RT thread (nothing measured yet; no allocation, lock, printf or I/O): the grid's
 * origin. The last thread to start takes it from the clock, plus an allowance for the others to see it; the others
 * wait for it in short sleeps. All run at their real-time priority already, so none is delayed between the
 * clock's read and its first sleep by the machine's ordinary work. 0 when the run stops first. */
#define START_ALLOWANCE_NS (5 * 1000 * 1000LL)
int64_t timer_grid_origin(struct timer_backend *b)
{
    if (atomic_fetch_add_explicit(&b->ready, 1, memory_order_acq_rel) + 1 == b->nstreams) {
        int64_t t0 = rt_now_ns(CLOCK_MONOTONIC) + START_ALLOWANCE_NS;
        atomic_store_explicit(&b->t0_ns, t0, memory_order_release);
        return t0;
    }
    int64_t t0;
    const struct timespec step = { 0, 100 * 1000 };
    while (!(t0 = atomic_load_explicit(&b->t0_ns, memory_order_acquire))) {
        if (atomic_load_explicit(&b->stop, memory_order_acquire))
            return 0;
        clock_nanosleep(CLOCK_MONOTONIC, 0, &step, NULL);
    }
    return t0;
}

/* RT-safe (runs in the RT thread): sleep to each deadline of the grid, read the clock, hand the record to the
 * sink. No allocation, lock, printf or file I/O; the only system calls are clock_nanosleep (the pacing) and,
 * in the first never-measured cycle, the sink's scheduling read. As in cyclictest, the wake-up is the clock
 * read right after clock_nanosleep returns, minus the deadline it was asked to sleep to. Unlike cyclictest, a
 * deadline that has already passed when the thread is ready for it is skipped (cyclictest sleeps for it and
 * counts a late wake-up per missed period): the frame position still advances a period for it, so the
 * statistics see a frame gap (detected xrun, skipped_cycles) exactly as for an audio cycle that never ran. */
void *timer_thread(void *arg)
{
    struct timer_stream *ts = arg;
    struct timer_backend *b = ts->b;
    struct rt_sink *sink = ts->sink;
    const uint32_t nframes = b->nframes, rate = b->rate_hz;
    const int64_t t0 = timer_grid_origin(ts->b);
    if (!t0)
        return NULL;
    uint64_t frames = nframes; /* the first deadline is one period after the grid's origin */
    struct rt_record r;
    memset(&r, 0, sizeof(r));
    while (!atomic_load_explicit(&ts->b->stop, memory_order_acquire)) {
        int64_t deadline = t0 + timer_frames_ns(frames, rate);
        sleep_until(deadline);
        r.t_entry_ns = rt_now_ns(CLOCK_MONOTONIC);
        r.start_ns = deadline;
        r.flags = RTREC_HAS_START;
        r.frame_pos = frames;
        r.nframes = nframes;
        r.rate_hz = rate;
        int64_t next = t0 + timer_frames_ns(frames + nframes, rate);
        rt_sink_cycle(sink, &r, next);
        frames += nframes;
        /* Deadlines already behind us: skipped and counted, as an audio cycle that did not run. */
        uint64_t skipped = 0;
        while (t0 + timer_frames_ns(frames, rate) <= r.t_exit_ns) {
            frames += nframes;
            skipped++;
        }
        if (skipped)
            atomic_store_explicit(&ts->skipped,
                                  atomic_load_explicit(&ts->skipped, memory_order_relaxed) + skipped,
                                  memory_order_relaxed);
    }
    return NULL;
}
