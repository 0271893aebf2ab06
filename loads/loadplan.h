/* The run plan's loads: one phase per entry of --loads, each entry one load or several joined by '+'
 * (syntax in loadspec.h). Called from the orchestrator (main thread) only. */
#ifndef RTJ_LOADPLAN_H
#define RTJ_LOADPLAN_H
#include <jansson.h>
#include <stddef.h>

struct load_plan;

/* Parse "none,burn,compile+write:mb=64" (or "all"). Bad input: -EINVAL and one line in err (caller exits 2).
 * When a phase has a real load this forks the load supervisor, so call it while the process has one thread and
 * before mlockall(): forking later would make the real-time thread take copy-on-write page faults. */
int load_plan_parse(const char *spec, const char *tmpdir, struct load_plan **out, char *err, size_t errlen);
int load_plan_count(const struct load_plan *p);
const char *load_plan_name(const struct load_plan *p, int phase);
/* Start the loads of a phase. A load that cannot run here is not an error of the run: it returns 0 and
 * load_phase_stop() reports the reason. */
int load_phase_start(struct load_plan *p, int phase);
/* The warm-up is over: throughput counts from now on. Optional; without it, from the start. */
int load_phase_measure(struct load_plan *p, int phase);
/* Stop them (within about half a second); append {name, value, unit} objects to metrics; *error gets a reason
 * or NULL (owned by plan, valid until load_plan_free). */
void load_phase_stop(struct load_plan *p, int phase, json_t *metrics, const char **error);
/* Stop everything still running, remove every file; frees p. Safe on NULL. */
void load_plan_free(struct load_plan *p);

#endif
