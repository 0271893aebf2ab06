/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `rtjitter watch --html FILE`'s live page (issue 34 item 6): while watching, FILE is rewritten every
 * WATCH_PAGE_EVERY_S seconds, whole or not at all (doc_write: a browser tab that reloads it sees the old page or the
 * new one), with the session's summary as watch prints it on SIGUSR1 and its latest lines; it asks the browser to
 * reload it as often (a meta refresh: no script). At the end the session's report page replaces it (run_output.c).
 * Main thread (the run's wait loop). */
#include "run/watch.h"
#include "render/html.h"
#include "report/doc.h"
#include "util/termtext.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define WATCH_PAGE_EVERY_S 5.0

struct page_arg {
    const struct watch_feed *f;
    double now_s;
};

static int page_body(FILE *out, void *arg)
{
    const struct page_arg *a = arg;
    const struct watch_feed *f = a->f;
    char *sum = NULL;
    size_t sumlen = 0;
    FILE *m = open_memstream(&sum, &sumlen);
    if (!m)
        return -1;
    watch_tally_print(&f->tally, m, a->now_s);
    fclose(m);
    time_t t = time(NULL);
    struct tm tm;
    char when[32] = "";
    if (localtime_r(&t, &tm))
        strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S %z", &tm);
    fprintf(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                 "<meta http-equiv=\"refresh\" content=\"%.0f\">\n"
                 "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                 "<title>rtjitter watch: your session, live</title>\n<style>\n"
                 "body{font-family:system-ui,sans-serif;margin:1.5em auto;max-width:1000px;padding:0 1em;color:#222}\n"
                 "h1{font-size:1.4em;margin:.2em 0}h2{font-size:1.1em;margin-top:1.4em;border-bottom:1px solid #ccc}\n"
                 "pre{background:#f7f7f7;padding:.6em .8em;border-radius:4px;font-size:.9em;white-space:pre-wrap;"
                 "overflow-wrap:anywhere}\n"
                 ".note{color:#555;font-size:.9em}\n</style>\n</head>\n<body>\n",
            WATCH_PAGE_EVERY_S);
    fputs("<h1>Your session, live</h1>\n<p class=\"note\">", out);
    html_escape(out, f->out.what[0] ? f->out.what : "watching");
    fputs(". Written at ", out);
    html_escape(out, when);
    fprintf(out, "; this page reloads every %.0f s while rtjitter watch runs, and becomes the session's report when "
                 "it ends.</p>\n<h2>The session so far</h2>\n<pre>", WATCH_PAGE_EVERY_S);
    html_escape(out, sum && sum[0] ? sum : "no xrun yet\n");
    fputs("</pre>\n<h2>The latest lines, the newest first</h2>\n<pre>", out);
    unsigned n = f->out.nlines < WATCH_OUT_LATEST ? f->out.nlines : WATCH_OUT_LATEST;
    for (unsigned i = 0; i < n; i++) {
        html_escape(out, f->out.latest[(f->out.nlines - 1 - i) % WATCH_OUT_LATEST]);
        fputc('\n', out);
    }
    if (!n)
        fputs("(none yet)\n", out);
    fputs("</pre>\n</body>\n</html>\n", out);
    free(sum);
    return ferror(out) ? -1 : 0;
}

void watch_page_update(struct watch_feed *f, double now_s)
{
    if (!f->page || f->page_error || (f->page_at_s > 0 && now_s - f->page_at_s < WATCH_PAGE_EVERY_S))
        return;
    f->page_at_s = now_s;
    struct page_arg a = { f, now_s };
    int rc = doc_write(f->page, DOC_REPLACE, page_body, &a);
    if (rc < 0) { /* said once; the report page is still tried at the end, and fails the run there if it fails */
        char shown[512];
        fprintf(stderr, "rtjitter watch: the live page %s cannot be written (%s): not updated while watching\n",
                term_str(shown, sizeof(shown), f->page), strerror(-rc));
        f->page_error = 1;
    }
}
