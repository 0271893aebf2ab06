/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Does a PipeWire server answer, and where would a client reach it (issue 33: --backend auto, watch following a
 * restarted PipeWire). Main thread only; nothing here runs in the RT thread. */
#ifndef RTJ_PW_PROBE_H
#define RTJ_PW_PROBE_H
#include <stddef.h>

/* Not RT-safe. Does the PipeWire server `remote` (NULL: the default one, as libpipewire picks it) answer a round
 * trip (a core sync) within deadline_ms? 1 or 0. A stopped or hung server is 0 too: the probe leaves nothing
 * behind (its own loop and connection are gone when it returns), so it may be asked again. */
int pwp_server_answers(const char *remote, int deadline_ms);
/* The socket a client of remote (NULL: the default) reaches, by libpipewire 0.3.65's rules: the name is remote,
 * else PIPEWIRE_REMOTE, else pipewire-0; an absolute name is the path, else it lies in PIPEWIRE_RUNTIME_DIR, else
 * XDG_RUNTIME_DIR, else USERPROFILE, and when no socket is there, in /run/pipewire. Into buf, for the user to
 * read (libpipewire itself decides where it connects). */
void pwp_socket_path(const char *remote, char *buf, size_t len);

#endif
