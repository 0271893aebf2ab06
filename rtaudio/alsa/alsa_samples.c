/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The ALSA loopback's samples (see alsa.h): the reference signal into the device's format and one channel of its
 * buffer, and one channel of the capture out of it, for the formats listed in alsa_lb_formats. Byte by byte, so
 * the byte order of the format is the device's, whatever the host's. No allocation: the buffers were made by
 * open. */
#include "alsa/alsa.h"
#include <string.h>

/* The formats the loopback converts, best first (FLOAT passes the signal bit-exact through the jack PCM). */
const snd_pcm_format_t alsa_lb_formats[] = {
    SND_PCM_FORMAT_FLOAT_LE, SND_PCM_FORMAT_S32_LE, SND_PCM_FORMAT_S24_LE, SND_PCM_FORMAT_S24_3LE,
    SND_PCM_FORMAT_S16_LE,
};
const size_t alsa_lb_nformats = sizeof(alsa_lb_formats) / sizeof(alsa_lb_formats[0]);

/* RT-safe: arithmetic only. Full scale of a signed integer of `bits`, with rounding and clipping. */
static int32_t to_int(float v, int bits)
{
    double full = (double)(1u << (bits - 1));
    double x = (double)v * full;
    x = x < 0 ? x - 0.5 : x + 0.5;
    if (x >= full - 1)
        return (int32_t)(full - 1);
    if (x <= -full)
        return (int32_t)-full;
    return (int32_t)x;
}

/* RT-safe: one sample into little-endian bytes of format f. */
static void put(unsigned char *p, snd_pcm_format_t f, float v)
{
    uint32_t u;
    switch (f) {
    case SND_PCM_FORMAT_FLOAT_LE:
        memcpy(&u, &v, 4);
        p[0] = (unsigned char)u; p[1] = (unsigned char)(u >> 8); p[2] = (unsigned char)(u >> 16);
        p[3] = (unsigned char)(u >> 24);
        break;
    case SND_PCM_FORMAT_S32_LE:
        u = (uint32_t)to_int(v, 32);
        p[0] = (unsigned char)u; p[1] = (unsigned char)(u >> 8); p[2] = (unsigned char)(u >> 16);
        p[3] = (unsigned char)(u >> 24);
        break;
    case SND_PCM_FORMAT_S24_LE: /* 24 bits in the low bytes of 32, sign-extended */
        u = (uint32_t)to_int(v, 24);
        p[0] = (unsigned char)u; p[1] = (unsigned char)(u >> 8); p[2] = (unsigned char)(u >> 16);
        p[3] = (u & 0x800000u) ? 0xff : 0;
        break;
    case SND_PCM_FORMAT_S24_3LE:
        u = (uint32_t)to_int(v, 24);
        p[0] = (unsigned char)u; p[1] = (unsigned char)(u >> 8); p[2] = (unsigned char)(u >> 16);
        break;
    case SND_PCM_FORMAT_S16_LE:
        u = (uint32_t)to_int(v, 16);
        p[0] = (unsigned char)u; p[1] = (unsigned char)(u >> 8);
        break;
    default:
        break;
    }
}

/* RT-safe: one sample of format f from little-endian bytes, as a float in [-1, 1). */
static float get(const unsigned char *p, snd_pcm_format_t f)
{
    uint32_t u;
    float v;
    switch (f) {
    case SND_PCM_FORMAT_FLOAT_LE:
        u = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
        memcpy(&v, &u, 4);
        return v;
    case SND_PCM_FORMAT_S32_LE:
        u = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
        return (float)((double)(int32_t)u / 2147483648.0);
    case SND_PCM_FORMAT_S24_LE:
    case SND_PCM_FORMAT_S24_3LE:
        u = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16;
        if (u & 0x800000u)
            u |= 0xff000000u;
        return (float)((double)(int32_t)u / 8388608.0);
    case SND_PCM_FORMAT_S16_LE:
        return (float)((int16_t)(uint16_t)((unsigned)p[0] | (unsigned)p[1] << 8)) / 32768.0f;
    default:
        return 0.0f;
    }
}

/* RT-safe: the address of frame `frame` of channel `ch` in areas. */
static unsigned char *at(const snd_pcm_channel_area_t *areas, unsigned ch, snd_pcm_uframes_t frame)
{
    const snd_pcm_channel_area_t *a = &areas[ch];
    return (unsigned char *)a->addr + (a->first + frame * a->step) / 8;
}

/* RT-safe (runs in the RT thread): alsa-lib's area silence and byte stores only. */
void alsa_lb_put(const snd_pcm_channel_area_t *areas, snd_pcm_uframes_t off, unsigned channels, unsigned ch,
                 snd_pcm_format_t f, const float *sig, snd_pcm_uframes_t n)
{
    snd_pcm_areas_silence(areas, off, channels, n, f);
    for (snd_pcm_uframes_t i = 0; i < n; i++)
        put(at(areas, ch, off + i), f, sig[i]);
}

/* RT-safe (runs in the RT thread): byte loads only. */
void alsa_lb_get(const snd_pcm_channel_area_t *areas, snd_pcm_uframes_t off, unsigned ch, snd_pcm_format_t f,
                 float *out, snd_pcm_uframes_t n)
{
    for (snd_pcm_uframes_t i = 0; i < n; i++)
        out[i] = get(at(areas, ch, off + i), f);
}

/* Main thread (open): not RT. */
void alsa_lb_areas(snd_pcm_channel_area_t *areas, void *buf, unsigned channels, snd_pcm_format_t f, int interleaved,
                   snd_pcm_uframes_t frames_per_channel)
{
    unsigned bits = (unsigned)snd_pcm_format_physical_width(f);
    for (unsigned c = 0; c < channels; c++) {
        if (interleaved) {
            areas[c].addr = buf;
            areas[c].first = c * bits;
            areas[c].step = channels * bits;
        } else {
            areas[c].addr = (unsigned char *)buf + (size_t)c * frames_per_channel * bits / 8;
            areas[c].first = 0;
            areas[c].step = bits;
        }
    }
}
