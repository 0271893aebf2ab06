/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The machine part of the system identity: the CPU (model, threads, cores, packages, SMT), its frequency
 * governors and range, and memory (RAM, swap, swappiness). Main thread, once per run. */
#include "sysinfo/sysinfo_internal.h"
#include "util/utf8.h"
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    FILE *f = sysinfo_open(root, "/proc/cpuinfo");
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
                model = utf8_json_string(val);
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
        if (sysinfo_read_text(root, p, buf, sizeof(buf)) == 0) {
            json_int_t n = json_integer_value(json_object_get(govs, buf));
            json_object_set_new(govs, buf, json_integer(n + 1));
        }
        snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%d/cpufreq/cpuinfo_min_freq", cpu);
        if (sysinfo_read_ll(root, p, &v) == 0 && (fmin < 0 || v < fmin))
            fmin = v;
        snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%d/cpufreq/cpuinfo_max_freq", cpu);
        if (sysinfo_read_ll(root, p, &v) == 0 && v > fmax)
            fmax = v;
        snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_driver", cpu);
        if (!driver[0])
            sysinfo_read_text(root, p, driver, sizeof(driver));
    }
    /* One governor name when every CPU agrees, "mixed" otherwise, null without cpufreq (most VMs). */
    const char *one = NULL;
    if (json_object_size(govs) == 1) {
        void *it = json_object_iter(govs);
        one = json_object_iter_key(it);
    }
    json_object_set_new(c, "governor", json_object_size(govs) == 0 ? json_null()
                                       : one ? utf8_json_string(one) : json_string("mixed"));
    json_object_set_new(c, "governors", govs);
    json_object_set_new(c, "scaling_driver", driver[0] ? utf8_json_string(driver) : json_null());
    json_object_set_new(c, "freq_min_mhz", fmin >= 0 ? json_integer(fmin / 1000) : json_null());
    json_object_set_new(c, "freq_max_mhz", fmax >= 0 ? json_integer(fmax / 1000) : json_null());
}

/* The CPU idle states, {driver, states [{name, latency_us, cpus, enabled_cpus}]}: each state over every CPU that has it. */
json_t *sysinfo_idle(const char *root)
{
    json_t *states = json_array();
    char **cpus = sysinfo_list_dir(root, "/sys/devices/system/cpu");
    for (size_t c = 0; cpus && cpus[c]; c++) {
        if (strncmp(cpus[c], "cpu", 3) != 0 || !isdigit((unsigned char)cpus[c][3]))
            continue;
        for (int s = 0; s < 32; s++) {
            char p[PATH_MAX], name[64];
            long long lat, dis = 0;
            snprintf(p, sizeof(p), "/sys/devices/system/cpu/%.20s/cpuidle/state%d/name", cpus[c], s);
            if (sysinfo_read_text(root, p, name, sizeof(name)) < 0)
                break;
            snprintf(p, sizeof(p), "/sys/devices/system/cpu/%.20s/cpuidle/state%d/latency", cpus[c], s);
            if (sysinfo_read_ll(root, p, &lat) < 0)
                lat = -1;
            snprintf(p, sizeof(p), "/sys/devices/system/cpu/%.20s/cpuidle/state%d/disable", cpus[c], s);
            sysinfo_read_ll(root, p, &dis);
            json_t *st = json_array_get(states, (size_t)s);
            if (!st) {
                st = json_pack("{s:s, s:I, s:i, s:i}", "name", name, "latency_us", (json_int_t)lat, "cpus", 0,
                               "enabled_cpus", 0);
                json_array_append_new(states, st);
            }
            if (lat > json_integer_value(json_object_get(st, "latency_us")))
                json_object_set_new(st, "latency_us", json_integer(lat));
            json_object_set_new(st, "cpus", json_integer(json_integer_value(json_object_get(st, "cpus")) + 1));
            if (!dis)
                json_object_set_new(st, "enabled_cpus",
                                    json_integer(json_integer_value(json_object_get(st, "enabled_cpus")) + 1));
        }
    }
    sysinfo_free_names(cpus);
    return json_pack("{s:o, s:o}", "driver", sysinfo_text_or_null(root, "/sys/devices/system/cpu/cpuidle/"
                     "current_driver"), "states", states);
}

json_t *sysinfo_cpu(const char *root)
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
    if (sysinfo_read_text(root, "/sys/devices/system/cpu/online", buf, sizeof(buf)) == 0)
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
        int e1 = sysinfo_read_ll(root, p, &core);
        snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%d/topology/physical_package_id", cpu);
        int e2 = sysinfo_read_ll(root, p, &pkg);
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
    int have_ctl = sysinfo_read_text(root, "/sys/devices/system/cpu/smt/control", ctl, sizeof(ctl)) == 0;
    int have_act = sysinfo_read_text(root, "/sys/devices/system/cpu/smt/active", act, sizeof(act)) == 0;
    json_t *smt_on = have_act ? json_boolean(strcmp(act, "1") == 0)
                     : cores ? json_boolean(threads > cores) : json_null();
    json_object_set_new(c, "smt", json_pack("{s:o, s:o}", "active", smt_on,
                                            "control", have_ctl ? utf8_json_string(ctl) : json_null()));
    cpu_collect_freq(root, online, c);
    /* which idle states an idle CPU can be in: what holding /dev/cpu_dma_latency can change (none without them) */
    json_object_set_new(c, "idle", sysinfo_idle(root));
    free(online);
    free(core_key);
    return c;
}

json_t *sysinfo_memory(const char *root)
{
    long long total = -1, swap_total = -1, swap_free = -1;
    FILE *f = sysinfo_open(root, "/proc/meminfo");
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
                     "swappiness", sysinfo_ll_or_null(root, "/proc/sys/vm/swappiness"));
}
