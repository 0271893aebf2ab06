#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The A/A experiment of `rtjitter compare` (issue 8): on THIS machine, busy as it is, are two back-to-back runs of
# one set-up called "no clear difference" in every measure, and is a real change found? Not run by `make check`
# (it takes many minutes); run it by hand after `make -j2 test-bins`:
#
#   tests/experiments/compare_aa.sh [PAIRS] [SECONDS_PER_PHASE] [DIR]
#
# Per round i (PAIRS rounds, default 10), back to back:
#   timer A_i, timer A'_i          two runs of one set-up: --backend timer, one thread pinned to CPU $CPU at
#                                  SCHED_FIFO $PRIO, 2 phases (none, burn:threads=1) of SECONDS each
#                                  -> an A/A pair (A_i, A'_i)
#   timer H_i                      the same with a SCHED_FIFO hog of higher priority ($HOG_PRIO) on that CPU
#                                  spinning 30 % of the time (tests/helpers/cpu_hog: 3 ms every 10 ms) -> (A'_i, H_i)
#   provider P_i, P'_i, Q_i        the test provider (tests/helpers/compare_prov) at SCHED_FIFO $PRIO: the same
#                                  injected wake-up delays twice (P, P': an A/A pair), then EXTRA_US (default 50)
#                                  µs more on every cycle (Q)
# PRIO defaults to 95: on this shared machine other test suites run SCHED_FIFO threads of their own at 70 (private
# jackd, rtjitter, --dsp burns) and hogs at 90; the measured set-up is "the audio thread above them", as a studio
# would set it. Every second, the SCHED_FIFO/RR threads that are not this experiment's are logged (foreign.log);
# a pair during whose runs one ran at or above PRIO on the measured CPU is counted apart as well as in the total.
# Each set-up has a label of its own (aa-exp, aa-exp-hog, testprov+0us, testprov+50us): compare takes the runs of
# one set-up and label found beside a report as that set-up's other runs, its run-to-run noise (the person running
# a hog beside the audio knows it and names the run so). Then `rtjitter compare` of each pair, in two ways (see
# tally() below), and the counts: A/A pairs with "no clear difference" in every measure (must be >= 9 of 10) and
# changed pairs where the change was found (must be >= 9 of 10). A pair with an outcome "worse/better in this pair"
# (issue 19; "weak" before it: the two runs differ, with no other run to weigh it against) is not a call: it counts
# as no clear difference here, and a change judged so as not found. The same with ONE run a side, and injected
# disasters (stalls): tests/experiments/compare_pair.sh.
# With SKIP_RUNS=1 and an existing DIR, only the comparisons are done again (on the reports already there).
set -u
cd "$(dirname "$0")/../.." || exit 2
RTJ=${RTJ:-./rtjitter}
H=${RTJ_HELPERS:-build/tests/helpers}
PAIRS=${1:-10}
DUR=${2:-12}
DIR=${3:-$(mktemp -d "${TMPDIR:-/tmp}/rtjt-aa-exp.XXXXXX")}
CPU=${CPU:-$(($(nproc) - 1))}
WARM=0.5
EXTRA_US=${EXTRA_US:-50}
PRIO=${PRIO:-95}
HOG_PRIO=${HOG_PRIO:-98}
mkdir -p "$DIR"
export XDG_DATA_HOME="$DIR/xdg"
for b in "$RTJ" "$H/cpu_hog" "$H/compare_prov"; do
    [ -x "$b" ] || { echo "missing $b: make -j2 test-bins" >&2; exit 2; }
done
HOG_PID=
WATCH_PID=
cleanup() {
    [ -n "$HOG_PID" ] && kill "$HOG_PID" 2>/dev/null
    [ -n "$WATCH_PID" ] && kill "$WATCH_PID" 2>/dev/null
    wait 2>/dev/null
}
trap cleanup EXIT
trap 'exit 3' INT TERM

timer_run() { # OUT [hog]
    "$RTJ" run --backend timer --cpus "$CPU" --priority "$PRIO" --loads none,burn:threads=1 --duration "$DUR" --warmup "$WARM" \
        --label "aa-exp${2:+-$2}" --quiet --output "$DIR/store" --json "$1" >"$1.log" 2>&1 &
    local rpid=$!
    if [ "${2:-}" = hog ]; then
        # 3 ms of 10 ms at priority 90 (the measured thread has 70), from 0.2 s on until the run ends
        local n=$(python3 -c "print(int((2 * ($DUR + $WARM) + 6) * 100))")
        "$H/cpu_hog" "$CPU" "$HOG_PRIO" 3 10 "$n" 200 >"$1.hog" 2>&1 &
        HOG_PID=$!
    fi
    wait "$rpid"
    local rc=$?
    if [ -n "$HOG_PID" ]; then kill "$HOG_PID" 2>/dev/null; wait "$HOG_PID" 2>/dev/null; HOG_PID=; fi
    [ "$rc" -eq 0 ] || [ "$rc" -eq 1 ] || echo "# run $1 exited $rc" >&2
}

prov_run() { # OUT EXTRA_US SEED
    "$H/compare_prov" "$1" "$DUR" 2 "$2" "$3" "$PRIO" "testprov+$2us" >"$1.log" 2>&1 || echo "# compare_prov $1 failed" >&2
}

. tests/experiments/watch_foreign.sh   # watch_foreign: the real-time threads not of this experiment

if [ "${SKIP_RUNS:-0}" != 1 ]; then
    echo "# $PAIRS rounds, 2 phases x $DUR s, CPU $CPU, SCHED_FIFO $PRIO (hog $HOG_PRIO), +$EXTRA_US µs, reports in $DIR; load: $(cut -d' ' -f1-3 /proc/loadavg)"
    watch_foreign &
    WATCH_PID=$!
    for i in $(seq "$PAIRS"); do
        for r in A B H P R Q; do
            echo "$r$i" >"$DIR/current"
            case $r in
                A|B) timer_run "$DIR/$r$i.json" ;;
                H) timer_run "$DIR/H$i.json" hog ;;
                P) prov_run "$DIR/P$i.json" 0 $((1000 + i)) ;;
                R) prov_run "$DIR/R$i.json" 0 $((2000 + i)) ;;
                Q) prov_run "$DIR/Q$i.json" "$EXTRA_US" $((3000 + i)) ;;
            esac
        done
        echo "# round $i done $(date +%T), load $(cut -d' ' -f1 /proc/loadavg)"
    done
    echo "" >"$DIR/current"
    kill "$WATCH_PID" 2>/dev/null; wait "$WATCH_PID" 2>/dev/null; WATCH_PID=
fi

# foreign RUN: the real-time threads not of this experiment seen while RUN was measured, on the measured CPU at or
# above PRIO (they can delay the measured thread whatever it does): "comm/prio/cpu ..." or "-"
foreign() {
    awk -v r="$1" -v prio="$PRIO" -v cpu="$CPU" '$2 == r && $7 + 0 >= prio + 0 && $8 == cpu { s[$9 "/" $7 "/cpu" $8] = 1 }
        END { n = 0; for (k in s) { printf "%s%s", n++ ? "," : "", k } if (!n) printf "-" }' "$DIR/foreign.log" 2>/dev/null || echo -
}

# outcome counts of one comparison: "better worse same in-pair runs called" over every verdict of every load; runs:
# how many other runs of each side's set-up compare found beside the two (its run-to-run noise)
cmp_pair() { # A B OUT.json
    "$RTJ" compare "$1" "$2" --json "$3" --quiet 2>"${3%.json}.err"
    python3 - "$3" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
c = {'better': 0, 'worse': 0, 'same': 0, 'worse_in_pair': 0, 'better_in_pair': 0, 'n/a': 0}
called = []
for l in d['loads']:
    for v in l['verdicts']:
        c[v['outcome']] = c.get(v['outcome'], 0) + 1
        if v['outcome'] in ('better', 'worse'):
            called.append('%s/%s %s' % (l['load'], v['metric'], v['outcome']))
runs = '+'.join(str(len(r.get('replicates') or [])) for r in d['reports'])
print(c['better'], c['worse'], c['same'], c['worse_in_pair'] + c['better_in_pair'], runs, ';'.join(called) or '-')
PY
}

# The comparisons, in two ways:
#   all     every pair with all the experiment's runs beside it (the store after the experiment: each set-up's
#           other runs known, as after a user ran each set-up several times)
#   causal  pair i with only the runs of rounds 1..i beside it (what a user comparing right after round i gets:
#           in round 1 no set-up has another run, and nothing can be called)
tally() { # MODE
    local mode=$1 aa_ok=0 aa_n=0 hog_ok=0 hog_n=0 pa_ok=0 pa_n=0 inj_ok=0 inj_n=0 aa_dist=0 aa_dist_ok=0
    echo "== $mode"
    for i in $(seq "$PAIRS"); do
        local d="$DIR"
        if [ "$mode" = causal ]; then # hard links of rounds 1..i into a directory of their own
            d="$DIR/causal/upto$i"
            rm -rf "$d"; mkdir -p "$d"
            for j in $(seq "$i"); do for r in A B H P R Q; do [ -f "$DIR/$r$j.json" ] && ln "$DIR/$r$j.json" "$d/"; done; done
        fi
        local out="$DIR/cmp-$mode"; mkdir -p "$out"
        if [ -f "$d/A$i.json" ] && [ -f "$d/B$i.json" ]; then
            read -r b w s k runs what < <(cmp_pair "$d/A$i.json" "$d/B$i.json" "$out/aa$i.json")
            aa_n=$((aa_n + 1)); [ $((b + w)) -eq 0 ] && aa_ok=$((aa_ok + 1))
            fa=$(foreign "A$i"); fb=$(foreign "B$i")
            if [ "$fa$fb" != "--" ]; then aa_dist=$((aa_dist + 1)); [ $((b + w)) -eq 0 ] && aa_dist_ok=$((aa_dist_ok + 1)); fi
            echo "A/A timer   $i: better $b worse $w same $s in-pair $k  other runs $runs  $what  [foreign RT >= $PRIO on cpu$CPU: A $fa; B $fb]"
        fi
        if [ -f "$d/B$i.json" ] && [ -f "$d/H$i.json" ]; then
            read -r b w s k runs what < <(cmp_pair "$d/B$i.json" "$d/H$i.json" "$out/hog$i.json")
            hog_n=$((hog_n + 1)); [ "$w" -gt 0 ] && [ "$b" -eq 0 ] && hog_ok=$((hog_ok + 1))
            echo "A/B hog     $i: better $b worse $w same $s in-pair $k  other runs $runs  $what"
        fi
        if [ -f "$d/P$i.json" ] && [ -f "$d/R$i.json" ]; then
            read -r b w s k runs what < <(cmp_pair "$d/P$i.json" "$d/R$i.json" "$out/pa$i.json")
            pa_n=$((pa_n + 1)); [ $((b + w)) -eq 0 ] && pa_ok=$((pa_ok + 1))
            echo "A/A prov    $i: better $b worse $w same $s in-pair $k  other runs $runs  $what"
        fi
        if [ -f "$d/R$i.json" ] && [ -f "$d/Q$i.json" ]; then
            read -r b w s k runs what < <(cmp_pair "$d/R$i.json" "$d/Q$i.json" "$out/inj$i.json")
            inj_n=$((inj_n + 1)); [ "$w" -gt 0 ] && [ "$b" -eq 0 ] && inj_ok=$((inj_ok + 1))
            echo "A/B +${EXTRA_US}us $i: better $b worse $w same $s in-pair $k  other runs $runs  $what"
        fi
    done
    echo "[$mode] A/A timer pairs with no clear difference in every measure: $aa_ok of $aa_n (need >= 9 of 10)"
    echo "[$mode]   of which $aa_dist pairs had a foreign real-time thread at or above $PRIO on CPU $CPU during a run ($aa_dist_ok of them no clear difference)"
    echo "[$mode] A/A provider pairs with no clear difference in every measure: $pa_ok of $pa_n"
    echo "[$mode] hog pairs found worse (and nothing better): $hog_ok of $hog_n (need >= 9 of 10)"
    echo "[$mode] injected +$EXTRA_US µs pairs found worse (and nothing better): $inj_ok of $inj_n (need >= 9 of 10)"
}
tally all
tally causal
echo "reports in $DIR, comparisons in $DIR/cmp-all and $DIR/cmp-causal"
