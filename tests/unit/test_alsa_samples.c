/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The ALSA loopback's sample conversions (rtaudio/alsa/alsa_samples.c) against the formats' own definitions:
 * known byte patterns written by hand from the ALSA format descriptions (little-endian two's complement, S24_LE in
 * the low three bytes of four, IEEE float), and alsa-lib's own silence for the other channels. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>
#include "alsa/alsa.h"

/* Two interleaved channels of format f, 3 frames: the signal goes to channel 1; channel 0 must be silence. */
static void put_get(snd_pcm_format_t f, const float *sig, unsigned char *buf, size_t bytes)
{
    snd_pcm_channel_area_t areas[2];
    memset(buf, 0x5a, bytes);
    alsa_lb_areas(areas, buf, 2, f, 1, 3);
    alsa_lb_put(areas, 0, 2, 1, f, sig, 3);
    float back[3];
    alsa_lb_get(areas, 0, 1, f, back, 3);
    float zero[3];
    alsa_lb_get(areas, 0, 0, f, zero, 3);
    for (int i = 0; i < 3; i++) {
        assert_true(back[i] > sig[i] - 1e-4f && back[i] < sig[i] + 1e-4f);
        assert_true(zero[i] == 0.0f);
    }
}

static void s16(void **state)
{
    (void)state;
    const float sig[3] = { 0.5f, -0.5f, -1.0f };
    unsigned char b[12];
    put_get(SND_PCM_FORMAT_S16_LE, sig, b, sizeof(b));
    /* frame 0 channel 1 at bytes 2-3: 0x4000; frame 1: 0xc000; frame 2: 0x8000 (full scale) */
    assert_int_equal(b[2], 0x00); assert_int_equal(b[3], 0x40);
    assert_int_equal(b[6], 0x00); assert_int_equal(b[7], 0xc0);
    assert_int_equal(b[10], 0x00); assert_int_equal(b[11], 0x80);
    assert_int_equal(b[0], 0); assert_int_equal(b[1], 0);
}

static void clipping(void **state)
{
    (void)state;
    const float sig[3] = { 1.0f, 2.0f, -3.0f };
    unsigned char b[12];
    snd_pcm_channel_area_t areas[2];
    alsa_lb_areas(areas, b, 2, SND_PCM_FORMAT_S16_LE, 1, 3);
    alsa_lb_put(areas, 0, 2, 1, SND_PCM_FORMAT_S16_LE, sig, 3);
    assert_int_equal(b[2], 0xff); assert_int_equal(b[3], 0x7f); /* +1.0 -> 32767 */
    assert_int_equal(b[6], 0xff); assert_int_equal(b[7], 0x7f);
    assert_int_equal(b[10], 0x00); assert_int_equal(b[11], 0x80); /* -3.0 -> -32768 */
}

static void s24_and_s32(void **state)
{
    (void)state;
    const float sig[3] = { 0.25f, -0.25f, 0.0f };
    unsigned char b[24];
    put_get(SND_PCM_FORMAT_S24_LE, sig, b, sizeof(b));
    /* 0.25 * 2^23 = 0x200000 in the low three bytes, the top byte the sign */
    assert_memory_equal(b + 4, "\x00\x00\x20\x00", 4);
    assert_memory_equal(b + 12, "\x00\x00\xe0\xff", 4);
    put_get(SND_PCM_FORMAT_S32_LE, sig, b, sizeof(b));
    assert_memory_equal(b + 4, "\x00\x00\x00\x20", 4);
    assert_memory_equal(b + 12, "\x00\x00\x00\xe0", 4);
    unsigned char c[18];
    put_get(SND_PCM_FORMAT_S24_3LE, sig, c, sizeof(c));
    assert_memory_equal(c + 3, "\x00\x00\x20", 3);
    assert_memory_equal(c + 9, "\x00\x00\xe0", 3);
}

static void float_exact_planar(void **state)
{
    (void)state;
    const float sig[3] = { 0.123456789f, -0.0625f, 0.18f };
    unsigned char b[24];
    snd_pcm_channel_area_t areas[2];
    alsa_lb_areas(areas, b, 2, SND_PCM_FORMAT_FLOAT_LE, 0, 3); /* non-interleaved: channel 1 from byte 12 */
    alsa_lb_put(areas, 0, 2, 1, SND_PCM_FORMAT_FLOAT_LE, sig, 3);
    float back[3];
    alsa_lb_get(areas, 0, 1, SND_PCM_FORMAT_FLOAT_LE, back, 3);
    assert_memory_equal(back, sig, sizeof(sig)); /* bit-exact */
    assert_memory_equal(b + 20, "\xec\x51\x38\x3e", 4); /* 0.18f = 0x3e3851ec (IEEE 754) */
    float z[3];
    memcpy(z, b, 12);
    assert_true(z[0] == 0.0f && z[1] == 0.0f && z[2] == 0.0f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(s16),
        cmocka_unit_test(clipping),
        cmocka_unit_test(s24_and_s32),
        cmocka_unit_test(float_exact_planar),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
