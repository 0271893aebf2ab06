/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The JACK server log source (src_jacklog.h): tails a file with pread() from a remembered offset, keeps a partial
 * last line for the next poll, notices truncation (the file shrank below the offset: read again from 0) and rotation
 * (the path names another inode: the old file read to its end, then the new one from its start), skips lines longer
 * than LINE_MAX whole (counted), and folds the lines of one stall: jack2 prints a pair of lines for every cycle a
 * client did not finish (20 ms at 5.3 ms periods: 3 or 4), read in one poll or in consecutive ones. */
#include "culprit/src_jacklog.h"
#include "util/utf8.h"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define LINE_MAX_LEN 4096            /* jack2's lines are under 300 bytes; longer ones are skipped, not cut */
#define READ_CHUNK 65536
#define READ_MAX_PER_POLL (4 << 20)  /* bounded work per poll: a huge backlog is read over several polls */
#define PENDING_MAX 32
#define FOLD_SPAN_NS 1000000000LL    /* a client stalled for good is reported once a second, not once at the end */
/* Lines of one client read less than this apart are one stall. jack2 writes them from its message buffer thread,
 * not the RT cycle: beside stress-ng the two lines of one 20 ms stall were read two polls apart (100 ms polls),
 * with an empty poll between. Stalls of one client closer than this are reported as one, with their count. */
#define FOLD_QUIET_NS 150000000LL

struct pending {
    char name[CULPRIT_NAME_MAX];
    int64_t t0, t1;
    long count;
    unsigned long last_seq;          /* the poll that read its last line */
    int64_t read_ns;                 /* when it was read */
    int stamped;                     /* times from the lines' own timestamps (jackdbus), to the second */
};

struct jacklog {
    char path[PATH_MAX];
    int fd;
    dev_t dev;
    ino_t ino;
    off_t off;
    clockid_t clock;
    int64_t prev_poll_ns;
    unsigned long seq;
    char line[LINE_MAX_LEN + 1];
    size_t linelen;
    int skipping;                    /* inside a line longer than LINE_MAX_LEN: dropped up to its newline */
    struct pending pend[PENDING_MAX];
    int npend;
    long lines, unfinished, observations, long_lines, truncations, rotations, dropped;
};

static int64_t now_on(clockid_t c)
{
    struct timespec ts;
    clock_gettime(c, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Copies a client name as one safe line: invalid UTF-8 and control characters become '?', cut at a character. */
static void copy_name(const char *s, size_t n, char *out, size_t outlen)
{
    size_t o = 0;
    for (size_t i = 0; i < n;) {
        size_t k = utf8_char(s + i, n - i, NULL);
        int bad = k == 0 || (k == 1 && ((unsigned char)s[i] < 0x20 || s[i] == 0x7f));
        size_t w = bad ? 1 : k;
        if (o + w >= outlen)
            break;
        if (bad)
            out[o++] = '?';
        else
            memcpy(out + o, s + i, k), o += k;
        i += bad ? 1 : k;
    }
    out[o] = '\0';
}

/* The line without ANSI escape sequences (jackdbus colours its ERROR lines: ESC [ 1 m ESC [ 3 1 m ... ESC [ 0 m). */
static size_t strip_ansi(const char *in, size_t n, char *out)
{
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        if (in[i] == 0x1b && i + 1 < n && in[i + 1] == '[') {
            i += 2;
            while (i < n && !((in[i] >= '@' && in[i] <= '~')))
                i++;
            continue;
        }
        out[o++] = in[i];
    }
    out[o] = '\0';
    return o;
}

/* jackdbus's prefix: ctime_r()'s first 24 characters (local time) and ": " (jack2 dbus/jackdbus.c). */
static long long ctime_prefix(const char *s)
{
    struct tm tm;
    memset(&tm, 0, sizeof(tm));
    const char *end = strptime(s, "%a %b %e %H:%M:%S %Y", &tm);
    if (!end || end - s != 24 || strncmp(end, ": ", 2) != 0)
        return -1;
    tm.tm_isdst = -1;
    time_t t = mktime(&tm);
    return t == (time_t)-1 ? -1 : (long long)t;
}

int jacklog_parse_line(const char *line, size_t len, char *name, size_t namelen, long long *wall_s)
{
    static const char key[] = "JackEngine::XRun: client = ";
    static const char tail[] = " was not finished";
    char clean[LINE_MAX_LEN + 1];
    if (len > LINE_MAX_LEN)
        return 0;
    while (len > 0 && (line[len - 1] == '\r' || line[len - 1] == '\n'))
        len--;
    size_t n = strip_ansi(line, len, clean);
    if (memchr(clean, '\0', n)) /* a NUL inside the line: strstr would stop there, and so does the parse */
        n = strlen(clean);
    const char *k = strstr(clean, key);
    if (!k)
        return 0;
    const char *nm = k + sizeof(key) - 1;
    const char *t = strstr(nm, tail);
    if (!t || t == nm)
        return 0;
    /* jack2 names every client of the cycle that did not finish, with its state: the one Running is the one that
     * held the cycle; the Triggered ones (and NotTriggered) were waiting on it, and are never its culprit. A line
     * without a state (an older jack2) is taken as it is. */
    const char *st = strstr(t, ", state = ");
    if (st && strncmp(st + 10, "Running", 7) != 0)
        return 0;
    copy_name(nm, (size_t)(t - nm), name, namelen);
    *wall_s = ctime_prefix(clean);
    return 1;
}

static void note_unfinished(struct jacklog *j, const char *name, long long wall_s, int64_t now_ns)
{
    int64_t t0 = j->prev_poll_ns, t1 = now_ns;
    if (wall_s >= 0) {
        int64_t off = now_ns - now_on(CLOCK_REALTIME);
        t0 = wall_s * 1000000000LL + off;
        t1 = t0 + 1000000000LL;
        if (t1 > now_ns)
            t1 = now_ns;
        if (t0 > t1)
            t0 = t1;
    }
    j->unfinished++;
    for (int i = 0; i < j->npend; i++) {
        struct pending *p = &j->pend[i];
        /* the lines of one poll fold always; later ones while they come under FOLD_QUIET_NS apart and the stall
         * spans under a second (jackdbus's, timed to the second: those of consecutive polls) */
        int near = p->stamped ? p->last_seq + 1 == j->seq : now_ns - p->read_ns <= FOLD_QUIET_NS;
        if (strcmp(p->name, name) == 0 && p->stamped == (wall_s >= 0) &&
            (p->last_seq == j->seq || (near && t1 - p->t0 <= FOLD_SPAN_NS))) {
            p->read_ns = now_ns;
            p->count++;
            p->last_seq = j->seq;
            if (t1 > p->t1)
                p->t1 = t1;
            return;
        }
    }
    if (j->npend == PENDING_MAX) {
        j->dropped++;
        return;
    }
    struct pending *p = &j->pend[j->npend++];
    snprintf(p->name, sizeof(p->name), "%s", name);
    p->t0 = t0;
    p->t1 = t1;
    p->count = 1;
    p->last_seq = j->seq;
    p->read_ns = now_ns;
    p->stamped = wall_s >= 0;
}

static void handle_line(struct jacklog *j, const char *s, size_t n, int64_t now_ns)
{
    char name[CULPRIT_NAME_MAX];
    long long wall;
    j->lines++;
    if (jacklog_parse_line(s, n, name, sizeof(name), &wall))
        note_unfinished(j, name, wall, now_ns);
}

/* Splits what was read into lines; a line's start is kept across reads (and polls) until its newline comes. */
static void feed(struct jacklog *j, const char *buf, size_t n, int64_t now_ns)
{
    for (size_t i = 0; i < n;) {
        const char *nl = memchr(buf + i, '\n', n - i);
        size_t seg = nl ? (size_t)(nl - (buf + i)) : n - i;
        if (!j->skipping && j->linelen + seg > LINE_MAX_LEN) {
            j->skipping = 1;
            j->long_lines++;
        }
        if (!j->skipping) {
            memcpy(j->line + j->linelen, buf + i, seg);
            j->linelen += seg;
        }
        if (nl) {
            if (!j->skipping)
                handle_line(j, j->line, j->linelen, now_ns);
            j->linelen = 0;
            j->skipping = 0;
        }
        i += seg + (nl ? 1 : 0);
    }
}

/* Reads from the offset to the end (bounded per poll). -1 on a read error. */
static int read_new(struct jacklog *j, int64_t now_ns)
{
    char buf[READ_CHUNK];
    size_t total = 0;
    while (total < READ_MAX_PER_POLL) {
        ssize_t r = pread(j->fd, buf, sizeof(buf), j->off);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return -1;
        if (r == 0)
            break;
        j->off += r;
        total += (size_t)r;
        feed(j, buf, (size_t)r, now_ns);
    }
    return 0;
}

static int open_regular(const char *path, int *fd, struct stat *st, char *err, size_t errlen)
{
    if (stat(path, st) != 0) {
        snprintf(err, errlen, "cannot read the server log %s: %s", path, strerror(errno));
        return -1;
    }
    if (!S_ISREG(st->st_mode)) {
        snprintf(err, errlen, "the server log %s is %s, not a regular file: refused", path,
                 S_ISFIFO(st->st_mode) ? "a FIFO" : S_ISDIR(st->st_mode) ? "a directory" : "a special file");
        return -1;
    }
    /* O_NONBLOCK: should the path become a FIFO between stat and open, open does not wait for a writer */
    *fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    if (*fd < 0 || fstat(*fd, st) != 0 || !S_ISREG(st->st_mode)) {
        snprintf(err, errlen, "cannot read the server log %s: %s", path,
                 *fd < 0 ? strerror(errno) : "not a regular file: refused");
        if (*fd >= 0)
            close(*fd);
        return -1;
    }
    return 0;
}

/* Rotation (the path now names another file, regular) and truncation (the file shrank below the offset). */
static void follow(struct jacklog *j, int64_t now_ns)
{
    struct stat st;
    if (stat(j->path, &st) == 0 && S_ISREG(st.st_mode) && (st.st_ino != j->ino || st.st_dev != j->dev)) {
        char err[8];
        int fd;
        read_new(j, now_ns); /* the old file's last lines first */
        if (open_regular(j->path, &fd, &st, err, sizeof(err)) == 0) {
            close(j->fd);
            j->fd = fd;
            j->dev = st.st_dev;
            j->ino = st.st_ino;
            j->off = 0;
            j->linelen = 0;
            j->skipping = 0;
            j->rotations++;
        }
    }
    if (fstat(j->fd, &st) == 0 && st.st_size < j->off) {
        j->off = 0;
        j->linelen = 0;
        j->skipping = 0;
        j->truncations++;
    }
}

static void evidence(const struct pending *p, char *out, size_t len)
{
    char cycles[48];
    snprintf(cycles, sizeof(cycles), p->count == 1 ? "1 unfinished cycle" : "%ld unfinished cycles", p->count);
    if (p->stamped)
        snprintf(out, len, "another JACK client did not finish: %s (%s in the server's log, timed to the second)",
                 p->name, cycles);
    else
        snprintf(out, len, "another JACK client did not finish: %s (%s in the server's log, written in the %.0f ms "
                 "before it was read: the log has no times)", p->name, cycles, (double)(p->t1 - p->t0) / 1e6);
}

/* Emits the stalls whose lines stopped (none for FOLD_QUIET_NS; jackdbus's: none in this poll) or that span a
 * second already. */
static int flush(struct jacklog *j, int64_t now_ns, struct culprit_obs *out, int max)
{
    int n = 0, keep = 0;
    for (int i = 0; i < j->npend; i++) {
        struct pending *p = &j->pend[i];
        int done = p->stamped ? p->last_seq != j->seq
                              : now_ns - p->read_ns > FOLD_QUIET_NS || p->t1 - p->t0 >= FOLD_SPAN_NS;
        if (done && n < max) {
            struct culprit_obs *o = &out[n++];
            memset(o, 0, sizeof(*o));
            o->t0_ns = p->t0;
            o->t1_ns = p->t1;
            o->kind = CK_CLIENT;
            snprintf(o->name, sizeof(o->name), "%s", p->name);
            o->cpu = -1;
            evidence(p, o->evidence, sizeof(o->evidence));
            j->observations++;
            continue;
        }
        j->pend[keep++] = *p;
    }
    j->npend = keep;
    return n;
}

static int jl_poll(void *ctx, int64_t now_ns, struct culprit_obs *out, int max)
{
    struct jacklog *j = ctx;
    j->seq++;
    follow(j, now_ns);
    if (read_new(j, now_ns) != 0)
        return -1;
    j->prev_poll_ns = now_ns;
    return flush(j, now_ns, out, max);
}

static json_t *jl_summary(void *ctx)
{
    struct jacklog *j = ctx;
    return json_pack("{s:s, s:I, s:I, s:I, s:I, s:I, s:I, s:I}", "path", j->path, "lines", (json_int_t)j->lines,
                     "unfinished_lines", (json_int_t)j->unfinished, "observations", (json_int_t)j->observations,
                     "long_lines_skipped", (json_int_t)j->long_lines, "truncations", (json_int_t)j->truncations,
                     "rotations", (json_int_t)j->rotations, "dropped", (json_int_t)j->dropped);
}

static void jl_close(void *ctx)
{
    struct jacklog *j = ctx;
    if (!j)
        return;
    if (j->fd >= 0)
        close(j->fd);
    free(j);
}

int jacklog_source_open(const char *path, int from_start, clockid_t clock, struct culprit_source *out, char *err,
                        size_t errlen)
{
    struct stat st;
    int fd;
    if (!path || strlen(path) >= PATH_MAX) {
        snprintf(err, errlen, "no server log path");
        return -1;
    }
    if (open_regular(path, &fd, &st, err, errlen) != 0)
        return -1;
    struct jacklog *j = calloc(1, sizeof(*j));
    if (!j) {
        close(fd);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    snprintf(j->path, sizeof(j->path), "%s", path);
    j->fd = fd;
    j->dev = st.st_dev;
    j->ino = st.st_ino;
    j->off = from_start ? 0 : st.st_size;
    j->clock = clock;
    j->prev_poll_ns = now_on(clock);
    memset(out, 0, sizeof(*out));
    out->name = "jackd log";
    out->ctx = j;
    out->poll = jl_poll;
    out->explain = NULL;
    out->summary = jl_summary;
    out->close = jl_close;
    return 0;
}

int jacklog_default_path(char *out, size_t len)
{
    const char *home = getenv("HOME");
    struct stat st;
    if (!home || !*home) {
        if (len)
            out[0] = '\0';
        return -1;
    }
    int n = snprintf(out, len, "%s/.log/jack/jackdbus.log", home);
    if (n < 0 || (size_t)n >= len)
        return -1;
    return stat(out, &st) == 0 && S_ISREG(st.st_mode) ? 0 : -1;
}
