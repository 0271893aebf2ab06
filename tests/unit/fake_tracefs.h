/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A fake tracefs tree for the trace source's unit tests (test_tracefs.c, test_trace_span.c): root/ with trace and
 * instances/, and our instance's files as a kernel makes them at mkdir, its trace_pipe a file of the test's text. */
#ifndef RTJ_TEST_FAKE_TRACEFS_H
#define RTJ_TEST_FAKE_TRACEFS_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static inline void put(const char *dir, const char *rel, const char *text)
{
    char p[1024];
    snprintf(p, sizeof(p), "%s/%s", dir, rel);
    for (char *s = p + 1; (s = strchr(s, '/')); s++) {
        *s = '\0';
        mkdir(p, 0755);
        *s = '/';
    }
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static inline char *get(const char *dir, const char *rel)
{
    static char buf[4096];
    char p[1024];
    snprintf(p, sizeof(p), "%s/%s", dir, rel);
    FILE *f = fopen(p, "r");
    buf[0] = '\0';
    if (f) {
        size_t n = fread(buf, 1, sizeof(buf) - 1, f);
        buf[n] = '\0';
        fclose(f);
    }
    return buf;
}

static const char *const enables[] = {
    "events/sched/sched_switch/enable", "events/sched/sched_waking/enable", "events/irq/irq_handler_entry/enable",
    "events/irq/irq_handler_exit/enable", "events/irq/softirq_entry/enable", "events/irq/softirq_exit/enable",
    "events/workqueue/workqueue_execute_start/enable", "events/workqueue/workqueue_execute_end/enable",
};

/* root/ with trace and instances/, and our instance's files as a kernel makes them at mkdir; its trace_pipe holds
 * pipe (a file: read to its end, then nothing more, as a drained pipe). */
static inline void fake_tree(char *root, size_t len, char *inst, size_t ilen, const char *clocks, const char *pipe)
{
    snprintf(root, len, "/tmp/rtjt-tracefs.XXXXXX");
    assert_non_null(mkdtemp(root));
    put(root, "trace", "");
    snprintf(inst, ilen, "%s/instances/rtjitter-%d", root, (int)getpid());
    put(inst, "tracing_on", "1\n");
    put(inst, "trace_clock", clocks);
    put(inst, "buffer_size_kb", "7\n");
    put(inst, "trace_marker", "");
    put(inst, "trace", "");
    put(inst, "trace_pipe", pipe);
    put(inst, "events/sched/sched_waking/filter", "0\n");
    for (size_t i = 0; i < sizeof(enables) / sizeof(enables[0]); i++)
        put(inst, enables[i], "0\n");
}

static inline void rm_tree(const char *root)
{
    char cmd[1200];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
    assert_int_equal(system(cmd), 0);
}

#endif
