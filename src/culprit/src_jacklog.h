/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The culprit source that tails a JACK server's log: jackd's stderr in a file (the private jackd rtjitter starts,
 * --server-log FILE) or jackdbus's own log. jack2 prints "JackEngine::XRun: client = NAME was not finished, state =
 * ..." for each cycle a client did not finish; each poll reads the new complete lines and gives one CK_CLIENT
 * observation "another JACK client did not finish: NAME" per stall (the lines of one stall folded, with their
 * count). A jackd line carries no time: it is timed when read (the evidence says within which interval); a jackdbus
 * line carries a ctime() prefix to the second, used when present. Runs in the engine's normal-priority thread. */
#ifndef RTJ_SRC_JACKLOG_H
#define RTJ_SRC_JACKLOG_H
#include "culprit/culprit_engine.h"
#include <stddef.h>
#include <time.h>

/* Opens the log at path. from_start: read what is there already (else only what is written from now on). clock:
 * the engine's clock, every time given out is on it. Refuses anything but a regular file (a FIFO would block the
 * engine or lose lines to another reader), with one line in err. 0, or -1. */
int jacklog_source_open(const char *path, int from_start, clockid_t clock, struct culprit_source *out, char *err,
                        size_t errlen);
/* jackdbus's log: $HOME/.log/jack/jackdbus.log (jack2 dbus/jackdbus.c paths_init and log_init: HOME + "/.log" +
 * "/jack" + "/jackdbus.log", the names in dbus/jackdbus.h; XDG_CONFIG_HOME moves its config, never its log). 0 when
 * it exists as a regular file, -1 otherwise (out still gets the path when HOME is set). */
int jacklog_default_path(char *out, size_t len);

/* One parsed line (exposed for the unit tests). Returns 1 when the line names a client that did not finish (name
 * filled, valid UTF-8 without control characters; *wall_s the line's own timestamp in seconds since the epoch, or
 * -1 when it has none), else 0. */
int jacklog_parse_line(const char *line, size_t len, char *name, size_t namelen, long long *wall_s);

#endif
