/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The reads under the root prefix, for the files of src/sysinfo only (sysread.c), so that no file of this folder
 * opens a system path on its own: a test gives a fake root ("" is the real system). Main thread. */
#ifndef RTJ_SYSREAD_H
#define RTJ_SYSREAD_H
#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

/* ---- files ---- */

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

/* ---- directories and shell-style assignments ---- */

/* A directory's entries under the root prefix, sorted, without "." and ".."; NULL-terminated, malloc'd (free
 * with sysinfo_free_names), NULL when it cannot be read. */
char **sysinfo_list_dir(const char *root, const char *path);
void sysinfo_free_names(char **names);
/* Whether root + path exists. */
int sysinfo_exists(const char *root, const char *path);
/* Shell-style KEY=VALUE lines of a file (comments, quotes and `export` dropped) set into o, later ones winning.
 * 0 or -errno. */
int sysinfo_read_assignments(const char *root, const char *path, json_t *o);

#endif
