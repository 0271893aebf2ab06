/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The ALSA backend's RT thread: the period loop. Everything it touches (the PCMs, the status container, the
 * silence and scratch buffers, this state) was allocated and configured by open. The alsa-lib calls here are
 * the device I/O itself (for a kernel PCM: ioctls and the mmap'ed ring, no allocation; alsa-lib plugins may take
 * their own mutex); recovery after an xrun (prepare, refill, start) is the device's business and is timed.
 * With --loopback duplex the loop writes the reference signal (loopsig.h) instead of silence, at the frame clock's
 * position of each frame written, and pushes what the capture side read into the sink's capture ring. */
#include "alsa/alsa.h"
#include "capring.h"
#include "loopsig.h"
#include "rtclock.h"
#include <errno.h>
#include <string.h>

#define WAIT_MS 200 /* the longest the loop sleeps without a look at the stop flag */

/* RT-safe (runs in the RT thread). */
static int64_t ts_ns(const snd_htimestamp_t *t)
{
    return (int64_t)t->tv_sec * 1000000000LL + t->tv_nsec;
}

/* RT-safe (runs in the RT thread): a counter with one writer, this thread. */
static void add(atomic_uint_fast64_t *c, uint64_t v)
{
    atomic_store_explicit(c, atomic_load_explicit(c, memory_order_relaxed) + v, memory_order_relaxed);
}

/* RT-safe (runs in the RT thread): as add(). */
static void keep_max(atomic_uint_fast64_t *c, uint64_t v)
{
    if (v > atomic_load_explicit(c, memory_order_relaxed))
        atomic_store_explicit(c, v, memory_order_relaxed);
}

/* RT-safe (runs in the RT thread): as add(). */
static void keep_min(atomic_uint_fast64_t *c, uint64_t v)
{
    if (v < atomic_load_explicit(c, memory_order_relaxed))
        atomic_store_explicit(c, v, memory_order_relaxed);
}

/* RT-safe (runs in the RT thread): write `frames` frames of silence, through the mmap'ed ring when the access is
 * mmap. Returns the frames written or a negative errno (-EPIPE: xrun). */
static snd_pcm_sframes_t write_silence(struct alsa_backend *b, snd_pcm_uframes_t frames)
{
    snd_pcm_uframes_t done = 0;
    if (b->access == SND_PCM_ACCESS_MMAP_INTERLEAVED || b->access == SND_PCM_ACCESS_MMAP_NONINTERLEAVED) {
        while (done < frames) {
            const snd_pcm_channel_area_t *areas;
            snd_pcm_uframes_t off, n = frames - done;
            int e = snd_pcm_mmap_begin(b->play, &areas, &off, &n);
            if (e < 0)
                return e;
            if (n == 0)
                break;
            snd_pcm_areas_silence(areas, off, b->channels, n, b->format);
            snd_pcm_sframes_t c = snd_pcm_mmap_commit(b->play, off, n);
            if (c < 0)
                return c;
            if (c == 0)
                break;
            done += (snd_pcm_uframes_t)c;
        }
        return (snd_pcm_sframes_t)done;
    }
    if (b->access == SND_PCM_ACCESS_RW_INTERLEAVED) {
        snd_pcm_sframes_t w = snd_pcm_writei(b->play, b->silence, frames);
        return w == -EAGAIN ? 0 : w;
    }
    void *bufs[64]; /* non-interleaved: every channel reads the same silence */
    for (unsigned c = 0; c < b->channels && c < 64; c++)
        bufs[c] = b->silence;
    snd_pcm_sframes_t w = snd_pcm_writen(b->play, bufs, frames);
    return w == -EAGAIN ? 0 : w;
}

/* RT-safe (runs in the RT thread): write `frames` frames of the reference signal for frame-clock positions pos..,
 * on the loopback's playback channel (the others silent). Returns the frames written or a negative errno. */
static snd_pcm_sframes_t write_signal(struct alsa_backend *b, uint64_t pos, snd_pcm_uframes_t frames)
{
    snd_pcm_uframes_t done = 0;
    int mmap = b->access == SND_PCM_ACCESS_MMAP_INTERLEAVED || b->access == SND_PCM_ACCESS_MMAP_NONINTERLEAVED;
    while (done < frames) {
        snd_pcm_uframes_t n = frames - done < b->buffer_frames ? frames - done : b->buffer_frames;
        snd_pcm_sframes_t c;
        if (mmap) {
            const snd_pcm_channel_area_t *areas;
            snd_pcm_uframes_t off;
            int e = snd_pcm_mmap_begin(b->play, &areas, &off, &n);
            if (e < 0)
                return e;
            if (n == 0)
                break;
            loopsig_fill(b->lb_sig, pos + done, (unsigned)n);
            alsa_lb_put(areas, off, b->channels, b->lb_play_ch, b->format, b->lb_sig, n);
            c = snd_pcm_mmap_commit(b->play, off, n);
        } else {
            loopsig_fill(b->lb_sig, pos + done, (unsigned)n);
            alsa_lb_put(b->rw_play_areas, 0, b->channels, b->lb_play_ch, b->format, b->lb_sig, n);
            if (b->access == SND_PCM_ACCESS_RW_INTERLEAVED) {
                c = snd_pcm_writei(b->play, b->lb_playbuf, n);
            } else {
                void *bufs[ALSA_LB_MAX_CHANNELS];
                for (unsigned ch = 0; ch < b->channels; ch++)
                    bufs[ch] = b->rw_play_areas[ch].addr;
                c = snd_pcm_writen(b->play, bufs, n);
            }
            if (c == -EAGAIN)
                break;
        }
        if (c < 0)
            return c;
        if (c == 0)
            break;
        done += (snd_pcm_uframes_t)c;
        if ((snd_pcm_uframes_t)c < n)
            break;
    }
    return (snd_pcm_sframes_t)done;
}

/* RT-safe (runs in the RT thread): what the loop writes, the signal (loopback) or silence. */
static snd_pcm_sframes_t write_out(struct alsa_backend *b, uint64_t pos, snd_pcm_uframes_t frames)
{
    return b->loopback ? write_signal(b, pos, frames) : write_silence(b, frames);
}

/* RT-safe (runs in the RT thread): read what the capture side holds (at most cap_buffer_frames), its loopback
 * channel into b->lb_in as floats. Returns the frames read, or a negative errno (-EPIPE: overrun). */
static snd_pcm_sframes_t read_capture(struct alsa_backend *b)
{
    snd_pcm_sframes_t avail = snd_pcm_avail_update(b->cap);
    if (avail < 0)
        return avail;
    snd_pcm_uframes_t want = (snd_pcm_uframes_t)avail < b->cap_buffer_frames ? (snd_pcm_uframes_t)avail
                                                                              : b->cap_buffer_frames;
    snd_pcm_uframes_t got = 0;
    int mmap = b->cap_access == SND_PCM_ACCESS_MMAP_INTERLEAVED || b->cap_access == SND_PCM_ACCESS_MMAP_NONINTERLEAVED;
    while (got < want) {
        snd_pcm_uframes_t n = want - got;
        snd_pcm_sframes_t c;
        if (mmap) {
            const snd_pcm_channel_area_t *areas;
            snd_pcm_uframes_t off;
            int e = snd_pcm_mmap_begin(b->cap, &areas, &off, &n);
            if (e < 0)
                return e;
            if (n == 0)
                break;
            alsa_lb_get(areas, off, b->lb_cap_ch, b->cap_format, b->lb_in + got, n);
            c = snd_pcm_mmap_commit(b->cap, off, n);
        } else {
            if (b->cap_access == SND_PCM_ACCESS_RW_INTERLEAVED) {
                c = snd_pcm_readi(b->cap, b->lb_capbuf, n);
            } else {
                void *bufs[ALSA_LB_MAX_CHANNELS];
                for (unsigned ch = 0; ch < b->cap_channels; ch++)
                    bufs[ch] = b->rw_cap_areas[ch].addr;
                c = snd_pcm_readn(b->cap, bufs, n);
            }
            if (c == -EAGAIN)
                break;
            if (c > 0)
                alsa_lb_get(b->rw_cap_areas, 0, b->lb_cap_ch, b->cap_format, b->lb_in + got, (snd_pcm_uframes_t)c);
        }
        if (c < 0)
            return c;
        if (c == 0)
            break;
        got += (snd_pcm_uframes_t)c;
    }
    return (snd_pcm_sframes_t)got;
}

/* RT-safe (runs in the RT thread): take what the capture side holds and drop it. Returns 0 or -EPIPE (overrun). */
static int drain_capture(struct alsa_backend *b)
{
    snd_pcm_sframes_t avail = snd_pcm_avail_update(b->cap);
    if (avail < 0)
        return (int)avail;
    snd_pcm_uframes_t left = (snd_pcm_uframes_t)avail;
    while (left > 0) {
        if (b->cap_access == SND_PCM_ACCESS_MMAP_INTERLEAVED || b->cap_access == SND_PCM_ACCESS_MMAP_NONINTERLEAVED) {
            const snd_pcm_channel_area_t *areas;
            snd_pcm_uframes_t off, n = left;
            int e = snd_pcm_mmap_begin(b->cap, &areas, &off, &n);
            if (e < 0)
                return e;
            snd_pcm_sframes_t c = n ? snd_pcm_mmap_commit(b->cap, off, n) : 0;
            if (c <= 0)
                return c < 0 ? (int)c : 0;
            left -= (snd_pcm_uframes_t)c;
        } else {
            snd_pcm_uframes_t n = left < b->buffer_frames ? left : b->buffer_frames;
            snd_pcm_sframes_t c;
            if (b->cap_access == SND_PCM_ACCESS_RW_INTERLEAVED) {
                c = snd_pcm_readi(b->cap, b->scratch, n);
            } else {
                void *bufs[64];
                for (unsigned ch = 0; ch < b->cap_channels && ch < 64; ch++)
                    bufs[ch] = b->scratch;
                c = snd_pcm_readn(b->cap, bufs, n);
            }
            if (c <= 0)
                return c == -EAGAIN || c == 0 ? 0 : (int)c;
            left -= (snd_pcm_uframes_t)c;
        }
    }
    return 0;
}

/* RT-safe (runs in the RT thread): fill the whole buffer (silence, or the signal from frame-clock position pos)
 * and start (both sides when duplex). Returns the frames written, or a negative errno. */
static snd_pcm_sframes_t fill_and_start(struct alsa_backend *b, uint64_t pos)
{
    snd_pcm_avail_update(b->play);
    snd_pcm_sframes_t w = write_out(b, pos, b->buffer_frames);
    if (w < 0)
        return w;
    if (b->cap && !b->linked) {
        int e = snd_pcm_start(b->cap);
        if (e < 0)
            return e;
    }
    int e = snd_pcm_start(b->play);
    return e < 0 ? e : w;
}

/* Loop state, RT thread only. */
struct loop {
    uint64_t base;       /* the 64-bit frame clock at the last (re)start: frames played before it, gaps included */
    uint64_t appl;       /* frames written since the last (re)start */
    int64_t t_start;     /* when the last (re)start returned */
    int64_t dry_ns;      /* when the written frames run out, as of the last write */
    uint64_t cap_pos;    /* loopback: the position the next captured frame is pushed with (below) */
};

/* The loopback's capture positions. A captured frame is pushed with the position of the output written in the same
 * cycle, as the JACK side does; here that is carried by the capture side's own frame count rather than by what each
 * wake-up happens to find, so that reading one period more or less in a cycle does not move it: at each (re)start of
 * both sides the first captured frame gets the position of the first frame written plus the buffer (when a period
 * is free to write, the frames the capture side holds began that many frames after the output being written), and
 * every frame read after it the next one. The round trip the analyzer measures is then, in frames, the buffer plus
 * what the path adds (converters, a sound server's periods). A restart moves the frame clock by the time it took
 * (the gap), and both sides with it: the analyzer sees the jump, never a silent re-alignment. */

/* RT-safe (runs in the RT thread): push what read_capture() read (c frames) with the cycle record r's tags. */
static void push_capture(struct alsa_backend *b, struct loop *L, const struct rt_record *r, int64_t t_ns,
                         snd_pcm_sframes_t c)
{
    if (c <= 0 || !b->sink->cap)
        return;
    cap_ring_push(b->sink->cap, L->cap_pos, r->seq, t_ns, r->phase, (r->flags & RTREC_MEASURING) != 0, r->xruns,
                  b->lb_in, (uint32_t)c);
    L->cap_pos += (uint64_t)c;
    add(&b->lb_cap_frames, (uint64_t)c);
}

/* RT-safe (runs in the RT thread): an xrun met at t_x. Its length: from the trigger timestamp the kernel stamps
 * when it stops the stream (aplay's xrun()), else from when the written frames ran out. The frames played before
 * it and the time lost until the restart go into the frame clock, so the gap shows as skipped cycles.
 * Without a trigger timestamp (alsa-lib's ioplug plugins, the jack PCM among them, give none) the gap is counted in
 * whole cycles of the device, as such a plugin plays them: a period per cycle of its server, nothing in the cycle
 * that found the buffer empty nor in any cycle until the restart. That first empty cycle came a period after the
 * one that played the last written frames (dry_ns: when they ran out, at the pace they were written at), and no
 * later than the xrun was seen (the jack PCM wakes the loop in that very cycle; a loop that was late itself has only
 * dry_ns to go by). Counted as time, as before, the gaps were off by the fraction of a cycle (on the jack PCM at
 * 48000/64, against an independent JACK client's frame count: 0.1, 0.9, 3.7, 3.7 periods where the server had run
 * 1, 1, 3, 3 cycles; over 57 recoveries beside a hog, 0.42 periods too many on average); counted so, all 57 were
 * exact. Each is known to one cycle either way (the loop's own lateness after the cycle it last wrote in, and the
 * few µs of the restart, can move it across a cycle): gap_estimated counts them and the report says so.
 * Returns 0, or the alsa_lost code when the device cannot be restarted. */
static int recover(struct alsa_backend *b, struct loop *L, int64_t t_x, const struct rt_record *last)
{
    /* Loopback: what the capture side holds up to here is the loop's audio (what came back before the output ran
     * dry), read before prepare drops it; pushed with the last cycle's tags. */
    if (b->loopback && b->cap) {
        snd_pcm_state_t cs = snd_pcm_state(b->cap);
        if (cs == SND_PCM_STATE_RUNNING || cs == SND_PCM_STATE_DRAINING)
            push_capture(b, L, last, t_x, read_capture(b));
    }
    int64_t len_ns = -1, period_ns = (int64_t)b->period_frames * 1000000000LL / b->rate_hz;
    if (snd_pcm_status(b->play, b->status) == 0 && snd_pcm_status_get_state(b->status) == SND_PCM_STATE_XRUN) {
        snd_htimestamp_t trig;
        snd_pcm_status_get_trigger_htstamp(b->status, &trig);
        int64_t t = ts_ns(&trig);
        if (b->tstamp_monotonic && t > L->t_start && t <= t_x) {
            len_ns = t_x - t;
            add(&b->xrun_from_trigger, 1);
        }
    }
    int timed = len_ns >= 0;
    if (!timed)
        len_ns = t_x > L->dry_ns ? t_x - L->dry_ns : 0;
    int64_t xrun_at = t_x - len_ns;
    add(&b->xruns, 1);
    add(&b->xrun_ns_total, (uint64_t)len_ns);
    keep_max(&b->xrun_ns_max, (uint64_t)len_ns);

    L->base += L->appl; /* an underrun: the device played everything written */
    int e = snd_pcm_prepare(b->play);
    if (e >= 0 && b->cap && !b->linked)
        e = snd_pcm_prepare(b->cap);
    /* The gap, up to the refill that restarts the clock (its own few µs are the restart's, below). */
    int64_t t_p = rt_now_ns(CLOCK_MONOTONIC);
    if (timed) {
        L->base += (uint64_t)((t_p - xrun_at) * (int64_t)b->rate_hz / 1000000000LL);
    } else {
        int64_t empty = L->dry_ns + period_ns < t_x ? L->dry_ns + period_ns : t_x; /* the first empty cycle */
        L->base += (uint64_t)((t_p > empty ? (t_p - empty) / period_ns : 0) + 1) * b->period_frames;
        add(&b->gap_estimated, 1);
    }
    /* Loopback: the capture side's own count says at least this many frames went by (an unlinked capture ran on
     * after the playback stopped): the clock never restarts behind what was captured. */
    if (b->loopback && L->cap_pos > L->base + b->buffer_frames) {
        L->base = L->cap_pos - b->buffer_frames;
        add(&b->lb_base_bumps, 1);
    }
    snd_pcm_sframes_t w = e < 0 ? e : fill_and_start(b, L->base);
    int64_t t_r = rt_now_ns(CLOCK_MONOTONIC);
    if (w < 0)
        return w == -ENODEV || w == -EBADFD ? ALSA_LOST_DEVICE : ALSA_LOST_RECOVERY;
    add(&b->recoveries, 1);
    add(&b->recovery_ns_total, (uint64_t)(t_r - t_x));
    keep_max(&b->recovery_ns_max, (uint64_t)(t_r - t_x));
    L->cap_pos = L->base + b->buffer_frames;
    L->appl = (uint64_t)w;
    L->t_start = t_r;
    L->dry_ns = t_r + (int64_t)w * 1000000000LL / b->rate_hz;
    return 0;
}

/* RT-safe (runs in the RT thread): the lost code for an error from the device. */
static int lost_for(int e)
{
    return e == -ESTRPIPE ? ALSA_LOST_SUSPENDED : ALSA_LOST_DEVICE;
}

/* RT-safe (runs in the RT thread): wait for a free period, read the clock, read the device's status (the
 * pointer and when it moved), fill what is free with silence, hand the record to the sink. The record's frame
 * position is the latest period boundary the device passed, on a 64-bit frame clock that goes on across xruns;
 * its start, where the driver timestamps its pointer, is when that boundary passed. */
void *alsa_thread(void *arg)
{
    struct alsa_backend *b = arg;
    const uint64_t period = b->period_frames, buffer = b->buffer_frames;
    const int64_t rate = b->rate_hz;
    const int64_t period_ns = (int64_t)period * 1000000000LL / rate;
    struct loop L = { 0, 0, 0, 0, buffer };
    struct rt_record r;
    memset(&r, 0, sizeof(r));
    snd_pcm_sframes_t w = fill_and_start(b, 0);
    if (w < 0) {
        atomic_store(&b->lost_code, ALSA_LOST_START);
        return NULL;
    }
    L.appl = (uint64_t)w;
    L.t_start = rt_now_ns(CLOCK_MONOTONIC);
    L.dry_ns = L.t_start + (int64_t)w * 1000000000LL / rate;
    int lost = 0;
    while (!lost && !atomic_load_explicit(&b->stop, memory_order_acquire)) {
        int e = snd_pcm_wait(b->play, WAIT_MS);
        if (e == 0)
            continue; /* nothing in WAIT_MS: look at the stop flag; the run notices a device that stopped */
        int64_t t_entry = rt_now_ns(CLOCK_MONOTONIC);
        snd_pcm_sframes_t avail = e < 0 ? e : snd_pcm_avail_update(b->play);
        if (avail >= 0 && snd_pcm_status(b->play, b->status) == 0 &&
            snd_pcm_status_get_state(b->status) == SND_PCM_STATE_XRUN)
            avail = -EPIPE;
        if (avail >= 0 && (uint64_t)snd_pcm_status_get_avail(b->status) > buffer)
            avail = -EPIPE; /* ran dry: the device stops at the next look */
        if (avail < 0) {
            lost = avail == -EPIPE ? recover(b, &L, t_entry, &r) : lost_for((int)avail);
            continue;
        }
        /* The device's position: frames it consumed since the (re)start, from what it says is free. */
        uint64_t free_now = snd_pcm_status_get_avail(b->status);
        uint64_t hw = L.appl + free_now - buffer;
        uint64_t boundary = hw - hw % period;
        r.t_entry_ns = t_entry;
        r.frame_pos = L.base + boundary;
        r.nframes = (uint32_t)period;
        r.rate_hz = (uint32_t)rate;
        r.flags = 0;
        r.start_ns = 0;
        if (b->device_tstamps) {
            snd_htimestamp_t ts;
            snd_pcm_status_get_htstamp(b->status, &ts);
            int64_t t = ts_ns(&ts);
            if (t > 0) {
                r.start_ns = t - (int64_t)(hw - boundary) * 1000000000LL / rate;
                r.flags = RTREC_HAS_START;
                add(&b->timestamped, 1);
            }
        }
        add(&b->avail_sum, free_now);
        add(&b->avail_n, 1);
        keep_min(&b->avail_min, free_now);
        keep_max(&b->avail_max, free_now);
        /* A PCM no clock paces (alsa-lib's null) takes a buffer at every look: more frames than twice the time
         * since the start allows, a tenth of a second's worth of slack, is no device. */
        if ((int64_t)hw > 2 * (t_entry - L.t_start) * rate / 1000000000LL + 2 * (int64_t)buffer + rate / 10) {
            lost = ALSA_LOST_NOT_PACED;
            continue;
        }
        w = write_out(b, L.base + L.appl, free_now);
        if (w == -EPIPE) {
            lost = recover(b, &L, rt_now_ns(CLOCK_MONOTONIC), &r);
            continue;
        }
        if (w < 0) {
            lost = lost_for((int)w);
            continue;
        }
        L.appl += (uint64_t)w;
        int64_t queued = (int64_t)(buffer - free_now) + w;
        L.dry_ns = rt_now_ns(CLOCK_MONOTONIC) + queued * 1000000000LL / rate;
        snd_pcm_sframes_t got = 0;
        if (b->cap && (e = b->loopback ? (int)(got = read_capture(b)) : drain_capture(b)) < 0) {
            got = 0;
            if (e == -EPIPE && !b->linked) { /* an overrun of the capture side alone: restart it */
                add(&b->xruns, 1);
                add(&b->xrun_capture_only, 1);
                if (snd_pcm_prepare(b->cap) < 0 || snd_pcm_start(b->cap) < 0)
                    lost = ALSA_LOST_RECOVERY;
                /* Loopback: its count starts again now, beside the playback frame being played (hw above, just
                 * written up to appl): the frames it dropped are a jump forward, never back. */
                if (b->loopback) {
                    if (L.base + L.appl > L.cap_pos)
                        L.cap_pos = L.base + L.appl;
                    add(&b->lb_cap_restarts, 1);
                }
            } else if (e != -EPIPE) {
                lost = lost_for(e);
            } /* linked: the playback side stopped with it, and the next wait meets that xrun */
        }
        int64_t start = (r.flags & RTREC_HAS_START) ? r.start_ns : t_entry;
        rt_sink_cycle(b->sink, &r, start + period_ns);
        /* After the record, so the capture carries the cycle's own seq and phase (as the JACK side does). */
        push_capture(b, &L, &r, t_entry, got);
    }
    if (lost)
        atomic_store_explicit(&b->lost_code, lost, memory_order_release);
    return NULL;
}
