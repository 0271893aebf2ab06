/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Checks of the audio stack: a JACK server installed (jack2 or PipeWire's JACK) and running, the real-time
 * threads of the running servers as /proc shows them, PipeWire's clock settings, and USB autosuspend on audio
 * interfaces. They judge the identity's audio_servers and the set-up (sysinfo/setup_audio.c). */
#include "checks/checks_internal.h"
#include "sysinfo/sysinfo.h"
#include "util/shquote.h"
#include "util/wrap.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "jackd (pid 2750: /usr/bin/jackd -P85 -dalsa ...)" for the running servers of the identity, or "". */
static void servers_text(const json_t *sys, char *b, size_t n)
{
    size_t o = 0, i;
    const json_t *s;
    b[0] = '\0';
    json_array_foreach(json_object_get(sys, "audio_servers"), i, s) {
        const char *name = check_str(s, "name");
        if (!name || (strcmp(name, "jackd") && strcmp(name, "jackdbus") && strcmp(name, "pipewire")))
            continue;
        int w = snprintf(b + o, o < n ? n - o : 0, "%s%s (pid %.0f: %.80s)", o ? ", " : "", name,
                         check_num(s, "pid"), check_str(s, "cmdline") ? check_str(s, "cmdline") : "");
        o += w > 0 ? (size_t)w : 0;
        if (o >= n)
            break;
    }
}

static void eval_audio_stack(const json_t *sys, struct check_result *r)
{
    const char *jv = NULL, *pv = NULL;
    int jack = check_installed(sys, "jackd2", "jackd", &jv), pwj = check_installed(sys, "pipewire-jack", "pw-jack",
                                                                                    &pv);
    char running[300];
    servers_text(sys, running, sizeof(running));
    if (jack < 0 && pwj < 0) {
        check_say(r, CHECK_SKIP, "without dpkg's status (/var/lib/dpkg/status) nor jackd or pw-jack in /usr/bin, "
                  "what is installed is unknown");
        return;
    }
    if (jack <= 0 && pwj <= 0) {
        check_say(r, CHECK_WARN, "neither jackd2 nor pipewire-jack is installed%s%s", running[0] ? "; running: " : "",
                  running);
        check_fix(r, WRAP_CMD("sudo apt install jackd2") " (answer Yes to real-time priority), or "
                  WRAP_CMD("sudo apt install pipewire-jack") " for PipeWire's JACK (pw-jack)");
        return;
    }
    char have[160];
    snprintf(have, sizeof(have), "%s%s%s%s%s%s%s", jack > 0 ? "jackd2" : "", jack > 0 && jv ? " " : "",
             jack > 0 && jv ? jv : "", jack > 0 && pwj > 0 ? " and " : "", pwj > 0 ? "pipewire-jack" : "",
             pwj > 0 && pv ? " " : "", pwj > 0 && pv ? pv : "");
    check_say(r, CHECK_OK, "%s installed; %s%s", have, running[0] ? "running: " : "", running[0] ? running :
              "no JACK server or PipeWire running (rtjitter run starts a private jackd)");
}

const struct check check_audio_stack = {
    .id = "audio_stack",
    .title = "A JACK server (jack2 or PipeWire's JACK)",
    .group = CHECK_AUDIO,
    .reads = "setup.packages, setup.programs (/var/lib/dpkg/status, /usr/bin/jackd, pw-jack), audio_servers (/proc)",
    .level = CHECK_WARN,
    .matters = CHECK_MATTERS_CHECKLIST,
    .eval = eval_audio_stack,
};

static void eval_server_rt(const json_t *sys, struct check_result *r)
{
    const json_t *setup = check_setup(sys), *servers = json_object_get(setup, "audio_servers_rt");
    if (!json_is_true(json_object_get(setup, "proc"))) {
        check_say(r, CHECK_SKIP, "/proc could not be read");
        return;
    }
    if (json_array_size(servers) == 0) {
        check_say(r, CHECK_SKIP, "no JACK server (jackd, jackdbus) or PipeWire is running");
        return;
    }
    /* seen: every server's highest real-time thread; below: those whose audio sits below the interrupt threads */
    char seen[600] = "", below[600] = "", none[300] = "";
    size_t o = 0, ob = 0, on = 0, i;
    int nbelow = 0, jack_below = 0, nonrt = 0, nonrt_pw = 0;
    const json_t *s, *irq = json_object_get(setup, "irq_threads");
    int ip = sysinfo_irq_floor(irq); /* run's rule: the lowest interrupt thread's priority, at most 50 */
    json_array_foreach(servers, i, s) {
        const char *name = check_str(s, "name") ? check_str(s, "name") : "?";
        const json_t *rt = json_object_get(s, "rt"), *best = NULL;
        size_t j;
        const json_t *t;
        json_array_foreach(rt, j, t)
            if (!best || check_num(t, "priority") > check_num(best, "priority"))
                best = t;
        if (!best) { /* said after those below the interrupt threads (a server just starting has none yet) */
            nonrt++;
            nonrt_pw |= strcmp(name, "pipewire") == 0;
            int w = snprintf(none + on, on < sizeof(none) ? sizeof(none) - on : 0, "%s%s (pid %.0f, %.0f threads)",
                             on ? ", " : "", name, check_num(s, "pid"), check_num(s, "threads"));
            on += w > 0 ? (size_t)w : 0;
            continue;
        }
        const char *pol = check_str(best, "policy") ? check_str(best, "policy") : "?";
        const char *comm = check_str(best, "comm") ? check_str(best, "comm") : "?";
        double sp = check_num(best, "priority");
        /* as run judges its audio thread (run_report.c, audio.below_irq_threads): below the highest interrupt
         * thread is behind every interrupt. A jack2 client's audio thread runs 5 below its server's (jackd -P);
         * PipeWire's data loop is the thread that serves the audio. */
        int jack = strcmp(name, "pipewire") != 0;
        if (ip >= 0 && (jack ? sp - 5 : sp) < ip) {
            nbelow++;
            jack_below |= jack;
            int w = snprintf(below + ob, ob < sizeof(below) ? sizeof(below) - ob : 0, "%s%s (pid %.0f) at %s %.0f (%s)%s",
                             ob ? "; " : "", name, check_num(s, "pid"), pol, sp, comm,
                             jack ? ", its clients' audio threads 5 below it" : "");
            ob += w > 0 ? (size_t)w : 0;
        }
        if (o < sizeof(seen)) {
            int w = snprintf(seen + o, sizeof(seen) - o, "%s%s (pid %.0f): %zu real-time thread%s, %s %.0f (%s)",
                             o ? "; " : "", name, check_num(s, "pid"), json_array_size(rt),
                             json_array_size(rt) == 1 ? "" : "s", pol, sp, comm);
            o += w > 0 ? (size_t)w : 0;
        }
    }
    if (nbelow && nonrt)
        snprintf(below + ob, ob < sizeof(below) ? sizeof(below) - ob : 0, "; and with no real-time thread: %s", none);
    if (nonrt && !nbelow) {
        check_say(r, CHECK_WARN, "%s run%s none of %s threads with real-time scheduling: %s audio is served like any "
                  "other program", none, nonrt == 1 ? "s" : "", nonrt == 1 ? "its" : "their",
                  nonrt == 1 ? "its" : "their");
        if (nonrt_pw)
            check_fix(r, WRAP_CMD("sudo apt install rtkit") " (PipeWire asks it for real-time priority), or join the pipewire "
                      "group (Debian's /etc/security/limits.d/95-pipewire.conf grants it rtprio 95): "
                      WRAP_CMD("sudo usermod -aG pipewire $USER") "; then log out and in again");
        else
            check_fix(r, "restart the server with real-time scheduling (" WRAP_CMD("jackd -R -P %d ...") ", not -r) as "
                      "a user whose login has real-time rights (see this checklist's Privileges)", CHECK_RTPRIO_NEED);
        return;
    }
    if (nbelow) {
        check_say(r, CHECK_WARN, "%s: below this machine's interrupt threads (%.0f of them, the lowest at %d), so "
                  "every interrupt goes ahead of the audio", below, check_num(irq, "count"), ip);
        if (jack_below)
            check_fix(r, "restart the server at priority %d or more (" WRAP_CMD("jackd -R -P %d ...") "; jack2 runs "
                      "its clients 5 below it), then rtirq to raise the sound card's interrupt thread above the rest",
                      CHECK_RTPRIO_NEED, CHECK_RTPRIO_NEED);
        else
            check_fix(r, "raise rt.prio of PipeWire's module-rt (pipewire.conf, client-rt.conf) to %d or more, then "
                      "rtirq to raise the sound card's interrupt thread above the rest", CHECK_RTPRIO_NEED);
        return;
    }
    check_say(r, CHECK_OK, "%s", seen);
}

const struct check check_server_rt = {
    .id = "server_rt",
    .title = "The scheduling of the running audio server's thread",
    .group = CHECK_AUDIO,
    .reads = "setup.audio_servers_rt (/proc/PID/task/TID/stat of jackd, jackdbus, pipewire: policy, rt_priority)",
    .level = CHECK_WARN,
    .matters = CHECK_MATTERS_CHECKLIST,
    .eval = eval_server_rt,
};

/* jack2's 8 server slots (setup.jack_registry, util/jackreg.h): a killed server keeps its slot until a server of its
 * name starts again, and with all 8 held no jackd starts. `rtjitter check` frees the dead rtjitter servers' slots
 * before it reads (src/cli/cmd_check.c); what is left is named here, with the command that frees the dead ones. */
static void eval_jack_registry(const json_t *sys, struct check_result *r)
{
    const json_t *reg = json_object_get(check_setup(sys), "jack_registry");
    if (!json_is_object(reg)) {
        check_say(r, CHECK_SKIP, "jack2's registry (/dev/shm/jack-shm-registry) could not be read");
        return;
    }
    if (!json_is_true(json_object_get(reg, "present"))) {
        check_say(r, CHECK_OK, "no jack2 server has run since boot: all 8 server slots are free");
        return;
    }
    double held = check_num(reg, "held"), dead = check_num(reg, "dead");
    const char *who = check_str(reg, "describe"), *cmd = check_str(reg, "free_command");
    if (isnan(held) || isnan(dead) || !who) {
        check_say(r, CHECK_SKIP, "jack2's registry was read, but not what holds it");
        return;
    }
    int full = held >= 8;
    double freed = check_num(reg, "freed");
    char was[80] = "";
    if (freed > 0)
        snprintf(was, sizeof(was), " (%.0f held by dead rtjitter servers were freed first)", freed);
    if (!full && dead == 0) {
        check_say(r, CHECK_OK, "%s: %.0f free%s", who, 8 - held, was);
        return;
    }
    check_say(r, full ? CHECK_FAIL : CHECK_WARN, "%s%s%s", who, was,
              full ? " (no JACK server can start: \"Too many servers already active\")"
                   : " (a killed server keeps its slot until a server of its name starts again)");
    if (dead > 0 && cmd && cmd[0])
        check_fix(r, "free the dead servers' slots (each name started once and stopped): " WRAP_CMD_ON "%s"
                  WRAP_CMD_OFF, cmd);
    else if (dead > 0)
        check_fix(r, "start each dead server's name once and stop it (jackd -n NAME -d dummy, then kill it): jack2 "
                  "then frees its slot");
    else
        check_fix(r, "stop one of the live servers named above (kill PID)");
}

const struct check check_jack_registry = {
    .id = "jack_registry",
    .title = "Free server slots in jack2's registry",
    .group = CHECK_AUDIO,
    .reads = "setup.jack_registry (/dev/shm/jack-shm-registry: 8 slots, each a pid and a name; /proc)",
    .level = CHECK_FAIL,
    .matters = CHECK_MATTERS_CHECKLIST,
    .eval = eval_jack_registry,
};

/* A JACK client under PipeWire cannot get a buffer smaller than min-quantum (nor other than force-quantum). */
#define PW_QUANTUM_MAX_SMALL 256

/* PipeWire applies vm.overrides over the settings in a virtual machine only. */
static const json_t *pw_setting(const json_t *pw, int vm, const char *key)
{
    const json_t *o = vm ? json_object_get(json_object_get(pw, "vm_settings"), key) : NULL;
    return o ? o : json_object_get(json_object_get(pw, "settings"), key);
}

static const char *pw_value(const json_t *pw, int vm, const char *key, const char *dflt)
{
    const char *v = check_str(pw_setting(pw, vm, key), "value");
    return v ? v : dflt;
}

static void eval_pipewire_clock(const json_t *sys, struct check_result *r)
{
    const json_t *pw = json_object_get(check_setup(sys), "pipewire");
    int vm = json_is_true(json_object_get(check_setup(sys), "virtual"));
    if (!json_is_object(pw)) {
        int have = check_installed(sys, "pipewire", NULL, NULL);
        check_say(r, CHECK_SKIP, "%s", have > 0 ? "PipeWire is installed, but no pipewire.conf was found" :
                  "no PipeWire configuration (/usr/share/pipewire/pipewire.conf): PipeWire is not installed");
        return;
    }
    const char *rate = pw_value(pw, vm, "default.clock.rate", "48000");
    const char *q = pw_value(pw, vm, "default.clock.quantum", "1024");
    const char *minq = pw_value(pw, vm, "default.clock.min-quantum", "32");
    const char *maxq = pw_value(pw, vm, "default.clock.max-quantum", "2048");
    const char *force = pw_value(pw, vm, "default.clock.force-quantum", "0");
    long lmin = strtol(minq, NULL, 10), lforce = strtol(force, NULL, 10);
    const char *where = check_str(pw_setting(pw, vm, "default.clock.min-quantum"), "file");
    int from_vm = vm && json_object_get(json_object_get(pw, "vm_settings"), "default.clock.min-quantum");
    if (lforce > PW_QUANTUM_MAX_SMALL || lmin > PW_QUANTUM_MAX_SMALL) {
        int forced = lforce > PW_QUANTUM_MAX_SMALL;
        if (forced)
            where = check_str(pw_setting(pw, vm, "default.clock.force-quantum"), "file");
        check_say(r, CHECK_WARN, "default.clock.%s is %s (%s%s): JACK clients under PipeWire cannot run at a "
                  "smaller buffer (rate %s, quantum %s, min %s, max %s)", forced ? "force-quantum" : "min-quantum",
                  forced ? force : minq, where ? where : "?", !forced && from_vm ? ", vm.overrides: this is a "
                  "virtual machine" : "", rate, q, minq, maxq);
        check_fix(r, "in ~/.config/pipewire/pipewire.conf.d/90-audio.conf: context.properties = { "
                  "default.clock.min-quantum = 16 default.clock.force-quantum = 0%s }, then "
                  WRAP_CMD("systemctl --user restart pipewire"), from_vm ? " vm.overrides = { default.clock.min-quantum = 16 }" : "");
        return;
    }
    check_say(r, CHECK_OK, "rate %s, quantum %s (min %s, max %s)%s%s; pw-jack -p 64 runs a JACK client at 64 "
              "frames", rate, q, minq, maxq, lforce > 0 ? ", forced to " : "", lforce > 0 ? force : "");
}

const struct check check_pipewire_clock = {
    .id = "pipewire_clock",
    .title = "PipeWire's smallest buffer for JACK clients (quantum)",
    .group = CHECK_AUDIO,
    .reads = "setup.pipewire (default.clock.* in pipewire.conf and pipewire.conf.d of /usr/share/pipewire, "
             "/etc/pipewire, ~/.config/pipewire)",
    .level = CHECK_WARN,
    .matters = CHECK_MATTERS_CHECKLIST,
    .eval = eval_pipewire_clock,
};

/* A USB vendor or product id as a udev rule may hold it: four hex digits, else "?" (never a quote or a brace
 * read from the system into the rule). */
static const char *usb_id(const char *id)
{
    return id && strlen(id) == 4 && strspn(id, "0123456789abcdefABCDEF") == 4 ? id : "?";
}

static void eval_usb_autosuspend(const json_t *sys, struct check_result *r)
{
    const json_t *usb = json_object_get(check_setup(sys), "usb"), *devs = json_object_get(usb, "audio_devices");
    if (!json_is_true(json_object_get(usb, "sysfs"))) {
        check_say(r, CHECK_SKIP, "/sys/bus/usb/devices could not be read");
        return;
    }
    if (json_array_size(devs) == 0) {
        check_say(r, CHECK_SKIP, "no USB audio device (no interface of class 01 in /sys/bus/usb/devices)");
        return;
    }
    char seen[300] = "";
    size_t o = 0, i;
    const json_t *d;
    json_array_foreach(devs, i, d) {
        const char *dev = check_str(d, "device"), *ctl = check_str(d, "control"), *name = check_str(d, "product");
        if (ctl && strcmp(ctl, "auto") == 0) {
            double delay = check_num(d, "autosuspend_delay_ms");
            check_say(r, CHECK_WARN, "%s (USB %s, %s:%s): power/control is auto, so it may be suspended after "
                      "%.0f ms idle (a click, or a device that wakes late)", name ? name : "?", dev,
                      check_str(d, "vendor_id") ? check_str(d, "vendor_id") : "?",
                      check_str(d, "product_id") ? check_str(d, "product_id") : "?", isnan(delay) ? 2000 : delay);
            char ctl_path[300];
            snprintf(ctl_path, sizeof(ctl_path), "/sys/bus/usb/devices/%.200s/power/control", dev ? dev : "?");
            check_fix(r, WRAP_CMD("echo on | sudo tee %s") "; to keep it: ACTION==\"add\", SUBSYSTEM==\"usb\", "
                      "ATTR{idVendor}==\"%s\", ATTR{idProduct}==\"%s\", ATTR{power/control}=\"on\" in "
                      "/etc/udev/rules.d/90-usb-audio-pm.rules",
                      shq(ctl_path).s, usb_id(check_str(d, "vendor_id")), usb_id(check_str(d, "product_id")));
            return;
        }
        if (o < sizeof(seen)) {
            int w = snprintf(seen + o, sizeof(seen) - o, "%s%s (USB %s): power/control %s", o ? ", " : "",
                             name ? name : "?", dev ? dev : "?", ctl ? ctl : "unknown");
            o += w > 0 ? (size_t)w : 0;
        }
    }
    check_say(r, CHECK_OK, "%s", seen);
}

const struct check check_usb_autosuspend = {
    .id = "usb_autosuspend",
    .title = "USB autosuspend of audio interfaces",
    .group = CHECK_AUDIO,
    .reads = "setup.usb.audio_devices (/sys/bus/usb/devices/*: bInterfaceClass 01, power/control)",
    .level = CHECK_WARN,
    .matters = CHECK_MATTERS_CHECKLIST,
    .eval = eval_usb_autosuspend,
};
