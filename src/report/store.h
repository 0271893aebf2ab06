/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The report store: $XDG_DATA_HOME/rtjitter/reports/<kernel-release>/<UTC timestamp>[-label].json */
#ifndef RTJ_STORE_H
#define RTJ_STORE_H
#include <jansson.h>
#include <stddef.h>
#include <time.h>

/* Directory of the store (without the release part): --output DIR when given, else $XDG_DATA_HOME (absolute
 * only) or ~/.local/share, + /rtjitter/reports. Returns 0, -ENOENT (neither set), -EINVAL (DIR empty) or
 * -ENAMETOOLONG. */
int store_dir(const char *output, char *buf, size_t len);
/* Write doc to path through doc_write(): readers see the whole report or none. Never overwrites: returns
 * -EEXIST when path exists (a symlink included). 0 or -errno. */
int store_write_json(const json_t *doc, const char *path);
/* Save doc as STORE/<release>/<UTC YYYYMMDDTHHMMSSZ of when>[-label].json, adding .1, .2, ... before .json
 * when that name is taken; release and label are reduced to [A-Za-z0-9._-]. The directories are created
 * private (0700). path gets the file written. Returns 0 or -errno. */
int store_save(const json_t *doc, const char *output, const char *release, const char *label,
               struct timespec when, char *path, size_t pathlen);
/* Before a run: creates STORE/<release> (private) and checks that a report can be written there. path gets the
 * directory. 0 or -errno. */
int store_check(const char *output, const char *release, char *path, size_t pathlen);
/* The newest report of the store (store_dir(output)): over every release's folder, the latest UTC stamp its name
 * starts with (the run's start), then the latest change of the file, then the last name. Hidden files and names
 * not ending in .json are no reports. path gets the file. 0, -ENOENT when the store has none, or -errno. */
int store_newest(const char *output, char *path, size_t pathlen);
/* mkdir -p */
int mkdir_p(const char *dir);

#endif
