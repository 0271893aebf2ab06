/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rtjitter-report(5), the report format, written by `rtjitter --man-report`: the tables below are the one place
 * that describes a report's keys (and a comparison's, and the system identity's), between the prose of the page
 * (the files doc/rtjitter-report.5.*, manpage_doc.c) on the store, the text and HTML forms and what is measured.
 * Written as roff through manpage_markup(). */
#include "cli/manpage.h"
#include <errno.h>

struct report_key {
    const char *key;      /* the key; "a.b" is key b of object a */
    const char *type;     /* its JSON type */
    const char *meaning;  /* in the markup of manpage_markup() */
};

/* The report (rtjitter.report/1): its keys in the order a report holds them. */
static const struct report_key report_keys[] = {
    { "schema", "string", "`\"rtjitter.report/1\"`; a reader accepts `1` and `1.x`, refuses other majors, ignores keys "
      "it does not know" },
    { "tool", "object", "`{name, version}`" },
    { "complete", "boolean", "false: the run could not complete (Ctrl-C, SIGTERM, the JACK server went away)" },
    { "incomplete_reason", "string or null", "why the run did not complete" },
    { "label", "string or null", "`--label`" },
    { "session", "string", "`watch` in a report of `rtjitter watch` (its phase of the load `none` is the user's own "
      "session); absent otherwise" },
    { "started", "string", "UTC ISO 8601" },
    { "finished", "string", "UTC ISO 8601" },
    { "command", "string", "the command line" },
    { "system", "object", "the system identity: see SYSTEM IDENTITY" },
    { "audio", "object", "`{backend, provider, provider_version, server, server_name, driver, rate, period_frames, "
      "period_us, clock, realtime, sched_policy, priority, mlocked, dsp_pct, buffer_changes, clock_offset_us, "
      "cpu_dma_latency, cpu_dma_latency_us, server_realtime, server_realtime_asked, server_sched, client_thread, "
      "irq_threads, below_irq_threads, ...}`" },
    { "audio.server", "string", "`external` or `private` (a private jackd rtjitter started itself)" },
    { "audio.provider", "string", "`jack2` or `pipewire-jack`; the JACK library in use (its version in "
      "`audio.provider_version`)" },
    { "audio.buffer_changes", "integer", "another client changed the buffer size or rate during the run (a warning "
      "too); the phase is split: statistics never mix two period sizes" },
    { "audio.clock_offsets_us", "object", "both offsets of the clocks (rtjitter's own and the one JACK's "
      "`jack_get_time()` follows); `clock_ambiguous` when it cannot tell" },
    { "audio.cpu_dma_latency", "string", "`held at 0 us while measuring`, `off (...)`, or `not held: ...` and why" },
    { "audio.cpu_dma_latency_us", "number", "0 when held" },
    { "audio.sched_policy, audio.priority", "string, integer", "what the audio thread itself runs at" },
    { "audio.client_thread", "object", "`{tid, policy, priority, read_from}`: the same as `/proc/self/task/TID/stat` "
      "shows it after the phases (`read_from` says which was read)" },
    { "audio.server_sched", "object", "with JACK, `{name, pid, threads, rt [{tid, comm, policy, priority}], realtime, "
      "policy, priority, found_by, read_from}`: the server's threads as `/proc/PID/task/TID/stat` shows them once the "
      "cycles run (`found_by`: a private server's own pid, or the external `jackd`/`jackdbus` of this user started "
      "with that `-n` name, or under `pw-jack` the `pipewire` of this `XDG_RUNTIME_DIR`)" },
    { "audio.server_realtime", "boolean or null", "whether one of the server's threads runs SCHED_FIFO or SCHED_RR, "
      "null when its process was not found" },
    { "audio.server_realtime_asked", "boolean", "what the server asked for, `jack_is_realtime()`; a normal user's "
      "private jackd asks with `-R` and may not get it" },
    { "audio.irq_threads", "object", "`{count, policy, priority, lowest, read_from}`: the interrupt threads (kernel "
      "threads `irq/N-NAME`, with `threadirqs` or on PREEMPT_RT, and some always) as their `/proc/PID/stat` shows "
      "them" },
    { "audio.below_irq_threads", "boolean or null", "true when the audio thread runs below the highest of them (null "
      "when there is none)" },
    { "audio.pipewire", "object", "under `pw-jack`: PipeWire's quantum and rate as in force and its `clock.*` "
      "settings as `pw-metadata` shows them; after a sweep, what it set back" },
    { "audio.pipewire_graph", "object", "under PipeWire (native or `pw-jack`): its own xrun accounting, read from its "
      "profiler: `profiles`, `unfinished_cycles` (a node's cycle still triggered or awake when profiled), "
      "`driver_xruns`, `by_node` [{`node`, `cycles`}], `folded_into_cycles` (into our events), `told_late`, "
      "`dropped`; or `{unavailable: why}`" },
    { "audio.backend_auto", "string", "`--backend auto`: which backend it chose and why (the server that answered, "
      "at which socket or name)" },
    { "audio.wakeup_measured", "string", "what the wake-up figure includes per provider (jack2's grid follows its "
      "driver's schedule, so a late driver wake-up is included; PipeWire's driver starts a cycle at its scheduled "
      "time)" },
    { "audio.requested, audio.accepted, audio.card", "object, object, string", "`--backend alsa`: what was asked and "
      "what the device took (the format, channels, buffer and access), and the card's name" },
    { "audio.wakeup_method", "string", "`--backend alsa`: whether wake-up is measured from the driver's timestamps or "
      "against the frame clock's fitted grid" },
    { "audio.xrun_events, audio.frame_clock", "object, string", "`--backend alsa`: the device's xruns (count, lengths, "
      "`capture_only`: of them, overruns of an unlinked capture side alone, restarted on their own; "
      "how many were timed by the trigger timestamp, and `gaps_estimated`: the frame-clock gaps a PCM without "
      "timestamps left to be counted in whole periods, each known to one cycle either way); what the frame clock is "
      "(a plugin's pointer, such as the jack PCM's, misses the server cycles its client missed, unseen)" },
    { "audio.cpus, audio.threads", "array", "`--backend timer`: the CPUs, and for each thread its CPU, cycles, "
      "skipped periods and the scheduling it got" },
    { "audio.loopback", "object", "`--backend alsa --loopback duplex`: the format it took, the channels, the buffer, "
      "whether the two sides are linked, and how often the capture side had to restart alone" },
    { "audio.dsp_calibration", "object", "with `--dsp`: `{units_per_us (the figure in force), fastest_units_per_us, "
      "median_units_per_us, tries, units_per_try, cpu, took_ms (the main thread's tries), in_run {units_per_us, "
      "share_pct, overhead_pct, window_s, cycles, threads} (null when it could not be made: in_run_note says why), "
      "method}`" },
    { "phases", "array", "one entry per phase (per load), and per buffer size within it: see the keys of a phase "
      "below" },
    { "warnings", "array of strings", "what the run also said on stderr (a period or quantum it measured instead of "
      "the one asked, a change of the buffer size, ...)" },
    { "run_stats", "object", "`{wall_s, collector_cpu_s, collector_cpu_pct, records, dropped, ring_capacity, "
      "peak_rss_kib}`" },
    { "verdict", "object", "`{level (pass/warn/fail), summary, setting, worst_load, try, advice[], advice_ids[]}`" },
    { "thresholds", "object", "every limit and, per phase, its figure and pass or fail (`thresholds.checks`)" },
    { "profile", "object", "the profile the verdict used (`profile.name`, such as `studio`)" },
    { "run", "object", "`stopped`, the times continued, `longest_stop_s`, and per stop its `gap_s`, load, skipped "
      "cycles, xrun events and missed deadlines: rtjitter itself was stopped (SIGSTOP, Ctrl-Z)" },
    { "ladder", "object", "a depth of `--backend timer,alsa,jack`: `{depth, below}`, the depths below it, which its "
      "verdict is judged knowing" },
    { "loopback", "object", "with `--loopback`: the round trip, `hardware_in_loop`, `match`, `gap_frames`, `record` "
      "(`path`, `requested_path`, `\"partial\": true`) and each glitch (`t_ns`, `t_play_ns`, kind)" },
    { "culprits", "object", "when the run sought culprits: `{sampler {hz, window_ms, history_s, sources [{name, "
      "state, why?}]}, cost {cpu_s, cpu_pct}, periodicity [{period_s, count, spread_s, what}], trace?}`: how the "
      "culprits were sought (the sampler of /proc and /sys any user may read, the audio server's log, PipeWire's "
      "profiler, a trace), what it cost, and the periods found in the events' and spikes' times (each top culprit's "
      "own first, `what` naming it; then all of them together, unless that period is the culprit's own listed; at "
      "most 4, the most moments first)" },
    { "imported", "object", "`{from (\"cyclictest\", \"oslat\", \"jitterdebugger\"), file, tool_version, command, file_version, ...}`: a report made by `rtjitter import` (`audio.backend` `cyclictest-import`, `oslat-import`, `jitterdebugger-import`): "
      "null for what cyclictest does not measure" },
    { NULL, NULL, NULL }
};

/* Each entry of phases[]. */
static const struct report_key phase_keys[] = {
    { "load", "string", "the phase's load" },
    { "duration_s, measured_s", "number", "the phase's duration and the part measured" },
    { "finished", "boolean", "false: the run stopped during its measured part" },
    { "period_frames, rate", "integer", "the buffer size and rate this entry was measured at" },
    { "segments_in_phase", "integer", "a phase whose buffer size changed is split, one entry per size" },
    { "cycles", "integer", "the cycles measured" },
    { "clock_window_s", "array", "first and last measured cycle on the measurement clock" },
    { "clock_window_ns", "array", "the same as integer ns, so events timed elsewhere on that clock can be lined up "
      "with it" },
    { "dropped", "integer", "records the collector could not keep up with (the ring was full)" },
    { "xruns", "object", "`{events, reported, detected, skipped_cycles}`: `events`, one per disturbance of the graph; "
      "`reported`, the provider's raw notifications; `detected`, the frame-clock gaps; `skipped_cycles`, the cycles "
      "lost in them" },
    { "events", "array", "`{n (its number in the segment, from 1; since issue 34), t_s (the measurement clock), wall (UTC ISO 8601, ms), length_ms (from its first disturbed "
      "cycle's due time to its last's entry, never negative), cycles (spanned, skipped ones included), skipped, "
      "notifications}`, in time order: the latest 384 and the worst 128 (by length) of a segment (before issue 34: "
      "the first 4,096); when the run sought culprits, also `cpu` (its first disturbed cycle's, null "
      "unknown), `callback_max_us` (the longest callback of its cycles and the one before), `explained` (false: the "
      "culprit engine had no data for it) and `culprits` (below)" },
    { "events_unlisted", "integer", "the events not listed: summed in `events_summary` (and any lost to no memory)" },
    { "events_summary", "object", "`{total, listed, summarised, lost, kept_latest, kept_worst, bucket_s, "
      "per_minute, per_culprit, per_culprit_others?}`: every event is counted in `total` (= listed + summarised + "
      "lost); `per_minute` `[{t_s, wall, span_s, events, length_ms_sum, length_ms_max, skipped, notifications}]` sums "
      "the summarised ones by their start's bucket (`bucket_s` wide: 60 s, doubled past 1,440 buckets; buckets "
      "without an event left out), adding up to `summarised`; `per_culprit` the same sums by the top culprit known "
      "when the event was summarised (`kind`, `name`; both null: not known then), null when the run sought no "
      "culprits; `per_culprit_others` the culprits past 24. Written since issue 34; older reports have none" },
    { "spikes", "array", "`{t_s (when the cycle was due), wall, wakeup_us, callback_us, cpu}`: cycles that woke later "
      "than `spike_threshold_us` without being an xrun event's (the first 512 of a segment); with culprits, also "
      "`explained` and `culprits`. Written since the culprits (issue 24); older reports have none" },
    { "spikes_unlisted", "integer", "the spikes past the first 512" },
    { "spike_threshold_us", "number", "the spike threshold in force: half the period unless the run set another" },
    { "top_culprits", "array", "when the run sought culprits: `[{kind, name, basis, events, spikes, evidence}]`, the "
      "culprits of the entry's events and spikes by kind and name, ranked by the events, then the spikes, they were "
      "among the culprits of (at most 8); `basis` is `observed` when any of them saw it happen, else `correlated` "
      "when counters rose around any, else `none`; `evidence` the first event's line for it (or the first "
      "spike's). Each entry of an event's or a spike's `culprits` is `{kind "
      "(rt_task, client, irq, softirq, dsp, run_delay, steal, pressure, freq, idle_exit, thread, none, kthread, "
      "no_preempt, below_kernel; none is \"not known\"), basis "
      "(correlated: counters rose around it against their baseline; observed: a source saw it; none: nothing was "
      "seen, a traced run's \"not known\" whose trace held no wait of the audio threads), name, pid?, tid?, "
      "cpu?, irq?, score (its rank within that happening only), evidence (one line, with the window it was measured "
      "over)}`, ranked" },
    { "period_us, jitter_us, wakeup_us, callback_us, margin_us", "object", "`{count, mean, sd, min, max, abs_max, "
      "p50, p90, p99, p999, p9999}` in µs (p999 and p9999 are null when fewer than 1,000 or 10,000 cycles were "
      "measured)" },
    { "deadlines_met_pct, deadlines_missed", "number, integer", "the share of cycles whose callback finished before "
      "the next cycle started, and the cycles that did not" },
    { "desired_cpu_pct", "number or null", "with `--dsp PCT`, the share of the requested DSP work that was done in "
      "time" },
    { "dsp_load", "object", "`{callback_mean_pct, callback_max_pct, server_mean_pct, server_max_pct}`: the callback's "
      "mean and longest time and the server's CPU load, as shares of the period (null when not measured)" },
    { "dsp_cut_short", "integer", "cycles whose work was cut short at the guard band" },
    { "dsp_share", "object", "`{requested_pct (the fixed --dsp share; 0 without --dsp, null for a ramp: each step has "
      "its own), measured_pct (the RT threads' CPU time, schedstat, over the phase's cycles × the nominal period), "
      "run_delay_pct (the time they waited to run, same denominator), cpu_s, run_delay_s, cycles, threads, tids, "
      "mono_window_s (the readings' times, CLOCK_MONOTONIC)}`" },
    { "dsp_ramp", "object", "with `--dsp ramp`: `{..., steps [{level_pct, ..., callback_pct, measured_pct, "
      "run_delay_pct, mono_window_s}]}`" },
    { "noise", "object", "`--backend noise` (absent otherwise): `{threshold_us, cpus [{cpu, probed_s, gaps, "
      "total_noise_us, max_noise_us, available_pct, histogram [[lo_us, hi_us, count]] (log2 bins of the gaps), "
      "classes {scheduler, interrupt, steal, smi, below_kernel, unknown: {count, total_us, max_us}}, unclassified}], "
      "events [{cpu, t_s, length_us, class, line}] (the longest 100, in time order), events_total, events_kept, "
      "lines [{line, kind, gaps}] (the interrupt and softirq lines the gaps named)}`" },
    { "soak", "object", "with `run --soak` (absent otherwise): `{bin_us (1), range_us (10000), count, overflow (wake-ups "
      "of 10 ms or more), max_us, max_at_s, bins [[us, count]] (the non-empty 1 µs bins [us, us + 1), ascending), "
      "window_s (300; RTJ_SOAK_WINDOW_S in tests), windows_planned, windows [{max_us (null: no cycle), at_s, cycles, "
      "overflow}], threads [{thread, cpu, cycles, min_us, avg_us, max_us}], t0_clock_s}`; times `at_s` count from the "
      "soak's first cycle, `t0_clock_s` on the measurement clock. With `--stop-at-us`: `stop {stop_at_us, tripped, "
      "wakeup_us, at_s, cycle, thread, entry_clock_s, wall (the cycle's entry), due_wall (when it was due)}`. Its "
      "verdict is `verdict.soak` `{level, line, max_us, threshold_us, threshold_pct, threshold_from, overflow, "
      "enforced}`" },
    { "wakeup_method", "string", "`provider`, `grid` or `mixed`" },
    { "rephases, wakeup_coarse, wakeup_reanchored, wakeup_left_out", "integer", "the grid fitted anew after a "
      "re-phase; cycles measured from their whole-frame start; cycles before the grid (their wake-up is 0); cycles "
      "half a period or more before it, left out" },
    { "records_lost, discontinuities, duplicates", "integer", "records lost to a full ring; frame-clock jumps back or "
      "far ahead; catch-up records with the same frame time as the one before" },
    { "load_metrics", "array", "`[{name, value, unit}]`: what the load itself achieved" },
    { "load_error", "string or null", "why the load could not run, or how it failed" },
    { "histograms", "object", "`{metric: [[low_us, high_us, count], ...]}` (non-empty log-linear buckets, ascending, "
      "at most 1.6 % wide)" },
    { "timeline", "array", "`[{s, cycles, xruns_reported, xruns_detected, deadlines_missed, period_max_us, "
      "jitter_abs_max_us, jitter_abs_p99_us, wakeup_max_us, wakeup_p99_us, callback_max_us, margin_min_us}]`, one "
      "entry per second" },
    { NULL, NULL, NULL }
};

/* A comparison (compare --json). */
static const struct report_key compare_keys[] = {
    { "schema", "string", "`\"rtjitter.compare/1\"`" },
    { "reports", "array", "the reports compared; each lists the other runs of its set-up found beside it, "
      "`replicates[]`" },
    { "warnings", "array of strings", "runs with a different rate, period, backend or JACK provider; incomplete "
      "runs" },
    { "system_diff", "array", "`[{key, values[]}]`: what differs in the system, key by key" },
    { "loads", "array", "`[{load, columns[], rows [{label, cells[]}], verdicts [{report, metric, a, b, outcome "
      "(better/worse/same/worse_in_pair/better_in_pair/n/a), text, runs {a, b, noise, df, ratio, p} (the runs "
      "behind the t-test: on each side, in the noise group; null when a run lacks the value)}], culprits}]`; "
      "`culprits`, only where a run names any: per report against the baseline `[{report, sought [baseline, it] "
      "(whether each run looked: its phase has `top_culprits`), came [{kind, name, events, spikes}] (in it, not in "
      "the baseline), went [...] (in the baseline, not in it), stayed [{kind, name, events [before, after], spikes "
      "[before, after]}], seen (when one run did not look: what the other named)}]`, matched by kind and name" },
    { "summary", "array", "the closing sentence per report" },
    { "method", "string", "the method in words: the units, the tests and the rules the verdicts use" },
    { "ladder", "object", "`--backend timer,alsa,jack`: each depth's verdict, wake-up p99, xrun events and what it "
      "adds (the noise depth: `below_kernel_max_us`, `below_kernel_gaps`), `trouble_starts_at`, `host_first` (the "
      "noise probe's gaps below the kernel are as long as a period of the top depth, which had xruns), the "
      "conclusion" },
    { NULL, NULL, NULL }
};

/* The system identity (system in every report). */
static const struct report_key system_keys[] = {
    { "kernel", "object", "`release`, `version`, `cmdline` (`null` when `/proc/cmdline` cannot be read, as in some "
      "containers; then `threadirqs` is `null` too, unless PREEMPT_RT forces it); `preempt` (`none`, `voluntary`, "
      "`full`, `lazy`, `rt`, or `unknown`) with `preempt_source`: the kernel config, or for a PREEMPT_DYNAMIC kernel "
      "(`preempt_dynamic: true`, `preempt_default`) the mode in force, from `/sys/kernel/debug/sched/preempt` when "
      "readable (root), else `preempt=` on the command line; `hz` (CONFIG_HZ), `nohz` (`periodic`, `idle`, `full`), "
      "`high_res_timers`, `threadirqs` with `threadirqs_source` (`cmdline`, or `preempt_rt`: forced); `isolcpus`, "
      "`nohz_full`, `rcu_nocbs` as booted and `isolated_cpus`, `nohz_full_cpus` as applied; `mitigations` (the boot "
      "option and every `/sys/devices/system/cpu/vulnerabilities` entry); `clocksource`; `rt_throttling` "
      "(`sched_rt_runtime_us`, -1 = off); `timer_migration`; `config_source` — `/proc/config.gz`, "
      "`/boot/config-RELEASE` or `unknown` — and `config`, the scheduling and timer options read from it (`\"n\"` "
      "for \"is not set\")" },
    { "cpu", "object", "`model`, `threads`, `cores`, `packages`, `smt {active, control}`, `governor` (or `mixed`, or "
      "`null` without cpufreq), `governors`, `scaling_driver`, `freq_min_mhz`/`freq_max_mhz`" },
    { "memory", "object", "`total_mib`, `swap_total_mib`, `swap_free_mib`, `swappiness`" },
    { "sound.cards", "array", "each card of `/proc/asound/cards` with its interrupt lines from `/proc/interrupts` "
      "(HDA cards by `snd_hda_intel:cardN` or the `irq N` of the card's name; USB cards by their host controller's "
      "MSI interrupts) and, with threaded interrupts, each IRQ thread's real-time priority (to see whether rtirq "
      "raised it)" },
    { "audio_servers", "array", "jackd, jackdbus, pipewire, pipewire-pulse, wireplumber or pulseaudio processes with "
      "their command line (the server's settings); the JACK library in use and its version are in "
      "`audio.provider`/`provider_version`" },
    { NULL, NULL, NULL }
};

static void keys_table(FILE *f, const struct report_key *k)
{
    for (; k->key; k++) {
        char tag[200];
        snprintf(tag, sizeof(tag), "`%s` (%s)", k->key, k->type);
        manpage_tagged(f, tag, k->meaning);
    }
}

int manpage_report_write(FILE *f)
{
    fputs(".\\\" rtjitter-report(5), generated by `rtjitter --man-report` (src/cli/manpage_report.c): do not edit.\n", f);
    fprintf(f, ".TH RTJITTER-REPORT 5 \"\" \"rtjitter %s\" \"File Formats\"\n", RTJ_VERSION);
    manpage_roff(f, report_roff_head);
    manpage_markup(f, report_text_intro);
    fputs(".SH JSON\n", f);
    manpage_markup(f, report_text_json);
    keys_table(f, report_keys);
    fputs(".SS \"Each phase\"\n", f);
    keys_table(f, phase_keys);
    fputs(".SS \"A comparison\"\n", f);
    keys_table(f, compare_keys);
    fputs(".SH \"SYSTEM IDENTITY\"\n", f);
    manpage_markup(f, report_text_system);
    keys_table(f, system_keys);
    manpage_markup(f, report_text_rest);
    fputs(".SH \"SEE ALSO\"\n.BR rtjitter (1)\n", f);
    return ferror(f) ? -EIO : 0;
}
