/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The document writer and the document frame. See doc.h for the contract; the comments here say why each
 * step is there. */
#include "report/doc.h"
#include "util/replace.h"
#include "util/utf8.h"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#define STR(x) #x
#define XSTR(x) STR(x)

#define TMP_RANDOM 12     /* 62^12 names: not guessable, and O_EXCL makes a guessed one harmless anyway */
#define TMP_BASE_MAX 200  /* of the target's name in the temporary one: NAME_MAX is 255 */
#define TMP_TRIES 100

static int random_name(char *out, size_t n)
{
    static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    unsigned char r[TMP_RANDOM];
    size_t got = 0;
    while (got < n) {
        ssize_t k = getrandom(r + got, n - got, 0);
        if (k < 0) {
            if (errno == EINTR)
                continue;
            return -errno;
        }
        got += (size_t)k;
    }
    for (size_t i = 0; i < n; i++)
        out[i] = alphabet[r[i] % (sizeof(alphabet) - 1)];
    out[n] = '\0';
    return 0;
}

/* Creates the temporary file in dfd; name gets its name. A name that exists (planted or not) is never opened:
 * O_EXCL with O_CREAT fails on any existing entry, a symlink included. */
static int create_temp(int dfd, const char *base, mode_t perms, char *name, size_t len)
{
    for (int t = 0; t < TMP_TRIES; t++) {
        char rnd[TMP_RANDOM + 1];
        int e = random_name(rnd, TMP_RANDOM);
        if (e < 0)
            return e;
        if (snprintf(name, len, ".%.*s.tmp-%s", utf8_prefix(base, TMP_BASE_MAX), base, rnd) >= (int)len)
            return -ENAMETOOLONG;
        int fd = openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, perms);
        if (fd >= 0)
            return fd;
        if (errno != EEXIST)
            return -errno;
    }
    return -EEXIST;
}

/* What is at the target now: 0 to go on, or why not. */
static int check_target(int dfd, const char *base, int mode)
{
    struct stat st;
    if (fstatat(dfd, base, &st, AT_SYMLINK_NOFOLLOW) < 0)
        return errno == ENOENT ? 0 : -errno;
    if (mode == DOC_EXCLUSIVE)
        return -EEXIST;
    if (S_ISREG(st.st_mode) || S_ISLNK(st.st_mode)) {
        /* a symlink is replaced by rename() as a link: nothing is written through it. In a sticky directory the
         * rename is refused when neither the entry nor the directory is ours: said now, not after the run. */
        char why[240];
        return replace_allowed(dfd, base, why, sizeof(why));
    }
    /* rename() would replace a FIFO or a device node: the user named it for a reason, so refuse instead. */
    return S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
}


/* The steps doc_write() and doc_check() share: the target's directory opened (every later step works relative to
 * it: it cannot be swapped for another between them), the target checked, the temporary file created. Returns the
 * temporary file's fd (tmp names it, *dfdp is the directory) or -errno with nothing left open. */
static int begin_temp(const char *path, int mode, mode_t perms, int *dfdp, char *tmp, size_t tmplen)
{
    if (!path || !*path || (mode != DOC_REPLACE && mode != DOC_EXCLUSIVE))
        return -EINVAL;
    /* Written through the directory's descriptor, a file whose path is PATH_MAX or longer could be made, and
     * printed, but never opened by that path again (`rtjitter report PATH`): refused before anything is. */
    if (strlen(path) >= PATH_MAX)
        return -ENAMETOOLONG;
    const char *base;
    int dfd = replace_open_parent(path, &base);
    if (dfd < 0)
        return dfd;
    int e = check_target(dfd, base, mode);
    int fd = e < 0 ? e : create_temp(dfd, base, perms, tmp, tmplen);
    if (fd < 0) {
        close(dfd);
        return fd;
    }
    *dfdp = dfd;
    return fd;
}

int doc_check(const char *path, int mode)
{
    char tmp[NAME_MAX + 1];
    int dfd;
    int fd = begin_temp(path, mode, 0600, &dfd, tmp, sizeof(tmp));
    if (fd < 0)
        return fd;
    close(fd);
    unlinkat(dfd, tmp, 0);
    close(dfd);
    return 0;
}

int doc_write(const char *path, int mode, int (*body)(FILE *f, void *arg), void *arg)
{
    if (!body)
        return -EINVAL;
    char tmp[NAME_MAX + 1];
    int dfd, e;
    int fd = begin_temp(path, mode, mode == DOC_EXCLUSIVE ? 0644 : 0666, &dfd, tmp, sizeof(tmp));
    if (fd < 0)
        return fd;
    const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
    FILE *f = fdopen(fd, "w");
    if (!f) {
        e = -errno;
        close(fd);
        goto fail;
    }
    errno = 0;
    e = body(f, arg);
    if (e > 0)
        e = -EIO;
    /* A full disk often shows only here, when the buffer is written out, or at fsync (delayed allocation). */
    if (!e && fflush(f) != 0)
        e = errno ? -errno : -EIO;
    if (!e && ferror(f))
        e = -EIO;
    /* On disk before it gets its name: after a crash the target is the old file or the whole new one. */
    if (!e && fsync(fileno(f)) < 0)
        e = -errno;
    if (fclose(f) != 0 && !e)
        e = errno ? -errno : -EIO;
    if (e)
        goto fail;
    if (mode == DOC_REPLACE) {
        if (renameat(dfd, tmp, dfd, base) < 0) {
            e = -errno;
            goto fail;
        }
    } else {
        /* link() never replaces anything, a symlink or a name created since check_target() included. */
        if (linkat(dfd, tmp, dfd, base, 0) < 0) {
            e = -errno;
            goto fail;
        }
        unlinkat(dfd, tmp, 0);
    }
    /* The new name itself. A failure here (some file systems refuse fsync on a directory) leaves a complete
     * file under its name, so it is not an error. */
    fsync(dfd);
    close(dfd);
    return 0;
fail:
    unlinkat(dfd, tmp, 0);
    close(dfd);
    return e;
}

/* 12 significant digits: a time on CLOCK_MONOTONIC (t_s) keeps microseconds up to 11 days of uptime and 10 us up
 * to 115 days (at 8 it had 1 ms steps after 3 hours, 10 ms after a day: an event could not be matched to a log or a
 * trace); the report is about 1.5 % larger than at 8. No indent: one line, ", " and ": " between members. */
#define DOC_FLAT (JSON_ENCODE_ANY | JSON_REAL_PRECISION(12))

/* Whether v holds an object anywhere (v itself included). */
static int holds_object(const json_t *v)
{
    if (json_is_object(v))
        return 1;
    size_t i;
    const json_t *e;
    if (json_is_array(v))
        json_array_foreach(v, i, e)
            if (holds_object(e))
                return 1;
    return 0;
}

static int put_indent(FILE *f, int depth)
{
    return fprintf(f, "\n%*s", depth, "") < 0 ? -1 : 0;
}

/* v at depth (one space a level) by doc_json_body's layout; in_array: v is an element of an array. */
static int dump_laid(FILE *f, const json_t *v, int depth, int in_array)
{
    int flat = !json_is_object(v) && !json_is_array(v);
    if (!flat && json_is_array(v))
        flat = json_array_size(v) == 0 || !holds_object(v);
    if (!flat && json_is_object(v))
        flat = json_object_size(v) == 0 || (in_array && json_dumpb(v, NULL, 0, DOC_FLAT) <= DOC_LINE_MAX);
    if (flat)
        return json_dumpf(v, f, DOC_FLAT);
    if (fputc(json_is_object(v) ? '{' : '[', f) == EOF)
        return -1;
    int first = 1;
    if (json_is_object(v)) {
        const char *key;
        json_t *e;
        json_object_foreach((json_t *)v, key, e) {
            json_t *k = json_string(key);
            if (!k || (!first && fputc(',', f) == EOF) || put_indent(f, depth + 1) < 0 ||
                json_dumpf(k, f, DOC_FLAT) < 0 || fputs(": ", f) == EOF || dump_laid(f, e, depth + 1, 0) < 0) {
                json_decref(k);
                return -1;
            }
            json_decref(k);
            first = 0;
        }
    } else {
        size_t i;
        json_t *e;
        json_array_foreach(v, i, e) {
            if ((!first && fputc(',', f) == EOF) || put_indent(f, depth + 1) < 0 || dump_laid(f, e, depth + 1, 1) < 0)
                return -1;
            first = 0;
        }
    }
    if (put_indent(f, depth) < 0 || fputc(json_is_object(v) ? '}' : ']', f) == EOF)
        return -1;
    return 0;
}

int doc_json_body(FILE *f, void *doc)
{
    errno = 0;
    if (dump_laid(f, doc, 0, 0) < 0 || fputc('\n', f) == EOF)
        return errno ? -errno : -EIO;
    return 0;
}

int doc_write_json(const char *path, int mode, const json_t *doc)
{
    return doc_write(path, mode, doc_json_body, (void *)doc);
}

const char *doc_strerror(int e)
{
    if (e == -EINVAL)
        return "it exists and is not a regular file";
    if (e == -EISDIR)
        return "it is a directory";
    if (e == -ENAMETOOLONG)
        return "the path would be " XSTR(PATH_MAX) " bytes or longer, too long to open again (PATH_MAX)";
    return strerror(e < 0 ? -e : e);
}

json_t *doc_begin(const char *schema, int with_tool)
{
    json_t *doc = json_object();
    if (!doc || json_object_set_new(doc, "schema", json_string(schema)) < 0 ||
        (with_tool && json_object_set_new(doc, "tool", json_pack("{s:s, s:s}", "name", "rtjitter", "version",
                                                                 RTJ_VERSION)) < 0)) {
        json_decref(doc);
        return NULL;
    }
    return doc;
}

int doc_set_origin(json_t *doc, const char *command, json_t *system)
{
    if (json_object_set_new(doc, "command", utf8_json_string(command)) < 0 ||
        json_object_set_new(doc, "system", system ? json_incref(system) : json_object()) < 0)
        return -ENOMEM;
    return 0;
}
