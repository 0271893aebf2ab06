/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A finished phase's segments written to a file and freed, and read back (issue 32, item 5: a run of many phases
 * keeps the private memory of one; run/run_spill.h says when). What is written is each segment as it is once its
 * phase has settled (stats/phase.h: phase_settle): the struct without its dense histograms (compacted, their pages
 * given back: zeros), then each array it points to with its length. Read back, the segments are what they were,
 * and every reader (report_build above all) sees no difference. The file is this process's own, read back by the
 * process that wrote it: no format to keep across versions. */
#ifndef RTJ_STATS_PHASE_SPILL_H
#define RTJ_STATS_PHASE_SPILL_H
#include "stats/phase.h"
#include <stdio.h>

/* p's segments written to f (at its current position) and freed: p then has no segment (p->nseg 0) and
 * p->spilled the count written. 0, or -1 when the write failed or a histogram was not compacted (p is as it was:
 * nothing freed). */
int phase_spill_write(struct phase_stats *p, FILE *f);
/* The segments written by phase_spill_write, read back from f (from its start) into p. 0, or -1 (a short or
 * inconsistent file, or no memory: p keeps none of them, p->spilled stays set). */
int phase_spill_read(struct phase_stats *p, FILE *f);

#endif
