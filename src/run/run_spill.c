/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Writing finished phases out and reading them back (run_spill.h). Main thread, outside the RT path. */
#include "run/run_spill.h"
#include "run/run_state.h"
#include "stats/phase_spill.h"
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <stdlib.h>

int run_spill_setup(struct run_state *st)
{
    const char *env = getenv("RTJ_SPILL");
    if (st->nphases < 2 || st->ramps || st->soak_on || st->be->phase_json || st->watch || (env && !strcmp(env, "0")))
        return 0;
    st->spills = calloc((size_t)st->nphases, sizeof(*st->spills));
    if (!st->spills)
        return -ENOMEM;
    st->col.hand_over = 1;
    return 0;
}

/* An unnamed file, read and write, where the loads write (--tmpdir, else $TMPDIR, else /tmp); NULL when none can be
 * made there (a file system without O_TMPFILE: the phases stay in memory). */
static FILE *spill_file(const struct run_state *st)
{
    const char *dir = st->p->tmpdir && *st->p->tmpdir ? st->p->tmpdir : getenv("TMPDIR");
    int fd = open(dir && *dir ? dir : "/tmp", O_TMPFILE | O_RDWR | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0)
        return NULL;
    FILE *f = fdopen(fd, "w+");
    if (!f)
        close(fd);
    return f;
}

void run_spill_poll(struct run_state *st)
{
    if (!st->spills || st->spill_stuck)
        return;
    int h = atomic_load_explicit(&st->col.handed, memory_order_acquire);
    for (; st->spilled < h; st->spilled++) {
        struct phase_stats *p = &st->stats[st->spilled];
        if (p->nseg == 0)
            continue;
        FILE *f = spill_file(st);
        if (!f || phase_spill_write(p, f) < 0) { /* it stays in memory, and so do the phases after it */
            if (f)
                fclose(f);
            st->spill_stuck = 1;
            return;
        }
        st->spills[st->spilled] = f;
        malloc_trim(0); /* as the collector does once a phase (run/collector.c): what the kernel lets go */
    }
}

void run_spill_restore(struct run_state *st)
{
    for (int i = 0; st->spills && i < st->nphases; i++) {
        if (!st->spills[i])
            continue;
        int read = phase_spill_read(&st->stats[i], st->spills[i]);
        fclose(st->spills[i]); /* read back or not, its work is done */
        st->spills[i] = NULL;
        if (read == 0)
            continue;
        char w[200];
        snprintf(w, sizeof(w), "phase %s: its statistics, written out during the run, could not be read back: "
                 "its figures are missing", load_plan_name(st->plan, i));
        run_warn(st, w);
        if (!st->spill_lost)
            st->spill_lost = "a phase's statistics, written out during the run, could not be read back";
    }
    if (st->col.handed_late) {
        char w[200];
        snprintf(w, sizeof(w), "%llu measured record%s of a finished phase came after it was written out and %s "
                 "left out of its figures", (unsigned long long)st->col.handed_late,
                 st->col.handed_late == 1 ? "" : "s", st->col.handed_late == 1 ? "is" : "are");
        run_warn(st, w);
    }
}

void run_spill_free(struct run_state *st)
{
    for (int i = 0; st->spills && i < st->nphases; i++)
        if (st->spills[i])
            fclose(st->spills[i]);
    free(st->spills);
    st->spills = NULL;
}
