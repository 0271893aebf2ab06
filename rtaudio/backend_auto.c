/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --backend auto (issue 33): the backend of the server the user would reach, asked of the servers themselves. */
#include "backend.h"
#include "jack/jack_client.h"
#include "pipewire/pw_probe.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define AUTO_ASK_MS 1000 /* each server's answer; a running one answers in a few ms */

const struct backend_ops *backend_auto(const char *server, char *why, size_t len, int *rc)
{
    char path[256];
    pwp_socket_path(server, path, sizeof(path));
    const char *jname = server ? server : getenv("JACK_DEFAULT_SERVER");
    if (!jname || !jname[0])
        jname = "default";
    int pw = pwp_server_answers(server, AUTO_ASK_MS);
    *rc = 2;
    if (strcmp(rtj_jack_provider(NULL, 0), "pipewire-jack") == 0) {
        /* Under pw-jack libjack is PipeWire's: a JACK client reaches that same PipeWire, never a jackd. pw-jack
         * asks for PipeWire's JACK, and keeps getting it. */
        if (pw) {
            snprintf(why, len, "--backend auto chose jack: libjack is PipeWire's (pw-jack) and PipeWire answers at "
                     "%.150s: its JACK, as pw-jack asks", path);
            return &backend_jack;
        }
        snprintf(why, len, "--backend auto: no server answers: libjack is PipeWire's (pw-jack) and no PipeWire "
                 "answers at %.150s: start PipeWire first", path);
        return NULL;
    }
    int jk = rtj_jack_server_answers(server, AUTO_ASK_MS);
    if (jk < 0) {
        *rc = 3; /* a call into libjack is left behind: the caller leaves with _exit */
        snprintf(why, len, "--backend auto: jackd '%.60s' is there but does not answer within %d ms (stopped or "
                 "hung)", jname, AUTO_ASK_MS);
        return NULL;
    }
    if (pw && jk) {
        snprintf(why, len, "--backend auto: both PipeWire (at %.150s) and jackd '%.60s' answer: give --backend "
                 "pipewire or --backend jack", path, jname);
        return NULL;
    }
    if (!pw && !jk) {
        snprintf(why, len, "--backend auto: no server answers: neither PipeWire (at %.150s) nor jackd '%.60s'; start "
                 "one, or give --backend jack (a private jackd) or --backend timer", path, jname);
        return NULL;
    }
    *rc = 0;
    if (pw)
        snprintf(why, len, "--backend auto chose pipewire: PipeWire answers at %.150s, no jackd '%.60s' does", path,
                 jname);
    else
        snprintf(why, len, "--backend auto chose jack: jackd '%.60s' answers, no PipeWire at %.150s", jname, path);
    return pw ? &backend_pipewire : &backend_jack;
}
