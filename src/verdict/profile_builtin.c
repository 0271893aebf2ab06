/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The shipped profiles (data/profiles/studio.json and live.json), built into the binary so that a copied or
 * relocated rtjitter runs without its data directory. The files are the one source: the assembler includes them
 * as they are (.incbin, from the top of the source tree, where make runs the compiler), NUL-terminated; the
 * Makefile rebuilds this object when they change. A file of the same name in a data directory wins over these
 * (profile.c). */
#include "verdict/profile.h"
#include <string.h>

#define BUILTIN(sym, file)                                                                                         \
    __asm__(".pushsection .rodata\n.balign 16\n.globl " #sym "\n.hidden " #sym "\n.type " #sym ", %object\n" #sym \
            ":\n.incbin \"" file "\"\n.byte 0\n.size " #sym ", . - " #sym "\n.popsection\n");                     \
    extern const char sym[] __attribute__((visibility("hidden")))

BUILTIN(rtj_profile_live, "data/profiles/live.json");
BUILTIN(rtj_profile_studio, "data/profiles/studio.json");

static const struct profile_builtin builtins[] = {
    { "live", rtj_profile_live },
    { "studio", rtj_profile_studio },
    { NULL, NULL },
};

const struct profile_builtin *profile_builtins(void)
{
    return builtins;
}
