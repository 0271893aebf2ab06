/* SPDX-License-Identifier: GPL-2.0-or-later */
/* System identity against fake trees laid out like real systems (tests/fixtures/sys-*, written by
 * tests/fixtures/make-fixtures.py): each field checked against what that system really is. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sysinfo/sysinfo.h"

static json_t *collect(const char *fixture)
{
    const char *top = getenv("RTJ_TOP");
    char root[4096];
    snprintf(root, sizeof(root), "%s/tests/fixtures/%s", top ? top : ".", fixture);
    json_t *sys = sysinfo_collect(root);
    assert_non_null(sys);
    return sys;
}

/* The value at a dotted path ("kernel.rt_throttling.enabled"; "sound.cards.1.irqs.0.irq"). */
static const json_t *at(const json_t *o, const char *path)
{
    char buf[256];
    snprintf(buf, sizeof(buf), "%s", path);
    for (char *save = NULL, *k = strtok_r(buf, ".", &save); k; k = strtok_r(NULL, ".", &save)) {
        if (json_is_array(o))
            o = json_array_get(o, strtoul(k, NULL, 10));
        else
            o = json_object_get(o, k);
        if (!o)
            fail_msg("no key %s in path %s", k, path);
    }
    return o;
}

#define STR(o, p, want) assert_string_equal(json_string_value(at(o, p)) ? json_string_value(at(o, p)) : "(null)", want)
#define INT(o, p, want) do { \
        const json_t *v_ = at(o, p); \
        if (!json_is_integer(v_)) fail_msg("%s is not an integer", p); \
        assert_int_equal(json_integer_value(v_), want); \
    } while (0)
#define TRUE(o, p) assert_true(json_is_true(at(o, p)))
#define FALSE(o, p) assert_true(json_is_false(at(o, p)))
#define NUL(o, p) assert_true(json_is_null(at(o, p)))

static void test_generic(void **state)
{
    (void)state;
    json_t *s = collect("sys-generic");
    STR(s, "hostname", "studio-laptop");
    STR(s, "kernel.release", "5.15.0-91-generic");
    STR(s, "kernel.version", "#101-Ubuntu SMP Tue Nov 14 13:30:08 UTC 2023");
    assert_non_null(strstr(json_string_value(at(s, "kernel.cmdline")), "vt.handoff=7"));
    STR(s, "kernel.config_source", "/boot/config-5.15.0-91-generic");
    STR(s, "kernel.preempt", "voluntary");
    STR(s, "kernel.preempt_source", "config");
    FALSE(s, "kernel.preempt_dynamic");
    INT(s, "kernel.hz", 250);
    STR(s, "kernel.nohz", "idle");
    TRUE(s, "kernel.high_res_timers");
    FALSE(s, "kernel.threadirqs");
    NUL(s, "kernel.threadirqs_source");
    NUL(s, "kernel.isolcpus");
    NUL(s, "kernel.nohz_full");
    NUL(s, "kernel.rcu_nocbs");
    NUL(s, "kernel.mitigations.cmdline");
    STR(s, "kernel.mitigations.vulnerabilities.meltdown", "Mitigation: PTI");
    STR(s, "kernel.clocksource", "tsc");
    TRUE(s, "kernel.rt_throttling.enabled");
    INT(s, "kernel.rt_throttling.runtime_us", 950000);
    INT(s, "kernel.rt_throttling.period_us", 1000000);
    INT(s, "kernel.timer_migration", 1);
    STR(s, "kernel.config.CONFIG_PREEMPT_VOLUNTARY", "y");
    STR(s, "kernel.config.CONFIG_PREEMPT", "n");
    STR(s, "cpu.model", "Intel(R) Core(TM) i5-8250U CPU @ 1.60GHz");
    INT(s, "cpu.threads", 8);
    INT(s, "cpu.cores", 4);
    INT(s, "cpu.packages", 1);
    TRUE(s, "cpu.smt.active");
    STR(s, "cpu.smt.control", "on");
    STR(s, "cpu.governor", "powersave");
    INT(s, "cpu.governors.powersave", 8);
    STR(s, "cpu.scaling_driver", "intel_pstate");
    INT(s, "cpu.freq_min_mhz", 400);
    INT(s, "cpu.freq_max_mhz", 3400);
    INT(s, "memory.total_mib", 15921);
    INT(s, "memory.swap_total_mib", 2047);
    INT(s, "memory.swappiness", 60);
    assert_int_equal(json_array_size(at(s, "sound.cards")), 2);
    STR(s, "sound.cards.0.id", "PCH");
    STR(s, "sound.cards.0.driver", "HDA-Intel");
    STR(s, "sound.cards.0.name", "HDA Intel PCH");
    INT(s, "sound.cards.0.irqs.0.irq", 145);
    STR(s, "sound.cards.0.irqs.0.actions", "snd_hda_intel:card0");
    FALSE(s, "sound.cards.0.irqs.0.shared");
    INT(s, "sound.cards.0.irqs.0.count", 912);
    assert_int_equal(json_array_size(at(s, "sound.cards.0.irqs.0.threads")), 0); /* no threadirqs */
    STR(s, "sound.cards.1.driver", "USB-Audio");
    STR(s, "sound.cards.1.name", "Scarlett 2i2 USB");
    INT(s, "sound.cards.1.irqs.0.irq", 124); /* the xhci controller at 0000:00:14.0 */
    STR(s, "sound.cards.1.irqs.0.actions", "xhci_hcd");
    assert_int_equal(json_array_size(at(s, "audio_servers")), 1);
    STR(s, "audio_servers.0.name", "pulseaudio");
    json_decref(s);
}

static void test_lowlatency(void **state)
{
    (void)state;
    json_t *s = collect("sys-lowlatency");
    STR(s, "kernel.release", "5.15.0-91-lowlatency");
    STR(s, "kernel.config_source", "/boot/config-5.15.0-91-lowlatency");
    STR(s, "kernel.preempt", "full");
    STR(s, "kernel.preempt_source", "config");
    FALSE(s, "kernel.preempt_dynamic");
    INT(s, "kernel.hz", 1000);
    STR(s, "kernel.nohz", "idle");
    TRUE(s, "kernel.threadirqs");
    STR(s, "kernel.threadirqs_source", "cmdline");
    TRUE(s, "kernel.rt_throttling.enabled");
    STR(s, "cpu.model", "AMD Ryzen 5 3600 6-Core Processor");
    INT(s, "cpu.threads", 12);
    INT(s, "cpu.cores", 6);
    TRUE(s, "cpu.smt.active");
    STR(s, "cpu.governor", "performance");
    INT(s, "memory.swap_total_mib", 0);
    INT(s, "memory.swappiness", 10);
    INT(s, "sound.cards.0.irqs.0.irq", 88);
    /* rtirq raised the card's interrupt thread: its name is cut to 15 characters by the kernel. */
    STR(s, "sound.cards.0.irqs.0.threads.0.name", "irq/88-snd_hda_");
    INT(s, "sound.cards.0.irqs.0.threads.0.rt_priority", 90);
    STR(s, "sound.cards.0.irqs.0.threads.0.policy", "SCHED_FIFO");
    INT(s, "sound.cards.1.irqs.0.irq", 61);
    INT(s, "sound.cards.1.irqs.0.threads.0.rt_priority", 85);
    STR(s, "audio_servers.0.name", "jackd");
    STR(s, "audio_servers.0.cmdline", "/usr/bin/jackd -P85 -dalsa -dhw:USB -r48000 -p64 -n3");
    json_decref(s);
}

static void test_preempt_rt(void **state)
{
    (void)state;
    json_t *s = collect("sys-rt");
    STR(s, "kernel.release", "6.6.30-rt30");
    /* /proc/config.gz wins over a stale /boot/config-RELEASE (which says voluntary and HZ 250). */
    STR(s, "kernel.config_source", "/proc/config.gz");
    STR(s, "kernel.preempt", "rt");
    STR(s, "kernel.preempt_source", "config");
    INT(s, "kernel.hz", 1000);
    STR(s, "kernel.nohz", "full");
    TRUE(s, "kernel.threadirqs");
    STR(s, "kernel.threadirqs_source", "preempt_rt");
    STR(s, "kernel.isolcpus", "2,3");
    STR(s, "kernel.nohz_full", "2,3");
    STR(s, "kernel.rcu_nocbs", "2,3");
    STR(s, "kernel.isolated_cpus", "2-3");
    STR(s, "kernel.nohz_full_cpus", "2-3");
    STR(s, "kernel.mitigations.cmdline", "off");
    FALSE(s, "kernel.rt_throttling.enabled");
    INT(s, "kernel.rt_throttling.runtime_us", -1);
    INT(s, "cpu.threads", 4);
    INT(s, "cpu.cores", 4);
    FALSE(s, "cpu.smt.active");
    STR(s, "cpu.smt.control", "off");
    INT(s, "cpu.freq_max_mhz", 4200);
    STR(s, "sound.cards.0.name", "Babyface Pro (72381234)");
    INT(s, "sound.cards.0.irqs.0.irq", 126);
    INT(s, "sound.cards.0.irqs.0.threads.0.rt_priority", 90);
    json_decref(s);
}

static void test_dynamic_booted_full(void **state)
{
    (void)state;
    json_t *s = collect("sys-dynamic-full");
    STR(s, "kernel.release", "6.1.0-18-amd64");
    STR(s, "kernel.config_source", "/boot/config-6.1.0-18-amd64");
    /* Built voluntary by default, booted with preempt=full: full is in force. */
    STR(s, "kernel.preempt", "full");
    STR(s, "kernel.preempt_source", "cmdline");
    TRUE(s, "kernel.preempt_dynamic");
    STR(s, "kernel.preempt_default", "voluntary");
    INT(s, "kernel.hz", 250);
    TRUE(s, "kernel.threadirqs");
    STR(s, "kernel.threadirqs_source", "cmdline");
    STR(s, "cpu.governor", "schedutil");
    INT(s, "cpu.threads", 4);
    INT(s, "cpu.cores", 2);
    INT(s, "memory.swap_free_mib", 500);
    /* The handler says only "snd_hda_intel": the IRQ comes from the card's long name. */
    INT(s, "sound.cards.0.irqs.0.irq", 35);
    STR(s, "sound.cards.0.irqs.0.actions", "snd_hda_intel, i801_smbus");
    TRUE(s, "sound.cards.0.irqs.0.shared");
    INT(s, "sound.cards.0.irqs.0.threads.0.rt_priority", 50);
    assert_int_equal(json_array_size(at(s, "audio_servers")), 3);
    STR(s, "audio_servers.0.name", "pipewire");
    STR(s, "audio_servers.1.name", "wireplumber");
    STR(s, "audio_servers.2.name", "pipewire-pulse");
    json_decref(s);
}

static void test_dynamic_debugfs_wins(void **state)
{
    (void)state;
    json_t *s = collect("sys-dynamic-debugfs");
    STR(s, "kernel.config_source", "unknown");
    STR(s, "kernel.preempt", "lazy");
    STR(s, "kernel.preempt_source", "debugfs");
    TRUE(s, "kernel.preempt_dynamic");
    NUL(s, "kernel.preempt_default");
    NUL(s, "kernel.hz");
    NUL(s, "kernel.nohz");
    NUL(s, "kernel.high_res_timers");
    STR(s, "kernel.clocksource", "hpet");
    NUL(s, "cpu.governor");
    NUL(s, "cpu.freq_max_mhz");
    TRUE(s, "sound.asound");
    assert_int_equal(json_array_size(at(s, "sound.cards")), 0);
    json_decref(s);
}

static void test_no_config_is_not_guessed(void **state)
{
    (void)state;
    json_t *s = collect("sys-noconfig");
    STR(s, "kernel.config_source", "unknown");
    STR(s, "kernel.preempt", "unknown");
    NUL(s, "kernel.preempt_source");
    NUL(s, "kernel.preempt_dynamic");
    NUL(s, "kernel.hz");
    assert_int_equal(json_object_size(at(s, "kernel.config")), 0);
    STR(s, "kernel.clocksource", "kvm-clock");
    INT(s, "cpu.threads", 1);
    FALSE(s, "sound.asound");
    json_decref(s);
}

static void test_boot_options_win(void **state)
{
    (void)state;
    /* Built with high-resolution timers and NO_HZ_IDLE; highres=off and nohz=off on the command line. */
    json_t *s = collect("sys-highres-off");
    STR(s, "kernel.config.CONFIG_HIGH_RES_TIMERS", "y");
    FALSE(s, "kernel.high_res_timers");
    STR(s, "kernel.nohz", "periodic");
    STR(s, "kernel.preempt", "voluntary");
    TRUE(s, "kernel.preempt_dynamic");
    json_decref(s);
}

static void test_bare_tree_is_unknown(void **state)
{
    (void)state;
    /* A container's view: no /proc/cmdline. Unreadable is not empty: threadirqs is unknown, not "off". */
    json_t *s = collect("sys-bare");
    STR(s, "hostname", "container");
    STR(s, "kernel.release", "6.1.0-18-amd64");
    NUL(s, "kernel.cmdline");
    NUL(s, "kernel.threadirqs");
    NUL(s, "kernel.threadirqs_source");
    STR(s, "kernel.preempt", "unknown");
    NUL(s, "kernel.high_res_timers");
    NUL(s, "kernel.rt_throttling.enabled");
    NUL(s, "cpu.governor");
    NUL(s, "memory.swappiness");
    NUL(s, "memory.swap_total_mib");
    FALSE(s, "sound.asound");
    json_decref(s);
}

/* A tree whose strings are not UTF-8 (a hostname byte 0xff, an overlong sequence on the command line): kept with
 * U+FFFD, never dropped (jansson's json_string() returns NULL for them and the key would vanish). */
static void test_invalid_utf8_is_kept(void **state)
{
    (void)state;
    char root[] = "/tmp/rtjt-sysinfo-XXXXXX";
    assert_non_null(mkdtemp(root));
    char cmd[8192];
    snprintf(cmd, sizeof(cmd), "cp -r '%s/tests/fixtures/sys-bare/.' '%s/' && mkdir -p '%s/proc' && "
             "printf 'host\\377name\\n' > '%s/proc/sys/kernel/hostname' && "
             "printf 'quiet \\300\\200 threadirqs\\n' > '%s/proc/cmdline'",
             getenv("RTJ_TOP") ? getenv("RTJ_TOP") : ".", root, root, root, root);
    assert_int_equal(system(cmd), 0);
    json_t *s = sysinfo_collect(root);
    assert_non_null(s);
    STR(s, "hostname", "host\xef\xbf\xbdname");
    STR(s, "kernel.cmdline", "quiet \xef\xbf\xbd\xef\xbf\xbd threadirqs");
    json_decref(s);
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
    assert_int_equal(system(cmd), 0);
}

static void test_missing_root(void **state)
{
    (void)state;
    json_t *s = sysinfo_collect("/nonexistent/rtjitter-root");
    assert_non_null(s);
    STR(s, "kernel.release", "unknown");
    STR(s, "kernel.config_source", "unknown");
    STR(s, "kernel.preempt", "unknown");
    STR(s, "hostname", "unknown");
    json_decref(s);
}

static void test_cmdline_param(void **state)
{
    (void)state;
    char v[64];
    const char *cl = "BOOT_IMAGE=/vmlinuz ro quiet preempt=voluntary threadirqs rcu-nocbs=1-3 preempt=full "
                     "acpi_osi=\"Windows 2015\" -- preempt=none isolcpus=1";
    assert_int_equal(sysinfo_cmdline_param(cl, "preempt", v, sizeof(v)), 1);
    assert_string_equal(v, "full"); /* the last before "--" */
    assert_int_equal(sysinfo_cmdline_param(cl, "threadirqs", v, sizeof(v)), 0);
    assert_string_equal(v, "");
    assert_int_equal(sysinfo_cmdline_param(cl, "rcu_nocbs", v, sizeof(v)), 1);
    assert_string_equal(v, "1-3");
    assert_int_equal(sysinfo_cmdline_param(cl, "acpi_osi", v, sizeof(v)), 1);
    assert_string_equal(v, "Windows 2015");
    assert_int_equal(sysinfo_cmdline_param(cl, "isolcpus", v, sizeof(v)), -ENOENT); /* init's argument */
    assert_int_equal(sysinfo_cmdline_param(cl, "quie", v, sizeof(v)), -ENOENT);
    assert_int_equal(sysinfo_cmdline_param("", "quiet", v, sizeof(v)), -ENOENT);
    char small[4];
    assert_int_equal(sysinfo_cmdline_param("preempt=voluntary", "preempt", small, sizeof(small)), 1);
    assert_string_equal(small, "vol");
}

static void test_live_system(void **state)
{
    (void)state;
    /* Whatever this machine is, the identity has its frame and a release. */
    json_t *s = sysinfo_collect("");
    assert_non_null(s);
    assert_true(json_is_string(at(s, "kernel.release")));
    assert_true(json_is_string(at(s, "kernel.preempt")));
    assert_true(json_is_string(at(s, "kernel.config_source")));
    assert_true(json_integer_value(at(s, "cpu.threads")) >= 1);
    json_decref(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_generic),
        cmocka_unit_test(test_invalid_utf8_is_kept),
        cmocka_unit_test(test_lowlatency),
        cmocka_unit_test(test_preempt_rt),
        cmocka_unit_test(test_dynamic_booted_full),
        cmocka_unit_test(test_dynamic_debugfs_wins),
        cmocka_unit_test(test_no_config_is_not_guessed),
        cmocka_unit_test(test_boot_options_win),
        cmocka_unit_test(test_bare_tree_is_unknown),
        cmocka_unit_test(test_missing_root),
        cmocka_unit_test(test_cmdline_param),
        cmocka_unit_test(test_live_system),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
