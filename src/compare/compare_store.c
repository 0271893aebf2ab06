/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Finding reports in the store for `rtjitter compare` with no files: the latest run of each set-up (before and
 * after), the latest report of each kernel, and the other runs of a report's set-up beside it (run-to-run noise).
 * File names start with the UTC start time, so the order of names is the order of runs; hidden files (doc_write's
 * temporary ones) and anything not named *.json are skipped. */
#include "compare/compare.h"
#include "compare/compare_setup.h"
#include "util/termtext.h"
#include "report/access.h"
#include "report/report_read.h"
#include "report/report_compact.h"
#include "compare/store_sidecar.h"
#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>
#include "compare/compare_runs.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int is_report_name(const char *name)
{
    size_t l = strlen(name);
    return name[0] != '.' && l > 5 && !strcmp(name + l - 5, ".json") && !strstr(name, ".tmp-");
}

int compare_file_id(const char *path, char *buf, size_t len)
{
    struct stat st;
    if (stat(path, &st) < 0)
        return -errno;
    return snprintf(buf, len, "%ju:%ju", (uintmax_t)st.st_dev, (uintmax_t)st.st_ino) < (int)len ? 0 : -ENOSPC;
}

/* Reading every report of a crowded directory would take long: the newest this many files are looked at. */
#define REPLICATE_SCAN_MAX 100

/* The directory part of path, into dir. */
static int dir_of(const char *path, char *dir, size_t len)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return snprintf(dir, len, ".") < (int)len ? 0 : -ENAMETOOLONG;
    if ((size_t)(slash - path) >= len)
        return -ENAMETOOLONG;
    memcpy(dir, path, (size_t)(slash - path));
    dir[slash - path] = '\0';
    if (!dir[0])
        snprintf(dir, len, "/");
    return 0;
}

/* A file beside the compared reports: its identity and its values, each found once, when first needed. */
struct beside {
    char *name;
    struct stat st;
    char id[64];
    int known;          /* one of the compared reports: its document is in memory */
    json_t *ident;      /* compare_identity() */
    json_t *values;     /* compare_run_values_json() */
    char *text;         /* its text, when it was read for its identity (kept until it is known to be needed) */
    size_t len;
};

static int beside_newest_first(const void *a, const void *b)
{
    const struct beside *x = a, *y = b;
    if (x->st.st_mtim.tv_sec != y->st.st_mtim.tv_sec)
        return x->st.st_mtim.tv_sec < y->st.st_mtim.tv_sec ? 1 : -1;
    if (x->st.st_mtim.tv_nsec != y->st.st_mtim.tv_nsec)
        return x->st.st_mtim.tv_nsec < y->st.st_mtim.tv_nsec ? 1 : -1;
    return strcmp(y->name, x->name);
}

/* The reports of directory dir (open as dfd), newest first: regular *.json files, not followed through symlinks. */
static struct beside *list_beside(int dfd, size_t *nout)
{
    int fd = dup(dfd);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    *nout = 0;
    if (!d) {
        if (fd >= 0)
            close(fd);
        return NULL;
    }
    struct beside *c = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        struct stat st;
        if (!is_report_name(e->d_name) || fstatat(dfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
            !S_ISREG(st.st_mode))
            continue;
        if (n == cap) {
            size_t nc = cap ? cap * 2 : 64;
            struct beside *t = realloc(c, nc * sizeof(*c));
            if (!t)
                break;
            c = t;
            cap = nc;
        }
        memset(&c[n], 0, sizeof(c[n]));
        c[n].name = strdup(e->d_name);
        c[n].st = st;
        snprintf(c[n].id, sizeof(c[n].id), "%ju:%ju", (uintmax_t)st.st_dev, (uintmax_t)st.st_ino);
        if (c[n].name)
            n++;
    }
    closedir(d);
    if (n > 1)
        qsort(c, n, sizeof(*c), beside_newest_first);
    *nout = n;
    return c;
}

void compare_replicates(const char *const *paths, json_t *const *docs, size_t n, size_t max, json_t **reps)
{
    char (*dirs)[4096] = calloc(n ? n : 1, sizeof(*dirs));
    char (*self)[64] = calloc(n ? n : 1, sizeof(*self));
    json_t **idents = calloc(n ? n : 1, sizeof(*idents));
    unsigned char *done = calloc(n ? n : 1, 1);
    for (size_t i = 0; i < n; i++)
        reps[i] = NULL;
    if (!dirs || !self || !idents || !done)
        goto out;
    for (size_t i = 0; i < n; i++) {
        if (dir_of(paths[i], dirs[i], sizeof(dirs[i])) < 0)
            done[i] = 1;
        if (compare_file_id(paths[i], self[i], sizeof(self[i])) < 0)
            self[i][0] = '\0';
        idents[i] = compare_identity(docs[i]);
    }
    for (size_t i = 0; i < n; i++) {
        if (done[i])
            continue;
        int dfd = open(dirs[i], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        struct stat ds;
        if (dfd < 0 || fstat(dfd, &ds) < 0) {
            if (dfd >= 0)
                close(dfd);
            done[i] = 1;
            continue;
        }
        size_t nc;
        struct beside *c = list_beside(dfd, &nc);
        /* every compared report in this directory (the same directory, however named) */
        unsigned char *here = calloc(n, 1);
        for (size_t j = i; here && j < n; j++) {
            struct stat js;
            if (done[j] || (j != i && (stat(dirs[j], &js) < 0 || js.st_dev != ds.st_dev || js.st_ino != ds.st_ino)))
                continue;
            done[j] = here[j] = 1;
            reps[j] = json_array();
        }
        /* file by file, newest first, for all of them at once: a file's text is held only while it is looked at */
        for (size_t k = 0; here && k < nc && k < REPLICATE_SCAN_MAX; k++) {
            struct beside *b = &c[k];
            for (size_t x = 0; x < n; x++)
                if (self[x][0] && !strcmp(b->id, self[x])) { /* a compared report: its document is in memory */
                    b->known = 1;
                    b->ident = json_incref(idents[x]);
                    b->values = compare_run_values_json(docs[x]);
                    break;
                }
            for (size_t j = 0; j < n; j++) {
                if (!here[j] || json_array_size(reps[j]) >= max || !strcmp(b->id, self[j]))
                    continue;
                if (!b->ident) {
                    char err[256];
                    if (sidecar_identity(dfd, dirs[i], b->name, &b->st, &b->ident, &b->values, &b->text, &b->len,
                                         err, sizeof(err)) < 0)
                        break; /* not a report: passed over in silence, as before */
                }
                if (!idents[j] || !compare_identity_same_setup(idents[j], b->ident))
                    continue;
                if (!b->values) { /* of the set-up: read whole now, once, its timelines packed */
                    char p[8192], err[256];
                    json_t *r;
                    /* from the text read for its identity when there was no sidecar: the file is read once */
                    int rrc = b->text ? report_read_compact_buffer(b->text, b->len, REPORT_PACKED, &r, err, sizeof(err))
                              : snprintf(p, sizeof(p), "%s/%s", dirs[i], b->name) >= (int)sizeof(p) ? -ENAMETOOLONG
                              : report_read_compact(p, REPORT_PACKED, &r, err, sizeof(err));
                    free(b->text);
                    b->text = NULL;
                    if (rrc < 0)
                        break;
                    b->values = compare_run_values_json(r);
                    json_decref(r);
                    /* the next compare takes them from the sidecar: this report is not read whole again */
                    sidecar_add_values(dfd, b->name, &b->st, b->ident, b->values);
                }
                char p[8192];
                snprintf(p, sizeof(p), "%s/%s", dirs[i], b->name);
                json_array_append_new(reps[j], json_pack("{s:s, s:s, s:O}", "file", p, "id", b->id, "values",
                                                         b->values));
            }
            free(b->text);
            b->text = NULL;
            json_decref(b->values); /* done with this file */
            b->values = NULL;
        }
        free(here);
        for (size_t k = 0; k < nc; k++) {
            free(c[k].name);
            free(c[k].text);
            json_decref(c[k].ident);
            json_decref(c[k].values);
        }
        free(c);
        close(dfd);
    }
out:
    for (size_t i = 0; idents && i < n; i++)
        json_decref(idents[i]);
    free(dirs);
    free(self);
    free(idents);
    free(done);
}

json_t *compare_replicates_beside(const char *path, const json_t *doc, size_t max)
{
    json_t *r = NULL, *d = (json_t *)doc;
    compare_replicates(&path, &d, 1, max, &r);
    return r;
}

struct run_ref {
    char *path;
    char rel[256];          /* the directory it is in: its kernel release */
    char base[256];         /* file name: starts with the UTC start time */
    char key[1024];         /* compare_setup_key */
    char host[256];
};

static int run_cmp(const void *a, const void *b)
{
    return strcmp(((const struct run_ref *)a)->base, ((const struct run_ref *)b)->base);
}

/* Every readable report of the store (any release), with its set-up; label: only those with that label. */
static int collect_runs(const char *store, const char *label, struct run_ref **out, size_t *nout)
{
    *out = NULL;
    *nout = 0;
    DIR *d = opendir(store);
    if (!d)
        return -errno;
    struct run_ref *rs = NULL;
    size_t n = 0, cap = 0;
    int rc = 0;
    struct dirent *de;
    while ((de = readdir(d)) && !rc) {
        char sub[4096];
        if (de->d_name[0] == '.' || snprintf(sub, sizeof(sub), "%s/%s", store, de->d_name) >= (int)sizeof(sub))
            continue;
        /* each report's identity from its sidecar (store_sidecar.h): the reports themselves are read only when
         * their sidecar is missing or stale, and then only as far as set-up matching needs */
        int kfd = open(sub, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        int kfd2 = kfd >= 0 ? dup(kfd) : -1;
        DIR *k = kfd2 >= 0 ? fdopendir(kfd2) : NULL;
        if (!k) {
            if (kfd2 >= 0)
                close(kfd2);
            if (kfd >= 0)
                close(kfd);
            continue;
        }
        struct dirent *fe;
        while ((fe = readdir(k))) {
            char path[4400], err[256];
            json_t *id;
            struct stat st;
            if (!is_report_name(fe->d_name) || strlen(fe->d_name) >= sizeof(rs->base) ||
                snprintf(path, sizeof(path), "%s/%s", sub, fe->d_name) >= (int)sizeof(path))
                continue;
            err[0] = '\0';
            int bad = fstatat(kfd, fe->d_name, &st, 0) < 0 || !S_ISREG(st.st_mode);
            if (bad)
                snprintf(err, sizeof(err), "not a regular file");
            if (bad || sidecar_identity(kfd, sub, fe->d_name, &st, &id, NULL, NULL, NULL, err, sizeof(err)) < 0) {
                /* A *.json that is not a report we can read (a FIFO, a broken file): named, then left out. */
                char shown[1024]; /* a name from the store's listing is anybody's */
                fprintf(stderr, "rtjitter compare: %s: %s (left out)\n", term_str(shown, sizeof(shown), path), err);
                continue;
            }
            const char *lab = json_string_value(json_object_get(id, "label"));
            if (label && (!lab || strcmp(lab, label) != 0)) {
                json_decref(id);
                continue;
            }
            if (n == cap) {
                size_t nc = cap ? cap * 2 : 32;
                struct run_ref *t = realloc(rs, nc * sizeof(*rs));
                if (!t) {
                    json_decref(id);
                    rc = -ENOMEM;
                    break;
                }
                rs = t;
                cap = nc;
            }
            struct run_ref *r = &rs[n];
            memset(r, 0, sizeof(*r));
            r->path = strdup(path);
            snprintf(r->base, sizeof(r->base), "%s", fe->d_name);
            snprintf(r->rel, sizeof(r->rel), "%s", de->d_name);
            snprintf(r->key, sizeof(r->key), "%s", json_string_value(json_object_get(id, "key")));
            snprintf(r->host, sizeof(r->host), "%s", json_string_value(json_object_get(id, "host")));
            json_decref(id);
            if (!r->path) {
                rc = -ENOMEM;
                break;
            }
            n++;
        }
        closedir(k);
        close(kfd);
    }
    closedir(d);
    if (n > 1) /* rs is NULL when the store is empty: qsort may not be given NULL */
        qsort(rs, n, sizeof(*rs), run_cmp);
    *out = rs;
    *nout = n;
    return rc;
}

int compare_setups_in_store(const char *store, int last, const char *label, char ***paths, size_t *n, char *msg,
                            size_t msglen)
{
    *paths = NULL;
    *n = 0;
    msg[0] = '\0';
    struct run_ref *rs;
    size_t nr;
    int rc = collect_runs(store, label, &rs, &nr);
    if (rc < 0 || nr == 0) {
        snprintf(msg, msglen, "%s", rc < 0 ? strerror(-rc) : label ? "no report with that label" : "no reports");
        goto out;
    }
    const char *host = rs[nr - 1].host;
    /* The newest run of each set-up on that machine, newest first: walk the runs from the newest. */
    size_t pick[64], np = 0, nsetups = 0;
    for (size_t i = nr; i-- > 0 && np < (size_t)last && np < 64;) {
        if (strcmp(rs[i].host, host) != 0)
            continue;
        int seen = 0;
        for (size_t j = 0; j < np; j++)
            seen |= !strcmp(rs[pick[j]].key, rs[i].key);
        if (!seen)
            pick[np++] = i;
    }
    nsetups = np;
    if (nsetups == 1) { /* one set-up only: its latest runs, an A/A comparison */
        np = 0;
        for (size_t i = nr; i-- > 0 && np < (size_t)last && np < 64;)
            if (!strcmp(rs[i].key, rs[pick[0]].key))
                pick[np++] = i;
    }
    if (np < 2) {
        snprintf(msg, msglen, "1 report%s on %s: nothing to compare it with", label ? " with that label" : "", host);
        rc = -ENOENT;
        goto out;
    }
    if (nsetups == 1)
        snprintf(msg, msglen, "one set-up on %s%s: its latest %zu runs", host, label ? " (that label)" : "", np);
    else
        snprintf(msg, msglen, "the latest run of each of the last %zu set-ups on %s%s", np, host,
                 label ? " (that label)" : "");
    *paths = calloc(np, sizeof(char *));
    if (!*paths) {
        rc = -ENOMEM;
        goto out;
    }
    for (size_t j = 0; j < np; j++) { /* oldest first: the earlier set-up is the baseline */
        (*paths)[j] = rs[pick[np - 1 - j]].path;
        rs[pick[np - 1 - j]].path = NULL;
    }
    *n = np;
out:
    for (size_t i = 0; i < nr; i++)
        free(rs[i].path);
    free(rs);
    return rc;
}

int compare_latest_in_store(const char *store, char ***paths, size_t *n)
{
    *paths = NULL;
    *n = 0;
    struct run_ref *rs;
    size_t nr, np = 0;
    int rc = collect_runs(store, NULL, &rs, &nr);
    if (rc == 0 && nr)
        *paths = calloc(nr, sizeof(char *));
    if (rc == 0 && nr && !*paths)
        rc = -ENOMEM;
    /* The runs are in time order: a run is its release's latest when no later run has that release. The list
     * stays in time order, so the kernel tested first is the baseline. */
    for (size_t i = 0; rc == 0 && i < nr; i++) {
        int later = 0;
        for (size_t j = i + 1; j < nr && !later; j++)
            later = !strcmp(rs[j].rel, rs[i].rel);
        if (!later) {
            (*paths)[np++] = rs[i].path;
            rs[i].path = NULL;
        }
    }
    *n = np;
    for (size_t i = 0; i < nr; i++)
        free(rs[i].path);
    free(rs);
    return rc;
}

int compare_all_in_store(const char *store, const char *label, char ***paths, size_t *n)
{
    *paths = NULL;
    *n = 0;
    struct run_ref *rs;
    size_t nr;
    int rc = collect_runs(store, label, &rs, &nr);
    if (rc == 0 && nr && !(*paths = calloc(nr, sizeof(char *))))
        rc = -ENOMEM;
    for (size_t i = 0; rc == 0 && i < nr; i++) {
        (*paths)[i] = rs[i].path;
        rs[i].path = NULL;
    }
    if (rc == 0)
        *n = nr;
    for (size_t i = 0; i < nr; i++)
        free(rs[i].path);
    free(rs);
    return rc;
}
