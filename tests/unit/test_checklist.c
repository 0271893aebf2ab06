/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The studio checklist of `rtjitter check` on the fake trees of tests/fixtures (make-fixtures.py's content is the
 * truth: each make_* function says what its set-up is), judged for the user musician, with this process's state
 * injected (a login with or without its real-time limits): privileges and the one fix, the kernel's boot set-up,
 * the CPU, disks, IRQs, the audio stack and power managers; OK, WARN/FAIL and SKIP for each. Also
 * privileges_judge() (what `run` is told) and the live process probe. test_checks.c loops over the whole table on
 * every tree; this file checks the values and fixes each tree calls for. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "checks/checks.h"
#include "checks/privileges.h"
#include "util/wrap.h"

#define MAXCHECKS 64

/* A login of musician (uid 1000) in groups (a comma-separated list), with these soft limits in force
 * (memlock in bytes, -1 for unlimited) and a SCHED_FIFO try that worked or was refused. */
static json_t *login(const char *groups, long long rtprio, long long memlock, int fifo_ok)
{
    json_t *g = json_array();
    char buf[256], *save = NULL;
    snprintf(buf, sizeof(buf), "%s", groups);
    for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save))
        json_array_append_new(g, json_string(t));
    return json_pack("{s:i, s:i, s:i, s:s, s:s, s:s, s:o, s:b, s:b, s:{s:I, s:I}, s:{s:o, s:o}, "
                     "s:{s:i, s:b, s:o}, s:{s:b, s:s}}",
                     "uid", 1000, "euid", 1000, "gid", 1000, "user", "musician", "judged_user", "musician", "home",
                     "/home/musician", "groups", g, "cap_sys_nice", 0, "cap_ipc_lock", 0,
                     "rtprio", "soft", (json_int_t)rtprio, "hard", (json_int_t)rtprio,
                     "memlock", "soft", memlock < 0 ? json_string("unlimited") : json_integer(memlock),
                     "hard", memlock < 0 ? json_string("unlimited") : json_integer(memlock),
                     "sched_fifo", "priority", 80, "ok", fifo_ok, "error",
                     fifo_ok ? json_null() : json_string("Operation not permitted"),
                     "cpu_dma_latency", "writable", 0, "error", "Permission denied");
}

/* The tree `fixture`, collected for musician with the recording location rec (or none), and proc as this
 * process (stolen; NULL: not probed). */
static json_t *tree(const char *fixture, const char *rec, json_t *proc)
{
    const char *top = getenv("RTJ_TOP");
    char root[4096];
    snprintf(root, sizeof(root), "%s/tests/fixtures/%s", top ? top : ".", fixture);
    const char *paths[2] = { rec, NULL };
    struct checks_env env = { .root = root, .user = "musician", .paths = rec ? paths : NULL };
    json_t *sys = checks_collect(&env);
    assert_non_null(sys);
    if (proc)
        json_object_set_new(sys, "process", proc);
    return sys;
}

/* The results as a reader sees them: the command marks of the text form (util/wrap.h) taken out, so that they
 * compare with the plain text the checklist says (the JSON's). */
static void plain(struct check_result *r, int n)
{
    for (int i = 0; i < n; i++)
        wrap_unmark(r[i].why), wrap_unmark(r[i].fix);
}

static int run(const json_t *sys, struct check_result *r)
{
    int n = checks_run(sys, NULL, r, MAXCHECKS);
    assert_int_equal(n, (int)checks_count());
    plain(r, n);
    return n;
}

#define CONTAINS(hay, needle) do { \
        if (!strstr((hay), (needle))) fail_msg("\"%s\" not in \"%s\"", (needle), (hay)); \
    } while (0)

static const struct check_result *expect(const struct check_result *r, int n, const char *id,
                                         enum check_status status, const char *value)
{
    for (int i = 0; i < n; i++)
        if (strcmp(r[i].check->id, id) == 0) {
            if (r[i].status != status)
                fail_msg("%s: status %s, want %s (why: %s)", id, check_status_name(r[i].status),
                         check_status_name(status), r[i].why);
            CONTAINS(r[i].why, value);
            return &r[i];
        }
    fail_msg("no check %s", id);
    return NULL;
}

/* Ubuntu laptop: musician is not in audio, which jackd2's audio.conf grants; a login without the limits. */
static void test_generic_laptop(void **state)
{
    (void)state;
    struct check_result r[MAXCHECKS];
    json_t *s = tree("sys-generic", "/media/musician/USB STICK/takes", login("musician,sudo,plugdev", 0, 8388608,
                                                                                  0));
    int n = run(s, r);
    const char *usermod = "sudo usermod -aG audio musician, then log out and in again "
                          "(/etc/security/limits.d/audio.conf grants audio rtprio 95 and memlock unlimited)";
    expect(r, n, "root", CHECK_OK, "running as musician (uid 1000)");
    const struct check_result *x = expect(r, n, "rtprio", CHECK_FAIL, "RLIMIT_RTPRIO is 0 for this login");
    assert_string_equal(x->fix, usermod);
    x = expect(r, n, "memlock", CHECK_FAIL, "RLIMIT_MEMLOCK is 8192 KiB for this login");
    assert_string_equal(x->fix, usermod);
    x = expect(r, n, "sched_fifo", CHECK_FAIL, "priority 80 was refused (Operation not permitted)");
    assert_string_equal(x->fix, usermod);
    x = expect(r, n, "limits_files", CHECK_WARN, "grants audio rtprio 95 and memlock unlimited, and musician is "
                                                  "not in audio");
    assert_string_equal(x->fix, usermod);
    expect(r, n, "rtkit", CHECK_OK, "rtkit 0.13-4build2 is installed (started by D-Bus when asked) and hands out "
                                    "real-time priority up to 20 (rtkit's default)");
    x = expect(r, n, "boost", CHECK_WARN, "intel_pstate/no_turbo is 0");
    assert_string_equal(x->fix, "echo 1 | sudo tee /sys/devices/system/cpu/intel_pstate/no_turbo (while you play; "
                                "TLP: CPU_BOOST_ON_AC=0)");
    expect(r, n, "smt", CHECK_WARN, "SMT is on (smt/active 1, control on)");
    x = expect(r, n, "idle_states", CHECK_WARN, "C7s takes 124 µs to leave (on 8 of 8 CPUs; deepest C10, 890 µs");
    CONTAINS(x->fix, "cpupower idle-set -D 100");
    x = expect(r, n, "cpu_dma_latency", CHECK_WARN, "not writable for musician (Permission denied)");
    CONTAINS(x->fix, "/etc/udev/rules.d/99-cpu-dma-latency.rules");
    /* \040 in /proc/mounts is the space of "USB STICK". */
    expect(r, n, "filesystems", CHECK_WARN, "/media/musician/USB STICK/takes is on vfat (/dev/sda1, mounted on "
                                            "/media/musician/USB STICK): a FAT filesystem");
    expect(r, n, "inotify", CHECK_WARN, "fs.inotify.max_user_watches is 8192");
    expect(r, n, "usb_irq", CHECK_OK, "IRQ 124 (xhci_hcd)");
    expect(r, n, "hz", CHECK_OK, "CONFIG_HZ is 250");
    expect(r, n, "nohz", CHECK_OK, "NO_HZ_IDLE");
    expect(r, n, "isolation", CHECK_OK, "no CPU is isolated");
    expect(r, n, "mitigations", CHECK_OK, "3 of 3 CPU vulnerabilities mitigated, 0 left vulnerable");
    expect(r, n, "timer_migration", CHECK_OK, "kernel.timer_migration is 1 (the default)");
    expect(r, n, "boot_setup", CHECK_OK, "no lowlatency set-up in /etc/default/grub.d");
    /* pipewire's config files are left behind by a removed package: not installed. */
    expect(r, n, "audio_stack", CHECK_OK, "jackd2 1.9.20~dfsg-1 installed; no JACK server or PipeWire running");
    expect(r, n, "server_rt", CHECK_SKIP, "no JACK server");
    expect(r, n, "pipewire_clock", CHECK_SKIP, "PipeWire is not installed");
    x = expect(r, n, "usb_autosuspend", CHECK_WARN, "Scarlett 2i2 USB (USB 1-1, 1235:8210): power/control is auto, "
                                                    "so it may be suspended after 2000 ms idle");
    CONTAINS(x->fix, "echo on | sudo tee /sys/bus/usb/devices/1-1/power/control");
    CONTAINS(x->fix, "ATTR{idVendor}==\"1235\", ATTR{idProduct}==\"8210\", ATTR{power/control}=\"on\"");
    x = expect(r, n, "power_profile", CHECK_WARN, "power-profiles-daemon's profile is balanced");
    assert_string_equal(x->fix, "powerprofilesctl set performance (while you play)");
    x = expect(r, n, "tlp", CHECK_WARN, "TLP (on AC): SOUND_POWER_SAVE_ON_AC=1 (TLP's default)");
    CONTAINS(x->fix, "SOUND_POWER_SAVE_ON_AC=0 in /etc/tlp.d/90-audio.conf");
    expect(r, n, "laptop_mode", CHECK_OK, "vm.laptop_mode is 0");
    json_decref(s);
    /* Without a recording location, only / and /home: both ext4 on the root filesystem. */
    s = tree("sys-generic", NULL, NULL);
    n = run(s, r);
    expect(r, n, "filesystems", CHECK_OK, "/ ext4 (/dev/nvme0n1p2), /home ext4 (/dev/nvme0n1p2)");
    expect(r, n, "rtprio", CHECK_SKIP, "not probed");
    expect(r, n, "cpu_dma_latency", CHECK_SKIP, "not probed");
    json_decref(s);
}

/* Ubuntu Studio desktop: musician in audio, a login with the limits in force, jackd running real-time. */
static void test_lowlatency_in_force(void **state)
{
    (void)state;
    struct check_result r[MAXCHECKS];
    json_t *s = tree("sys-lowlatency", NULL, login("musician,audio,sudo", 95, -1, 1));
    json_object_set_new(json_object_get(json_object_get(s, "process"), "cpu_dma_latency"), "writable", json_true());
    int n = run(s, r);
    expect(r, n, "rtprio", CHECK_OK, "RLIMIT_RTPRIO is 95 for this login: real-time priorities up to 95");
    expect(r, n, "memlock", CHECK_OK, "RLIMIT_MEMLOCK is unlimited for this login");
    expect(r, n, "sched_fifo", CHECK_OK, "got SCHED_FIFO at priority 80");
    expect(r, n, "limits_files", CHECK_OK, "musician gets rtprio 95 (/etc/security/limits.d/audio.conf, for @audio) "
                                           "and memlock unlimited");
    expect(r, n, "rtkit", CHECK_OK, "up to 88 (--max-realtime-priority)");
    expect(r, n, "boost", CHECK_OK, "boost is off (/sys/devices/system/cpu/cpufreq/boost is 0)");
    expect(r, n, "idle_states", CHECK_OK, "the deepest idle state in use, C2, takes 18 µs to leave (driver "
                                          "acpi_idle)");
    expect(r, n, "cpu_dma_latency", CHECK_OK, "writable for musician");
    expect(r, n, "filesystems", CHECK_OK, "/home xfs (/dev/sdb1)");
    expect(r, n, "inotify", CHECK_OK, "524288");
    expect(r, n, "hz", CHECK_OK, "CONFIG_HZ is 1000");
    expect(r, n, "boot_setup", CHECK_OK, "the options of /etc/default/grub are in force");
    expect(r, n, "server_rt", CHECK_OK, "jackd (pid 2750): 2 real-time threads, SCHED_FIFO 85 (jackd)");
    expect(r, n, "audio_stack", CHECK_OK, "running: jackd (pid 2750: /usr/bin/jackd -P85 -dalsa -dhw:USB");
    expect(r, n, "usb_autosuspend", CHECK_OK, "Scarlett 2i2 USB (USB 3-4): power/control on");
    expect(r, n, "power_profile", CHECK_OK, "power-profiles-daemon is not installed");
    expect(r, n, "tlp", CHECK_OK, "TLP is not installed");
    struct priv_result p;
    privileges_judge(s, &p);
    assert_true(p.realtime && p.mlock && !p.root);
    assert_string_equal(p.user, "musician");
    assert_string_equal(p.why, "");
    assert_string_equal(p.fix, "");
    json_decref(s);
}

/* Debian 12, the musician: in audio, and audio.conf installed after this login started. */
static void test_dynamic_full_log_in_again(void **state)
{
    (void)state;
    struct check_result r[MAXCHECKS];
    json_t *s = tree("sys-dynamic-full", NULL, login("musician,audio,pipewire,sudo", 0, 8388608, 0));
    int n = run(s, r);
    /* Without the login's facts (process.login: test_login_states.c has them), no claim about when it began. */
    const char *again = "log out and in again (or reboot): you are in audio, and /etc/security/limits.d/audio.conf "
                        "grants it rtprio 95 and memlock unlimited, and a new login gets it";
    const struct check_result *x = expect(r, n, "rtprio", CHECK_FAIL, "you are in audio, and "
                                          "/etc/security/limits.d/audio.conf grants it rtprio 95");
    assert_string_equal(x->fix, again);
    x = expect(r, n, "memlock", CHECK_FAIL, "RLIMIT_MEMLOCK is 8192 KiB");
    assert_string_equal(x->fix, again);
    assert_null(strstr(x->fix, "usermod")); /* never "join audio" to a member of audio */
    expect(r, n, "limits_files", CHECK_OK, "musician gets rtprio 95 (/etc/security/limits.d/audio.conf, for @audio)");
    struct priv_result p;
    privileges_judge(s, &p);
    assert_false(p.realtime);
    assert_false(p.mlock);
    assert_string_equal(p.fix, again); /* one fix for both */
    CONTAINS(p.why, "RLIMIT_RTPRIO is 0 for this login");
    json_t *j = privileges_json(&p);
    assert_string_equal(json_string_value(json_object_get(j, "fix")), again);
    assert_true(json_is_false(json_object_get(j, "realtime")));
    json_decref(j);
    expect(r, n, "rtkit", CHECK_OK, "rtkit 0.13-5 is installed (running)");
    /* PipeWire's data loop at FIFO 20, below the fixture's interrupt thread at 50: behind every interrupt, as run
     * would say of it (sysinfo_irq_floor(), issue 35) */
    expect(r, n, "server_rt", CHECK_WARN, "pipewire (pid 1201) at SCHED_FIFO 20 (data-loop.0): below this machine's "
           "interrupt threads (1 of them, the lowest at 50)");
    x = expect(r, n, "pipewire_clock", CHECK_WARN, "default.clock.min-quantum is 512 "
               "(/home/musician/.config/pipewire/pipewire.conf.d/50-studio.conf)");
    CONTAINS(x->fix, "default.clock.min-quantum = 16");
    expect(r, n, "boot_setup", CHECK_OK, "Ubuntu Studio's set-up is installed (/etc/default/grub.d/ubuntustudio.cfg) "
                                         "and its options are in force");
    x = expect(r, n, "boost", CHECK_WARN, "/sys/devices/system/cpu/cpufreq/boost is 1");
    CONTAINS(x->fix, "echo 0 | sudo tee /sys/devices/system/cpu/cpufreq/boost");
    expect(r, n, "usb_irq", CHECK_WARN, "shares IRQ 16 with other devices (handlers: ehci_hcd:usb1, rtsx_pci)");
    expect(r, n, "usb_autosuspend", CHECK_SKIP, "no USB audio device");
    expect(r, n, "cpu_dma_latency", CHECK_SKIP, "no /dev/cpu_dma_latency");
    expect(r, n, "power_profile", CHECK_OK, "profile is performance");
    x = expect(r, n, "laptop_mode", CHECK_WARN, "vm.laptop_mode is 5");
    assert_string_equal(x->fix, "sysctl vm.laptop_mode=0");
    expect(r, n, "inotify", CHECK_WARN, "29463");
    expect(r, n, "idle_states", CHECK_OK, "C3, takes 70 µs");
    json_decref(s);
    /* Added to audio after this login started: the login has not the group yet. */
    s = tree("sys-dynamic-full", NULL, login("musician,sudo", 0, 8388608, 0));
    n = run(s, r);
    x = expect(r, n, "rtprio", CHECK_FAIL, "you are in audio (/etc/group)");
    CONTAINS(x->fix, "log out and in again (or reboot): you were added to audio after this login started");
    json_decref(s);
}

/* A PREEMPT_RT stage rig, not Debian: the realtime group, and what cannot be known without dpkg. */
static void test_rt_rig(void **state)
{
    (void)state;
    struct check_result r[MAXCHECKS];
    json_t *s = tree("sys-rt", "/mnt/nas/takes", login("musician", 0, 65536, 0));
    int n = run(s, r);
    const struct check_result *x = expect(r, n, "rtprio", CHECK_FAIL, "RLIMIT_RTPRIO is 0");
    CONTAINS(x->fix, "you were added to realtime after this login started, so it has none of realtime's rights "
                     "(/etc/security/limits.d/99-realtime.conf grants realtime rtprio 98 and memlock unlimited)");
    expect(r, n, "rtkit", CHECK_SKIP, "whether rtkit is installed is unknown");
    expect(r, n, "power_profile", CHECK_SKIP, "unknown");
    expect(r, n, "boot_setup", CHECK_SKIP, "no /etc/default/grub");
    expect(r, n, "boost", CHECK_SKIP, "no boost control");
    expect(r, n, "idle_states", CHECK_OK, "C1E, takes 10 µs"); /* C6 and C8 are disabled */
    expect(r, n, "smt", CHECK_OK, "SMT is off");
    expect(r, n, "filesystems", CHECK_WARN, "/mnt/nas/takes is on nfs4 (nas:/takes, mounted on /mnt/nas): a network "
                                            "filesystem");
    expect(r, n, "isolation", CHECK_OK, "isolated CPUs 2-3 (isolcpus=2,3), tickless CPUs 2-3 (nohz_full=2,3)");
    expect(r, n, "mitigations", CHECK_OK, "mitigations=off");
    expect(r, n, "nohz", CHECK_OK, "NO_HZ_FULL");
    expect(r, n, "server_rt", CHECK_OK, "jackd (pid 3100): 1 real-time thread, SCHED_FIFO 80 (jackd)");
    expect(r, n, "audio_stack", CHECK_OK, "jackd2 installed; running: jackd (pid 3100");
    expect(r, n, "usb_autosuspend", CHECK_OK, "Babyface Pro (72381234) (USB 3-2): power/control on");
    expect(r, n, "tlp", CHECK_OK, "its AC settings keep");
    x = expect(r, n, "laptop_mode", CHECK_WARN, "ENABLE_LAPTOP_MODE_ON_AC=1");
    CONTAINS(x->fix, "ENABLE_LAPTOP_MODE_ON_AC=0");
    json_decref(s);
}

/* What nobody granted, a server started without real time, the boot options waiting for update-grub. */
static void test_missing_grants_and_pending_boot(void **state)
{
    (void)state;
    struct check_result r[MAXCHECKS];
    /* jackd2 installed, but no audio.conf (its question was answered No); musician is in audio already. */
    json_t *s = tree("sys-noconfig", NULL, login("musician,audio", 0, 8388608, 0));
    int n = run(s, r);
    const struct check_result *x = expect(r, n, "limits_files", CHECK_WARN, "no file in /etc/security/limits.d "
                                          "(nor limits.conf) grants musician real-time rights");
    assert_string_equal(x->fix, "sudo dpkg-reconfigure -p high jackd2 and answer Yes (it writes "
                                "/etc/security/limits.d/audio.conf: @audio rtprio 95, memlock unlimited), and log out "
                                "and in again");
    x = expect(r, n, "server_rt", CHECK_WARN, "jackd (pid 4400, 2 threads) runs none of its threads with real-time scheduling");
    CONTAINS(x->fix, "not -r");
    json_decref(s);
    /* Neither jackd2 nor a limits file: the file to write, and joining audio. */
    s = tree("sys-highres-off", NULL, login("musician,sudo", 0, 8388608, 0));
    n = run(s, r);
    x = expect(r, n, "rtprio", CHECK_FAIL, "no file in /etc/security/limits.d");
    assert_string_equal(x->fix, "write /etc/security/limits.d/audio.conf with the lines \"@audio - rtprio 95\" and "
                                "\"@audio - memlock unlimited\", then sudo usermod -aG audio musician, and log out and "
                                "in again");
    expect(r, n, "audio_stack", CHECK_WARN, "neither jackd2 nor pipewire-jack is installed");
    json_decref(s);
    /* Real time from the pipewire group (4 GiB of memlock is plenty); Ubuntu Studio's options half in force. */
    s = tree("sys-pending", NULL, login("musician,pipewire", 95, 4294967296LL, 1));
    n = run(s, r);
    expect(r, n, "limits_files", CHECK_OK, "rtprio 95 (/etc/security/limits.d/95-pipewire.conf, for @pipewire) and "
                                           "memlock 4194304 KiB");
    expect(r, n, "memlock", CHECK_OK, "RLIMIT_MEMLOCK is 4194304 KiB");
    x = expect(r, n, "boot_setup", CHECK_WARN, "Ubuntu Studio's set-up (/etc/default/grub.d/ubuntustudio.cfg) sets "
                                               "preempt=full, but /proc/cmdline does not have it");
    assert_string_equal(x->fix, "sudo update-grub, then reboot");
    x = expect(r, n, "isolation", CHECK_WARN, "nohz_full=all is on the kernel command line, but no CPU is tickless");
    CONTAINS(x->fix, "CONFIG_NO_HZ_FULL=y");
    expect(r, n, "pipewire_clock", CHECK_SKIP, "PipeWire is installed, but no pipewire.conf was found");
    expect(r, n, "rtkit", CHECK_OK, "rtkit 0.13-5 is installed");
    json_decref(s);
    /* PipeWire without rtkit; PipeWire's defaults let JACK clients run small buffers. */
    s = tree("sys-dynamic-debugfs", NULL, NULL);
    n = run(s, r);
    x = expect(r, n, "rtkit", CHECK_WARN, "rtkit is not installed");
    assert_string_equal(x->fix, "sudo apt install rtkit");
    expect(r, n, "pipewire_clock", CHECK_OK, "rate 48000, quantum 1024 (min 16, max 2048)");
    expect(r, n, "audio_stack", CHECK_OK, "pipewire-jack 1.2.7-1 installed");
    expect(r, n, "limits_files", CHECK_SKIP, "/etc/group or /etc/security could not be read");
    json_decref(s);
}

/* Branches no tree takes, on edited objects. */
static void test_edited(void **state)
{
    (void)state;
    struct check_result r[MAXCHECKS];
    json_t *s = tree("sys-lowlatency", NULL, login("musician,audio", 95, -1, 0));
    json_t *proc = json_object_get(s, "process"), *setup = json_object_get(s, "setup");
    json_t *k = json_object_get(s, "kernel");
    /* The limits allow it, the thread is refused all the same: a cgroup without real-time time. */
    int n = run(s, r);
    expect(r, n, "sched_fifo", CHECK_FAIL, "although the limits allow it");
    /* Root under sudo: the musician's set-up is judged, and this is said. */
    json_object_set_new(proc, "euid", json_integer(0));
    json_object_set_new(proc, "user", json_string("root"));
    json_object_set_new(proc, "cap_sys_nice", json_true());
    json_object_set_new(proc, "cap_ipc_lock", json_true());
    json_object_set_new(proc, "rtprio", json_pack("{s:i, s:i}", "soft", 0, "hard", 0));
    n = run(s, r);
    const struct check_result *x = expect(r, n, "root", CHECK_WARN, "running as root (through sudo, for musician)");
    assert_string_equal(x->fix, "run rtjitter as musician, without sudo");
    expect(r, n, "rtprio", CHECK_OK, "CAP_SYS_NICE (root): real-time priority is allowed whatever RLIMIT_RTPRIO (0)");
    expect(r, n, "memlock", CHECK_OK, "CAP_IPC_LOCK");
    /* A limits line that grants too little. */
    json_t *e = json_array_get(json_object_get(json_object_get(setup, "limits"), "entries"), 0);
    json_object_set_new(e, "value", json_string("50"));
    json_object_set_new(proc, "cap_sys_nice", json_false());
    n = run(s, r);
    x = expect(r, n, "rtprio", CHECK_FAIL, "line 9 gives @audio rtprio 50, less than the 70");
    assert_string_equal(x->fix, "edit /etc/security/limits.d/audio.conf line 9: @audio - rtprio 95");
    /* The tick, isolation, mitigations and timer migration in their other states. */
    json_object_set_new(k, "hz", json_integer(100));
    json_object_set_new(k, "nohz", json_string("periodic"));
    json_object_set_new(k, "isolcpus", json_string("2-3"));
    json_object_set_new(k, "isolated_cpus", json_string(""));
    json_object_set_new(k, "timer_migration", json_integer(0));
    json_object_set_new(json_object_get(json_object_get(k, "mitigations"), "vulnerabilities"), "mds",
                        json_string("Vulnerable: Clear CPU buffers attempted, no microcode"));
    json_object_set_new(json_object_get(json_object_get(s, "cpu"), "smt"), "control", json_string("notsupported"));
    json_array_clear(json_object_get(json_object_get(setup, "idle"), "states"));
    json_array_append_new(json_object_get(json_object_get(setup, "idle"), "states"),
                          json_pack("{s:s, s:i, s:i, s:i}", "name", "C6", "latency_us", 85, "cpus", 12,
                                    "enabled_cpus", 0));
    json_object_set_new(json_object_get(setup, "user"), "name", json_string("root"));
    n = run(s, r);
    x = expect(r, n, "hz", CHECK_WARN, "CONFIG_HZ is 100: the scheduler's tick comes every 10 ms");
    CONTAINS(x->fix, "CONFIG_HZ=1000");
    expect(r, n, "nohz", CHECK_OK, "periodic tick on every CPU");
    expect(r, n, "isolation", CHECK_WARN, "isolcpus=2-3 is on the kernel command line, but no CPU is isolated");
    expect(r, n, "timer_migration", CHECK_OK, "kernel.timer_migration is 0");
    expect(r, n, "mitigations", CHECK_OK, "2 of 3 CPU vulnerabilities mitigated, 1 left vulnerable");
    expect(r, n, "smt", CHECK_OK, "this CPU has no SMT (smt/control is notsupported)");
    expect(r, n, "idle_states", CHECK_OK, "every idle state is disabled");
    expect(r, n, "limits_files", CHECK_SKIP, "judging root's limits says nothing");
    /* PipeWire: a forced quantum, and the VM overrides applied in a virtual machine. */
    json_object_set_new(setup, "pipewire", json_pack("{s:[s], s:{s:{s:s, s:s}}, s:{s:{s:s, s:s}}}", "files",
                        "/etc/pipewire/pipewire.conf", "settings", "default.clock.force-quantum", "value", "1024",
                        "file", "/etc/pipewire/pipewire.conf", "vm_settings", "default.clock.min-quantum", "value",
                        "1024", "file", "/usr/share/pipewire/pipewire.conf"));
    n = run(s, r);
    expect(r, n, "pipewire_clock", CHECK_WARN, "default.clock.force-quantum is 1024 (/etc/pipewire/pipewire.conf)");
    json_object_del(json_object_get(json_object_get(setup, "pipewire"), "settings"), "default.clock.force-quantum");
    n = run(s, r);
    expect(r, n, "pipewire_clock", CHECK_OK, "min 32"); /* not a VM: the overrides do not apply */
    json_object_set_new(setup, "virtual", json_true());
    n = run(s, r);
    x = expect(r, n, "pipewire_clock", CHECK_WARN, "min-quantum is 1024 (/usr/share/pipewire/pipewire.conf, "
                                                   "vm.overrides: this is a virtual machine)");
    CONTAINS(x->fix, "vm.overrides = { default.clock.min-quantum = 16 }");
    /* TLP disabled; power-profiles-daemon with no saved profile; a FUSE and a tmpfs recording location. */
    json_object_set_new(json_object_get(setup, "power"), "tlp", json_pack("{s:s}", "TLP_ENABLE", "0"));
    json_object_set_new(json_object_get(setup, "packages"), "power-profiles-daemon", json_string("0.12-1"));
    json_object_set_new(setup, "mounts", json_pack("[{s:s, s:s, s:s, s:s}, {s:s, s:s, s:s, s:s, s:b}]",
                        "path", "/", "mountpoint", "/", "fstype", "ext4", "source", "/dev/sda1",
                        "path", "/tmp/takes", "mountpoint", "/tmp", "fstype", "tmpfs", "source", "tmpfs",
                        "recording", 1));
    n = run(s, r);
    expect(r, n, "tlp", CHECK_OK, "disabled (TLP_ENABLE=0)");
    expect(r, n, "power_profile", CHECK_OK, "has not saved a profile");
    expect(r, n, "filesystems", CHECK_WARN, "/tmp/takes is on tmpfs");
    json_object_set_new(json_array_get(json_object_get(setup, "mounts"), 1), "fstype", json_string("fuseblk"));
    n = run(s, r);
    expect(r, n, "filesystems", CHECK_WARN, "a FUSE filesystem");
    json_decref(s);
}

/* This process, probed for real: the tests run as root here or as a user; either way the fields are there and
 * agree with each other. tests/integration/privileges.sh probes a real unprivileged user in both states. */
static void test_probe(void **state)
{
    (void)state;
    json_t *p = checks_probe_process("", 0);
    assert_non_null(p);
    assert_true(json_is_integer(json_object_get(p, "euid")));
    assert_true(json_is_string(json_object_get(p, "user")));
    assert_true(json_array_size(json_object_get(p, "groups")) >= 1);
    const json_t *f = json_object_get(p, "sched_fifo");
    assert_int_equal(json_integer_value(json_object_get(f, "priority")), 70);
    assert_true(json_is_boolean(json_object_get(f, "ok")));
    assert_true(json_is_true(json_object_get(f, "ok")) == json_is_null(json_object_get(f, "error")));
    if (geteuid() == 0)
        assert_true(json_is_true(json_object_get(p, "cap_sys_nice")));
    json_t *rt = json_object_get(json_object_get(p, "rtprio"), "soft");
    assert_true(json_is_integer(rt) || (json_is_string(rt) && !strcmp(json_string_value(rt), "unlimited")));
    json_decref(p);
    struct priv_result pr;
    assert_int_equal(privileges_check(70, &pr), 0);
    /* A thread at 70 was tried by privileges_check; it had the right exactly when the probe's says so. */
    assert_true(pr.realtime == 0 || pr.realtime == 1);
    assert_true(pr.realtime || pr.fix[0]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_generic_laptop),
        cmocka_unit_test(test_lowlatency_in_force),
        cmocka_unit_test(test_dynamic_full_log_in_again),
        cmocka_unit_test(test_rt_rig),
        cmocka_unit_test(test_missing_grants_and_pending_boot),
        cmocka_unit_test(test_edited),
        cmocka_unit_test(test_probe),
    };
    return cmocka_run_group_tests_name("checklist", tests, NULL, NULL);
}
