/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The options a form is laid out with (render_opts.h): detected for a stream, or the defaults. */
#include "render/render_opts.h"
#include "util/wrap.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* Does the locale's name say UTF-8? The first of LC_ALL, LC_CTYPE, LANG that is set decides (POSIX order). */
static int locale_utf8(void)
{
    static const char *const vars[] = { "LC_ALL", "LC_CTYPE", "LANG" };
    for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
        const char *v = getenv(vars[i]);
        if (!v || !*v)
            continue;
        char low[128];
        size_t k = 0;
        for (; v[k] && k + 1 < sizeof(low); k++)
            low[k] = (char)tolower((unsigned char)v[k]);
        low[k] = '\0';
        return strstr(low, "utf-8") || strstr(low, "utf8");
    }
    return 0; /* the C locale: ASCII */
}

void render_opts_detect(struct render_opts *o, FILE *f)
{
    memset(o, 0, sizeof(*o));
    o->width = wrap_width(f);
    o->ascii = !locale_utf8();
}

struct render_opts render_opts_or_default(const struct render_opts *o)
{
    struct render_opts r = { .width = RENDER_DEFAULT_WIDTH };
    if (o)
        r = *o;
    if (r.width <= 0)
        r.width = RENDER_DEFAULT_WIDTH;
    if (r.width < RENDER_MIN_WIDTH)
        r.width = RENDER_MIN_WIDTH;
    if (r.width > 1000)
        r.width = 1000;
    return r;
}
