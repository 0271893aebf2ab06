/* SPDX-License-Identifier: GPL-2.0-or-later */
/* jack2's server registry (jackreg.h). */
#include "util/jackreg.h"
#include "util/shquote.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sem.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* jack2's common/shm.h: jack_shm_header_t is magic (u32), protocol (u16), type, size, hdr_len, entry_len (i32
 * each), then MAX_SERVERS (8) jack_shm_server_t of a pid_t and a name of JACK_SERVER_NAME_SIZE + 1 (257) bytes,
 * 264 with padding. hdr_len is sizeof(jack_shm_header_t): checked, so another layout is never written. */
#define REG_MAGIC 0x4A41434Bu /* "JACK" */
#define REG_SERVERS_AT 24
#define REG_ENTRY 264
#define REG_HDR_LEN (REG_SERVERS_AT + JACKREG_SLOTS * REG_ENTRY)
#define REG_SEM_KEY 0x282929 /* JACK_SEMAPHORE_KEY: jack2's registry lock */

static int pid_alive_here(int pid, void *arg)
{
    (void)arg;
    return pid > 0 && (kill(pid, 0) == 0 || errno == EPERM);
}

static int pid_alive_under(int pid, void *arg)
{
    char p[4200];
    struct stat st;
    snprintf(p, sizeof(p), "%s/proc/%d", (const char *)arg, pid);
    return pid > 0 && stat(p, &st) == 0;
}

int jackreg_rtjitter_pid(const char *name)
{
    if (strncmp(name, "rtjitter-", 9) != 0)
        return 0;
    const char *p = name + 9;
    long v = 0;
    int digits = 0;
    for (; *p >= '0' && *p <= '9' && digits < 8; p++, digits++)
        v = v * 10 + (*p - '0');
    if (!digits || v <= 0 || v > 4194304 || *p != '-')
        return 0;
    p++;
    size_t hex = strspn(p, "0123456789abcdef");
    if (hex == 8 && p[8] == '-')
        p += 9; /* the random part */
    if (!*p || strspn(p, "abcdefghijklmnopqrstuvwxyz") != strlen(p))
        return 0;
    return (int)v;
}

/* Entry i's "jack-UID:NAME:" into s (uid -1 and name "?" when it is not that). */
static void entry_name(const unsigned char *e, struct jackreg_slot *s)
{
    char text[258];
    memcpy(text, e + 4, 257);
    text[257] = '\0';
    s->uid = -1;
    snprintf(s->name, sizeof(s->name), "?");
    char *end;
    if (strncmp(text, "jack-", 5) != 0)
        return;
    long uid = strtol(text + 5, &end, 10);
    if (end == text + 5 || *end != ':' || uid < 0)
        return;
    const char *n = end + 1;
    size_t len = strcspn(n, ":");
    if (n[len] != ':' || len == 0 || len >= sizeof(s->name))
        return;
    s->uid = (int)uid;
    memcpy(s->name, n, len);
    s->name[len] = '\0';
}

static int header_ok(const unsigned char *b, size_t len)
{
    uint32_t magic;
    int32_t hdr_len;
    if (len < REG_HDR_LEN)
        return 0;
    memcpy(&magic, b, sizeof(magic));
    memcpy(&hdr_len, b + 16, sizeof(hdr_len));
    return magic == REG_MAGIC && hdr_len == REG_HDR_LEN;
}

int jackreg_parse(const void *buf, size_t len, int (*alive)(int pid, void *arg), void *arg, struct jackreg *r)
{
    const unsigned char *b = buf;
    memset(r, 0, sizeof(*r));
    if (!header_ok(b, len))
        return -EINVAL;
    if (!alive)
        alive = pid_alive_here;
    for (int i = 0; i < JACKREG_SLOTS; i++) {
        const unsigned char *e = b + REG_SERVERS_AT + (size_t)i * REG_ENTRY;
        int32_t pid;
        memcpy(&pid, e, sizeof(pid));
        if (pid == 0)
            continue;
        struct jackreg_slot *s = &r->slot[r->held++];
        s->index = i;
        s->pid = pid;
        entry_name(e, s);
        s->alive = alive(pid, arg);
        s->rtj_pid = jackreg_rtjitter_pid(s->name);
        s->rtj_alive = s->rtj_pid > 0 && alive(s->rtj_pid, arg);
        r->dead += !s->alive;
    }
    return 0;
}

int jackreg_read(const char *root, struct jackreg *r)
{
    char path[4200];
    memset(r, 0, sizeof(*r));
    snprintf(path, sizeof(path), "%s%s", root ? root : "", JACKREG_PATH);
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    unsigned char b[REG_HDR_LEN];
    struct stat st;
    ssize_t n = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? read(fd, b, sizeof(b)) : -1;
    int e = n < 0 ? (errno ? -errno : -EINVAL) : 0;
    close(fd);
    if (e)
        return e;
    if (root && root[0])
        return jackreg_parse(b, (size_t)n, pid_alive_under, (void *)root, r);
    return jackreg_parse(b, (size_t)n, NULL, NULL, r);
}

/* Whether jackreg_reclaim may free slot s: an rtjitter private server's of this user (any as root), the server
 * dead and its rtjitter dead or this very process. */
static int ours_and_dead(const struct jackreg_slot *s)
{
    return !s->alive && s->rtj_pid > 0 && (!s->rtj_alive || s->rtj_pid == (int)getpid()) &&
           (s->uid == (int)getuid() || geteuid() == 0);
}

int jackreg_reclaim(const char *path)
{
    int fd = open(path ? path : JACKREG_PATH, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    struct stat st;
    if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size < REG_HDR_LEN) {
        close(fd);
        return -EINVAL;
    }
    unsigned char *m = mmap(NULL, REG_HDR_LEN, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (m == MAP_FAILED)
        return -errno;
    struct jackreg r;
    int e = jackreg_parse(m, REG_HDR_LEN, NULL, NULL, &r), todo = 0, freed = 0;
    for (int i = 0; !e && i < r.held; i++)
        todo += ours_and_dead(&r.slot[i]);
    int semid = todo ? semget(REG_SEM_KEY, 0, 0) : -1;
    if (todo && semid < 0)
        e = -errno;
    if (todo && !e) {
        struct sembuf op = { .sem_num = 0, .sem_op = -1, .sem_flg = SEM_UNDO };
        struct timespec wait = { 2, 0 };
        while (semtimedop(semid, &op, 1, &wait) < 0) {
            if (errno != EINTR) {
                e = errno == EAGAIN ? -ETIMEDOUT : -errno;
                break;
            }
        }
    }
    if (todo && !e) {
        /* under jack2's lock: read again, and free only what is still a dead rtjitter server's */
        e = jackreg_parse(m, REG_HDR_LEN, NULL, NULL, &r);
        for (int i = 0; !e && i < r.held; i++) {
            if (!ours_and_dead(&r.slot[i]))
                continue;
            memset(m + REG_SERVERS_AT + (size_t)r.slot[i].index * REG_ENTRY, 0, REG_ENTRY);
            freed++;
        }
        struct sembuf op = { .sem_num = 0, .sem_op = 1, .sem_flg = SEM_UNDO };
        semop(semid, &op, 1);
    }
    munmap(m, REG_HDR_LEN);
    return e ? e : freed;
}

__attribute__((format(printf, 4, 5))) static size_t put(char *out, size_t n, size_t o, const char *fmt, ...)
{
    if (o >= n)
        return o;
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(out + o, n - o, fmt, ap);
    va_end(ap);
    return w < 0 ? o : o + (size_t)w;
}

void jackreg_describe(const struct jackreg *r, char *out, size_t n)
{
    size_t o = (size_t)snprintf(out, n, "%d of %d held", r->held, JACKREG_SLOTS);
    for (int pass = 0; pass < 2; pass++) {
        int first = 1;
        for (int i = 0; i < r->held; i++) {
            const struct jackreg_slot *s = &r->slot[i];
            if (s->alive != pass)
                continue;
            o = put(out, n, o, "%s%s (uid %d, pid %d)", first ? (pass ? "; live " : ": dead ") : ", ", s->name,
                    s->uid, s->pid);
            first = 0;
        }
        if (!pass && first && r->held)
            o = put(out, n, o, ": none dead");
    }
}

static int plain_name(const char *s)
{
    return s[0] && s[0] != '-' && strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") ==
                                      strlen(s);
}

void jackreg_free_command(const struct jackreg *r, int my_uid, char *out, size_t n)
{
    size_t o = 0;
    int skipped = 0, done[JACKREG_SLOTS] = { 0 };
    out[0] = '\0';
    for (int i = 0; i < r->held; i++) {
        const struct jackreg_slot *s = &r->slot[i];
        if (s->alive || done[i] || s->uid < 0)
            continue;
        /* one loop per user: that user's dead names */
        char names[600] = "";
        size_t k = 0;
        for (int j = i; j < r->held; j++) {
            const struct jackreg_slot *t = &r->slot[j];
            if (t->alive || t->uid != s->uid || done[j])
                continue;
            done[j] = 1;
            if (!plain_name(t->name)) {
                skipped++;
                continue;
            }
            int w = snprintf(names + k, sizeof(names) - k, "%s%s", k ? " " : "", t->name);
            k += w > 0 && (size_t)w < sizeof(names) - k ? (size_t)w : 0;
        }
        if (!k)
            continue;
        static const char loop[] = "for n in %s; do jackd -n \"$n\" -d dummy >/dev/null 2>&1 & "
                                   "jack_wait -s \"$n\" -w -t 10 >/dev/null; kill $!; wait $!; done";
        char cmd[800];
        snprintf(cmd, sizeof(cmd), loop, names);
        if (o)
            o = put(out, n, o, "; ");
        if (s->uid == my_uid) {
            o = put(out, n, o, "%s", cmd);
        } else {
            char q[1000];
            if (sh_quote(cmd, q, sizeof(q)) < 0)
                continue;
            o = put(out, n, o, "%ssetpriv --reuid=%d --regid=%d --clear-groups sh -c %s", my_uid == 0 ? "" : "sudo ",
                    s->uid, s->uid, q);
        }
    }
    if (skipped && o)
        o = put(out, n, o, " (%d name%s with other characters left out)", skipped, skipped > 1 ? "s" : "");
    if (o >= n)
        out[0] = '\0'; /* never a command cut short: the caller says what to do instead */
}
