/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The ALSA backend's ops: opening and configuring the PCM (what the device accepts may differ from the request:
 * the report gives what it accepted), the period loop's thread (alsa_loop.c), and what a busy, missing or
 * forbidden device is called (alsa_holder.c names who holds a busy card). See alsa.h. */
#include "alsa/alsa.h"
#include "rt_thread.h"
#include "alsa/alsa_holder.h"
#include "util/optdef.h"
#include "util/utf8.h"
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STACK_BYTES (256 * 1024) /* mlockall(MCL_FUTURE) would lock a default 8 MiB stack */

#define O(f) offsetof(struct backend_config, f)
static const struct opt_def alsa_params[] = {
    { "device", OPT_STR, O(device), 0, 0, "PCM", "the ALSA PCM: hw:N, hw:NAME (aplay -l), plughw:N or a named PCM "
      "(aplay -L); required", NULL, 'd' },
    { "nperiods", OPT_INT, O(nperiods), 2, 16, "N", "periods in the device's buffer (default 2; 3 for USB)", NULL, 'n' },
    { "priority", OPT_INT, O(priority), 1, 98, "N", "real-time priority of the period loop, SCHED_FIFO (default "
      "70)", NULL, 'P' },
    { "duplex", OPT_FLAG, O(duplex), 0, 0, "", "open the capture side too (read and dropped each period)", NULL, 0 },
    { "loopback", OPT_STR, O(loopback), 0, 0, "duplex[:P:C]", "play a test signal on playback channel P and listen "
      "to it on capture channel C of the same device (default 0 and 0; a cable between them, implies --duplex): "
      "finds every dropout in the audio itself and the round-trip latency", NULL, 0 },
    { NULL, 0, 0, 0, 0, NULL, NULL, NULL, 0 },
};
#undef O

/* alsa-lib prints its own errors on stderr ("ALSA lib pcm.c:...: Unknown PCM"); ours are one line each. */
static void silent_alsa(const char *file, int line, const char *function, int err, const char *fmt, ...)
{
    (void)file;
    (void)line;
    (void)function;
    (void)err;
    (void)fmt;
}

/* Main thread: alsa-lib is linked in; a missing device is open's business. */
static int alsa_unavailable(char *why, size_t len)
{
    (void)why;
    (void)len;
    return 0;
}

/* One line for a PCM that cannot be opened, and the errno run turns into the exit status (2: bad input). */
static int open_error(const char *dev, int e, char *err, size_t len)
{
    int card = alsa_card_of(dev);
    if (e == -EBUSY || e == -EAGAIN) {
        char who[512];
        int hidden = 0;
        int n = alsa_find_holders("", card, who, sizeof(who), &hidden);
        if (n > 0)
            snprintf(err, len, "ALSA device '%s' is busy: held by %s (stop it for the run, or free the card from "
                     "PipeWire: see the README)", dev, who);
        else
            snprintf(err, len, "ALSA device '%s' is busy: held by another program%s", dev,
                     hidden ? " (run as root to see which: another user's processes cannot be read)"
                            : " (none found holding a /dev/snd/pcm* device: a sound server's plugin?)");
        return -EBUSY;
    }
    if (e == -EACCES || e == -EPERM) {
        snprintf(err, len, "not permitted to open ALSA device '%s': join the audio group (sudo usermod -aG audio "
                 "$USER, then log in again)", dev);
        return -EACCES;
    }
    if (e == -ENOENT || e == -ENODEV || e == -ENXIO || (e == -EINVAL && strchr(dev, ':') && card < 0)) {
        snprintf(err, len, "no ALSA device '%s' here (aplay -l lists the cards, aplay -L the PCM names)", dev);
        return -ENODEV;
    }
    snprintf(err, len, "cannot open ALSA device '%s': %s", dev, snd_strerror(e));
    return e < 0 ? e : -EIO;
}

/* The sample formats tried, best for a silent stream first (any works: we write silence). */
static const snd_pcm_format_t formats[] = {
    SND_PCM_FORMAT_S32_LE, SND_PCM_FORMAT_S16_LE, SND_PCM_FORMAT_S24_LE, SND_PCM_FORMAT_S24_3LE,
    SND_PCM_FORMAT_FLOAT_LE, SND_PCM_FORMAT_S32_BE, SND_PCM_FORMAT_S16_BE, SND_PCM_FORMAT_U8,
};
static const snd_pcm_access_t accesses[] = {
    SND_PCM_ACCESS_MMAP_INTERLEAVED, SND_PCM_ACCESS_MMAP_NONINTERLEAVED, SND_PCM_ACCESS_RW_INTERLEAVED,
    SND_PCM_ACCESS_RW_NONINTERLEAVED,
};

/* Hardware parameters: mmap where the device allows it, the first format it takes, the fewest channels, the rate,
 * period size and periods nearest to the request (no resampling: the device's own rate is measured). What it
 * accepted is written back. With `match` (capture in duplex), the rate and period must equal the playback's. */
static int set_hw(snd_pcm_t *pcm, unsigned *rate, snd_pcm_uframes_t *period, unsigned *periods,
                  snd_pcm_uframes_t *buffer, unsigned *channels, snd_pcm_format_t *format, snd_pcm_access_t *access,
                  const snd_pcm_format_t *fmts, size_t nfmts, unsigned min_channels, const char *side, char *err,
                  size_t len)
{
    snd_pcm_hw_params_t *hw;
    snd_pcm_hw_params_alloca(&hw);
    int e = snd_pcm_hw_params_any(pcm, hw);
    if (e < 0) {
        snprintf(err, len, "the %s device gives no parameters: %s", side, snd_strerror(e));
        return -EINVAL;
    }
    snd_pcm_hw_params_set_rate_resample(pcm, hw, 0);
    size_t a = 0;
    while (a < sizeof(accesses) / sizeof(accesses[0]) && snd_pcm_hw_params_set_access(pcm, hw, accesses[a]) < 0)
        a++;
    if (a == sizeof(accesses) / sizeof(accesses[0])) {
        snprintf(err, len, "the %s device offers neither mmap nor read/write access", side);
        return -EINVAL;
    }
    *access = accesses[a];
    size_t f = 0;
    while (f < nfmts && snd_pcm_hw_params_set_format(pcm, hw, fmts[f]) < 0)
        f++;
    if (f == nfmts) {
        snprintf(err, len, "the %s device takes none of the %s sample formats", side,
                 fmts == alsa_lb_formats ? "loopback's (FLOAT, S32, S24, S24_3, S16, little-endian)" : "common");
        return -EINVAL;
    }
    *format = fmts[f];
    if (min_channels > 1 && snd_pcm_hw_params_set_channels_min(pcm, hw, &min_channels) < 0) {
        snprintf(err, len, "the %s device has fewer than %u channels: --loopback duplex:P:C counts them from 0",
                 side, min_channels);
        return -EINVAL;
    }
    if ((e = snd_pcm_hw_params_set_channels_first(pcm, hw, channels)) < 0 ||
        (e = snd_pcm_hw_params_set_rate_near(pcm, hw, rate, NULL)) < 0 ||
        (e = snd_pcm_hw_params_set_period_size_near(pcm, hw, period, NULL)) < 0 ||
        (e = snd_pcm_hw_params_set_periods_near(pcm, hw, periods, NULL)) < 0 ||
        (e = snd_pcm_hw_params(pcm, hw)) < 0) {
        snprintf(err, len, "the %s device refused %u Hz, %lu frames x %u periods: %s", side, *rate,
                 (unsigned long)*period, *periods, snd_strerror(e));
        return -EINVAL;
    }
    snd_pcm_hw_params_get_rate(hw, rate, NULL);
    snd_pcm_hw_params_get_period_size(hw, period, NULL);
    snd_pcm_hw_params_get_periods(hw, periods, NULL);
    snd_pcm_hw_params_get_buffer_size(hw, buffer);
    snd_pcm_hw_params_get_channels(hw, channels);
    return 0;
}

/* Software parameters: wake when a period is free (filled, for capture), start explicitly, xrun when empty, and
 * timestamp the pointer on CLOCK_MONOTONIC (the measurement clock) where the driver can. */
static int set_sw(snd_pcm_t *pcm, snd_pcm_uframes_t period, snd_pcm_uframes_t buffer, int *mono, const char *side,
                  char *err, size_t len)
{
    snd_pcm_sw_params_t *sw;
    snd_pcm_sw_params_alloca(&sw);
    int e;
    if ((e = snd_pcm_sw_params_current(pcm, sw)) < 0 || (e = snd_pcm_sw_params_set_avail_min(pcm, sw, period)) < 0 ||
        (e = snd_pcm_sw_params_set_start_threshold(pcm, sw, buffer * 2)) < 0 ||
        (e = snd_pcm_sw_params_set_stop_threshold(pcm, sw, buffer)) < 0 ||
        (e = snd_pcm_sw_params_set_tstamp_mode(pcm, sw, SND_PCM_TSTAMP_ENABLE)) < 0) {
        snprintf(err, len, "the %s device refused its software parameters: %s", side, snd_strerror(e));
        return -EINVAL;
    }
    *mono = snd_pcm_sw_params_set_tstamp_type(pcm, sw, SND_PCM_TSTAMP_TYPE_MONOTONIC) == 0;
    if ((e = snd_pcm_sw_params(pcm, sw)) < 0) {
        snprintf(err, len, "the %s device refused its software parameters: %s", side, snd_strerror(e));
        return -EINVAL;
    }
    return 0;
}

/* The card behind the PCM, when it has one, for the report. */
static void card_info(struct alsa_backend *b)
{
    b->card = -1;
    snd_pcm_info_t *info;
    snd_pcm_info_alloca(&info);
    if (snd_pcm_info(b->play, info) == 0) {
        b->card = snd_pcm_info_get_card(info);
        const char *n = snd_pcm_info_get_name(info);
        snprintf(b->pcm_name, sizeof(b->pcm_name), "%s", n ? n : "");
    }
    if (b->card < 0)
        return;
    snd_ctl_card_info_t *ci;
    snd_ctl_card_info_alloca(&ci);
    char hw[32];
    snd_ctl_t *ctl;
    snprintf(hw, sizeof(hw), "hw:%d", b->card);
    if (snd_ctl_open(&ctl, hw, SND_CTL_NONBLOCK) == 0) {
        if (snd_ctl_card_info(ctl, ci) == 0) {
            snprintf(b->card_id, sizeof(b->card_id), "%s", snd_ctl_card_info_get_id(ci));
            snprintf(b->card_name, sizeof(b->card_name), "%s", snd_ctl_card_info_get_name(ci));
            snprintf(b->card_longname, sizeof(b->card_longname), "%s", snd_ctl_card_info_get_longname(ci));
        }
        snd_ctl_close(ctl);
    }
}

/* Main thread: --loopback duplex[:P:C]. 0, or -EINVAL with one line. */
static int parse_loopback(struct alsa_backend *b, const char *spec, char *err, size_t len)
{
    unsigned p = 0, c = 0;
    int n = 0;
    if (strcmp(spec, "duplex") != 0 &&
        (sscanf(spec, "duplex:%u:%u%n", &p, &c, &n) != 2 || spec[n] != '\0' || strchr(spec, '-') ||
         p >= ALSA_LB_MAX_CHANNELS || c >= ALSA_LB_MAX_CHANNELS)) {
        snprintf(err, len, "--loopback '%s': with --backend alsa give duplex (playback channel 0 to capture channel "
                 "0 of --device) or duplex:P:C (channels from 0 to %d)", spec, ALSA_LB_MAX_CHANNELS - 1);
        return -EINVAL;
    }
    b->loopback = 1;
    b->lb_play_ch = p;
    b->lb_cap_ch = c;
    return 0;
}

/* Main thread: the loopback's buffers, allocated and touched now (the RT thread must not fault them in). */
static int loopback_alloc(struct alsa_backend *b, char *err, size_t len)
{
    if (b->channels > ALSA_LB_MAX_CHANNELS || b->cap_channels > ALSA_LB_MAX_CHANNELS) {
        snprintf(err, len, "--loopback: the device took %u/%u channels: at most %d", b->channels, b->cap_channels,
                 ALSA_LB_MAX_CHANNELS);
        return -EINVAL;
    }
    if (!b->sink->cap) {
        snprintf(err, len, "--loopback is for rtjitter run (this command has no loopback analyzer)");
        return -EINVAL;
    }
    size_t pbytes = (size_t)b->buffer_frames * b->channels * 4, cbytes = (size_t)b->cap_buffer_frames * b->cap_channels * 4;
    b->lb_sig = malloc(b->buffer_frames * sizeof(float));
    b->lb_in = malloc(b->cap_buffer_frames * sizeof(float));
    b->lb_playbuf = malloc(pbytes);
    b->lb_capbuf = malloc(cbytes);
    b->rw_play_areas = calloc(b->channels, sizeof(*b->rw_play_areas));
    b->rw_cap_areas = calloc(b->cap_channels, sizeof(*b->rw_cap_areas));
    if (!b->lb_sig || !b->lb_in || !b->lb_playbuf || !b->lb_capbuf || !b->rw_play_areas || !b->rw_cap_areas) {
        snprintf(err, len, "out of memory");
        return -ENOMEM;
    }
    memset(b->lb_sig, 0, b->buffer_frames * sizeof(float));
    memset(b->lb_in, 0, b->cap_buffer_frames * sizeof(float));
    memset(b->lb_playbuf, 0, pbytes);
    memset(b->lb_capbuf, 0, cbytes);
    alsa_lb_areas(b->rw_play_areas, b->lb_playbuf, b->channels, b->format,
                  b->access == SND_PCM_ACCESS_RW_INTERLEAVED, b->buffer_frames);
    alsa_lb_areas(b->rw_cap_areas, b->lb_capbuf, b->cap_channels, b->cap_format,
                  b->cap_access == SND_PCM_ACCESS_RW_INTERLEAVED, b->cap_buffer_frames);
    return 0;
}

/* Main thread: open and configure the PCM(s); everything the loop touches is allocated here. */
static int alsa_open(void *priv, const struct backend_config *cfg, struct rt_sink *sink, char *err, size_t len)
{
    struct alsa_backend *b = priv;
    b->cfg = *cfg;
    b->sink = sink;
    b->card = -1;
    snd_lib_error_set_handler(silent_alsa);
    int e;
    if (cfg->loopback && (e = parse_loopback(b, cfg->loopback, err, len)) < 0)
        return e;
    if (!cfg->device) {
        snprintf(err, len, "--backend alsa needs --device PCM (aplay -l lists the cards: --device hw:0, hw:USB...)");
        return -EINVAL;
    }
    if (b->loopback)
        b->cfg.duplex = 1; /* the loop listens on the capture side */
    const snd_pcm_format_t *fmts = b->loopback ? alsa_lb_formats : formats;
    size_t nfmts = b->loopback ? alsa_lb_nformats : sizeof(formats) / sizeof(formats[0]);
    /* Non-blocking: a busy hw device answers -EBUSY at once instead of waiting for its holder; the loop only ever
     * writes what is free, and waits in snd_pcm_wait(). */
    e = snd_pcm_open(&b->play, cfg->device, SND_PCM_STREAM_PLAYBACK, SND_PCM_NONBLOCK);
    if (e < 0) {
        b->play = NULL;
        return open_error(cfg->device, e, err, len);
    }
    snprintf(b->type_name, sizeof(b->type_name), "%s", snd_pcm_type_name(snd_pcm_type(b->play)));
    b->rate_hz = (unsigned)cfg->rate_hz;
    b->period_frames = (snd_pcm_uframes_t)cfg->period_frames;
    b->nperiods = (unsigned)cfg->nperiods;
    if ((e = set_hw(b->play, &b->rate_hz, &b->period_frames, &b->nperiods, &b->buffer_frames, &b->channels,
                    &b->format, &b->access, fmts, nfmts, b->loopback ? b->lb_play_ch + 1 : 1, "playback", err,
                    len)) < 0 ||
        (e = set_sw(b->play, b->period_frames, b->buffer_frames, &b->tstamp_monotonic, "playback", err, len)) < 0)
        return e;
    if (b->cfg.duplex) {
        e = snd_pcm_open(&b->cap, cfg->device, SND_PCM_STREAM_CAPTURE, SND_PCM_NONBLOCK);
        if (e < 0) {
            b->cap = NULL;
            return open_error(cfg->device, e, err, len);
        }
        unsigned rate = b->rate_hz, periods = b->nperiods;
        snd_pcm_uframes_t period = b->period_frames, buffer;
        int mono;
        if ((e = set_hw(b->cap, &rate, &period, &periods, &buffer, &b->cap_channels, &b->cap_format, &b->cap_access,
                        fmts, nfmts, b->loopback ? b->lb_cap_ch + 1 : 1, "capture", err, len)) < 0 ||
            (e = set_sw(b->cap, period, buffer, &mono, "capture", err, len)) < 0)
            return e;
        if (rate != b->rate_hz || period != b->period_frames) {
            snprintf(err, len, "the capture side of '%s' took %u Hz / %lu frames, the playback side %u Hz / %lu: "
                     "no duplex at one period", cfg->device, rate, (unsigned long)period, b->rate_hz,
                     (unsigned long)b->period_frames);
            return -EINVAL;
        }
        b->cap_buffer_frames = buffer;
        b->linked = snd_pcm_link(b->play, b->cap) == 0;
    }
    /* A kernel PCM stamps its pointer updates (the period interrupt); alsa-lib's I/O plugins (the jack PCM),
     * the null PCM and sound-server plugins stamp "now", which says nothing about the period boundary. */
    snd_pcm_type_t t = snd_pcm_type(b->play);
    b->device_tstamps = b->tstamp_monotonic && t != SND_PCM_TYPE_IOPLUG && t != SND_PCM_TYPE_NULL &&
                        t != SND_PCM_TYPE_EXTPLUG && t != SND_PCM_TYPE_SHM;
    if ((e = snd_pcm_status_malloc(&b->status)) < 0) {
        snprintf(err, len, "out of memory");
        return -ENOMEM;
    }
    /* Silence for read/write access, and the scratch the capture side is read into: one buffer of the wider. */
    unsigned ch = b->channels > b->cap_channels ? b->channels : b->cap_channels;
    ssize_t frame_bytes = snd_pcm_format_physical_width(b->format) / 8 * (ssize_t)ch;
    if (frame_bytes <= 0)
        frame_bytes = 16;
    b->silence_bytes = (size_t)frame_bytes * b->buffer_frames * 2;
    b->silence = malloc(b->silence_bytes);
    b->scratch = malloc(b->silence_bytes);
    if (!b->silence || !b->scratch) {
        snprintf(err, len, "out of memory");
        return -ENOMEM;
    }
    snd_pcm_format_set_silence(b->format, b->silence, (unsigned)(b->silence_bytes * 8 /
                                                                 (unsigned)snd_pcm_format_physical_width(b->format)));
    if (b->loopback && (e = loopback_alloc(b, err, len)) < 0)
        return e;
    card_info(b);
    sink->clock = CLOCK_MONOTONIC;
    sink->xruns = &b->xruns;
    atomic_store(&b->avail_min, UINT64_MAX);
    b->configured = 1;
    return 0;
}

/* Main thread: the period loop's thread, SCHED_FIFO at --priority (without the right to it, at the policy it
 * inherits: the report then says so). */
static int alsa_start(void *priv)
{
    struct alsa_backend *b = priv;
    int e = rt_thread_start(&b->thread, STACK_BYTES, b->cfg.priority, -1, alsa_thread, b, &b->fifo);
    if (e == 0)
        b->started = 1;
    return e;
}

static const char *lost_text(int code)
{
    switch (code) {
    case ALSA_LOST_DEVICE: return "the ALSA device went away (unplugged, or its driver failed)";
    case ALSA_LOST_SUSPENDED: return "the ALSA device was suspended";
    case ALSA_LOST_RECOVERY: return "the ALSA device could not be restarted after an xrun";
    case ALSA_LOST_NOT_PACED: return "the PCM is not paced by any clock (frames go faster than real time: "
                                     "alsa-lib's null PCM?): nothing to measure";
    case ALSA_LOST_START: return "the ALSA device could not be started";
    default: return NULL;
    }
}

/* Any non-RT thread. */
static void alsa_status(void *priv, struct backend_status *st)
{
    struct alsa_backend *b = priv;
    st->rate_hz = b->rate_hz;
    st->period_frames = (unsigned)b->period_frames;
    st->xruns = atomic_load(&b->xruns);
    st->size_changes = 0;
    st->dsp_load_pct = -1;
    st->lost = lost_text(atomic_load(&b->lost_code));
}

#define str_or_null utf8_json_string

static double ms(uint64_t ns)
{
    return (double)ns / 1e6;
}

/* Main thread: the device, what it accepted against what was asked, its timestamps, xruns and recoveries. */
static void alsa_describe(void *priv, json_t *au)
{
    struct alsa_backend *b = priv;
    json_object_set_new(au, "provider", json_string("alsa-lib"));
    json_object_set_new(au, "provider_version", str_or_null(snd_asoundlib_version()));
    json_object_set_new(au, "server", json_null());
    json_object_set_new(au, "server_name", json_null());
    json_object_set_new(au, "driver", str_or_null(b->type_name[0] ? b->type_name : NULL));
    json_object_set_new(au, "device", str_or_null(b->cfg.device));
    json_object_set_new(au, "nperiods", b->configured ? json_integer(b->nperiods) : json_null());
    json_object_set_new(au, "clock", json_string("CLOCK_MONOTONIC"));
    json_object_set_new(au, "card", b->card >= 0 ? json_pack("{s:i, s:o, s:o, s:o}", "index", b->card,
                        "id", str_or_null(b->card_id), "name", str_or_null(b->card_name),
                        "longname", str_or_null(b->card_longname)) : json_null());
    json_object_set_new(au, "pcm_name", str_or_null(b->pcm_name[0] ? b->pcm_name : NULL));
    json_object_set_new(au, "requested", json_pack("{s:i, s:i, s:i}", "rate", b->cfg.rate_hz, "period_frames",
                                                   b->cfg.period_frames, "nperiods", b->cfg.nperiods));
    json_object_set_new(au, "accepted", b->configured ? json_pack("{s:i, s:i, s:i, s:i, s:s, s:i, s:s, s:b}",
        "rate", (int)b->rate_hz, "period_frames", (int)b->period_frames, "nperiods", (int)b->nperiods,
        "buffer_frames", (int)b->buffer_frames, "format", snd_pcm_format_name(b->format), "channels",
        (int)b->channels, "access", snd_pcm_access_name(b->access), "duplex", b->cfg.duplex) : json_null());
    json_object_set_new(au, "device_timestamps", json_boolean(b->device_tstamps));
    json_object_set_new(au, "wakeup_method", json_string(
        b->device_tstamps ? "entry minus the period boundary, from the driver's timestamp of its pointer "
                            "(snd_pcm_status htstamp less the frames past the boundary)"
                          : "this PCM (an alsa-lib plugin) does not timestamp its pointer: wakeup is measured against "
                            "the frame clock's fitted grid (lateness beyond the earliest cycles, ns resolution)"));
    uint64_t n = atomic_load(&b->avail_n);
    json_object_set_new(au, "avail_at_wakeup_frames", n ? json_pack("{s:I, s:f, s:I}",
        "min", (json_int_t)atomic_load(&b->avail_min), "mean", (double)atomic_load(&b->avail_sum) / (double)n,
        "max", (json_int_t)atomic_load(&b->avail_max)) : json_null());
    uint64_t x = atomic_load(&b->xruns), rec = atomic_load(&b->recoveries);
    json_object_set_new(au, "xrun_events", json_pack("{s:I, s:I, s:f, s:f, s:I, s:s, s:I, s:s}",
        "count", (json_int_t)x, "capture_only", (json_int_t)atomic_load(&b->xrun_capture_only),
        "total_ms", ms(atomic_load(&b->xrun_ns_total)),
        "max_ms", ms(atomic_load(&b->xrun_ns_max)), "timed_by_trigger", (json_int_t)atomic_load(&b->xrun_from_trigger),
        "length", "from the xrun's trigger timestamp to its detection, as aplay's xrun(); where the PCM gives no "
                  "trigger timestamp, from when the written frames ran out",
        "gaps_estimated", (json_int_t)atomic_load(&b->gap_estimated),
        "gap", "the frame clock moves over an xrun by the time from its trigger timestamp to the restart; where the "
               "PCM gives none (gaps_estimated), by whole periods: the cycle that found the buffer empty (a period "
               "after the written frames ran out, no later than the xrun was seen) and each one until the restart, "
               "known to one cycle either way each"));
    json_object_set_new(au, "frame_clock", json_string(
        b->device_tstamps ? "the device's hardware pointer, widened to 64 bits and carried across xruns"
                          : "the PCM's own pointer, widened to 64 bits and carried across xruns: a plugin's (the jack "
                            "PCM's) moves only when its sound-server client runs, so a server cycle that client "
                            "missed (its thread woke over a period late: jack2 logs it as not finished) is played by "
                            "nobody and counted nowhere, neither as an xrun nor as a skipped cycle: it shows as a "
                            "period one cycle longer"));
    json_object_set_new(au, "recoveries", json_pack("{s:I, s:f, s:f}", "count", (json_int_t)rec,
        "total_ms", ms(atomic_load(&b->recovery_ns_total)), "max_ms", ms(atomic_load(&b->recovery_ns_max))));
    json_object_set_new(au, "timestamped_cycles", json_integer((json_int_t)atomic_load(&b->timestamped)));
    if (b->loopback)
        json_object_set_new(au, "loopback", json_pack("{s:s, s:i, s:i, s:o, s:o, s:o, s:o, s:b, s:I, s:I, s:I, s:s}",
            "mode", "duplex", "playback_channel", (int)b->lb_play_ch, "capture_channel", (int)b->lb_cap_ch,
            "format", b->configured ? json_string(snd_pcm_format_name(b->format)) : json_null(),
            "capture_format", b->configured ? json_string(snd_pcm_format_name(b->cap_format)) : json_null(),
            "buffer_frames", b->configured ? json_integer((json_int_t)b->buffer_frames) : json_null(),
            "capture_buffer_frames", b->configured ? json_integer((json_int_t)b->cap_buffer_frames) : json_null(),
            "linked", b->linked, "frames_captured", (json_int_t)atomic_load(&b->lb_cap_frames),
            "capture_restarts", (json_int_t)atomic_load(&b->lb_cap_restarts),
            "clock_moved_by_capture", (json_int_t)atomic_load(&b->lb_base_bumps),
            "positions", "each captured frame carries the position of the output written in the same cycle: the "
                         "capture side's own count from each (re)start of both sides, the first captured frame "
                         "taking the first written frame's position plus the buffer; so the round trip is the "
                         "buffer plus what the path adds, and each restart is a jump of the frame clock by the time "
                         "it took"));
}

/* Main thread: the loop leaves at its next wake-up (at most a period, or its 200 ms wait), then the PCMs are
 * dropped and closed. Safe twice and after a failed open. */
static int alsa_stop(void *priv)
{
    struct alsa_backend *b = priv;
    atomic_store_explicit(&b->stop, 1, memory_order_release);
    if (b->started) {
        pthread_join(b->thread, NULL);
        b->started = 0;
    }
    if (b->cap) {
        if (b->linked)
            snd_pcm_unlink(b->cap);
        snd_pcm_drop(b->cap);
        snd_pcm_close(b->cap);
        b->cap = NULL;
    }
    if (b->play) {
        snd_pcm_drop(b->play);
        snd_pcm_close(b->play);
        b->play = NULL;
    }
    if (b->status) {
        snd_pcm_status_free(b->status);
        b->status = NULL;
    }
    free(b->silence);
    free(b->scratch);
    b->silence = b->scratch = NULL;
    free(b->lb_sig);
    free(b->lb_in);
    free(b->lb_playbuf);
    free(b->lb_capbuf);
    free(b->rw_play_areas);
    free(b->rw_cap_areas);
    b->lb_sig = b->lb_in = NULL;
    b->lb_playbuf = b->lb_capbuf = NULL;
    b->rw_play_areas = b->rw_cap_areas = NULL;
    return 0;
}

const struct backend_ops backend_alsa = {
    .name = "alsa",
    .summary = "the ALSA driver alone (alsa-lib, no sound server): a period loop on --device PCM",
    .params = alsa_params,
    .private_size = sizeof(struct alsa_backend),
    .unavailable = alsa_unavailable,
    .open = alsa_open,
    .start = alsa_start,
    .status = alsa_status,
    .describe = alsa_describe,
    .stop = alsa_stop,
    .session = NULL, /* none: each run of a sweep opens it anew at the size asked ("direct") */
};
