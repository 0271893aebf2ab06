/* The text of a report: the verdict in plain words, the system identity, the interbench-style table. */
#ifndef RTJ_TEXT_H
#define RTJ_TEXT_H
#include <jansson.h>
#include <stdio.h>

/* A report document (validated, or freshly built). */
void report_print_text(FILE *f, const json_t *doc);

#endif
