/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The loopback's files, through libsndfile: a short 2-channel float WAV per glitch (created exclusively in the
 * WAV folder, never through a symlink), and --record, the whole capture as WAV (float) or FLAC (24 bit), written
 * as it comes into a hidden temporary file beside the target (.NAME.tmp-<12 hex digits>) and renamed over it when
 * finished: a user's file is never removed before its replacement is complete. A run that stops early (Ctrl-C,
 * SIGTERM) keeps what it captured under a new name, NAME-stem.partial-<UTC time>.ext, linked (never over an
 * existing file): the user's older take stays as it was. The temporary file is locked while it exists
 * (util/leftover.h), and what a dead run left beside the target is removed by the next --record there. A target
 * the final rename could not replace (another user's, in a sticky directory) is refused before the run. A failure
 * (a full disk) is kept and reported; it never stops the analysis. Non-RT. */
#include "loopback/lb_internal.h"
#include "util/leftover.h"
#include "util/replace.h"
#include "util/termtext.h"
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <sndfile.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
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
    int lockfd;            /* the temporary file, locked (leftover.h) until it has its final name or is gone */
    char *tmp, *base, *path;
    char *dir;             /* the target's directory as given, for the partial take's path */
    char kept[4096];       /* the path the capture was kept under, once finished */
    const char *format;
    uint64_t frames;
    int done, partial;
    char err[160];
};

/* Is name a --record temporary file, .NAME.wav.tmp-<12 hex> or .NAME.flac.tmp-<12 hex> (this file's, old or new)? */
static enum leftover_kind rec_leftover(const char *name)
{
    size_t n = strlen(name);
    if (n < 1 + 5 + 5 + 12 || name[0] != '.' || strncmp(name + n - 17, ".tmp-", 5) != 0)
        return LEFTOVER_NONE;
    for (size_t i = n - 12; i < n; i++)
        if (!isxdigit((unsigned char)name[i]) || isupper((unsigned char)name[i]))
            return LEFTOVER_NONE;
    size_t stem = n - 17;  /* ".NAME.ext" before ".tmp-" */
    if ((stem > 5 && strncasecmp(name + stem - 4, ".wav", 4) == 0) ||
        (stem > 6 && strncasecmp(name + stem - 5, ".flac", 5) == 0))
        return LEFTOVER_FILE;
    return LEFTOVER_NONE;
}

struct rec_sweep {
    const char *dir;
    void (*note)(const char *line, void *arg);
    void *note_arg;
};

static void rec_swept(const char *name, void *arg)
{
    const struct rec_sweep *w = arg;
    char shown[512], line[1024];
    if (!w->note)
        return;
    snprintf(line, sizeof(line), "--record: removed %s/%s, a recording a run that died left unfinished (no run "
             "holds it)", term_str(shown, sizeof(shown), w->dir), name);
    w->note(line, w->note_arg);
}

/* The temporary file, created and locked; -1 with errno set when none could be made. */
static int rec_temp(struct lb_rec *r)
{
    for (int tries = 0; tries < 16; tries++) {
        uint64_t rnd = 0;
        if (getrandom(&rnd, sizeof(rnd), 0) != (ssize_t)sizeof(rnd))
            rnd ^= (uint64_t)getpid() * 0x9e3779b97f4a7c15ull + (uint64_t)tries;
        sprintf(r->tmp, ".%s.tmp-%012llx", r->base, (unsigned long long)(rnd & 0xffffffffffffull));
        int fd = openat(r->dirfd, r->tmp, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd < 0 && errno != EEXIST)
            return -1;
        if (fd < 0)
            continue;
        if (leftover_hold(r->dirfd, r->tmp, fd) == 0) {
            r->lockfd = dup(fd); /* libsndfile closes fd at sf_close(); the lock lives on until this one goes */
            if (r->lockfd >= 0)
                return fd;
            unlinkat(r->dirfd, r->tmp, 0);
        }
        close(fd); /* a sweeping run took that name first (it removes it): another */
    }
    errno = EEXIST;
    return -1;
}

struct lb_rec *lb_rec_open(const char *path, unsigned rate, void (*note)(const char *line, void *arg), void *note_arg,
                           char *err, size_t len)
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
    r->dirfd = r->lockfd = -1;
    r->format = fname;
    r->dir = slash ? strndup(path, (size_t)(slash - path) + (slash == path)) : strdup(".");
    r->base = strdup(slash ? slash + 1 : path);
    r->path = strdup(path);
    r->tmp = r->base ? calloc(1, strlen(r->base) + 32) : NULL;
    if (!r->dir || !r->base || !r->tmp || !r->path || !*r->base) {
        snprintf(err, len, "--record %s: not a file name", path);
        lb_rec_free(r);
        return NULL;
    }
    r->tmp[0] = 0;
    r->dirfd = open(r->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    char why[240];
    int e = r->dirfd < 0 ? -errno : replace_allowed(r->dirfd, r->base, why, sizeof(why));
    if (e == -EPERM) {
        snprintf(err, len, "--record %s: cannot be replaced: %s", path, why);
        lb_rec_free(r);
        return NULL;
    }
    if (r->dirfd >= 0) {
        struct rec_sweep w = { r->dir, note, note_arg };
        leftover_sweep(r->dirfd, rec_leftover, NULL, rec_swept, &w);
    }
    int fd = r->dirfd >= 0 ? rec_temp(r) : -1;
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

/* The partial take's name: STEM.partial-<UTC time>.EXT, then -2, -3... when taken. Linked, never renamed: link()
 * fails on any existing name, so no file is ever replaced. 0 (r->kept named) or -errno. */
static int keep_partial(struct lb_rec *r)
{
    const char *dot = strrchr(r->base, '.');
    int stem = (int)(dot - r->base);
    char ts[32], name[512];
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(ts, sizeof(ts), "%Y%m%dT%H%M%SZ", &tm);
    for (int k = 1; k < 100; k++) {
        char sfx[16] = "";
        if (k > 1)
            snprintf(sfx, sizeof(sfx), "-%d", k);
        if (snprintf(name, sizeof(name), "%.*s.partial-%s%s%s", stem, r->base, ts, sfx, dot) >= (int)sizeof(name))
            return -ENAMETOOLONG;
        if (linkat(r->dirfd, r->tmp, r->dirfd, name, 0) == 0) {
            unlinkat(r->dirfd, r->tmp, 0);
            int dl = (int)strlen(r->dir);
            if (strcmp(r->dir, ".") == 0)
                snprintf(r->kept, sizeof(r->kept), "%s", name);
            else
                snprintf(r->kept, sizeof(r->kept), "%s%s%s", r->dir, dl && r->dir[dl - 1] == '/' ? "" : "/", name);
            return 0;
        }
        if (errno != EEXIST)
            return -errno;
    }
    return -EEXIST;
}

int lb_rec_finish(struct lb_rec *r, int partial)
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
    if (!r->err[0] && partial) {
        /* The run stopped early: what it captured is kept, never over the user's older take. */
        int e = keep_partial(r);
        if (e < 0)
            snprintf(r->err, sizeof(r->err), "the partial capture could not be kept: %s", strerror(-e));
        else
            r->partial = 1;
    } else if (!r->err[0]) {
        char why[240];
        /* Checked before the run too (lb_rec_open); said in words if the directory changed since. */
        if (replace_allowed(r->dirfd, r->base, why, sizeof(why)) == -EPERM)
            snprintf(r->err, sizeof(r->err), "%.150s", why);
        else if (renameat(r->dirfd, r->tmp, r->dirfd, r->base) != 0)
            snprintf(r->err, sizeof(r->err), "%s", strerror(errno));
        else
            snprintf(r->kept, sizeof(r->kept), "%s", r->path);
    }
    if (r->err[0]) {
        unlinkat(r->dirfd, r->tmp, 0);
        r->tmp[0] = 0;
    }
    if (r->lockfd >= 0) {
        close(r->lockfd); /* after the rename or link: a sweeping run never sees the file unlocked under its temp name */
        r->lockfd = -1;
    }
    if (r->err[0])
        return -1;
    r->tmp[0] = 0;
    return 0;
}

const char *lb_rec_error(const struct lb_rec *r) { return r && r->err[0] ? r->err : NULL; }
uint64_t lb_rec_frames(const struct lb_rec *r) { return r ? r->frames : 0; }
const char *lb_rec_format(const struct lb_rec *r) { return r ? r->format : NULL; }
const char *lb_rec_path(const struct lb_rec *r) { return r ? r->kept[0] ? r->kept : r->path : NULL; }
const char *lb_rec_requested_path(const struct lb_rec *r) { return r ? r->path : NULL; }
int lb_rec_partial(const struct lb_rec *r) { return r && r->partial; }

void lb_rec_free(struct lb_rec *r)
{
    if (!r)
        return;
    if (r->sf)
        sf_close(r->sf);
    if (r->dirfd >= 0 && r->tmp && r->tmp[0])
        unlinkat(r->dirfd, r->tmp, 0);      /* never finished: our temporary file goes, the target stays */
    if (r->lockfd >= 0)
        close(r->lockfd);
    if (r->dirfd >= 0)
        close(r->dirfd);
    free(r->dir);
    free(r->tmp);
    free(r->base);
    free(r->path);
    free(r);
}
