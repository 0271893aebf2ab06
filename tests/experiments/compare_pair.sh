#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The A/A and A/B experiment of `rtjitter compare` with ONE run a side (issue 19: "compare must call a disaster"),
# what a musician does: one run before a change, one after. How often do two runs of one set-up get an "in this
# pair" outcome (worse_in_pair / better_in_pair: at most 1 pair in 20 may), and does every injected disaster get
# one? Then the same pairs with every other run of each set-up beside them (replicates: a call across runs).
# Not run by `make check` (about 10 minutes of wall time, little CPU); run it by hand after `make -j2 test-bins`:
#
#   [FIRST=N] tests/experiments/compare_pair.sh [ROUNDS] [SECONDS] [DIR]
#
# (FIRST: the number of the first round, to add rounds to a DIR; the comparisons take every round there.)
# Per round i (ROUNDS, default 10), one after another (never two at once: their stalls would be shared):
#   timer TA_i, TB_i     --backend timer, one thread pinned to CPU $CPU at SCHED_FIFO $PRIO, 2 phases (none,
#                        burn:threads=1) of SECONDS (default 6): an A/A pair of real runs of this machine
#   provider PA_i, PB_i  the test provider (tests/helpers/compare_prov) at SCHED_FIFO $PRIO, 1 phase of SECONDS,
#                        its exponential wake-up delays only: an A/A pair
#   provider UA_i, UB_i  the same with bursts of injected stalls in both (STALLS b8: each second, with probability
#                        1/4, a cluster of 8 stalls 8 ms long): an A/A pair whose events all come in clusters
#   provider D_i         7 stalls a second, evenly spaced, 8 ms each (42 xrun events in 6 s): the disaster, against PB_i
#   provider L_i         300 µs more on every cycle's wake-up (22 % of the 1333 µs period, no dropout): a latency
#                        change, against PB_i (how often one pair shows it is measured, not required)
# Labels keep the set-ups apart (pair-aa; testprov, testprov-bursty, testprov-stall7, testprov+300us): compare takes
# the runs of one set-up and label beside a report as its other runs.
# Then each pair is compared twice:
#   alone  `compare --alone`: one run a side, as a musician has them
#   runs   every other run of each set-up beside the pair (after the experiment)
# and for the bursty A/A pairs also by a plain Poisson test of their total xrun events (exact conditional binomial,
# computed here, p < 0.01): what compare would call if it counted events as independent.
# The machine around each run is kept beside it (RUN.ctx: the steal time of its CPUs and the load average) and every
# second the real-time threads not of this experiment at or above PRIO on CPU are logged (foreign.log): an A/A pair
# with an "in this pair" outcome is a run in another state of the machine, and this says what was there.
# With SKIP_RUNS=1 and an existing DIR, only the comparisons are done again.
main() {
set -u
cd "$(dirname "$0")/../.." || exit 2
RTJ=${RTJ:-./rtjitter}
H=${RTJ_HELPERS:-build/tests/helpers}
ROUNDS=${1:-10}
FIRST=${FIRST:-1}
DUR=${2:-6}
DIR=${3:-$(mktemp -d "${TMPDIR:-/tmp}/rtjt-pair-exp.XXXXXX")}
CPU=${CPU:-$(($(nproc) - 1))}
PRIO=${PRIO:-95}
mkdir -p "$DIR/runs"
export XDG_DATA_HOME="$DIR/xdg"
for b in "$RTJ" "$H/compare_prov"; do
    [ -x "$b" ] || { echo "missing $b: make -j2 test-bins" >&2; exit 2; }
done
R="$DIR/runs"

# The machine around each run: the steal time of every CPU (the host ran something else on our vCPUs: /proc/stat,
# USER_HZ ticks of 10 ms) during it, and the load average at its start. A whole run in a worse state of the machine
# is what one pair cannot tell from a change of set-up; this says when it happened.
steal_ms() { awk '$1 == "cpu" { print $9 * 10 }' /proc/stat; }
ctx() { # OUT COMMAND...: run COMMAND, and write OUT.ctx "steal_ms load1"
    local out=$1; shift
    echo "${out##*/}" >"$DIR/current"
    local s0 l0; s0=$(steal_ms); l0=$(cut -d' ' -f1 /proc/loadavg)
    "$@"
    echo "$(( $(steal_ms) - s0 )) $l0" >"$out.ctx"
}

timer_run() { # OUT
    nice "$RTJ" run --backend timer --cpus "$CPU" --priority "$PRIO" --loads none,burn:threads=1 --duration "$DUR" \
        --warmup 0.5 --label pair-aa --quiet --output "$DIR/store" --json "$1" >"$1.log" 2>&1
    local rc=$?
    [ "$rc" -eq 0 ] || [ "$rc" -eq 1 ] || echo "# run $1 exited $rc" >&2
}

prov_run() { # OUT EXTRA_US SEED LABEL STALLS
    "$H/compare_prov" "$1" "$DUR" 1 "$2" "$3" "$PRIO" "$4" - "$5" >"$1.log" 2>&1 || echo "# compare_prov $1 failed" >&2
}

. tests/experiments/watch_foreign.sh   # watch_foreign: the real-time threads not of this experiment
# the steal time of RUN in ms (0 when not known)
steal_of() { local c; c=$(cat "$R/$1.ctx" 2>/dev/null); c=${c%% *}; echo "${c:-0}"; }
# the foreign real-time threads at or above PRIO on CPU while RUN was measured: "comm/prio ..." or "-"
foreign() {
    awk -v r="$1" -v prio="$PRIO" -v cpu="$CPU" '$2 == r && $7 + 0 >= prio + 0 && $8 == cpu { s[$9 "/" $7] = 1 }
        END { n = 0; for (k in s) { printf "%s%s", n++ ? "," : "", k } if (!n) printf "-" }' "$DIR/foreign.log" 2>/dev/null || echo -
}

if [ "${SKIP_RUNS:-0}" != 1 ]; then
    echo "# rounds $FIRST to $((FIRST + ROUNDS - 1)) of $DUR s phases, CPU $CPU, SCHED_FIFO $PRIO, reports in $DIR; load: $(cut -d' ' -f1-3 /proc/loadavg)"
    # The idle trap (tests/README.md): at rest this VM's idle vCPUs wake milliseconds late, and the provider, unlike
    # rtjitter's timer runs, does not hold /dev/cpu_dma_latency. HOLD_DMA=1 (the default where it is writable) holds
    # it at 0 for the whole experiment, as rtjitter's own timer runs do; HOLD_DMA=0 leaves it.
    DPID=
    if [ "${HOLD_DMA:-1}" = 1 ] && [ -w /dev/cpu_dma_latency ]; then
        bash -c 'exec 3>/dev/cpu_dma_latency && printf 0 >&3 && exec setpriv --pdeathsig KILL sleep infinity' &
        DPID=$!
        echo "# /dev/cpu_dma_latency held at 0 for the experiment (HOLD_DMA=0 leaves it)"
    else
        echo "# /dev/cpu_dma_latency not held by the experiment"
    fi
    watch_foreign &
    WPID=$!
    trap 'kill "$WPID" $DPID 2>/dev/null' EXIT
    trap 'exit 3' INT TERM
    for i in $(seq "$FIRST" $((FIRST + ROUNDS - 1))); do
        ctx "$R/TA$i" timer_run "$R/TA$i.json"
        ctx "$R/TB$i" timer_run "$R/TB$i.json"
        ctx "$R/PA$i" prov_run "$R/PA$i.json" 0 $((1000 + i)) testprov 0
        ctx "$R/PB$i" prov_run "$R/PB$i.json" 0 $((2000 + i)) testprov 0
        ctx "$R/UA$i" prov_run "$R/UA$i.json" 0 $((3000 + i)) testprov-bursty b8
        ctx "$R/UB$i" prov_run "$R/UB$i.json" 0 $((4000 + i)) testprov-bursty b8
        ctx "$R/D$i" prov_run "$R/D$i.json" 0 $((5000 + i)) testprov-stall7 7
        ctx "$R/L$i" prov_run "$R/L$i.json" 300 $((6000 + i)) testprov+300us 0
        echo "# round $i done $(date +%T), load $(cut -d' ' -f1 /proc/loadavg)"
    done
    echo "" >"$DIR/current"
    kill "$WPID" $DPID 2>/dev/null; wait "$WPID" $DPID 2>/dev/null
fi

# one comparison: "pair runs poisson|outcome,outcome,...|called..." where pair counts the in-this-pair outcomes,
# runs the calls (worse/better), each verdict as load/metric=outcome
cmp_pair() { # MODE A B OUT.json
    local alone=; [ "$1" = alone ] && alone=--alone
    "$RTJ" compare $alone "$2" "$3" --json "$4" --quiet 2>"${4%.json}.err"
    python3 - "$4" "$2" "$3" <<'PY'
import json, math, sys
d = json.load(open(sys.argv[1]))
pair = calls = 0
what = []
for l in d['loads']:
    for v in l['verdicts']:
        o = v['outcome']
        pair += o in ('worse_in_pair', 'better_in_pair')
        calls += o in ('worse', 'better')
        if o not in ('same', 'n/a'):
            what.append('%s/%s=%s' % (l['load'], v['metric'].replace(' ', '_'), o))
# a plain Poisson test of the total xrun events of the first phase (equal measured time): the exact conditional
# binomial test, two-sided, P(X as or less likely than the one seen), X ~ Bin(ka + kb, 1/2)
ka, kb = (json.load(open(f))['phases'][0]['xruns']['events'] for f in sys.argv[2:4])
k = ka + kb
pk = [math.comb(k, x) / 2 ** k for x in range(k + 1)]
pp = min(1.0, sum(q for q in pk if q <= pk[kb] * (1 + 1e-9))) if k else 1.0
print(pair, calls, '%d->%d:%.2g' % (ka, kb, pp), ';'.join(what) or '-')
PY
}

tally() { # MODE
    local mode=$1 out="$DIR/cmp-$1"
    mkdir -p "$out"
    echo "== $mode"
    declare -A n=() hit=() both=() stolen=()
    local kinds="aa-timer aa-prov aa-bursty stall7 plus300" poisson_called=0 poisson_n=0
    for i in $(seq 1 $((FIRST + ROUNDS - 1))); do
        for kind in $kinds; do
            case $kind in
                aa-timer) a=TA$i b=TB$i ;;
                aa-prov) a=PA$i b=PB$i ;;
                aa-bursty) a=UA$i b=UB$i ;;
                stall7) a=PB$i b=D$i ;;
                plus300) a=PB$i b=L$i ;;
            esac
            [ -f "$R/$a.json" ] && [ -f "$R/$b.json" ] || continue
            read -r pair calls pois what < <(cmp_pair "$mode" "$R/$a.json" "$R/$b.json" "$out/$kind$i.json")
            n[$kind]=$((${n[$kind]:-0} + 1))
            local ok=0
            case $kind in
                aa-*) # two runs of one set-up: nothing in this pair (alone), nothing called (runs)
                    if [ "$mode" = alone ]; then [ "$pair" -eq 0 ] && [ "$calls" -eq 0 ] && ok=1
                    else [ "$calls" -eq 0 ] && ok=1; fi ;;
                stall7) # the disaster must be found: xruns or missed deadlines worse, and nothing better
                    w=worse_in_pair; [ "$mode" = runs ] && w=worse
                    echo "$what" | grep -qE "(xruns|deadlines_missed)=$w" && ! echo "$what" | grep -q "=better" && ok=1
                    [ "$ok" = 1 ] && echo "$what" | grep -q "xruns=$w" && echo "$what" | grep -q "deadlines_missed=$w" &&
                        both[$kind]=$((${both[$kind]:-0} + 1)) ;;
                plus300)
                    w=worse_in_pair; [ "$mode" = runs ] && w=worse
                    echo "$what" | grep -q "wakeup_p99/s=$w" && ok=1 ;;
            esac
            hit[$kind]=$((${hit[$kind]:-0} + ok))
            # an A/A pair with an outcome, one of whose runs lost a second or more to the host (steal)
            case $kind in aa-*) [ "$ok" = 0 ] && [ "$(steal_of "$a")" -ge 1000 -o "$(steal_of "$b")" -ge 1000 ] &&
                stolen[aa]=$((${stolen[aa]:-0} + 1)) ;; esac
            if [ "$kind" = aa-bursty ]; then
                poisson_n=$((poisson_n + 1))
                awk -v p="${pois##*:}" 'BEGIN { exit !(p < 0.01) }' && poisson_called=$((poisson_called + 1))
            fi
            local ca cb; ca=$(cat "$R/$a.ctx" 2>/dev/null || echo "? ?"); cb=$(cat "$R/$b.ctx" 2>/dev/null || echo "? ?")
            printf '%-9s %2d: in this pair %d, called %d  [xrun events %s; steal ms %s/%s, load %s/%s; foreign RT >= %s on cpu%s: %s/%s]  %s\n' \
                "$kind" "$i" "$pair" "$calls" "$pois" "${ca% *}" "${cb% *}" "${ca#* }" "${cb#* }" "$PRIO" "$CPU" \
                "$(foreign "$a")" "$(foreign "$b")" "$what"
        done
    done
    local aa_bad=$(( ${n[aa-timer]:-0} - ${hit[aa-timer]:-0} + ${n[aa-prov]:-0} - ${hit[aa-prov]:-0} + ${n[aa-bursty]:-0} - ${hit[aa-bursty]:-0} ))
    local aa_all=$(( ${n[aa-timer]:-0} + ${n[aa-prov]:-0} + ${n[aa-bursty]:-0} ))
    if [ "$mode" = alone ]; then
        echo "[alone] A/A pairs with an in-this-pair outcome (or a call): $aa_bad of $aa_all (allowed: at most 1 in 20)" \
             "- timer $(( ${n[aa-timer]:-0} - ${hit[aa-timer]:-0} )) of ${n[aa-timer]:-0}," \
             "provider $(( ${n[aa-prov]:-0} - ${hit[aa-prov]:-0} )) of ${n[aa-prov]:-0}," \
             "bursty provider $(( ${n[aa-bursty]:-0} - ${hit[aa-bursty]:-0} )) of ${n[aa-bursty]:-0}"
        echo "[alone]   of which ${stolen[aa]:-0} had a run that lost 1 s or more to the host (steal time of the VM)"
        echo "[alone] bursty A/A pairs a plain Poisson test of the total xrun events calls (p < 0.01): $poisson_called of $poisson_n"
        echo "[alone] the disaster, 7 stalls a second: worse in this pair (xruns or missed deadlines, nothing better) in ${hit[stall7]:-0} of ${n[stall7]:-0} (must be all), both in ${both[stall7]:-0}"
        echo "[alone] the latency change, +300 µs (no dropout): wakeup p99/s worse in this pair in ${hit[plus300]:-0} of ${n[plus300]:-0}"
    else
        echo "[runs] A/A pairs with a call: $aa_bad of $aa_all - timer $(( ${n[aa-timer]:-0} - ${hit[aa-timer]:-0} ))," \
             "provider $(( ${n[aa-prov]:-0} - ${hit[aa-prov]:-0} )), bursty $(( ${n[aa-bursty]:-0} - ${hit[aa-bursty]:-0} ))"
        echo "[runs] 7 stalls a second: worse across runs (xruns or missed deadlines, nothing better) in ${hit[stall7]:-0} of ${n[stall7]:-0}, both in ${both[stall7]:-0}"
        echo "[runs] +300 µs: wakeup p99/s worse across runs in ${hit[plus300]:-0} of ${n[plus300]:-0}"
    fi
}
tally alone
tally runs
echo "reports in $R, comparisons in $DIR/cmp-alone and $DIR/cmp-runs"
}
# the whole script is read before it runs (main), so that editing the file does not disturb a run
main "$@"; exit $?
