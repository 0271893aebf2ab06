/* SPDX-License-Identifier: GPL-2.0-or-later */
/* See hurry.h. */
#include "util/hurry.h"
#include <errno.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

static pid_t self_or(pid_t tid)
{
    return tid > 0 ? tid : (pid_t)syscall(SYS_gettid);
}

int hurry_begin(pid_t tid)
{
    tid = self_or(tid);
    errno = 0;
    int was = getpriority(PRIO_PROCESS, (id_t)tid); /* Linux: a TID names that thread alone */
    if (was == -1 && errno != 0)
        return HURRY_NONE;
    if (was <= -19)
        return HURRY_NONE;
    return setpriority(PRIO_PROCESS, (id_t)tid, -19) == 0 ? was : HURRY_NONE;
}

void hurry_end(pid_t tid, int was)
{
    if (was != HURRY_NONE)
        (void)setpriority(PRIO_PROCESS, (id_t)self_or(tid), was);
}
