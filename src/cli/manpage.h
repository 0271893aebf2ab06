/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The man pages (rtjitter.1, rtjitter-report.5) and the bash completion, generated from the table of subcommands
 * (commands.c) and their option tables, so that neither can drift from what the parser accepts. `rtjitter --man`
 * and `rtjitter --bash-completion` print them (not listed in --help: the Makefile builds data/rtjitter.1 and
 * data/rtjitter.bash-completion from them). */
#ifndef RTJ_MANPAGE_H
#define RTJ_MANPAGE_H
#include "cli/command.h"
#include <stdio.h>

/* cmds is NULL-terminated. 0, or -EIO when f could not be written. */
int manpage_write(FILE *f, const struct cli_command *const *cmds);
/* rtjitter-report(5), the report format (`rtjitter --man-report`), from manpage_report.c's table of the
 * report's keys. 0, or -EIO when f could not be written. */
int manpage_report_write(FILE *f);

/* Prose in a small markup (see manpage.c) written as roff: the sections both pages share the writer of. */
void manpage_markup(FILE *f, const char *text);
/* An item (.TP) tagged by tag, then text: each one line of that markup's running text. */
void manpage_tagged(FILE *f, const char *tag, const char *text);
/* The pages' prose, from the files under doc/ built into the binary (manpage_doc.c): rtjitter(1)'s head, its
 * sections after the commands (measuring, then judging), the loads, their safety, its tail; rtjitter-report(5)'s
 * head and the prose around its tables of keys. *_roff_* are roff (written by manpage_roff()), the others markup. */
extern const char manpage_roff_head[], manpage_text_measure[], manpage_text_judge[], manpage_text_loads[],
    manpage_text_safety[], manpage_roff_tail[];
extern const char report_roff_head[], report_text_intro[], report_text_json[], report_text_system[],
    report_text_rest[];
/* Roff as it is, but each @DATADIR@ written as the installed data directory (compiled in from PREFIX). */
void manpage_roff(FILE *f, const char *roff);
int completion_write(FILE *f, const struct cli_command *const *cmds);

#endif
