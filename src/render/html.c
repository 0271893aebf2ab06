/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The pieces every HTML page of rtjitter shares: the one escaping function, the page's head (inline CSS) and
 * foot, numbers and lists. No script anywhere: a page must read the same in a mail attachment, a forum post or
 * a browser with JavaScript off. */
#include "render/html.h"
#include "util/utf8.h"
#include <math.h>
#include <string.h>

void html_escape(FILE *f, const char *s)
{
    if (!s)
        return;
    size_t len = strlen(s);
    for (size_t i = 0; i < len;) {
        unsigned char c = (unsigned char)s[i];
        const char *entity = c == '&' ? "&amp;" : c == '<' ? "&lt;" : c == '>' ? "&gt;" : c == '"' ? "&quot;"
                           : c == '\'' ? "&#39;" : NULL;
        if (entity || c == '\t' || c == '\n') {
            if (entity)
                fputs(entity, f);
            else
                fputc(c, f);
            i++;
            continue;
        }
        uint32_t cp;
        size_t n = utf8_char(s + i, len - i, &cp);
        /* Control characters and U+FFFE/U+FFFF are not allowed in XML (the SVG parts) and invisible in HTML;
         * a byte that is not UTF-8 would make the browser guess. Each such byte becomes U+FFFD. */
        if (n == 0 || cp < 0x20 || cp == 0x7f || cp == 0xfffe || cp == 0xffff) {
            fputs(UTF8_REPLACEMENT, f);
            i++;
            continue;
        }
        fwrite(s + i, 1, n, f);
        i += n;
    }
}

void html_num(FILE *f, double v, int prec)
{
    char b[64];
    if (isnan(v)) {
        fputs("-", f);
        return;
    }
    snprintf(b, sizeof(b), "%.*f", prec, v);
    /* -0.04 shown with one decimal is zero, not "-0.0" */
    fputs(b[0] == '-' && strspn(b + 1, "0.") == strlen(b + 1) ? b + 1 : b, f);
}

void html_page_start(FILE *f, const char *title)
{
    html_page_start_css(f, title, NULL);
}

void html_page_start_css(FILE *f, const char *title, const char *extra_css)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>", f);
    html_escape(f, title);
    fputs("</title>\n<style>\n"
          "body{font-family:system-ui,sans-serif;margin:1.5em auto;max-width:1240px;padding:0 1em;color:#222;"
          "background:#fff}\n"
          "h1{font-size:1.5em;margin:.2em 0}h2{font-size:1.2em;margin-top:1.6em;border-bottom:1px solid #ccc}\n"
          "table{border-collapse:collapse;margin:.5em 0;font-size:.92em}"
          "td,th{border:1px solid #ccc;padding:.2em .45em;text-align:right;vertical-align:top;white-space:nowrap}"
          "th{background:#f2f2f2;font-weight:600}th small{display:block;font-weight:normal;color:#555}"
          "td.k,th.k{text-align:left}td.v{text-align:left;white-space:normal;word-break:break-word}\n"
          "table.results{width:100%;font-size:.86em}table.results td,table.results th{padding:.2em .35em}"
          "th.grp{text-align:center}td.figs{white-space:normal;min-width:10em}.nw{white-space:nowrap}"
          ".pct{display:block;font-size:.85em;color:#555}\n"
          "td.bad,span.bad{background:#f9d0d0;color:#7a0000;font-weight:bold}"
          "td.warnc,span.warnc{background:#ffefbf}td.rampc,span.rampc{background:#e4e4e4;color:#333}.note{font-size:.9em;color:#333}\n"
          ".verdict{padding:.8em 1em;border-radius:6px;border:2px solid #888;background:#f7f7f7}"
          ".pass{border-color:#2a8f2a;background:#eef8ee}.warn{border-color:#c98a00;background:#fff8e6}"
          ".fail{border-color:#c02020;background:#fdeeee}\n"
          ".level{font-weight:bold;font-size:1.2em}.summary{font-size:1.1em}\n"
          ".better{color:#1d7a1d;font-weight:bold}.worse{color:#b01c1c;font-weight:bold}"
          ".same{color:#555}.weak{color:#9a6a00}li.better,li.worse{font-weight:normal}\n"
          ".worse-pair{color:#b35300;font-style:italic}.better-pair{color:#1d6a6a;font-style:italic}\n"
          "th.title{white-space:normal;min-width:8em;max-width:16em;text-align:right}th.title.k{text-align:left}"
          "td.file{white-space:normal;overflow-wrap:anywhere;text-align:left}\n"
          "div.wide{overflow-x:auto}th.mach{white-space:normal;word-break:break-word;min-width:7em;max-width:12em}\n"
          ".warning{color:#8a5a00}figure{margin:.8em 0 1.4em}figcaption{font-size:.9em;color:#333;max-width:60em}"
          "svg{max-width:100%;height:auto;background:#fff}svg .period-label{fill:#000}svg .ok-note{fill:#2a8f2a}\n"
          "svg.wave{background:#fafafa;border:1px solid #ddd}svg.wave .cap{stroke:#1f5fbf;stroke-width:1}"
          "svg.wave .ref{stroke:#bbb;stroke-width:1}svg.wave .at{stroke:#d00;stroke-width:1}\n"
          "details summary{cursor:pointer}code{font-size:.9em}.wide{overflow-x:auto}\n", f);
    if (extra_css)
        fputs(extra_css, f);
    fputs("</style>\n</head>\n<body>\n", f);
}

void html_page_end(FILE *f, const char *version)
{
    fputs("<footer><p style=\"color:#777;font-size:.85em\">Made by rtjitter ", f);
    html_escape(f, version);
    fputs(". This page is self-contained: it loads nothing and runs no script.</p></footer>\n</body>\n</html>\n",
          f);
}

void html_strings_list(FILE *f, const json_t *a, const char *cls)
{
    if (!json_array_size(a))
        return;
    fprintf(f, "<ul class=\"%s\">\n", cls);
    size_t i;
    const json_t *s;
    json_array_foreach(a, i, s) {
        fputs("<li>", f);
        html_escape(f, json_string_value(s));
        fputs("</li>\n", f);
    }
    fputs("</ul>\n", f);
}
