/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The checks table (src/checks) on the fake system trees of tests/fixtures/sys-* (written by
 * tests/fixtures/make-fixtures.py, whose content is the truth here): every check in the table on every tree
 * gives a status and a reason, SKIPs where what it reads is missing, never claims more than its level; and
 * per tree, the statuses, the values in the why and the fixes that tree calls for. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "checks/checks.h"
#include "sysinfo/sysinfo.h"
#include "util/wrap.h"

/* Every tree, and a root that does not exist at all. */
static const char *const fixtures[] = {
    "sys-generic", "sys-lowlatency", "sys-rt", "sys-dynamic-full", "sys-dynamic-debugfs", "sys-noconfig",
    "sys-highres-off", "sys-pending",
    /* the last two have (almost) nothing to read */
    "sys-bare", "/nonexistent/rtjitter-root",
};
#define NFIXTURES (sizeof(fixtures) / sizeof(fixtures[0]))
#define MAXCHECKS 64

static void fixture_root(const char *fixture, char *root, size_t len)
{
    const char *top = getenv("RTJ_TOP");
    if (fixture[0] == '/')
        snprintf(root, len, "%s", fixture);
    else
        snprintf(root, len, "%s/tests/fixtures/%s", top ? top : ".", fixture);
}

static json_t *identity(const char *fixture)
{
    char root[4096];
    fixture_root(fixture, root, sizeof(root));
    json_t *sys = sysinfo_collect(root);
    assert_non_null(sys);
    return sys;
}

/* The table run on the tree of `fixture`, read through its root prefix. */
static int run_on(const char *fixture, struct check_result *r)
{
    char root[4096];
    fixture_root(fixture, root, sizeof(root));
    int n = checks_run(NULL, root, r, MAXCHECKS);
    assert_int_equal(n, (int)checks_count());
    return n;
}

static const struct check_result *find(const struct check_result *r, int n, const char *id)
{
    for (int i = 0; i < n; i++)
        if (strcmp(r[i].check->id, id) == 0)
            return &r[i];
    fail_msg("no check %s in the table", id);
    return NULL;
}

static const struct check *by_id(const char *id)
{
    for (size_t i = 0; i < checks_count(); i++)
        if (strcmp(checks_get(i)->id, id) == 0)
            return checks_get(i);
    fail_msg("no check %s in the table", id);
    return NULL;
}

#define CONTAINS(hay, needle) do { \
        if (!strstr((hay), (needle))) fail_msg("\"%s\" not in \"%s\"", (needle), (hay)); \
    } while (0)

/* The check `id` gave `status`, and its why contains `value` (the value read from the tree). */
static const struct check_result *expect(const struct check_result *r, int n, const char *id,
                                         enum check_status status, const char *value)
{
    const struct check_result *x = find(r, n, id);
    if (x->status != status)
        fail_msg("%s: status %s, want %s (why: %s)", id, check_status_name(x->status), check_status_name(status),
                 x->why);
    CONTAINS(x->why, value);
    return x;
}

static void test_table(void **state)
{
    (void)state;
    size_t n = checks_count();
    assert_true(n >= 30 && n <= MAXCHECKS);
    assert_null(checks_get(n));
    char verdict_order[400] = "";
    size_t groups[CHECK_NGROUPS] = { 0 };
    for (size_t i = 0; i < n; i++) {
        const struct check *c = checks_get(i);
        assert_non_null(c);
        assert_non_null(c->eval);
        assert_true(c->id && c->id[0] && c->title && c->title[0] && c->reads && c->reads[0]);
        /* OK as the worst: a check that only says what is in force (mitigations, the tick). */
        assert_true(c->level == CHECK_OK || c->level == CHECK_WARN || c->level == CHECK_FAIL);
        assert_true((unsigned)c->group < CHECK_NGROUPS);
        assert_string_not_equal(check_group_name(c->group), "?");
        groups[c->group]++;
        for (size_t j = 0; j < i; j++)
            if (strcmp(checks_get(j)->id, c->id) == 0)
                fail_msg("two checks are called %s", c->id);
        if (c->matters != CHECK_MATTERS_CHECKLIST) {
            strcat(verdict_order, " ");
            strcat(verdict_order, c->id);
        }
    }
    /* The verdict's order of advice: the machine (governor, interrupts, sysctls), then boot options. */
    assert_string_equal(verdict_order, " governor rtirq shared_irq swappiness rt_throttling threadirqs preempt "
                        "high_res_timers");
    /* The privileges come first in the table, and every group of the checklist has checks. */
    assert_int_equal(checks_get(0)->group, CHECK_PRIVILEGES);
    for (int g = 0; g < CHECK_NGROUPS; g++)
        assert_true(groups[g] >= 3);
}

/* Whether s is one line: no control character but the command marks of util/wrap.h, which pair up (on, off). */
static int one_line_marked(const char *s)
{
    int on = 0;
    for (const char *p = s; *p; p++) {
        if (*p == WRAP_CMD_ON[0] || *p == WRAP_CMD_OFF[0]) {
            if ((*p == WRAP_CMD_ON[0]) == on)
                return 0;
            on = !on;
        } else if ((unsigned char)*p < 0x20) {
            return 0;
        }
    }
    return !on;
}

/* What every result must be, whatever the tree. */
static void sound_result(const char *fixture, const struct check_result *x)
{
    const struct check *c = x->check;
    if (x->status != CHECK_SKIP && x->status != CHECK_OK && x->status != CHECK_WARN && x->status != CHECK_FAIL)
        fail_msg("%s on %s: no status", c->id, fixture);
    if (x->status != CHECK_SKIP && x->status > c->level)
        fail_msg("%s on %s: %s, worse than its level", c->id, fixture, check_status_name(x->status));
    if (!x->why[0] || strcmp(x->why, "the check gave no answer") == 0)
        fail_msg("%s on %s: no reason given", c->id, fixture);
    if (!one_line_marked(x->why))
        fail_msg("%s on %s: the why is not one line (or its command marks do not pair up)", c->id, fixture);
    int bad = x->status == CHECK_WARN || x->status == CHECK_FAIL, verdict = c->matters != CHECK_MATTERS_CHECKLIST;
    if (bad && (!x->fix[0] || (verdict && !x->advice[0])))
        fail_msg("%s on %s: %s without a fix or advice", c->id, fixture, check_status_name(x->status));
    if (!bad && (x->fix[0] || x->advice[0] || x->hint[0]))
        fail_msg("%s on %s: a fix for a %s", c->id, fixture, check_status_name(x->status));
    if (!verdict && (x->advice[0] || x->hint[0]))
        fail_msg("%s on %s: advice from a checklist-only check", c->id, fixture);
    if (!one_line_marked(x->fix))
        fail_msg("%s on %s: the fix is not one line (or its command marks do not pair up)", c->id, fixture);
}

static void test_every_check_on_every_tree(void **state)
{
    (void)state;
    struct check_result r[MAXCHECKS];
    for (size_t f = 0; f < NFIXTURES; f++) {
        int n = run_on(fixtures[f], r);
        for (int i = 0; i < n; i++) {
            assert_ptr_equal(r[i].check, checks_get((size_t)i));
            sound_result(fixtures[f], &r[i]);
        }
        /* Rendered to JSON: one entry per check, with the fields a checklist shows. */
        json_t *j = checks_json(r, (size_t)n);
        assert_non_null(j);
        assert_int_equal(json_array_size(j), n);
        for (int i = 0; i < n; i++) {
            const json_t *e = json_array_get(j, (size_t)i);
            assert_string_equal(json_string_value(json_object_get(e, "id")), r[i].check->id);
            assert_string_equal(json_string_value(json_object_get(e, "status")), check_status_name(r[i].status));
            char why[sizeof(r[i].why)];
            snprintf(why, sizeof(why), "%s", r[i].why);
            assert_string_equal(json_string_value(json_object_get(e, "why")), wrap_unmark(why));
            assert_true(json_is_string(json_object_get(e, "title")) && json_is_string(json_object_get(e, "reads")));
            assert_true(json_is_string(json_object_get(e, "level")));
            assert_true(r[i].fix[0] ? json_is_string(json_object_get(e, "fix")) : json_is_null(json_object_get(e, "fix")));
            char fix[sizeof(r[i].fix)];
            snprintf(fix, sizeof(fix), "%s", r[i].fix);
            if (fix[0]) /* the fix without its marks: no control character reaches the document */
                assert_string_equal(json_string_value(json_object_get(e, "fix")), wrap_unmark(fix));
        }
        json_decref(j);
    }
}

static void test_missing_files_skip(void **state)
{
    (void)state;
    struct check_result r[MAXCHECKS];
    /* sys-bare has no /proc/cmdline, /proc/meminfo, /proc/sys/vm, /proc/asound nor /sys; the other root has
     * nothing: every check says it cannot judge, and why. */
    for (size_t f = NFIXTURES - 2; f < NFIXTURES; f++) {
        int n = run_on(fixtures[f], r);
        for (int i = 0; i < n; i++)
            if (r[i].status != CHECK_SKIP)
                fail_msg("%s on %s: %s (%s), want skip", r[i].check->id, fixtures[f],
                         check_status_name(r[i].status), r[i].why);
    }
    int n = run_on("sys-bare", r);
    expect(r, n, "threadirqs", CHECK_SKIP, "/proc/cmdline could not be read");
    expect(r, n, "swappiness", CHECK_SKIP, "/proc/sys/vm/swappiness");
    expect(r, n, "rt_throttling", CHECK_SKIP, "/proc/sys/kernel/sched_rt_runtime_us");
    expect(r, n, "governor", CHECK_SKIP, "scaling_governor");
    expect(r, n, "rtirq", CHECK_SKIP, "no /proc/asound/cards");
    expect(r, n, "preempt", CHECK_SKIP, "unknown");
    /* ... and what the checklist reads beyond a report's identity, and the process (not probed here). */
    expect(r, n, "rtprio", CHECK_SKIP, "this process was not probed");
    expect(r, n, "limits_files", CHECK_SKIP, "no user to judge");
    expect(r, n, "filesystems", CHECK_SKIP, "/proc/mounts could not be read");
    expect(r, n, "boot_setup", CHECK_SKIP, "no /etc/default/grub");
    expect(r, n, "usb_autosuspend", CHECK_SKIP, "/sys/bus/usb/devices could not be read");
    expect(r, n, "audio_stack", CHECK_SKIP, "what is installed is unknown");
    expect(r, n, "smt", CHECK_SKIP, "smt/active could not be read");
    /* No identity and no root: nothing to judge. */
    assert_int_equal(checks_run(NULL, NULL, r, MAXCHECKS), (int)checks_count());
    for (size_t i = 0; i < checks_count(); i++)
        assert_int_equal(r[i].status, CHECK_SKIP);
}

static void test_generic(void **state)
{
    (void)state;
    struct check_result r[MAXCHECKS];
    int n = run_on("sys-generic", r);
    /* Ubuntu generic: PREEMPT_VOLUNTARY, no threadirqs, powersave, throttling on, swappiness 60 with swap. */
    const struct check_result *x = expect(r, n, "threadirqs", CHECK_WARN, "vt.handoff=7");
    CONTAINS(x->fix, "add threadirqs to GRUB_CMDLINE_LINUX_DEFAULT in /etc/default/grub");
    CONTAINS(x->hint, "threadirqs");
    expect(r, n, "rtirq", CHECK_SKIP, "not threaded");
    x = expect(r, n, "preempt", CHECK_WARN, "voluntary (from config)");
    CONTAINS(x->fix, "linux-lowlatency");
    expect(r, n, "shared_irq", CHECK_OK, "IRQ 145 (snd_hda_intel:card0), IRQ 124 (xhci_hcd)");
    x = expect(r, n, "governor", CHECK_WARN, "powersave on 8 CPUs");
    CONTAINS(x->fix, "cpupower frequency-set -g performance");
    expect(r, n, "high_res_timers", CHECK_OK, "on");
    x = expect(r, n, "rt_throttling", CHECK_WARN, "950000 of every 1000000 µs");
    CONTAINS(x->fix, "sysctl kernel.sched_rt_runtime_us=-1");
    x = expect(r, n, "swappiness", CHECK_WARN, "vm.swappiness is 60 with 2047 MiB of swap");
    CONTAINS(x->fix, "sysctl vm.swappiness=10");
}

static void test_lowlatency(void **state)
{
    (void)state;
    struct check_result r[MAXCHECKS];
    int n = run_on("sys-lowlatency", r);
    expect(r, n, "threadirqs", CHECK_OK, "from cmdline");
    /* rtirq raised the HDA thread to 90 and the USB controller's to 85. */
    expect(r, n, "rtirq", CHECK_OK, "irq/61-xhci_hcd of Scarlett 2i2 USB at 85");
    expect(r, n, "preempt", CHECK_OK, "full");
    expect(r, n, "governor", CHECK_OK, "performance on 12 CPUs");
    expect(r, n, "swappiness", CHECK_OK, "no swap");
    expect(r, n, "rt_throttling", CHECK_WARN, "950000");
}

static void test_rt(void **state)
{
    (void)state;
    struct check_result r[MAXCHECKS];
    int n = run_on("sys-rt", r);
    expect(r, n, "preempt", CHECK_OK, "preemption model rt (from config)");
    expect(r, n, "threadirqs", CHECK_OK, "PREEMPT_RT");
    expect(r, n, "rtirq", CHECK_OK, "irq/126-xhci_hc of Babyface Pro (72381234) at 90");
    expect(r, n, "rt_throttling", CHECK_OK, "-1");
    expect(r, n, "governor", CHECK_OK, "performance on 4 CPUs");
    expect(r, n, "high_res_timers", CHECK_OK, "on");
}

static void test_dynamic_full(void **state)
{
    (void)state;
    struct check_result r[MAXCHECKS];
    int n = run_on("sys-dynamic-full", r);
    /* Booted with preempt=full threadirqs; the HDA card's IRQ 35 shared with i801_smbus, its thread at 50. */
    expect(r, n, "preempt", CHECK_OK, "full (from cmdline)");
    expect(r, n, "threadirqs", CHECK_OK, "cmdline");
    const struct check_result *x = expect(r, n, "rtirq", CHECK_WARN, "irq/35-snd_hda_ runs at priority 50");
    CONTAINS(x->why, "HDA Intel PCH");
    CONTAINS(x->fix, "apt install rtirq-init");
    x = expect(r, n, "shared_irq", CHECK_WARN, "HDA Intel PCH shares IRQ 35");
    CONTAINS(x->why, "i801_smbus");
    expect(r, n, "governor", CHECK_WARN, "schedutil on 4 CPUs");
    expect(r, n, "swappiness", CHECK_WARN, "60 with 975 MiB"); /* SwapTotal 999420 kB, whole MiB */
}

static void test_debugfs_and_noconfig(void **state)
{
    (void)state;
    struct check_result r[MAXCHECKS];
    int n = run_on("sys-dynamic-debugfs", r);
    expect(r, n, "preempt", CHECK_OK, "lazy (from debugfs)");
    expect(r, n, "governor", CHECK_SKIP, "no cpufreq governor");
    expect(r, n, "high_res_timers", CHECK_SKIP, "config_source unknown");
    expect(r, n, "shared_irq", CHECK_SKIP, "no sound card in /proc/asound/cards");
    n = run_on("sys-noconfig", r);
    expect(r, n, "preempt", CHECK_SKIP, "preemption model is unknown");
    expect(r, n, "threadirqs", CHECK_WARN, "root=/dev/vda1 ro");
    expect(r, n, "rtirq", CHECK_SKIP, "no /proc/asound/cards");
}

static void test_highres_off(void **state)
{
    (void)state;
    struct check_result r[MAXCHECKS];
    int n = run_on("sys-highres-off", r);
    /* Built with high-resolution timers, booted with highres=off; a dynamic kernel left at voluntary. */
    const struct check_result *x = expect(r, n, "high_res_timers", CHECK_WARN, "highres=off is on the kernel command "
                                          "line");
    CONTAINS(x->fix, "remove highres=off from GRUB_CMDLINE_LINUX_DEFAULT");
    x = expect(r, n, "preempt", CHECK_WARN, "voluntary (from config)");
    CONTAINS(x->fix, "add preempt=full to GRUB_CMDLINE_LINUX_DEFAULT");
    assert_string_equal(x->hint, "preempt=full");
    expect(r, n, "governor", CHECK_OK, "performance on 2 CPUs");
}

/* Identities edited the way other systems look, for the branches no fixture tree takes. */
static void test_other_systems(void **state)
{
    (void)state;
    struct check_result r;
    json_t *s = identity("sys-dynamic-full");
    json_t *k = json_object_get(s, "kernel");
    /* A dynamic kernel left at voluntary: the fix is a boot option, not another kernel. */
    json_object_set_new(k, "preempt", json_string("voluntary"));
    check_run(by_id("preempt"), s, &r);
    assert_int_equal(r.status, CHECK_WARN);
    CONTAINS(r.fix, "add preempt=full to GRUB_CMDLINE_LINUX_DEFAULT");
    assert_string_equal(r.hint, "preempt=full");
    /* A kernel built without high-resolution timers (sys-highres-off has them turned off at boot). */
    json_object_set_new(k, "high_res_timers", json_false());
    json_object_set_new(json_object_get(k, "config"), "CONFIG_HIGH_RES_TIMERS", json_string("n"));
    check_run(by_id("high_res_timers"), s, &r);
    assert_int_equal(r.status, CHECK_WARN);
    CONTAINS(r.why, "built without high-resolution timers (CONFIG_HIGH_RES_TIMERS is n)");
    CONTAINS(r.fix, "CONFIG_HIGH_RES_TIMERS=y");
    /* threadirqs given to a kernel that cannot force threading. */
    json_object_set_new(k, "threadirqs", json_false());
    json_object_set_new(k, "threadirqs_source", json_string("cmdline, but the kernel lacks "
                                                            "CONFIG_IRQ_FORCED_THREADING"));
    check_run(by_id("threadirqs"), s, &r);
    assert_int_equal(r.status, CHECK_WARN);
    CONTAINS(r.why, "has no effect");
    CONTAINS(r.fix, "CONFIG_IRQ_FORCED_THREADING=y");
    /* A card name with a line break, and a command line cut inside a UTF-8 sequence: still one line, still
     * JSON. */
    json_object_set_new(json_array_get(json_object_get(json_object_get(s, "sound"), "cards"), 0), "name",
                        json_string("Bad\nName"));
    char cl[700] = "x";
    for (int i = 0; i < 300; i++)
        strcat(cl, "\xc3\xa9");
    json_object_set_new(k, "threadirqs_source", json_null());
    json_object_set_new(k, "cmdline", json_string(cl));
    struct check_result all[MAXCHECKS];
    int n = checks_run(s, "/nonexistent/not-read", all, MAXCHECKS);
    for (int i = 0; i < n; i++)
        sound_result("edited sys-dynamic-full", &all[i]);
    expect(all, n, "shared_irq", CHECK_WARN, "Bad Name shares IRQ 35");
    expect(all, n, "threadirqs", CHECK_WARN, "...");
    json_t *j = checks_json(all, (size_t)n);
    assert_non_null(j);
    json_decref(j);
    /* A short out[] gets the first checks only. */
    assert_int_equal(checks_run(s, NULL, all, 3), 3);
    json_decref(s);
}

/* checks_run on what checks_collect made of a tree gives what it gives on the tree itself. */
static void test_identity_or_root(void **state)
{
    (void)state;
    struct check_result a[MAXCHECKS], b[MAXCHECKS];
    for (size_t f = 0; f < NFIXTURES; f++) {
        char root[4096];
        fixture_root(fixtures[f], root, sizeof(root));
        struct checks_env env = { .root = root };
        json_t *s = checks_collect(&env);
        assert_non_null(s);
        int n = checks_run(s, NULL, a, MAXCHECKS);
        run_on(fixtures[f], b);
        for (int i = 0; i < n; i++) {
            assert_int_equal(a[i].status, b[i].status);
            assert_string_equal(a[i].why, b[i].why);
        }
        json_decref(s);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table),
        cmocka_unit_test(test_every_check_on_every_tree),
        cmocka_unit_test(test_missing_files_skip),
        cmocka_unit_test(test_generic),
        cmocka_unit_test(test_lowlatency),
        cmocka_unit_test(test_rt),
        cmocka_unit_test(test_dynamic_full),
        cmocka_unit_test(test_debugfs_and_noconfig),
        cmocka_unit_test(test_highres_off),
        cmocka_unit_test(test_other_systems),
        cmocka_unit_test(test_identity_or_root),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
