/* SPDX-License-Identifier: GPL-2.0-or-later */
/* exec:CMD: the user's own load command, run by /bin/sh in its own process group and ended at the phase end. */
#include "load.h"
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void run(struct load_child *c)
{
    /* Its working directory (set by the supervisor, through the directory's descriptor) and TMPDIR are the load's
     * private directory, so whatever files it leaves behind are removed with it; its output goes to a log whose
     * last line explains a failure. TMPDIR must be a path for the command's sake: it names our own directory in
     * a --tmpdir where nobody but us and root may rename entries (loaddir_check_parent). */
    setenv("TMPDIR", c->dir, 1);
    int log = openat(c->dirfd, "output.log", O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (log >= 0) {
        dup2(log, 1);
        dup2(log, 2);
        close(log);
    }
    close(c->dirfd); /* the command needs no descriptor of ours */
    execl("/bin/sh", "sh", "-c", c->arg, (char *)NULL);
    load_fail(c, "cannot run /bin/sh: %s", strerror(errno));
}

static int report(const struct load_child *c, const struct load_sample *s, struct load_metric *m)
{
    (void)c;
    int n = 0;
    if (s->life_s > 0) /* rusage of the command and every descendant it waited for, over its whole life */
        n += load_metric_set(&m[n], "exec", "cpu", 100.0 * s->child_cpu_s / s->life_s, "% of one CPU");
    if (s->exit_status >= 0)
        n += load_metric_set(&m[n], "exec", s->ended_early ? "exit_status" : "exit_status_at_stop",
                             s->exit_status, "");
    return n;
}

const struct load_info load_exec = {
    .name = "exec",
    .summary = "exec:CMD runs your own load command with /bin/sh -c in a private directory under --tmpdir, and "
               "ends it and everything it started (SIGTERM, then SIGKILL) at the phase end",
    .metric = "exec.cpu",
    .unit = "% of one CPU",
    .bounds = "none on what it does: the command is yours; everything it starts, daemons included, is ended and "
              "its directory removed at the phase end",
    .example = "exec:while :; do :; done",
    .takes_arg = 1,
    .needs_dir = 1,
    .not_in_all = 1,
    .run = run,
    .report = report,
};
