/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The run plan's loads: one phase per entry of --loads, each entry one load or several joined by '+'
 * (syntax in loadspec.h). Called from the orchestrator (main thread) only. */
#ifndef RTJ_LOADPLAN_H
#define RTJ_LOADPLAN_H
#include <jansson.h>
#include <stddef.h>

struct load_plan;

/* Parse "none,burn,compile+write:mb=64" (or "all"). Bad input: -EINVAL and one line in err (caller exits 2).
 * A tmpdir where another user could rename our directory (writable by others without the sticky bit, or owned
 * by another user than us and root), when a load would make files in it: -EPERM and one line in err naming
 * --tmpdir (caller exits 2 too). When a phase has a real load this makes the loads' private directory under
 * tmpdir and, where cgroup v2 allows it, their cgroup (RTJITTER_NO_CGROUP=1: never), and forks the load
 * supervisor; so call it while the process has one thread and before mlockall(): forking later would make the
 * real-time thread take copy-on-write page faults. */
int load_plan_parse(const char *spec, const char *tmpdir, struct load_plan **out, char *err, size_t errlen);
int load_plan_count(const struct load_plan *p);
const char *load_plan_name(const struct load_plan *p, int phase);
/* Start the loads of a phase. A load that cannot run here is not an error of the run: it returns 0 and
 * load_phase_stop() reports the reason. */
int load_phase_start(struct load_plan *p, int phase);
/* The warm-up is over: throughput counts from now on. Optional; without it, from the start. */
int load_phase_measure(struct load_plan *p, int phase);
/* Stop them and everything they started (SIGTERM, SIGKILL 0.4 s later; 2 s at most, never blocked by a
 * daemonising command); append {name, value, unit} objects to metrics; *error gets a reason or NULL (owned by
 * plan, valid until load_plan_free). */
void load_phase_stop(struct load_plan *p, int phase, json_t *metrics, const char **error);
/* 1 while the load supervisor runs (or the plan needs none); 0 once it died or stopped answering, with one
 * line in why (e.g. "the load supervisor was killed by signal 9 (Killed)"). Cheap (one waitpid WNOHANG, which
 * reaps it): poll it with the run's other stop conditions. */
int load_plan_alive(struct load_plan *p, char *why, size_t len);
/* Ends every load process from this process: SIGKILL to the supervisor if it still runs, then the loads' cgroup
 * (cgroup.kill) or else their process groups, then removes the loads' cgroup and directory through the
 * descriptors the plan holds. Returns within about 2 s; idempotent; p stays valid (load_phase_* then report the
 * supervisor gone) until load_plan_free. Call it at once when load_plan_alive() says 0. */
void load_plan_abort(struct load_plan *p);
/* Stop everything still running, remove every file (the supervisor does, else load_plan_abort); frees p. Safe
 * on NULL. */
void load_plan_free(struct load_plan *p);

#endif
