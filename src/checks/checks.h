/* src/checks: the studio set-up checklist, one const table of checks that judge the system alone, never a
 * measured run. Each check reads the system identity (src/sysinfo), gives OK, WARN, FAIL or SKIP with a one-line
 * why that names the value it read, and for WARN or FAIL the exact fix (a command or the file to edit) and the
 * plain words the verdict gives a musician. The verdict (src/verdict) runs the table after a poor run and takes
 * its system advice from it; `rtjitter check` will run it on its own (a later issue).
 *
 * checks.c holds the table and the runner; kernel.c, cpu.c and irq.c the checks of each group, one const
 * struct check each (checks_internal.h). A new check is one function with its struct, and one table entry;
 * tests/unit/test_checks.c loops over the table, so it is tested without anyone remembering.
 *
 * May include libc, jansson and sysinfo/ only: never report/, run/, render/ or verdict/, which build on it.
 * Main thread only; nothing here is real-time safe. */
#ifndef RTJ_CHECKS_H
#define RTJ_CHECKS_H
#include <jansson.h>
#include <stddef.h>

/* OK < WARN < FAIL in severity; SKIP means the check could not judge (what it reads is unknown). */
enum check_status { CHECK_SKIP, CHECK_OK, CHECK_WARN, CHECK_FAIL };

/* When a finding can cost a run its audio: the verdict passes a finding on only after such a run, since a
 * run that kept time needs no tuning. */
enum check_matters {
    CHECK_MATTERS_POOR_TIMING,    /* any run that failed or left little margin before the deadline */
    CHECK_MATTERS_FAILURE,        /* a run over the profile's FAIL thresholds (xruns, missed deadlines) */
    CHECK_MATTERS_HEAVY_CALLBACK, /* a failed run whose callback was heavy (--dsp, or work not done in time) */
};

struct check_result;

struct check {
    const char *id;             /* stable: the verdict's advice_ids use it */
    const char *title;          /* what is checked, in a few words */
    const char *reads;          /* the identity key it judges, and the system file behind it */
    enum check_status level;    /* the worst status it can give */
    enum check_matters matters;
    /* Judges the identity sys (an object; any key in it may be missing or null, and then the status is SKIP
     * with the reason). Fills r->status and r->why; for WARN and FAIL also r->fix and r->advice, and r->hint
     * when the check has a few words for the verdict's "Try ...". Cannot fail: it only reads sys. */
    void (*eval)(const json_t *sys, struct check_result *r);
};

struct check_result {
    const struct check *check;
    enum check_status status;
    char why[320];              /* one line, with the value read */
    char fix[320];              /* the exact fix; empty for OK and SKIP */
    char advice[600];           /* for the verdict: why it matters and what to do; empty for OK and SKIP */
    char hint[96];              /* for the verdict's "Try ..."; may be empty */
};

/* The table, in the order worth trying: the cheap boot options first. */
size_t checks_count(void);
const struct check *checks_get(size_t i);

/* Runs one check on the identity sys (NULL is judged as an empty identity: every check SKIPs). */
void check_run(const struct check *c, const json_t *sys, struct check_result *r);
/* Runs the table, in order, into out[0 .. min(max, checks_count()) - 1] and returns that count. system is
 * the identity to judge; when it is NULL the identity is collected from the tree under root ("" for this
 * machine), and when both are NULL every check SKIPs. Returns -ENOMEM when collecting fails. */
int checks_run(const json_t *system, const char *root, struct check_result *out, size_t max);

/* "ok", "warn", "fail", "skip". */
const char *check_status_name(enum check_status s);
/* The results as a JSON array [{id, title, reads, level, status, why, fix}], fix null for OK and SKIP; NULL
 * when out of memory. */
json_t *checks_json(const struct check_result *r, size_t n);

#endif
