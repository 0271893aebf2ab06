/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The loopback's files, through libsndfile: a short 2-channel float WAV per glitch (created exclusively in the
 * WAV folder, never through a symlink), and --record, the whole capture as WAV (float) or FLAC (24 bit), written
 * as it comes into a hidden temporary file beside the target and renamed over it when finished: a user's file
 * is never removed before its replacement is complete. A failure (a full disk) is kept and reported; it never
 * stops the analysis. Non-RT. */
#include "loopback/lb_internal.h"
#include <errno.h>
#include <fcntl.h>
#include <sndfile.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

static int wav_openat_default(int dirfd, const char *name)
{
    return openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
}
int (*lb_wav_openat)(int dirfd, const char *name) = wav_openat_default;

/* The reason of a libsndfile failure: the system's words when errno says one (a full disk), else libsndfile's. */
static void sf_reason(SNDFILE *sf, int saved_errno, char *err, size_t len)
{
    if (saved_errno)
        snprintf(err, len, "%s", strerror(saved_errno));
    else
        snprintf(err, len, "%s", sf_strerror(sf));
}

int lb_wav_write(int dirfd, const char *name, unsigned rate, const float *inter, size_t frames, char *err,
                 size_t len)
{
    int fd = lb_wav_openat(dirfd, name);
    if (fd < 0) {
        snprintf(err, len, "%s", strerror(errno));
        return -1;
    }
    SF_INFO info = { .samplerate = (int)rate, .channels = 2, .format = SF_FORMAT_WAV | SF_FORMAT_FLOAT };
    errno = 0;
    SNDFILE *sf = sf_open_fd(fd, SFM_WRITE, &info, 1);
    if (!sf) {
        sf_reason(NULL, errno, err, len);
        close(fd);
        goto fail;
    }
    errno = 0;
    sf_count_t w = sf_writef_float(sf, inter, (sf_count_t)frames);
    int e = errno;
    if (w != (sf_count_t)frames) {
        sf_reason(sf, e, err, len);
        sf_close(sf);
        goto fail;
    }
    errno = 0;
    sf_write_sync(sf);
    e = errno;
    if (sf_error(sf) != SF_ERR_NO_ERROR || e == ENOSPC || e == EIO) {
        sf_reason(sf, e, err, len);
        sf_close(sf);
        goto fail;
    }
    if (sf_close(sf) != 0) {
        snprintf(err, len, "closing failed");
        goto fail;
    }
    return 0;
fail:
    unlinkat(dirfd, name, 0);   /* our own half-written file (O_EXCL made it ours); never a symlink's target */
    return -1;
}

struct lb_rec {
    SNDFILE *sf;
    int dirfd;
    char *tmp, *base, *path;
    const char *format;
    uint64_t frames;
    int done;
    char err[160];
};

struct lb_rec *lb_rec_open(const char *path, unsigned rate, char *err, size_t len)
{
    const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');
    int fmt;
    const char *fname;
    if (dot && (!slash || dot > slash) && strcasecmp(dot, ".wav") == 0) {
        fmt = SF_FORMAT_WAV | SF_FORMAT_FLOAT;
        fname = "wav";
    } else if (dot && (!slash || dot > slash) && strcasecmp(dot, ".flac") == 0) {
        fmt = SF_FORMAT_FLAC | SF_FORMAT_PCM_24;
        fname = "flac";
    } else {
        snprintf(err, len, "--record %s: the file name must end in .wav or .flac", path);
        return NULL;
    }
    struct lb_rec *r = calloc(1, sizeof(*r));
    if (!r) {
        snprintf(err, len, "--record: out of memory");
        return NULL;
    }
    r->dirfd = -1;
    r->format = fname;
    char *dir = slash ? strndup(path, (size_t)(slash - path) + (slash == path)) : strdup(".");
    r->base = strdup(slash ? slash + 1 : path);
    r->path = strdup(path);
    r->tmp = malloc(strlen(r->base) + 32);
    if (!dir || !r->base || !r->tmp || !r->path || !*r->base) {
        snprintf(err, len, "--record %s: not a file name", path);
        free(dir);
        lb_rec_free(r);
        return NULL;
    }
    r->dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    free(dir);
    int fd = -1;
    if (r->dirfd >= 0) {
        for (int tries = 0; tries < 16 && fd < 0; tries++) {
            uint64_t rnd = 0;
            if (getrandom(&rnd, sizeof(rnd), 0) != (ssize_t)sizeof(rnd))
                rnd ^= (uint64_t)getpid() * 0x9e3779b97f4a7c15ull + (uint64_t)tries;
            sprintf(r->tmp, ".%s.tmp-%012llx", r->base, (unsigned long long)(rnd & 0xffffffffffffull));
            fd = openat(r->dirfd, r->tmp, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
            if (fd < 0 && errno != EEXIST)
                break;
        }
    }
    if (fd < 0) {
        snprintf(err, len, "--record %s: cannot create it: %s", path, strerror(errno));
        r->tmp[0] = 0;
        lb_rec_free(r);
        return NULL;
    }
    SF_INFO info = { .samplerate = (int)rate, .channels = 1, .format = fmt };
    errno = 0;
    r->sf = sf_open_fd(fd, SFM_WRITE, &info, 1);
    if (!r->sf) {
        char why[120];
        sf_reason(NULL, errno, why, sizeof(why));
        snprintf(err, len, "--record %s: %s", path, why);
        close(fd);
        lb_rec_free(r);
        return NULL;
    }
    sf_command(r->sf, SFC_SET_CLIPPING, NULL, SF_TRUE);   /* a loud cable clips in the FLAC, never wraps */
    return r;
}

void lb_rec_write(struct lb_rec *r, const float *in, uint64_t n)
{
    static const float zeros[1024];
    while (r && r->sf && !r->err[0] && !r->done && n) {
        sf_count_t k = (sf_count_t)(in ? n : n < 1024 ? n : 1024);
        errno = 0;
        sf_count_t w = sf_writef_float(r->sf, in ? in : zeros, k);
        if (w != k) {
            sf_reason(r->sf, errno, r->err, sizeof(r->err));
            return;
        }
        r->frames += (uint64_t)w;
        n -= (uint64_t)w;
        if (in)
            in += w;
    }
}

int lb_rec_finish(struct lb_rec *r)
{
    if (!r || r->done)
        return r && r->err[0] ? -1 : 0;
    r->done = 1;
    if (r->sf) {
        errno = 0;
        sf_write_sync(r->sf);
        if (!r->err[0] && (sf_error(r->sf) != SF_ERR_NO_ERROR || errno == ENOSPC || errno == EIO))
            sf_reason(r->sf, errno, r->err, sizeof(r->err));
        if (sf_close(r->sf) != 0 && !r->err[0])
            snprintf(r->err, sizeof(r->err), "closing failed");
        r->sf = NULL;
    }
    if (!r->err[0] && renameat(r->dirfd, r->tmp, r->dirfd, r->base) != 0)
        snprintf(r->err, sizeof(r->err), "%s", strerror(errno));
    if (r->err[0]) {
        unlinkat(r->dirfd, r->tmp, 0);
        return -1;
    }
    r->tmp[0] = 0;
    return 0;
}

const char *lb_rec_error(const struct lb_rec *r) { return r && r->err[0] ? r->err : NULL; }
uint64_t lb_rec_frames(const struct lb_rec *r) { return r ? r->frames : 0; }
const char *lb_rec_format(const struct lb_rec *r) { return r ? r->format : NULL; }
const char *lb_rec_path(const struct lb_rec *r) { return r ? r->path : NULL; }

void lb_rec_free(struct lb_rec *r)
{
    if (!r)
        return;
    if (r->sf)
        sf_close(r->sf);
    if (r->dirfd >= 0 && r->tmp && r->tmp[0])
        unlinkat(r->dirfd, r->tmp, 0);      /* never finished: our temporary file goes, the target stays */
    if (r->dirfd >= 0)
        close(r->dirfd);
    free(r->tmp);
    free(r->base);
    free(r->path);
    free(r);
}
