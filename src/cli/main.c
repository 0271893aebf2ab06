/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rtjitter: can this kernel, on this machine, run audio at a small buffer size without dropouts? */
#include "util/wrap.h"
#include "cli/command.h"
#include "cli/manpage.h"
#include "run/run.h"
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void usage(FILE *f)
{
    fprintf(f, "rtjitter %s: real-time audio jitter tester (JACK)\n\nusage: rtjitter COMMAND [OPTIONS]\n"
            "       rtjitter COMMAND --help\n\n", RTJ_VERSION);
    int width = wrap_width(f);
    for (size_t i = 0; cli_commands[i]; i++) {
        char first[32];
        snprintf(first, sizeof(first), "  %-10s ", cli_commands[i]->name);
        wrap_text(f, first, 13, width, cli_commands[i]->summary);
    }
    fprintf(f, "\n  -h, --help     this list\n  -V, --version  the version\n\n");
    wrap_text(f, "exit status: ", 13, width, "0 ok, 1 a threshold was exceeded, 2 bad usage, 3 the run could not complete");
}

int main(int argc, char **argv)
{
    /* glibc raises its mmap threshold to the size of each large block freed (up to 32 MiB): the big blocks that
     * come and go (a second's values, a segment's histograms) would then be carved from the heap, their freed pages
     * kept, and calloc would write every byte of a segment. A fixed threshold keeps each of them a mapping of its
     * own: given back when freed, its untouched pages never made private (issue 32, Cost: memory). */
    mallopt(M_MMAP_THRESHOLD, 128 * 1024);
    /* One arena for every thread: each thread that allocates (the collector, the culprit sampler, the loads' and the
     * report's) otherwise gets an arena of its own, each keeping its free pages apart (16 frames / 192 kHz, four
     * loads: 4,740 KiB private at the end with one arena a thread, 4,244 with one for all). The real-time threads
     * never allocate, so they never wait on its lock. */
    mallopt(M_ARENA_MAX, 1);
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
        printf("rtjitter %s\n", RTJ_VERSION);
        return 0;
    }
    /* Not in --help: what the Makefile builds the man page and the bash completion from. */
    if (!strcmp(argv[1], "--man"))
        return manpage_write(stdout, cli_commands) < 0 ? 3 : 0;
    if (!strcmp(argv[1], "--man-report"))
        return manpage_report_write(stdout) < 0 ? 3 : 0;
    if (!strcmp(argv[1], "--bash-completion"))
        return completion_write(stdout, cli_commands) < 0 ? 3 : 0;
    char cmdline[4096];
    size_t o = 0;
    cmdline[0] = '\0';
    for (int i = 0; i < argc && o < sizeof(cmdline) - 1; i++)
        o += (size_t)snprintf(cmdline + o, sizeof(cmdline) - o, "%s%s", i ? " " : "", argv[i]);
    for (size_t i = 0; cli_commands[i]; i++)
        if (!strcmp(argv[1], cli_commands[i]->name)) {
            int rc = cli_commands[i]->fn(argc - 2, argv + 2, cmdline);
            if (run_must_exit_fast()) {
                fflush(NULL);
                _exit(rc);
            }
            return rc;
        }
    const char *best = NULL;
    size_t bestd = 3;
    for (size_t i = 0; cli_commands[i]; i++)
        if (opts_distance(argv[1], cli_commands[i]->name) < bestd) {
            bestd = opts_distance(argv[1], cli_commands[i]->name);
            best = cli_commands[i]->name;
        }
    if (best)
        fprintf(stderr, "rtjitter: unknown command '%s' (did you mean %s?)\n", argv[1], best);
    else
        fprintf(stderr, "rtjitter: unknown command '%s' (see rtjitter --help)\n", argv[1]);
    return 2;
}
