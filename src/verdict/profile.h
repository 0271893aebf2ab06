/* SPDX-License-Identifier: GPL-2.0-or-later */
/* src/verdict: the verdict a report opens with (verdict.c: level, summary and advice, made by verdict_judge(),
 * declared in verdict/verdict.h, and placed by the report's builder) and the profiles it is judged by (profile.c,
 * this header). May include report/ (the document it fills), checks/ (the system advice) and profile.h; never
 * run/, render/ or cli/, which call it.
 *
 * Verdict profiles (data/profiles/NAME.json): the thresholds a run is judged by, kept out of the code so that
 * a musician can read them and a distribution can add its own. Documented in data/profiles/README.md. */
#ifndef RTJ_PROFILE_H
#define RTJ_PROFILE_H
#include <jansson.h>
#include <stddef.h>

#define PROFILE_SCHEMA "rtjitter.profile/1"
#define PROFILE_DEFAULT "studio"

/* Finds profile NAME (a path when it contains '/'), reads and checks it: from $RTJ_DATADIR/profiles, the source
 * tree's data/profiles next to the binary, the installed data directory (RTJ_DATADIR, compiled in from PREFIX),
 * ../share/rtjitter/profiles from the binary (a relocated install), then the profiles built into the binary.
 * On success *out is a new reference with "path" added (where it was found, or "built in"). Returns 0, -ENOENT
 * (not found: err lists the profiles found and where rtjitter looked) or -EINVAL (malformed: err says what).
 * err gets one line. */
int profile_load(const char *name, json_t **out, char *err, size_t errlen);
/* Checks a parsed profile: schema, name, and every threshold a number >= 0. Returns 0 or -EINVAL. */
int profile_check(const json_t *p, char *err, size_t errlen);

/* The profiles built into the binary (profile_builtin.c): name and JSON text, NULL-terminated. */
struct profile_builtin {
    const char *name;
    const char *json;
};
const struct profile_builtin *profile_builtins(void);

#endif
