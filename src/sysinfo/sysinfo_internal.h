/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared by the files of src/sysinfo only: the parts of the identity (kernel.c, cpu.c, sound.c, for sysinfo.c)
 * and of the set-up (setup_audio.c, setup_login.c, for setup.c) each file collects. The reads through the root
 * prefix they all use are sysread.h's. Not for use outside src/sysinfo: other folders see sysinfo.h. */
#ifndef RTJ_SYSINFO_INTERNAL_H
#define RTJ_SYSINFO_INTERNAL_H
#include <jansson.h>
#include <stddef.h>
#include <stdio.h>
#include "sysinfo/sysread.h"

/* ---- the parts of the identity ---- */

/* kernel {...} (kernel.c). cmdline is NULL when /proc/cmdline could not be read. */
json_t *sysinfo_kernel(const char *root, const char *release, const char *cmdline);
/* cpu {...} and memory {...} (cpu.c). */
json_t *sysinfo_cpu(const char *root);
/* The CPU idle states: {driver, states [{name, latency_us, cpus, enabled_cpus}]} (cpu.c). */
json_t *sysinfo_idle(const char *root);
json_t *sysinfo_memory(const char *root);
/* sound {...} and audio_servers [...] from one walk of /proc (sound.c). */
void sysinfo_sound(const char *root, json_t **sound, json_t **servers);

/* One numbered line of /proc/interrupts (sound.c). */
struct irq_line {
    int irq;
    long long count;  /* over all CPUs */
    char actions[160];
};
/* The numbered lines of /proc/interrupts into *out (malloc'd); their count, or -errno. */
int sysinfo_interrupts_read(const char *root, struct irq_line **out);
/* The handler names of a line's text after the counts ("snd_hda_intel:card0", "i801_smbus, snd_hda_intel"). */
const char *sysinfo_irq_actions(const char *s);

/* ---- the studio set-up (setup.c, setup_audio.c) ---- */

/* The audio, USB and power parts of setup {...} (setup_audio.c). */
void sysinfo_setup_audio(const char *root, const char *home, json_t *setup);
/* threads.c: daemons {name: [pids]} (rtkit, power-profiles-daemon), audio_servers_rt [...] (jackd, jackdbus,
 * pipewire with their real-time threads) and proc (whether /proc could be listed), from one walk of /proc. */
void sysinfo_setup_processes(const char *root, json_t *setup);
/* setup_login.c: pam {service: {limits, via}}, container {kind, evidence} or null, os {id, id_like} or null,
 * and limits.mtime. */
void sysinfo_setup_login(const char *root, json_t *setup);
/* setup_jack.c: jack2's server registry: {present, held, dead, slots [{index, pid, uid, name, alive, rtjitter_pid,
 * rtjitter_alive}], describe, free_command}, {present: false} when there is none, null when it cannot be read. */
json_t *sysinfo_jack_registry(const char *root);

#endif
