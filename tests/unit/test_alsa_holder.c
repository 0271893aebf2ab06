/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Who holds a card busy (rtaudio/alsa/alsa_holder.c), on a fake /proc: processes whose fds link to
 * /dev/snd/pcmC<card>D<dev>[pc] are named with their comm, lowest pid first, only for that card (any card with
 * card -1); controls, other cards and non-PCM files are not holders; unprintable names are made printable;
 * unreadable fd directories are reported as hidden. And the card a PCM name refers to. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "alsa/alsa_holder.h"

static char root[256];

static void proc_entry(const char *pid, const char *comm, const char *fd, const char *target)
{
    char p[512];
    snprintf(p, sizeof(p), "%s/proc/%s", root, pid);
    mkdir(p, 0755);
    snprintf(p, sizeof(p), "%s/proc/%s/fd", root, pid);
    mkdir(p, 0755);
    if (comm) {
        snprintf(p, sizeof(p), "%s/proc/%s/comm", root, pid);
        FILE *f = fopen(p, "w");
        assert_non_null(f);
        fprintf(f, "%s\n", comm);
        fclose(f);
    }
    if (fd) {
        snprintf(p, sizeof(p), "%s/proc/%s/fd/%s", root, pid, fd);
        assert_int_equal(symlink(target, p), 0);
    }
}

static int setup(void **state)
{
    (void)state;
    snprintf(root, sizeof(root), "%s/rtjt-holder.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    assert_non_null(mkdtemp(root));
    char p[512];
    snprintf(p, sizeof(p), "%s/proc", root);
    mkdir(p, 0755);
    proc_entry("812", "pipewire", "31", "/dev/snd/pcmC1D0p");
    proc_entry("812", NULL, "32", "/dev/snd/controlC1");
    proc_entry("95", "jackd", "7", "/dev/snd/pcmC1D0c");
    proc_entry("4001", "wireplumber", "9", "/dev/snd/controlC1");      /* a control: not a holder */
    proc_entry("4002", "aplay", "3", "/dev/snd/pcmC2D3p");             /* another card */
    proc_entry("4003", "bash", "1", "/dev/pts/0");
    proc_entry("4004", "evil\033[31m", "5", "/dev/snd/pcmC1D1p");    /* a name with an escape */
    proc_entry("self-ish", "x", "5", "/dev/snd/pcmC1D0p");            /* not a pid */
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[600];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
    return system(cmd) == 0 ? 0 : -1;
}

static void test_holders_of_one_card(void **state)
{
    (void)state;
    char buf[512];
    int hidden = 1;
    assert_int_equal(alsa_find_holders(root, 1, buf, sizeof(buf), &hidden), 3);
    assert_string_equal(buf, "jackd (pid 95), pipewire (pid 812), evil?[31m (pid 4004)");
    assert_int_equal(hidden, 0);
    assert_int_equal(alsa_find_holders(root, 2, buf, sizeof(buf), &hidden), 1);
    assert_string_equal(buf, "aplay (pid 4002)");
    assert_int_equal(alsa_find_holders(root, 3, buf, sizeof(buf), &hidden), 0);
    assert_string_equal(buf, "");
}

static void test_any_card_and_many(void **state)
{
    (void)state;
    char buf[512];
    int hidden;
    for (int i = 0; i < 3; i++) {
        char pid[16];
        snprintf(pid, sizeof(pid), "%d", 5000 + i);
        proc_entry(pid, "more", "3", "/dev/snd/pcmC0D0p");
    }
    assert_int_equal(alsa_find_holders(root, -1, buf, sizeof(buf), &hidden), 7);
    assert_string_equal(buf, "jackd (pid 95), pipewire (pid 812), aplay (pid 4002), evil?[31m (pid 4004) and 3 more");
    char small[20];
    alsa_find_holders(root, -1, small, sizeof(small), &hidden); /* cut, never overrun */
    assert_true(strlen(small) < sizeof(small));
}

static void test_unreadable_fds_are_hidden(void **state)
{
    (void)state;
    if (geteuid() == 0) { /* root reads every mode: nothing to hide */
        skip();
        return;
    }
    char p[512], buf[256];
    int hidden = 0;
    proc_entry("6000", "secret", NULL, NULL);
    snprintf(p, sizeof(p), "%s/proc/6000/fd", root);
    chmod(p, 0);
    alsa_find_holders(root, 1, buf, sizeof(buf), &hidden);
    chmod(p, 0755);
    assert_int_equal(hidden, 1);
}

static void test_no_proc(void **state)
{
    (void)state;
    char buf[64];
    int hidden;
    assert_int_equal(alsa_find_holders("/nonexistent-rtjt", 1, buf, sizeof(buf), &hidden), 0);
    assert_string_equal(buf, "");
}

static void test_card_of(void **state)
{
    (void)state;
    /* No sound card on a test machine: every name that names a card gives -1, as does a plain PCM name. */
    assert_int_equal(alsa_card_of("default"), -1);
    assert_int_equal(alsa_card_of("null"), -1);
    assert_int_equal(alsa_card_of("hw:97"), -1);
    assert_int_equal(alsa_card_of("plughw:CARD=\"USB\",DEV=0"), -1);
    assert_int_equal(alsa_card_of("hw:"), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_holders_of_one_card),
        cmocka_unit_test(test_any_card_and_many),
        cmocka_unit_test(test_unreadable_fds_are_hidden),
        cmocka_unit_test(test_no_proc),
        cmocka_unit_test(test_card_of),
    };
    return cmocka_run_group_tests_name("alsa_holder", tests, setup, teardown);
}
