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
    if (isnan(v))
        fputs("-", f);
    else
        fprintf(f, "%.*f", prec, v);
}

void html_page_start(FILE *f, const char *title)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>", f);
    html_escape(f, title);
    fputs("</title>\n<style>\n"
          "body{font-family:system-ui,sans-serif;margin:1.5em auto;max-width:1100px;padding:0 1em;color:#222;"
          "background:#fff}\n"
          "h1{font-size:1.5em;margin:.2em 0}h2{font-size:1.2em;margin-top:1.6em;border-bottom:1px solid #ccc}\n"
          "table{border-collapse:collapse;margin:.5em 0;font-size:.92em}"
          "td,th{border:1px solid #ccc;padding:.2em .5em;text-align:right;vertical-align:top}"
          "th{background:#f2f2f2}td.k,th.k{text-align:left}td.v{text-align:left;word-break:break-word}\n"
          ".verdict{padding:.8em 1em;border-radius:6px;border:2px solid #888;background:#f7f7f7}"
          ".pass{border-color:#2a8f2a;background:#eef8ee}.warn{border-color:#c98a00;background:#fff8e6}"
          ".fail{border-color:#c02020;background:#fdeeee}\n"
          ".level{font-weight:bold;font-size:1.2em}.summary{font-size:1.1em}\n"
          ".better{color:#1d7a1d;font-weight:bold}.worse{color:#b01c1c;font-weight:bold}"
          ".same{color:#555}.weak{color:#9a6a00}\n"
          ".warning{color:#8a5a00}figure{margin:.5em 0}figcaption{font-size:.9em;color:#444}"
          "svg{max-width:100%;height:auto;background:#fff}\n"
          "details summary{cursor:pointer}code{font-size:.9em}.wide{overflow-x:auto}\n"
          "</style>\n</head>\n<body>\n", f);
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
