/* SPDX-License-Identifier: GPL-2.0-or-later */
/* PipeWire's clock settings (the "settings" metadata object, through pw-metadata with a deadline), and the
 * quantum a sweep forces on the whole graph: clock.force-quantum / clock.force-rate set per size, the values they
 * had kept in a state file under $XDG_RUNTIME_DIR/rtjitter/ while the sweep lasts, restored at its end, and
 * restored by the next start when the sweep that wrote the file died (SIGKILL, a crash). Main thread only; nothing
 * here runs in the RT thread (it forks pw-metadata and writes files). */
#ifndef RTJ_PW_SETTINGS_H
#define RTJ_PW_SETTINGS_H
#include "backend.h"
#include <jansson.h>
#include <stddef.h>
#include <sys/types.h>

/* The clock.* keys as in force ({"clock.rate": "48000", "clock.force-quantum": "64", ...}, values as strings), read
 * with pw-metadata within 2 s. NULL when pw-metadata is missing, times out or says nothing. */
json_t *pw_settings_read(void);
/* One integer key of pw_settings_read()'s object ("clock.force-quantum"); def when absent or not a number. */
long pw_settings_int(const json_t *settings, const char *key, long def);
/* pw-metadata -n settings 0 KEY VALUE, within 2 s. 0, or -errno (-ETIMEDOUT, -ENOENT: no pw-metadata, -EIO). */
int pw_settings_set(const char *key, long value);

/* The quantum and rate a sweep forces, and what they were before it. */
struct pw_force {
    long old_quantum, old_rate;  /* clock.force-quantum / clock.force-rate before the sweep (0: none) */
    int held;                    /* the state file is ours: restore at the end */
    char dir[4096];              /* $XDG_RUNTIME_DIR/rtjitter */
    char name[128];              /* the state file's name in dir, one per PipeWire instance (its socket) */
};

/* The state file of a sweep that died (its owner's pid is gone, or is another process now: its start time differs)
 * is restored (the values in it set back) and removed. Says so on stderr unless quiet. Returns 1 when it restored
 * one, 0 when there is none, or the pid of a live owner (> 1: another sweep holds the quantum; 0 is returned
 * instead when that owner is this process); -errno when the file could not be read or the values not set. */
int pw_force_recover(int quiet, pid_t *owner);
/* Before the sweep sets anything: recovers a dead sweep's state, reads the values in force, and writes them with
 * this process's pid and start time into the state file (O_EXCL, then linked into place: never two owners).
 * 0, or -errno with one line in err (-EBUSY: another live sweep holds it). */
int pw_force_take(struct pw_force *f, int quiet, char *err, size_t errlen);
/* Sets clock.force-quantum (and clock.force-rate when rate > 0), then reads them back: 0 when pw-metadata says
 * both are in force, -EIO (err says what it read instead), or -errno of pw-metadata. */
int pw_force_set(struct pw_force *f, int quantum, int rate, char *err, size_t errlen);
/* Sets the old values back and removes the state file. Safe when not held. 0, or -errno (the file is then kept for
 * the next start to restore). */
int pw_force_restore(struct pw_force *f);

/* A sweep's PipeWire part (backend_session_ops), one for the JACK session under pw-jack and the native one: */
/* check: how the size changes, for the document and the "not in force" reason. */
void pw_force_session_check(struct backend_session *s);
/* begin: takes the quantum over (pw_force_take) and says so on stderr, even with --quiet; -errno with err, s->why. */
int pw_force_session_begin(struct pw_force *f, struct backend_session *s, char *err, size_t len);
/* period: forces cfg's size and reads it back; -errno with err the whole reason the size is not measured. */
int pw_force_session_period(struct pw_force *f, const struct backend_config *cfg, char *err, size_t len);
/* end: sets the old values back when held, said on stderr; *restored 1, or -errno; untouched when not held. */
void pw_force_session_end(struct pw_force *f, const struct backend_session *s, int *restored);
/* describe: audio.pipewire, the values before the sweep and whether they were set back. */
void pw_force_session_describe(const struct pw_force *f, int restored, json_t *audio);

#endif
