/* System identity: kernel, boot options, CPU, memory, sound cards and their interrupts, audio servers.
 * Runs once, on the main thread, after the measurement: nothing here is real-time safe, nor needs to be. */
#include "sysinfo/sysinfo.h"
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <zlib.h>

/* ---- reading files under the root prefix ---- */

static int rooted(const char *root, const char *path, char *out, size_t len)
{
    int n = snprintf(out, len, "%s%s", root, path);
    return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

static FILE *open_rooted(const char *root, const char *path)
{
    char full[PATH_MAX];
    if (rooted(root, path, full, sizeof(full)) < 0)
        return NULL;
    return fopen(full, "r");
}

/* The whole file (up to len-1 bytes), trailing white space removed. */
static int read_text(const char *root, const char *path, char *buf, size_t len)
{
    FILE *f = open_rooted(root, path);
    if (!f)
        return -errno;
    size_t n = fread(buf, 1, len - 1, f);
    int err = ferror(f) ? -EIO : 0;
    fclose(f);
    if (err)
        return err;
    buf[n] = '\0';
    while (n > 0 && isspace((unsigned char)buf[n - 1]))
        buf[--n] = '\0';
    return 0;
}

static int read_ll(const char *root, const char *path, long long *v)
{
    char buf[64], *end;
    int e = read_text(root, path, buf, sizeof(buf));
    if (e < 0)
        return e;
    errno = 0;
    *v = strtoll(buf, &end, 10);
    return end == buf || errno ? -EINVAL : 0;
}

static json_t *text_or_null(const char *root, const char *path)
{
    char buf[1024];
    return read_text(root, path, buf, sizeof(buf)) == 0 ? json_string(buf) : json_null();
}

static json_t *ll_or_null(const char *root, const char *path)
{
    long long v;
    return read_ll(root, path, &v) == 0 ? json_integer(v) : json_null();
}

static json_t *str_or_null(const char *s)
{
    return s ? json_string(s) : json_null();
}

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
            json_object_set_new(cfg, line, json_string(v));
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
    if (rooted(root, "/proc/config.gz", path, sizeof(path)) == 0 && config_read(path, cfg) == 0) {
        snprintf(source, slen, "/proc/config.gz");
        return;
    }
    json_object_clear(cfg);
    snprintf(rel, sizeof(rel), "/boot/config-%s", release);
    if (!strchr(release, '/') && rooted(root, rel, path, sizeof(path)) == 0 && config_read(path, cfg) == 0) {
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
        if (read_text(root, "/sys/kernel/debug/sched/preempt", buf, sizeof(buf)) == 0 &&
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
    json_object_set_new(k, "preempt", json_string(mode ? mode : "unknown"));
    json_object_set_new(k, "preempt_source", str_or_null(source));
    json_object_set_new(k, "preempt_dynamic", have_cfg || dynamic ? json_boolean(dynamic) : json_null());
    if (dynamic)
        json_object_set_new(k, "preempt_default", str_or_null(dflt));
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
    json_object_set_new(k, "nohz", str_or_null(nohz));
    json_t *hr = cfg_bool(cfg, have_cfg, "CONFIG_HIGH_RES_TIMERS");
    if (json_is_true(hr) && sysinfo_cmdline_param(cmdline, "highres", val, sizeof(val)) == 1 &&
        strcmp(val, "off") == 0) {
        json_decref(hr);
        hr = json_false();
    }
    json_object_set_new(k, "high_res_timers", hr);
}

static void kernel_threadirqs(const json_t *cfg, int have_cfg, const char *preempt, const char *cmdline, json_t *k)
{
    char val[8];
    int on = 0;
    const char *source = NULL;
    if (strcmp(preempt, "rt") == 0) {
        /* PREEMPT_RT forces every interrupt handler into a thread. */
        on = 1;
        source = "preempt_rt";
    } else if (sysinfo_cmdline_param(cmdline, "threadirqs", val, sizeof(val)) >= 0) {
        /* The option does nothing on a kernel built without forced IRQ threading. */
        on = !have_cfg || cfg_y(cfg, "CONFIG_IRQ_FORCED_THREADING");
        source = on ? "cmdline" : "cmdline, but the kernel lacks CONFIG_IRQ_FORCED_THREADING";
    }
    json_object_set_new(k, "threadirqs", json_boolean(on));
    json_object_set_new(k, "threadirqs_source", str_or_null(source));
}

static json_t *cmdline_value(const char *cmdline, const char *key)
{
    char val[1024];
    int r = sysinfo_cmdline_param(cmdline, key, val, sizeof(val));
    return r < 0 ? json_null() : json_string(val);
}

static json_t *vulnerabilities(const char *root)
{
    char dir[PATH_MAX];
    json_t *o = json_object();
    if (rooted(root, "/sys/devices/system/cpu/vulnerabilities", dir, sizeof(dir)) < 0)
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
        if (read_text(root, rel, buf, sizeof(buf)) == 0)
            json_object_set_new(o, de->d_name, json_string(buf));
    }
    closedir(d);
    return o;
}

static json_t *kernel_collect(const char *root, const char *release, const char *cmdline)
{
    char version[512], source[PATH_MAX];
    json_t *k = json_object();
    if (read_text(root, "/proc/sys/kernel/version", version, sizeof(version)) < 0)
        version[0] = '\0';
    json_object_set_new(k, "release", json_string(release));
    json_object_set_new(k, "version", json_string(version[0] ? version : "unknown"));
    json_object_set_new(k, "cmdline", json_string(cmdline));
    json_t *cfg = json_object();
    config_load(root, release, cfg, source, sizeof(source));
    int have_cfg = strcmp(source, "unknown") != 0;
    json_object_set_new(k, "config_source", json_string(source));

    kernel_preempt(root, cfg, have_cfg, version, cmdline, k);
    kernel_timers(cfg, have_cfg, cmdline, k);
    kernel_threadirqs(cfg, have_cfg, json_string_value(json_object_get(k, "preempt")), cmdline, k);

    json_object_set_new(k, "isolcpus", cmdline_value(cmdline, "isolcpus"));
    json_object_set_new(k, "nohz_full", cmdline_value(cmdline, "nohz_full"));
    json_object_set_new(k, "rcu_nocbs", cmdline_value(cmdline, "rcu_nocbs"));
    /* What the kernel made of them (empty when nothing is isolated). */
    json_object_set_new(k, "isolated_cpus", text_or_null(root, "/sys/devices/system/cpu/isolated"));
    json_object_set_new(k, "nohz_full_cpus", text_or_null(root, "/sys/devices/system/cpu/nohz_full"));
    json_object_set_new(k, "mitigations", json_pack("{s:o, s:o}", "cmdline", cmdline_value(cmdline, "mitigations"),
                                                    "vulnerabilities", vulnerabilities(root)));
    json_object_set_new(k, "clocksource", text_or_null(root,
                        "/sys/devices/system/clocksource/clocksource0/current_clocksource"));
    json_object_set_new(k, "clocksources_available", text_or_null(root,
                        "/sys/devices/system/clocksource/clocksource0/available_clocksource"));
    long long rt_runtime, rt_period;
    int have_rt = read_ll(root, "/proc/sys/kernel/sched_rt_runtime_us", &rt_runtime) == 0;
    int have_per = read_ll(root, "/proc/sys/kernel/sched_rt_period_us", &rt_period) == 0;
    /* sched_rt_runtime_us = -1 lets real-time threads use the whole CPU; otherwise they are stopped for
     * the rest of each period once they used their runtime. */
    json_object_set_new(k, "rt_throttling", json_pack("{s:o, s:o, s:o}",
        "enabled", have_rt ? json_boolean(rt_runtime >= 0) : json_null(),
        "runtime_us", have_rt ? json_integer(rt_runtime) : json_null(),
        "period_us", have_per ? json_integer(rt_period) : json_null()));
    json_object_set_new(k, "timer_migration", ll_or_null(root, "/proc/sys/kernel/timer_migration"));
    json_object_set_new(k, "config", cfg);
    return k;
}

/* ---- the machine ---- */

/* Parses a CPU list such as "0-3,8,10-11" into set (n bits). Returns the number of CPUs, or -EINVAL. */
static int cpulist_parse(const char *s, unsigned char *set, int n)
{
    int count = 0;
    memset(set, 0, (size_t)n);
    while (*s) {
        char *end;
        long a = strtol(s, &end, 10), b;
        if (end == s || a < 0)
            return -EINVAL;
        b = a;
        s = end;
        if (*s == '-') {
            b = strtol(s + 1, &end, 10);
            if (end == s + 1 || b < a)
                return -EINVAL;
            s = end;
        }
        for (long c = a; c <= b && c < n; c++)
            if (!set[c]) {
                set[c] = 1;
                count++;
            }
        if (*s == ',')
            s++;
        else if (*s && !isspace((unsigned char)*s))
            return -EINVAL;
        else
            break;
    }
    return count;
}

#define MAX_CPUS 4096

static void cpuinfo_read(const char *root, json_t *c, int *nproc)
{
    FILE *f = open_rooted(root, "/proc/cpuinfo");
    char *line = NULL;
    size_t cap = 0;
    *nproc = 0;
    json_t *model = NULL;
    if (f) {
        while (getline(&line, &cap, f) > 0) {
            line[strcspn(line, "\n")] = '\0';
            char *colon = strchr(line, ':');
            if (!colon)
                continue;
            char *key = line, *val = colon + 1;
            char *ke = colon;
            while (ke > key && isspace((unsigned char)ke[-1]))
                *--ke = '\0';
            *colon = '\0';
            while (isspace((unsigned char)*val))
                val++;
            if (strcmp(key, "processor") == 0 && isdigit((unsigned char)*val))
                ++*nproc;
            /* x86 says "model name"; arm64 and riscv have no common key: take the first that names a part. */
            else if (!model && *val && (strcmp(key, "model name") == 0 || strcmp(key, "Model") == 0 ||
                                        strcmp(key, "Hardware") == 0 || strcmp(key, "cpu model") == 0 ||
                                        strcmp(key, "uarch") == 0))
                model = json_string(val);
        }
        free(line);
        fclose(f);
    }
    json_object_set_new(c, "model", model ? model : json_string("unknown"));
}

static void cpu_collect_freq(const char *root, const unsigned char *online, json_t *c)
{
    json_t *govs = json_object();
    long long fmin = -1, fmax = -1;
    char driver[64] = "";
    for (int cpu = 0; cpu < MAX_CPUS; cpu++) {
        if (!online[cpu])
            continue;
        char p[128], buf[64];
        long long v;
        snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor", cpu);
        if (read_text(root, p, buf, sizeof(buf)) == 0) {
            json_int_t n = json_integer_value(json_object_get(govs, buf));
            json_object_set_new(govs, buf, json_integer(n + 1));
        }
        snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%d/cpufreq/cpuinfo_min_freq", cpu);
        if (read_ll(root, p, &v) == 0 && (fmin < 0 || v < fmin))
            fmin = v;
        snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%d/cpufreq/cpuinfo_max_freq", cpu);
        if (read_ll(root, p, &v) == 0 && v > fmax)
            fmax = v;
        snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_driver", cpu);
        if (!driver[0])
            read_text(root, p, driver, sizeof(driver));
    }
    /* One governor name when every CPU agrees, "mixed" otherwise, null without cpufreq (most VMs). */
    const char *one = NULL;
    if (json_object_size(govs) == 1) {
        void *it = json_object_iter(govs);
        one = json_object_iter_key(it);
    }
    json_object_set_new(c, "governor", json_object_size(govs) == 0 ? json_null()
                                       : one ? json_string(one) : json_string("mixed"));
    json_object_set_new(c, "governors", govs);
    json_object_set_new(c, "scaling_driver", driver[0] ? json_string(driver) : json_null());
    json_object_set_new(c, "freq_min_mhz", fmin >= 0 ? json_integer(fmin / 1000) : json_null());
    json_object_set_new(c, "freq_max_mhz", fmax >= 0 ? json_integer(fmax / 1000) : json_null());
}

static json_t *cpu_collect(const char *root)
{
    json_t *c = json_object();
    int nproc;
    cpuinfo_read(root, c, &nproc);
    unsigned char *online = calloc(MAX_CPUS, 1);
    long long *core_key = calloc(MAX_CPUS, sizeof(*core_key));
    if (!online || !core_key) {
        free(online);
        free(core_key);
        return c;
    }
    char buf[4096];
    int threads = -1;
    if (read_text(root, "/sys/devices/system/cpu/online", buf, sizeof(buf)) == 0)
        threads = cpulist_parse(buf, online, MAX_CPUS);
    if (threads < 0) {
        /* No sysfs: count /proc/cpuinfo's processors, without topology. */
        threads = nproc;
        memset(online, 0, MAX_CPUS);
    }
    /* A core is a (package, core id) pair: core ids repeat across packages. */
    int cores = 0, packages = 0, ncore = 0;
    long long pkgs[64];
    int npkg = 0, have_topology = 1;
    for (int cpu = 0; cpu < MAX_CPUS; cpu++) {
        if (!online[cpu])
            continue;
        char p[128];
        long long core, pkg;
        snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%d/topology/core_id", cpu);
        int e1 = read_ll(root, p, &core);
        snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%d/topology/physical_package_id", cpu);
        int e2 = read_ll(root, p, &pkg);
        if (e1 < 0 || e2 < 0) {
            have_topology = 0;
            break;
        }
        long long key = pkg * 1000000LL + core;
        int seen = 0;
        for (int i = 0; i < ncore && !seen; i++)
            seen = core_key[i] == key;
        if (!seen)
            core_key[ncore++] = key;
        seen = 0;
        for (int i = 0; i < npkg && !seen; i++)
            seen = pkgs[i] == pkg;
        if (!seen && npkg < 64)
            pkgs[npkg++] = pkg;
    }
    if (have_topology && ncore > 0) {
        cores = ncore;
        packages = npkg;
    }
    json_object_set_new(c, "online", json_integer(threads));
    json_object_set_new(c, "threads", json_integer(threads));
    json_object_set_new(c, "cores", cores ? json_integer(cores) : json_null());
    json_object_set_new(c, "packages", packages ? json_integer(packages) : json_null());
    char ctl[32], act[8];
    int have_ctl = read_text(root, "/sys/devices/system/cpu/smt/control", ctl, sizeof(ctl)) == 0;
    int have_act = read_text(root, "/sys/devices/system/cpu/smt/active", act, sizeof(act)) == 0;
    json_t *smt_on = have_act ? json_boolean(strcmp(act, "1") == 0)
                     : cores ? json_boolean(threads > cores) : json_null();
    json_object_set_new(c, "smt", json_pack("{s:o, s:o}", "active", smt_on,
                                            "control", have_ctl ? json_string(ctl) : json_null()));
    cpu_collect_freq(root, online, c);
    free(online);
    free(core_key);
    return c;
}

static json_t *memory_collect(const char *root)
{
    long long total = -1, swap_total = -1, swap_free = -1;
    FILE *f = open_rooted(root, "/proc/meminfo");
    if (f) {
        char line[256];
        while (fgets(line, sizeof(line), f)) {
            long long v;
            if (sscanf(line, "MemTotal: %lld", &v) == 1)
                total = v;
            else if (sscanf(line, "SwapTotal: %lld", &v) == 1)
                swap_total = v;
            else if (sscanf(line, "SwapFree: %lld", &v) == 1)
                swap_free = v;
        }
        fclose(f);
    }
    return json_pack("{s:o, s:o, s:o, s:o}",
                     "total_mib", total >= 0 ? json_integer(total / 1024) : json_null(),
                     "swap_total_mib", swap_total >= 0 ? json_integer(swap_total / 1024) : json_null(),
                     "swap_free_mib", swap_free >= 0 ? json_integer(swap_free / 1024) : json_null(),
                     "swappiness", ll_or_null(root, "/proc/sys/vm/swappiness"));
}

/* ---- sound cards, their interrupts and the threads that serve them ---- */

struct irq_line {
    int irq;
    long long count;  /* over all CPUs */
    char actions[160];
};

/* Reads /proc/interrupts: numbered lines only ("NMI", "LOC" are not device interrupts). */
static int interrupts_read(const char *root, struct irq_line **out)
{
    FILE *f = open_rooted(root, "/proc/interrupts");
    *out = NULL;
    if (!f)
        return -errno;
    char *line = NULL;
    size_t cap = 0;
    int ncpu = 0, n = 0, alloc = 0;
    struct irq_line *v = NULL;
    char *save = NULL;
    if (getline(&line, &cap, f) > 0)
        for (char *t = strtok_r(line, " \t\n", &save); t; t = strtok_r(NULL, " \t\n", &save))
            ncpu++;
    while (getline(&line, &cap, f) > 0) {
        char *p = line, *end;
        while (isspace((unsigned char)*p))
            p++;
        long irq = strtol(p, &end, 10);
        if (end == p || *end != ':')
            continue;
        p = end + 1;
        long long count = 0;
        for (int c = 0; c < ncpu; c++) {
            long long x = strtoll(p, &end, 10);
            if (end == p)
                break;
            count += x;
            p = end;
        }
        /* Then the chip, the hardware IRQ and trigger, and the actions; the actions are the last words,
         * comma separated ("snd_hda_intel:card0", "xhci_hcd", "i801_smbus, snd_hda_intel:card1"). */
        line[strcspn(line, "\n")] = '\0';
        if (n == alloc) {
            alloc = alloc ? alloc * 2 : 64;
            struct irq_line *nv = realloc(v, (size_t)alloc * sizeof(*v));
            if (!nv)
                break;
            v = nv;
        }
        v[n].irq = (int)irq;
        v[n].count = count;
        snprintf(v[n].actions, sizeof(v[n].actions), "%s", p);
        n++;
    }
    free(line);
    fclose(f);
    *out = v;
    return n;
}

/* The handler names of an interrupt line: what follows the chip and trigger columns. Those are separated
 * by runs of spaces; the actions are the last column, so take what follows the last run of 2+ spaces. */
static const char *irq_actions(const char *s)
{
    const char *last = s;
    for (const char *p = s; *p; p++)
        if (p[0] == ' ' && p[1] == ' ') {
            while (*p == ' ')
                p++;
            if (*p)
                last = p;
            p--;
        }
    while (*last == ' ')
        last++;
    return last;
}

struct irq_thread {
    int irq, pid;
    char comm[64];
    int rt_priority;
    int policy;
};

/* Walks /proc once: threaded interrupt handlers ("irq/NN-name") and audio servers. */
static void proc_scan(const char *root, struct irq_thread **threads, int *nthreads, json_t *servers)
{
    static const char *const server_names[] = { "jackd", "jackdbus", "pipewire", "pipewire-pulse", "wireplumber",
                                                "pulseaudio", NULL };
    char dir[PATH_MAX];
    *threads = NULL;
    *nthreads = 0;
    if (rooted(root, "/proc", dir, sizeof(dir)) < 0)
        return;
    DIR *d = opendir(dir);
    if (!d)
        return;
    int alloc = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        if (!isdigit((unsigned char)de->d_name[0]))
            continue;
        char p[PATH_MAX], comm[64];
        snprintf(p, sizeof(p), "/proc/%.20s/comm", de->d_name);
        if (read_text(root, p, comm, sizeof(comm)) < 0)
            continue;
        int pid = atoi(de->d_name);
        if (strncmp(comm, "irq/", 4) == 0 && isdigit((unsigned char)comm[4])) {
            char stat[1024];
            snprintf(p, sizeof(p), "/proc/%.20s/stat", de->d_name);
            if (read_text(root, p, stat, sizeof(stat)) < 0)
                continue;
            /* Fields after the ")" closing comm start at field 3 (state); rt_priority is field 40,
             * policy 41 (proc(5)). */
            char *s = strrchr(stat, ')');
            if (!s)
                continue;
            int field = 2, rtprio = -1, policy = -1;
            char *save = NULL;
            for (char *t = strtok_r(s + 1, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
                field++;
                if (field == 40)
                    rtprio = atoi(t);
                else if (field == 41)
                    policy = atoi(t);
            }
            if (*nthreads == alloc) {
                alloc = alloc ? alloc * 2 : 32;
                struct irq_thread *nt = realloc(*threads, (size_t)alloc * sizeof(**threads));
                if (!nt)
                    break;
                *threads = nt;
            }
            struct irq_thread *it = &(*threads)[(*nthreads)++];
            it->irq = atoi(comm + 4);
            it->pid = pid;
            snprintf(it->comm, sizeof(it->comm), "%s", comm);
            it->rt_priority = rtprio;
            it->policy = policy;
            continue;
        }
        for (const char *const *sn = server_names; *sn; sn++)
            if (strcmp(comm, *sn) == 0) {
                char args[1024];
                snprintf(p, sizeof(p), "/proc/%.20s/cmdline", de->d_name);
                FILE *f = open_rooted(root, p);
                size_t n = 0;
                if (f) {
                    n = fread(args, 1, sizeof(args) - 1, f);
                    fclose(f);
                }
                /* NUL-separated arguments: shown with spaces. */
                for (size_t i = 0; i < n; i++)
                    if (args[i] == '\0')
                        args[i] = ' ';
                while (n > 0 && args[n - 1] == ' ')
                    n--;
                args[n] = '\0';
                /* Kept in pid order, so that two reports of one system list them alike. */
                size_t at = json_array_size(servers);
                while (at > 0 && json_integer_value(json_object_get(json_array_get(servers, at - 1), "pid")) > pid)
                    at--;
                json_array_insert_new(servers, at, json_pack("{s:s, s:i, s:s}", "name", *sn, "pid", pid,
                                                             "cmdline", args));
                break;
            }
    }
    closedir(d);
}

static json_t *irq_json(const struct irq_line *l, const struct irq_thread *th, int nth)
{
    const char *actions = irq_actions(l->actions);
    /* Several handlers on one line: the card waits while the others' handlers run. */
    json_t *o = json_pack("{s:i, s:s, s:b, s:I}", "irq", l->irq, "actions", actions, "shared",
                          strchr(actions, ',') != NULL, "count", (json_int_t)l->count);
    json_t *threads = json_array();
    for (int i = 0; i < nth; i++)
        if (th[i].irq == l->irq)
            json_array_append_new(threads, json_pack("{s:s, s:i, s:i, s:s}", "name", th[i].comm, "pid", th[i].pid,
                "rt_priority", th[i].rt_priority, "policy",
                th[i].policy == 1 ? "SCHED_FIFO" : th[i].policy == 2 ? "SCHED_RR"
                : th[i].policy == 0 ? "SCHED_OTHER" : "other"));
    json_object_set_new(o, "threads", threads);
    return o;
}

/* Finds the interrupt lines of one card: an HDA card names itself in the handler ("snd_hda_intel:card0");
 * older kernels give "irq N" in the long name; a USB card shares the interrupts of its host controller,
 * found from the PCI address in "usb-0000:00:14.0-2". */
static void card_irqs(const char *root, int index, const char *longname,
                      const struct irq_line *lines, int nlines, const struct irq_thread *th, int nth, json_t *irqs)
{
    char tag[32];
    int found = 0;
    snprintf(tag, sizeof(tag), ":card%d", index);
    for (int i = 0; i < nlines; i++) {
        const char *a = irq_actions(lines[i].actions), *p = strstr(a, tag);
        if (p && !isdigit((unsigned char)p[strlen(tag)])) {
            json_array_append_new(irqs, irq_json(&lines[i], th, nth));
            found = 1;
        }
    }
    if (found)
        return;
    const char *ir = strstr(longname, " irq ");
    if (ir) {
        int irq = atoi(ir + 5);
        for (int i = 0; i < nlines; i++)
            if (lines[i].irq == irq) {
                json_array_append_new(irqs, irq_json(&lines[i], th, nth));
                return;
            }
    }
    const char *usb = strstr(longname, " at usb-");
    if (!usb)
        return;
    char pci[32];
    size_t n = 0;
    for (const char *p = usb + 8; *p && *p != ',' && n + 1 < sizeof(pci); p++)
        pci[n++] = *p;
    pci[n] = '\0';
    char *dash = strrchr(pci, '-'); /* "0000:00:14.0-2": the port follows the last dash */
    if (dash)
        *dash = '\0';
    char p[PATH_MAX], full[PATH_MAX];
    snprintf(p, sizeof(p), "/sys/bus/pci/devices/%s/msi_irqs", pci);
    DIR *d = NULL;
    if (rooted(root, p, full, sizeof(full)) == 0)
        d = opendir(full);
    if (d) {
        struct dirent *de;
        while ((de = readdir(d)))
            if (isdigit((unsigned char)de->d_name[0])) {
                int irq = atoi(de->d_name);
                for (int i = 0; i < nlines; i++)
                    if (lines[i].irq == irq) {
                        json_array_append_new(irqs, irq_json(&lines[i], th, nth));
                        found = 1;
                    }
            }
        closedir(d);
    }
    if (found)
        return;
    long long irq;
    snprintf(p, sizeof(p), "/sys/bus/pci/devices/%s/irq", pci);
    if (read_ll(root, p, &irq) == 0)
        for (int i = 0; i < nlines; i++)
            if (lines[i].irq == irq)
                json_array_append_new(irqs, irq_json(&lines[i], th, nth));
}

static json_t *sound_collect(const char *root, const struct irq_thread *th, int nth)
{
    json_t *cards = json_array();
    FILE *f = open_rooted(root, "/proc/asound/cards");
    if (!f)
        return json_pack("{s:o, s:o}", "cards", cards, "asound", json_false());
    struct irq_line *lines;
    int nlines = interrupts_read(root, &lines);
    if (nlines < 0)
        nlines = 0;
    char line[512];
    json_t *card = NULL;
    while (fgets(line, sizeof(line), f)) {
        line[strcspn(line, "\n")] = '\0';
        int index, off = 0;
        char id[64], rest[400];
        /* " 0 [PCH            ]: HDA-Intel - HDA Intel PCH" then an indented long name line. */
        if (sscanf(line, " %d [%63[^]]]: %n", &index, id, &off) == 2 && off > 0) {
            snprintf(rest, sizeof(rest), "%s", line + off);
            char *e = id + strlen(id);
            while (e > id && e[-1] == ' ')
                *--e = '\0';
            char *sep = strstr(rest, " - ");
            const char *name = sep ? sep + 3 : rest;
            if (sep)
                *sep = '\0';
            card = json_pack("{s:i, s:s, s:s, s:s, s:s}", "index", index, "id", id, "driver", rest, "name", name,
                             "long_name", "");
            json_array_append_new(cards, card);
        } else if (card && line[0] == ' ') {
            const char *p = line;
            while (*p == ' ')
                p++;
            json_object_set_new(card, "long_name", json_string(p));
            json_t *irqs = json_array();
            /* The index comes from the card's own line: sscanf above may have clobbered `index`. */
            card_irqs(root, (int)json_integer_value(json_object_get(card, "index")), p, lines, nlines, th, nth,
                      irqs);
            json_object_set_new(card, "irqs", irqs);
            card = NULL;
        }
    }
    fclose(f);
    free(lines);
    return json_pack("{s:o, s:o}", "cards", cards, "asound", json_true());
}

/* ---- the whole identity ---- */

const char *sysinfo_release(const char *root, char *buf, size_t len)
{
    if (read_text(root, "/proc/sys/kernel/osrelease", buf, len) == 0 && buf[0])
        return buf;
    struct utsname u;
    snprintf(buf, len, "%s", uname(&u) == 0 && !root[0] ? u.release : "unknown");
    return buf;
}

json_t *sysinfo_collect(const char *root)
{
    char rel[256], host[256], *cmdline = malloc(8192);
    if (!cmdline)
        return NULL;
    sysinfo_release(root, rel, sizeof(rel));
    if (read_text(root, "/proc/cmdline", cmdline, 8192) < 0)
        cmdline[0] = '\0';
    if (read_text(root, "/proc/sys/kernel/hostname", host, sizeof(host)) < 0)
        snprintf(host, sizeof(host), "unknown");
    json_t *servers = json_array();
    struct irq_thread *th;
    int nth;
    proc_scan(root, &th, &nth, servers);
    json_t *sys = json_object();
    json_object_set_new(sys, "hostname", json_string(host));
    json_object_set_new(sys, "kernel", kernel_collect(root, rel, cmdline));
    json_object_set_new(sys, "cpu", cpu_collect(root));
    json_object_set_new(sys, "memory", memory_collect(root));
    json_object_set_new(sys, "sound", sound_collect(root, th, nth));
    json_object_set_new(sys, "audio_servers", servers);
    free(th);
    free(cmdline);
    return sys;
}
