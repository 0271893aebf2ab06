#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-lock: rtburn (--dsp burns a share of each period in a SCHED_FIFO thread: never beside another such burn)
# Cycle count and mean period match the server's own frames, seen by another client (two settings, so nothing is
# hard-coded); --dsp burns the share of the period it was asked for (a quiet machine's promise: judged when the load
# average is under 1, see lib.sh's quiet_check; tests/integration/dsp_share.sh judges the share against the kernel's
# account of the thread always); a buffer-size change mid-run is recorded and the statistics are kept apart per size,
# each size's mean period against the server's frames in that segment.
. "$(dirname "$0")/../lib.sh"

for cfg in "48000 64 3" "44100 256 3"; do
    set -- $cfg
    rate=$1 period=$2 dur=$3
    name=$(server_name "$rate-$period")
    start_jackd "$name" "$rate" "$period" || { not_ok "jackd $rate/$period starts"; continue; }
    # The server's own frames, seen by another client on the same clock (tests/helpers/jack_frames): the truth for
    # the cycle count and the mean period, which a busy machine stretches (the dummy driver's sleeps end late).
    "$RTJ_HELPERS/jack_frames" "$name" >"$WORK/frames.log" 2>"$WORK/frames.err" &
    fpid=$!
    sleep 0.3
    "$RTJ" run --loads none --server "$name" --duration "$dur" --warmup 0.5 --quiet --json "$WORK/r.json" >"$WORK/out" 2>&1
    rc=$?
    sleep 0.2; kill -TERM "$fpid"; wait "$fpid"
    check "run on $rate Hz / $period frames exits 0 (got $rc)" [ "$rc" -eq 0 ]
    read -r _ _ cycles exp_cycles mean exp_mean _ _ gap < <(frames_check "$WORK/r.json" "$WORK/frames.log")
    skipped=$(json "$WORK/r.json" "d['phases'][0]['xruns']['skipped_cycles']")
    echo "# $rate/$period: cycles $cycles + skipped $skipped (the server ran $exp_cycles; $dur s x rate / period = $(python3 -c "print($dur * $rate / $period)")), mean period $mean us (the server's frames say $exp_mean; nominal $(python3 -c "print(round($period * 1e6 / $rate, 2))"))"
    check "cycles + skipped cycles in the measured window = the server's frames there / $period, within 1 % + 2 (+ $gap the observer missed at the ends)" \
        python3 -c "import sys; sys.exit(abs($cycles + $skipped - $exp_cycles) > 0.01 * $exp_cycles + 2 + $gap)"
    pc=$(period_check "$WORK/r.json" "$WORK/frames.log"); pcr=$?
    check "the server's own period (its frames per second) = the period measured, within 1 % ($pc)" [ "$pcr" = 0 ]
    check "report names the server, rate and period" \
        [ "$(json "$WORK/r.json" "d['audio']['server_name'], d['audio']['rate'], d['audio']['period_frames'], d['audio']['server']")" = "$name $rate $period external" ]
    check "report states the clock jack_get_time() follows (jack2: CLOCK_MONOTONIC_RAW)" \
        [ "$(json "$WORK/r.json" "d['audio']['clock'], d['audio']['provider']")" = "CLOCK_MONOTONIC_RAW jack2" ]
    check "real-time scheduling read from inside the callback" \
        [ "$(json "$WORK/r.json" "d['audio']['sched_policy'] in ('SCHED_FIFO','SCHED_RR') and d['audio']['realtime']")" = True ]
    stop_jackd "$JACKD_PID"
done

# --dsp 50: the callback takes about half the period, and all of that work is done in time.
name=$(server_name dsp)
start_jackd "$name" 48000 256 || not_ok "jackd for --dsp starts"
"$RTJ" run --loads none --server "$name" --duration 2 --warmup 0.5 --dsp 50 --quiet --json "$WORK/d.json" >"$WORK/out" 2>&1
cb=$(json "$WORK/d.json" "d['phases'][0]['dsp_load']['callback_mean_pct']")
dcpu=$(json "$WORK/d.json" "d['phases'][0]['desired_cpu_pct']")
echo "# --dsp 50: callback mean $cb % of the period, desired CPU $dcpu %"
# Beside other work the callback's time includes its preemptions (67 % once in CI) and the guard band cuts short
# the cycles that were preempted: both are a quiet machine's promises.
quiet_check "--dsp 50 makes the callback take 35-65 % of the period" python3 -c "import sys; sys.exit(not 35 <= $cb <= 65)"
quiet_check "--dsp 50 completes (almost) all of its work: desired CPU >= 95 %" python3 -c "import sys; sys.exit(not $dcpu >= 95)"
# --dsp 95: the burn stops a guard band before the deadline the statistics use, so it does not make the misses it is
# there to provoke (it gave 4.6 % deadlines met once: the burn ran half a frame past the collector's deadline).
"$RTJ" run --loads none --server "$name" --duration 2 --warmup 0.5 --dsp 95 --quiet --json "$WORK/d95.json" >"$WORK/out" 2>&1
d95=$(json "$WORK/d95.json" "(lambda p: (p['deadlines_met_pct'], p['margin_us']['p50'], p['dsp_cut_short'], p['desired_cpu_pct']))(d['phases'][0])")
echo "# --dsp 95: deadlines met %, margin p50 µs, cycles cut short, desired CPU %: $d95"
set -- $d95
quiet_check "--dsp 95: the typical cycle ends before its deadline (margin p50 $2 µs >= 0) and >= 90 % deadlines met ($1)" \
    python3 -c "import sys; sys.exit(not ($2 >= 0 and $1 >= 90))"
check "--dsp 95: cycles cut short by the guard band are counted, and only those lose work ($3 cut short, desired CPU $4 %)" \
    python3 -c "import sys; sys.exit(not (($3 > 0) == ($4 < 100)))"
"$RTJ" run --loads none --server "$name" --duration 1 --warmup 0.5 --quiet --json "$WORK/n.json" >"$WORK/out" 2>&1
check "without --dsp, desired CPU is null and the callback is short" \
    [ "$(json "$WORK/n.json" "d['phases'][0]['desired_cpu_pct'] is None and d['phases'][0]['dsp_load']['callback_mean_pct'] < 10")" = True ]

# A buffer-size change mid-run: two segments, never mixed, and a warning in the report.
"$RTJ_HELPERS/jack_frames" "$name" >"$WORK/bframes.log" 2>"$WORK/bframes.err" &
fpid=$!
sleep 0.3
"$RTJ" run --loads none --server "$name" --duration 6 --warmup 0.5 --quiet --json "$WORK/b.json" >"$WORK/out" 2>&1 &
rpid=$!
# the change comes 1.5 s after rtjitter's client is in the graph (past its 0.5 s warm-up), or 2.5 s after its start
# if jack_lsp has not shown the client by then: in a clean-clone CI run (load 6) the client was not there 2.5 s
# after the start once, and the whole run measured 128 frames; in a fresh-machine suite jack_lsp never showed it
# although it measured from its start (then the change came after the run: 256 only). Both are said here. The run
# lasts 6 s (4 s until ci32, where once beside a 13.2 ms stall no change was seen at all: 256 only) so that a late
# client or a set_bufsize tried again still changes the size well inside it.
t0=$(date +%s%N)
seen=
while [ $(( ($(date +%s%N) - t0) / 1000000 )) -lt 2500 ]; do
    jack_lsp -s "$name" >"$WORK/lsp.out" 2>"$WORK/lsp.err" && grep -q "^rtjitter-$rpid:in" "$WORK/lsp.out" &&
        { seen=$(( ($(date +%s%N) - t0) / 1000000 )); break; }
    sleep 0.05
done
if [ -n "$seen" ]; then
    echo "# rtjitter's client in the graph $seen ms after its start"
    sleep 1.5
else
    echo "# jack_lsp did not show rtjitter's client in 2.5 s (it listed $(wc -l <"$WORK/lsp.out") ports; $(head -c 200 "$WORK/lsp.err" | tr '\n' ' '))"
fi
# the helper is a JACK client of its own: beside the whole suite its open can fail (once, in a full RTJ_TEST_IDLE=1
# run, the size never changed); it is tried again, and what it said is shown
for i in 1 2 3 4 5; do
    "$RTJ_HELPERS/set_bufsize" "$name" 128 2>"$WORK/bufsize.err" && break
    echo "# set_bufsize failed (try $i): $(head -c 300 "$WORK/bufsize.err" | tr '\n' ' ')"
    sleep 0.2
done
wait "$rpid"
sleep 0.2; kill -TERM "$fpid"; wait "$fpid"
segs=$(json "$WORK/b.json" "sorted((p['period_frames'], round(p['period_us']['mean'])) for p in d['phases'])")
echo "# segments (frames, mean period us): $segs"
check "buffer change gives two segments, 128 and 256 frames" \
    python3 -c "import sys; s=$segs; sys.exit(not (len(s)==2 and s[0][0]==128 and s[1][0]==256))"
nseg=$(json "$WORK/b.json" "len(d['phases'])")
for i in $(seq 0 $((nseg - 1))); do
    read -r _ _ cycles exp_cycles mean exp_mean _ _ < <(frames_check "$WORK/b.json" "$WORK/bframes.log" "$i")
    fr=$(json "$WORK/b.json" "d['phases'][$i]['period_frames']")
    skipped=$(json "$WORK/b.json" "d['phases'][$i]['xruns']['skipped_cycles']")
    echo "# segment $fr: cycles $cycles + skipped $skipped (the server ran $exp_cycles), mean period $mean us (the server's frames there say $exp_mean)"
    pc=$(period_check "$WORK/b.json" "$WORK/bframes.log" "$i"); pcr=$?
    check "segment $fr: its own period = the server's there, within 1 % ($pc)" [ "$pcr" = 0 ]
done
check "buffer change is recorded" [ "$(json "$WORK/b.json" "d['audio']['buffer_changes'] >= 1 and any('buffer changed' in w for w in d['warnings'])")" = True ]
