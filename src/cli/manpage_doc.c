/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The man pages' prose, written as files under doc/ and built into the binary as they are (util/incbin.h), so that
 * `rtjitter --man` and `--man-report` of an installed or copied binary write the same pages as `make doc`. The
 * .md files are in the markup manpage_markup() writes as roff; the .roff files are roff already (the parts whose
 * exact requests the pages have always had), written as they are but for @DATADIR@. The Makefile rebuilds this
 * object when a file of doc/ changes. */
#include "cli/manpage.h"
#include "util/incbin.h"

/* rtjitter(1), in the order of the page: the head (NAME to the COMMANDS heading), the commands from their tables,
 * the prose after them, the loads' prose and registry, their safety, the tail (EXIT STATUS to SEE ALSO). */
RTJ_INCBIN(manpage_roff_head, "doc/rtjitter.1.head.roff");
RTJ_INCBIN(manpage_text_measure, "doc/rtjitter.1.measure.md");
RTJ_INCBIN(manpage_text_judge, "doc/rtjitter.1.judge.md");
RTJ_INCBIN(manpage_text_loads, "doc/rtjitter.1.loads.md");
RTJ_INCBIN(manpage_text_safety, "doc/rtjitter.1.safety.md");
RTJ_INCBIN(manpage_roff_tail, "doc/rtjitter.1.tail.roff");

/* rtjitter-report(5): the head, the prose before and between the tables of the report's keys, the rest. */
RTJ_INCBIN(report_roff_head, "doc/rtjitter-report.5.head.roff");
RTJ_INCBIN(report_text_intro, "doc/rtjitter-report.5.intro.md");
RTJ_INCBIN(report_text_json, "doc/rtjitter-report.5.json.md");
RTJ_INCBIN(report_text_system, "doc/rtjitter-report.5.system.md");
RTJ_INCBIN(report_text_rest, "doc/rtjitter-report.5.rest.md");
