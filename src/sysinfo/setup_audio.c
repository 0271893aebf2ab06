/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The audio, USB and power parts of the studio set-up (sysinfo.h, sysinfo_setup): USB audio devices and their
 * autosuspend, the USB controllers' interrupt lines, the audio packages and programs installed, the running
 * audio servers with their real-time threads (read in threads.c), PipeWire's clock settings, what rtkit allows,
 * and power-profiles-daemon, TLP and laptop-mode. Read through the root prefix, recorded as read. */
#include "sysinfo/sysinfo.h"
#include "sysinfo/sysinfo_internal.h"
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- USB ---- */

/* usb {autosuspend_s (usbcore's default, -1 = never), audio_devices [{device, product, vendor_id, product_id,
 * control, autosuspend_delay_ms}]}: devices with an interface of class 01 (audio). */
static json_t *usb_read(const char *root)
{
    json_t *devs = json_array();
    char **names = sysinfo_list_dir(root, "/sys/bus/usb/devices");
    for (size_t i = 0; names && names[i]; i++) {
        const char *colon = strchr(names[i], ':');
        char p[PATH_MAX], cls[8], dev[64];
        if (!colon || colon - names[i] >= (long)sizeof(dev))
            continue;
        snprintf(p, sizeof(p), "/sys/bus/usb/devices/%.100s/bInterfaceClass", names[i]);
        if (sysinfo_read_text(root, p, cls, sizeof(cls)) < 0 || strcmp(cls, "01") != 0)
            continue;
        snprintf(dev, sizeof(dev), "%.*s", (int)(colon - names[i]), names[i]);
        int seen = 0;
        for (size_t j = 0; j < json_array_size(devs); j++)
            seen |= strcmp(json_string_value(json_object_get(json_array_get(devs, j), "device")), dev) == 0;
        if (seen)
            continue;
        json_t *d = json_pack("{s:s}", "device", dev);
        static const char *const attrs[][2] = { { "product", "product" }, { "idVendor", "vendor_id" },
                                                { "idProduct", "product_id" }, { "power/control", "control" } };
        for (size_t a = 0; a < sizeof(attrs) / sizeof(attrs[0]); a++) {
            snprintf(p, sizeof(p), "/sys/bus/usb/devices/%s/%s", dev, attrs[a][0]);
            json_object_set_new(d, attrs[a][1], sysinfo_text_or_null(root, p));
        }
        snprintf(p, sizeof(p), "/sys/bus/usb/devices/%s/power/autosuspend_delay_ms", dev);
        json_object_set_new(d, "autosuspend_delay_ms", sysinfo_ll_or_null(root, p));
        json_array_append_new(devs, d);
    }
    int have = names != NULL;
    sysinfo_free_names(names);
    return json_pack("{s:o, s:o, s:b}", "autosuspend_s", sysinfo_ll_or_null(root,
                     "/sys/module/usbcore/parameters/autosuspend"), "audio_devices", devs, "sysfs", have);
}

/* usb_irqs [{irq, actions, shared}]: the USB host controllers' lines of /proc/interrupts; null without it. */
static json_t *usb_irqs_read(const char *root)
{
    struct irq_line *lines;
    int n = sysinfo_interrupts_read(root, &lines);
    if (n < 0)
        return json_null();
    json_t *a = json_array();
    for (int i = 0; i < n; i++) {
        const char *act = sysinfo_irq_actions(lines[i].actions);
        if (strstr(act, "hci_hcd"))
            json_array_append_new(a, json_pack("{s:i, s:s, s:b}", "irq", lines[i].irq, "actions", act, "shared",
                                               strchr(act, ',') != NULL));
    }
    free(lines);
    return a;
}

/* ---- packages and programs ---- */

static const char *const package_names[] = { "jackd2", "pipewire-jack", "pipewire", "rtkit", "rtirq-init", "tlp",
                                             "power-profiles-daemon", "laptop-mode-tools", NULL };

/* packages {name: version or null} from dpkg's status; null without it (not a Debian system). */
static json_t *packages_read(const char *root)
{
    FILE *f = sysinfo_open(root, "/var/lib/dpkg/status");
    if (!f)
        return json_null();
    json_t *o = json_object();
    for (const char *const *p = package_names; *p; p++)
        json_object_set_new(o, *p, json_null());
    char line[1024], pkg[128] = "", version[128] = "";
    int installed = 0;
    for (;;) {
        char *got = fgets(line, sizeof(line), f);
        if (!got || line[0] == '\n') { /* the end of a stanza */
            if (pkg[0] && installed && json_object_get(o, pkg))
                json_object_set_new(o, pkg, json_string(version));
            pkg[0] = version[0] = '\0';
            installed = 0;
            if (!got)
                break;
            continue;
        }
        line[strcspn(line, "\n")] = '\0';
        if (strncmp(line, "Package: ", 9) == 0)
            snprintf(pkg, sizeof(pkg), "%.120s", line + 9);
        else if (strncmp(line, "Version: ", 9) == 0)
            snprintf(version, sizeof(version), "%.120s", line + 9);
        else if (strncmp(line, "Status: ", 8) == 0)
            installed = strstr(line, " installed") != NULL && strstr(line, "not-installed") == NULL &&
                        strstr(line, "config-files") == NULL;
    }
    fclose(f);
    return o;
}

/* programs {name: path or null}: the first of each name's usual places that exists. */
static json_t *programs_read(const char *root)
{
    static const char *const where[][4] = {
        { "jackd", "/usr/bin/jackd", "/usr/local/bin/jackd", NULL },
        { "pw-jack", "/usr/bin/pw-jack", NULL, NULL },
        { "rtkit-daemon", "/usr/libexec/rtkit-daemon", "/usr/lib/rtkit/rtkit-daemon", NULL },
        { "rtirq", "/usr/bin/rtirq", "/etc/init.d/rtirq", NULL },
        { "tlp", "/usr/sbin/tlp", "/usr/bin/tlp", NULL },
        { "power-profiles-daemon", "/usr/libexec/power-profiles-daemon", "/usr/lib/power-profiles-daemon", NULL },
        { "laptop_mode", "/usr/sbin/laptop_mode", NULL, NULL },
    };
    json_t *o = json_object();
    for (size_t i = 0; i < sizeof(where) / sizeof(where[0]); i++) {
        const char *found = NULL;
        for (int j = 1; j < 4 && where[i][j] && !found; j++)
            if (sysinfo_exists(root, where[i][j]))
                found = where[i][j];
        json_object_set_new(o, where[i][0], sysinfo_str_or_null(found));
    }
    return o;
}

/* ---- PipeWire's clock settings ---- */

/* Each default.clock.* assignment of one SPA-JSON file (key = value or key: value; # comments) into settings,
 * with the file it came from; those inside "vm.overrides = { }" (which PipeWire applies only in a virtual
 * machine) into vm_settings. A small tokenizer: the enclosing keys are kept on a stack across lines. */
static void pipewire_file(const char *root, const char *path, json_t *settings, json_t *vm_settings, json_t *files)
{
    FILE *f = sysinfo_open(root, path);
    if (!f)
        return;
    json_array_append_new(files, json_string(path));
    char line[1024], last[128] = "", key[128] = "";
    int depth = 0, vm_depth = -1, want_value = 0;
    while (fgets(line, sizeof(line), f)) {
        line[strcspn(line, "#\n")] = '\0';
        for (char *p = line; *p;) {
            if (isspace((unsigned char)*p) || *p == ',') {
                p++;
            } else if (*p == '=' || *p == ':') {
                snprintf(key, sizeof(key), "%s", last);
                want_value = 1;
                p++;
            } else if (*p == '{') {
                if (want_value && strcmp(key, "vm.overrides") == 0 && vm_depth < 0)
                    vm_depth = depth;
                depth++;
                want_value = 0;
                p++;
            } else if (*p == '}') {
                depth--;
                if (depth == vm_depth)
                    vm_depth = -1;
                want_value = 0;
                p++;
            } else {
                /* a word, a "quoted string" or a [ list ] */
                char word[128];
                size_t n = *p == '[' ? strcspn(p, "]") + (p[strcspn(p, "]")] ? 1 : 0)
                           : *p == '"' ? strcspn(p + 1, "\"") + 2 : strcspn(p, " \t=:{},[");
                if (n == 0)
                    n = 1;
                snprintf(word, sizeof(word), "%.*s", (int)(n < sizeof(word) ? n : sizeof(word) - 1),
                         *p == '"' && n >= 2 ? p + 1 : p);
                if (*p == '"' && strlen(word) > 0 && word[strlen(word) - 1] == '"')
                    word[strlen(word) - 1] = '\0';
                if (want_value) {
                    if (strncmp(key, "default.clock.", 14) == 0)
                        json_object_set_new(vm_depth >= 0 ? vm_settings : settings, key,
                                            json_pack("{s:s, s:s}", "value", word, "file", path));
                    want_value = 0;
                } else {
                    snprintf(last, sizeof(last), "%s", word);
                }
                p += strlen(p) < n ? strlen(p) : n;
            }
        }
    }
    fclose(f);
}

/* pipewire {files [...], settings {key: {value, file}}, vm_settings {...}}: the main pipewire.conf of the
 * highest place that has one (/usr/share, /etc, ~/.config), then the pipewire.conf.d drop-ins of each place in
 * name order; null when no file was found. */
static json_t *pipewire_read(const char *root, const char *home)
{
    char dirs[3][1024];
    int nd = 0;
    snprintf(dirs[nd++], sizeof(dirs[0]), "/usr/share/pipewire");
    snprintf(dirs[nd++], sizeof(dirs[0]), "/etc/pipewire");
    if (home && home[0] == '/')
        snprintf(dirs[nd++], sizeof(dirs[0]), "%.900s/.config/pipewire", home);
    json_t *settings = json_object(), *vm = json_object(), *files = json_array();
    char path[PATH_MAX + 64];
    int main_at = -1;
    for (int i = 0; i < nd; i++) {
        snprintf(path, sizeof(path), "%s/pipewire.conf", dirs[i]);
        if (sysinfo_exists(root, path))
            main_at = i;
    }
    if (main_at >= 0) {
        snprintf(path, sizeof(path), "%s/pipewire.conf", dirs[main_at]);
        pipewire_file(root, path, settings, vm, files);
    }
    for (int i = 0; i < nd; i++) {
        snprintf(path, sizeof(path), "%s/pipewire.conf.d", dirs[i]);
        char **names = sysinfo_list_dir(root, path);
        for (size_t j = 0; names && names[j]; j++) {
            size_t l = strlen(names[j]);
            if (l < 6 || strcmp(names[j] + l - 5, ".conf") != 0)
                continue;
            char file[PATH_MAX + 400];
            snprintf(file, sizeof(file), "%s/pipewire.conf.d/%.300s", dirs[i], names[j]);
            pipewire_file(root, file, settings, vm, files);
        }
        sysinfo_free_names(names);
    }
    if (json_array_size(files) == 0) {
        json_decref(settings);
        json_decref(vm);
        json_decref(files);
        return json_null();
    }
    return json_pack("{s:o, s:o, s:o}", "files", files, "settings", settings, "vm_settings", vm);
}

/* ---- rtkit ---- */

/* rtkit {unit, exec, max_realtime_priority}: rtkit-daemon's ExecStart= as systemd reads it (the unit, then
 * its drop-ins in /etc/systemd/system/rtkit-daemon.service.d), and the priority it hands out at most (20 unless
 * --max-realtime-priority says otherwise); null without the unit. */
static json_t *rtkit_read(const char *root)
{
    static const char *const units[] = { "/etc/systemd/system/rtkit-daemon.service",
                                         "/usr/lib/systemd/system/rtkit-daemon.service",
                                         "/lib/systemd/system/rtkit-daemon.service", NULL };
    const char *unit = NULL;
    for (const char *const *u = units; *u && !unit; u++)
        if (sysinfo_exists(root, *u))
            unit = *u;
    if (!unit)
        return json_null();
    char exec[1024] = "", line[1024];
    char paths[17][PATH_MAX];
    int np = 0;
    snprintf(paths[np++], PATH_MAX, "%s", unit);
    char **names = sysinfo_list_dir(root, "/etc/systemd/system/rtkit-daemon.service.d");
    for (size_t i = 0; names && names[i] && np < 17; i++)
        if (strlen(names[i]) > 5 && strcmp(names[i] + strlen(names[i]) - 5, ".conf") == 0)
            snprintf(paths[np++], PATH_MAX, "/etc/systemd/system/rtkit-daemon.service.d/%.200s", names[i]);
    sysinfo_free_names(names);
    for (int i = 0; i < np; i++) {
        FILE *f = sysinfo_open(root, paths[i]);
        while (f && fgets(line, sizeof(line), f))
            if (strncmp(line, "ExecStart=", 10) == 0) {
                line[strcspn(line, "\n")] = '\0';
                snprintf(exec, sizeof(exec), "%s", line + 10); /* an empty ExecStart= resets the list */
            }
        if (f)
            fclose(f);
    }
    long max = 20;
    const char *m = strstr(exec, "--max-realtime-priority=");
    if (m)
        max = strtol(m + 24, NULL, 10);
    return json_pack("{s:s, s:s, s:i, s:s}", "unit", unit, "exec", exec, "max_realtime_priority", (int)max,
                     "source", m ? "--max-realtime-priority" : "rtkit's default");
}

/* ---- power managers ---- */

static json_t *assignments_or_null(const char *root, const char *const *paths)
{
    json_t *o = json_object();
    int any = 0;
    for (const char *const *p = paths; *p; p++)
        any |= sysinfo_read_assignments(root, *p, o) == 0;
    if (!any) {
        json_decref(o);
        return json_null();
    }
    return o;
}

/* power {on_ac, ppd_profile, tlp {KEY: value}, laptop_mode_conf {KEY: value}}. */
static json_t *power_read(const char *root)
{
    /* On mains power when a supply of type Mains says online = 1; null when no supply says. */
    json_t *on_ac = json_null();
    char **names = sysinfo_list_dir(root, "/sys/class/power_supply");
    for (size_t i = 0; names && names[i]; i++) {
        char p[PATH_MAX], type[32];
        long long online;
        snprintf(p, sizeof(p), "/sys/class/power_supply/%.100s/type", names[i]);
        if (sysinfo_read_text(root, p, type, sizeof(type)) < 0 || strcmp(type, "Mains") != 0)
            continue;
        snprintf(p, sizeof(p), "/sys/class/power_supply/%.100s/online", names[i]);
        if (sysinfo_read_ll(root, p, &online) == 0 && !json_is_true(on_ac)) {
            json_decref(on_ac);
            on_ac = json_boolean(online == 1);
        }
    }
    sysinfo_free_names(names);
    json_t *ppd = json_object();
    json_t *profile = json_null();
    if (sysinfo_read_assignments(root, "/var/lib/power-profiles-daemon/state.ini", ppd) == 0 &&
        json_string_value(json_object_get(ppd, "Profile")))
        profile = json_string(json_string_value(json_object_get(ppd, "Profile")));
    json_decref(ppd);
    /* /etc/tlp.conf, then /etc/tlp.d/ *.conf in name order: later settings win. */
    const char *tlp_paths[34] = { "/etc/tlp.conf" };
    char tlp_store[32][PATH_MAX];
    int nt = 1;
    names = sysinfo_list_dir(root, "/etc/tlp.d");
    for (size_t i = 0; names && names[i] && nt < 33; i++)
        if (strlen(names[i]) > 5 && strcmp(names[i] + strlen(names[i]) - 5, ".conf") == 0) {
            snprintf(tlp_store[nt - 1], PATH_MAX, "/etc/tlp.d/%.200s", names[i]);
            tlp_paths[nt] = tlp_store[nt - 1];
            nt++;
        }
    tlp_paths[nt] = NULL;
    json_t *tlp = assignments_or_null(root, tlp_paths);
    sysinfo_free_names(names);
    static const char *const lm_paths[] = { "/etc/laptop-mode/laptop-mode.conf", NULL };
    return json_pack("{s:o, s:o, s:o, s:o}", "on_ac", on_ac, "ppd_profile", profile, "tlp", tlp,
                     "laptop_mode_conf", assignments_or_null(root, lm_paths));
}

void sysinfo_setup_audio(const char *root, const char *home, json_t *setup)
{
    json_object_set_new(setup, "usb", usb_read(root));
    json_object_set_new(setup, "usb_irqs", usb_irqs_read(root));
    json_object_set_new(setup, "packages", packages_read(root));
    json_object_set_new(setup, "programs", programs_read(root));
    sysinfo_setup_processes(root, setup);
    json_object_set_new(setup, "jack_registry", sysinfo_jack_registry(root));
    /* the interrupt threads, as run reads them: check judges the running server against them as run does */
    json_object_set_new(setup, "irq_threads", sysinfo_irq_threads(root) ?: json_null());
    json_object_set_new(setup, "pipewire", pipewire_read(root, home));
    json_object_set_new(setup, "rtkit", rtkit_read(root));
    json_object_set_new(setup, "power", power_read(root));
}
