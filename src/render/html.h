/* HTML rendering of reports and comparisons: one self-contained file (inline CSS and SVG, no script, no
 * network). Every string that comes from a report, the system or the command line goes through html_escape(). */
#ifndef RTJ_HTML_H
#define RTJ_HTML_H
#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

/* The one escaping function: & < > " ' become entities; control characters (other than tab and newline) and
 * invalid UTF-8 become U+FFFD, so that the output is also well-formed XML (the SVG parts). NULL writes nothing. */
void html_escape(FILE *f, const char *s);

/* A report document (validated, or freshly built). */
void html_report(FILE *f, const json_t *doc);
/* A comparison document from compare_build(), with the n reports it was built from (for the histograms). */
void html_compare(FILE *f, const json_t *cmp, json_t *const *docs, size_t n);

/* Write to path through a temporary file and rename: a reader never sees half a page. 0 or -errno. */
int html_report_file(const char *path, const json_t *doc);
int html_compare_file(const char *path, const json_t *cmp, json_t *const *docs, size_t n);

#endif
