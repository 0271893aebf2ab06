/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rtla's version, options and timerlat top summary read from its text (tracefs_rtla.h). */
#include "culprit/tracefs_rtla.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int rtla_tracer_listed(const char *text, const char *tracer)
{
    size_t k = strlen(tracer);
    for (const char *p = text; (p = strstr(p, tracer)); p += k)
        if ((p == text || isspace((unsigned char)p[-1])) && (!p[k] || isspace((unsigned char)p[k])))
            return 1;
    return 0;
}

int rtla_version(const char *usage, char *buf, size_t len)
{
    const char *p = strstr(usage, "rtla version ");
    if (!p)
        return -1;
    p += strlen("rtla version ");
    size_t n = strcspn(p, " \t\r\n");
    if (!n)
        return -1;
    snprintf(buf, len, "%.*s", (int)n, p);
    return 0;
}

int rtla_has_auto(const char *help)
{
    return strstr(help, "-a/--auto") || strstr(help, "--auto");
}

/* Up to max numbers of one column group ("   1    0    1   22 "), "-" as null. Returns how many. */
static int numbers(const char *s, json_t **out, int max)
{
    int n = 0;
    while (*s && n < max) {
        while (*s == ' ' || *s == '\t')
            s++;
        if (!*s)
            break;
        if (*s == '-' && (!s[1] || s[1] == ' ')) {
            out[n++] = json_null();
            s++;
            continue;
        }
        char *e;
        long long v = strtoll(s, &e, 10);
        if (e == s)
            break;
        out[n++] = json_integer(v);
        s = e;
    }
    return n;
}

static void drop(json_t **v, int n)
{
    for (int i = 0; i < n; i++)
        json_decref(v[i]);
}

/* "cur min avg max" (4) or "min avg max" (3: the ALL row) into an object. */
static json_t *stats(const char *col, int four)
{
    json_t *v[4];
    int n = numbers(col, v, 4), want = four ? 4 : 3;
    if (n != want) {
        drop(v, n);
        return NULL;
    }
    json_t *o = json_object();
    int i = 0;
    if (four)
        json_object_set_new(o, "cur", v[i++]);
    json_object_set_new(o, "min", v[i++]);
    json_object_set_new(o, "avg", v[i++]);
    json_object_set_new(o, "max", v[i++]);
    return o;
}

/* The columns after the row's first '|': irq | thread (| user, ignored). */
static int row(const char *bar, int four, json_t *dst)
{
    char buf[512];
    snprintf(buf, sizeof(buf), "%s", bar + 1);
    char *b2 = strchr(buf, '|');
    if (!b2)
        return -1;
    *b2 = '\0';
    char *b3 = strchr(b2 + 1, '|');
    if (b3)
        *b3 = '\0';
    json_t *irq = stats(buf, four), *th = stats(b2 + 1, four);
    if (!irq || !th) {
        json_decref(irq);
        json_decref(th);
        return -1;
    }
    json_object_set_new(dst, "irq", irq);
    json_object_set_new(dst, "thread", th);
    return 0;
}

/* "  Label:    12.34 us (5.6 %)" into {what, us, pct?}; NULL when the line is not one. */
static json_t *aa_item(const char *line)
{
    const char *c = strchr(line, ':');
    if (!c)
        return NULL;
    double us, pct;
    char unit[8];
    const char *v = c + 1 + strspn(c + 1, " \t");
    if (!strncmp(v, "up to", 5)) /* "Previous IRQ interference:  up to  2.22 us" */
        v += 5;
    int k = sscanf(v, " %lf %7s (%lf", &us, unit, &pct);
    if (k < 2 || strcmp(unit, "us"))
        return NULL;
    const char *w = line + strspn(line, " \t");
    json_t *o = json_pack("{s:s%, s:f}", "what", w, (int)(c - w), "us", us);
    if (k == 3)
        json_object_set_new(o, "pct", json_real(pct));
    return o;
}

/* The auto-analysis line of a blocking thread: "   comm:pid    12.34 us". */
static json_t *aa_thread(const char *line)
{
    char who[128];
    double us;
    char unit[8];
    if (sscanf(line, " %127s %lf %7s", who, &us, unit) != 3 || strcmp(unit, "us"))
        return NULL;
    char *colon = strrchr(who, ':');
    if (!colon || !isdigit((unsigned char)colon[1]))
        return NULL;
    *colon = '\0';
    return json_pack("{s:s, s:i, s:f}", "comm", who, "pid", atoi(colon + 1), "us", us);
}

static void aa_line(json_t *aa, const char *line, int *want_thread)
{
    double us;
    int cpu;
    const char *idle = strstr(line, "Max timerlat IRQ latency from idle:");
    if (idle && sscanf(idle, "Max timerlat IRQ latency from idle: %lf us in cpu %d", &us, &cpu) == 2) {
        json_object_set_new(aa, "idle_max", json_pack("{s:f, s:i}", "us", us, "cpu", cpu));
        return;
    }
    json_t *t;
    if (*want_thread && (t = aa_thread(line))) {
        json_object_set_new(aa, "blocking_thread", t);
        *want_thread = 0;
        return;
    }
    json_t *item = aa_item(line);
    if (!item)
        return;
    *want_thread = !strcmp(json_string_value(json_object_get(item, "what")), "Blocking thread");
    json_array_append_new(json_object_get(aa, "items"), item);
}

json_t *rtla_parse_top(const char *text)
{
    json_t *doc = json_object(), *cpus = json_array(), *lines = json_array(), *aa = NULL;
    json_object_set_new(doc, "unit", json_string(strstr(text, "Timer Latency (ns)") ? "ns" : "us"));
    json_object_set_new(doc, "duration", json_null());
    json_object_set_new(doc, "all", json_null());
    int stopped = 0, want_thread = 0, table = 0;
    for (const char *p = text; *p;) {
        size_t n = strcspn(p, "\n");
        char line[512];
        snprintf(line, sizeof(line), "%.*s", (int)(n < sizeof(line) ? n : sizeof(line) - 1), p);
        p += n + (p[n] == '\n');
        int cpu, e;
        unsigned long long count;
        const char *bar = strchr(line, '|');
        int keep = 0;
        char dur[32];
        if (bar && strstr(line, "IRQ Timer Latency") && sscanf(line, " %*d %31s", dur) == 1) {
            const char *d = line + strspn(line, " ");
            json_object_set_new(doc, "duration", json_stringn(d, (size_t)(bar - d)));
            keep = 1;
        } else if (bar && sscanf(line, " ALL #%llu e%d", &count, &e) == 2) {
            json_t *all = json_object();
            for (; e > 0; e--)
                count *= 10;
            json_object_set_new(all, "count", json_integer((json_int_t)count));
            if (row(bar, 0, all) == 0)
                json_object_set_new(doc, "all", all);
            else
                json_decref(all);
            keep = table = 1;
        } else if (bar && sscanf(line, " %d #%llu", &cpu, &count) == 2) {
            json_t *c = json_pack("{s:i, s:I}", "cpu", cpu, "count", (json_int_t)count);
            if (row(bar, 1, c) == 0) {
                json_array_append_new(cpus, c);
                keep = table = 1;
            } else {
                json_decref(c);
            }
        } else if (strstr(line, "CPU COUNT") || strstr(line, "Timer Latency") || (bar && line[0] == '-')) {
            keep = 1;
        } else if (strstr(line, "hit stop tracing")) {
            stopped = keep = 1;
            if (sscanf(line + strspn(line, " "), "## CPU %d hit stop tracing", &cpu) == 1 && !aa) {
                aa = json_pack("{s:i, s:[], s:n, s:n}", "cpu", cpu, "items", "blocking_thread", "idle_max");
            }
        } else if (aa && line[0]) {
            aa_line(aa, line, &want_thread);
            keep = !strstr(line, "Saving trace to");
        }
        if (keep)
            json_array_append_new(lines, json_string(line));
    }
    if (!table && !aa) {
        json_decref(doc);
        json_decref(cpus);
        json_decref(lines);
        return NULL;
    }
    json_object_set_new(doc, "cpus", cpus);
    json_object_set_new(doc, "stopped", json_boolean(stopped));
    json_object_set_new(doc, "auto_analysis", aa ? aa : json_null());
    json_object_set_new(doc, "lines", lines);
    return doc;
}
