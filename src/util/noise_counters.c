/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The noise probe's counters (see noise_counters.h). Every index is checked against the length; numbers that
 * overflow saturate. */
#include "util/noise_counters.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "util/textscan.h"

/* The slot of a line called name, added when new; -1 when the table is full. */
static int line_slot(struct noise_lines *t, const char *name, int softirq)
{
    for (int i = 0; i < t->n; i++)
        if (t->softirq[i] == softirq && strcmp(t->name[i], name) == 0)
            return i;
    if (t->n >= NOISE_LINES_MAX) {
        t->overflow++;
        return -1;
    }
    snprintf(t->name[t->n], NOISE_NAME_MAX, "%s", name);
    t->softirq[t->n] = (unsigned char)softirq;
    return t->n++;
}

#define COLS_MAX 1024
int noise_parse_table(const char *b, size_t len, int softirq, struct noise_lines *t, const int *cpus, int ncpus,
                      struct noise_counts *out)
{
    if (!b || len == 0)
        return -1;
    /* The header's "CPUn" tokens: column k is CPU colcpu[k] (offline CPUs have no column). */
    int col_of[64], ncol = 0, found = 0;
    for (int i = 0; i < ncpus; i++)
        col_of[i] = -1;
    size_t end = scan_line_end(b, len, 0);
    for (size_t i = scan_skip_blank(b, end, 0); i < end && ncol < COLS_MAX; ncol++) {
        size_t j = scan_word_end(b, end, i);
        uint64_t cpu;
        if (j - i > 3 && memcmp(b + i, "CPU", 3) == 0 && scan_read_u64(b, j, i + 3, &cpu) == j)
            for (int k = 0; k < ncpus; k++)
                if ((uint64_t)cpus[k] == cpu) {
                    col_of[k] = ncol;
                    found++;
                }
        i = scan_skip_blank(b, end, j);
    }
    if (!found)
        return -1;
    int rows = 0;
    for (size_t i = end + 1; i < len; i = end + 1) {
        end = scan_line_end(b, len, i);
        size_t s = scan_skip_blank(b, end, i);
        const char *colon = memchr(b + s, ':', end - s);
        if (!colon || colon == b + s)
            continue;
        size_t after = (size_t)(colon - b) + 1;
        uint64_t v[COLS_MAX];
        int n = 0;
        size_t j = after;
        while (n < ncol) {
            size_t k = scan_skip_blank(b, end, j);
            size_t a = scan_read_u64(b, end, k, &v[n]);
            if (a == k || (a < end && b[a] != ' ' && b[a] != '\t'))
                break;
            j = a;
            n++;
        }
        if (n < ncol)
            continue; /* ERR:, MIS: (one total, not per CPU), or a cut line */
        char name[NOISE_NAME_MAX];
        size_t ll = (size_t)(colon - (b + s));
        if (ll > 12)
            ll = 12;
        int o = snprintf(name, sizeof name, "%.*s", (int)ll, b + s);
        if (!softirq && b[s] >= '0' && b[s] <= '9') {
            /* a numbered line: its device is the last word */
            size_t e = end;
            while (e > j && (b[e - 1] == ' ' || b[e - 1] == '\t' || b[e - 1] == '\r'))
                e--;
            size_t w = e;
            while (w > j && b[w - 1] != ' ' && b[w - 1] != '\t')
                w--;
            if (e > w)
                snprintf(name + o, sizeof name - (size_t)o, ":%.*s", (int)(e - w < 24 ? e - w : 24), b + w);
        }
        for (char *p = name; *p; p++)
            if ((unsigned char)*p < 0x20 || (unsigned char)*p >= 0x7f || *p == '"' || *p == '\\')
                *p = '?';
        int slot = line_slot(t, name, softirq);
        if (slot < 0)
            continue;
        for (int k = 0; k < ncpus; k++)
            if (col_of[k] >= 0)
                out[k].line[slot] = v[col_of[k]];
        rows++;
    }
    for (int k = 0; k < ncpus; k++)
        if (col_of[k] >= 0)
            out[k].ok |= softirq ? NOISE_OK_SOFTIRQ : NOISE_OK_IRQ;
    return rows;
}

int noise_parse_steal(const char *b, size_t len, const int *cpus, int ncpus, struct noise_counts *out)
{
    int found = 0;
    for (size_t i = 0, end; b && i < len; i = end + 1) {
        end = scan_line_end(b, len, i);
        if (end - i < 4 || memcmp(b + i, "cpu", 3) != 0 || b[i + 3] < '0' || b[i + 3] > '9')
            continue;
        uint64_t cpu, v = 0;
        size_t j = scan_read_u64(b, end, i + 3, &cpu);
        int k = 0;
        for (; k < 8; k++) { /* user nice system idle iowait irq softirq steal */
            size_t s = scan_skip_blank(b, end, j);
            size_t a = scan_read_u64(b, end, s, &v);
            if (a == s)
                break;
            j = a;
        }
        if (k < 8)
            continue;
        for (int c = 0; c < ncpus; c++)
            if ((uint64_t)cpus[c] == cpu) {
                out[c].steal_ticks = v;
                out[c].ok |= NOISE_OK_STAT;
                found++;
            }
    }
    return found;
}

int noise_parse_schedstat(const char *b, size_t len, struct noise_counts *c)
{
    if (!b)
        return -1;
    size_t end = scan_line_end(b, len, 0);
    uint64_t r, d;
    size_t s = scan_skip_blank(b, end, 0);
    size_t i = scan_read_u64(b, end, s, &r);
    size_t s2 = scan_skip_blank(b, end, i);
    if (i == s || s2 == i || scan_read_u64(b, end, s2, &d) == s2)
        return -1;
    c->exec_ns = r > INT64_MAX ? INT64_MAX : (int64_t)r;
    c->run_delay_ns = d > INT64_MAX ? INT64_MAX : (int64_t)d;
    c->ok |= NOISE_OK_SCHED;
    return 0;
}

int noise_parse_invol(const char *b, size_t len, struct noise_counts *c)
{
    static const char key[] = "nonvoluntary_ctxt_switches:";
    for (size_t i = 0, end; b && i < len; i = end + 1) {
        end = scan_line_end(b, len, i);
        if (end - i > sizeof key - 1 && memcmp(b + i, key, sizeof key - 1) == 0) {
            size_t s = scan_skip_blank(b, end, i + sizeof key - 1);
            if (scan_read_u64(b, end, s, &c->invol_switches) == s)
                return -1;
            c->ok |= NOISE_OK_STATUS;
            return 0;
        }
    }
    return -1;
}

/* The whole file at root+rel into r->buf (grown, at most 16 MiB). Its length, or -1. */
static long slurp(struct noise_reader *r, const char *rel)
{
    char path[512];
    snprintf(path, sizeof path, "%s%s", r->root, rel);
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (fd < 0)
        return -1;
    size_t n = 0;
    for (;;) {
        if (n + 4096 > r->cap) {
            size_t cap = r->cap ? r->cap * 2 : 65536;
            char *nb = cap <= (16u << 20) ? realloc(r->buf, cap) : NULL;
            if (!nb) {
                close(fd);
                return -1;
            }
            r->buf = nb;
            r->cap = cap;
        }
        ssize_t k = read(fd, r->buf + n, r->cap - n - 1);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            break;
        n += (size_t)k;
    }
    close(fd);
    r->buf[n] = '\0';
    return (long)n;
}

int noise_reader_open(struct noise_reader *r, const char *root, const int *cpus, int ncpus)
{
    snprintf(r->root, sizeof r->root, "%s", root ? root : "");
    r->buf = NULL;
    r->cap = 0;
    for (int i = 0; i < 64; i++)
        r->msr_fd[i] = -1;
    for (int i = 0; i < ncpus && i < 64; i++) {
        char path[320];
        snprintf(path, sizeof path, "%s/dev/cpu/%d/msr", r->root, cpus[i]);
        r->msr_fd[i] = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
        uint64_t v;
        if (r->msr_fd[i] >= 0 && pread(r->msr_fd[i], &v, sizeof v, 0x34) != (ssize_t)sizeof v) {
            close(r->msr_fd[i]); /* no such MSR (not Intel, or a hypervisor that hides it) */
            r->msr_fd[i] = -1;
        }
    }
    return 0;
}

void noise_reader_close(struct noise_reader *r, int ncpus)
{
    for (int i = 0; i < ncpus && i < 64; i++)
        if (r->msr_fd[i] >= 0)
            close(r->msr_fd[i]);
    free(r->buf);
    r->buf = NULL;
    r->cap = 0;
}

int noise_read(struct noise_reader *r, struct noise_lines *t, const int *cpus, const int *tids, int ncpus,
               struct noise_counts *out)
{
    for (int i = 0; i < ncpus; i++) {
        out[i].ok = 0;
        out[i].smi = -1;
    }
    long n;
    if ((n = slurp(r, "/proc/interrupts")) > 0)
        noise_parse_table(r->buf, (size_t)n, 0, t, cpus, ncpus, out);
    if ((n = slurp(r, "/proc/softirqs")) > 0)
        noise_parse_table(r->buf, (size_t)n, 1, t, cpus, ncpus, out);
    if ((n = slurp(r, "/proc/stat")) > 0)
        noise_parse_steal(r->buf, (size_t)n, cpus, ncpus, out);
    for (int i = 0; i < ncpus; i++) {
        char rel[96];
        if (tids[i] > 0) {
            snprintf(rel, sizeof rel, "/proc/self/task/%d/schedstat", tids[i]);
            if ((n = slurp(r, rel)) > 0)
                noise_parse_schedstat(r->buf, (size_t)n, &out[i]);
            snprintf(rel, sizeof rel, "/proc/self/task/%d/status", tids[i]);
            if ((n = slurp(r, rel)) > 0)
                noise_parse_invol(r->buf, (size_t)n, &out[i]);
        }
        uint64_t v;
        if (i < 64 && r->msr_fd[i] >= 0 && pread(r->msr_fd[i], &v, sizeof v, 0x34) == (ssize_t)sizeof v)
            out[i].smi = (int64_t)(v & 0xffffffffu);
    }
    return 0;
}
