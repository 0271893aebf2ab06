/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Available memory, cgroup limits included (see memavail.h). Runs in the memload child, or in tests. */
#include "memavail.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define UNLIMITED ((uint64_t)1 << 62) /* v1 writes "no limit" as 9223372036854771712 */

static int read_u64(const char *root, const char *dir, const char *file, uint64_t *v)
{
    char path[4600], buf[64];
    snprintf(path, sizeof(path), "%s%s/%s", root, dir, file);
    FILE *f = fopen(path, "re");
    if (!f)
        return -errno;
    int rc = -EINVAL;
    if (fgets(buf, sizeof(buf), f)) {
        if (strncmp(buf, "max", 3) == 0) {
            *v = UINT64_MAX;
            rc = 0;
        } else {
            char *end;
            *v = strtoull(buf, &end, 10);
            rc = end != buf ? 0 : -EINVAL;
        }
    }
    fclose(f);
    return rc;
}

static int has_token(const char *list, const char *tok)
{
    size_t n = strlen(tok);
    for (const char *p = list; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
        if (strncmp(p, tok, n) == 0 && (p[n] == ',' || p[n] == '\0' || p[n] == '\n'))
            return 1;
    return 0;
}

/* The mount point and mount root of the v2 hierarchy (v2) or of the v1 one holding the memory controller. */
static int find_mount(const char *root, int v2, char *mnt, char *mroot, size_t len)
{
    char path[4200], line[4096];
    snprintf(path, sizeof(path), "%s/proc/self/mountinfo", root);
    FILE *f = fopen(path, "re");
    if (!f)
        return -errno;
    int rc = -ENOENT;
    while (fgets(line, sizeof(line), f)) {
        char *sep = strstr(line, " - ");
        char r[2048], m[2048], fstype[64], super[1024] = "";
        if (!sep || sscanf(line, "%*s %*s %*s %2047s %2047s", r, m) != 2 ||
            sscanf(sep + 3, "%63s %*s %1023s", fstype, super) < 1)
            continue;
        if ((v2 && strcmp(fstype, "cgroup2") == 0) ||
            (!v2 && strcmp(fstype, "cgroup") == 0 && has_token(super, "memory"))) {
            snprintf(mnt, len, "%s", m);
            snprintf(mroot, len, "%s", r);
            rc = 0;
            break;
        }
    }
    fclose(f);
    return rc;
}

/* Smallest headroom from our cgroup up to the hierarchy's root, or -ENOENT when nothing limits us there. */
static int hierarchy_headroom(const char *root, int v2, const char *cgpath, uint64_t *out)
{
    char mnt[2048], mroot[2048], rel[2048], dir[4200];
    if (find_mount(root, v2, mnt, mroot, sizeof(mnt)) < 0)
        return -ENOENT;
    size_t rl = strlen(mroot);
    if (strcmp(mroot, "/") != 0 && strncmp(cgpath, mroot, rl) == 0)
        cgpath += rl; /* a container sees its own cgroup as the mount's root */
    snprintf(rel, sizeof(rel), "%s", cgpath);
    int rc = -ENOENT;
    for (;;) {
        size_t n = strlen(rel);
        while (n > 0 && rel[n - 1] == '/')
            rel[--n] = '\0';
        snprintf(dir, sizeof(dir), "%s%s", mnt, rel);
        uint64_t lim, use;
        if (read_u64(root, dir, v2 ? "memory.max" : "memory.limit_in_bytes", &lim) == 0 && lim < UNLIMITED &&
            read_u64(root, dir, v2 ? "memory.current" : "memory.usage_in_bytes", &use) == 0) {
            uint64_t h = lim > use ? lim - use : 0;
            if (rc < 0 || h < *out)
                *out = h;
            rc = 0;
        }
        char *slash = strrchr(rel, '/');
        if (!slash)
            break;
        *slash = '\0';
    }
    return rc;
}

static int cgroup_headroom(const char *root, uint64_t *out)
{
    char path[4200], line[4096];
    snprintf(path, sizeof(path), "%s/proc/self/cgroup", root);
    FILE *f = fopen(path, "re");
    if (!f)
        return -errno;
    int rc = -ENOENT;
    while (fgets(line, sizeof(line), f)) {
        line[strcspn(line, "\n")] = '\0';
        char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
        if (!c2)
            continue;
        *c1 = *c2 = '\0';
        const char *ctl = c1 + 1, *cg = c2 + 1;
        int v2 = strcmp(line, "0") == 0 && ctl[0] == '\0';
        if (!v2 && !has_token(ctl, "memory"))
            continue;
        uint64_t h = UINT64_MAX;
        if (hierarchy_headroom(root, v2, cg, &h) == 0 && (rc < 0 || h < *out)) {
            *out = h;
            rc = 0;
        }
    }
    fclose(f);
    return rc;
}

int mem_available_at(const char *root, uint64_t *avail, uint64_t *total)
{
    uint64_t meminfo;
    return mem_available_detail(root, avail, total, &meminfo);
}

int mem_available_detail(const char *root, uint64_t *avail, uint64_t *total, uint64_t *meminfo)
{
    char path[4200], line[256];
    snprintf(path, sizeof(path), "%s/proc/meminfo", root);
    FILE *f = fopen(path, "re");
    if (!f)
        return -errno;
    int found = 0;
    while (fgets(line, sizeof(line), f)) {
        if (strncmp(line, "MemAvailable:", 13) == 0)
            *avail = strtoull(line + 13, NULL, 10) * 1024, found |= 1;
        else if (strncmp(line, "MemTotal:", 9) == 0)
            *total = strtoull(line + 9, NULL, 10) * 1024, found |= 2;
    }
    fclose(f);
    if (found != 3)
        return -ENOENT;
    *meminfo = *avail;
    uint64_t h = UINT64_MAX;
    if (cgroup_headroom(root, &h) == 0 && h < *avail)
        *avail = h;
    return 0;
}

#define FLOOR_MIN ((uint64_t)256 << 20)

/* Memory must stay available to the rest of the machine: 5 % of what was available (what the 95 % bound leaves),
 * 2 % of RAM, 256 MB, whichever is most. Below that memload gives memory back; the target never reaches it. */
struct memload_bounds memload_bounds(uint64_t avail0, uint64_t total, double pct, double cap_mb)
{
    struct memload_bounds b;
    if (pct > 95)
        pct = 95; /* the declared bound, held here too */
    b.floor = avail0 / 20;
    if (b.floor < total / 50)
        b.floor = total / 50;
    if (b.floor < FLOOR_MIN)
        b.floor = FLOOR_MIN;
    b.target = (uint64_t)((double)avail0 * pct / 100.0);
    if (cap_mb > 0 && (double)b.target > cap_mb * 1048576.0)
        b.target = (uint64_t)(cap_mb * 1048576.0);
    if (b.target > avail0 - (avail0 < b.floor ? avail0 : b.floor))
        b.target = avail0 - (avail0 < b.floor ? avail0 : b.floor);
    return b;
}

int memload_decide(uint64_t avail, const struct memload_bounds *b, uint64_t held, uint64_t chunk)
{
    if (held > 0 && avail < b->floor)
        return -1;
    if (held < b->target && avail >= b->floor + chunk)
        return 1;
    return 0;
}

int memload_can_start(uint64_t avail, uint64_t meminfo, const struct memload_bounds *b, uint64_t chunk, char *why,
                      size_t len)
{
    if (memload_decide(avail, b, 0, chunk) > 0)
        return 0;
    const double mb = 1048576.0;
    if (avail < meminfo)
        snprintf(why, len, "cannot take any memory: the memory cgroup's limit leaves %.0f MB (the machine has %.0f MB "
                 "available), and memload always leaves %.0f MB free", avail / mb, meminfo / mb, b->floor / mb);
    else
        snprintf(why, len, "cannot take any memory: %.0f MB available, and memload always leaves %.0f MB free",
                 avail / mb, b->floor / mb);
    return -ENOMEM;
}
