#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# One loop over the load registry (from `rtjitter loads --json`, so a new load is tested without anyone
# remembering it): each load, run with its example parameters on a private jackd, starts, reports its metric
# above zero without an error, stops within 1 s of its phase end, and leaves no process and no file behind.
. "$(dirname "$0")/../lib.sh"

WARMUP=0.5 DURATION=1.5
name=$(server_name reg)
start_jackd "$name" 48000 256 || { not_ok "jackd starts"; exit 0; }
"$RTJ" loads --json >"$WORK/loads.json" || not_ok "rtjitter loads --json"
n=$(json "$WORK/loads.json" "len(d)")
check "the registry lists at least 11 loads (got $n)" [ "$n" -ge 11 ]
mkdir -p "$WORK/tmp"

# watched KEY: a value from the last load_watch output
watched() { sed -n "s/^$1 //p" "$WORK/watch"; }

for i in $(seq 0 $((n - 1))); do
    load=$(json "$WORK/loads.json" "d[$i]['name']")
    example=$(json "$WORK/loads.json" "d[$i]['example']")
    metric=$(json "$WORK/loads.json" "d[$i]['metric'] or ''")
    # A throughput must be above zero; a share of frames or work done on time ("%", "% of frames") may honestly
    # be zero on a machine busy enough (video's on-time share was 0 beside stress-ng and three other tests), and so
    # may a count of whole units finished ("units/min": not one of compile's units ended within the 1.5 s phase at a
    # load average of 13): then its processes must have run (load_checks counts compile's units against a logging
    # compiler's own record).
    share=$(json "$WORK/loads.json" "int((d[$i].get('unit') or '').startswith('%'))")
    count=$(json "$WORK/loads.json" "int(d[$i].get('unit') == 'units/min')")
    "$RTJ_HELPERS/load_watch" -- "$RTJ" run --server "$name" --loads "$example" --duration $DURATION \
        --warmup $WARMUP --tmpdir "$WORK/tmp" --quiet --json "$WORK/r.json" >"$WORK/watch" 2>"$WORK/err"
    st=$(watched status)
    check "$load: run exits 0 (got $st)" [ "$st" = 0 ]
    got=$(json "$WORK/r.json" "[(m['name'], m['value']) for m in d['phases'][0]['load_metrics']], d['phases'][0]['load_error']")
    echo "# $load ($example): $got; $(tr '\n' ' ' <"$WORK/watch")"
    if [ -z "$metric" ]; then
        check "$load: no load process ran, no metric" \
            [ "$(watched max_load_procs) $(json "$WORK/r.json" "len(d['phases'][0]['load_metrics'])")" = "0 0" ]
    else
        if [ "$count" = 1 ]; then
            check "$load: $metric at least zero, with its processes running ($(watched max_load_procs) at most), no load error" [ "$(json "$WORK/r.json" \
                "(lambda m: m['name'] == '$metric' and m['value'] >= 0)(d['phases'][0]['load_metrics'][0]) and d['phases'][0]['load_error'] is None and $(watched max_load_procs) > 0")" = True ]
        else
            check "$load: $metric $([ "$share" = 1 ] && echo "from 0 to 100 %" || echo "above zero"), no load error" [ "$(json "$WORK/r.json" \
                "(lambda m: m['name'] == '$metric' and (0 <= m['value'] <= 100 if $share else m['value'] > 0))(d['phases'][0]['load_metrics'][0]) and d['phases'][0]['load_error'] is None")" = True ]
        fi
        # The load's processes appear at the warm-up and are gone within 1 s of the phase end.
        check "$load: its processes lived no longer than the phase + 1 s" python3 -c "
import sys; f, l = $(watched first_load_s), $(watched last_load_s)
sys.exit(not (f >= 0 and l - f <= $WARMUP + $DURATION + 1.0))"
    fi
    check "$load: no process left after the run (left $(watched left))" [ "$(watched left)" = 0 ]
    check "$load: the tmpdir is empty" [ -z "$(ls -A "$WORK/tmp")" ]
done
stop_jackd "$JACKD_PID"
