/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared by the files of src/checks only: the checks each group file defines (listed once, in checks.c's
 * table) and the small helpers they write their results with. */
#ifndef RTJ_CHECKS_INTERNAL_H
#define RTJ_CHECKS_INTERNAL_H
#include "checks/checks.h"

/* privileges.c: the rights a real-time audio thread needs, in force and as configured */
extern const struct check check_root, check_rtprio, check_memlock, check_sched_fifo, check_limits_files,
    check_rtkit;
/* kernel.c: the kernel and how it runs */
extern const struct check check_threadirqs, check_preempt, check_high_res_timers, check_rt_throttling, check_hz,
    check_nohz, check_timer_migration;
/* boot.c: boot options: isolation, mitigations, the boot loader's set-up in force */
extern const struct check check_isolation, check_mitigations, check_boot_setup;
/* irq.c: the sound cards' and USB controllers' interrupts */
extern const struct check check_rtirq, check_shared_irq, check_usb_irq;
/* cpu.c: CPU frequency, SMT, idle states */
extern const struct check check_governor, check_boost, check_smt, check_idle_states, check_cpu_dma_latency;
/* disks.c: memory and disks */
extern const struct check check_swappiness, check_filesystems, check_inotify;
/* audio.c: the audio stack */
extern const struct check check_audio_stack, check_server_rt, check_pipewire_clock, check_usb_autosuspend;
/* power.c: power managers */
extern const struct check check_power_profile, check_tlp, check_laptop_mode;

/* Sets the status and the one-line why. */
void check_say(struct check_result *r, enum check_status s, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void check_fix(struct check_result *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void check_advise(struct check_result *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void check_hint(struct check_result *r, const char *hint);

/* Reading the identity: NULL or NAN when the key is missing or not of that type. */
const char *check_str(const json_t *o, const char *key);
double check_num(const json_t *o, const char *key);
/* sys's "setup" and "process" objects (NULL when absent: a report's identity has neither). */
const json_t *check_setup(const json_t *sys);
const json_t *check_process(const json_t *sys);
/* Whether the package is installed (1), not (0), or unknown (-1: no dpkg status), with its version in *version;
 * a program found in its usual place counts as installed when dpkg says nothing. */
int check_installed(const json_t *sys, const char *package, const char *program, const char **version);

/* The boot options live in one line of /etc/default/grub on Debian and Ubuntu, the systems the fixes name. */
#define GRUB_EDIT "GRUB_CMDLINE_LINUX_DEFAULT in /etc/default/grub, then run update-grub and reboot"

#endif
