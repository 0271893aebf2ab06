/* SPDX-License-Identifier: GPL-2.0-or-later */
/* read: re-reads a file, dropping it from the page cache between passes so the reads reach the disk. */
#include "load.h"
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { P_MB };
#define BLOCK (1u << 20)

static void run(struct load_child *c)
{
    uint64_t size = (uint64_t)c->param[P_MB] << 20;
    if (size > c->disk_bytes)
        size = c->disk_bytes & ~(uint64_t)(BLOCK - 1);
    if (size < BLOCK)
        size = BLOCK;
    unsigned char *buf = malloc(BLOCK);
    if (!buf) {
        load_fail(c, "out of memory");
        return;
    }
    memset(buf, 0xa5, BLOCK);
    int fd = load_tmpfile(c->dirfd, O_RDWR);
    if (fd < 0) {
        load_fail(c, "cannot create a file in %s: %s", c->dir, strerror(-fd));
        free(buf);
        return;
    }
    /* The file is written once (during the warm-up, with the default sizes) and synced, so that the
     * page cache may drop it: dirty pages would stay. */
    for (uint64_t done = 0; done < size;) {
        ssize_t n = write(fd, buf, BLOCK);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            load_fail(c, "cannot write the %.0f MB file to read (%s)", size / 1048576.0,
                      strerror(n < 0 ? errno : ENOSPC));
            goto out;
        }
        done += (uint64_t)n;
    }
    if (fsync(fd) < 0) {
        load_fail(c, "fsync: %s", strerror(errno));
        goto out;
    }
    for (;;) {
        posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
        for (uint64_t off = 0; off < size;) {
            ssize_t n = pread(fd, buf, BLOCK, (off_t)off);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0) {
                load_fail(c, "read failed at %.0f MB (%s)", off / 1048576.0, n < 0 ? strerror(errno) : "end of file");
                goto out;
            }
            off += (uint64_t)n;
            load_count(c, 0, (uint64_t)n);
        }
        load_count(c, 1, 1);
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
    return load_metric_set(&m[0], "read", "throughput", s->count[0] / 1048576.0 / s->wall_s, "MB/s");
}

const struct load_info load_read = {
    .name = "read",
    .summary = "re-reads an unlinked file under --tmpdir in 1 MB blocks, posix_fadvise(DONTNEED) between passes "
               "so the reads reach the disk (not on tmpfs)",
    .metric = "read.throughput",
    .unit = "MB/s",
    .bounds = "the file never exceeds half the free space of --tmpdir (shared with the other disk loads of the "
              "phase); it is unlinked, so it vanishes with the process",
    .example = "read:mb=16",
    .params = { { "mb", LP_INT, 128, 1, 1048576, "MB", "file size (written once at the start of the phase)" } },
    .needs_dir = 1,
    .needs_disk = 1,
    .run = run,
    .report = report,
};
