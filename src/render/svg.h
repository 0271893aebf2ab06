/* SVG plots inside the HTML pages (svg.c). Every text in them goes through html_escape(). */
#ifndef RTJ_SVG_H
#define RTJ_SVG_H
#include <jansson.h>
#include <stddef.h>
#include <stdio.h>
#include "report/compare_stats.h"

/* One histogram of a plot, named in its legend. */
struct series {
    const char *name;
    const struct rhist *h;
};

/* Latency histogram: x logarithmic in µs (whole decades), count axis logarithmic so that one late cycle still
 * shows; one outline per series. */
void svg_histogram(FILE *f, const char *title, const char *xlabel, const struct series *s, size_t ns);
/* The per-second timeline of a phase ("timeline" array of a report): max and p99 of |jitter| and wakeup, a red
 * mark on each second with xruns or missed deadlines. */
void svg_timeline(FILE *f, const char *title, const json_t *tl);

#endif
