/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Finding reports in the store for `rtjitter compare` with no files: the latest run of each set-up (before and
 * after), the latest report of each kernel, and the other runs of a report's set-up beside it (run-to-run noise).
 * File names start with the UTC start time, so the order of names is the order of runs; hidden files (doc_write's
 * temporary ones) and anything not named *.json are skipped. */
#include "report/compare.h"
#include "util/termtext.h"
#include "report/access.h"
#include "report/report_read.h"
#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>
#include "report/compare_runs.h"
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

struct cand {
    char *name;
    struct timespec mtime;
};

static int cand_newest_first(const void *a, const void *b)
{
    const struct cand *x = a, *y = b;
    if (x->mtime.tv_sec != y->mtime.tv_sec)
        return x->mtime.tv_sec < y->mtime.tv_sec ? 1 : -1;
    if (x->mtime.tv_nsec != y->mtime.tv_nsec)
        return x->mtime.tv_nsec < y->mtime.tv_nsec ? 1 : -1;
    return strcmp(y->name, x->name);
}

/* Reading every report of a crowded directory would take long: the newest this many files are looked at. */
#define REPLICATE_SCAN_MAX 100

json_t *compare_replicates_beside(const char *path, const json_t *doc, size_t max)
{
    const char *slash = strrchr(path, '/');
    char dir[4096];
    if (!slash)
        snprintf(dir, sizeof(dir), ".");
    else if ((size_t)(slash - path) >= sizeof(dir))
        return NULL;
    else {
        memcpy(dir, path, (size_t)(slash - path));
        dir[slash - path] = '\0';
        if (!dir[0])
            snprintf(dir, sizeof(dir), "/");
    }
    char self[64];
    if (compare_file_id(path, self, sizeof(self)) < 0)
        self[0] = '\0';
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
    if (!d) {
        if (dfd >= 0)
            close(dfd);
        return NULL;
    }
    struct cand *c = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        struct stat st;
        if (!is_report_name(e->d_name) || fstatat(dfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
            !S_ISREG(st.st_mode))
            continue;
        if (n == cap) {
            size_t nc = cap ? cap * 2 : 64;
            struct cand *t = realloc(c, nc * sizeof(*c));
            if (!t)
                break;
            c = t;
            cap = nc;
        }
        c[n].name = strdup(e->d_name);
        c[n].mtime = st.st_mtim;
        if (c[n].name)
            n++;
    }
    closedir(d);
    if (n)
        qsort(c, n, sizeof(*c), cand_newest_first);
    json_t *out = json_array();
    for (size_t i = 0; i < n; i++) {
        char p[8192], id[64], err[256];
        json_t *r;
        if (i < REPLICATE_SCAN_MAX && json_array_size(out) < max &&
            snprintf(p, sizeof(p), "%s/%s", dir, c[i].name) < (int)sizeof(p) &&
            compare_file_id(p, id, sizeof(id)) == 0 && strcmp(id, self) != 0 &&
            report_read_file(p, &r, err, sizeof(err)) == 0) {
            if (compare_same_setup(doc, r))
                json_array_append_new(out, json_pack("{s:s, s:s, s:o}", "file", p, "id", id, "values",
                                                     compare_run_values_json(r)));
            json_decref(r);
        }
        free(c[i].name);
    }
    free(c);
    return out;
}

int compare_setup_key(const json_t *doc, char *key, size_t len)
{
    const json_t *sys = json_object_get(doc, "system"), *k = json_object_get(sys, "kernel"),
                 *cpu = json_object_get(sys, "cpu"), *au = json_object_get(doc, "audio");
    const json_t *ti = json_object_get(k, "threadirqs");
    /* and what the user chose for the run beyond rate and period, and the label: the same as the runs compare takes
     * for one set-up's replicates (compare_same_setup()) */
    char *cpus = json_dumps(json_object_get(au, "cpus"), JSON_COMPACT | JSON_ENCODE_ANY);
    int n = snprintf(key, len, "%s|%s|%s|%s|%s|%s|%s|%s|%.0f|%.0f|%.0f|%s|%s|%.0f|%.0f|%zu|%s",
                     doc_str(sys, "hostname", "?"), doc_str(k, "release", "?"), doc_str(k, "cmdline", "?"),
                     doc_str(k, "preempt", "?"), doc_str(cpu, "governor", "?"),
                     json_is_true(ti) ? "threadirqs" : json_is_false(ti) ? "-" : "?", doc_str(au, "backend", "?"),
                     doc_str(au, "provider", "?"), doc_num(au, "rate"), doc_num(au, "period_frames"),
                     doc_num(au, "nperiods"), doc_str(au, "device", "-"), cpus ? cpus : "-",
                     doc_num(au, "priority_requested"), doc_num(au, "dsp_pct"),
                     json_array_size(json_object_get(au, "threads")), doc_str(doc, "label", "-"));
    free(cpus);
    return n < 0 || (size_t)n >= len ? -ENOSPC : 0;
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
        DIR *k = opendir(sub);
        if (!k)
            continue;
        struct dirent *fe;
        while ((fe = readdir(k))) {
            char path[4400], err[256];
            json_t *doc;
            if (!is_report_name(fe->d_name) || strlen(fe->d_name) >= sizeof(rs->base) ||
                snprintf(path, sizeof(path), "%s/%s", sub, fe->d_name) >= (int)sizeof(path))
                continue;
            if (report_read_file(path, &doc, err, sizeof(err)) < 0) {
                /* A *.json that is not a report we can read (a FIFO, a broken file): named, then left out. */
                char shown[1024]; /* a name from the store's listing is anybody's */
                fprintf(stderr, "rtjitter compare: %s: %s (left out)\n", term_str(shown, sizeof(shown), path), err);
                continue;
            }
            const char *lab = doc_str(doc, "label", NULL);
            if (label && (!lab || strcmp(lab, label) != 0)) {
                json_decref(doc);
                continue;
            }
            if (n == cap) {
                size_t nc = cap ? cap * 2 : 32;
                struct run_ref *t = realloc(rs, nc * sizeof(*rs));
                if (!t) {
                    json_decref(doc);
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
            compare_setup_key(doc, r->key, sizeof(r->key));
            snprintf(r->host, sizeof(r->host), "%s", doc_str(json_object_get(doc, "system"), "hostname", "?"));
            json_decref(doc);
            if (!r->path) {
                rc = -ENOMEM;
                break;
            }
            n++;
        }
        closedir(k);
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
