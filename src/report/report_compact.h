/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Reading a report for compare without holding all of it as JSON (issue 21). jansson builds a tree of every value:
 * a 64 MB report of 300 phases x 2000 timeline seconds takes 485 MB as a tree, and compare holds two and more. What
 * compare uses of a timeline is a few numbers a second, so its reader packs them:
 *  - REPORT_PACKED: every phase's "timeline" is parsed alone (one phase's at a time), checked as report_validate()
 *    checks it, reduced to TL_NCOLS doubles an entry, and left as [] in the document, which is then parsed and
 *    validated whole. 72 bytes a second instead of about 800.
 *  - REPORT_IDENTITY: what set-up matching needs only (system, audio, label...): the "phases" array is skipped by
 *    a lexer, never parsed (the document has "phases": []). Its phases are not validated: a report read this way
 *    is read whole before anything is compared in it.
 * The text around is found by a small lexer that follows strings and nesting; a key it cannot match as written
 * (escaped) is decoded first. Everything else is jansson's, as in report_read_file(). */
#ifndef RTJ_REPORT_COMPACT_H
#define RTJ_REPORT_COMPACT_H
#include <jansson.h>
#include <stddef.h>

enum report_compact_mode { REPORT_PACKED, REPORT_IDENTITY };
/* Read and check path (report_read_file()'s limits and messages); *doc a new reference. 0 or -errno. */
int report_read_compact(const char *path, enum report_compact_mode mode, json_t **doc, char *err, size_t errlen);
int report_read_compact_buffer(char *buf, size_t len, enum report_compact_mode mode, json_t **doc, char *err,
                               size_t errlen); /* buf is changed */

/* The columns of a packed timeline entry, in order; NAN where the entry lacks the number. */
enum tl_col {
    TL_S, TL_SPAN, TL_CYCLES, TL_WAKEUP_P99, TL_WAKEUP_MAX, TL_JITTER_P99, TL_JITTER_MAX, TL_XRUN_EVENTS,
    TL_DEADLINES, TL_NCOLS
};
/* The column of timeline key ("wakeup_p99_us", "span_s", ...), or -1 when it is not packed. */
int tl_col_of(const char *key);
/* A phase's packed timeline: *n entries, read with tl_value(); NULL when the phase has none (then its "timeline"
 * array, if any, is the whole one). */
const unsigned char *tl_packed(const json_t *phase, size_t *n);
double tl_value(const unsigned char *packed, size_t i, int col);

#endif
