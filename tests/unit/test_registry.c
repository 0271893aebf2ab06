/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Every entry of every registry held to the contract its header states, so that a new entry is tested the day it
 * is added, without anyone remembering to:
 *   backends     rtj_backends[]   rtaudio/backend.h    (and each one's params table: cli/options.h)
 *   loads        load_registry[]  loads/load.h         (parameters, bounds, the --loads parser, report())
 *   checks       checks_get()     src/checks/checks.h
 *   renderers    renderers[]      src/render/render.h  (each form rendered into memory, reachable by --format)
 *   subcommands  cli_commands[]   src/cli/command.h    (and every option table: cli/options.h)
 * Where an entry can be called cheaply, with no server and no hardware, it is: a backend's unavailable() and its
 * stop() on the zeroed state of an open that failed first thing, a load's parameters through the --loads parser
 * (good values kept, bad ones refused with one line naming the load) and its report() on made-up counters, every
 * check on an empty identity and on every fixture tree (tests/fixtures), every form of every renderer on a small
 * validated document, every command's --help and an unknown option.
 *
 * A broken contract is printed as one line "registry: <registry> '<entry>': <what is wrong>" (all of them, not
 * only the first), then the test fails naming how many. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "fixture_report.h"
#include "backend.h"
#include "checks/checks.h"
#include "cli/backend_opts.h"
#include "cli/command.h"
#include "load.h"
#include "loadspec.h"
#include "render/render.h"
#include "compare/compare.h"
#include "report/report_read.h"
#include "report/sweep_read.h"
#include "run/run.h"
#include "util/wrap.h"

/* ---- reporting ---------------------------------------------------------------------------------------------- */

static int nbad;

static void bad(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void bad(const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    print_error("registry: %s\n", msg);
    nbad++;
}

/* Ends a test: fails it when any contract was broken (each one printed above). */
static void verdict(const char *what, size_t entries)
{
    int n = nbad;
    nbad = 0;
    print_message("registry: %zu %s checked\n", entries, what);
    if (n)
        fail_msg("%d broken contract%s among the %s (printed above)", n, n == 1 ? "" : "s", what);
}

/* ---- the shapes every registry shares ------------------------------------------------------------------------ */

/* What is wrong with s as a line of prose (a summary, a help line, a title): NULL when nothing. One line: no
 * newline or other control character (the command marks of util/wrap.h only where marked is set), no space at its
 * ends. */
static const char *line_fault(const char *s, int marked)
{
    if (!s)
        return "missing (NULL)";
    if (!*s)
        return "empty";
    for (const char *p = s; *p; p++) {
        unsigned char c = (unsigned char)*p;
        if (marked && (c == WRAP_CMD_ON[0] || c == WRAP_CMD_OFF[0]))
            continue;
        if (c < 0x20 || c == 0x7f)
            return c == '\n' ? "not one line (a newline)" : "not one line (a control character)";
    }
    if (s[0] == ' ' || s[strlen(s) - 1] == ' ')
        return "a space at an end";
    return NULL;
}

/* What is wrong with s as a name typed on the command line (a backend, a load, a format, a command, an option, a
 * check's id): a lowercase letter, then lowercase letters, digits and the characters in extra. */
static const char *name_fault(const char *s, const char *extra)
{
    if (!s)
        return "no name (NULL)";
    if (!*s)
        return "an empty name";
    if (s[0] < 'a' || s[0] > 'z')
        return "does not start with a lowercase letter";
    for (const char *p = s; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || (*p && strchr(extra, *p))))
            return *extra ? "holds a character other than a-z, 0-9 and the allowed punctuation"
                          : "holds a character other than a-z and 0-9";
    return NULL;
}

#define LINE(reg, entry, field, s, marked) \
    do { \
        const char *why_ = line_fault((s), (marked)); \
        if (why_) \
            bad("%s '%s': %s is %s", (reg), (entry), (field), why_); \
    } while (0)

/* fn's output on stdout (a file descriptor 1 redirected to a temporary file) and its status; stderr likewise when
 * err is given. The text is malloc'd. */
struct captured {
    int rc;
    char *out, *err;
};

static char *slurp_fd(int fd)
{
    off_t len = lseek(fd, 0, SEEK_END);
    char *buf = calloc(1, (size_t)(len > 0 ? len : 0) + 1);
    assert_non_null(buf);
    if (len > 0)
        assert_int_equal(pread(fd, buf, (size_t)len, 0), len);
    return buf;
}

static struct captured run_command(const struct cli_command *c, int argc, char **argv)
{
    char line[256];
    snprintf(line, sizeof(line), "rtjitter %s %s", c->name, argc ? argv[0] : "");
    FILE *o = tmpfile(), *e = tmpfile();
    assert_true(o && e);
    fflush(stdout);
    fflush(stderr);
    int so = dup(1), se = dup(2);
    assert_true(so >= 0 && se >= 0);
    dup2(fileno(o), 1);
    dup2(fileno(e), 2);
    struct captured r;
    r.rc = c->fn(argc, argv, line);
    fflush(stdout);
    fflush(stderr);
    dup2(so, 1);
    dup2(se, 2);
    close(so);
    close(se);
    r.out = slurp_fd(fileno(o));
    r.err = slurp_fd(fileno(e));
    fclose(o);
    fclose(e);
    return r;
}

/* A memory stream for a renderer or a help text. */
struct membuf {
    char *buf;
    size_t len;
    FILE *f;
};

static void mem_open(struct membuf *m)
{
    m->buf = NULL;
    m->len = 0;
    m->f = open_memstream(&m->buf, &m->len);
    assert_non_null(m->f);
}

static char *mem_close(struct membuf *m)
{
    fclose(m->f);
    return m->buf;
}

/* Silences stderr for a call that is meant to complain (a refused option value). */
static int quiet_begin(void)
{
    fflush(stderr);
    int saved = dup(2), null = open("/dev/null", O_WRONLY);
    assert_true(saved >= 0 && null >= 0);
    dup2(null, 2);
    close(null);
    return saved;
}

static void quiet_end(int saved)
{
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
}

/* ---- option tables (cli/options.h): a command's own, and each backend's params ------------------------------- */

static size_t opt_size(enum opt_type t)
{
    switch (t) {
    case OPT_FLAG:
    case OPT_INT: return sizeof(int);
    case OPT_DOUBLE:
    case OPT_DURATION: return sizeof(double);
    case OPT_STR: return sizeof(const char *);
    }
    return 0;
}

/* The number after "(default " in a help line, when it says one: 1 and *v, else 0. */
static int help_default(const char *help, double *v)
{
    const char *p = strstr(help, "(default ");
    if (!p)
        return 0;
    char *end;
    *v = strtod(p + 9, &end);
    return end != p + 9;
}

/* One option table. struct_size > 0: its offsets are into a struct of that size (a backend's: struct
 * backend_config), parsed into for real; defaults: that struct's default values (run_plan_defaults), or NULL. */
static void check_opt_table(const char *where, const struct opt_def *defs, size_t struct_size, const void *defaults)
{
    if (!defs) {
        bad("%s: no option table (NULL; an empty table is { NULL })", where);
        return;
    }
    for (const struct opt_def *d = defs; d->name; d++) {
        char who[160];
        snprintf(who, sizeof(who), "%s --%s", where, d->name);
        const char *why = name_fault(d->name, "-");
        if (why)
            bad("%s: the long name %s", who, why);
        if ((unsigned)d->type > OPT_DURATION) {
            bad("%s: type %d is not an enum opt_type", who, (int)d->type);
            continue;
        }
        LINE("option", who, "the help", d->help, 0);
        if (!d->metavar)
            bad("%s: metavar is NULL (\"\" for a flag)", who);
        else if (d->type == OPT_FLAG && d->metavar[0])
            bad("%s: a flag with a metavar ('%s'): --help would not show it", who, d->metavar);
        else if (d->type != OPT_FLAG && (!d->metavar[0] || strchr(d->metavar, ' ')))
            bad("%s: a value option needs a metavar of one word, not '%s'", who, d->metavar);
        if (d->type == OPT_INT || d->type == OPT_DOUBLE || d->type == OPT_DURATION) {
            if (!isfinite(d->min) || !isfinite(d->max) || !(d->min < d->max))
                bad("%s: bounds %g to %g are not min < max (the parser refuses every value outside them)", who,
                    d->min, d->max);
            if (d->type == OPT_INT && (d->min != floor(d->min) || d->max != floor(d->max) || d->min < INT_MIN ||
                                       d->max > INT_MAX))
                bad("%s: whole-number bounds %g to %g are not whole numbers that fit an int", who, d->min, d->max);
        } else if (d->min != 0 || d->max != 0) {
            bad("%s: bounds %g to %g on an option that has none (only numbers and durations are bounded)", who,
                d->min, d->max);
        }
        if (d->choices) {
            if (d->type != OPT_STR)
                bad("%s: choices on an option that is not a string", who);
            for (const char *const *c = d->choices; *c; c++) {
                if ((why = name_fault(*c, "-_")))
                    bad("%s: the choice '%s' %s", who, *c, why);
                for (const char *const *b = d->choices; b < c; b++)
                    if (!strcmp(*b, *c))
                        bad("%s: the choice '%s' twice", who, *c);
            }
        }
        if (d->short_name) {
            char s = d->short_name;
            if (!((s >= 'a' && s <= 'z') || (s >= 'A' && s <= 'Z') || (s >= '0' && s <= '9')))
                bad("%s: the short option '%c' is not a letter or digit", who, s);
            if (s == 'h' || s == 'V')
                bad("%s: -%c is -h (help) or -V (the version)", who, s);
        }
        for (const struct opt_def *e = defs; e < d; e++) {
            if (!strcmp(e->name, d->name))
                bad("%s: listed twice in one table", who);
            if (d->short_name && e->short_name == d->short_name)
                bad("%s: -%c is --%s too", who, d->short_name, e->name);
        }
        if (!struct_size)
            continue;
        size_t size = opt_size(d->type);
        if (d->offset % size != 0 || d->offset + size > struct_size) {
            bad("%s: offset %zu does not hold a %zu-byte field inside the %zu-byte struct", who, d->offset, size,
                struct_size);
            continue;
        }
        /* Parsed for real, at its upper bound (a flag: given; a string: any value): the value lands at its offset,
         * as its type, and nothing else in the struct changes. */
        unsigned char *before = calloc(1, struct_size), *after = calloc(1, struct_size);
        assert_true(before && after);
        char arg[200], val[64];
        if (d->type == OPT_FLAG)
            snprintf(arg, sizeof(arg), "--%s", d->name);
        else if (d->type == OPT_STR)
            snprintf(arg, sizeof(arg), "--%s=%s", d->name, d->choices && d->choices[0] ? d->choices[0] : "rtjt-reg");
        else {
            snprintf(val, sizeof(val), "%.17g", d->max);
            snprintf(arg, sizeof(arg), "--%s=%s", d->name, val);
        }
        char *argv[] = { arg };
        int np = 0;
        int saved = quiet_begin();
        int rc = opts_parse("registry", defs, after, 1, argv, NULL, 0, &np);
        quiet_end(saved);
        if (rc != 0)
            bad("%s: '%s' was refused", who, arg);
        else {
            const unsigned char *f = after + d->offset;
            int ok = d->type == OPT_FLAG     ? *(const int *)(const void *)f == 1
                     : d->type == OPT_INT    ? *(const int *)(const void *)f == (int)d->max
                     : d->type == OPT_STR    ? *(char *const *)(const void *)f != NULL
                                             : *(const double *)(const void *)f == d->max;
            if (!ok)
                bad("%s: '%s' did not land at offset %zu as its type", who, arg, d->offset);
            memcpy(before + d->offset, after + d->offset, size);
            if (memcmp(before, after, struct_size))
                bad("%s: '%s' changed bytes outside its own field", who, arg);
        }
        free(before);
        free(after);
        /* The default it starts from is within its bounds, or 0 (not given: the help says what applies); the
         * number a help line gives as the default is that one. */
        if (defaults && (d->type == OPT_INT || d->type == OPT_DOUBLE || d->type == OPT_DURATION)) {
            const void *f = (const unsigned char *)defaults + d->offset;
            double v = d->type == OPT_INT ? *(const int *)f : *(const double *)f, said;
            if (v != 0 && (v < d->min || v > d->max))
                bad("%s: the default %g is outside its bounds %g to %g", who, v, d->min, d->max);
            if (help_default(d->help, &said) && said != v)
                bad("%s: the help says default %g, the default is %g", who, said, v);
        }
    }
}

/* ---- backends (rtaudio/backend.h) ----------------------------------------------------------------------------- */

/* An option two backends share is one option (backend_opts_table lists it once, with the first definition): the
 * same type, field, bounds, choices and letter in each. Options of different names never share bytes of struct
 * backend_config, nor a letter. */
static void backend_opts_shared(void)
{
    for (size_t a = 0; rtj_backends[a]; a++)
        for (const struct opt_def *d = rtj_backends[a]->params; d && d->name; d++)
            for (size_t b = 0; b <= a; b++)
                for (const struct opt_def *e = rtj_backends[b]->params; e && e->name && e != d; e++) {
                    const char *da = rtj_backends[a]->name, *eb = rtj_backends[b]->name;
                    if (!strcmp(d->name, e->name)) {
                        if (d->type != e->type || d->offset != e->offset || d->min != e->min || d->max != e->max ||
                            d->short_name != e->short_name || d->choices != e->choices)
                            bad("backend '%s' option --%s: differs from backend '%s''s (type, field, bounds, "
                                "choices or letter), yet the commands merge the two into one", da, d->name, eb);
                    } else if (d->offset < e->offset + opt_size(e->type) &&
                               e->offset < d->offset + opt_size(d->type)) {
                        bad("backend '%s' option --%s: shares bytes of struct backend_config with backend '%s''s "
                            "--%s", da, d->name, eb, e->name);
                    } else if (d->short_name && d->short_name == e->short_name) {
                        bad("backend '%s' option --%s: -%c is backend '%s''s --%s too", da, d->name, d->short_name,
                            eb, e->name);
                    }
                }
}

static void test_backends(void **state)
{
    (void)state;
    struct run_plan plan;
    run_plan_defaults(&plan);
    size_t n = 0;
    for (; rtj_backends[n]; n++) {
        const struct backend_ops *b = rtj_backends[n];
        const char *name = b->name ? b->name : "(NULL)";
        const char *why = name_fault(b->name, "-");
        if (why)
            bad("backend '%s': the name %s", name, why);
        else if (strlen(b->name) > 8) /* `--backend list` gives the name 8 columns */
            bad("backend '%s': a name longer than 8 characters (--backend list's column)", name);
        LINE("backend", name, "the summary", b->summary, 0);
        for (size_t j = 0; j < n; j++)
            if (b->name && rtj_backends[j]->name && !strcmp(b->name, rtj_backends[j]->name))
                bad("backend '%s': two backends of that name", name);
        if (b->name && backend_find(b->name) != b)
            bad("backend '%s': backend_find() does not return it", name);
        /* Required ops; realtime_elsewhere alone is documented as optional. */
        struct { const char *op; int set; } ops[] = {
            { "unavailable", b->unavailable != NULL }, { "open", b->open != NULL }, { "start", b->start != NULL },
            { "status", b->status != NULL }, { "describe", b->describe != NULL }, { "stop", b->stop != NULL },
        };
        for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
            if (!ops[i].set)
                bad("backend '%s': no %s op (only realtime_elsewhere is optional)", name, ops[i].op);
        if (b->dma_latency_default != 0 && b->dma_latency_default != 1)
            bad("backend '%s': dma_latency_default is %d, not 0 or 1", name, b->dma_latency_default);
        char where[64];
        snprintf(where, sizeof(where), "backend '%s' option", name);
        check_opt_table(where, b->params, sizeof(struct backend_config), &plan.be);
        if (b->unavailable) { /* main thread, before open: 0, or -errno and one line */
            char buf[256];
            memset(buf, 0, sizeof(buf));
            int rc = b->unavailable(buf, sizeof(buf));
            if (rc > 0)
                bad("backend '%s': unavailable() returned %d, not 0 or -errno", name, rc);
            if (rc < 0)
                LINE("backend", name, "unavailable()'s why", buf, 0);
        }
        if (b->realtime_elsewhere) {
            const char *rt = b->realtime_elsewhere();
            if (rt)
                LINE("backend", name, "realtime_elsewhere()", rt, 0);
        }
        /* stop(): safe after a failed open and when called twice. An open that failed first thing leaves the
         * zeroed state run allocated. */
        if (b->stop) {
            void *priv = calloc(1, b->private_size ? b->private_size : 1);
            assert_non_null(priv);
            int r1 = b->stop(priv), r2 = b->stop(priv);
            if (r1 != 0 || r2 != 0)
                bad("backend '%s': stop() before any open gave %d then %d, not 0", name, r1, r2);
            free(priv);
        }
    }
    if (n == 0)
        bad("backend table: empty");
    else if (plan.backend != rtj_backends[0])
        bad("backend table: the first entry is not run's default");
    if (backend_find("rtjt-reg-none"))
        bad("backend table: backend_find() finds a backend that does not exist");
    backend_opts_shared();
    /* `--backend list`: every backend on a line of its own, within 80 columns (util/wrap.h's rule for text). */
    setenv("COLUMNS", "80", 1);
    struct membuf m;
    mem_open(&m);
    backend_opts_list(m.f);
    char *list = mem_close(&m);
    for (size_t i = 0; i < n; i++) {
        char head[32];
        snprintf(head, sizeof(head), "%-8s %s", rtj_backends[i]->name, "");
        if (!strstr(list, head))
            bad("backend '%s': not in --backend list", rtj_backends[i]->name);
    }
    for (char *l = list, *nl; *l; l = nl + 1) {
        nl = strchr(l, '\n');
        if (!nl)
            break;
        *nl = '\0';
        if (wrap_cols(l) > 80)
            bad("--backend list: a line of %d columns, wider than 80: '%s'", wrap_cols(l), l);
    }
    free(list);
    verdict("backends", n);
}

/* ---- loads (loads/load.h) -------------------------------------------------------------------------------------- */

/* Parses text; 0 with the spec, or the error (one line, naming the load) in err. */
static int parse_loads(const char *text, struct load_spec *s, char *err, size_t len)
{
    err[0] = '\0';
    return load_spec_parse(text, s, err, len);
}

static void refused(const struct load_info *li, const char *text, const char *what)
{
    struct load_spec s;
    char err[512];
    int rc = parse_loads(text, &s, err, sizeof(err));
    if (rc == 0)
        bad("load '%s': --loads '%s' (%s) was taken", li->name, text, what);
    else if (rc != -EINVAL || line_fault(err, 0) || !strstr(err, li->name))
        bad("load '%s': --loads '%s' (%s) was refused without one line naming the load: %d '%s'", li->name, text,
            what, rc, err);
    load_spec_free(&s);
}

static void taken(const struct load_info *li, int k, const char *text, double want)
{
    struct load_spec s;
    char err[512];
    if (parse_loads(text, &s, err, sizeof(err)) != 0)
        bad("load '%s': --loads '%s' was refused: %s", li->name, text, err);
    else if (s.nphases != 1 || s.phase[0].nuses != 1 || s.phase[0].use[0].info != li)
        bad("load '%s': --loads '%s' is not one phase of that load", li->name, text);
    else if (k >= 0 && s.phase[0].use[0].param[k] != want)
        bad("load '%s': --loads '%s' gave %s = %g, not %g", li->name, text, li->params[k].name,
            s.phase[0].use[0].param[k], want);
    load_spec_free(&s);
}

static void check_load_params(const struct load_info *li)
{
    int end = 0;
    for (int k = 0; k < LOAD_MAX_PARAMS; k++) {
        const struct load_param *p = &li->params[k];
        if (!p->name) {
            end = 1;
            continue;
        }
        if (end) {
            bad("load '%s': parameter %d ('%s') after an empty one (the parser stops at the first)", li->name, k,
                p->name);
            continue;
        }
        char who[96];
        snprintf(who, sizeof(who), "%s:%s", li->name, p->name);
        const char *why = name_fault(p->name, "_");
        if (why)
            bad("load '%s': parameter '%s' %s", li->name, p->name, why);
        for (int j = 0; j < k; j++)
            if (li->params[j].name && !strcmp(li->params[j].name, p->name))
                bad("load '%s': parameter '%s' twice", li->name, p->name);
        LINE("load parameter", who, "the help", p->help, 0);
        if (!p->unit || strchr(p->unit, '\n'))
            bad("load parameter '%s': the unit is NULL or not one line (\"\" for none)", who);
        if (p->type != LP_INT && p->type != LP_DOUBLE) {
            bad("load parameter '%s': type %d is not LP_INT or LP_DOUBLE", who, (int)p->type);
            continue;
        }
        /* Safety bounds: min <= default <= max, all finite, whole numbers for LP_INT. */
        if (!isfinite(p->min) || !isfinite(p->max) || !isfinite(p->def) || !(p->min <= p->def && p->def <= p->max)
            || !(p->min < p->max)) {
            bad("load parameter '%s': bounds not min <= default <= max (min < max): %g <= %g <= %g", who, p->min,
                p->def, p->max);
            continue;
        }
        if (p->type == LP_INT && (p->min != floor(p->min) || p->max != floor(p->max) || p->def != floor(p->def)))
            bad("load parameter '%s': a whole number with bounds or default %g, %g, %g", who, p->min, p->def, p->max);
        if (li->takes_arg)
            continue;
        /* Through the --loads parser: the default, both bounds taken and kept; below, above, not a number, a
         * fraction of a whole number, an empty value refused with one line naming the load. */
        char text[160];
        const double good[] = { p->def, p->min, p->max };
        for (size_t i = 0; i < 3; i++) {
            snprintf(text, sizeof(text), "%s:%s=%.17g", li->name, p->name, good[i]);
            taken(li, k, text, good[i]);
        }
        snprintf(text, sizeof(text), "%s:%s=%.17g", li->name, p->name, p->min - 1);
        refused(li, text, "below its minimum");
        snprintf(text, sizeof(text), "%s:%s=%.17g", li->name, p->name, p->max + 1);
        refused(li, text, "above its maximum");
        snprintf(text, sizeof(text), "%s:%s=lots", li->name, p->name);
        refused(li, text, "not a number");
        snprintf(text, sizeof(text), "%s:%s=", li->name, p->name);
        refused(li, text, "no value");
        if (p->type == LP_INT && p->min + 0.5 < p->max) {
            snprintf(text, sizeof(text), "%s:%s=%.17g", li->name, p->name, p->min + 0.5);
            refused(li, text, "a fraction of a whole-number parameter");
        }
    }
}

static void check_load_report(const struct load_info *li)
{
    struct load_shared shared;
    memset(&shared, 0, sizeof(shared));
    struct load_child c = { .info = li, .dirfd = -1, .shared = &shared };
    for (int k = 0; k < LOAD_MAX_PARAMS && li->params[k].name; k++)
        c.param[k] = li->params[k].def;
    if (li->unavailable) { /* NULL when it can run here, else one line */
        char buf[256] = "";
        const char *why = li->unavailable(&c, buf, sizeof(buf));
        if (why)
            LINE("load", li->name, "unavailable()'s why", why, 0);
    }
    if (!li->report)
        return;
    /* Made-up counter deltas over a one-second window: every metric named "<load>.<what>", at most
     * LOAD_MAX_METRICS, the primary one (info->metric, info->unit) first. */
    struct load_sample s = { .wall_s = 1, .cpu_s = 0.5, .child_cpu_s = 0.5, .life_s = 1, .exit_status = 0 };
    for (int i = 0; i < LOAD_NCOUNT; i++)
        s.count[i] = 1000;
    struct load_metric m[LOAD_MAX_METRICS + 8];
    memset(m, 0, sizeof(m));
    int n = li->report(&c, &s, m);
    if (n < 1 || n > LOAD_MAX_METRICS) {
        bad("load '%s': report() gave %d metrics, not 1 to LOAD_MAX_METRICS (%d)", li->name, n, LOAD_MAX_METRICS);
        return;
    }
    if (li->metric && strcmp(m[0].name, li->metric))
        bad("load '%s': report()'s first metric is '%s', not its primary metric '%s'", li->name, m[0].name, li->metric);
    if (li->unit && strcmp(m[0].unit, li->unit))
        bad("load '%s': report()'s first metric is in '%s', not its unit '%s'", li->name, m[0].unit, li->unit);
    size_t nl = strlen(li->name);
    for (int i = 0; i < n; i++)
        if (strncmp(m[i].name, li->name, nl) || m[i].name[nl] != '.' || !m[i].name[nl + 1] || !isfinite(m[i].value))
            bad("load '%s': report()'s metric %d '%s' = %g is not '%s.<what>' with a finite value", li->name, i,
                m[i].name, m[i].value, li->name);
}

static void test_loads(void **state)
{
    (void)state;
    size_t n = 0;
    char combo[1024] = "", tail[64] = "";
    size_t ncombo = 0;
    for (; load_registry[n]; n++) {
        const struct load_info *li = load_registry[n];
        const char *name = li->name ? li->name : "(NULL)";
        const char *why = name_fault(li->name, "");
        if (why) {
            bad("load '%s': the name %s (',', '+', ':' and '=' are --loads syntax)", name, why);
            continue;
        }
        if (!strcmp(li->name, "all"))
            bad("load 'all': the name is --loads all");
        for (size_t j = 0; j < n; j++)
            if (load_registry[j]->name && !strcmp(li->name, load_registry[j]->name))
                bad("load '%s': two loads of that name", name);
        if (load_find(li->name, strlen(li->name)) != li)
            bad("load '%s': load_find() does not return it", name);
        LINE("load", name, "the summary", li->summary, 0);
        if (li->bounds)
            LINE("load", name, "the bounds", li->bounds, 0);
        else if (li->needs_dir || li->needs_disk)
            bad("load '%s': it writes files (needs_dir or needs_disk) but states no safety bounds", name);
        if ((li->metric == NULL) != (li->unit == NULL))
            bad("load '%s': a metric without a unit or a unit without a metric", name);
        if (li->metric) {
            size_t nl = strlen(li->name);
            if (strncmp(li->metric, li->name, nl) || li->metric[nl] != '.' || !li->metric[nl + 1])
                bad("load '%s': its metric '%s' is not '%s.<what>'", name, li->metric, name);
            LINE("load", name, "the unit", li->unit, 0);
            if (!li->report)
                bad("load '%s': a metric but no report()", name);
        }
        if (!li->run) { /* no process: the baseline; nothing to measure or to give a directory to */
            if (li->report || li->metric || li->params[0].name || li->needs_dir || li->needs_disk || li->takes_arg)
                bad("load '%s': no run() (no process) yet a report, metric, parameter, directory or argument", name);
        } else if (!li->report) {
            bad("load '%s': run() but no report()", name);
        }
        if (li->takes_arg && li->params[0].name)
            bad("load '%s': takes an argument (%s:CMD) and parameters, which the parser never reads", name, name);
        check_load_params(li);
        /* Its example, as the help and the tests use it: one phase of this load. */
        if (line_fault(li->example, 0))
            bad("load '%s': the example is %s", name, line_fault(li->example, 0));
        else
            taken(li, -1, li->example, 0);
        char text[160];
        if (li->takes_arg)
            refused(li, li->name, "without its command");
        else {
            taken(li, -1, li->name, 0);
            snprintf(text, sizeof(text), "%s:rtjtregnosuch=1", li->name);
            refused(li, text, "an unknown parameter");
        }
        check_load_report(li);
        /* '+' joins loads: every load that runs a process, in one phase (an argument-taker last). */
        if (li->run && li->takes_arg && !tail[0])
            snprintf(tail, sizeof(tail), "%s:true", li->name);
        else if (li->run && !li->takes_arg) {
            size_t o = strlen(combo);
            snprintf(combo + o, sizeof(combo) - o, "%s%s", o ? "+" : "", li->name);
            ncombo++;
        }
    }
    if (n == 0 || strcmp(load_registry[0]->name ? load_registry[0]->name : "", "none"))
        bad("load table: the first load is not none (the baseline --loads all begins with)");
    if (n > LOAD_MAX_COMBO)
        bad("load table: %zu loads, more than LOAD_MAX_COMBO (%d): every load in one phase must be allowed", n,
            LOAD_MAX_COMBO);
    if (tail[0]) {
        size_t o = strlen(combo);
        snprintf(combo + o, sizeof(combo) - o, "%s%s", o ? "+" : "", tail);
        ncombo++;
    }
    struct load_spec s;
    char err[512];
    if (parse_loads(combo, &s, err, sizeof(err)) != 0)
        bad("load table: every load in one phase ('%s') was refused: %s", combo, err);
    else if (s.nphases != 1 || (size_t)s.phase[0].nuses != ncombo)
        bad("load table: '%s' is not one phase of %zu loads", combo, ncombo);
    load_spec_free(&s);
    verdict("loads", n);
}

/* ---- checks (src/checks/checks.h) ------------------------------------------------------------------------------ */

/* The fake system trees of tests/fixtures, whose judgements tests/unit/test_checks.c spells out. */
static const char *const fixtures[] = {
    "sys-generic", "sys-lowlatency", "sys-rt", "sys-dynamic-full", "sys-dynamic-debugfs", "sys-noconfig",
    "sys-highres-off", "sys-pending", "sys-bare",
};
#define NFIXTURES (sizeof(fixtures) / sizeof(fixtures[0]))
#define MAXCHECKS 128

/* What a result must be, whatever the identity: a status no worse than the level, a one-line why, and for WARN
 * and FAIL the fix (and the advice when the verdict uses the check); nothing of the kind for OK and SKIP. */
static void check_result_sound(const char *on, const struct check *c, const struct check_result *r)
{
    if ((unsigned)r->status > CHECK_FAIL) {
        bad("check '%s' on %s: status %d is not an enum check_status", c->id, on, (int)r->status);
        return;
    }
    if (r->status != CHECK_SKIP && r->status > c->level)
        bad("check '%s' on %s: %s, worse than its level %s", c->id, on, check_status_name(r->status),
            check_status_name(c->level));
    if (line_fault(r->why, 1) || !strcmp(r->why, "the check gave no answer"))
        bad("check '%s' on %s: the why is %s", c->id, on, line_fault(r->why, 1) ? line_fault(r->why, 1) : "no answer");
    int fault = r->status == CHECK_WARN || r->status == CHECK_FAIL;
    int verdict_uses = c->matters != CHECK_MATTERS_CHECKLIST;
    if (fault && line_fault(r->fix, 1))
        bad("check '%s' on %s: %s without a one-line fix (%s)", c->id, on, check_status_name(r->status),
            line_fault(r->fix, 1));
    if (fault && verdict_uses && !r->advice[0])
        bad("check '%s' on %s: %s without advice for the verdict", c->id, on, check_status_name(r->status));
    if (!fault && (r->fix[0] || r->advice[0] || r->hint[0]))
        bad("check '%s' on %s: a fix, advice or hint with %s", c->id, on, check_status_name(r->status));
    if (!verdict_uses && (r->advice[0] || r->hint[0]))
        bad("check '%s' on %s: advice or a hint from a checklist-only check", c->id, on);
}

/* This process as `rtjitter check` probes it, for musician (uid 1000): no real-time priority, 64 KiB of locked
 * memory, a SCHED_FIFO try refused, /dev/cpu_dma_latency not writable. */
static json_t *poor_login(void)
{
    return json_pack("{s:i, s:i, s:i, s:s, s:s, s:s, s:[s], s:b, s:b, s:{s:I, s:I}, s:{s:I, s:I}, "
                     "s:{s:i, s:b, s:s}, s:{s:b, s:s}}",
                     "uid", 1000, "euid", 1000, "gid", 1000, "user", "musician", "judged_user", "musician", "home",
                     "/home/musician", "groups", "musician", "cap_sys_nice", 0, "cap_ipc_lock", 0,
                     "rtprio", "soft", (json_int_t)0, "hard", (json_int_t)0, "memlock", "soft", (json_int_t)65536,
                     "hard", (json_int_t)65536, "sched_fifo", "priority", 80, "ok", 0, "error",
                     "Operation not permitted", "cpu_dma_latency", "writable", 0, "error", "Permission denied");
}

static void test_checks(void **state)
{
    (void)state;
    size_t n = checks_count();
    if (n > MAXCHECKS)
        fail_msg("more checks (%zu) than this test holds (%d): raise MAXCHECKS", n, MAXCHECKS);
    if (checks_get(n))
        bad("check table: checks_get(count) is not NULL");
    for (size_t i = 0; i < n; i++) {
        const struct check *c = checks_get(i);
        if (!c) {
            bad("check table: entry %zu is NULL", i);
            continue;
        }
        const char *id = c->id ? c->id : "(NULL)";
        const char *why = name_fault(c->id, "_");
        if (why)
            bad("check '%s': the id %s", id, why);
        for (size_t j = 0; j < i; j++)
            if (c->id && checks_get(j)->id && !strcmp(c->id, checks_get(j)->id))
                bad("check '%s': two checks of that id (the verdict's advice_ids name them)", id);
        LINE("check", id, "the title", c->title, 0);
        LINE("check", id, "reads", c->reads, 0);
        if ((unsigned)c->group >= CHECK_NGROUPS)
            bad("check '%s': group %d is not an enum check_group", id, (int)c->group);
        if (c->level != CHECK_OK && c->level != CHECK_WARN && c->level != CHECK_FAIL)
            bad("check '%s': level %d is not OK, WARN or FAIL", id, (int)c->level);
        if ((unsigned)c->matters > CHECK_MATTERS_CHECKLIST)
            bad("check '%s': matters %d is not an enum check_matters", id, (int)c->matters);
        if (!c->eval) {
            bad("check '%s': no eval", id);
            continue;
        }
        /* An empty identity: nothing to read, so SKIP with the reason. */
        struct check_result r;
        check_run(c, NULL, &r);
        check_result_sound("an empty identity", c, &r);
        if (r.status != CHECK_SKIP)
            bad("check '%s' on an empty identity: %s, not skip", id, check_status_name(r.status));
    }
    /* Every tree, as a report's identity (no user, no process) and as `rtjitter check` sees it for a user whose
     * login lacks the real-time rights (a process injected as test_checklist.c does): each result sound; and a
     * check that can give WARN or FAIL is counted when it shows its fix on one of them. */
    const char *top = getenv("RTJ_TOP");
    int shown[MAXCHECKS] = { 0 };
    for (size_t f = 0; f < 2 * NFIXTURES; f++) {
        char root[4096], on[160];
        snprintf(root, sizeof(root), "%s/tests/fixtures/%s", top ? top : ".", fixtures[f / 2]);
        if (access(root, R_OK) != 0)
            fail_msg("no fixture tree %s (run from the top of the tree, or set RTJ_TOP)", root);
        json_t *sys = NULL;
        if (f % 2) {
            const char *paths[] = { "/tmp", NULL };
            struct checks_env env = { .root = root, .user = "musician", .paths = paths };
            sys = checks_collect(&env);
            assert_non_null(sys);
            json_object_set_new(sys, "process", poor_login());
        }
        snprintf(on, sizeof(on), "%s%s", fixtures[f / 2], f % 2 ? " (checklist, a login without rights)" : "");
        struct check_result r[MAXCHECKS];
        int got = checks_run(sys, sys ? NULL : root, r, MAXCHECKS);
        json_decref(sys);
        if (got != (int)n) {
            bad("check table: checks_run on %s gave %d results for %zu checks", on, got, n);
            continue;
        }
        for (size_t i = 0; i < n; i++) {
            if (r[i].check != checks_get(i))
                bad("check table: result %zu on %s is not check %zu's", i, on, i);
            check_result_sound(on, checks_get(i), &r[i]);
            shown[i] |= r[i].status == CHECK_WARN || r[i].status == CHECK_FAIL;
        }
    }
    char unshown[600] = "";
    size_t can = 0, did = 0;
    for (size_t i = 0; i < n; i++) {
        if (checks_get(i)->level == CHECK_OK)
            continue;
        can++;
        did += shown[i] != 0;
        if (!shown[i]) {
            size_t o = strlen(unshown);
            snprintf(unshown + o, sizeof(unshown) - o, " %s", checks_get(i)->id);
        }
    }
    print_message("registry: %zu of the %zu checks that can give WARN or FAIL did so here, with a fix%s%s\n", did,
                  can, unshown[0] ? "; not on these trees (test_checklist.c's identities):" : "", unshown);
    verdict("checks", n);
}

/* ---- renderers (src/render/render.h) ------------------------------------------------------------------------- */

static const char *sweep_text =
    "{\"schema\":\"rtjitter.sweep/1\",\"tool\":{\"name\":\"rtjitter\",\"version\":\"0\"},\"complete\":true,"
    "\"incomplete_reason\":null,\"label\":\"x\",\"audio\":{\"backend\":\"timer\",\"buffer_change\":\"direct\"},"
    "\"profile\":{\"name\":\"studio\",\"warn_margin_pct\":10},\"rates\":[48000],\"periods\":[64,128],"
    "\"loads\":[\"none\"],\"cells\":["
    "{\"rate\":48000,\"period_frames\":64,\"load\":\"none\",\"state\":\"unsafe\",\"measured\":true,\"xrun_events\":3,"
    "\"margin_p999_pct\":-20,\"proof\":{\"text\":\"3 xrun events\"},\"report\":\"/r/a.json\"},"
    "{\"rate\":48000,\"period_frames\":128,\"load\":\"none\",\"state\":\"safe\",\"measured\":true,\"xrun_events\":0,"
    "\"margin_p999_pct\":50,\"proof\":{\"text\":\"0 xruns\"},\"report\":\"/r/b.json\"}],"
    "\"smallest_safe\":[{\"rate\":48000,\"per_load\":[{\"load\":\"none\",\"smallest_safe\":{\"frames\":128,"
    "\"ms\":2.67}}],\"overall\":{\"frames\":128,\"ms\":2.67}}]}";

enum form { FORM_REPORT, FORM_COMPARE, FORM_SWEEP };
static const char *const form_name[] = { "report", "compare", "sweep" };

struct docs {
    json_t *report, *cmp, *sweep, *pair[2];
};

static int render_once(const struct renderer *r, enum form k, const struct docs *d, const struct render_opts *o,
                       char **out)
{
    struct membuf m;
    mem_open(&m);
    int rc = k == FORM_REPORT    ? r->report(m.f, d->report, o)
             : k == FORM_COMPARE ? r->compare(m.f, d->cmp, d->pair, 2, o)
                                 : r->sweep(m.f, d->sweep, o);
    *out = mem_close(&m);
    return rc;
}

/* One form of r: 0 and some output; the same bytes twice (a form is rendered from the document alone); the
 * document left as it was; and at the narrowest width, in ASCII, still 0. */
static void check_form(const struct renderer *r, enum form k, const struct docs *d)
{
    const json_t *doc = k == FORM_REPORT ? d->report : k == FORM_COMPARE ? d->cmp : d->sweep;
    json_t *copy = json_deep_copy(doc);
    char *a, *b;
    int ra = render_once(r, k, d, NULL, &a), rb = render_once(r, k, d, NULL, &b);
    if (ra != 0 || rb != 0)
        bad("renderer '%s': its %s form returned %d", r->name, form_name[k], ra ? ra : rb);
    else if (!a[0])
        bad("renderer '%s': its %s form wrote nothing", r->name, form_name[k]);
    else if (strcmp(a, b))
        bad("renderer '%s': its %s form gave different bytes for the same document", r->name, form_name[k]);
    if (!json_equal(copy, doc))
        bad("renderer '%s': its %s form changed the document", r->name, form_name[k]);
    free(a);
    free(b);
    struct render_opts narrow = { .width = RENDER_MIN_WIDTH, .ascii = 1 };
    if (render_once(r, k, d, &narrow, &a) != 0)
        bad("renderer '%s': its %s form failed at %d columns in ASCII", r->name, form_name[k], RENDER_MIN_WIDTH);
    free(a);
    json_decref(copy);
}

/* The choices of option name in a command's own table, or NULL. */
static const char *const *choices_of(const struct cli_command *c, const char *name)
{
    struct opt_section s[CLI_MAX_SECTIONS];
    size_t n = cli_sections(c, s, CLI_MAX_SECTIONS);
    for (size_t i = 0; i < n; i++)
        for (const struct opt_def *d = s[i].defs; d->name; d++)
            if (!strcmp(d->name, name))
                return d->choices;
    return NULL;
}

static const struct cli_command *command_named(const char *name)
{
    for (size_t i = 0; cli_commands[i]; i++)
        if (!strcmp(cli_commands[i]->name, name))
            return cli_commands[i];
    return NULL;
}

static void test_renderers(void **state)
{
    (void)state;
    struct docs d;
    char err[256] = "";
    d.pair[0] = fx_report("6.1.0", "250", "full", 300, 0, 1);
    d.pair[1] = fx_report("6.8.0", "1000", "full", 300, 500, 2);
    d.report = d.pair[0];
    assert_int_equal(report_validate(d.report, err, sizeof(err)), 0);
    const char *names[2] = { "a.json", "b.json" };
    d.cmp = compare_build(d.pair, names, 2);
    assert_non_null(d.cmp);
    d.sweep = json_loads(sweep_text, 0, NULL);
    assert_non_null(d.sweep);
    assert_int_equal(sweepdoc_validate(d.sweep, err, sizeof(err)), 0);

    /* --format's choices, in both commands that take it, and the help text that lists them */
    const struct cli_command *report = command_named("report"), *compare = command_named("compare");
    assert_true(report && compare);
    const char *const *report_choices = choices_of(report, "format");
    const char *const *compare_choices = choices_of(compare, "format");
    struct membuf m;
    setenv("COLUMNS", "1000", 1); /* one line per option: a name is never cut by the wrapper */
    mem_open(&m);
    cli_help(m.f, report);
    char *help = mem_close(&m);
    setenv("COLUMNS", "80", 1);

    const char *const *all = renderer_names();
    size_t n = 0;
    for (; renderers[n]; n++) {
        const struct renderer *r = renderers[n];
        const char *why = name_fault(r->name, "-");
        if (why)
            bad("renderer '%s': the name %s", r->name, why);
        for (size_t j = 0; j < n; j++)
            if (!strcmp(r->name, renderers[j]->name))
                bad("renderer '%s': two renderers of that name", r->name);
        if (renderer_find(r->name) != r)
            bad("renderer '%s': renderer_find() does not return it", r->name);
        if (!all[n] || strcmp(all[n], r->name))
            bad("renderer '%s': not at its place in renderer_names()", r->name);
        if ((why = name_fault(r->ext, "")))
            bad("renderer '%s': the file extension %s (no dot)", r->name, why);
        LINE("renderer", r->name, "the summary", r->summary, 0);
        if (!r->report && !r->compare && !r->sweep)
            bad("renderer '%s': no form at all (report, compare or sweep)", r->name);
        int in_report = 0, in_compare = 0;
        for (const char *const *c = report_choices; c && *c; c++)
            in_report |= !strcmp(*c, r->name);
        for (const char *const *c = compare_choices; c && *c; c++)
            in_compare |= !strcmp(*c, r->name);
        if (!in_report || !in_compare)
            bad("renderer '%s': not a choice of --format in rtjitter %s", r->name, in_report ? "compare" : "report");
        char word[64];
        snprintf(word, sizeof(word), ", %s", r->name);
        char first[64];
        snprintf(first, sizeof(first), "(%s", r->name);
        if (!strstr(help, n ? word : first))
            bad("renderer '%s': not in the --format list rtjitter report --help prints", r->name);
        if (r->report)
            check_form(r, FORM_REPORT, &d);
        if (r->compare)
            check_form(r, FORM_COMPARE, &d);
        if (r->sweep)
            check_form(r, FORM_SWEEP, &d);
    }
    if (all[n])
        bad("renderer table: renderer_names() lists '%s' beyond the table", all[n]);
    if (!renderer_find("text") || !renderer_find("text")->report || !renderer_find("text")->compare ||
        !renderer_find("text")->sweep)
        bad("renderer table: no 'text' renderer of every document (the default of report and compare)");
    free(help);
    json_decref(d.pair[0]);
    json_decref(d.pair[1]);
    json_decref(d.cmp);
    json_decref(d.sweep);
    verdict("renderers", n);
}

/* ---- subcommands (src/cli/command.h) ------------------------------------------------------------------------- */

static void test_commands(void **state)
{
    (void)state;
    size_t n = 0;
    for (; cli_commands[n]; n++) {
        const struct cli_command *c = cli_commands[n];
        const char *name = c->name ? c->name : "(NULL)";
        const char *why = name_fault(c->name, "-");
        if (why) {
            bad("command '%s': the name %s", name, why);
            continue;
        }
        if (strlen(c->name) > 10) /* rtjitter --help gives the name 10 columns */
            bad("command '%s': a name longer than 10 characters (rtjitter --help's column)", name);
        for (size_t j = 0; j < n; j++)
            if (!strcmp(c->name, cli_commands[j]->name))
                bad("command '%s': two commands of that name", name);
        LINE("command", name, "the summary", c->summary, 0);
        if (c->summary && (strlen(c->summary) >= 255 || c->summary[strlen(c->summary) - 1] == '.'))
            bad("command '%s': the summary ends with '.' or is 255 bytes or more (the man page makes it a sentence)",
                name);
        if (!c->synopsis || strchr(c->synopsis, '\n'))
            bad("command '%s': the synopsis is NULL or not one line", name);
        if (c->description && !c->description[0])
            bad("command '%s': an empty description (NULL for none)", name);
        if (c->positional)
            LINE("command", name, "positional", c->positional, 0);
        if (!c->fn || (!c->sections && !c->defs)) {
            bad("command '%s': no %s", name, c->fn ? "options (defs or sections())" : "handler (fn)");
            continue;
        }
        struct opt_section s[CLI_MAX_SECTIONS + 1];
        size_t ns = cli_sections(c, s, CLI_MAX_SECTIONS);
        if (ns < 1 || ns > CLI_MAX_SECTIONS || s[0].title) {
            bad("command '%s': sections() gave %zu sections, its own (untitled) not first", name, ns);
            continue;
        }
        /* every option well formed; no long name twice in its own table; a backend's option never one the
         * command has itself (backend_opts_table would drop it); each letter one option */
        int backends = 0;
        for (size_t i = 0; i < ns; i++) {
            char where[200];
            snprintf(where, sizeof(where), "command '%s'%s%s option", name, s[i].title ? " section " : "",
                     s[i].title ? s[i].title : "");
            if (s[i].title) {
                LINE("command", name, "a section title", s[i].title, 0);
                backends += !strncmp(s[i].title, "--backend ", 10);
            }
            check_opt_table(where, s[i].defs, 0, NULL);
            for (const struct opt_def *d = s[i].defs; d && d->name; d++)
                for (size_t j = 0; j <= i; j++)
                    for (const struct opt_def *e = s[j].defs; e && e->name && e != d; e++) {
                        if (i > 0 && j == 0 && !strcmp(d->name, e->name))
                            bad("command '%s': --%s of %s is one of the command's own options", name, d->name,
                                s[i].title);
                        if (d->short_name && d->short_name == e->short_name && strcmp(d->name, e->name))
                            bad("command '%s': -%c is both --%s and --%s", name, d->short_name, e->name, d->name);
                    }
        }
        size_t nbackends = 0;
        while (rtj_backends[nbackends])
            nbackends++;
        if (backends && (size_t)backends != nbackends)
            bad("command '%s': --help has the options of %d backends of %zu (CLI_MAX_SECTIONS is %d)", name,
                backends, nbackends, CLI_MAX_SECTIONS);
        /* --help: status 0, the usage line, and every option of every section */
        char *help_argv[] = { "--help" };
        struct captured h = run_command(c, 1, help_argv);
        char usage[64];
        snprintf(usage, sizeof(usage), "usage: rtjitter %s ", name);
        if (h.rc != 0 || strncmp(h.out, usage, strlen(usage)))
            bad("command '%s': --help gave status %d and did not begin with '%s'", name, h.rc, usage);
        for (size_t i = 0; i < ns; i++)
            for (const struct opt_def *d = s[i].defs; d && d->name; d++) {
                char opt[80];
                snprintf(opt, sizeof(opt), "--%s", d->name);
                if (!strstr(h.out, opt))
                    bad("command '%s': --help does not show %s", name, opt);
            }
        free(h.out);
        free(h.err);
        /* an unknown option: status 2 and one line on stderr, "rtjitter NAME: ..." */
        char *bad_argv[] = { "--rtjt-reg-no-such-option" };
        struct captured u = run_command(c, 1, bad_argv);
        char lead[64];
        snprintf(lead, sizeof(lead), "rtjitter %s: ", name);
        char *nl = strchr(u.err, '\n');
        if (u.rc != 2 || strncmp(u.err, lead, strlen(lead)) || !nl || nl[1])
            bad("command '%s': an unknown option gave status %d and not one line '%s...' on stderr: '%s'", name,
                u.rc, lead, u.err);
        free(u.out);
        free(u.err);
    }
    if (n == 0)
        bad("command table: empty");
    verdict("subcommands", n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_backends),
        cmocka_unit_test(test_loads),
        cmocka_unit_test(test_checks),
        cmocka_unit_test(test_renderers),
        cmocka_unit_test(test_commands),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
