/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Verdicts: levels against the shipped profiles (data/profiles/), the plain summary, advice drawn from the
 * system identity of the fixture trees, thresholds and exit decisions, the text report's opening, and the
 * profile loader's errors. The order of advice and the rules that pick it: test_verdict_advice.c. */
#include "fixture_verdict.h"
#include <math.h>
static void test_pass(void **state)
{
    (void)state;
    json_t *d = doc_on("sys-lowlatency", 64), *p = profile("studio");
    add_phase(d, phase("none", 0, 0, 0, 40, 1200));
    add_phase(d, phase("write", 0, 0, 0, 90, 1100));
    assert_int_equal(verdict_report(d, p, 1, -1, -1), 0);
    assert_string_equal(vstr(d, "level"), "pass");
    const char *s = vstr(d, "summary");
    CONTAINS(s, "At 64 frames at 48 kHz (1.33 ms per period), every deadline was met under every load "
                "(none, write), with no xrun.");
    CONTAINS(s, "Worst jitter 90 µs (7 % of the period), under write.");
    CONTAINS(s, "Next: try 32 frames.");
    assert_string_equal(vstr(d, "worst_load"), "write");
    assert_int_equal(json_array_size(json_object_get(json_object_get(d, "verdict"), "advice")), 0);
    json_decref(d);
    json_decref(p);
}

static void test_fail_generic_kernel(void **state)
{
    (void)state;
    json_t *d = doc_on("sys-generic", 64), *p = profile("studio");
    add_phase(d, phase("none", 0, 0, 0, 40, 1200));
    add_phase(d, phase("cpu", 1, 0, 0, 300, 600));
    add_phase(d, phase("write", 12, 9, 3, 2500, -900));
    /* Not strict (no --profile): the verdict fails, the exit status does not. */
    assert_int_equal(verdict_report(d, p, 0, -1, -1), 0);
    assert_string_equal(vstr(d, "level"), "fail");
    assert_string_equal(vstr(d, "worst_load"), "write");
    const char *s = vstr(d, "summary");
    CONTAINS(s, "At 64 frames at 48 kHz (1.33 ms per period), deadlines were missed and the server had xruns.");
    /* The worst load first, then the others that failed, then the ones that held. */
    CONTAINS(s, "Under write: 12 xruns, 3 missed deadlines (99.96 % met). Under cpu: 1 xrun. Every deadline was "
                "met under none.");
    /* generic: no threadirqs, preempt voluntary (not dynamic), powersave governor. */
    /* The machine first, then boot options, then a larger buffer. */
    CONTAINS(s, "Next: use the performance governor; boot with threadirqs and install rtirq; install a "
                "lowlatency kernel (and 1 more in the advice).");
    assert_true(has_id(d, "threadirqs"));
    assert_true(has_id(d, "preempt"));
    assert_true(has_id(d, "governor"));
    assert_true(has_id(d, "swappiness")); /* swap in use, swappiness 60 */
    assert_true(has_id(d, "buffer"));
    assert_false(has_id(d, "rtirq"));
    assert_false(has_id(d, "shared_irq"));
    assert_false(has_id(d, "rt_throttling")); /* no heavy callback */
    /* Strict (--profile given): the same verdict exits 1. */
    assert_int_equal(verdict_report(d, p, 1, -1, -1), 1);
    json_decref(d);
    json_decref(p);
}

/* What an xrun is, said for the depth that had it: the server's (JACK, PipeWire; no backend named: a report of
 * before the field), the card's (ALSA), and on the kernel's timer, where no audio flows and nothing serves, a period
 * the thread woke too late to run. The same failing phases under each backend. */
static void test_xrun_words_per_backend(void **state)
{
    (void)state;
    static const struct { const char *backend, *both, *only; } cases[] = {
        { NULL, "deadlines were missed and the server had xruns.",
          "the server had xruns (audio was lost), although our callback met its deadlines." },
        { "jack", "deadlines were missed and the server had xruns.",
          "the server had xruns (audio was lost), although our callback met its deadlines." },
        { "pipewire", "deadlines were missed and the server had xruns.", "the server had xruns (audio was lost)" },
        { "alsa", "deadlines were missed and the card had xruns.",
          "the card had xruns (audio was lost), although our callback met its deadlines." },
        { "timer", "deadlines were missed and whole periods were skipped (xruns).",
          "whole periods were skipped (xruns: the thread woke too late to run them), although every cycle that ran "
          "met its deadline." },
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        json_t *p = profile("studio");
        for (int only = 0; only < 2; only++) {
            json_t *d = doc_on("sys-lowlatency", 64);
            if (cases[i].backend)
                json_object_set_new(json_object_get(d, "audio"), "backend", json_string(cases[i].backend));
            add_phase(d, phase("write", 12, 0, only ? 0 : 3, 2500, only ? 100 : -900));
            verdict_report(d, p, 0, -1, -1);
            const char *s = vstr(d, "summary");
            CONTAINS(s, only ? cases[i].only : cases[i].both);
            if (cases[i].backend && !strcmp(cases[i].backend, "timer"))
                assert_null(strstr(s, "server"));
            json_decref(d);
        }
        json_decref(p);
    }
}

/* The depth ladder's rule (verdict/ladder_rule.h): the same failing report, once as a ladder's jack depth above a
 * timer depth that kept up (warn: no trouble), once above one that failed, once outside a ladder. Above a clean
 * depth the verdict does not blame the kernel or the machine (no checks-table advice, no "not quiet"), says the
 * trouble starts here, and keeps what the depth itself adds (a larger buffer); above a failing depth, or alone, the
 * kernel's advice stays. The ladder's conclusion follows the same function. */
static void ladder_doc(json_t **d, const char *below_level)
{
    *d = doc_on("sys-generic", 64);
    add_phase(*d, phase("none", 6, 0, 0, 300, 600));
    if (below_level)
        json_object_set_new(*d, "ladder", json_pack("{s:s, s:[{s:s, s:s}]}", "depth", "jack", "below", "depth",
                                                    "timer", "level", below_level));
}

static void test_ladder_rule(void **state)
{
    (void)state;
    json_t *p = profile("studio"), *d;
    const char *levels[3] = { "warn", "pass", "fail" };
    assert_int_equal(ladder_trouble_start(levels, 3), 2);
    assert_int_equal(ladder_trouble_start(levels, 2), 2);
    levels[0] = "fail";
    assert_int_equal(ladder_trouble_start(levels, 3), 0);

    ladder_doc(&d, "warn");
    verdict_report(d, p, 0, -1, -1);
    assert_string_equal(vstr(d, "level"), "fail");
    const char *s = vstr(d, "summary");
    assert_null(strstr(s, "not quiet"));
    CONTAINS(s, "Even with no load: Under none: 6 xruns.");
    assert_true(has_id(d, "ladder"));
    const json_t *adv = json_array_get(json_object_get(json_object_get(d, "verdict"), "advice"), 0);
    CONTAINS(json_string_value(adv), "The timer depth below, on the same kernel under the same loads, kept up: the "
                                     "trouble starts here, at the jack depth.");
    assert_false(has_id(d, "threadirqs"));
    assert_false(has_id(d, "preempt"));
    assert_false(has_id(d, "governor"));
    assert_true(has_id(d, "buffer"));
    json_decref(d);

    ladder_doc(&d, "fail");
    verdict_report(d, p, 0, -1, -1);
    assert_false(has_id(d, "ladder"));
    assert_true(has_id(d, "preempt"));
    CONTAINS(vstr(d, "summary"), "Even with no load the machine is not quiet");
    json_decref(d);

    ladder_doc(&d, NULL);
    verdict_report(d, p, 0, -1, -1);
    assert_false(has_id(d, "ladder"));
    assert_true(has_id(d, "preempt"));
    json_decref(d);
    json_decref(p);
}

/* Depth zero (issue 38): the noise probe's gaps below the kernel as long as a period (1.33 ms at 64 frames) where
 * this depth had xruns: the host or firmware first, before any kernel option; shorter gaps, or no xruns: nothing of
 * it. From a noise depth below (ladder.below) and from the report's own probe (a noise run). */
static int advice_index(const json_t *d, const char *id)
{
    size_t i;
    const json_t *x;
    json_array_foreach(json_object_get(json_object_get(d, "verdict"), "advice_ids"), i, x)
        if (json_string_value(x) && strcmp(json_string_value(x), id) == 0)
            return (int)i;
    return -1;
}

static json_t *host_doc(double below_us, int vm, int xruns, int own)
{
    json_t *d = doc_on("sys-generic", 64);
    json_t *ph = phase("none", xruns, 0, 0, 300, 600);
    if (own)
        json_object_set_new(ph, "noise", json_pack("{s:[{s:i, s:{s:{s:i, s:f}}}]}", "cpus", "cpu", 1, "classes",
                                                   "below_kernel", "count", 3, "max_us", below_us));
    else
        json_object_set_new(d, "ladder", json_pack("{s:s, s:[{s:s, s:s, s:f, s:b}]}", "depth", "jack", "below",
                                                   "depth", "noise", "level", "fail", "below_kernel_max_us", below_us,
                                                   "virtual", vm));
    add_phase(d, ph);
    return d;
}

static void test_host_first(void **state)
{
    (void)state;
    json_t *p = profile("studio"), *d;
    int vm;
    d = host_doc(5000, 1, 6, 0);
    assert_true(ladder_host_first(d, 1333.3, &vm) == 5000);
    assert_int_equal(vm, 1);
    verdict_report(d, p, 0, -1, -1);
    assert_true(has_id(d, "host"));
    assert_true(advice_index(d, "host") < advice_index(d, "preempt"));
    const json_t *adv = json_array_get(json_object_get(json_object_get(d, "verdict"), "advice"),
                                       (size_t)advice_index(d, "host"));
    CONTAINS(json_string_value(adv), "The host or the firmware, not this kernel: the noise probe saw gaps of up to "
                                     "5.0 ms below the kernel");
    CONTAINS(json_string_value(adv), "This is a virtual machine: the host's scheduling of its virtual CPU");
    json_decref(d);
    d = host_doc(5000, 0, 6, 0); /* bare metal: the firmware */
    verdict_report(d, p, 0, -1, -1);
    adv = json_array_get(json_object_get(json_object_get(d, "verdict"), "advice"), (size_t)advice_index(d, "host"));
    CONTAINS(json_string_value(adv), "Look at the firmware (SMIs");
    json_decref(d);
    d = host_doc(500, 1, 6, 0); /* shorter than a period: it explains no xrun */
    assert_true(isnan(ladder_host_first(d, 1333.3, &vm)));
    verdict_report(d, p, 0, -1, -1);
    assert_false(has_id(d, "host"));
    assert_true(has_id(d, "preempt"));
    json_decref(d);
    d = host_doc(5000, 1, 0, 0); /* no xruns here: nothing to explain */
    verdict_report(d, p, 0, -1, -1);
    assert_false(has_id(d, "host"));
    json_decref(d);
    d = host_doc(3000, 1, 6, 1); /* the noise run's own probe */
    double gaps;
    assert_true(ladder_below_kernel_us(d, &gaps) == 3000 && gaps == 3);
    verdict_report(d, p, 0, -1, -1);
    assert_true(has_id(d, "host"));
    json_decref(d);
    json_decref(p);
}

static void test_fail_rt_kernel_only_buffer(void **state)
{
    (void)state;
    json_t *d = doc_on("sys-rt", 32), *p = profile("studio");
    add_phase(d, phase("compile", 2, 2, 0, 500, 10));
    verdict_report(d, p, 0, -1, -1);
    assert_string_equal(vstr(d, "level"), "fail");
    /* PREEMPT_RT: interrupts are threaded and preemption is full; the governor is performance. */
    CONTAINS(vstr(d, "summary"), "Under compile: 2 xruns. Next: use 64 frames.");
    assert_false(has_id(d, "threadirqs"));
    assert_false(has_id(d, "preempt"));
    assert_false(has_id(d, "governor"));
    assert_false(has_id(d, "rt_throttling")); /* off on this system */
    json_decref(d);
    json_decref(p);
}

static void test_fail_dynamic_threadirqs_without_rtirq(void **state)
{
    (void)state;
    json_t *d = doc_on("sys-dynamic-full", 64), *p = profile("live");
    json_object_set_new(json_object_get(d, "audio"), "dsp_pct", json_real(50));
    add_phase(d, phase("read", 0, 4, 0, 800, 5));
    verdict_report(d, p, 0, -1, -1);
    assert_string_equal(vstr(d, "level"), "fail");
    CONTAINS(vstr(d, "summary"), "Under read: 4 xruns.");
    /* rtirq is the server's settings (its interrupt thread's priority), before the idle states' governor */
    CONTAINS(vstr(d, "summary"), "Next: install rtirq; use the performance governor; use 128 frames.");
    assert_true(has_id(d, "rtirq"));
    assert_false(has_id(d, "threadirqs")); /* booted with threadirqs */
    assert_false(has_id(d, "preempt"));    /* booted with preempt=full */
    assert_true(has_id(d, "rt_throttling")); /* a heavy callback (--dsp 50) with throttling on */
    assert_true(has_id(d, "shared_irq"));
    CONTAINS(json_string_value(json_array_get(json_object_get(json_object_get(d, "verdict"), "advice"), 2)),
             "HDA Intel PCH shares its interrupt (IRQ 35: snd_hda_intel, i801_smbus)");
    const json_t *adv = json_object_get(json_object_get(d, "verdict"), "advice");
    CONTAINS(json_string_value(json_array_get(adv, 0)), "HDA Intel PCH (irq/35-snd_hda_) runs at priority 50");
    CONTAINS(json_string_value(json_array_get(adv, 1)), "The CPU frequency governor is schedutil");
    json_decref(d);
    json_decref(p);
}

static void test_preempt_dynamic_advice(void **state)
{
    (void)state;
    /* A dynamic kernel left at its default (voluntary) is told about preempt=full, not a new kernel. */
    json_t *d = doc_on("sys-dynamic-full", 64), *p = profile("studio");
    json_t *k = json_object_get(json_object_get(d, "system"), "kernel");
    json_object_set_new(k, "preempt", json_string("voluntary"));
    add_phase(d, phase("none", 1, 1, 0, 800, 5));
    verdict_report(d, p, 0, -1, -1);
    assert_true(has_id(d, "preempt"));
    CONTAINS(vstr(d, "try"), "preempt=full");
    json_decref(d);
    json_decref(p);
}

static void test_profiles_differ(void **state)
{
    (void)state;
    /* Jitter of 30 % of the period with 20 % left before the deadline: fine for the studio, tight for live. */
    json_t *p_studio = profile("studio"), *p_live = profile("live");
    json_t *d = doc_on("sys-lowlatency", 64);
    add_phase(d, phase("none", 0, 0, 0, 400, 270));
    verdict_report(d, p_studio, 1, -1, -1);
    assert_string_equal(vstr(d, "level"), "pass");
    assert_int_equal(verdict_report(d, p_live, 1, -1, -1), 0); /* WARN is not a FAIL: exit 0 */
    assert_string_equal(vstr(d, "level"), "warn");
    assert_true(has_id(d, "headroom"));
    CONTAINS(vstr(d, "summary"), "That is more jitter than the live profile accepts (25 %).");
    CONTAINS(json_string_value(json_array_get(json_object_get(json_object_get(d, "verdict"), "advice"), 0)),
             "the worst jitter was 400 µs (30 % of the period; this profile accepts 25 %)");
    /* The profile used is recorded, without this machine's path to it. */
    assert_string_equal(json_string_value(json_object_get(json_object_get(d, "profile"), "name")), "live");
    assert_null(json_object_get(json_object_get(d, "profile"), "path"));
    assert_string_equal(json_string_value(json_object_get(json_object_get(d, "thresholds"), "profile")), "live");
    assert_string_equal(vstr(d, "profile"), "live");
    json_decref(d);
    /* 512 frames (10.7 ms): acceptable latency in the studio, too much on stage. */
    d = doc_on("sys-lowlatency", 512);
    add_phase(d, phase("none", 0, 0, 0, 100, 9000));
    verdict_report(d, p_studio, 1, -1, -1);
    assert_string_equal(vstr(d, "level"), "pass");
    verdict_report(d, p_live, 1, -1, -1);
    assert_string_equal(vstr(d, "level"), "warn");
    assert_true(has_id(d, "period"));
    json_decref(d);
    json_decref(p_studio);
    json_decref(p_live);
}

static void test_cli_thresholds(void **state)
{
    (void)state;
    json_t *d = doc_on("sys-lowlatency", 64), *p = profile("studio");
    add_phase(d, phase("write", 12, 3, 0, 700, 100));
    /* --max-xruns 20 overrides the profile's 0: no failure. */
    assert_int_equal(verdict_report(d, p, 0, 20, -1), 0);
    assert_string_equal(vstr(d, "level"), "warn"); /* 700 us jitter is over half the period */
    assert_int_equal(json_integer_value(json_object_get(json_object_get(d, "thresholds"), "max_xruns")), 20);
    CONTAINS(vstr(d, "summary"), "12 xruns and 0 missed deadlines, within what this profile accepts.");
    assert_int_equal(verdict_report(d, p, 0, 5, -1), 1);
    assert_string_equal(vstr(d, "level"), "fail");
    assert_true(json_is_true(json_object_get(json_object_get(d, "thresholds"), "exceeded")));
    assert_int_equal(verdict_report(d, p, 0, 20, 500), 1); /* --max-jitter-us 500 */
    assert_int_equal(verdict_report(d, p, 0, 20, 800), 0);
    json_decref(d);
    json_decref(p);
}

static void test_nothing_measured_and_not_realtime(void **state)
{
    (void)state;
    json_t *d = doc_on("sys-generic", 64), *p = profile("studio");
    json_object_set_new(d, "complete", json_false());
    verdict_report(d, p, 0, -1, -1);
    assert_string_equal(vstr(d, "level"), "fail");
    assert_string_equal(vstr(d, "summary"), "Nothing was measured: the run was interrupted.");
    assert_true(has_id(d, "incomplete"));
    json_decref(d);

    d = doc_on("sys-generic", 64);
    json_object_set_new(json_object_get(d, "audio"), "realtime", json_false());
    json_object_set_new(json_object_get(d, "audio"), "mlocked", json_false());
    add_phase(d, phase("none", 0, 0, 0, 30, 1200));
    verdict_report(d, p, 0, -1, -1);
    assert_string_equal(vstr(d, "level"), "warn");
    assert_true(has_id(d, "realtime"));
    assert_true(has_id(d, "mlock"));
    assert_false(has_id(d, "threadirqs")); /* the timing was fine: no tuning advice */
    json_decref(d);
    json_decref(p);
}

static void test_text_opens_with_summary(void **state)
{
    (void)state;
    json_t *d = doc_on("sys-generic", 64), *p = profile("studio");
    add_phase(d, phase("none", 0, 0, 0, 40, 1200));
    add_phase(d, phase("write", 12, 0, 0, 2500, 100));
    verdict_report(d, p, 0, -1, -1);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    text_print_report(f, d);
    fclose(f);
    /* The summary is wrapped: read it with each line break and its indent as one space. */
    char *flat = strdup(buf);
    size_t o = 0;
    for (size_t i = 0; buf[i]; i++) {
        if (buf[i] == '\n' && buf[i + 1] == ' ') {
            flat[o++] = ' ';
            while (buf[i + 1] == ' ')
                i++;
        } else {
            flat[o++] = buf[i];
        }
    }
    flat[o] = '\0';
    /* xruns in the server but no deadline of ours missed: the summary says exactly that */
    const char *want = "FAIL (studio profile): At 64 frames at 48 kHz (1.33 ms per period), the server had xruns "
                       "(audio was lost), although our callback met its deadlines.";
    /* the headline first (its own cases: test_headline.c): the fixture's 12 xruns are under write only */
    const char *head = "Dropouts at 64 frames at 48 kHz (under write): try 128 frames.\n\n";
    assert_true(strncmp(flat, head, strlen(head)) == 0);
    assert_true(strncmp(flat + strlen(head), want, strlen(want)) == 0);
    char *under = strstr(flat, "Under write: 12 xruns."), *table_f = strstr(flat, "\nLoad ");
    char *table = strstr(buf, "\nLoad ");
    assert_non_null(under);
    assert_non_null(table_f);
    assert_true(under < table_f);
    CONTAINS(flat, "Next: use the performance governor; boot with threadirqs and install rtirq; install a "
                "lowlatency kernel (and 1 more in the advice).");
    CONTAINS(buf, "  - Interrupt handlers run ahead of every thread");
    /* the header's lines wrap at 80 columns too: read joined */
    CONTAINS(flat, "kernel:  5.15.0-91-generic, preempt voluntary, HZ 250, NO_HZ idle, threadirqs no");
    CONTAINS(flat, "cpu:     Intel(R) Core(TM) i5-8250U CPU @ 1.60GHz, 4 cores / 8 threads, governor powersave");
    CONTAINS(flat, "sound:   card 0 HDA Intel PCH (irq 145 snd_hda_intel:card0), card 1 Scarlett 2i2 USB");
    free(flat);
    /* No line of the headline and the wrapped verdict after it (up to the next blank line) is wider than 80
     * columns (the width of a file). */
    char *vb = strstr(buf, "\n\n"); /* after the headline */
    assert_non_null(vb);
    for (char *l = buf; l < vb; l = strchr(l, '\n') + 1)
        assert_true(strcspn(l, "\n") <= 80);
    vb += 2;
    char *end = strstr(vb, "\n\n");
    assert_non_null(end);
    assert_true(end < table);
    for (char *l = vb; l < end; l = strchr(l, '\n') + 1)
        assert_true(strcspn(l, "\n") <= 80);
    free(buf);
    /* A report from before profiles: the verdict opens without a profile name. */
    json_object_del(json_object_get(d, "verdict"), "profile");
    f = open_memstream(&buf, &len);
    text_print_report(f, d);
    fclose(f);
    assert_non_null(strstr(buf, "\n\n"));
    assert_true(strncmp(strstr(buf, "\n\n") + 2, "FAIL: At 64 frames at 48 kHz", 28) == 0);
    free(buf);
    json_decref(d);
    json_decref(p);
}

static void test_profile_loader(void **state)
{
    (void)state;
    char err[512];
    json_t *p = NULL;
    assert_int_equal(profile_load("nope", &p, err, sizeof(err)), -ENOENT);
    assert_null(p);
    CONTAINS(err, "unknown profile \"nope\" (available: live, studio;");
    assert_int_equal(profile_load("../etc/passwd", &p, err, sizeof(err)), -ENOENT);
    assert_int_equal(profile_load("a.b", &p, err, sizeof(err)), -EINVAL);
    CONTAINS(err, "bad profile name");
    /* A file given by path, malformed in three ways. */
    char path[] = "/tmp/rtj-profile-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    static const char *const bad[][2] = {
        { "{\"schema\": \"rtjitter.profile/2\", \"name\": \"x\"}", "schema is \"rtjitter.profile/2\"" },
        { "{\"schema\": \"rtjitter.profile/1\", \"name\": \"x\", \"max_xruns\": -1}", "\"max_xruns\" must be" },
        { "{\"schema\": \"rtjitter.profile/1\",", "profile /tmp/rtj-profile-" },
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        assert_int_equal(ftruncate(fd, 0), 0);
        assert_int_equal(pwrite(fd, bad[i][0], strlen(bad[i][0]), 0), (ssize_t)strlen(bad[i][0]));
        assert_int_equal(profile_load(path, &p, err, sizeof(err)), -EINVAL);
        CONTAINS(err, bad[i][1]);
    }
    close(fd);
    unlink(path);
    /* Every shipped profile passes its own check. */
    assert_int_equal(profile_load("live", &p, err, sizeof(err)), 0);
    CONTAINS(json_string_value(json_object_get(p, "path")), "/data/profiles/live.json");
    json_decref(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pass),
        cmocka_unit_test(test_fail_generic_kernel),
        cmocka_unit_test(test_xrun_words_per_backend),
        cmocka_unit_test(test_ladder_rule),
        cmocka_unit_test(test_fail_rt_kernel_only_buffer),
        cmocka_unit_test(test_fail_dynamic_threadirqs_without_rtirq),
        cmocka_unit_test(test_preempt_dynamic_advice),
        cmocka_unit_test(test_profiles_differ),
        cmocka_unit_test(test_cli_thresholds),
        cmocka_unit_test(test_nothing_measured_and_not_realtime),
        cmocka_unit_test(test_text_opens_with_summary),
        cmocka_unit_test(test_profile_loader),
        cmocka_unit_test(test_host_first),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
