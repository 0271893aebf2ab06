/* SPDX-License-Identifier: GPL-2.0-or-later */
/* memload's view of available memory (MemAvailable, cgroup v1 and v2 limits at every level, container mount
 * roots) from fixture trees, and its bounds and grow/yield decision from known numbers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "memavail.h"

#define MB ((uint64_t)1 << 20)
#define GB ((uint64_t)1 << 30)

static char g_root[256];

static void put(const char *rel, const char *text)
{
    char path[1024], dir[1024];
    snprintf(path, sizeof(path), "%s%s", g_root, rel);
    snprintf(dir, sizeof(dir), "%s", path);
    for (char *p = dir + strlen(g_root) + 1; (p = strchr(p, '/')); p++) {
        *p = '\0';
        mkdir(dir, 0700);
        *p = '/';
    }
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static int new_root(void **state)
{
    (void)state;
    snprintf(g_root, sizeof(g_root), "%s/rtjt-loadmem.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(g_root))
        return -1;
    put("/proc/meminfo", "MemTotal:       16777216 kB\nMemFree:  1000 kB\nMemAvailable:    8388608 kB\n");
    return 0;
}

static int drop_root(void **state)
{
    (void)state;
    char cmd[400];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", g_root);
    return system(cmd) == 0 ? 0 : -1;
}

static void test_meminfo_only(void **state)
{
    (void)state;
    uint64_t avail = 0, total = 0;
    assert_int_equal(mem_available_at(g_root, &avail, &total), 0); /* no cgroup files at all */
    assert_true(avail == 8 * GB && total == 16 * GB);
}

static void test_cgroup_v2_levels(void **state)
{
    (void)state;
    put("/proc/self/mountinfo", "25 1 0:22 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw,nsdelegate\n");
    put("/proc/self/cgroup", "0::/user.slice/app.scope\n");
    put("/sys/fs/cgroup/user.slice/app.scope/memory.max", "max\n");
    put("/sys/fs/cgroup/user.slice/app.scope/memory.current", "104857600\n");
    put("/sys/fs/cgroup/user.slice/memory.max", "2147483648\n");      /* 2 GB for the slice */
    put("/sys/fs/cgroup/user.slice/memory.current", "1610612736\n"); /* 1.5 GB used in it */
    uint64_t avail = 0, total = 0;
    assert_int_equal(mem_available_at(g_root, &avail, &total), 0);
    assert_true(avail == GB / 2); /* the parent's headroom, below MemAvailable */
    put("/sys/fs/cgroup/user.slice/app.scope/memory.max", "209715200\n"); /* 200 MB, 100 used: 100 left */
    assert_int_equal(mem_available_at(g_root, &avail, &total), 0);
    assert_true(avail == 100 * MB);
}

static void test_cgroup_v1_hybrid(void **state)
{
    (void)state;
    /* As on this project's test VM: v1 controllers, an unused v2 hierarchy, our cgroup itself unlimited. */
    put("/proc/self/mountinfo",
        "31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n"
        "32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu\n"
        "35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory\n"
        "41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n");
    put("/proc/self/cgroup", "8:pids:/\n4:memory:/process_api/abc\n1:cpu:/\n0::/\n");
    put("/sys/fs/cgroup/memory/process_api/abc/memory.limit_in_bytes", "9223372036854771712\n");
    put("/sys/fs/cgroup/memory/process_api/abc/memory.usage_in_bytes", "190693376\n");
    uint64_t avail = 0, total = 0;
    assert_int_equal(mem_available_at(g_root, &avail, &total), 0);
    assert_true(avail == 8 * GB); /* unlimited: MemAvailable stands */
    put("/sys/fs/cgroup/memory/process_api/memory.limit_in_bytes", "1073741824\n");
    put("/sys/fs/cgroup/memory/process_api/memory.usage_in_bytes", "209715200\n");
    assert_int_equal(mem_available_at(g_root, &avail, &total), 0);
    assert_true(avail == GB - 200 * MB);
}

static void test_container_mount_root(void **state)
{
    (void)state;
    /* Inside a container the hierarchy is mounted from our own cgroup: its files sit at the mount point. */
    put("/proc/self/mountinfo", "700 690 0:30 /docker/f00 /sys/fs/cgroup ro,nosuid - cgroup2 cgroup2 rw\n");
    put("/proc/self/cgroup", "0::/docker/f00\n");
    put("/sys/fs/cgroup/memory.max", "536870912\n");
    put("/sys/fs/cgroup/memory.current", "268435456\n");
    uint64_t avail = 0, total = 0;
    assert_int_equal(mem_available_at(g_root, &avail, &total), 0);
    assert_true(avail == 256 * MB);
}

static void test_live_system(void **state)
{
    (void)state;
    uint64_t avail = 0, total = 0;
    assert_int_equal(mem_available_at("", &avail, &total), 0);
    assert_true(avail > 0 && avail <= total);
}

static void test_bounds(void **state)
{
    (void)state;
    struct memload_bounds b = memload_bounds(10 * GB, 16 * GB, 80, 0);
    assert_true(b.target == 8 * GB && b.floor == GB / 2); /* floor: 5 % of 10 GB, above 2 % of RAM and 256 MB */
    b = memload_bounds(10 * GB, 16 * GB, 95, 0);
    assert_true(b.target == (uint64_t)(9.5 * GB) && b.floor == GB / 2);
    b = memload_bounds(10 * GB, 16 * GB, 99, 0); /* above the bound: held at 95 % */
    assert_true(b.target == (uint64_t)(9.5 * GB));
    b = memload_bounds(10 * GB, 16 * GB, 80, 100); /* mb caps it; the floor does not depend on the share */
    assert_true(b.target == 100 * MB && b.floor == GB / 2);
    b = memload_bounds(10 * GB, 16 * GB, 1, 0); /* a small share is not timid: the same floor */
    assert_true(b.target == (uint64_t)(0.01 * 10 * GB) && b.floor == GB / 2);
    b = memload_bounds(GB, 2 * GB, 95, 0); /* a small machine: 256 MB always stay, the target gives way */
    assert_true(b.floor == 256 * MB && b.target == GB - 256 * MB);
    b = memload_bounds(100 * MB, 2 * GB, 95, 0); /* less available than the floor: take nothing */
    assert_true(b.target == 0);
}

static void test_decide(void **state)
{
    (void)state;
    struct memload_bounds b = { .target = 4 * GB, .floor = GB };
    assert_int_equal(memload_decide(3 * GB, &b, 0, 16 * MB), 1);          /* room: grow */
    assert_int_equal(memload_decide(GB + 8 * MB, &b, GB, 16 * MB), 0);    /* a chunk would cross the floor */
    assert_int_equal(memload_decide(GB - 1, &b, GB, 16 * MB), -1);        /* others need memory: give back */
    assert_int_equal(memload_decide(GB - 1, &b, 0, 16 * MB), 0);          /* nothing to give */
    assert_int_equal(memload_decide(8 * GB, &b, 4 * GB, 16 * MB), 0);     /* at the target: hold */
}

/* A memload that can take nothing says so, with the figures and what binds: a tight cgroup, or the machine. */
static void test_cannot_start(void **state)
{
    (void)state;
    char why[256] = "";
    /* A container with 8 GB available on the machine and 100 MB of headroom under its memory cgroup's limit. */
    put("/proc/self/mountinfo", "700 690 0:30 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n");
    put("/proc/self/cgroup", "0::/tight\n");
    put("/sys/fs/cgroup/tight/memory.max", "536870912\n");
    put("/sys/fs/cgroup/tight/memory.current", "432013312\n");
    uint64_t avail = 0, total = 0, meminfo = 0;
    assert_int_equal(mem_available_detail(g_root, &avail, &total, &meminfo), 0);
    assert_true(avail == 100 * MB && meminfo == 8 * GB && total == 16 * GB);
    struct memload_bounds b = memload_bounds(avail, total, 80, 0);
    assert_int_equal(memload_can_start(avail, meminfo, &b, 16 * MB, why, sizeof(why)), -ENOMEM);
    printf("  %s\n", why);
    assert_string_equal(why, "cannot take any memory: the memory cgroup's limit leaves 100 MB (the machine has 8192 "
                             "MB available), and memload always leaves 328 MB free");
    /* The machine itself is short: no cgroup in the message. */
    b = memload_bounds(200 * MB, 2 * GB, 80, 0);
    assert_int_equal(memload_can_start(200 * MB, 200 * MB, &b, 16 * MB, why, sizeof(why)), -ENOMEM);
    assert_string_equal(why, "cannot take any memory: 200 MB available, and memload always leaves 256 MB free");
    /* Room for one chunk above the floor: it starts. */
    b = memload_bounds(GB, 2 * GB, 80, 0);
    why[0] = '\0';
    assert_int_equal(memload_can_start(GB, GB, &b, 16 * MB, why, sizeof(why)), 0);
    assert_string_equal(why, "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_meminfo_only, new_root, drop_root),
        cmocka_unit_test_setup_teardown(test_cgroup_v2_levels, new_root, drop_root),
        cmocka_unit_test_setup_teardown(test_cgroup_v1_hybrid, new_root, drop_root),
        cmocka_unit_test_setup_teardown(test_container_mount_root, new_root, drop_root),
        cmocka_unit_test(test_live_system),
        cmocka_unit_test(test_bounds),
        cmocka_unit_test(test_decide),
        cmocka_unit_test_setup_teardown(test_cannot_start, new_root, drop_root),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
