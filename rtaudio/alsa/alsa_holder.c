/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Who holds a sound card's PCM open, fuser-style: scan root/proc/PID/fd for links to /dev/snd/pcmC*D*. */
#include "alsa/alsa_holder.h"
#include <alsa/asoundlib.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int alsa_card_of(const char *pcm)
{
    const char *colon = strchr(pcm, ':');
    if (!colon)
        return -1;
    char id[64];
    const char *p = strstr(colon, "CARD=");
    p = p ? p + 5 : colon + 1;
    size_t n = strcspn(p, ",");
    if (n == 0 || n >= sizeof(id))
        return -1;
    memcpy(id, p, n);
    id[n] = '\0';
    if (id[0] == '"' && n > 1 && id[n - 1] == '"') { /* CARD="USB" */
        memmove(id, id + 1, n - 2);
        id[n - 2] = '\0';
    }
    int card = snd_card_get_index(id);
    return card >= 0 ? card : -1;
}

/* The process's name from root/proc/PID/comm, or "?". */
static void comm_of(int procfd, const char *pid, char *buf, size_t len)
{
    char path[300];
    snprintf(path, sizeof(path), "%s/comm", pid);
    snprintf(buf, len, "?");
    int fd = openat(procfd, path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0)
        return;
    ssize_t r = read(fd, buf, len - 1);
    close(fd);
    if (r <= 0) {
        snprintf(buf, len, "?");
        return;
    }
    buf[r] = '\0';
    buf[strcspn(buf, "\n")] = '\0';
    for (char *c = buf; *c; c++) /* a name is the process's own choice: keep it printable */
        if (!isprint((unsigned char)*c))
            *c = '?';
}

/* Does process pid hold a PCM of card open? -1 when its fds cannot be read. */
static int holds(int procfd, const char *pid, int card)
{
    char path[300];
    snprintf(path, sizeof(path), "%s/fd", pid);
    int dfd = openat(procfd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd < 0)
        return errno == EACCES || errno == EPERM ? -1 : 0; /* else it has just exited */
    DIR *d = fdopendir(dfd);
    if (!d) {
        close(dfd);
        return -1;
    }
    int found = 0;
    struct dirent *e;
    while (!found && (e = readdir(d))) {
        char link[256];
        ssize_t n = readlinkat(dirfd(d), e->d_name, link, sizeof(link) - 1);
        if (n <= 0)
            continue;
        link[n] = '\0';
        int c, dev;
        char dir;
        if (sscanf(link, "/dev/snd/pcmC%dD%d%c", &c, &dev, &dir) == 3 && (dir == 'p' || dir == 'c') &&
            (card < 0 || c == card))
            found = 1;
    }
    closedir(d);
    return found;
}

static int cmp_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

int alsa_find_holders(const char *root, int card, char *buf, size_t len, int *hidden)
{
    char path[4096];
    snprintf(path, sizeof(path), "%s/proc", root);
    buf[0] = '\0';
    *hidden = 0;
    int procfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (procfd < 0)
        return 0;
    DIR *d = fdopendir(procfd);
    if (!d) {
        close(procfd);
        return 0;
    }
    long pids[64], self = (long)getpid();
    int count = 0, kept = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        char *end;
        long pid = strtol(e->d_name, &end, 10);
        if (!isdigit((unsigned char)e->d_name[0]) || *end || (root[0] == '\0' && pid == self))
            continue;
        int h = holds(dirfd(d), e->d_name, card);
        if (h < 0)
            *hidden = 1;
        if (h <= 0)
            continue;
        if (kept < 64)
            pids[kept++] = pid;
        count++;
    }
    qsort(pids, (size_t)kept, sizeof(pids[0]), cmp_long); /* the same words every time: lowest pids first */
    size_t o = 0;
    for (int i = 0; i < kept && i < 4 && o < len; i++) {
        char name[32], comm[64];
        snprintf(name, sizeof(name), "%ld", pids[i]);
        comm_of(dirfd(d), name, comm, sizeof(comm));
        o += (size_t)snprintf(buf + o, len - o, "%s%s (pid %ld)", i ? ", " : "", comm, pids[i]);
    }
    closedir(d);
    if (count > 4 && o < len)
        snprintf(buf + o, len - o, " and %d more", count - 4);
    return count;
}
