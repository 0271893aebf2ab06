/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The size (rate and quantum) a PipeWire graph runs at, as PipeWire itself says it: the native backend's
 * server_size op (a depth ladder runs every depth at it, issue 33). Main thread only; nothing here runs in the RT
 * thread. */
#ifndef RTJ_PW_SIZE_H
#define RTJ_PW_SIZE_H

/* What the server told, -1 for what it did not: the "settings" metadata's clock.force-quantum, clock.quantum,
 * clock.force-rate and clock.rate (subject 0), clock.allowed-rates (the one rate it lists, 0 when it lists several),
 * and how many of its nodes run now (a graph is active). */
struct pws_facts {
    long force_quantum, quantum, force_rate, rate, allowed_rate;
    int running_nodes; /* nodes in the "running" state; -1: not known (too many to ask, or no answer) */
};

/* A settings value as PipeWire writes it (a decimal integer, "0" when unset): the number, or -1 when value is NULL
 * or not a whole number in 0..1048576. */
long pws_parse_value(const char *value);
/* clock.allowed-rates as PipeWire writes it ("[ 44100 48000 ]"): the rate when it lists exactly one, 0 when it lists
 * several, -1 when value is NULL or not such a list. */
long pws_parse_rates(const char *value);

/* The rate and quantum a node that asks for no latency of its own gets when it joins this graph, decided from the
 * facts alone: 1 with *rate_hz and *period_frames set, 0 when they are not known. Pure (the unit test's). */
int pws_decide(const struct pws_facts *f, int *rate_hz, int *period_frames);

/* Not RT-safe. The backend_ops server_size op: connect to the PipeWire server `remote` (NULL: the default, as
 * libpipewire picks it: PIPEWIRE_REMOTE, XDG_RUNTIME_DIR), read its settings metadata and its nodes' states within
 * deadline_ms, and decide (pws_decide). 1 with the size, 0 when the server does not answer in time, has no settings
 * metadata, or its size is not known. Leaves nothing behind (its loop and connection are gone when it returns). */
int pws_server_size(const char *remote, int deadline_ms, int *rate_hz, int *period_frames);

#endif
