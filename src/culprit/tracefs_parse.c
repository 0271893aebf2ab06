/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Trace text into events (tracefs_parse.h). */
#include "culprit/tracefs_parse.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A decimal timestamp "SECS.FRACTION" (µs or ns digits) in ns; -1 when s is not one. */
static int64_t parse_ts(const char *s, size_t n)
{
    int64_t sec = 0, frac = 0;
    size_t i = 0, fd = 0;
    for (; i < n && isdigit((unsigned char)s[i]); i++)
        sec = sec * 10 + (s[i] - '0');
    if (!i || i >= n || s[i] != '.')
        return -1;
    for (i++; i < n && isdigit((unsigned char)s[i]) && fd < 9; i++, fd++)
        frac = frac * 10 + (s[i] - '0');
    if (i != n || !fd)
        return -1;
    for (; fd < 9; fd++)
        frac *= 10;
    return sec * 1000000000LL + frac;
}

/* The value of "key=" in fields, copied up to the first space (or up to `until` when given). */
static int field(const char *f, const char *key, const char *until, char *out, size_t len)
{
    const char *p = strstr(f, key);
    while (p && p != f && p[-1] != ' ' && p[-1] != '[')
        p = strstr(p + 1, key);
    if (!p)
        return 0;
    p += strlen(key);
    const char *e = until ? strstr(p, until) : NULL;
    size_t n = e ? (size_t)(e - p) : strcspn(p, " ]\n");
    if (n >= len)
        n = len - 1;
    memcpy(out, p, n);
    out[n] = '\0';
    return 1;
}

static int64_t field_num(const char *f, const char *key, int64_t dflt)
{
    char v[32];
    return field(f, key, NULL, v, sizeof(v)) ? strtoll(v, NULL, 10) : dflt;
}

/* x86's interrupt vectors that are not irq_handler_* lines (irq_vectors:NAME_entry/_exit), named as
 * /proc/interrupts names them; their num is -(index + 1) (both call-function vectors are CAL, as there). */
const struct tev_vector tev_vectors[] = {
    { "local_timer", "LOC", "local timer", -1 }, { "reschedule", "RES", "rescheduling", -2 },
    { "call_function", "CAL", "function call", -3 }, { "call_function_single", "CAL", "function call", -3 },
    { "irq_work", "IWI", "IRQ work", -4 }, { "x86_platform_ipi", "PLT", "platform", -5 },
    { "thermal_apic", "TRM", "thermal event", -6 }, { "error_apic", "ERR", "APIC error", -7 },
    { "spurious_apic", "SPU", "spurious", -8 }, { NULL, NULL, NULL, 0 },
};

/* NAME_entry / NAME_exit of a vector: its type and num; 0 when name is not one. */
static int vector_event(struct tev *ev, const char *name)
{
    for (const struct tev_vector *v = tev_vectors; v->event; v++) {
        size_t k = strlen(v->event);
        if (strncmp(name, v->event, k))
            continue;
        if (!strcmp(name + k, "_entry"))
            ev->type = TEV_IRQ_ENTRY;
        else if (!strcmp(name + k, "_exit"))
            ev->type = TEV_IRQ_EXIT;
        else
            continue;
        ev->num = v->num;
        snprintf(ev->name, sizeof(ev->name), "%s", v->line);
        return 1;
    }
    return 0;
}

static void fields(struct tev *ev, const char *name, const char *f)
{
    static const struct { const char *name; enum tev_type type; } map[] = {
        { "sched_switch", TEV_SWITCH }, { "sched_wakeup", TEV_WAKEUP }, { "sched_waking", TEV_WAKING },
        { "workqueue_execute_start", TEV_WQ_START }, { "workqueue_execute_end", TEV_WQ_END },
        { "irq_handler_entry", TEV_IRQ_ENTRY },
        { "irq_handler_exit", TEV_IRQ_EXIT }, { "softirq_entry", TEV_SOFTIRQ_ENTRY },
        { "softirq_exit", TEV_SOFTIRQ_EXIT }, { "cpu_idle", TEV_IDLE }, { "tracing_mark_write", TEV_MARKER },
    };
    ev->type = TEV_OTHER;
    for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
        if (!strcmp(name, map[i].name))
            ev->type = map[i].type;
    if (ev->type == TEV_OTHER && vector_event(ev, name))
        return;
    switch (ev->type) {
    case TEV_SWITCH:
        field(f, "next_comm=", " next_pid=", ev->name, sizeof(ev->name));
        ev->next_pid = (int)field_num(f, "next_pid=", -1);
        ev->next_prio = (int)field_num(f, "next_prio=", -1);
        ev->prev_pid = (int)field_num(f, "prev_pid=", -1);
        ev->prev_prio = (int)field_num(f, "prev_prio=", -1);
        field(f, "prev_state=", NULL, ev->prev_state, sizeof(ev->prev_state));
        break;
    case TEV_WAKEUP:
    case TEV_WAKING:
        ev->num = field_num(f, "pid=", -1);
        ev->next_prio = (int)field_num(f, "prio=", -1);
        ev->next_pid = (int)field_num(f, "target_cpu=", -1);
        break;
    case TEV_WQ_START:
        field(f, "function ", NULL, ev->fn, sizeof(ev->fn));
        break;
    case TEV_IRQ_ENTRY:
        field(f, "name=", NULL, ev->name, sizeof(ev->name));
        /* fall through */
    case TEV_IRQ_EXIT:
        ev->num = field_num(f, "irq=", -1);
        break;
    case TEV_SOFTIRQ_ENTRY:
    case TEV_SOFTIRQ_EXIT:
        ev->num = field_num(f, "vec=", -1);
        field(f, "action=", NULL, ev->name, sizeof(ev->name));
        break;
    case TEV_IDLE:
        ev->num = field_num(f, "state=", -1);
        break;
    case TEV_MARKER:
        snprintf(ev->name, sizeof(ev->name), "%s", f);
        break;
    default:
        break;
    }
}

int tev_parse(const char *line, size_t len, struct tev *ev)
{
    char buf[1024];
    if (len >= sizeof(buf))
        len = sizeof(buf) - 1;
    memcpy(buf, line, len);
    buf[len] = '\0';
    memset(ev, 0, sizeof(*ev));
    ev->next_pid = ev->next_prio = ev->prev_pid = ev->prev_prio = -1;
    const char *s = buf + strspn(buf, " ");
    int lost_cpu;
    long long lost;
    if (sscanf(s, "CPU:%d [LOST %lld EVENTS]", &lost_cpu, &lost) == 2) {
        ev->type = TEV_LOST, ev->cpu = lost_cpu, ev->num = lost;
        return 1;
    }
    if (*s == '#' || !*s)
        return 0;
    /* the CPU: the first " [digits]" */
    char *br = buf;
    int cpu = -1;
    char *after = NULL;
    while ((br = strstr(br, " ["))) {
        char *e;
        long v = strtol(br + 2, &e, 10);
        if (e > br + 2 && *e == ']' && isdigit((unsigned char)br[2])) {
            cpu = (int)v, after = e + 1;
            break;
        }
        br += 2;
    }
    if (cpu < 0)
        return 0;
    /* the task: "comm-pid" before it */
    char *te = br;
    while (te > buf && te[-1] == ' ')
        te--;
    char *dash = te;
    while (dash > buf && dash[-1] != '-')
        dash--;
    if (dash <= buf + 1)
        return 0;
    ev->pid = atoi(dash);
    const char *cs = buf + strspn(buf, " ");
    size_t cn = (size_t)(dash - 1 - cs);
    snprintf(ev->comm, sizeof(ev->comm), "%.*s", (int)(cn < TEV_COMM_MAX ? cn : TEV_COMM_MAX - 1), cs);
    /* flags (optional), then "SECS.FRAC:" */
    const char *p = after;
    for (int tok = 0; tok < 3; tok++) {
        p += strspn(p, " ");
        size_t n = strcspn(p, " ");
        if (n > 1 && p[n - 1] == ':' && (ev->t_ns = parse_ts(p, n - 1)) >= 0) {
            p += n;
            break;
        }
        if (tok == 2 || !n)
            return 0;
        p += n;
    }
    ev->cpu = cpu;
    p += strspn(p, " ");
    size_t nn = strcspn(p, ":");
    if (!p[nn] || nn >= 64)
        return 0;
    char name[64];
    memcpy(name, p, nn);
    name[nn] = '\0';
    p += nn + 1;
    p += strspn(p, " ");
    fields(ev, name, p);
    return 1;
}

int irq_thread_line(const char *comm, char *name, size_t len)
{
    if (strncmp(comm, "irq/", 4) || !isdigit((unsigned char)comm[4]))
        return -1;
    char *e;
    long v = strtol(comm + 4, &e, 10);
    if (name && len)
        snprintf(name, len, "%s", *e == '-' ? e + 1 : "");
    return (int)v;
}
