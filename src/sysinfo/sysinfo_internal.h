/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared by the files of src/sysinfo only (kernel.c, cpu.c, sound.c, sysinfo.c): the reads through the root
 * prefix, so that no file of this folder opens a system path on its own, and the parts of the identity each
 * file collects. Not for use outside src/sysinfo: other folders see sysinfo.h. */
#ifndef RTJ_SYSINFO_INTERNAL_H
#define RTJ_SYSINFO_INTERNAL_H
#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

/* ---- reads under the root prefix (sysinfo.c) ---- */

/* root + path into out; -ENAMETOOLONG when it does not fit. */
int sysinfo_rooted(const char *root, const char *path, char *out, size_t len);
/* fopen(root + path, "r"), or NULL with errno set. */
FILE *sysinfo_open(const char *root, const char *path);
/* The whole file (up to len-1 bytes), trailing white space removed. 0 or -errno. */
int sysinfo_read_text(const char *root, const char *path, char *buf, size_t len);
/* The file as one decimal integer. 0, -errno, or -EINVAL when it is not a number. */
int sysinfo_read_ll(const char *root, const char *path, long long *v);
/* The file's text or its integer as JSON; null when it cannot be read. */
json_t *sysinfo_text_or_null(const char *root, const char *path);
json_t *sysinfo_ll_or_null(const char *root, const char *path);
json_t *sysinfo_str_or_null(const char *s);

/* ---- the parts of the identity ---- */

/* kernel {...} (kernel.c). cmdline is NULL when /proc/cmdline could not be read. */
json_t *sysinfo_kernel(const char *root, const char *release, const char *cmdline);
/* cpu {...} and memory {...} (cpu.c). */
json_t *sysinfo_cpu(const char *root);
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

/* A directory's entries under the root prefix, sorted, without "." and ".."; NULL-terminated, malloc'd (free
 * with sysinfo_free_names), NULL when it cannot be read. */
char **sysinfo_list_dir(const char *root, const char *path);
void sysinfo_free_names(char **names);
/* Whether root + path exists. */
int sysinfo_exists(const char *root, const char *path);
/* Shell-style KEY=VALUE lines of a file (comments, quotes and `export` dropped) set into o, later ones winning.
 * 0 or -errno. */
int sysinfo_read_assignments(const char *root, const char *path, json_t *o);
/* The audio, USB and power parts of setup {...} (setup_audio.c). */
void sysinfo_setup_audio(const char *root, const char *home, json_t *setup);
/* setup_login.c: pam {service: {limits, via}}, container {kind, evidence} or null, os {id, id_like} or null,
 * and limits.mtime. */
void sysinfo_setup_login(const char *root, json_t *setup);

#endif
