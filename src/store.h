/* The report store: $XDG_DATA_HOME/rtjitter/reports/<kernel-release>/<UTC timestamp>[-label].json */
#ifndef RTJ_STORE_H
#define RTJ_STORE_H
#include <jansson.h>
#include <stddef.h>
#include <time.h>

/* Directory of the store (without the release part): --output DIR when given, else XDG. */
int store_dir(const char *output, char *buf, size_t len);
/* Write doc atomically (temp file + rename) to path; never overwrites: returns -EEXIST. */
int store_write_json(const json_t *doc, const char *path);
/* Save doc in the store under the kernel release; path gets the file written. Returns 0 or -errno. */
int store_save(const json_t *doc, const char *output, const char *release, const char *label,
               struct timespec when, char *path, size_t pathlen);
/* mkdir -p */
int mkdir_p(const char *dir);

#endif
