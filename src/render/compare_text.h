/* The text of `rtjitter compare`. */
#ifndef RTJ_COMPARE_TEXT_H
#define RTJ_COMPARE_TEXT_H
#include <jansson.h>
#include <stdio.h>

/* A comparison document from compare_build(): identity differences, one table per load, verdicts. */
void compare_print_text(FILE *f, const json_t *cmp);

#endif
