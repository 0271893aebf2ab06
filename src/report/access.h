/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Reading values out of a document (a report from report_read.c, or a comparison from compare_build()): the
 * one accessor every renderer and the comparison use, so that "absent", "null" and "of another type" read the
 * same everywhere: as NAN or as the caller's default. */
#ifndef RTJ_ACCESS_H
#define RTJ_ACCESS_H
#include <jansson.h>
#include <stddef.h>

/* o[k] as a number; NAN when o is not an object, or k is absent or not a number. */
double doc_num(const json_t *o, const char *k);
/* o[k] as a string; dflt (which may be NULL) when o is not an object, or k is absent or not a string. */
const char *doc_str(const json_t *o, const char *k, const char *dflt);
/* And back: v as a JSON real, or null when it is NAN (absent). */
json_t *doc_number_json(double v);

/* Whether the system identity's CPUs have an idle state that holding /dev/cpu_dma_latency at 0 keeps them out of
 * (system.cpu.idle: one enabled with an exit latency above 0): 1 yes, 0 no (no cpuidle driver: an idle CPU halts,
 * and holding it changes nothing), -1 the document does not say (an older report). */
int doc_idle_governable(const json_t *system);

/* How every renderer and the comparison name a phase: its load, with "@FRAMES" when the buffer size changed
 * during the phase (one entry per size). The load is cut, never inside a character, to PHASE_NAME_LOAD_MAX
 * bytes. It is also the key by which compare matches the phases of two reports. */
#define PHASE_NAME_LOAD_MAX 300
#define PHASE_NAME_LEN (PHASE_NAME_LOAD_MAX + 24)
void doc_phase_name(const json_t *phase, char *buf, size_t len);

/* One flattened line per scalar under o ("kernel.hz" -> "1000"), for identity tables and differences:
 * calls fn for each, at most 4 levels deep, 64 entries of an array. Text is cut, never inside a character. */
void flatten_json(const json_t *o, const char *prefix, int depth,
                  void (*fn)(const char *key, const char *value, void *arg), void *arg);

#endif
