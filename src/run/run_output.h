/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Where a finished run's report goes: the store, --json FILE and --html FILE. Main thread, after the run. */
#ifndef RTJ_RUN_OUTPUT_H
#define RTJ_RUN_OUTPUT_H
#include <jansson.h>
#include <time.h>

struct run_outputs {
    const char *store;        /* --output DIR, or NULL: the default store */
    const char *json;         /* --json FILE, or NULL */
    const char *html;         /* --html FILE, or NULL */
    const char *junit;        /* --junit FILE, or NULL */
    const char *record;       /* --record FILE, or NULL: checked only (the loopback writes it, lb_wav.c) */
    const char *label;        /* --label, part of the stored name */
    struct timespec started;  /* CLOCK_REALTIME start of the run, part of the stored name */
    int tap;                  /* stdout is TAP: the report's path is a TAP comment ("# report: PATH") */
    char *saved_path;         /* when not NULL: gets the stored report's path ("" when not saved), not printed */
    size_t saved_path_len;
    char *stored_path;        /* when not NULL: gets the stored report's path too ("" when not saved), printed or
                               * not as saved_path says (the trace's slices go beside it) */
    size_t stored_path_len;
};

/* Before the run: can the store and every named file be written, and every user's file named be replaced by
 * the rename that ends the writing (util/replace.h: not another user's file in a sticky directory)? Says why not
 * in one line on stderr. 0 or -errno. */
int run_check_outputs(const struct run_outputs *o);
/* Writes every output; says on stderr what could not be written, and then prints the whole report on stderr so
 * that nothing measured is lost. Returns 0, or -errno of the first failure. */
int run_write_outputs(const json_t *doc, const struct run_outputs *o);

#endif
