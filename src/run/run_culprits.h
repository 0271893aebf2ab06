/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The run's culprit engine (culprit/culprit_engine.h): started once the cycles run, told of each xrun event and
 * spike by the collector (phase.h's notify), given the sources this machine and this login allow (the audio
 * server's log, PipeWire's profiler, a trace with privileges), stopped after the collector, and read by the report
 * builder. Main thread, but for run_culprits_happening and run_culprits_cpu (the collector thread). */
#ifndef RTJ_RUN_CULPRITS_H
#define RTJ_RUN_CULPRITS_H
#include "culprit/culprit.h"
#include "stats/phase.h"

struct backend_status;
struct noise_trace_answer; /* util/noise_class.h */

struct run_state;

/* After the backend started: the engine and its sources. A failure is a warning; the run goes on without. */
void run_culprits_start(struct run_state *st);
/* Once the audio thread is known (sink.sched_known): its tid and priority. */
void run_culprits_audio(struct run_state *st);
/* The audio server's process: the one found running the graph (server_sched: a server rtjitter did not start is
 * found by name), else the one the backend started; 0 when not known. */
int run_culprits_server_pid(const struct run_state *st, const struct backend_status *bs);
/* phase_notify_fn: the collector thread tells of an event (begun, closed) or a spike. */
/* The namer of events as they are summarised (phase_name_fn): their top culprit, or 0 while the engine has not
 * explained them (unless force). Collector thread; the main thread once the engine has stopped (force). */
int run_culprits_name(void *arg, const struct phase_stats *p, int64_t start_ns, int force, char *kind,
                      size_t kind_len, char *name, size_t name_len);
void run_culprits_happening(void *arg, const struct phase_stats *p, enum phase_happening what, int64_t start_ns,
                            int64_t end_ns, int cpu, int64_t callback_max_ns);
/* collector.on_cpu: a CPU the audio thread ran on. */
void run_culprits_cpu(void *arg, int cpu);
/* After collector_stop: explains what is pending, stops the thread; the results stay for the report. */
/* The noise probe's question about one gap (backend_config.noise_trace, util/noise_class.h's noise_trace_fn; arg is
 * the run state): the trace source's answer while it is open, else -ENOENT. The probe's classifier thread. */
int run_noise_trace(void *arg, int cpu, int tid, int64_t t0_ns, int64_t t1_ns, struct noise_trace_answer *out);
void run_culprits_stop(struct run_state *st);
/* After the report was saved at report_path: the trace's slices (with privileges) in REPORT.trace/. */
void run_culprits_save_slices(struct run_state *st, const char *report_path);
/* Under PipeWire: the graph's own xruns, read from its profiler (collector.h's graph_take; arg: the run_state). */
struct pwgraph_dist;
int run_graph_take(void *arg, struct pwgraph_dist *out, int max, int64_t *known_ns);
/* Main thread, after run_graph_close: the report's audio.pipewire_graph (NULL: not under PipeWire). */
json_t *run_graph_json(struct run_state *st);
/* Main thread, after collector_stop: the run's hold on the profiler let go, its counts kept. Safe twice. */
void run_graph_close(struct run_state *st);
/* What report_build reads (NULL when no engine ran). */
const struct culprit_results *run_culprits_results(struct run_state *st);
void run_culprits_free(struct run_state *st);

#endif
