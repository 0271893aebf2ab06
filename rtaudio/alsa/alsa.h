/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The ALSA backend: alsa-lib alone, no sound server. It opens a PCM (hw:N, plughw:N or any named PCM) for
 * playback, and capture too with --duplex, at the requested rate, period size and periods, mmap access where the
 * device allows it (else read/write), and runs a SCHED_FIFO period loop paced by snd_pcm_wait() that writes
 * silence. Per period it records the entry time, the period boundary on the device's frame clock (the hardware
 * pointer, widened to 64 bits and carried across xruns so a gap shows), and, where the driver timestamps its
 * pointer, the time the boundary passed (the cycle's measured start). Xruns (-EPIPE and the status) are counted,
 * each one's length taken from the trigger timestamp as aplay's xrun() does, and recovered with
 * snd_pcm_prepare(), counted and timed.
 *
 * alsa_backend.c: the ops (open, parameters, describe); alsa_loop.c: the RT thread; alsa_holder.c: who holds a
 * busy card (fuser-style, through /proc). */
#ifndef RTJ_ALSA_H
#define RTJ_ALSA_H
#include <alsa/asoundlib.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include "backend.h"
#include "rt_sink.h"

struct alsa_backend {
    struct backend_config cfg;
    struct rt_sink *sink;
    snd_pcm_t *play, *cap;             /* cap: --duplex only */
    int linked;                        /* cap is linked to play (they start and stop together) */
    /* what the device accepted (hw_params), set by open, read-only afterwards */
    unsigned rate_hz;
    snd_pcm_uframes_t period_frames, buffer_frames;
    unsigned nperiods, channels, cap_channels;
    snd_pcm_format_t format;
    snd_pcm_access_t access, cap_access;
    int device_tstamps;                /* the driver timestamps its pointer (kernel PCMs); not plugins like ioplug */
    int tstamp_monotonic;              /* sw_params took CLOCK_MONOTONIC timestamps */
    snd_pcm_status_t *status;          /* preallocated: the RT thread's snd_pcm_status() target */
    void *silence;                     /* two buffers of silence (read/write access) */
    void *scratch;                     /* as large: what the capture side is read into (read/write access) */
    size_t silence_bytes;
    int configured;                    /* open succeeded: the accepted parameters above hold */
    char type_name[32], pcm_name[128], card_id[64], card_name[128], card_longname[256];
    int card;                          /* -1: no card (a plugin PCM) */
    /* --loopback duplex[:P:C] (set by open, read-only afterwards): the reference signal (loopsig.h) on playback
     * channel lb_play_ch at the frame clock's position, capture channel lb_cap_ch pushed into the sink's capture
     * ring, converted from the formats alsa_lb_formats lists */
    int loopback;
    unsigned lb_play_ch, lb_cap_ch;
    snd_pcm_format_t cap_format;
    snd_pcm_uframes_t cap_buffer_frames;
    float *lb_sig;                     /* buffer_frames: the signal of one write */
    float *lb_in;                      /* cap_buffer_frames: the capture of one read */
    void *lb_playbuf, *lb_capbuf;      /* read/write access: what is written and read, in the device's format */
    snd_pcm_channel_area_t *rw_play_areas, *rw_cap_areas; /* read/write access: areas over those two */

    /* --- RT thread --- */
    atomic_uint_fast64_t xruns;        /* device xruns (playback or capture); the sink copies it into records */
    atomic_uint_fast64_t xrun_ns_total, xrun_ns_max;   /* their lengths */
    atomic_uint_fast64_t xrun_from_trigger;            /* of which timed by the trigger timestamp */
    atomic_uint_fast64_t xrun_capture_only;            /* of which overruns of an unlinked capture side alone
                                                        * (restarted on their own, no recovery of the playback) */
    atomic_uint_fast64_t gap_estimated;                /* frame-clock gaps counted in whole cycles, no timestamp */
    atomic_uint_fast64_t recoveries, recovery_ns_total, recovery_ns_max; /* prepare + refill + start */
    atomic_uint_fast64_t avail_min, avail_max, avail_sum, avail_n;      /* frames available at wake-up */
    atomic_uint_fast64_t timestamped;  /* records whose start came from the device's timestamp */
    atomic_uint_fast64_t lb_cap_restarts;  /* loopback: the capture side restarted alone (its overrun) */
    atomic_uint_fast64_t lb_cap_frames;    /* loopback: frames read from the capture side and pushed */
    atomic_uint_fast64_t lb_base_bumps;    /* loopback: restarts where the capture's own count moved the clock */
    atomic_int lost_code;              /* why the loop ended early (an alsa_lost value); 0 while it runs */
    atomic_int stop;                   /* main thread asks the loop to leave */

    pthread_t thread;
    int started;
    int fifo;                          /* the loop thread was created SCHED_FIFO */
};

enum alsa_lost {
    ALSA_LOST_NONE = 0,
    ALSA_LOST_DEVICE,       /* -ENODEV and the like: unplugged */
    ALSA_LOST_SUSPENDED,    /* -ESTRPIPE */
    ALSA_LOST_RECOVERY,     /* snd_pcm_prepare or the restart failed */
    ALSA_LOST_NOT_PACED,    /* frames went faster than any clock: a PCM that is not paced (alsa-lib's null) */
    ALSA_LOST_START,        /* the first start failed */
};

#define ALSA_LB_MAX_CHANNELS 64 /* --loopback: channels of a device the loop can address */

/* The formats the loopback converts (alsa_samples.c), best first. */
extern const snd_pcm_format_t alsa_lb_formats[];
extern const size_t alsa_lb_nformats;
/* RT-safe (alsa_samples.c): arithmetic and memory only. Silence in every channel of n frames at off, then the
 * float signal sig into channel ch, in format f. */
void alsa_lb_put(const snd_pcm_channel_area_t *areas, snd_pcm_uframes_t off, unsigned channels, unsigned ch,
                 snd_pcm_format_t f, const float *sig, snd_pcm_uframes_t n);
/* RT-safe: channel ch of n frames at off, format f, into floats. */
void alsa_lb_get(const snd_pcm_channel_area_t *areas, snd_pcm_uframes_t off, unsigned ch, snd_pcm_format_t f,
                 float *out, snd_pcm_uframes_t n);
/* Main thread (open): areas over a read/write buffer, interleaved or one block of frames_per_channel per channel. */
void alsa_lb_areas(snd_pcm_channel_area_t *areas, void *buf, unsigned channels, snd_pcm_format_t f, int interleaved,
                   snd_pcm_uframes_t frames_per_channel);

/* RT thread body (alsa_loop.c); arg is the struct alsa_backend. */
void *alsa_thread(void *arg);

#endif
