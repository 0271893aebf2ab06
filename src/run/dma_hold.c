/* SPDX-License-Identifier: GPL-2.0-or-later */
/* /dev/cpu_dma_latency held at 0 while measuring (dma_hold.h). Main thread only. */
#include "run/dma_hold.h"
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int dma_hold_take(struct dma_hold *h, const char *path, int want, const char *off_note)
{
    h->fd = -1;
    h->was_held = 0;
    if (!want) {
        snprintf(h->note, sizeof(h->note), "%s", off_note ? off_note : "off");
        return 0;
    }
    int fd = open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) {
        int e = errno;
        snprintf(h->note, sizeof(h->note), "not held: cannot open %s: %s%s", path, strerror(e),
                 e == EACCES || e == EPERM ? " (root's only here; rtjitter check says how the audio group may hold it)"
                                           : "");
        return -e;
    }
    int32_t zero = 0;
    if (write(fd, &zero, sizeof(zero)) != (ssize_t)sizeof(zero)) {
        int e = errno ? errno : EIO;
        snprintf(h->note, sizeof(h->note), "not held: cannot write %s: %s", path, strerror(e));
        close(fd);
        return -e;
    }
    h->fd = fd;
    h->was_held = 1;
    snprintf(h->note, sizeof(h->note), "held at 0 us while measuring");
    return 0;
}

void dma_hold_release(struct dma_hold *h)
{
    if (h->fd >= 0) {
        close(h->fd);
        h->fd = -1;
    }
}

void dma_hold_describe(const struct dma_hold *h, json_t *audio)
{
    json_object_set_new(audio, "cpu_dma_latency_us", h->was_held ? json_integer(0) : json_null());
    json_object_set_new(audio, "cpu_dma_latency", json_string(h->note[0] ? h->note : "not started"));
}
