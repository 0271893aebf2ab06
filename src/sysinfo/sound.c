/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The sound part of the system identity: the cards of /proc/asound/cards, the interrupt lines that serve
 * each (from /proc/interrupts and sysfs), the threads of those interrupts with their real-time priority (to
 * see whether rtirq raised them), and the audio servers running. Main thread, once per run. */
#include "sysinfo/sysinfo_internal.h"
#include "util/utf8.h"
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Reads /proc/interrupts: numbered lines only ("NMI", "LOC" are not device interrupts). */
int sysinfo_interrupts_read(const char *root, struct irq_line **out)
{
    FILE *f = sysinfo_open(root, "/proc/interrupts");
    *out = NULL;
    if (!f)
        return -errno;
    char *line = NULL;
    size_t cap = 0;
    int ncpu = 0, n = 0, alloc = 0;
    struct irq_line *v = NULL;
    char *save = NULL;
    if (getline(&line, &cap, f) > 0)
        for (char *t = strtok_r(line, " \t\n", &save); t; t = strtok_r(NULL, " \t\n", &save))
            ncpu++;
    while (getline(&line, &cap, f) > 0) {
        char *p = line, *end;
        while (isspace((unsigned char)*p))
            p++;
        long irq = strtol(p, &end, 10);
        if (end == p || *end != ':')
            continue;
        p = end + 1;
        long long count = 0;
        for (int c = 0; c < ncpu; c++) {
            long long x = strtoll(p, &end, 10);
            if (end == p)
                break;
            count += x;
            p = end;
        }
        /* Then the chip, the hardware IRQ and trigger, and the actions; the actions are the last words,
         * comma separated ("snd_hda_intel:card0", "xhci_hcd", "i801_smbus, snd_hda_intel:card1"). */
        line[strcspn(line, "\n")] = '\0';
        if (n == alloc) {
            alloc = alloc ? alloc * 2 : 64;
            struct irq_line *nv = realloc(v, (size_t)alloc * sizeof(*v));
            if (!nv)
                break;
            v = nv;
        }
        v[n].irq = (int)irq;
        v[n].count = count;
        snprintf(v[n].actions, sizeof(v[n].actions), "%s", p);
        n++;
    }
    free(line);
    fclose(f);
    *out = v;
    return n;
}

/* The handler names of an interrupt line: what follows the chip and trigger columns. Those are separated
 * by runs of spaces; the actions are the last column, so take what follows the last run of 2+ spaces. */
const char *sysinfo_irq_actions(const char *s)
{
    const char *last = s;
    for (const char *p = s; *p; p++)
        if (p[0] == ' ' && p[1] == ' ') {
            while (*p == ' ')
                p++;
            if (*p)
                last = p;
            p--;
        }
    while (*last == ' ')
        last++;
    return last;
}

struct irq_thread {
    int irq, pid;
    char comm[64];
    int rt_priority;
    int policy;
};

/* Walks /proc once: threaded interrupt handlers ("irq/NN-name") and audio servers. */
static void proc_scan(const char *root, struct irq_thread **threads, int *nthreads, json_t *servers)
{
    static const char *const server_names[] = { "jackd", "jackdbus", "pipewire", "pipewire-pulse", "wireplumber",
                                                "pulseaudio", NULL };
    char dir[PATH_MAX];
    *threads = NULL;
    *nthreads = 0;
    if (sysinfo_rooted(root, "/proc", dir, sizeof(dir)) < 0)
        return;
    DIR *d = opendir(dir);
    if (!d)
        return;
    int alloc = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        if (!isdigit((unsigned char)de->d_name[0]))
            continue;
        char p[PATH_MAX], comm[64];
        snprintf(p, sizeof(p), "/proc/%.20s/comm", de->d_name);
        if (sysinfo_read_text(root, p, comm, sizeof(comm)) < 0)
            continue;
        int pid = atoi(de->d_name);
        if (strncmp(comm, "irq/", 4) == 0 && isdigit((unsigned char)comm[4])) {
            char stat[1024];
            snprintf(p, sizeof(p), "/proc/%.20s/stat", de->d_name);
            if (sysinfo_read_text(root, p, stat, sizeof(stat)) < 0)
                continue;
            /* Fields after the ")" closing comm start at field 3 (state); rt_priority is field 40,
             * policy 41 (proc(5)). */
            char *s = strrchr(stat, ')');
            if (!s)
                continue;
            int field = 2, rtprio = -1, policy = -1;
            char *save = NULL;
            for (char *t = strtok_r(s + 1, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
                field++;
                if (field == 40)
                    rtprio = atoi(t);
                else if (field == 41)
                    policy = atoi(t);
            }
            if (*nthreads == alloc) {
                alloc = alloc ? alloc * 2 : 32;
                struct irq_thread *nt = realloc(*threads, (size_t)alloc * sizeof(**threads));
                if (!nt)
                    break;
                *threads = nt;
            }
            struct irq_thread *it = &(*threads)[(*nthreads)++];
            it->irq = atoi(comm + 4);
            it->pid = pid;
            snprintf(it->comm, sizeof(it->comm), "%s", comm);
            it->rt_priority = rtprio;
            it->policy = policy;
            continue;
        }
        for (const char *const *sn = server_names; *sn; sn++)
            if (strcmp(comm, *sn) == 0) {
                char args[1024];
                snprintf(p, sizeof(p), "/proc/%.20s/cmdline", de->d_name);
                FILE *f = sysinfo_open(root, p);
                size_t n = 0;
                if (f) {
                    n = fread(args, 1, sizeof(args) - 1, f);
                    fclose(f);
                }
                /* NUL-separated arguments: shown with spaces. */
                for (size_t i = 0; i < n; i++)
                    if (args[i] == '\0')
                        args[i] = ' ';
                while (n > 0 && args[n - 1] == ' ')
                    n--;
                args[n] = '\0';
                /* Kept in pid order, so that two reports of one system list them alike. */
                size_t at = json_array_size(servers);
                while (at > 0 && json_integer_value(json_object_get(json_array_get(servers, at - 1), "pid")) > pid)
                    at--;
                json_array_insert_new(servers, at, json_pack("{s:s, s:i, s:s}", "name", *sn, "pid", pid,
                                                             "cmdline", args));
                break;
            }
    }
    closedir(d);
}

static json_t *irq_json(const struct irq_line *l, const struct irq_thread *th, int nth)
{
    const char *actions = sysinfo_irq_actions(l->actions);
    /* Several handlers on one line: the card waits while the others' handlers run. */
    json_t *o = json_pack("{s:i, s:s, s:b, s:I}", "irq", l->irq, "actions", actions, "shared",
                          strchr(actions, ',') != NULL, "count", (json_int_t)l->count);
    json_t *threads = json_array();
    for (int i = 0; i < nth; i++)
        if (th[i].irq == l->irq)
            json_array_append_new(threads, json_pack("{s:s, s:i, s:i, s:s}", "name", th[i].comm, "pid", th[i].pid,
                "rt_priority", th[i].rt_priority, "policy",
                th[i].policy == 1 ? "SCHED_FIFO" : th[i].policy == 2 ? "SCHED_RR"
                : th[i].policy == 0 ? "SCHED_OTHER" : "other"));
    json_object_set_new(o, "threads", threads);
    return o;
}

/* Finds the interrupt lines of one card: an HDA card names itself in the handler ("snd_hda_intel:card0");
 * older kernels give "irq N" in the long name; a USB card shares the interrupts of its host controller,
 * found from the PCI address in "usb-0000:00:14.0-2". */
static void card_irqs(const char *root, int index, const char *longname,
                      const struct irq_line *lines, int nlines, const struct irq_thread *th, int nth, json_t *irqs)
{
    char tag[32];
    int found = 0;
    snprintf(tag, sizeof(tag), ":card%d", index);
    for (int i = 0; i < nlines; i++) {
        const char *a = sysinfo_irq_actions(lines[i].actions), *p = strstr(a, tag);
        if (p && !isdigit((unsigned char)p[strlen(tag)])) {
            json_array_append_new(irqs, irq_json(&lines[i], th, nth));
            found = 1;
        }
    }
    if (found)
        return;
    const char *ir = strstr(longname, " irq ");
    if (ir) {
        int irq = atoi(ir + 5);
        for (int i = 0; i < nlines; i++)
            if (lines[i].irq == irq) {
                json_array_append_new(irqs, irq_json(&lines[i], th, nth));
                return;
            }
    }
    const char *usb = strstr(longname, " at usb-");
    if (!usb)
        return;
    char pci[32];
    size_t n = 0;
    for (const char *p = usb + 8; *p && *p != ',' && n + 1 < sizeof(pci); p++)
        pci[n++] = *p;
    pci[n] = '\0';
    char *dash = strrchr(pci, '-'); /* "0000:00:14.0-2": the port follows the last dash */
    if (dash)
        *dash = '\0';
    char p[PATH_MAX], full[PATH_MAX];
    snprintf(p, sizeof(p), "/sys/bus/pci/devices/%s/msi_irqs", pci);
    DIR *d = NULL;
    if (sysinfo_rooted(root, p, full, sizeof(full)) == 0)
        d = opendir(full);
    if (d) {
        struct dirent *de;
        while ((de = readdir(d)))
            if (isdigit((unsigned char)de->d_name[0])) {
                int irq = atoi(de->d_name);
                for (int i = 0; i < nlines; i++)
                    if (lines[i].irq == irq) {
                        json_array_append_new(irqs, irq_json(&lines[i], th, nth));
                        found = 1;
                    }
            }
        closedir(d);
    }
    if (found)
        return;
    long long irq;
    snprintf(p, sizeof(p), "/sys/bus/pci/devices/%s/irq", pci);
    if (sysinfo_read_ll(root, p, &irq) == 0)
        for (int i = 0; i < nlines; i++)
            if (lines[i].irq == irq)
                json_array_append_new(irqs, irq_json(&lines[i], th, nth));
}

static json_t *sound_cards(const char *root, const struct irq_thread *th, int nth)
{
    json_t *cards = json_array();
    FILE *f = sysinfo_open(root, "/proc/asound/cards");
    if (!f)
        return json_pack("{s:o, s:o}", "cards", cards, "asound", json_false());
    struct irq_line *lines;
    int nlines = sysinfo_interrupts_read(root, &lines);
    if (nlines < 0)
        nlines = 0;
    char line[512];
    json_t *card = NULL;
    while (fgets(line, sizeof(line), f)) {
        line[strcspn(line, "\n")] = '\0';
        int index, off = 0;
        char id[64], rest[400];
        /* " 0 [PCH            ]: HDA-Intel - HDA Intel PCH" then an indented long name line. */
        if (sscanf(line, " %d [%63[^]]]: %n", &index, id, &off) == 2 && off > 0) {
            snprintf(rest, sizeof(rest), "%s", line + off);
            char *e = id + strlen(id);
            while (e > id && e[-1] == ' ')
                *--e = '\0';
            char *sep = strstr(rest, " - ");
            const char *name = sep ? sep + 3 : rest;
            if (sep)
                *sep = '\0';
            card = json_pack("{s:i, s:s, s:s, s:s, s:s}", "index", index, "id", id, "driver", rest, "name", name,
                             "long_name", "");
            json_array_append_new(cards, card);
        } else if (card && line[0] == ' ') {
            const char *p = line;
            while (*p == ' ')
                p++;
            json_object_set_new(card, "long_name", utf8_json_string(p));
            json_t *irqs = json_array();
            /* The index comes from the card's own line: sscanf above may have clobbered `index`. */
            card_irqs(root, (int)json_integer_value(json_object_get(card, "index")), p, lines, nlines, th, nth,
                      irqs);
            json_object_set_new(card, "irqs", irqs);
            card = NULL;
        }
    }
    fclose(f);
    free(lines);
    return json_pack("{s:o, s:o}", "cards", cards, "asound", json_true());
}

void sysinfo_sound(const char *root, json_t **sound, json_t **servers)
{
    struct irq_thread *th;
    int nth;
    *servers = json_array();
    proc_scan(root, &th, &nth, *servers);
    *sound = sound_cards(root, th, nth);
    free(th);
}
