/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Every value pasted into a command rtjitter prints for the user to type (a fix of `rtjitter check`, the run's
 * privileges gate, the verdict's advice) goes through this one quoting function, so that a user name, a path or
 * a device name read from the system is one argument of that command and never more: `sudo usermod -aG audio
 * 'a;touch X'`, never `... a;touch X`. A file of src/util/: libc only. */
#ifndef RTJ_SHQUOTE_H
#define RTJ_SHQUOTE_H
#include <stddef.h>

/* s as one shell word, into out (n bytes): bare when it is made only of [A-Za-z0-9_@%+=:,./-] and not empty
 * ("audio", "/etc/security/limits.d/audio.conf"); else in single quotes, a quote written '\'' ("'a;touch X'");
 * and when s holds a control character (C0, DEL, or C1 as UTF-8), in $'...' with \xHH escapes, so the command
 * stays on one line and shows what it holds (POSIX.1-2024, bash, zsh, ksh). Returns the length written, or
 * -ENAMETOOLONG when the word does not fit (out is then ""). s NULL is quoted as ''. */
int sh_quote(const char *s, char *out, size_t n);

/* The same as a value: printf("... %s", shq(name).s) within one expression. A word that does not fit is
 * written as the placeholder '...' (never a word cut short). */
struct shq_word {
    char s[320];
};
struct shq_word shq(const char *s);

#endif
