/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one quoting function of printed commands (util/shquote.c): each expected word is written out by hand, and
 * every word, hostile ones included (the issue's `a;touch X`, quotes, $(...), a newline, an escape sequence, C1),
 * is parsed back by bash itself: exactly one argument, byte for byte the original, and nothing run. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "util/shquote.h"

static void test_words(void **state)
{
    (void)state;
    static const struct { const char *in, *want; } cases[] = {
        { "musician", "musician" }, { "audio", "audio" }, { "/etc/security/limits.d/audio.conf",
          "/etc/security/limits.d/audio.conf" }, { "a-b_c.d@e%f+g=h:i,j", "a-b_c.d@e%f+g=h:i,j" },
        { "", "''" }, { "a;touch X", "'a;touch X'" }, { "it's", "'it'\\''s'" }, { "$(id)", "'$(id)'" },
        { "~root", "'~root'" }, { "#x", "'#x'" }, { "a b", "'a b'" }, { "Müller", "'Müller'" },
        { "a\nb", "$'a\\x0ab'" }, { "\033]0;x\007", "$'\\x1b]0;x\\x07'" }, { "q'\\", "'q'\\''\\'" },
        { "c1\xc2\x9b" "31m", "$'c1\\xc2\\x9b31m'" }, { "e'\x01\\", "$'e\\'\\x01\\\\'" },
    };
    char out[128];
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        int n = sh_quote(cases[i].in, out, sizeof(out));
        if (n < 0 || strcmp(out, cases[i].want) || (size_t)n != strlen(out))
            fail_msg("\"%s\" gives %s (%d), want %s", cases[i].in, out, n, cases[i].want);
    }
    assert_string_equal(shq(NULL).s, "''");
    assert_int_equal(sh_quote("a;b", out, 4), -ENAMETOOLONG);
    assert_string_equal(out, "");
    char big[400];
    memset(big, 'x', sizeof(big) - 1);
    big[sizeof(big) - 1] = '\0';
    assert_string_equal(shq(big).s, "'...'");
}

/* bash -c 'set -- WORD; printf "%d:%s" "$#" "$1"': the count and the first argument, as bash parses them. */
static void parse(const char *word, char *out, size_t n)
{
    char script[1024];
    snprintf(script, sizeof(script), "set -- %s; printf '%%d:%%s' \"$#\" \"$1\"", word);
    int fd[2];
    assert_int_equal(pipe(fd), 0);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fd[1], 1);
        close(fd[0]);
        execlp("bash", "bash", "-c", script, (char *)NULL);
        _exit(127);
    }
    close(fd[1]);
    size_t o = 0;
    ssize_t r;
    while (o + 1 < n && (r = read(fd[0], out + o, n - 1 - o)) > 0)
        o += (size_t)r;
    out[o] = '\0';
    close(fd[0]);
    int st;
    waitpid(pid, &st, 0);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

static void test_bash_reads_one_word(void **state)
{
    (void)state;
    static const char *const hostile[] = {
        "a;touch X", "a && touch X", "`touch X`", "$(touch X)", "a'b\"c", "a\nb", "\033[31mred", "-rf",
        "a\\", "' ; touch X ; '", ("\xc2\x9b" "2J"), "*", "a b\tc", "Müller",
    };
    char dir[4096];
    snprintf(dir, sizeof(dir), "%s/rtj-shq-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    assert_non_null(mkdtemp(dir));
    assert_int_equal(chdir(dir), 0);
    for (size_t i = 0; i < sizeof(hostile) / sizeof(hostile[0]); i++) {
        char got[512], want[512];
        parse(shq(hostile[i]).s, got, sizeof(got));
        snprintf(want, sizeof(want), "1:%s", hostile[i]);
        if (strcmp(got, want))
            fail_msg("%s parsed as \"%s\"", shq(hostile[i]).s, got);
    }
    /* nothing ran: no file X in the working directory */
    assert_int_equal(access("X", F_OK), -1);
    assert_int_equal(chdir("/"), 0);
    assert_int_equal(rmdir(dir), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_words),
        cmocka_unit_test(test_bash_reads_one_word),
    };
    return cmocka_run_group_tests_name("shquote", tests, NULL, NULL);
}
