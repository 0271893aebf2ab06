/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Trace text into events, and one CPU's window into an rtla-style breakdown (tracefs_parse.h). */
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
        { "sched_switch", TEV_SWITCH }, { "sched_wakeup", TEV_WAKEUP }, { "irq_handler_entry", TEV_IRQ_ENTRY },
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
        break;
    case TEV_WAKEUP:
        ev->num = field_num(f, "pid=", -1);
        ev->next_prio = (int)field_num(f, "prio=", -1);
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

/* ---- the breakdown ---- */

enum ctx_kind { CTX_THREAD, CTX_SOFTIRQ, CTX_IRQ };
#define STACK_MAX 8

struct walker {
    struct trace_breakdown *b;
    int started, depth;
    struct { enum ctx_kind kind; int idx; int64_t num; } stack[STACK_MAX];
    int pid, prio;
    char comm[TEV_COMM_MAX];
    int64_t last_ns, idle_since_ns;
    /* the priorities the trace told of (a wakeup's prio, a switch's prev_prio and next_prio): a task whose own
     * switch-in was missed (seen: idle to the task, lost) still gets its priority from its wakeup or switch-out */
    struct { int pid, prio; } known[64];
    int nknown;
};

static void learn(struct walker *w, int pid, int prio)
{
    if (pid <= 0 || prio < 0)
        return;
    for (int i = 0; i < w->nknown; i++)
        if (w->known[i].pid == pid) {
            w->known[i].prio = prio;
            return;
        }
    if (w->nknown < (int)(sizeof(w->known) / sizeof(w->known[0])))
        w->known[w->nknown].pid = pid, w->known[w->nknown++].prio = prio;
}

static struct bd_irq *irq_of(struct trace_breakdown *b, int irq, const char *name)
{
    for (int i = 0; i < b->n_irq; i++)
        if (b->irq[i].irq == irq) {
            if (name && name[0] && !b->irq[i].name[0])
                snprintf(b->irq[i].name, sizeof(b->irq[i].name), "%s", name);
            return &b->irq[i];
        }
    if (b->n_irq == BD_IRQS)
        return NULL;
    struct bd_irq *q = &b->irq[b->n_irq++];
    q->irq = irq;
    snprintf(q->name, sizeof(q->name), "%s", name ? name : "");
    return q;
}

static struct bd_softirq *softirq_of(struct trace_breakdown *b, const char *name)
{
    for (int i = 0; i < b->n_softirq; i++)
        if (!strcmp(b->softirq[i].name, name))
            return &b->softirq[i];
    if (b->n_softirq == BD_SOFTIRQS)
        return NULL;
    struct bd_softirq *s = &b->softirq[b->n_softirq++];
    snprintf(s->name, sizeof(s->name), "%s", name);
    return s;
}

static struct bd_task *task_of(struct trace_breakdown *b, int pid, const char *comm, int prio)
{
    for (int i = 0; i < b->n_task; i++)
        if (b->task[i].pid == pid) {
            if (prio >= 0)
                b->task[i].prio = prio;
            return &b->task[i];
        }
    if (b->n_task == BD_TASKS)
        return NULL;
    struct bd_task *t = &b->task[b->n_task++];
    t->pid = pid, t->prio = prio;
    snprintf(t->comm, sizeof(t->comm), "%s", comm);
    return t;
}

static void credit_thread(struct walker *w, int64_t d)
{
    struct trace_breakdown *b = w->b;
    char name[TEV_COMM_MAX];
    int line;
    if (w->pid == 0) {
        b->idle_ns += d;
        return;
    }
    for (int i = 0; i < b->n_ignore; i++)
        if (b->ignore[i] == w->pid) {
            b->ignored_ns += d;
            return;
        }
    if ((line = irq_thread_line(w->comm, name, sizeof(name))) >= 0) {
        struct bd_irq *q = irq_of(b, line, name);
        if (q)
            q->thread_ns += d;
        b->irq_ns += d;
        return;
    }
    struct bd_task *t = task_of(b, w->pid, w->comm, w->prio);
    if (t)
        t->ns += d;
    b->thread_ns += d;
}

/* The time from w->last_ns to t, clipped to the window, to the context on top. */
static void credit(struct walker *w, int64_t t)
{
    struct trace_breakdown *b = w->b;
    int64_t a = w->last_ns > b->t0_ns ? w->last_ns : b->t0_ns, z = t < b->t1_ns ? t : b->t1_ns;
    if (!w->started || z <= a)
        return;
    int64_t d = z - a;
    b->covered_ns += d;
    if (!w->depth) {
        credit_thread(w, d);
    } else if (w->stack[w->depth - 1].kind == CTX_IRQ) {
        b->irq[w->stack[w->depth - 1].idx].handler_ns += d;
        b->irq_ns += d;
    } else {
        b->softirq[w->stack[w->depth - 1].idx].ns += d;
        b->softirq_ns += d;
    }
}

static void set_task(struct walker *w, int pid, const char *comm, int prio)
{
    w->pid = pid;
    w->prio = prio;
    snprintf(w->comm, sizeof(w->comm), "%s", comm);
}

static void push(struct walker *w, enum ctx_kind kind, int idx, int64_t num)
{
    if (idx < 0 || w->depth == STACK_MAX)
        return;
    w->stack[w->depth].kind = kind, w->stack[w->depth].idx = idx, w->stack[w->depth].num = num;
    w->depth++;
}

/* An exit: pop down to the matching entry; an exit whose entry is not on the stack (it was before the text) is
 * left alone. */
static void pop(struct walker *w, enum ctx_kind kind, int64_t num)
{
    for (int i = w->depth - 1; i >= 0; i--)
        if (w->stack[i].kind == kind && w->stack[i].num == num) {
            w->depth = i;
            return;
        }
}

static void idle_event(struct walker *w, const struct tev *ev)
{
    struct trace_breakdown *b = w->b;
    if (ev->num != TEV_IDLE_EXIT) {
        w->idle_since_ns = ev->t_ns;
        if (ev->num > b->idle_state_max && ev->t_ns <= b->t1_ns)
            b->idle_state_max = (int)ev->num;
        return;
    }
    if (ev->t_ns >= b->t0_ns && ev->t_ns <= b->t1_ns) {
        if (!b->idle_exits++) {
            b->idle_exit_first_ns = ev->t_ns;
            b->idle_residency_ns = w->idle_since_ns ? ev->t_ns - w->idle_since_ns : 0;
        }
    }
    w->idle_since_ns = 0;
}

static void step(struct walker *w, const struct tev *ev)
{
    struct trace_breakdown *b = w->b;
    if (ev->type == TEV_LOST) {
        b->lost += (int)ev->num;
        w->started = 0; /* the contexts are unknown until the next event */
        w->depth = 0;
        return;
    }
    if (!w->started) {
        set_task(w, ev->pid, ev->comm, -1);
        w->started = 1;
        w->last_ns = ev->t_ns;
        if (!b->first_ns)
            b->first_ns = ev->t_ns;
    }
    credit(w, ev->t_ns);
    w->last_ns = ev->t_ns;
    b->last_ns = ev->t_ns;
    /* in thread context the header names the running task: trust it over a missed switch */
    if (!w->depth && ev->type != TEV_SWITCH && ev->pid != w->pid)
        set_task(w, ev->pid, ev->comm, -1);
    struct bd_irq *q;
    struct bd_softirq *s;
    if (ev->type == TEV_SWITCH) {
        learn(w, ev->prev_pid, ev->prev_prio);
        learn(w, ev->next_pid, ev->next_prio);
    } else if (ev->type == TEV_WAKEUP) {
        learn(w, (int)ev->num, ev->next_prio);
    }
    switch (ev->type) {
    case TEV_SWITCH:
        w->depth = 0;
        set_task(w, ev->next_pid, ev->name, ev->next_prio);
        break;
    case TEV_IRQ_ENTRY:
        if ((q = irq_of(b, (int)ev->num, ev->name))) {
            if (ev->t_ns >= b->t0_ns && ev->t_ns <= b->t1_ns)
                q->count++;
            push(w, CTX_IRQ, (int)(q - b->irq), ev->num);
        }
        break;
    case TEV_IRQ_EXIT:
        pop(w, CTX_IRQ, ev->num);
        break;
    case TEV_SOFTIRQ_ENTRY:
        if ((s = softirq_of(b, ev->name[0] ? ev->name : "?"))) {
            if (ev->t_ns >= b->t0_ns && ev->t_ns <= b->t1_ns)
                s->count++;
            push(w, CTX_SOFTIRQ, (int)(s - b->softirq), ev->num);
        }
        break;
    case TEV_SOFTIRQ_EXIT:
        pop(w, CTX_SOFTIRQ, ev->num);
        break;
    case TEV_IDLE:
        idle_event(w, ev);
        break;
    default:
        break;
    }
}

void trace_breakdown_build(struct trace_breakdown *b, const char *text, size_t len, int cpu, int64_t t0_ns,
                           int64_t t1_ns, int64_t end_ns)
{
    int ignore[BD_IGNORE], n_ignore = b->n_ignore < BD_IGNORE ? b->n_ignore : BD_IGNORE;
    memcpy(ignore, b->ignore, sizeof(ignore));
    memset(b, 0, sizeof(*b));
    memcpy(b->ignore, ignore, sizeof(ignore));
    b->n_ignore = n_ignore;
    b->cpu = cpu, b->t0_ns = t0_ns, b->t1_ns = t1_ns;
    struct walker w = { .b = b };
    struct tev ev;
    for (size_t i = 0; i < len;) {
        const char *nl = memchr(text + i, '\n', len - i);
        size_t n = nl ? (size_t)(nl - (text + i)) : len - i;
        if (tev_parse(text + i, n, &ev) && ev.cpu == cpu && (ev.type == TEV_LOST || ev.t_ns <= t1_ns))
            step(&w, &ev);
        i += n + 1;
    }
    if (w.started && end_ns > w.last_ns)
        credit(&w, end_ns);
    for (int i = 0; i < b->n_task; i++)
        for (int k = 0; b->task[i].prio < 0 && k < w.nknown; k++)
            if (w.known[k].pid == b->task[i].pid)
                b->task[i].prio = w.known[k].prio;
}
