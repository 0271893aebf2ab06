/* SPDX-License-Identifier: GPL-2.0-or-later */
/* write: sequential writes with periodic fsync, like recording a take or copying a project. */
#include "load.h"
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { P_MB, P_SYNC };
#define BLOCK (1u << 20)

static void run(struct load_child *c)
{
    uint64_t size = (uint64_t)c->param[P_MB] << 20;
    if (size > c->disk_bytes)
        size = c->disk_bytes & ~(uint64_t)(BLOCK - 1); /* the free-space share wins over the asked size */
    if (size < BLOCK)
        size = BLOCK;
    uint64_t sync_every = (uint64_t)c->param[P_SYNC] << 20;
    unsigned char *buf = malloc(BLOCK);
    if (!buf) {
        load_fail(c, "out of memory");
        return;
    }
    uint64_t x = 0x9e3779b97f4a7c15ull; /* incompressible data: some file systems compress or dedupe zeros */
    for (size_t i = 0; i < BLOCK; i += 8) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        memcpy(buf + i, &x, 8);
    }
    int fd = load_tmpfile(c->dirfd, O_WRONLY);
    if (fd < 0) {
        load_fail(c, "cannot create a file in %s: %s", c->dir, strerror(-fd));
        free(buf);
        return;
    }
    for (;;) {
        /* Each pass starts from an empty file, so it allocates blocks again, as a new recording would. */
        if (ftruncate(fd, 0) < 0 || lseek(fd, 0, SEEK_SET) < 0) {
            load_fail(c, "truncate: %s", strerror(errno));
            break;
        }
        uint64_t done = 0, since_sync = 0;
        while (done < size) {
            ssize_t n = write(fd, buf, BLOCK);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0) {
                int e = n < 0 ? errno : ENOSPC;
                load_fail(c, "%s after %.1f MB of a %.0f MB pass (%s); the load stopped",
                          e == ENOSPC || e == EDQUOT ? "the disk filled up" : "write failed", done / 1048576.0,
                          size / 1048576.0, strerror(e));
                goto out;
            }
            done += (uint64_t)n;
            since_sync += (uint64_t)n;
            load_count(c, 0, (uint64_t)n);
            buf[0]++; /* every block differs */
            if (since_sync >= sync_every || done >= size) {
                if (fsync(fd) < 0) {
                    load_fail(c, "fsync failed after %.0f MB (%s); the load stopped", done / 1048576.0,
                              strerror(errno));
                    goto out;
                }
                load_count(c, 1, 1);
                since_sync = 0;
            }
        }
    }
out:
    close(fd);
    free(buf);
}

static int report(const struct load_child *c, const struct load_sample *s, struct load_metric *m)
{
    (void)c;
    if (s->wall_s <= 0)
        return 0;
    int n = load_metric_set(&m[0], "write", "throughput", s->count[0] / 1048576.0 / s->wall_s, "MB/s");
    n += load_metric_set(&m[n], "write", "fsyncs", s->count[1] / s->wall_s, "fsync/s");
    return n;
}

const struct load_info load_write = {
    .name = "write",
    .summary = "sequential 1 MB writes into an unlinked file under --tmpdir, fsync every few MB, rewritten in a "
               "loop",
    .metric = "write.throughput",
    .unit = "MB/s",
    .bounds = "the file never exceeds half the free space of --tmpdir (shared with the other disk loads of the "
              "phase); it is unlinked, so it vanishes with the process; a full disk ends the load with an error",
    .example = "write:mb=32",
    .params = { { "mb", LP_INT, 256, 1, 1048576, "MB", "file size, each pass" },
                { "sync", LP_INT, 8, 1, 65536, "MB", "fsync after every this many MB" } },
    .needs_dir = 1,
    .needs_disk = 1,
    .run = run,
    .report = report,
};
