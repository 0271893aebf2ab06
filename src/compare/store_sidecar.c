/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The store's sidecars: a report's identity kept beside it. See store_sidecar.h. */
#include "compare/store_sidecar.h"
#include "compare/compare_runs.h"
#include "compare/compare_setup.h"
#include "report/report_compact.h"
#include "report/report_read.h"
#include "util/readfile.h"
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

int sidecar_name(const char *name, char *buf, size_t len)
{
    int n = snprintf(buf, len, ".%s" SIDECAR_SUFFIX, name);
    return n < 0 || (size_t)n >= len || (size_t)n > NAME_MAX ? -ENAMETOOLONG : 0;
}

/* The report's stat as the sidecar keeps it: strings, since an inode or device number may not fit a JSON integer */
static json_t *stamp_of(const struct stat *st)
{
    char v[5][32];
    snprintf(v[0], sizeof(v[0]), "%jd", (intmax_t)st->st_size);
    snprintf(v[1], sizeof(v[1]), "%jd", (intmax_t)st->st_mtim.tv_sec);
    snprintf(v[2], sizeof(v[2]), "%ld", (long)st->st_mtim.tv_nsec);
    snprintf(v[3], sizeof(v[3]), "%ju", (uintmax_t)st->st_ino);
    snprintf(v[4], sizeof(v[4]), "%ju", (uintmax_t)st->st_dev);
    return json_pack("{s:s, s:s, s:s, s:s, s:s}", "size", v[0], "mtime_s", v[1], "mtime_ns", v[2], "ino", v[3],
                     "dev", v[4]);
}

static int same_file(const struct stat *a, const struct stat *b)
{
    return a->st_size == b->st_size && a->st_mtim.tv_sec == b->st_mtim.tv_sec &&
           a->st_mtim.tv_nsec == b->st_mtim.tv_nsec && a->st_ino == b->st_ino && a->st_dev == b->st_dev;
}

/* The identity in a fresh, well-formed sidecar, or NULL (missing, stale, corrupt: never trusted then); *values its
 * run values when it has them (else NULL). */
static json_t *read_sidecar(int dfd, const char *scname, const json_t *stamp, json_t **values)
{
    int fd = openat(dfd, scname, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0)
        return NULL;
    struct stat st;
    json_t *doc = NULL, *ident = NULL;
    char *buf = NULL;
    if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size <= 0 || st.st_size > SIDECAR_MAX_BYTES)
        goto out;
    size_t len = (size_t)st.st_size, got = 0;
    if (!(buf = malloc(len)))
        goto out;
    while (got < len) {
        ssize_t r = read(fd, buf + got, len - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            goto out;
        got += (size_t)r;
    }
    doc = json_loadb(buf, len, JSON_REJECT_DUPLICATES, NULL);
    const json_t *id = json_object_get(doc, "identity");
    const char *schema = json_string_value(json_object_get(doc, "schema"));
    const json_t *ver = json_object_get(doc, "version"), *label = json_object_get(id, "label");
    if (!schema || strcmp(schema, SIDECAR_SCHEMA) || !json_is_integer(ver) ||
        json_integer_value(ver) != COMPARE_IDENTITY_VERSION || !json_equal(json_object_get(doc, "report"), stamp) ||
        !json_is_object(json_object_get(id, "setup")) || !json_is_string(json_object_get(id, "key")) ||
        !json_is_string(json_object_get(id, "host")) || !(json_is_string(label) || json_is_null(label)))
        goto out;
    const json_t *v = json_object_get(doc, "values");
    if (v && !json_is_object(v))
        goto out;
    ident = json_incref((json_t *)id);
    if (values)
        *values = v ? json_incref((json_t *)v) : NULL;
out:
    json_decref(doc);
    free(buf);
    close(fd);
    return ident;
}

/* Through a temporary file made O_EXCL|O_NOFOLLOW beside it, renamed over the name: a reader sees the old sidecar
 * or the new one, and no name that exists (a symlink planted there included) is ever opened for writing. A cache:
 * not fsync'ed (a torn one after a crash does not parse, and is rebuilt). */
static int write_sidecar(int dfd, const char *scname, const json_t *doc)
{
    char *text = json_dumps(doc, JSON_COMPACT);
    if (!text)
        return -ENOMEM;
    char tmp[NAME_MAX + 1];
    int fd = -1, e = -EEXIST;
    for (int t = 0; t < 20 && fd < 0; t++) {
        unsigned char r[8];
        if (getrandom(r, sizeof(r), 0) != (ssize_t)sizeof(r)) {
            e = -EIO;
            break;
        }
        uint64_t x;
        memcpy(&x, r, sizeof(x));
        if (snprintf(tmp, sizeof(tmp), "%.200s.tmp-%016" PRIx64, scname, x) >= (int)sizeof(tmp)) {
            e = -ENAMETOOLONG;
            break;
        }
        fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd < 0 && errno != EEXIST) {
            e = -errno;
            break;
        }
    }
    if (fd < 0) {
        free(text);
        return e;
    }
    size_t len = strlen(text), off = 0;
    e = 0;
    while (off < len && !e) {
        ssize_t w = write(fd, text + off, len - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            e = w < 0 ? -errno : -EIO;
        else
            off += (size_t)w;
    }
    if (close(fd) < 0 && !e)
        e = -errno;
    if (!e && renameat(dfd, tmp, dfd, scname) < 0)
        e = -errno;
    if (e)
        unlinkat(dfd, tmp, 0);
    free(text);
    return e;
}

/* A new sidecar for the report name (stat st, as read), unless the report changed since. */
static void renew(int dfd, const char *name, const char *scname, const struct stat *st, const json_t *stamp,
                  const json_t *ident, const json_t *values)
{
    struct stat now;
    if (fstatat(dfd, name, &now, 0) < 0 || !same_file(&now, st))
        return; /* it changed while it was read: no sidecar; it is read again next time */
    json_t *sc = json_pack("{s:s, s:i, s:O, s:O}", "schema", SIDECAR_SCHEMA, "version", COMPARE_IDENTITY_VERSION,
                           "report", stamp, "identity", ident);
    if (sc && values)
        json_object_set(sc, "values", (json_t *)values);
    if (sc)
        write_sidecar(dfd, scname, sc); /* a directory we may not write to costs only speed */
    json_decref(sc);
}

int sidecar_identity(int dfd, const char *dir, const char *name, const struct stat *st, json_t **ident,
                     json_t **values, char **text, size_t *textlen, char *err, size_t errlen)
{
    *ident = NULL;
    if (text)
        *text = NULL;
    if (values)
        *values = NULL;
    char scname[NAME_MAX + 1], path[8192];
    int have_name = sidecar_name(name, scname, sizeof(scname)) == 0;
    json_t *stamp = stamp_of(st);
    if (!stamp) {
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    if (have_name && (*ident = read_sidecar(dfd, scname, stamp, values))) {
        json_decref(stamp);
        return 0;
    }
    if (snprintf(path, sizeof(path), "%s/%s", dir, name) >= (int)sizeof(path)) {
        json_decref(stamp);
        snprintf(err, errlen, "path too long");
        return -ENAMETOOLONG;
    }
    json_t *doc;
    char *buf, *copy = NULL;
    size_t len;
    int rc = read_regular_file(path, REPORT_MAX_BYTES, &buf, &len, err, errlen);
    if (rc == -EFBIG)
        snprintf(err, errlen, "not a report: larger than %u MiB", REPORT_MAX_BYTES >> 20);
    /* the caller may want the whole text too (a run of its set-up is read whole next): the identity is taken
     * from a copy, so that the file is read once */
    if (rc == 0 && text && !(copy = malloc(len + 1))) {
        snprintf(err, errlen, "out of memory");
        rc = -ENOMEM;
    }
    if (rc == 0) {
        if (copy)
            memcpy(copy, buf, len + 1);
        rc = report_read_compact_buffer(copy ? copy : buf, len, REPORT_IDENTITY, &doc, err, errlen);
    }
    free(copy);
    if (rc < 0) {
        free(buf);
        json_decref(stamp);
        return rc;
    }
    if (text) {
        *text = buf;
        *textlen = len;
    } else {
        free(buf);
    }
    *ident = compare_identity(doc);
    json_decref(doc);
    if (!*ident) {
        json_decref(stamp);
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    if (have_name)
        renew(dfd, name, scname, st, stamp, *ident, NULL);
    json_decref(stamp);
    return 0;
}

void sidecar_add_values(int dfd, const char *name, const struct stat *st, const json_t *ident, const json_t *values)
{
    char scname[NAME_MAX + 1];
    json_t *stamp = stamp_of(st);
    if (stamp && sidecar_name(name, scname, sizeof(scname)) == 0)
        renew(dfd, name, scname, st, stamp, ident, values);
    json_decref(stamp);
}
