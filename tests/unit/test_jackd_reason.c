/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Why a private jackd died (jackserver_reason, rtaudio/jack/jackserver.c), from what jackd 1.9.21 printed on this
 * machine, copied here as it came: its licence banner is never the reason ("under certain conditions; see the file
 * COPYING for details" was, under pw-jack), the line that names the error is. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>
#include "jack/jackserver.h"

#define BANNER "jackdmp 1.9.21\nCopyright 2001-2005 Paul Davis and others.\nCopyright 2004-2016 Grame.\n" \
    "Copyright 2016-2022 Filipe Coelho.\njackdmp comes with ABSOLUTELY NO WARRANTY\n" \
    "This is free software, and you are welcome to redistribute it\n" \
    "under certain conditions; see the file COPYING for details\n"
#define STARTING "JACK server starting in realtime mode with priority 10\n" \
    "self-connect-mode is \"Don't restrict self connect requests\"\n"

static void expect(const char *text, const char *want)
{
    char out[256];
    memset(out, 'x', sizeof(out));
    jackserver_reason(text, out, sizeof(out));
    if (strcmp(out, want))
        fail_msg("got \"%s\", want \"%s\"", out, want);
}

/* `pw-jack jackd -d dummy`: PipeWire's libjackserver, its log lines between jackd's own. */
static void test_pipewire_libjackserver(void **state)
{
    (void)state;
    expect(BANNER
           "[W][00296.922189] default      | [       control.c:   87 jackctl_server_create2()] not implemented 0x1 0x2\n"
           "[W][00296.922295] default      | [       control.c:  174 jackctl_server_get_parameters()] 0x3: not "
           "implemented\n"
           "Driver \"dummy\" is not a master \n"
           "[W][00296.922317] default      | [       control.c:  114 jackctl_server_destroy()] 0x4: not implemented\n",
           "Driver \"dummy\" is not a master");
}

/* Nothing but the banner: no reason, rather than a line of the licence. */
static void test_banner_only(void **state)
{
    (void)state;
    expect(BANNER, "");
    expect(BANNER STARTING, "");
    expect("", "");
}

/* `jackd -d alsa -d hw:9` with no such card: the first line that names the error, not the generic last one. */
static void test_alsa_no_card(void **state)
{
    (void)state;
    expect(BANNER STARTING
           "ALSA lib confmisc.c:165:(snd_config_get_card) Cannot get card index for 9\n"
           "control open \"hw:9\" (No such file or directory)\n"
           "creating alsa driver ... hw:9|hw:9|1024|2|48000|0|0|nomon|swmeter|-|32bit\n"
           "ALSA: Cannot open PCM device alsa_pcm for playback. Falling back to capture-only mode\n"
           "Cannot initialize driver\nJackServer::Open failed with -1\nFailed to open server\n",
           "ALSA lib confmisc.c:165:(snd_config_get_card) Cannot get card index for 9");
}

/* `jackd -d nosuchdriver`: stderr came before the banner (stdout) in the log. */
static void test_unknown_driver_first(void **state)
{
    (void)state;
    expect("Unknown driver \"nosuchdriver\"\n" BANNER, "Unknown driver \"nosuchdriver\"");
}

/* Only generic failures: the first of them; no error word at all: the last meaningful line. */
static void test_generic_and_plain(void **state)
{
    (void)state;
    expect(BANNER STARTING "JackServer::Open failed with -1\nFailed to open server\n",
           "JackServer::Open failed with -1");
    expect(BANNER STARTING "something happened\nthe driver stopped\n\n  \n", "the driver stopped");
    expect("[E][00001.000000] mod.jack-tunnel | [ module.c: 10 f()] no server\n", "no server");
}

/* A line longer than the output is cut, never overrun; CRLF line ends are trimmed. */
static void test_bounds(void **state)
{
    (void)state;
    char text[2000], out[16];
    memset(text, 'a', sizeof(text) - 1);
    text[sizeof(text) - 1] = '\0';
    memcpy(text, "error ", 6);
    jackserver_reason(text, out, sizeof(out));
    assert_int_equal(strlen(out), sizeof(out) - 1);
    assert_memory_equal(out, "error aaaaaaaaa", 15);
    expect(BANNER "Cannot lock down memory area\r\n", "Cannot lock down memory area");
    expect("[W]\n[W][1.0] x\n", "x");   /* cut log lines: no read past their end */
    expect("[\n[W]\n", "[");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pipewire_libjackserver),
        cmocka_unit_test(test_banner_only),
        cmocka_unit_test(test_alsa_no_card),
        cmocka_unit_test(test_unknown_driver_first),
        cmocka_unit_test(test_generic_and_plain),
        cmocka_unit_test(test_bounds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
