#include "sysinfo.h"
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

static int read_line(const char *root, const char *path, char *buf, size_t len)
{
    char full[512];
    snprintf(full, sizeof(full), "%s%s", root, path);
    FILE *f = fopen(full, "r");
    if (!f)
        return -1;
    if (!fgets(buf, (int)len, f)) {
        fclose(f);
        return -1;
    }
    fclose(f);
    buf[strcspn(buf, "\n")] = '\0';
    return 0;
}

const char *sysinfo_release(const char *root, char *buf, size_t len)
{
    if (read_line(root, "/proc/sys/kernel/osrelease", buf, len) == 0 && buf[0])
        return buf;
    struct utsname u;
    snprintf(buf, len, "%s", uname(&u) == 0 ? u.release : "unknown");
    return buf;
}

json_t *sysinfo_collect(const char *root)
{
    char rel[256], ver[512], cmdline[4096], host[256];
    sysinfo_release(root, rel, sizeof(rel));
    if (read_line(root, "/proc/sys/kernel/version", ver, sizeof(ver)) < 0)
        snprintf(ver, sizeof(ver), "unknown");
    if (read_line(root, "/proc/cmdline", cmdline, sizeof(cmdline)) < 0)
        cmdline[0] = '\0';
    if (read_line(root, "/proc/sys/kernel/hostname", host, sizeof(host)) < 0)
        snprintf(host, sizeof(host), "unknown");
    const char *preempt = strstr(ver, "PREEMPT_RT") ? "rt"
                          : strstr(ver, "PREEMPT_DYNAMIC") ? "dynamic"
                          : strstr(ver, "PREEMPT") ? "full" : "unknown";
    return json_pack("{s:s, s:{s:s, s:s, s:s, s:s, s:s}, s:{s:i}}",
                     "hostname", host,
                     "kernel", "release", rel, "version", ver, "cmdline", cmdline, "preempt", preempt,
                     "config_source", "unknown",
                     "cpu", "online", (int)sysconf(_SC_NPROCESSORS_ONLN));
}
