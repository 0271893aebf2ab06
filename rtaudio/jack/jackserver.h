/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A private jackd for one run: started when no server is running, stopped by its PID at exit. */
#ifndef RTJ_JACKSERVER_H
#define RTJ_JACKSERVER_H
#include <sys/types.h>

struct private_server {
    pid_t pid;               /* 0 when none */
    char name[64];           /* unique and not guessable: rtjitter-PID-RANDOM-SUFFIX (RANDOM: 8 hex digits) */
    char driver[16];         /* "dummy" or "alsa" */
    char device[64];
    char log_dir[256];       /* private (0700) directory of the log: TMP/NAME.jackd.XXXXXX */
    char log_path[300];
    int rate_hz, period_frames, nperiods, priority;
};

/* Start jackd and wait (up to 5 s) until a client can connect. device NULL: the dummy driver. First removes
 * what a SIGKILLed rtjitter left (its log directory, jack2's /dev/shm files of rtjitter-PID names, PID dead).
 * Returns 0 or -errno; err gets one line (the server's last words when it died). */
int jackserver_start(struct private_server *s, const char *device, int rate_hz, int period_frames,
                     int nperiods, int priority, char *err, size_t errlen);
/* The same, named rtjitter-PID-RANDOM-SUFFIX ("server" above; RANDOM: 32 bits from getrandom, so that a user cannot
 * plant jack2's /dev/shm files of the name before a root run starts it): for a server that outlives several clients
 * of this process (a sweep), whose name must differ from theirs (rtjitter-PID): jack2 refuses a second client of a
 * server that has its name (status 0x11) once the first has closed. */
int jackserver_start_named(struct private_server *s, const char *suffix, const char *device, int rate_hz,
                           int period_frames, int nperiods, int priority, char *err, size_t errlen);
/* Why jackd died, from what it printed (text: its whole output): its banner and chatter skipped ("jackdmp 1.9.21",
 * "Copyright ...", "under certain conditions; see the file COPYING", "JACK server starting ..."), the first line
 * naming a specific error, else the first error line ("Failed to open server"), else the last meaningful line,
 * else the message of the last library log line ("[W][...] ..."). "" when there is none. Pure. */
void jackserver_reason(const char *text, char *out, size_t outlen);
/* The file the private server's stdout and stderr go to (jack2 prints "JackEngine::XRun: client = NAME was not
 * finished" there: src/culprit/src_jacklog.h reads it), or NULL when no private server runs. Removed by
 * jackserver_stop: open it before (an open descriptor reads on). */
const char *jackserver_log_path(const struct private_server *s);
/* 1 while the server process lives. */
int jackserver_alive(struct private_server *s);
/* SIGTERM (and SIGCONT: a stopped server keeps it pending), then SIGKILL after 1 s; reaps it and removes
 * its log. */
void jackserver_stop(struct private_server *s);

#endif
