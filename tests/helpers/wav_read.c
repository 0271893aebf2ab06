/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Test helper: reads a sound file back with libsndfile (not with rtjitter's own code) and prints what it holds:
 *   "frames N rate R channels C format 0xF"
 * then, with --samples, one line per frame with every channel's value (%.9g). Exit 1 when libsndfile cannot read
 * it, 2 on bad usage. */
#include <sndfile.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    int samples = argc == 3 && strcmp(argv[1], "--samples") == 0;
    if (argc != 2 && !samples) {
        fprintf(stderr, "usage: %s [--samples] FILE\n", argv[0]);
        return 2;
    }
    SF_INFO info;
    memset(&info, 0, sizeof(info));
    SNDFILE *f = sf_open(argv[argc - 1], SFM_READ, &info);
    if (!f) {
        fprintf(stderr, "%s: %s\n", argv[argc - 1], sf_strerror(NULL));
        return 1;
    }
    printf("frames %lld rate %d channels %d format 0x%x\n", (long long)info.frames, info.samplerate, info.channels,
           (unsigned)info.format);
    if (samples && info.channels > 0) {
        float *frame = calloc((size_t)info.channels, sizeof(float));
        while (frame && sf_readf_float(f, frame, 1) == 1) {
            for (int c = 0; c < info.channels; c++)
                printf(c ? " %.9g" : "%.9g", frame[c]);
            printf("\n");
        }
        free(frame);
    }
    sf_close(f);
    return 0;
}
