/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A file of the source tree built into the binary as it is, NUL-terminated: RTJ_INCBIN(sym, "dir/file") defines
 * `const char sym[]` (hidden). The assembler includes the file (.incbin), its path from the top of the source tree,
 * where make runs the compiler; the -MMD dependencies do not see it, so the Makefile names the files an object
 * includes (the profiles, the man pages' prose under doc/). One file, one source: a copied or relocated binary
 * needs no data directory for them. */
#ifndef RTJ_UTIL_INCBIN_H
#define RTJ_UTIL_INCBIN_H

#define RTJ_INCBIN(sym, file)                                                                                      \
    __asm__(".pushsection .rodata\n.balign 16\n.globl " #sym "\n.hidden " #sym "\n.type " #sym ", %object\n" #sym \
            ":\n.incbin \"" file "\"\n.byte 0\n.size " #sym ", . - " #sym "\n.popsection\n");                     \
    extern const char sym[] __attribute__((visibility("hidden")))

#endif
