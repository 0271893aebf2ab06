/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The cells of the sweep document (sweep_doc.c): one JSON object per (size, load). */
#ifndef RTJ_SWEEP_DOC_H
#define RTJ_SWEEP_DOC_H
#include "run/sweep.h"

/* A measured cell from its phase of a run's report: figures, the judgement (*st CELL_SAFE or CELL_UNSAFE, *clear),
 * why, and the proof ("0 xruns in 45,000 cycles: rate below 6.7e-5 per cycle at 95 % confidence"). */
json_t *sweep_cell_measured(const json_t *phase, int rate, int frames, const char *load,
                            const struct sweep_rules *r, enum sweep_state *st, int *clear);
/* A cell that was not measured (inferred, not in force, interrupted), and why. */
json_t *sweep_cell_skipped(int rate, int frames, const char *load, enum sweep_state st, const char *why);
/* The figures the judgement reads, out of a report's phase. */
void sweep_figs_of_phase(const json_t *phase, int rate, int frames, struct sweep_figs *f);
/* "45 s", "10 min", "1.7 h", "2.1 days" */
void sweep_duration_text(char *buf, size_t len, double s);

#endif
