/* Finding reports in the store for `rtjitter compare` with no files: the latest report of each kernel, and
 * the run before a report (run-to-run noise). File names start with the UTC start time, so the order of names
 * is the order of runs; hidden files (doc_write's temporary ones) and anything not named *.json are skipped. */
#include "report/compare.h"
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct found {
    char *path;
    char base[256];
};

static int found_cmp(const void *a, const void *b)
{
    return strcmp(((const struct found *)a)->base, ((const struct found *)b)->base);
}

static int is_report_name(const char *name)
{
    size_t l = strlen(name);
    return name[0] != '.' && l > 5 && !strcmp(name + l - 5, ".json") && !strstr(name, ".tmp-");
}

int compare_previous_in_store(const char *path, char *out, size_t len)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return -ENOENT;
    char dir[4096];
    if ((size_t)(slash - path) >= sizeof(dir))
        return -ENAMETOOLONG;
    memcpy(dir, path, (size_t)(slash - path));
    dir[slash - path] = '\0';
    const char *base = slash + 1;
    DIR *d = opendir(dir[0] ? dir : "/");
    if (!d)
        return -errno;
    char best[256] = "";
    struct dirent *e;
    while ((e = readdir(d)))
        if (is_report_name(e->d_name) && strlen(e->d_name) < sizeof(best) && strcmp(e->d_name, base) < 0 &&
            strcmp(e->d_name, best) > 0)
            snprintf(best, sizeof(best), "%s", e->d_name);
    closedir(d);
    if (!best[0])
        return -ENOENT;
    if (snprintf(out, len, "%s/%s", dir, best) >= (int)len)
        return -ENAMETOOLONG;
    return 0;
}

int compare_latest_in_store(const char *store, char ***paths, size_t *n)
{
    *paths = NULL;
    *n = 0;
    DIR *d = opendir(store);
    if (!d)
        return -errno;
    struct found *fs = NULL;
    size_t nf = 0, cap = 0;
    int rc = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        if (de->d_name[0] == '.')
            continue;
        char sub[4096];
        if (snprintf(sub, sizeof(sub), "%s/%s", store, de->d_name) >= (int)sizeof(sub))
            continue;
        DIR *k = opendir(sub);
        if (!k)
            continue; /* not a directory, or unreadable: not a kernel's reports */
        char best[256] = "";
        struct dirent *fe;
        while ((fe = readdir(k)))
            /* File names start with the UTC start time, so the greatest name is the latest run. */
            if (is_report_name(fe->d_name) && strlen(fe->d_name) < sizeof(best) && strcmp(fe->d_name, best) > 0)
                snprintf(best, sizeof(best), "%s", fe->d_name);
        closedir(k);
        if (!best[0])
            continue;
        if (nf == cap) {
            size_t nc = cap ? cap * 2 : 8;
            struct found *t = realloc(fs, nc * sizeof(*fs));
            if (!t) {
                rc = -ENOMEM;
                goto out;
            }
            fs = t;
            cap = nc;
        }
        size_t pl = strlen(sub) + strlen(best) + 2;
        fs[nf].path = malloc(pl);
        if (!fs[nf].path) {
            rc = -ENOMEM;
            goto out;
        }
        snprintf(fs[nf].path, pl, "%s/%s", sub, best);
        snprintf(fs[nf].base, sizeof(fs[nf].base), "%s", best);
        nf++;
    }
    /* Oldest first: the kernel tested first is the baseline. */
    qsort(fs, nf, sizeof(*fs), found_cmp);
    if (nf) {
        *paths = calloc(nf, sizeof(char *));
        if (!*paths) {
            rc = -ENOMEM;
            goto out;
        }
        for (size_t i = 0; i < nf; i++) {
            (*paths)[i] = fs[i].path;
            fs[i].path = NULL;
        }
        *n = nf;
    }
out:
    for (size_t i = 0; i < nf; i++)
        free(fs[i].path);
    free(fs);
    closedir(d);
    return rc;
}
