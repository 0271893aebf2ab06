/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The shipped profiles (data/profiles/studio.json and live.json), built into the binary so that a copied or
 * relocated rtjitter runs without its data directory. The files are the one source (util/incbin.h); the
 * Makefile rebuilds this object when they change. A file of the same name in a data directory wins over these
 * (profile.c). */
#include "verdict/profile.h"
#include "util/incbin.h"
#include <string.h>

RTJ_INCBIN(rtj_profile_live, "data/profiles/live.json");
RTJ_INCBIN(rtj_profile_studio, "data/profiles/studio.json");

static const struct profile_builtin builtins[] = {
    { "live", rtj_profile_live },
    { "studio", rtj_profile_studio },
    { NULL, NULL },
};

const struct profile_builtin *profile_builtins(void)
{
    return builtins;
}
