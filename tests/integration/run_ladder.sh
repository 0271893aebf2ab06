#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The depth ladder: --backend timer,jack runs the same loads on the kernel's timers alone, then on the JACK graph,
# each an ordinary run with its report in the store, then puts them side by side and names the depth where the
# trouble starts. The trouble is made at the JACK depth only: a client on the server stalls 20 ms every 50 cycles
# (the timer depth cannot see it: no server there), so the ladder must say JACK, with xrun events there only.
. "$(dirname "$0")/../lib.sh"

name=$(server_name lad)
start_jackd "$name" 48000 256 || not_ok "jackd starts"
"$RTJ_HELPERS/stall_client" "$name" 20 50 1000 >"$WORK/stall.out" 2>"$WORK/stall.err" &
spid=$!
for i in $(seq 50); do grep -q ready "$WORK/stall.err" && break; sleep 0.1; done
kill -USR1 "$spid"
"$RTJ" run --backend timer,jack --server "$name" --period 256 --loads none --duration 2 --warmup 0.5 \
    --json "$WORK/l.json" --html "$WORK/l.html" >"$WORK/out" 2>"$WORK/err"; rc=$?
kill -TERM "$spid"; wait "$spid" 2>/dev/null
stop_jackd "$JACKD_PID"
sed -n '/^Depth ladder/,$p' "$WORK/out" | sed 's/^/# /'
check "the ladder ran both depths (exit $rc: 1 or 0, never 2 or 3)" [ "$rc" -le 1 ]
check "one comparison of the two depths, timer first: $(json "$WORK/l.json" "[r['title'] for r in d['reports']]")" \
    [ "$(json "$WORK/l.json" "len(d['reports'])")" = 2 ]
ev=$(python3 - "$XDG_DATA_HOME/rtjitter/reports" <<'PY'
import glob, json, sys
docs = sorted((json.load(open(f)) for f in glob.glob(sys.argv[1] + '/*/*.json')), key=lambda d: d['started'])
print(' '.join('%s:%d:%s' % (d['audio']['backend'], sum(p['xruns']['events'] for p in d['phases']),
                             d['verdict']['level']) for d in docs))
PY
)
echo "# stored reports, backend:xrun events:verdict: $ev"
# The stalls are the JACK depth's alone; a busy machine may give the timer depth a few skipped deadlines of its own,
# so the truth is relative: the stalling client adds at least 3 events at the JACK depth.
check "each depth's own report is in the store; the stalls add xrun events at the JACK depth" \
    python3 -c "import sys; d={x.split(':')[0]: x.split(':') for x in '$ev'.split()}; sys.exit(not (int(d['jack'][1]) >= int(d['timer'][1]) + 3))"
# Where the trouble starts is the first depth whose own report fails, whatever the machine is doing.
first_fail=$(python3 -c "print(next((x.split(':')[0] for x in '$ev'.split() if x.split(':')[2] == 'fail'), 'none'))")
if [ "$first_fail" = timer ]; then
    check "the ladder names the first failing depth: the timer (the machine itself was busy)" \
        grep -q "The trouble starts at the shallowest depth measured (timer)" "$WORK/out"
else
    check "the ladder says where the trouble starts: at $first_fail, not the kernel" \
        grep -q "The trouble starts at $first_fail: the depths below it kept up" "$WORK/out"
fi
check "the ladder's lines give each depth's wake-up p99" [ "$(grep -c 'wake-up p99' "$WORK/out")" -ge 2 ]
check "the HTML page of the ladder draws one line per depth in its exceedance plots" \
    [ "$(grep -c 'share of cycles later than' "$WORK/l.html")" -ge 1 ]
