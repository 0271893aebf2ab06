/* rtjitter: can this kernel, on this machine, run audio at a small buffer size without dropouts? */
#include "cli/cmd_report.h"
#include "cli/cmd_compare.h"
#include "cli/cmd_import.h"
#include "cli/cmd_loads.h"
#include "cli/cmd_run.h"
#include "run/run.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct command {
    const char *name;
    int (*fn)(int argc, char **argv, const char *command_line);
    const char *help;
};

static const struct command commands[] = {
    { "run", cmd_run, "measure audio cycles on JACK, phase by phase (rtjitter run --help)" },
    { "loads", cmd_loads, "list the loads, what each does, its parameters and safety bounds" },
    { "report", cmd_report, "render a stored report again, as text or HTML (rtjitter report FILE --html OUT)" },
    { "compare", cmd_compare, "reports side by side; with no files, the latest of each kernel in the store" },
    { "import", cmd_import, "make a report of cyclictest --json output (rtjitter import cyclictest FILE.json)" },
};

static void usage(FILE *f)
{
    fprintf(f, "rtjitter %s: real-time audio jitter tester (JACK)\n\nusage: rtjitter COMMAND [OPTIONS]\n\n",
            RTJ_VERSION);
    for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
        fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].help);
    fprintf(f, "\nexit status: 0 ok, 1 a threshold was exceeded, 2 bad usage, 3 the run could not complete\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("rtjitter %s\n", RTJ_VERSION);
        return 0;
    }
    char cmdline[4096];
    size_t o = 0;
    cmdline[0] = '\0';
    for (int i = 0; i < argc && o < sizeof(cmdline) - 1; i++)
        o += (size_t)snprintf(cmdline + o, sizeof(cmdline) - o, "%s%s", i ? " " : "", argv[i]);
    for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
        if (!strcmp(argv[1], commands[i].name)) {
            int rc = commands[i].fn(argc - 2, argv + 2, cmdline);
            if (run_must_exit_fast()) {
                fflush(NULL);
                _exit(rc);
            }
            return rc;
        }
    fprintf(stderr, "rtjitter: unknown command '%s' (see rtjitter --help)\n", argv[1]);
    return 2;
}
