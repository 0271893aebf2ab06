/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The reads under the root prefix (sysread.h) that every file of src/sysinfo uses: below sysinfo.c (the whole
 * identity) and setup.c (the set-up) alike, so that neither entry file is its parts' helper. Main thread. */
#include "sysinfo/sysread.h"
#include "util/utf8.h"
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- files ---- */

int sysinfo_rooted(const char *root, const char *path, char *out, size_t len)
{
    int n = snprintf(out, len, "%s%s", root, path);
    return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

FILE *sysinfo_open(const char *root, const char *path)
{
    char full[PATH_MAX];
    if (sysinfo_rooted(root, path, full, sizeof(full)) < 0)
        return NULL;
    return fopen(full, "r");
}

/* The whole file (up to len-1 bytes), trailing white space removed. */
int sysinfo_read_text(const char *root, const char *path, char *buf, size_t len)
{
    FILE *f = sysinfo_open(root, path);
    if (!f)
        return -errno;
    size_t n = fread(buf, 1, len - 1, f);
    int err = ferror(f) ? -EIO : 0;
    fclose(f);
    if (err)
        return err;
    buf[n] = '\0';
    while (n > 0 && isspace((unsigned char)buf[n - 1]))
        buf[--n] = '\0';
    return 0;
}

int sysinfo_read_ll(const char *root, const char *path, long long *v)
{
    char buf[64], *end;
    int e = sysinfo_read_text(root, path, buf, sizeof(buf));
    if (e < 0)
        return e;
    errno = 0;
    *v = strtoll(buf, &end, 10);
    return end == buf || errno ? -EINVAL : 0;
}

json_t *sysinfo_text_or_null(const char *root, const char *path)
{
    char buf[1024];
    return sysinfo_read_text(root, path, buf, sizeof(buf)) == 0 ? utf8_json_string(buf) : json_null();
}

json_t *sysinfo_ll_or_null(const char *root, const char *path)
{
    long long v;
    return sysinfo_read_ll(root, path, &v) == 0 ? json_integer(v) : json_null();
}

json_t *sysinfo_str_or_null(const char *s)
{
    return s ? utf8_json_string(s) : json_null();
}

/* ---- directories and shell-style assignments (the set-up: setup.c, setup_audio.c, setup_login.c) ---- */

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

char **sysinfo_list_dir(const char *root, const char *path)
{
    char full[PATH_MAX];
    if (sysinfo_rooted(root, path, full, sizeof(full)) < 0)
        return NULL;
    DIR *d = opendir(full);
    if (!d)
        return NULL;
    size_t n = 0, cap = 16;
    char **v = malloc(cap * sizeof(*v));
    struct dirent *de;
    while (v && (de = readdir(d))) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
            continue;
        if (n + 1 >= cap) {
            char **nv = realloc(v, (cap *= 2) * sizeof(*v));
            if (!nv)
                break;
            v = nv;
        }
        if (!(v[n] = strdup(de->d_name)))
            break;
        n++;
    }
    closedir(d);
    if (!v)
        return NULL;
    v[n] = NULL;
    qsort(v, n, sizeof(*v), by_name);
    return v;
}

void sysinfo_free_names(char **names)
{
    for (size_t i = 0; names && names[i]; i++)
        free(names[i]);
    free(names);
}

int sysinfo_exists(const char *root, const char *path)
{
    char full[PATH_MAX];
    return sysinfo_rooted(root, path, full, sizeof(full)) == 0 && access(full, F_OK) == 0;
}

/* The value of a shell assignment without its quotes; a trailing comment is dropped outside quotes. */
static void unquote(char *v)
{
    char *o = v, q = 0;
    for (char *p = v; *p; p++) {
        if (q) {
            if (*p == q)
                q = 0;
            else
                *o++ = *p;
        } else if (*p == '"' || *p == '\'') {
            q = *p;
        } else if (*p == '#' && (p == v || isspace((unsigned char)p[-1]))) {
            break;
        } else {
            *o++ = *p;
        }
    }
    while (o > v && isspace((unsigned char)o[-1]))
        o--;
    *o = '\0';
}

int sysinfo_read_assignments(const char *root, const char *path, json_t *o)
{
    FILE *f = sysinfo_open(root, path);
    if (!f)
        return -errno;
    char line[1024];
    while (fgets(line, sizeof(line), f)) {
        char *p = line;
        while (isspace((unsigned char)*p))
            p++;
        if (strncmp(p, "export ", 7) == 0)
            p += 7;
        char *eq = strchr(p, '=');
        if (*p == '#' || *p == '[' || !eq || eq == p)
            continue;
        *eq = '\0';
        char *k = p, *ke = eq;
        while (ke > k && isspace((unsigned char)ke[-1]))
            *--ke = '\0';
        if (strspn(k, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-") != strlen(k))
            continue;
        char *v = eq + 1;
        v[strcspn(v, "\n")] = '\0';
        while (isspace((unsigned char)*v))
            v++;
        unquote(v);
        json_object_set_new(o, k, json_string(v));
    }
    fclose(f);
    return 0;
}
