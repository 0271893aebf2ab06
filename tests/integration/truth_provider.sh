#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Measurement truth against injected truth (issue 8): the test provider (tests/helpers/testprov.c) drives the real
# sink, ring, collector and statistics from a SCHED_FIFO timer thread and knows its truth by construction —
# wake-up delays it scheduled, threads it woke whole periods late, records it lost in a small ring, frame-clock
# jumps and duplicates it made. Nothing here is checked against the estimator's own model or nominal periods, so it
# holds on a busy machine too (spontaneous late wake-ups are counted by the provider as well).
. "$(dirname "$0")/../lib.sh"

prov() { "$RTJ_HELPERS/testprov" "$1" "${2:-3000}" >"$WORK/$1.json"; }
# The scenarios are independent and each knows its truth by construction (the same entry times make the truth and
# the figures), so they run up to three at a time: ~35 s instead of ~55 s of CI. The JACK-like one (rephase) is
# truth_rephase.sh, a solo test: its grid is the most sensitive to a CPU shared with other SCHED_FIFO threads. A scenario below only reads its file.
for group in "delays late drops" "jumps dups" "drift+:4000 drift-:4000"; do
    for sc in $group; do prov "${sc%%:*}" "$([ "${sc#*:}" != "$sc" ] && echo "${sc#*:}" || echo 3000)" & done
    wait
done
prov() { :; } # done above
g() { json "$WORK/$1.json" "d['got']['$2']"; }
t() { json "$WORK/$1.json" "d['truth']['$2']"; }
# close GOT TRUTH: within 2 µs or 2 %
close() { python3 -c "import sys; g, t = $1, $2; sys.exit(not abs(g - t) <= max(2.0, 0.02 * abs(t)))"; }

prov delays
echo "# delays: got p50 $(g delays wakeup_p50_us) p99 $(g delays wakeup_p99_us) max $(g delays wakeup_max_us); truth p50 $(t delays wakeup_p50_us) p99 $(t delays wakeup_p99_us) max $(t delays wakeup_max_us)"
check "injected delays: wake-up p50 within 2 µs or 2 % of the truth" close "$(g delays wakeup_p50_us)" "$(t delays wakeup_p50_us)"
check "injected delays: wake-up p99 within 2 µs or 2 % of the truth" close "$(g delays wakeup_p99_us)" "$(t delays wakeup_p99_us)"
check "injected delays: every cycle that woke a period late is one event ($(g delays events) = $(t delays late_events))" \
    [ "$(g delays events)" = "$(t delays late_events)" ]

prov late
echo "# late: events $(g late events) truth $(t late late_events); skipped $(g late skipped_cycles) truth $(t late skipped); max $(g late wakeup_max_us) truth $(t late wakeup_max_us)"
check "threads 1.5 and 3 periods late: at least the 5 injected, each one event, exactly as many as happened" \
    [ "$(t late late_events)" -ge 5 -a "$(g late events)" = "$(t late late_events)" ]
check "... the skipped cycles counted exactly ($(g late skipped_cycles))" [ "$(g late skipped_cycles)" = "$(t late skipped)" ]
check "... and missed: deadlines missed >= skipped cycles" [ "$(g late deadlines_missed)" -ge "$(t late skipped)" ]
check "... a late cycle keeps its true lateness: wake-up max within 2 µs or 2 % of the truth" \
    close "$(g late wakeup_max_us)" "$(t late wakeup_max_us)"
check "... and the p99 too" close "$(g late wakeup_p99_us)" "$(t late wakeup_p99_us)"

prov drops
echo "# drops: records lost $(g drops records_lost), dropped $(g drops dropped), ring dropped $(t drops ring_dropped) (and $(t drops lost_warmup) of the warm-up; $(t drops lost_across) in a gap from the warm-up, $(t drops lost_at_end) after the last record through); events $(g drops events) truth $(t drops late_events)"
# The provider loses records on purpose at both edges of the measured part, where no gap between two measured
# records shows them: in a gap that began in the warm-up, and after the last record that got through.
check "a full ring, lost at both edges of the measured part too ($(t drops lost_across) from the warm-up, $(t drops lost_at_end) at the end)" \
    [ "$(t drops lost_warmup)" -gt 0 -a "$(t drops lost_across)" -gt 0 -a "$(t drops lost_at_end)" -gt 0 ]
check "... records lost = the ring's own drop count of the measured records ($(t drops ring_dropped)), none of the warm-up's" \
    [ "$(t drops ring_dropped)" -gt 100 -a "$(g drops records_lost)" = "$(t drops ring_dropped)" ]
check "... and the phase's dropped the same ($(g drops dropped))" [ "$(g drops dropped)" = "$(t drops ring_dropped)" ]
check "... and no xrun from lost records (events = the provider's late wake-ups)" [ "$(g drops events)" = "$(t drops late_events)" ]

prov jumps
check "frame clock back 100 s and on 1 h: 2 discontinuities, no xrun, no skipped cycles ($(g jumps discontinuities), $(g jumps events), $(g jumps skipped_cycles))" \
    [ "$(g jumps discontinuities)" = 2 -a "$(g jumps events)" = "$(t jumps late_events)" -a "$(g jumps skipped_cycles)" = "$(t jumps skipped)" ]

prov dups
check "catch-up duplicates: each counted ($(g dups duplicates) of $(json "$WORK/dups.json" "d['dups']")), none an event or a cycle" \
    [ "$(g dups duplicates)" = "$(json "$WORK/dups.json" "d['dups']")" -a "$(g dups events)" = "$(t dups late_events)" ]
# A duplicate a few µs after its cycle would make a period of a few µs if it were taken for a cycle. The shortest
# period must be the provider's own shortest between real cycles (a busy machine makes short ones of its own: a
# cycle woke late, the next on time), not one of a few µs.
check "... and no tiny period from them (period min $(json "$WORK/dups.json" "d['got']['period_us']['min']") µs, the provider's own $(t dups period_min_us) µs)" \
    python3 -c "import sys; g, t = $(json "$WORK/dups.json" "d['got']['period_us']['min']"), $(t dups period_min_us); sys.exit(not abs(g - t) <= max(2.0, 0.02 * t))"

# A provider that gives no cycle start: the statistics fit the frame clock's grid (src/stats/grid.c). Its frame clock
# runs 100 ppm fast, then slow, against the system clock (130 µs a second: it would swamp every figure if the grid
# did not follow it). The grid measures lateness beyond the earliest cycles, so the truth is the provider's own
# (entry - ideal start) less its minimum. The grid's zero is the best case of a window of a few seconds, the truth's
# the best cycle of the whole run: on a quiet machine they agree within 2-4 µs, on a busy one the window's best
# case sits higher (seen: 12 µs, and 15.6 µs once in a full make check), the same for every cycle. So the spread
# (p99 - p50), which no common offset moves, must agree within 2 µs + 2 % of the truth's p99 (the histogram's buckets
# are 1.6 % wide: at a p99 near 290 µs the percentile alone moves by 4.6 µs; seen: 0.3-3.2 µs apart), and the levels
# within 25 µs or 5 %. A grid that did not follow the drift would be off by 100 ppm x the run: 500 µs here.
close8() { python3 -c "import sys; g, t = $1, $2; sys.exit(not abs(g - t) <= max(25.0, 0.05 * abs(t)))"; }
# ... plus how far the best case itself moved over the run (the truth's level_range_us: the lowest true lateness of
# each grid window, its range), which a common offset does not cover: beside stress-ng the spread was 12.8 µs off
# where 2 + 2 % allowed 11.6.
close_spread() { python3 -c "import sys; g, t, p99, lr = $1, $2, $3, $4; sys.exit(not abs(g - t) <= 2.0 + 0.02 * p99 + lr)"; }
for sc in drift+ drift-; do
    prov "$sc" 4000
    gm=$(json "$WORK/$sc.json" "d['truth']['wakeup_min_us']")
    echo "# $sc: got p50 $(g "$sc" wakeup_p50_us) p99 $(g "$sc" wakeup_p99_us); truth less its minimum: p50 $(json "$WORK/$sc.json" "d['truth']['wakeup_p50_us'] - $gm") p99 $(json "$WORK/$sc.json" "d['truth']['wakeup_p99_us'] - $gm")"
    check "$sc ppm frame clock, no provider start: every cycle measured against the fitted grid" \
        [ "$(g "$sc" wake_grid)" = "$(g "$sc" cycles)" ]
    lr=$(json "$WORK/$sc.json" "d['truth']['level_range_us']")
    check "$sc: wake-up spread p99 - p50 within 2 µs + 2 % of p99 of the truth's, and the $lr µs the best case moved" close_spread \
        "$(json "$WORK/$sc.json" "d['got']['wakeup_p99_us'] - d['got']['wakeup_p50_us']")" \
        "$(json "$WORK/$sc.json" "d['truth']['wakeup_p99_us'] - d['truth']['wakeup_p50_us']")" \
        "$(json "$WORK/$sc.json" "d['truth']['wakeup_p99_us'] - $gm")" "$lr"
    check "$sc: wake-up p50 within 25 µs or 5 % of the truth" close8 "$(g "$sc" wakeup_p50_us)" "$(json "$WORK/$sc.json" "d['truth']['wakeup_p50_us'] - $gm")"
    check "$sc: wake-up p99 within 25 µs or 5 % of the truth" close8 "$(g "$sc" wakeup_p99_us)" "$(json "$WORK/$sc.json" "d['truth']['wakeup_p99_us'] - $gm")"
done
