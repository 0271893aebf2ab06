/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The kernel part of the system identity: release and version, the command line, the configuration (from
 * /proc/config.gz or /boot/config-RELEASE, never another kernel's), the preemption model and dynamic mode, HZ,
 * NO_HZ, high-resolution timers, threaded interrupts, isolation options, mitigations, the clocksource, RT
 * throttling and timer migration. Main thread, once per run: nothing here is real-time safe, nor needs to be. */
#include "sysinfo/sysinfo.h"
#include "util/utf8.h"
#include "sysinfo/sysinfo_internal.h"
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/* ---- the kernel command line ---- */

static int same_param_name(const char *a, size_t alen, const char *b)
{
    size_t blen = strlen(b);
    if (alen != blen)
        return 0;
    for (size_t i = 0; i < alen; i++) {
        char x = a[i] == '-' ? '_' : a[i], y = b[i] == '-' ? '_' : b[i];
        if (x != y)
            return 0;
    }
    return 1;
}

int sysinfo_cmdline_param(const char *cmdline, const char *key, char *val, size_t len)
{
    int found = -ENOENT;
    const char *p = cmdline;
    while (*p) {
        while (isspace((unsigned char)*p))
            p++;
        if (!*p)
            break;
        /* One token, with "..." holding spaces (in the value, as the kernel's next_arg() allows). */
        const char *start = p, *eq = NULL;
        int quoted = 0;
        while (*p && (quoted || !isspace((unsigned char)*p))) {
            if (*p == '"')
                quoted = !quoted;
            else if (*p == '=' && !eq && !quoted)
                eq = p;
            p++;
        }
        size_t tlen = (size_t)(p - start);
        if (tlen == 2 && start[0] == '-' && start[1] == '-')
            break; /* the rest is for init */
        size_t nlen = eq ? (size_t)(eq - start) : tlen;
        if (!same_param_name(start, nlen, key))
            continue;
        if (!eq) {
            if (len)
                val[0] = '\0';
            found = 0;
            continue;
        }
        size_t o = 0;
        for (const char *v = eq + 1; v < p; v++)
            if (*v != '"' && o + 1 < len)
                val[o++] = *v;
        if (len)
            val[o] = '\0';
        found = 1;
    }
    return found;
}

/* ---- the kernel configuration ---- */

/* The options that decide how well audio threads are scheduled; copied into kernel.config. */
static const char *const config_keys[] = {
    "CONFIG_PREEMPT_NONE", "CONFIG_PREEMPT_VOLUNTARY", "CONFIG_PREEMPT", "CONFIG_PREEMPT_LAZY", "CONFIG_PREEMPT_RT",
    "CONFIG_PREEMPT_DYNAMIC", "CONFIG_HZ", "CONFIG_HZ_PERIODIC", "CONFIG_NO_HZ_IDLE", "CONFIG_NO_HZ_FULL",
    "CONFIG_HIGH_RES_TIMERS", "CONFIG_IRQ_FORCED_THREADING", "CONFIG_RCU_BOOST", "CONFIG_RCU_NOCB_CPU",
    "CONFIG_CPU_FREQ_DEFAULT_GOV_PERFORMANCE", "CONFIG_CPU_FREQ_DEFAULT_GOV_SCHEDUTIL",
    "CONFIG_CPU_FREQ_DEFAULT_GOV_POWERSAVE", "CONFIG_CPU_FREQ_DEFAULT_GOV_ONDEMAND", "CONFIG_RT_GROUP_SCHED",
    "CONFIG_SCHED_DEBUG", "CONFIG_LOCKDEP", "CONFIG_DEBUG_PREEMPT", "CONFIG_TRANSPARENT_HUGEPAGE",
    NULL,
};

static int wanted_key(const char *k, size_t n)
{
    for (const char *const *w = config_keys; *w; w++)
        if (strlen(*w) == n && memcmp(*w, k, n) == 0)
            return 1;
    return 0;
}

/* Reads a kernel .config (gzip or plain: gzread passes plain files through) and keeps config_keys in
 * cfg. "# CONFIG_X is not set" is kept as "n", so that "not set" and "absent from this kernel" differ. */
static int config_read(const char *path, json_t *cfg)
{
    gzFile g = gzopen(path, "rb");
    if (!g)
        return errno ? -errno : -ENOMEM;
    char line[512];
    int lines = 0;
    while (gzgets(g, line, sizeof(line))) {
        line[strcspn(line, "\n")] = '\0';
        lines++;
        if (strncmp(line, "CONFIG_", 7) == 0) {
            char *eq = strchr(line, '=');
            if (!eq || !wanted_key(line, (size_t)(eq - line)))
                continue;
            *eq = '\0';
            char *v = eq + 1;
            size_t vl = strlen(v);
            if (vl >= 2 && v[0] == '"' && v[vl - 1] == '"') {
                v[vl - 1] = '\0';
                v++;
            }
            json_object_set_new(cfg, line, utf8_json_string(v));
        } else if (strncmp(line, "# CONFIG_", 9) == 0) {
            char *end = strstr(line, " is not set");
            if (end && wanted_key(line + 2, (size_t)(end - line - 2))) {
                *end = '\0';
                json_object_set_new(cfg, line + 2, json_string("n"));
            }
        }
    }
    int err = 0;
    gzerror(g, &err);
    gzclose(g);
    /* A truncated or corrupt file is not a configuration we can trust. */
    if ((err != Z_OK && err != Z_STREAM_END) || lines == 0)
        return -EIO;
    return 0;
}

/* Finds the configuration of the running kernel. source gets "/proc/config.gz", "/boot/config-RELEASE",
 * or "unknown" (cfg left empty): never a guess from another kernel's file. */
static void config_load(const char *root, const char *release, json_t *cfg, char *source, size_t slen)
{
    char path[PATH_MAX], rel[PATH_MAX];
    if (sysinfo_rooted(root, "/proc/config.gz", path, sizeof(path)) == 0 && config_read(path, cfg) == 0) {
        snprintf(source, slen, "/proc/config.gz");
        return;
    }
    json_object_clear(cfg);
    snprintf(rel, sizeof(rel), "/boot/config-%s", release);
    if (!strchr(release, '/') && sysinfo_rooted(root, rel, path, sizeof(path)) == 0 && config_read(path, cfg) == 0) {
        snprintf(source, slen, "%s", rel);
        return;
    }
    json_object_clear(cfg);
    snprintf(source, slen, "unknown");
}

static const char *cfg_val(const json_t *cfg, const char *key)
{
    return json_string_value(json_object_get(cfg, key));
}

static int cfg_y(const json_t *cfg, const char *key)
{
    const char *v = cfg_val(cfg, key);
    return v && strcmp(v, "y") == 0;
}

/* ---- preemption, ticks, interrupts ---- */

static const char *const preempt_modes[] = { "none", "voluntary", "full", "lazy", NULL };

static const char *preempt_mode_name(const char *s)
{
    for (const char *const *m = preempt_modes; *m; m++)
        if (strcmp(*m, s) == 0)
            return *m;
    return NULL;
}

static int version_has_word(const char *version, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = strstr(version, word); p; p = strstr(p + 1, word))
        if ((p == version || p[-1] == ' ') && (p[n] == '\0' || p[n] == ' '))
            return 1;
    return 0;
}

/* The preemption model in force. On PREEMPT_DYNAMIC kernels the boot option preempt= or a later write to
 * debugfs changes it, so the config only gives the default. */
static void kernel_preempt(const char *root, const json_t *cfg, int have_cfg, const char *version,
                           const char *cmdline, json_t *k)
{
    const char *mode = NULL, *source = NULL, *dflt = NULL;
    int dynamic = 0;
    if (have_cfg) {
        dynamic = cfg_y(cfg, "CONFIG_PREEMPT_DYNAMIC");
        dflt = cfg_y(cfg, "CONFIG_PREEMPT") ? "full" : cfg_y(cfg, "CONFIG_PREEMPT_LAZY") ? "lazy"
               : cfg_y(cfg, "CONFIG_PREEMPT_VOLUNTARY") ? "voluntary" : cfg_y(cfg, "CONFIG_PREEMPT_NONE") ? "none"
               : NULL;
        if (cfg_y(cfg, "CONFIG_PREEMPT_RT")) {
            mode = "rt";
            dynamic = 0;
        } else {
            mode = dflt;
        }
        source = mode ? "config" : NULL;
    } else if (version_has_word(version, "PREEMPT_RT")) {
        mode = "rt";
        source = "version";
    } else if (version_has_word(version, "PREEMPT_DYNAMIC")) {
        dynamic = 1;
    } else if (version_has_word(version, "PREEMPT")) {
        mode = "full";
        source = "version";
    }
    /* Without PREEMPT* in the version the model is none or voluntary: the version alone cannot tell. */
    if (dynamic) {
        char buf[128], val[32];
        const char *open, *close;
        if (sysinfo_read_text(root, "/sys/kernel/debug/sched/preempt", buf, sizeof(buf)) == 0 &&
            (open = strchr(buf, '(')) && (close = strchr(open, ')')) && close - open - 1 < (long)sizeof(val)) {
            /* "none voluntary (full) lazy": the mode in force is the one in parentheses. */
            snprintf(val, sizeof(val), "%.*s", (int)(close - open - 1), open + 1);
            if (preempt_mode_name(val)) {
                mode = preempt_mode_name(val);
                source = "debugfs";
            }
        } else if (sysinfo_cmdline_param(cmdline, "preempt", val, sizeof(val)) == 1 && preempt_mode_name(val)) {
            mode = preempt_mode_name(val);
            source = "cmdline";
        } else {
            mode = dflt;
            source = dflt ? "config" : NULL;
        }
    }
    json_object_set_new(k, "preempt", utf8_json_string(mode ? mode : "unknown"));
    json_object_set_new(k, "preempt_source", sysinfo_str_or_null(source));
    json_object_set_new(k, "preempt_dynamic", have_cfg || dynamic ? json_boolean(dynamic) : json_null());
    if (dynamic)
        json_object_set_new(k, "preempt_default", sysinfo_str_or_null(dflt));
}

static json_t *cfg_bool(const json_t *cfg, int have_cfg, const char *key)
{
    return have_cfg ? json_boolean(cfg_y(cfg, key)) : json_null();
}

static void kernel_timers(const json_t *cfg, int have_cfg, const char *cmdline, json_t *k)
{
    char val[64];
    const char *hz = cfg_val(cfg, "CONFIG_HZ");
    json_object_set_new(k, "hz", hz ? json_integer(strtol(hz, NULL, 10)) : json_null());
    const char *nohz = !have_cfg ? NULL : cfg_y(cfg, "CONFIG_NO_HZ_FULL") ? "full"
                       : cfg_y(cfg, "CONFIG_NO_HZ_IDLE") ? "idle" : cfg_y(cfg, "CONFIG_HZ_PERIODIC") ? "periodic"
                       : NULL;
    /* nohz=off keeps the tick running on idle CPUs whatever the config says. */
    if (nohz && strcmp(nohz, "periodic") != 0 && sysinfo_cmdline_param(cmdline, "nohz", val, sizeof(val)) == 1 &&
        strcmp(val, "off") == 0)
        nohz = "periodic";
    json_object_set_new(k, "nohz", sysinfo_str_or_null(nohz));
    json_t *hr = cfg_bool(cfg, have_cfg, "CONFIG_HIGH_RES_TIMERS");
    if (json_is_true(hr) && sysinfo_cmdline_param(cmdline, "highres", val, sizeof(val)) == 1 &&
        strcmp(val, "off") == 0) {
        json_decref(hr);
        hr = json_false();
    }
    json_object_set_new(k, "high_res_timers", hr);
}

/* cmdline is NULL when it could not be read: then only PREEMPT_RT says anything. */
static void kernel_threadirqs(const json_t *cfg, int have_cfg, const char *preempt, const char *cmdline, json_t *k)
{
    char val[8];
    int on = 0;
    const char *source = NULL;
    if (strcmp(preempt, "rt") == 0) {
        /* PREEMPT_RT forces every interrupt handler into a thread. */
        on = 1;
        source = "preempt_rt";
    } else if (!cmdline) {
        json_object_set_new(k, "threadirqs", json_null());
        json_object_set_new(k, "threadirqs_source", json_null());
        return;
    } else if (sysinfo_cmdline_param(cmdline, "threadirqs", val, sizeof(val)) >= 0) {
        /* The option does nothing on a kernel built without forced IRQ threading. */
        on = !have_cfg || cfg_y(cfg, "CONFIG_IRQ_FORCED_THREADING");
        source = on ? "cmdline" : "cmdline, but the kernel lacks CONFIG_IRQ_FORCED_THREADING";
    }
    json_object_set_new(k, "threadirqs", json_boolean(on));
    json_object_set_new(k, "threadirqs_source", sysinfo_str_or_null(source));
}

static json_t *cmdline_value(const char *cmdline, const char *key)
{
    char val[1024];
    int r = sysinfo_cmdline_param(cmdline, key, val, sizeof(val));
    return r < 0 ? json_null() : utf8_json_string(val);
}

static json_t *vulnerabilities(const char *root)
{
    char dir[PATH_MAX];
    json_t *o = json_object();
    if (sysinfo_rooted(root, "/sys/devices/system/cpu/vulnerabilities", dir, sizeof(dir)) < 0)
        return o;
    DIR *d = opendir(dir);
    if (!d)
        return o;
    struct dirent *de;
    while ((de = readdir(d))) {
        if (de->d_name[0] == '.')
            continue;
        char rel[PATH_MAX], buf[512];
        snprintf(rel, sizeof(rel), "/sys/devices/system/cpu/vulnerabilities/%s", de->d_name);
        if (sysinfo_read_text(root, rel, buf, sizeof(buf)) == 0)
            json_object_set_new(o, de->d_name, utf8_json_string(buf));
    }
    closedir(d);
    return o;
}

json_t *sysinfo_kernel(const char *root, const char *release, const char *cmdline_or_null)
{
    const char *cmdline = cmdline_or_null ? cmdline_or_null : "";
    char version[512], source[PATH_MAX];
    json_t *k = json_object();
    if (sysinfo_read_text(root, "/proc/sys/kernel/version", version, sizeof(version)) < 0)
        version[0] = '\0';
    json_object_set_new(k, "release", utf8_json_string(release));
    json_object_set_new(k, "version", utf8_json_string(version[0] ? version : "unknown"));
    json_object_set_new(k, "cmdline", sysinfo_str_or_null(cmdline_or_null));
    json_t *cfg = json_object();
    config_load(root, release, cfg, source, sizeof(source));
    int have_cfg = strcmp(source, "unknown") != 0;
    json_object_set_new(k, "config_source", utf8_json_string(source));

    kernel_preempt(root, cfg, have_cfg, version, cmdline, k);
    kernel_timers(cfg, have_cfg, cmdline, k);
    kernel_threadirqs(cfg, have_cfg, json_string_value(json_object_get(k, "preempt")), cmdline_or_null, k);

    json_object_set_new(k, "isolcpus", cmdline_value(cmdline, "isolcpus"));
    json_object_set_new(k, "nohz_full", cmdline_value(cmdline, "nohz_full"));
    json_object_set_new(k, "rcu_nocbs", cmdline_value(cmdline, "rcu_nocbs"));
    /* What the kernel made of them (empty when nothing is isolated). */
    json_object_set_new(k, "isolated_cpus", sysinfo_text_or_null(root, "/sys/devices/system/cpu/isolated"));
    json_object_set_new(k, "nohz_full_cpus", sysinfo_text_or_null(root, "/sys/devices/system/cpu/nohz_full"));
    json_object_set_new(k, "mitigations", json_pack("{s:o, s:o}", "cmdline", cmdline_value(cmdline, "mitigations"),
                                                    "vulnerabilities", vulnerabilities(root)));
    json_object_set_new(k, "clocksource", sysinfo_text_or_null(root,
                        "/sys/devices/system/clocksource/clocksource0/current_clocksource"));
    json_object_set_new(k, "clocksources_available", sysinfo_text_or_null(root,
                        "/sys/devices/system/clocksource/clocksource0/available_clocksource"));
    long long rt_runtime, rt_period;
    int have_rt = sysinfo_read_ll(root, "/proc/sys/kernel/sched_rt_runtime_us", &rt_runtime) == 0;
    int have_per = sysinfo_read_ll(root, "/proc/sys/kernel/sched_rt_period_us", &rt_period) == 0;
    /* sched_rt_runtime_us = -1 lets real-time threads use the whole CPU; otherwise they are stopped for
     * the rest of each period once they used their runtime. */
    json_object_set_new(k, "rt_throttling", json_pack("{s:o, s:o, s:o}",
        "enabled", have_rt ? json_boolean(rt_runtime >= 0) : json_null(),
        "runtime_us", have_rt ? json_integer(rt_runtime) : json_null(),
        "period_us", have_per ? json_integer(rt_period) : json_null()));
    json_object_set_new(k, "timer_migration", sysinfo_ll_or_null(root, "/proc/sys/kernel/timer_migration"));
    json_object_set_new(k, "config", cfg);
    return k;
}
