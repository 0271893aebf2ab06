/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Checks of the power managers that slow a machine down to save energy: power-profiles-daemon's profile, TLP's
 * settings and laptop-mode. They judge the set-up's power part (sysinfo/setup_audio.c). */
#include "checks/checks_internal.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

static const json_t *power(const json_t *sys)
{
    return json_object_get(check_setup(sys), "power");
}

static void eval_power_profile(const json_t *sys, struct check_result *r)
{
    const char *profile = check_str(power(sys), "ppd_profile");
    int have = check_installed(sys, "power-profiles-daemon", "power-profiles-daemon", NULL);
    const json_t *running = json_object_get(json_object_get(check_setup(sys), "daemons"), "power-profiles-daemon");
    if (!profile) {
        if (have < 0)
            check_say(r, CHECK_SKIP, "without dpkg's status nor /usr/libexec/power-profiles-daemon, whether "
                      "power-profiles-daemon is installed is unknown");
        else if (have == 0)
            check_say(r, CHECK_OK, "power-profiles-daemon is not installed");
        else
            check_say(r, CHECK_OK, "power-profiles-daemon is installed but has not saved a profile "
                      "(/var/lib/power-profiles-daemon/state.ini): it runs the default, balanced%s",
                      json_array_size(running) ? "" : " (not running now)");
        return;
    }
    if (strcmp(profile, "performance") == 0) {
        check_say(r, CHECK_OK, "power-profiles-daemon's profile is performance");
        return;
    }
    check_say(r, CHECK_WARN, "power-profiles-daemon's profile is %s (/var/lib/power-profiles-daemon/state.ini)%s: "
              "it lowers the CPU's energy-performance preference, so the clock rises late", profile,
              json_array_size(running) ? "" : ", applied when the daemon next starts");
    check_fix(r, WRAP_CMD("powerprofilesctl set performance") " (while you play)");
}

const struct check check_power_profile = {
    .id = "power_profile",
    .title = "power-profiles-daemon's power saving while you play",
    .group = CHECK_POWER,
    .reads = "setup.power.ppd_profile (/var/lib/power-profiles-daemon/state.ini), setup.daemons",
    .level = CHECK_WARN,
    .matters = CHECK_MATTERS_CHECKLIST,
    .eval = eval_power_profile,
};

/* TLP's settings that cost an audio machine, with TLP's own default where the file leaves the key out. */
static const struct tlp_rule {
    const char *key, *dflt;
    const char *bad[3];   /* values that hurt */
    const char *good;     /* what to set */
    const char *why;
} tlp_rules[] = {
    { "SOUND_POWER_SAVE_ON_%s", "1", { "!0", NULL, NULL }, "0",
      "the sound card's codec is powered down when idle (a click, and a late first note)" },
    { "CPU_ENERGY_PERF_POLICY_ON_%s", NULL, { "power", "balance_power", NULL }, "performance",
      "the CPU prefers saving energy to speed" },
    { "PLATFORM_PROFILE_ON_%s", NULL, { "low-power", "quiet", NULL }, "performance",
      "the firmware's low-power profile caps the CPU" },
    { "USB_EXCLUDE_AUDIO", "1", { "0", NULL, NULL }, "1", "USB audio interfaces are autosuspended with the rest" },
};

static int tlp_bad(const struct tlp_rule *t, const char *v)
{
    for (int i = 0; i < 3 && t->bad[i]; i++)
        if (t->bad[i][0] == '!' ? strcmp(v, t->bad[i] + 1) != 0 : strcmp(v, t->bad[i]) == 0)
            return 1;
    return 0;
}

static void eval_tlp(const json_t *sys, struct check_result *r)
{
    const json_t *tlp = json_object_get(power(sys), "tlp");
    int have = check_installed(sys, "tlp", "tlp", NULL);
    if (have <= 0 && !json_is_object(tlp)) {
        if (have < 0)
            check_say(r, CHECK_SKIP, "without dpkg's status nor /usr/sbin/tlp, whether TLP is installed is unknown");
        else
            check_say(r, CHECK_OK, "TLP is not installed");
        return;
    }
    const char *enable = check_str(tlp, "TLP_ENABLE");
    if (enable && strcmp(enable, "0") == 0) {
        check_say(r, CHECK_OK, "TLP is installed but disabled (TLP_ENABLE=0)");
        return;
    }
    /* On battery the _ON_BAT settings apply; on mains or when it is unknown, _ON_AC. */
    const char *mode = json_is_false(json_object_get(power(sys), "on_ac")) ? "BAT" : "AC";
    char bad[400] = "", fix[400] = "";
    size_t ob = 0, of = 0;
    for (size_t i = 0; i < sizeof(tlp_rules) / sizeof(tlp_rules[0]); i++) {
        const struct tlp_rule *t = &tlp_rules[i];
        char key[64];
        snprintf(key, sizeof(key), t->key, mode);
        const char *v = check_str(tlp, key) ? check_str(tlp, key) : t->dflt;
        if (!v || !tlp_bad(t, v))
            continue;
        if (ob < sizeof(bad)) {
            int w = snprintf(bad + ob, sizeof(bad) - ob, "%s%s=%s%s: %s", ob ? "; " : "", key, v,
                             check_str(tlp, key) ? "" : " (TLP's default)", t->why);
            ob += w > 0 ? (size_t)w : 0;
        }
        if (of < sizeof(fix)) {
            int w = snprintf(fix + of, sizeof(fix) - of, "%s%s=%s", of ? " " : "", key, t->good);
            of += w > 0 ? (size_t)w : 0;
        }
    }
    if (!bad[0]) {
        check_say(r, CHECK_OK, "TLP is installed; its %s settings keep the sound card and the CPU awake", mode);
        return;
    }
    check_say(r, CHECK_WARN, "TLP (on %s): %s", mode, bad);
    check_fix(r, "put %s in /etc/tlp.d/90-audio.conf (one per line), then " WRAP_CMD("sudo tlp start"), fix);
}

const struct check check_tlp = {
    .id = "tlp",
    .title = "TLP's power saving of the sound card and the CPU",
    .group = CHECK_POWER,
    .reads = "setup.power.tlp (/etc/tlp.conf, /etc/tlp.d/*.conf), setup.power.on_ac (/sys/class/power_supply)",
    .level = CHECK_WARN,
    .matters = CHECK_MATTERS_CHECKLIST,
    .eval = eval_tlp,
};

static void eval_laptop_mode(const json_t *sys, struct check_result *r)
{
    const json_t *setup = check_setup(sys), *conf = json_object_get(power(sys), "laptop_mode_conf");
    double lm = check_num(setup, "laptop_mode");
    const char *ac = check_str(conf, "ENABLE_LAPTOP_MODE_ON_AC");
    if (isnan(lm) && !json_is_object(conf)) {
        check_say(r, CHECK_SKIP, "/proc/sys/vm/laptop_mode could not be read");
        return;
    }
    if (!isnan(lm) && lm > 0) {
        check_say(r, CHECK_WARN, "vm.laptop_mode is %.0f: the disk is spun down and writes are held back, then "
                  "flushed in bursts that can stall a recording", lm);
        check_fix(r, WRAP_CMD("sysctl vm.laptop_mode=0") "%s", json_is_object(conf) ? "; and in /etc/laptop-mode/laptop-mode.conf "
                  "set ENABLE_LAPTOP_MODE_ON_AC=0 and ENABLE_LAPTOP_MODE_ON_BATTERY=0 while you record" : "");
        return;
    }
    if (ac && strcmp(ac, "1") == 0) {
        check_say(r, CHECK_WARN, "laptop-mode-tools is set to run on mains power too (ENABLE_LAPTOP_MODE_ON_AC=1 in "
                  "/etc/laptop-mode/laptop-mode.conf), although vm.laptop_mode is 0 now");
        check_fix(r, "set ENABLE_LAPTOP_MODE_ON_AC=0 in /etc/laptop-mode/laptop-mode.conf");
        return;
    }
    check_say(r, CHECK_OK, "vm.laptop_mode is %.0f%s", isnan(lm) ? 0 : lm, json_is_object(conf) ?
              " (laptop-mode-tools installed, off on mains power)" : "");
}

const struct check check_laptop_mode = {
    .id = "laptop_mode",
    .title = "laptop-mode's holding back of disk writes",
    .group = CHECK_POWER,
    .reads = "setup.laptop_mode (/proc/sys/vm/laptop_mode), /etc/laptop-mode/laptop-mode.conf",
    .level = CHECK_WARN,
    .matters = CHECK_MATTERS_CHECKLIST,
    .eval = eval_laptop_mode,
};
