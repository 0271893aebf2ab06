/* SPDX-License-Identifier: GPL-2.0-or-later */
/* setup.jack_registry: what holds jack2's 8 server slots (util/jackreg.h), read under the root prefix, for the
 * check `jack_registry` (src/checks/audio.c). */
#include "sysinfo/sysinfo_internal.h"
#include "sysinfo/sysread.h"
#include "util/jackreg.h"
#include <errno.h>
#include <unistd.h>

json_t *sysinfo_jack_registry(const char *root)
{
    struct jackreg r;
    if (!sysinfo_exists(root, "/dev/shm"))
        return json_null(); /* no /dev/shm (a tree without it): unknown */
    int e = jackreg_read(root, &r);
    if (e == -ENOENT)
        return json_pack("{s:b}", "present", 0); /* no jack2 server since boot: every slot free */
    if (e < 0)
        return json_null();
    json_t *slots = json_array();
    for (int i = 0; i < r.held; i++) {
        const struct jackreg_slot *s = &r.slot[i];
        json_array_append_new(slots, json_pack("{s:i, s:i, s:i, s:s, s:b, s:i, s:b}", "index", s->index, "pid", s->pid,
                                               "uid", s->uid, "name", s->name, "alive", s->alive, "rtjitter_pid",
                                               s->rtj_pid, "rtjitter_alive", s->rtj_alive));
    }
    char who[1200], cmd[1200];
    jackreg_describe(&r, who, sizeof(who));
    jackreg_free_command(&r, (int)getuid(), cmd, sizeof(cmd));
    return json_pack("{s:b, s:i, s:i, s:o, s:s, s:s}", "present", 1, "held", r.held, "dead", r.dead, "slots", slots,
                     "describe", who, "free_command", cmd);
}
