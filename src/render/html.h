/* SPDX-License-Identifier: GPL-2.0-or-later */
/* HTML rendering of reports and comparisons: one self-contained file (inline CSS and SVG, no script, no
 * network). Every string that comes from a report, the system or the command line goes through html_escape(). */
#ifndef RTJ_HTML_H
#define RTJ_HTML_H
#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

/* The one escaping function: & < > " ' become entities; control characters (other than tab and newline),
 * U+FFFE, U+FFFF and every byte that is not well-formed UTF-8 (util/utf8.h) become U+FFFD, so that the output
 * is also well-formed XML (the SVG parts). NULL writes nothing. */
void html_escape(FILE *f, const char *s);

/* A report document (validated, or freshly built). */
void html_report(FILE *f, const json_t *doc);
/* A comparison document from compare_build(), with the n reports it was built from (for the histograms). */
void html_compare(FILE *f, const json_t *cmp, json_t *const *docs, size_t n);
/* A depth ladder's section of a comparison page (cmp's "ladder", run/ladder.c), or nothing without one: a table of
 * the depths (verdict, wake-up p99, what each adds, xrun events), a bar per depth, the conclusion. */
void html_ladder(FILE *f, const json_t *cmp);

/* Pieces the two pages share (html.c). */
void html_page_start(FILE *f, const char *title);
/* The same, with more CSS rules (NULL: none) inside the page's one <style>: a part of the page that only some
 * documents have (culprits) brings its rules along, and the pages without it stay byte for byte as they were. */
void html_page_start_css(FILE *f, const char *title, const char *extra_css);
void html_page_end(FILE *f, const char *version);
/* v with prec decimals, or "-" when it is NAN (absent). */
void html_num(FILE *f, double v, int prec);
/* The strings of array a as <ul class="cls">; nothing when a is empty. */
void html_strings_list(FILE *f, const json_t *a, const char *cls);

#endif
