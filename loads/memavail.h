/* SPDX-License-Identifier: GPL-2.0-or-later */
/* How much memory may still be taken without pressure: MemAvailable, lowered to the headroom of every memory
 * cgroup above us (v2 memory.max - memory.current, v1 memory.limit_in_bytes - memory.usage_in_bytes, at each
 * level up to the mount point): in a container, the cgroup limit is where the OOM killer wakes up. */
#ifndef RTJ_MEMAVAIL_H
#define RTJ_MEMAVAIL_H
#include <stddef.h>
#include <stdint.h>

/* root: "" for this system, or a directory holding a fixture proc/ and sys/ tree (tests). 0 or -errno. */
int mem_available_at(const char *root, uint64_t *avail, uint64_t *total);
/* The same, and *meminfo: MemAvailable itself, above *avail when a cgroup's limit is what binds. */
int mem_available_detail(const char *root, uint64_t *avail, uint64_t *total, uint64_t *meminfo);

/* memload's bounds and its one decision, pure so that they can be tested without taking memory. */
struct memload_bounds {
    uint64_t target;                   /* bytes to hold: pct of what was available, capped by mb */
    uint64_t floor;                    /* never let available memory fall below this */
};
struct memload_bounds memload_bounds(uint64_t avail0, uint64_t total, double pct, double cap_mb);
/* +1: take one more chunk; -1: give one back; 0: hold. */
int memload_decide(uint64_t avail, const struct memload_bounds *b, uint64_t held, uint64_t chunk);
/* May memload take anything at all with avail (and MemAvailable meminfo) at its start? 0, or -ENOMEM with one
 * line in why giving the figures and what binds: the machine, or a cgroup's limit. */
int memload_can_start(uint64_t avail, uint64_t meminfo, const struct memload_bounds *b, uint64_t chunk, char *why,
                      size_t len);

#endif
