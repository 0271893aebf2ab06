/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The verdict's advice: the one order of advice (the baseline first), the idle trap, the audio thread's priority
 * against the interrupt threads, a run without real time (not a kernel test), and rtjitter's own stops (not
 * blamed on the kernel). Fixtures: fixture_verdict.h. */
#include "fixture_verdict.h"

/* The ids of the verdict's advice, space-separated, in order. */
static void ids_text(const json_t *d, char *b, size_t n)
{
    size_t i, o = 0;
    const json_t *v;
    b[0] = '\0';
    json_array_foreach(json_object_get(json_object_get(d, "verdict"), "advice_ids"), i, v)
        o += (size_t)snprintf(b + o, o < n ? n - o : 0, "%s%s", o ? " " : "", json_string_value(v));
}

/* All the advice as one string. */
static void advice_text(const json_t *d, char *b, size_t n)
{
    size_t i, o = 0;
    const json_t *v;
    b[0] = '\0';
    json_array_foreach(json_object_get(json_object_get(d, "verdict"), "advice"), i, v)
        o += (size_t)snprintf(b + o, o < n ? n - o : 0, "%s\n", json_string_value(v));
}

static size_t count_of(const char *hay, const char *needle)
{
    size_t k = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
        k++;
    return k;
}

/* The order worth trying: the run's privileges and set-up, the machine (governor, interrupts, swappiness),
 * boot options (threadirqs, preempt), a larger buffer last. sys-generic calls for governor, swappiness,
 * threadirqs and preempt (its content, tests/fixtures/make-fixtures.py). */
/* The baseline is never hidden: when even `none` fails, the summary says so first, and "and N more loads" counts
 * only the loaded phases left unnamed. A run that failed only on the user's jitter limit says that, not "xruns". */
static void test_baseline_first(void **state)
{
    (void)state;
    json_t *d = doc_on("sys-generic", 64), *prof = profile("studio");
    add_phase(d, phase("none", 1, 1, 0, 80, 900));
    const char *loads[] = { "burn", "write", "read", "compile", "memload", "video" };
    for (int i = 0; i < 6; i++)
        add_phase(d, phase(loads[i], 10 + i, 10 + i, 5, 300, -200));
    verdict_report(d, prof, 0, -1, -1);
    const char *sum = vstr(d, "summary");
    CONTAINS(sum, "Even with no load the machine is not quiet: Under none: 1 xrun.");
    assert_true(strstr(sum, "Even with no load") < strstr(sum, "Under video")); /* before any load */
    CONTAINS(sum, "And 2 more loads.");                                          /* 6 loads, 4 named */
    json_decref(d);
    d = doc_on("sys-generic", 64);
    add_phase(d, phase("none", 0, 0, 0, 80, 900));
    verdict_report(d, prof, 0, -1, 50);
    CONTAINS(vstr(d, "summary"), "every deadline was met and no audio was lost, but the jitter went over the limit");
    json_decref(d);
    json_decref(prof);
}

static void test_advice_order(void **state)
{
    (void)state;
    json_t *d = doc_on("sys-generic", 64), *p = profile("studio");
    json_t *ph = phase("write", 12, 9, 3, 2500, -900);
    json_object_set_new(ph, "dropped", json_integer(5));
    json_object_set_new(ph, "load_error", json_string("the disk filled up"));
    add_phase(d, ph);
    verdict_report(d, p, 0, -1, -1);
    char ids[512];
    ids_text(d, ids, sizeof(ids));
    assert_string_equal(ids, "dropped load governor swappiness threadirqs preempt buffer");
    json_decref(d);
    json_decref(p);
}

/* The idle trap (issue 19 item 5): rest's wake-up p99 more than twice a loaded phase's, /dev/cpu_dma_latency not
 * held. Named, with its cure, after the run's own advice and before any kernel option; not when the file was held,
 * nor when rest is within twice the load. */
static json_t *woke(json_t *ph, double p99)
{
    json_object_set_new(ph, "wakeup_us", json_pack("{s:f, s:f}", "p50", p99 / 4, "p99", p99));
    return ph;
}

/* A failing run at rest (wake-up p99 rest_us) and under burn (181 µs), /dev/cpu_dma_latency held or not; its
 * verdict's advice ids in ids, its advice in text (when not NULL). Returns the document. */
static json_t *idle_run(const json_t *p, double rest_us, int held, char *ids, size_t n, char *text, size_t tn)
{
    json_t *d = doc_on("sys-generic", 64);
    if (held == 1)
        json_object_set_new(json_object_get(d, "audio"), "cpu_dma_latency_us", json_integer(0));
    if (held == 2) /* not held, and no CPU idle states to keep the CPUs out of (this VM: cpuidle driver none) */
        json_object_set_new(json_object_get(json_object_get(d, "system"), "cpu"), "idle",
                            json_pack("{s:s, s:[]}", "driver", "none", "states"));
    add_phase(d, woke(phase("none", 0, 3, 40, 2700, -1300), rest_us));
    add_phase(d, woke(phase("burn", 0, 0, 0, 200, 900), 181));
    verdict_report(d, p, 0, -1, -1);
    ids_text(d, ids, n);
    if (text)
        advice_text(d, text, tn);
    return d;
}

static void test_idle_trap(void **state)
{
    (void)state;
    json_t *p = profile("studio");
    char ids[512], text[8192];
    /* the figures issue 19 saw on this VM: 2.67 ms at rest, 181 µs under burn (64 frames) */
    json_t *d = idle_run(p, 2670, 0, ids, sizeof(ids), text, sizeof(text));
    const char *idle = strstr(ids, "idle"), *kernel = strstr(ids, "threadirqs");
    assert_non_null(idle);
    assert_non_null(kernel);
    assert_true(idle < kernel); /* idle states before the kernel's boot options */
    CONTAINS(text, "At rest the wake-up p99 was 2670 µs, more than twice that under burn (181 µs)");
    CONTAINS(text, "rtjitter run --dma-latency");
    CONTAINS(vstr(d, "summary"), "--dma-latency");
    json_decref(d);
    /* no CPU idle states: the trap is said, but holding /dev/cpu_dma_latency is not advised (it changes nothing) */
    d = idle_run(p, 2670, 2, ids, sizeof(ids), text, sizeof(text));
    assert_non_null(strstr(ids, "idle"));
    CONTAINS(text, "changes nothing here");
    assert_null(strstr(text, "Hold /dev/cpu_dma_latency at 0 while you play"));
    assert_null(strstr(vstr(d, "summary"), "--dma-latency"));
    CONTAINS(vstr(d, "summary"), "ask the host about its halt polling");
    json_decref(d);
    /* the same run with /dev/cpu_dma_latency held: no idle trap to explain */
    json_decref(idle_run(p, 2670, 1, ids, sizeof(ids), NULL, 0));
    assert_null(strstr(ids, "idle"));
    /* not held, but rest within twice the load: no trap */
    json_decref(idle_run(p, 300, 0, ids, sizeof(ids), NULL, 0));
    assert_null(strstr(ids, "idle"));
    json_decref(p);
}

/* The server's settings (issue 19 item 6): an audio thread at FIFO 5 (a jackd at its default -P 10) is below every
 * interrupt thread: raise the server's priority first, and no threadirqs (which would put every interrupt thread
 * above it); at FIFO 70 the kernel's advice stands. */
static void test_low_priority_first(void **state)
{
    (void)state;
    json_t *p = profile("studio");
    for (int prio = 5; prio <= 70; prio += 65) {
        json_t *d = doc_on("sys-generic", 64), *au = json_object_get(d, "audio");
        json_object_set_new(au, "backend", json_string("jack"));
        json_object_set_new(au, "provider", json_string("jack2"));
        json_object_set_new(au, "sched_policy", json_string("SCHED_FIFO"));
        json_object_set_new(au, "priority", json_integer(prio));
        json_object_set_new(au, "server_sched", json_pack("{s:s, s:i, s:b}", "policy", "SCHED_FIFO", "priority",
                                                          prio + 5, "realtime", 1));
        add_phase(d, phase("write", 12, 9, 3, 2500, -900));
        verdict_report(d, p, 0, -1, -1);
        char ids[512], text[8192];
        ids_text(d, ids, sizeof(ids));
        advice_text(d, text, sizeof(text));
        if (prio == 5) {
            assert_non_null(strstr(ids, "priority"));
            assert_null(strstr(ids, "threadirqs"));
            assert_true(strstr(ids, "priority") < strstr(ids, "governor")); /* before the machine's advice */
            CONTAINS(text, "The audio thread ran at SCHED_FIFO 5 (the server's highest thread: SCHED_FIFO 10)");
            CONTAINS(text, "Start jackd with -P 70 or more");
        } else {
            assert_null(strstr(ids, "priority"));
            assert_non_null(strstr(ids, "threadirqs"));
        }
        json_decref(d);
    }
    json_decref(p);
}

/* The interrupt threads' priority as read (audio.irq_threads): an audio thread at FIFO 70 below interrupt threads
 * at 90 is low too, and the text names what was read; with none read (no threaded interrupts), FIFO 5 is below the
 * 50 threadirqs would give them. Either way no threadirqs, and the server's priority before the governor. */
static void test_low_priority_read_irqs(void **state)
{
    (void)state;
    json_t *p = profile("studio");
    for (int c = 0; c < 2; c++) {
        json_t *d = doc_on("sys-generic", 64), *au = json_object_get(d, "audio");
        json_object_set_new(au, "backend", json_string("jack"));
        json_object_set_new(au, "provider", json_string("jack2"));
        json_object_set_new(au, "sched_policy", json_string("SCHED_FIFO"));
        json_object_set_new(au, "priority", json_integer(c == 0 ? 45 : 5));
        json_object_set_new(au, "irq_threads", c == 0 ? json_pack("{s:i, s:s, s:i, s:i}", "count", 3, "policy",
                                                                   "SCHED_FIFO", "priority", 90, "lowest", 50)
                                                      : json_pack("{s:i, s:n, s:n}", "count", 0, "policy",
                                                                  "priority"));
        add_phase(d, phase("write", 12, 9, 3, 2500, -900));
        verdict_report(d, p, 0, -1, -1);
        char ids[512], text[8192];
        ids_text(d, ids, sizeof(ids));
        advice_text(d, text, sizeof(text));
        assert_non_null(strstr(ids, "priority"));
        assert_null(strstr(ids, "threadirqs"));
        assert_true(strstr(ids, "priority") < strstr(ids, "governor"));
        CONTAINS(text, "Start jackd with -P 70 or more");
        if (c == 0)
            CONTAINS(text, "The audio thread ran at SCHED_FIFO 45, below this machine's 3 interrupt threads "
                           "(the lowest at SCHED_FIFO 50)");
        else
            CONTAINS(text, "below the interrupt threads' priority (50 with threadirqs");
        json_decref(d);
    }
    /* at 70 beside rtirq's sound card at 90 and the rest at 50: above the interrupt threads it should be above, and
     * below the one rtirq raised on purpose: not told to raise it (the rule check's server_rt follows too) */
    json_t *d = doc_on("sys-generic", 64), *au = json_object_get(d, "audio");
    json_object_set_new(au, "backend", json_string("jack"));
    json_object_set_new(au, "provider", json_string("jack2"));
    json_object_set_new(au, "sched_policy", json_string("SCHED_FIFO"));
    json_object_set_new(au, "priority", json_integer(70));
    json_object_set_new(au, "irq_threads", json_pack("{s:i, s:s, s:i, s:i}", "count", 3, "policy", "SCHED_FIFO",
                                                     "priority", 90, "lowest", 50));
    add_phase(d, phase("write", 12, 9, 3, 2500, -900));
    verdict_report(d, p, 0, -1, -1);
    char ids[512];
    ids_text(d, ids, sizeof(ids));
    assert_null(strstr(ids, "priority"));
    json_decref(d);
    json_decref(p);
}

/* A run without real-time scheduling: not a kernel test. The privileges come first, then nothing about the
 * kernel nor the buffer; a private server is never told "-R"; nobody is told to join audio without knowing
 * whether they are in it. */
static void test_not_realtime_is_not_a_kernel_test(void **state)
{
    (void)state;
    json_t *d = doc_on("sys-generic", 64), *p = profile("studio");
    json_t *a = json_object_get(d, "audio");
    json_object_set_new(a, "realtime", json_false());
    json_object_set_new(a, "mlocked", json_false());
    json_object_set_new(a, "server", json_string("private"));
    add_phase(d, phase("write", 12, 9, 3, 2500, -900));
    verdict_report(d, p, 0, -1, -1);
    char ids[512], adv[8192];
    ids_text(d, ids, sizeof(ids));
    assert_string_equal(ids, "realtime mlock");
    const char *s = vstr(d, "summary");
    assert_true(strncmp(s, "Not a kernel test: the audio thread ran without real-time scheduling. At 64 frames",
                        82) == 0);
    CONTAINS(s, "Next: get real-time scheduling first.");
    advice_text(d, adv, sizeof(adv));
    CONTAINS(adv, "says nothing about the kernel");
    CONTAINS(adv, "rtjitter check says why");
    assert_null(strstr(adv, "-R"));
    assert_null(strstr(adv, "audio group"));
    assert_null(strstr(adv, "usermod"));
    json_decref(d);

    /* What run found before measuring (audio.privileges): its fix, said once for both. */
    d = doc_on("sys-generic", 64);
    a = json_object_get(d, "audio");
    json_object_set_new(a, "realtime", json_false());
    json_object_set_new(a, "mlocked", json_false());
    json_object_set_new(a, "server", json_string("private"));
    const char *fix = "log out and in again (or reboot): you are in audio, and /etc/security/limits.d/audio.conf "
                      "grants it rtprio 95 and memlock unlimited, but this login started before it was installed";
    json_object_set_new(a, "privileges", json_pack("{s:b, s:b, s:s, s:s}", "realtime", 0, "mlock", 0, "why",
                                                   "RLIMIT_RTPRIO is 0 for this login", "fix", fix));
    add_phase(d, phase("none", 0, 0, 0, 30, 1200));
    verdict_report(d, p, 0, -1, -1);
    advice_text(d, adv, sizeof(adv));
    assert_int_equal(count_of(adv, fix), 1);
    CONTAINS(adv, "Why: RLIMIT_RTPRIO is 0 for this login. The fix: log out and in again");
    CONTAINS(adv, "Memory could not be locked: a page fault in the audio thread can cost a cycle. The fix above "
                  "gives this too.");
    json_decref(d);

    /* An external jackd started with -r (no real-time): restart it without -r. */
    d = doc_on("sys-generic", 64);
    a = json_object_get(d, "audio");
    json_object_set_new(a, "realtime", json_false());
    json_object_set_new(a, "server", json_string("external"));
    json_array_append_new(json_object_get(json_object_get(d, "system"), "audio_servers"),
                          json_pack("{s:s, s:i, s:s}", "name", "jackd", "pid", 4242, "cmdline",
                                    "/usr/bin/jackd -r -d alsa -d hw:1"));
    add_phase(d, phase("none", 0, 0, 0, 30, 1200));
    verdict_report(d, p, 0, -1, -1);
    advice_text(d, adv, sizeof(adv));
    CONTAINS(adv, "started with -r): restart it without -r.");
    json_decref(d);
    json_decref(p);
}

/* rtjitter itself stopped for 3 s (the report's "run", run/run_stopped.h): the stop's xrun event and its 2249
 * missed deadlines are not judged, the summary says so first, and the level is WARN at best; the same phase
 * without the stop recorded fails. The document's "run" is left as it was. */
static void test_stopped_not_blamed_on_kernel(void **state)
{
    (void)state;
    json_t *p = profile("studio");
    json_t *stopped = json_pack("{s:i, s:f, s:f, s:[{s:s, s:f, s:f, s:s, s:b, s:i, s:i, s:i}, {s:s, s:f, s:n}]}",
                                "stopped", 2, "longest_stop_s", 3.0, "stopped_s", 3.0, "stops",
                                "continued", "2026-12-02T10:26:33.577Z", "t_s", 467.7, "gap_s", 3.0, "load", "write",
                                "measuring", 1, "skipped_cycles", 2249, "xrun_events", 1, "deadlines_missed", 2249,
                                "continued", "2026-12-02T10:26:30.000Z", "t_s", 464.1, "gap_s");
    for (int with = 0; with < 2; with++) {
        json_t *d = doc_on("sys-lowlatency", 64);
        add_phase(d, phase("none", 0, 0, 0, 40, 1200));
        add_phase(d, phase("write", 0, 1, 2249, 3000000, 1100)); /* the stop's gap only */
        if (with)
            json_object_set(d, "run", stopped);
        char before[2048] = "";
        if (with) {
            char *b = json_dumps(stopped, JSON_SORT_KEYS);
            snprintf(before, sizeof(before), "%s", b);
            free(b);
        }
        verdict_report(d, p, 0, -1, -1);
        const char *s = vstr(d, "summary");
        if (!with) {
            assert_string_equal(vstr(d, "level"), "fail");
            CONTAINS(s, "Under write: 1 xrun, 2249 missed deadlines");
            assert_null(strstr(s, "stopped"));
        } else {
            assert_string_equal(vstr(d, "level"), "warn"); /* for the stop alone */
            const char *first = "rtjitter itself was stopped (SIGSTOP/Ctrl-Z) for 3.0 s, until 10:26:33 UTC, under "
                                "write: the 2249 skipped cycles then are not the kernel's; this verdict leaves them out";
            assert_int_equal(strncmp(s, first, strlen(first)), 0);
            CONTAINS(s, "every deadline was met under every load (none, write), with no xrun.");
            CONTAINS(s, "Worst jitter 40 µs (3 % of the period), under none."); /* write's is the stop's */
            char *a = json_dumps(json_object_get(d, "run"), JSON_SORT_KEYS);
            assert_string_equal(a, before);
            free(a);
            /* the text report opens with it */
            char *buf = NULL;
            size_t len = 0;
            FILE *f = open_memstream(&buf, &len);
            text_print_report(f, d);
            fclose(f);
            CONTAINS(buf, "rtjitter itself was stopped (SIGSTOP/Ctrl-Z) for 3.0 s");
            free(buf);
        }
        json_decref(d);
    }
    json_decref(stopped);
    json_decref(p);
}

/* A buffer change mid-phase (a quantum forced mid-watch): the phase's segments fail at 256 frames and run clean at
 * 512, the size in force at the end. A larger buffer is advised from the size that failed (512: twice 256), never
 * from the one in force at the end (1024 would be advice about a size that did not fail). */
static void test_bigger_buffer_of_failing_size(void **state)
{
    (void)state;
    json_t *d = doc_on("sys-generic", 512), *prof = profile("studio");
    json_t *a = phase("none", 3, 3, 3, 80, -900), *b = phase("none", 0, 0, 0, 80, 900);
    json_object_set_new(a, "segments_in_phase", json_integer(2));
    json_object_set_new(a, "period_frames", json_integer(256));
    json_object_set_new(a, "rate", json_integer(48000));
    json_object_set_new(b, "segments_in_phase", json_integer(2));
    json_object_set_new(b, "period_frames", json_integer(512));
    json_object_set_new(b, "rate", json_integer(48000));
    add_phase(d, a);
    add_phase(d, b);
    verdict_report(d, prof, 0, -1, -1);
    char adv[8192];
    advice_text(d, adv, sizeof(adv));
    CONTAINS(adv, "512 frames at 48000 Hz is 10.67 ms per period (twice the 256 frames it failed at)");
    assert_null(strstr(adv, "1024 frames"));
    /* the summary's setting names the size before the change too: the misses were at 256, not at 512 */
    CONTAINS(vstr(d, "summary"), "At 512 frames at 48 kHz (10.67 ms per period; before a buffer change: 256)");
    json_decref(d);
    json_decref(prof);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_advice_order),
        cmocka_unit_test(test_bigger_buffer_of_failing_size),
        cmocka_unit_test(test_baseline_first),
        cmocka_unit_test(test_not_realtime_is_not_a_kernel_test),
        cmocka_unit_test(test_idle_trap),
        cmocka_unit_test(test_low_priority_first),
        cmocka_unit_test(test_low_priority_read_irqs),
        cmocka_unit_test(test_stopped_not_blamed_on_kernel),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
