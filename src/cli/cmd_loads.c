/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `rtjitter loads`: lists the load registry, generated from it (nothing here names a load). */
#include "cli/cmd_loads.h"
#include "load.h"
#include "cli/command.h"
#include "util/wrap.h"
#include <jansson.h>
#include <stdio.h>
#include <string.h>

struct loads_opts {
    int json;
};

#define O(f) offsetof(struct loads_opts, f)
static const struct opt_def loads_defs[] = {
    { "json", OPT_FLAG, O(json), 0, 0, "", "print the registry as JSON (for scripts and tests)", NULL, 0 },
    { NULL, 0, 0, 0, 0, NULL, NULL, NULL, 0 },
};
#undef O

/* A line of the list wrapped to the terminal (util/wrap.h), continuing under its text, after the label. */
static void print_wrapped(const char *indent, const char *label, const char *text)
{
    char first[128];
    snprintf(first, sizeof(first), "%s%s", indent, label);
    wrap_text(stdout, first, wrap_cols(first), wrap_width(stdout), text);
}

static json_t *registry_json(void)
{
    json_t *a = json_array();
    for (const struct load_info *const *l = load_registry; *l; l++) {
        const struct load_info *li = *l;
        json_t *params = json_array();
        for (int i = 0; i < LOAD_MAX_PARAMS && li->params[i].name; i++) {
            const struct load_param *p = &li->params[i];
            json_array_append_new(params, json_pack("{s:s, s:s, s:f, s:f, s:f, s:s, s:s}", "name", p->name,
                                                    "type", p->type == LP_INT ? "int" : "number", "default",
                                                    p->def, "min", p->min, "max", p->max, "unit", p->unit,
                                                    "help", p->help));
        }
        json_t *o = json_pack("{s:s, s:s, s:o, s:o, s:o, s:s, s:b, s:b, s:o}", "name", li->name, "summary",
                              li->summary, "metric", li->metric ? json_string(li->metric) : json_null(), "unit",
                              li->unit ? json_string(li->unit) : json_null(), "bounds",
                              li->bounds ? json_string(li->bounds) : json_null(), "example", li->example,
                              "takes_command", li->takes_arg, "in_all", !li->not_in_all, "params", params);
        json_array_append_new(a, o);
    }
    return a;
}

const struct cli_command cmd_loads_info = {
    .name = "loads",
    .fn = cmd_loads,
    .summary = "list the loads, what each does, its parameters and safety bounds",
    .synopsis = "[--json]",
    .description = NULL,
    .positional = NULL,
    .defs = loads_defs,
};

int cmd_loads(int argc, char **argv, const char *command_line)
{
    (void)command_line;
    struct loads_opts o = { 0 };
    int np = 0;
    int status;
    if (cli_parse(&cmd_loads_info, NULL, &o, argc, argv, NULL, 0, &np, &status))
        return status;
    if (o.json) {
        json_t *a = registry_json();
        int e = json_dumpf(a, stdout, JSON_INDENT(2));
        printf("\n");
        json_decref(a);
        return e == 0 ? 0 : 3;
    }
    wrap_text(stdout, "", 2, wrap_width(stdout),
              "Loads for " WRAP_CMD("`rtjitter run --loads LIST`") ": one phase per comma-separated entry, `none` "
              "first. A+B runs loads together in one phase; load:name=value sets a parameter (write:mb=64:sync=4); "
              "exec:CMD takes the rest of its entry as a shell command (so it comes last in an A+B, and the command "
              "cannot hold a comma). `all` is every load below except exec. Files go under --tmpdir. Each load "
              "runs in its own process group, owned by a supervisor process that ends it at the phase end and "
              "removes its files, even when rtjitter itself is killed.");
    printf("\n");
    for (const struct load_info *const *l = load_registry; *l; l++) {
        const struct load_info *li = *l;
        printf("%s\n", li->name);
        print_wrapped("    ", "", li->summary);
        if (li->metric)
            printf("    metric: %s, %s\n", li->metric, li->unit);
        for (int i = 0; i < LOAD_MAX_PARAMS && li->params[i].name; i++) {
            const struct load_param *p = &li->params[i];
            char left[64], lab[300];
            snprintf(left, sizeof(left), "%s=%-*s", p->name, (int)(12 - strlen(p->name)), p->type == LP_INT ? "N" : "X");
            snprintf(lab, sizeof(lab), "%s (default %.15g%s%s, from %.15g to %.15g)", p->help, p->def, p->unit[0] ? " " : "",
                     p->unit, p->min, p->max);
            print_wrapped("    ", left, lab);
        }
        if (li->bounds)
            print_wrapped("    ", "bounds: ", li->bounds);
        char eg[512];
        snprintf(eg, sizeof(eg), WRAP_CMD("--loads '%s'"), li->example);
        print_wrapped("    ", "e.g. ", eg);
    }
    return 0;
}
