/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A finished phase's statistics written out while the run goes on, and read back for the report (issue 32, item 5:
 * a run's private memory stays flat however many phases it has: an hour of the eight default phases at 16 frames /
 * 192 kHz kept each finished phase's ~150 KiB to the end). Once the collector has handed a phase over (settled,
 * its events named, its lost records settled: run/collector.h), the main thread writes its segments to an unnamed
 * file where the loads write (--tmpdir, $TMPDIR or /tmp; O_TMPFILE: nothing to remove, nothing left behind by a
 * killed run, no name to guess) and frees them
 * (stats/phase_spill.h); once the collector has stopped, they are read back, and the report is built as before. A
 * phase that cannot be written out stays in memory. Only a run of several plain phases does it (not --dsp ramp,
 * --soak, the noise backend or watch); RTJ_SPILL=0 turns it off (the tests compare both). */
#ifndef RTJ_RUN_SPILL_H
#define RTJ_RUN_SPILL_H

struct run_state;

/* Before the collector starts: whether this run hands its phases over (col.hand_over). 0, or -ENOMEM. */
int run_spill_setup(struct run_state *st);
/* Main thread, in the waits: writes out each phase handed over. */
void run_spill_poll(struct run_state *st);
/* After the collector stopped: every phase written out read back and its file closed (a warning, and the report
 * incomplete, for one that could not be), and a warning for records that came after their phase was written. */
void run_spill_restore(struct run_state *st);
/* The files still open (a run that stopped before run_spill_restore), at the run's end. */
void run_spill_free(struct run_state *st);

#endif
