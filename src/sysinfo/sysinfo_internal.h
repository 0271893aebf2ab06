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

#endif
