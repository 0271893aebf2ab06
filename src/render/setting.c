/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The buffer setting and a fixed DSP share in words, for every form (setting.h). */
#include "render/setting.h"
#include "report/access.h"
#include <math.h>
#include <stdio.h>

char *render_setting(char *buf, size_t len, const json_t *au, int with_ms)
{
    double fr = doc_num(au, "period_frames"), rate = doc_num(au, "rate"), us = doc_num(au, "period_us");
    if (len == 0)
        return buf;
    if (isfinite(fr) && isfinite(rate)) {
        int n = snprintf(buf, len, "%.0f frames @ %.0f Hz", fr, rate);
        if (with_ms && isfinite(us) && n > 0 && (size_t)n < len)
            snprintf(buf + n, len - (size_t)n, " = %.3f ms", us / 1000.0);
    } else if (isfinite(us)) {
        snprintf(buf, len, "%.3f ms interval", us / 1000.0);
    } else {
        snprintf(buf, len, "?");
    }
    return buf;
}

char *render_dsp_share(char *buf, size_t len, const json_t *doc)
{
    const json_t *au = json_object_get(doc, "audio");
    if (len == 0)
        return buf;
    buf[0] = '\0';
    if (!(doc_num(au, "dsp_pct") > 0))
        return buf;
    int n = snprintf(buf, len, "%.0f %% of each period burnt in the callback", doc_num(au, "dsp_pct"));
    size_t i;
    const json_t *p;
    int any = 0;
    json_array_foreach(json_object_get(doc, "phases"), i, p) {
        const json_t *sh = json_object_get(p, "dsp_share");
        if (n < 0 || (size_t)n >= len || !json_is_number(json_object_get(sh, "measured_pct")))
            continue;
        n += snprintf(buf + n, len - (size_t)n, "%s%.40s %.1f %%", any ? ", " : "; measured (the RT thread's CPU "
                      "time): ", doc_str(p, "load", "?"), doc_num(sh, "measured_pct"));
        any = 1;
    }
    return buf;
}
