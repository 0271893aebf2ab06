/* Text rendering of a comparison document: the reports, warnings, what differs in the system, one table per
 * load with its verdicts, the verdict sentences and the method. */
#include "render/compare_text.h"
#include "report/access.h"
#include <math.h>

/* Display width of UTF-8 text: one column per code point (µ, ±, → are one column wide). */
static int text_width(const char *s)
{
    int w = 0;
    for (; *s; s++)
        w += ((unsigned char)*s & 0xc0) != 0x80;
    return w;
}

static void pad(FILE *f, const char *s, int width)
{
    fputs(s, f);
    for (int w = text_width(s); w < width; w++)
        fputc(' ', f);
}

void compare_print_text(FILE *f, const json_t *cmp)
{
    const json_t *reports = json_object_get(cmp, "reports");
    size_t i;
    const json_t *r;
    fprintf(f, "Comparing %zu report%s (the first is the baseline):\n", json_array_size(reports),
            json_array_size(reports) == 1 ? "" : "s");
    json_array_foreach(reports, i, r) {
        fprintf(f, "  [%zu] %s  %s, %.0f frames @ %.0f Hz  %s\n", i + 1, doc_str(r, "title", ""),
                doc_str(r, "started", "?"), doc_num(r, "period_frames"), doc_num(r, "rate"), doc_str(r, "file", ""));
        if (doc_str(r, "noise_from", NULL))
            fprintf(f, "      run-to-run noise measured against an earlier run: %s\n", doc_str(r, "noise_from", ""));
    }
    const json_t *s;
    json_array_foreach(json_object_get(cmp, "warnings"), i, s)
        fprintf(f, "warning: %s\n", json_string_value(s) ? json_string_value(s) : "");
    const json_t *diff = json_object_get(cmp, "system_diff");
    if (json_array_size(diff)) {
        fprintf(f, "\nWhat differs in the system:\n");
        json_array_foreach(diff, i, s) {
            if (i >= 60) {
                fprintf(f, "  ... and %zu more\n", json_array_size(diff) - i);
                break;
            }
            fprintf(f, "  %-28s ", doc_str(s, "key", ""));
            size_t j;
            const json_t *v;
            json_array_foreach(json_object_get(s, "values"), j, v) {
                const char *t = json_string_value(v);
                fprintf(f, "%s%.120s", j ? " → " : "", t ? t : "(absent)");
            }
            fputc('\n', f);
        }
    } else if (json_array_size(reports) > 1) {
        fprintf(f, "\nThe system identity is the same in every report.\n");
    }
    /* Column widths: the title or the widest cell, up to 30. */
    size_t nr = json_array_size(reports);
    int widths[64];
    for (i = 0; i < nr && i < 64; i++) {
        int w = text_width(doc_str(json_array_get(reports, i), "title", ""));
        widths[i] = w < 12 ? 12 : w > 30 ? 30 : w;
    }
    const json_t *load;
    json_array_foreach(json_object_get(cmp, "loads"), i, load) {
        fprintf(f, "\nLoad: %s\n", doc_str(load, "load", ""));
        pad(f, "", 28);
        for (size_t c = 0; c < nr && c < 64; c++) {
            fputs("  ", f);
            pad(f, doc_str(json_array_get(reports, c), "title", ""), widths[c]);
        }
        fputc('\n', f);
        size_t j;
        const json_t *row;
        json_array_foreach(json_object_get(load, "rows"), j, row) {
            pad(f, doc_str(row, "label", ""), 28);
            size_t c;
            const json_t *cell;
            json_array_foreach(json_object_get(row, "cells"), c, cell) {
                if (c >= 64)
                    break;
                fputs("  ", f);
                pad(f, json_string_value(cell) ? json_string_value(cell) : "", widths[c]);
            }
            fputc('\n', f);
        }
        const json_t *v;
        size_t last = 0;
        json_array_foreach(json_object_get(load, "verdicts"), j, v) {
            size_t ri = (size_t)json_integer_value(json_object_get(v, "report"));
            if (ri != last)
                fprintf(f, "  %s against the baseline:\n", doc_str(json_array_get(reports, ri), "title", ""));
            last = ri;
            fprintf(f, "    %s\n", doc_str(v, "text", ""));
        }
    }
    if (json_array_size(json_object_get(cmp, "summary")))
        fprintf(f, "\nVerdict:\n");
    json_array_foreach(json_object_get(cmp, "summary"), i, s)
        fprintf(f, "  %s\n", json_string_value(s) ? json_string_value(s) : "");
    fprintf(f, "\nMethod: %s\n", doc_str(cmp, "method", ""));
}
