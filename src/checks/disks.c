/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Checks of memory and disks: swappiness (the identity's memory part, sysinfo/cpu.c), the filesystems that
 * hold the system, the homes and the recordings, and inotify watches (the set-up, sysinfo/setup.c). */
#include "checks/checks_internal.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

/* Above this, the kernel swaps out program pages rather than drop file cache: audio programs' pages too. */
#define SWAPPINESS_MAX 10

static void eval_swappiness(const json_t *sys, struct check_result *r)
{
    const json_t *mem = json_object_get(sys, "memory");
    double swappiness = check_num(mem, "swappiness"), swap_mib = check_num(mem, "swap_total_mib");
    if (isnan(swappiness)) {
        check_say(r, CHECK_SKIP, "/proc/sys/vm/swappiness could not be read");
        return;
    }
    if (isnan(swap_mib)) {
        check_say(r, CHECK_SKIP, "vm.swappiness is %.0f, but the swap size is unknown (/proc/meminfo could not be "
                  "read)", swappiness);
        return;
    }
    if (swap_mib <= 0) {
        check_say(r, CHECK_OK, "no swap: nothing can be swapped out (vm.swappiness %.0f)", swappiness);
        return;
    }
    if (swappiness <= SWAPPINESS_MAX) {
        check_say(r, CHECK_OK, "vm.swappiness is %.0f with %.0f MiB of swap", swappiness, swap_mib);
        return;
    }
    check_say(r, CHECK_WARN, "vm.swappiness is %.0f with %.0f MiB of swap", swappiness, swap_mib);
    check_fix(r, WRAP_CMD("sysctl vm.swappiness=%d") " (to keep it: vm.swappiness = %d in /etc/sysctl.d/90-audio.conf)",
              SWAPPINESS_MAX, SWAPPINESS_MAX);
    check_advise(r, "vm.swappiness is %.0f with swap in use: pages of the audio programs can be swapped out and "
                 "fault back in mid-cycle. sysctl vm.swappiness=10 keeps them in memory.", swappiness);
}

const struct check check_swappiness = {
    .id = "swappiness",
    .title = "Swapping out audio programs (swappiness)",
    .group = CHECK_MEMORY,
    .reads = "memory.swappiness, memory.swap_total_mib (/proc/sys/vm/swappiness, /proc/meminfo)",
    .level = CHECK_WARN,
    /* Only a run that lost cycles could have lost them to a page fault. */
    .matters = CHECK_MATTERS_FAILURE,
    .eval = eval_swappiness,
};

/* Why a filesystem type is a poor place for a recording, or NULL. */
static const char *fs_trouble(const char *fs, int recording)
{
    static const char *const fuse = "a FUSE filesystem runs in a user-space program, which can stall a write for "
                                    "longer than the audio buffer";
    static const char *const net = "a network filesystem: each write waits for the network";
    if (strncmp(fs, "fuse", 4) == 0)
        return fuse;
    if (!strcmp(fs, "nfs") || !strcmp(fs, "nfs4") || !strcmp(fs, "cifs") || !strcmp(fs, "smb3") ||
        !strcmp(fs, "9p") || !strcmp(fs, "sshfs"))
        return net;
    if (!strcmp(fs, "vfat") || !strcmp(fs, "msdos") || !strcmp(fs, "exfat"))
        return "a FAT filesystem: no file may grow past 4 GiB (vfat), and a crash can lose the whole take";
    if (recording && (!strcmp(fs, "tmpfs") || !strcmp(fs, "ramfs")))
        return "a filesystem in memory (tmpfs, ramfs): a recording there is lost at power-off and takes memory from "
               "the audio programs";
    /* The kernel's views of itself: nothing written there is a file on a disk (most refuse new files at all). */
    static const char *const pseudo[] = { "proc", "sysfs", "devtmpfs", "devpts", "cgroup", "cgroup2", "debugfs",
                                          "tracefs", "securityfs", "pstore", "bpf", "configfs", "efivarfs",
                                          "mqueue", "hugetlbfs", "binfmt_misc", NULL };
    for (size_t i = 0; recording && pseudo[i]; i++)
        if (!strcmp(fs, pseudo[i]))
            return "a pseudo-filesystem of the kernel, not a disk: a recording cannot be kept there";
    return NULL;
}

static void eval_filesystems(const json_t *sys, struct check_result *r)
{
    const json_t *mounts = json_object_get(check_setup(sys), "mounts");
    if (!json_is_array(mounts) || json_array_size(mounts) == 0) {
        check_say(r, CHECK_SKIP, "/proc/mounts could not be read");
        return;
    }
    char seen[300] = "";
    size_t o = 0, i;
    const json_t *m;
    json_array_foreach(mounts, i, m) {
        const char *path = check_str(m, "path"), *fs = check_str(m, "fstype"), *mp = check_str(m, "mountpoint");
        if (!path || !fs)
            continue;
        const char *why = fs_trouble(fs, json_is_true(json_object_get(m, "recording")));
        if (why) {
            check_say(r, CHECK_WARN, "%s is on %s (%s, mounted on %s): %s", path, fs,
                      check_str(m, "source") ? check_str(m, "source") : "?", mp ? mp : "?", why);
            check_fix(r, "record to a local ext4, XFS or Btrfs filesystem: " WRAP_CMD("rtjitter check --dir DIR") " judges a "
                      "recording location before you use it");
            return;
        }
        if (o < sizeof(seen)) {
            int w = snprintf(seen + o, sizeof(seen) - o, "%s%s %s (%s)", o ? ", " : "", path, fs,
                             check_str(m, "source") ? check_str(m, "source") : "?");
            o += w > 0 ? (size_t)w : 0;
        }
    }
    if (!seen[0])
        check_say(r, CHECK_SKIP, "no filesystem found for / in /proc/mounts");
    else
        check_say(r, CHECK_OK, "%s", seen);
}

const struct check check_filesystems = {
    .id = "filesystems",
    .title = "Local filesystems for the system, the homes and the recordings",
    .group = CHECK_MEMORY,
    .reads = "setup.mounts (/proc/mounts, for /, /home and --dir)",
    .level = CHECK_WARN,
    .matters = CHECK_MATTERS_CHECKLIST,
    .eval = eval_filesystems,
};

/* DAWs and sample browsers watch every folder of a library; kernels before 5.11 allowed 8192 watches. */
#define INOTIFY_WATCHES_MIN 65536

static void eval_inotify(const json_t *sys, struct check_result *r)
{
    double w = check_num(json_object_get(check_setup(sys), "inotify"), "max_user_watches");
    if (isnan(w)) {
        check_say(r, CHECK_SKIP, "/proc/sys/fs/inotify/max_user_watches could not be read");
        return;
    }
    if (w >= INOTIFY_WATCHES_MIN) {
        check_say(r, CHECK_OK, "fs.inotify.max_user_watches is %.0f", w);
        return;
    }
    check_say(r, CHECK_WARN, "fs.inotify.max_user_watches is %.0f: a DAW or sample browser watching a large library "
              "runs out of watches", w);
    check_fix(r, WRAP_CMD("sysctl fs.inotify.max_user_watches=524288") " (to keep it: fs.inotify.max_user_watches = 524288 in "
              "/etc/sysctl.d/90-audio.conf)");
}

const struct check check_inotify = {
    .id = "inotify",
    .title = "inotify watches for a sample library",
    .group = CHECK_MEMORY,
    .reads = "setup.inotify.max_user_watches (/proc/sys/fs/inotify/max_user_watches)",
    .level = CHECK_WARN,
    .matters = CHECK_MATTERS_CHECKLIST,
    .eval = eval_inotify,
};
