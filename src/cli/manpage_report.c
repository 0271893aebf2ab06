/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rtjitter-report(5), the report format, written by `rtjitter --man-report`: the tables below are the one place
 * that describes a report's keys (and a comparison's, and the system identity's), beside the prose on the store,
 * the text and HTML forms and what is measured. Written as roff through manpage_markup(). */
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
      "classes {scheduler, interrupt, steal, smi, below_kernel, unknown: {count, total_us, max_us, by_trace (of "
      "count, classed by the kernel trace)}}, unclassified}], events [{cpu, t_s, length_us, class, line, by_trace, "
      "holder {kind, name, pid|line|vector}, held_us}] (the longest 100, in time order), events_total, events_kept, "
      "lines [{line, kind, gaps}] (the interrupt and softirq lines the gaps named), trace (null without the trace: "
      "{min_gap_us, answered, not_covered, no_trace, late, skipped, holders [{kind, name, pid|line|vector, class, gaps, "
      "held_us}], holders_not_named})}`" },
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
      "`null` without cpufreq), `governors`, `scaling_driver`, `freq_min_mhz`/`freq_max_mhz`, `idle {driver, states "
      "[{name, latency_us, cpus, enabled_cpus}]}` (the cpuidle states: none, or only a polling one, and holding "
      "/dev/cpu_dma_latency changes nothing; an idle CPU then halts)" },
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

static const char report_text_intro[] =
    "Each run writes one JSON document, the source of truth; everything else is rendered from it, also later:\n"
    "\n"
    "```sh\n"
    "rtjitter run --html run.html               # the page, next to the report saved in the store\n"
    "rtjitter report REPORT.json                # the text table and verdict again\n"
    "rtjitter report                            # the newest report in the store (its file named on stderr; none: exit 2)\n"
    "rtjitter report REPORT.json --html out.html [--text]\n"
    "rtjitter report REPORT.json --format json  # print it in one form: text (the default), html or json\n"
    "rtjitter compare a.json b.json --format html >cmp.html\n"
    "```\n"
    "\n"
    "The forms are one table (`src/render/render.c`: name, file extension, a report and a comparison renderer each):\n"
    "`--format` lists its names in `--help`, and `--text`, `--html`, `--json` go through the same entries.\n"
    "\n"
    "**Files you name** (`--json`, `--html`, for `run`, `report` and `compare`) are replaced whole or not at all: the\n"
    "new content goes into a hidden temporary file with a random name in the same directory (created exclusively, never\n"
    "through a symlink), is flushed to disk, then renamed over the old name; on any failure (a full disk, say) the\n"
    "temporary file is removed and your old file is left as it was. A symlink at that name is replaced by the file, not\n"
    "followed; a directory, FIFO or device there is refused (one line, exit 2 for `report` and `compare`). Every string\n"
    "that comes from outside (label, command line, a load's name and last words, file names) is stored as UTF-8, with\n"
    "U+FFFD where its bytes were not.\n";

static const char report_text_json[] =
    "Every JSON file rtjitter writes is indented by one space, with reals to 8 significant digits and a final newline.\n"
    "The other documents are described with their commands in rtjitter(1): the sweep (`rtjitter.sweep/1`, SWEEP), the\n"
    "checklist (`rtjitter.checks/1`, BEFORE MEASURING: CHECK) and the fleet's table (`rtjitter.matrix/1`, PASS OR FAIL).\n"
    "\n"
    "The keys of a report (`a.b` is key `b` of object `a`). The top level holds `schema` to `run_stats` in this order;\n"
    "`verdict`, `thresholds` and `profile` are added after them; `run`, `ladder`, `loopback` and `imported` appear only\n"
    "when the run has them.\n";

static const char report_text_system[] =
    "Every report names the kernel it ran on and how it was set up, under `system` (`rtjitter compare` diffs it between\n"
    "runs). Nothing is guessed: what cannot be read is `null` or `\"unknown\"`, and derived values say where they came from.\n";

static const char report_text_rest[] =
    "## THE STORE\n"
    "\n"
    "Reports are saved as `$XDG_DATA_HOME/rtjitter/reports/<release>/<UTC timestamp>[-label].json` (default\n"
    "`~/.local/share/rtjitter/reports`; `--output DIR` replaces `.../rtjitter/reports`), in private (0700) directories,\n"
    "written whole (a hidden temporary file with a random name, fsync, link) and never over another report: a second run\n"
    "in the same second gets `.1.json`.\n"
    "\n"
    "Every report is saved as JSON in the store (`~/.local/share/rtjitter/reports/<kernel-release>/`, or `--output DIR`;\n"
    "`--json FILE` writes one more copy), and the path is printed last.\n"
    "\n"
    "Beside a report, `compare` keeps a small hidden **sidecar**, `.NAME.json.setup`: what it needs to match set-ups (the\n"
    "report's identity: machine, kernel, audio settings, label) and, once it has read the report whole, the report's\n"
    "run values (one figure per measure and load). A sidecar is used only while the report's size, modification time,\n"
    "inode and device are those it records; a report that changed, a sidecar that is missing, damaged, of another\n"
    "rtjitter version or not a regular file is never trusted: the report is read again (its identity alone, without\n"
    "parsing its phases) and a new sidecar is written through a temporary file beside it and renamed over the name (no\n"
    "symlink is followed). So a crowded store is not parsed report by report: 100 reports of 22 MB beside a compared\n"
    "pair take seconds, not minutes (`make bench`). Sidecars are a cache: deleting them loses nothing, a store made\n"
    "before them works as it is, and a directory `compare` may not write to only costs it speed.\n"
    "\n"
    "## TEXT\n"
    "\n"
    "**Text**: the verdict, the setting and the system identity, then an interbench-style table of the loads, fitted\n"
    "to the terminal (see READING THE REPORT in rtjitter(1); `--wide` for every column). The renderers take options (`struct\n"
    "render_opts`: width, wide, ASCII), found for stdout by `render_opts_detect()`; a file written through the table of\n"
    "renderers gets the defaults (80 columns, UTF-8).\n"
    "\n"
    "The text forms (`report`, `compare`, `compare --matrix`, a sweep, `run`'s own table, TAP, `import`'s summary,\n"
    "`check`, and every error that quotes a file or a name from the store) show what they were given the same way: a\n"
    "character a terminal would act on is shown visibly (`src/util/termtext.c`, the one function every text renderer's\n"
    "entry takes its document through): ESC as `\\e` (so `\\e]0;…\\x07`, which would set the window title, and `\\e[31m`,\n"
    "which would leave the text red, are printed, not obeyed), newline, carriage return and tab inside a string as `\\n`,\n"
    "`\\r`, `\\t`, the other C0 controls and DEL as `\\xHH`, the C1 controls (U+0080–U+009F) and the bidirectional\n"
    "embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069) as `\\uHHHH`, and a byte that is not UTF-8 as\n"
    "`\\xHH`; other text, `µs` or `日本`, is kept. `--format json` is the document itself, escaped by JSON.\n"
    "\n"
    "## HTML\n"
    "\n"
    "**HTML**: one self-contained file — inline CSS and SVG, no script, nothing fetched — that reads the same offline,\n"
    "as a mail attachment or with JavaScript off. It opens with the verdict in plain words and the system identity;\n"
    "then the results table across the page (|jitter| and wakeup p99, max, p99.9 and mean ± SD in µs with their share\n"
    "of the period, deadlines met, xruns, skipped cycles, and what the load did, one figure per line); a cell over the\n"
    "profile's limit is red (xruns, missed deadlines, skipped cycles, |jitter| over `--max-jitter-us`) or amber (|jitter|\n"
    "over the share of the period where the profile warns). Per load, a latency histogram (wakeup and |jitter| on one\n"
    "logarithmic µs axis that reaches below 1 µs when values do, and a logarithmic count axis, as realfeel and OSADL\n"
    "plot them, so one late cycle still shows) and a timeline: each second's maximum and p99 as steps on a logarithmic\n"
    "axis (so a 12 ms spike does not flatten every p99 line), a red mark on every second with xruns or missed\n"
    "deadlines, and a last second that ran only in part drawn over that part, the rest grey. Every plot draws the\n"
    "period, the deadline, as a dashed line; all plots of a page share one range per metric (latency, counts, timeline),\n"
    "so loads compare by eye; axes read in µs, ms and s; and under each plot, *how to read this* in a musician's words.\n"
    "The full identity and audio set-up close the page. A report that names culprits adds a *Culprits* section (per\n"
    "load its top culprits, the periodicity, the sampler's rate, window and cost in small print), a table of each\n"
    "load's xrun events and one of its spikes (the first 20, then how many more) with the top culprit, its basis as a\n"
    "badge (solid: observed, dashed: correlated), its evidence and the others folded, and on the timeline a diamond\n"
    "per event and a circle per spike at its wake-up, the top culprit as tooltip. The `compare` page draws, per load,\n"
    "an exceedance curve per report for wakeup and for |jitter| (the share of cycles later than x, log–log, the\n"
    "period marked; told apart by\n"
    "colour and dash), beside the side-by-side tables and the verdicts, coloured by outcome, and the culprits that\n"
    "came (red), went (green) or stayed between the baseline and each report. Every string from the\n"
    "system, a report or the command line is escaped by one function (`html_escape()`), which also replaces control\n"
    "characters, U+FFFE/U+FFFF and every byte that is not well-formed UTF-8 (the one strict check, `src/util/utf8.c`: no\n"
    "overlong forms, surrogates or code points above U+10FFFF) so that each SVG is well-formed XML; each plot states its\n"
    "axes in `data-*` attributes of its plot area and places every text inside the picture.\n"
    "\n"
    "## MEASUREMENT\n"
    "\n"
    "Per cycle, in the real-time thread (`rtaudio/`), rtjitter reads the clock at entry and exit, the provider's frame\n"
    "position and (JACK) `jack_frames_since_cycle_start()`, optionally burns the `--dsp` share of the period, and pushes\n"
    "one fixed-size, backend-neutral record (sequence number, entry and exit time, frame position, frames, rate, the\n"
    "provider's xrun counter, CPU, the provider's measured cycle start) into a lock-free single-producer/single-consumer\n"
    "ring. Nothing else happens there: no allocation, lock, blocking call, printf or file I/O (the first cycle, a\n"
    "warm-up cycle that is never measured, also reads the thread's scheduling policy so that the report states what the\n"
    "thread really got). A collector thread drains the ring every 50 ms into per-phase statistics: exact count, min and\n"
    "max, Welford mean and standard deviation, log-linear histograms from 1 µs to 10 s with under 1 % error in fixed\n"
    "memory, percentiles p50 to p99.99 (p99.9 and p99.99 are `null` when fewer than 1,000 or 10,000 cycles were\n"
    "measured: they would only repeat the maximum), and a per-second timeline (max and p99).\n"
    "\n"
    "- **One clock for every figure.** rtjitter reads its own clock for every time it reports. It also finds which clock\n"
    "  JACK's `jack_get_time()` follows (jack2: CLOCK_MONOTONIC_RAW; PipeWire: CLOCK_MONOTONIC) and in which unit, and\n"
    "  measures from that one; the report gives both offsets (`audio.clock_offsets_us`) and says `clock_ambiguous` when\n"
    "  it cannot tell (the two clocks agree when nothing slews them; neither matches within 50 ms) instead of refusing\n"
    "  the run.\n"
    "- **The cycle start is the measured one.** jack2's `current_usecs` is a DLL *prediction*; after a stall it lags the\n"
    "  real cycle starts by milliseconds for hundreds of cycles (seen here: 2.9 ms for 190 cycles after one 4.5 ms\n"
    "  stall), which would show as false wake-up latency and false missed deadlines. rtjitter takes the start the\n"
    "  provider measured, through `jack_frames_since_cycle_start()` (whole frames: ±half a frame, 10 µs at 48 kHz).\n"
    "  `--dsp` burns up to the same deadline the statistics use (that start plus one period), less a guard band (1/32 of\n"
    "  the period, at least 10 µs), so the stand-in for plugins never makes the misses it is there to provoke; a cycle\n"
    "  whose work was cut short at the guard band is counted apart (`dsp_cut_short`), and shows as desired CPU below\n"
    "  100 %, not as a missed deadline.\n"
    "- **`--dsp PCT` is a share of the real-time thread's CPU time.** The work is calibrated twice: a first figure from\n"
    "  300 short tries on the main thread, then, once the cycles run and before the first phase and its load, on the\n"
    "  real-time thread itself: for 0.15 s (or 12 periods) it burns nothing, then for as long the asked share (50 % for a\n"
    "  ramp), and the kernel's account of its CPU time (`/proc/self/task/TID/schedstat`, read by the main thread between\n"
    "  two cycles, never in the real-time path) gives the units it does per ns of its own CPU time, less what its cycles\n"
    "  cost without DSP. The short tries' best speed is not the thread's: `--dsp 50` burnt 57 % of the period on JACK\n"
    "  with it (a whole burn runs 6–14 % slower than the fastest of 300 short tries here). Each phase then gives the\n"
    "  share asked and the one the thread really used (`dsp_share`): its CPU time over the phase's cycles × the nominal\n"
    "  period, which includes the thread's own work per cycle (about 0.5 % at 5 ms, 1–3 % at 64 frames on this VM; the\n"
    "  calibration's `in_run.overhead_pct`). Interrupts that land while the thread runs are charged to it on a kernel\n"
    "  without `CONFIG_IRQ_TIME_ACCOUNTING`, so a busy machine can raise the measured share a little.\n"
    "- **Wake-up, and what it includes.** Wake-up is the lateness of the callback's entry against the ideal period\n"
    "  grid of the provider's frame clock, at ns resolution. For JACK (and any provider that gives no exact start) the\n"
    "  grid is fitted per segment from (frame position, entry time) as the lower envelope of the points, with the frame\n"
    "  clock's drift against the system clock followed (`src/stats/grid.c`): it measures lateness beyond the best cycles\n"
    "  around it (the constant part every cycle has, the server's own hand-over, is left out; everything that varies is\n"
    "  in). JACK's own cycle start, known to whole frames only (`jack_frames_since_cycle_start()`: 20.8 µs steps at\n"
    "  48 kHz), guides the grid: jack2's dummy driver re-anchors its schedule after an overrun, by however late that\n"
    "  cycle ended, while its frame clock goes on by one period per cycle, so its frame clock re-phases against real\n"
    "  time. rtjitter watches JACK's starts against the frame clock (the median of the last 8 cycles against the 8\n"
    "  before them): a step of more than 3 frames (40 µs at least) is a re-phase, and the grid is fitted anew from\n"
    "  there (`rephases` in the phase; the warm-up is watched too, since a load starting can make the server overrun).\n"
    "  A cycle whose whole-frame start is more than half a period off the grid is measured from that start\n"
    "  (`wakeup_coarse`). The detector needs about 5 cycles to see a step: the few cycles between a smaller re-phase\n"
    "  and its detection are measured against the old grid, late by the size of the step (seen in the test provider:\n"
    "  the p99 within 1-7 µs of the truth on a quiet machine, 15 µs off under `stress-ng` beside it). The report says what the figure includes per provider (`audio.wakeup_measured`: jack2's grid\n"
    "  follows its driver's schedule, so a late driver wake-up is included; PipeWire's driver starts a cycle at its\n"
    "  scheduled time). A provider that gives an exact start (a timer's deadline) is measured from it. The phase says\n"
    "  which (`wakeup_method`: `provider`, `grid` or `mixed`). Deadlines and margins use the provider's own start (to\n"
    "  whole frames for JACK), the one the `--dsp` burn stops at.\n"
    "- **Wake-up under PipeWire, and what it includes.** Under PipeWire's JACK (`pw-jack`) `jack_get_cycle_times()`\n"
    "  gives the driver's own start of the cycle (its `clock.nsec`: for the dummy driver, the time its timer was set\n"
    "  for), in whole µs on CLOCK_MONOTONIC; rtjitter takes it as the cycle's exact start (the middle of its µs:\n"
    "  resolution 1 µs) whenever it agrees with the whole-frame start within two frames (else that cycle falls back to\n"
    "  the grid, and the phase says `mixed`). No fitted grid, so none can be whole periods off after the driver stalls:\n"
    "  the report had wake-ups of −1.3 and −2.6 ms there before (a stall made the cycles that fell due meanwhile look\n"
    "  like a frame-clock discontinuity; the grid started over from a late cycle and measured the catch-up cycles\n"
    "  against it). So under PipeWire **ours** runs from the driver's scheduled start of the cycle to our callback's\n"
    "  entry: the driver's own lateness (its timer's wake-up, or a stall of the whole server), the graph's hand-over to\n"
    "  our node, our thread's wake-up and libjack's work before the callback. **pw-profiler's** awake − signal for our\n"
    "  node (`pw-profiler -o FILE`: the follower's \"signal\" and \"awake\" columns, times after the driver's signal) is only\n"
    "  the third part: from the moment the graph signals our node to our thread's wake-up. Each term is ≥ 0, so ours ≥\n"
    "  pw-profiler's in every cycle. Measured here (`tests/integration/truth_pipewire.sh`: a private PipeWire, dummy\n"
    "  driver, 64 frames at 48 kHz, stopped four times for 30 ms while rtjitter measures; min / p50 / p90 / p99 in µs):\n"
    "  quiet, ours 33.8 / 85.5 / 130.6 / 17956.9 against pw-profiler's 4 / 37 / 57 / 111; beside `stress-ng --cpu 2\n"
    "  --io 1`, ours 22.9 / 60.7 / 86.5 / 19005.4 against 0 / 24 / 43 / 62, and 26.1 / 61.2 / 93.7 / 28442.6 against\n"
    "  0 / 27 / 46 / 74. The difference at p50 (30–50 µs) is mostly the driver's own lateness and the graph's\n"
    "  hand-over to our node. The\n"
    "  stalls are in ours only (p99 and max: a 30 ms stall on the test's clock shows as a wake-up of about 30 ms, the\n"
    "  first cycle that fell due in it): pw-profiler never sees a stalled driver, since the graph signals our node only\n"
    "  when the driver finally runs, and the cycles it sampled before our node woke (status \"triggered\", 28–47 in those\n"
    "  runs) carry the previous cycle's awake time, so they are left out of its figures.\n"
    "- **Never earlier than its cycle.** No wake-up is reported earlier than its cycle by more than 1 µs (the stated\n"
    "  resolution of the exact starts). Against the fitted grid (jack2, ALSA without timestamps) a cycle that comes\n"
    "  before the grid shows the lower envelope was too high: the grid is lowered to it and its wake-up is 0, the\n"
    "  earliest cycle's (`wakeup_reanchored` counts them: 12 and 9 in two quiet 3,000-cycle jack2 runs here, minima\n"
    "  −0.9 and −1.0 µs; two such runs before this rule had minima of −22 and −66 µs). One half a period or more before it (a grid whole periods off) cannot be placed: it is\n"
    "  left out of the wake-up figures and counted (`wakeup_left_out`), never reported negative.\n"
    "- **Late cycles keep their lateness.** When the frame clock advanced more than one period since the previous\n"
    "  cycle, the cycles in between never ran: they are skipped cycles, each a missed deadline, and the wake-up of the\n"
    "  cycle that finally ran is measured from when the first skipped one was due (the previous start plus one period),\n"
    "  so a thread that woke three periods late shows three periods of wake-up, not a prompt start inside a gap.\n"
    "  *Deadlines met* is counted against the cycles the frame clock says should have run (frames advanced ÷ frames per\n"
    "  cycle), not against the callbacks seen. The margin of cycle *k* is the start of cycle *k+1* minus the exit of\n"
    "  *k*; when cycles were skipped, the start of *k* plus one period.\n"
    "- **Xrun events, notifications, gaps.** The headline is `xruns.events`: one per disturbance of the graph. A frame-clock\n"
    "  gap (a dropout) or a change of the provider's xrun counter starts an event, and every gap or notification that\n"
    "  follows before 8 cycles have run clean belongs to it (10.7 ms at 64 frames and 48 kHz, 42.7 ms at 256). Measured\n"
    "  (`tests/experiments/stall_events.sh`, results beside it): a client upstream of rtjitter that stalls 5, 20 or 50 ms,\n"
    "  five times, at 64, 128 or 256 frames, on jack2 1.9.21 and on PipeWire 0.3.65's JACK, quiet and beside\n"
    "  `stress-ng --cpu 2 --io 1`: every stall was exactly one event in all 32 cells; each event beyond the stalls\n"
    "  came where a canary thread (SCHED_FIFO 85) was late by half a period or more, another client saw the graph\n"
    "  skip, or the stalling client was notified itself. A stall makes one gap, when it ends (3, 15 or 37 periods at 64\n"
    "  frames); jack2 notifies during the stall and up to a cycle after it. jack2 delivers notifications on a thread of\n"
    "  the client's own that runs SCHED_OTHER: beside stress-ng (load 21) 2 of 8 jack2 cells had an event of one lone\n"
    "  notification that no observer saw, and none once rtjitter raised that thread to SCHED_FIFO 1 (above every\n"
    "  ordinary task, below every real-time one; 8 cells at load 19-22). No\n"
    "  longer rule would be true: in the 300 ms after the stalls' ends the graph was disturbed as often as in 300 ms\n"
    "  before their starts (the machine's own). Each phase lists its events, `events[] {t_s (the measurement clock), wall (UTC ISO 8601,\n"
    "  ms), length_ms (from its first disturbed cycle's due time to its last's entry), cycles (spanned, skipped ones\n"
    "  included), skipped, notifications}` (the latest 384 and the worst 128 of a segment; `events_summary` sums the\n"
    "  rest per minute and per culprit), and the\n"
    "  per-second timeline gives events per second. Beside it: `reported`, the provider's raw notifications (jack2\n"
    "  sends one per unfinished client and one per driver xrun — 20 notifications for 5 stalls in the xrun test —\n"
    "  while PipeWire collapses them and does not report a client's own overrun at all), `detected`, the frame-clock gaps,\n"
    "  and `skipped_cycles`. Each record carries the counter, so a notification belongs to the first cycle that saw it;\n"
    "  one first seen by the next phase's first warm-up records still belongs to the phase whose cycle caused it.\n"
    "- **What is not an xrun.** A gap in the records' sequence numbers is records lost to a full ring\n"
    "  (`records_lost`, never a frame gap); a frame clock that jumps back or far ahead of the time that passed (a server\n"
    "  restart, a PipeWire driver change) is a `discontinuity`; a catch-up record with the same frame time as the one\n"
    "  before is a `duplicate`, folded into the gap before it (its callback counts, it makes no period of its own).\n"
    "- **Exact times.** Each phase gives its first and last measured cycle on the measurement clock as integer ns\n"
    "  (`clock_window_ns`; `clock_window_s` is the same rounded), so events timed elsewhere on that clock can be lined up\n"
    "  with it (the xrun test does).\n"
    "- **Real time and memory.** The process locks its memory (`mlockall`) and prefaults the ring before the first\n"
    "  cycle. The report states whether the audio thread really ran SCHED_FIFO/RR and at which priority, and whether\n"
    "  memory was locked; when not, the run still goes on, with a warning saying how to get them (the `audio` group and\n"
    "  `/etc/security/limits.d/audio.conf`, which Debian's jackd2 package offers to set up; `jackd -R`).\n";

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
    fputs(".SH NAME\nrtjitter\\-report \\- the report of rtjitter: its JSON document, text and HTML\n"
          ".SH SYNOPSIS\n.I ~/.local/share/rtjitter/reports/RELEASE/TIME[\\-LABEL].json\n.SH DESCRIPTION\n", f);
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
