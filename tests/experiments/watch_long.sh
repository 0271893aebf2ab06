#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A watch session past the old cap of 4,096 listed events (issue 34 item 1), by hand (100 s; not in the suite):
# a private jackd at 64 frames, a stall client stalling 3 ms every 12 cycles (5,500 times, ~60 a second), rtjitter
# watch for 100 s. Prints: every event's began and ended lines (each number once), the report's count and its
# events_summary adding up (listed + per-minute sums), the client's first 1,000 logged stalls (its log's cap) against
# the lines (tests/helpers/watch_check.py: begun_near, ended_named), the culprit sums, the end summary, the report's
# size and the process's peak RSS and CPU. Results: tests/experiments/watch_long-result.txt.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
srv=$(server_name watchon-long)
start_jackd "$srv" 48000 64 || exit 1
log="$WORK/jackd-$srv.log"
"$RTJ_HELPERS/stall_client" "$srv" 3 12 5500 >"$WORK/stall.out" 2>&1 &
spid=$!
sleep 0.5
/usr/bin/time -v "$RTJ" watch --server "$srv" --server-log "$log" --duration 100 --json "$WORK/w.json" \
    --output "$WORK/store" >"$WORK/w.out" 2>"$WORK/w.err" &
wpid=$!
sleep 1.5; kill -USR1 "$spid"
wait "$wpid"; echo "# watch exit $?"
kill -TERM "$spid"; wait "$spid"
stop_jackd "$JACKD_PID"
python3 tests/helpers/watch_check.py "$WORK/w.out" "$WORK/stall.out" raw "$WORK/w.json" | sed 's/^/watch_check: /'
python3 - "$WORK" <<'PY'
import json, re, sys
W = sys.argv[1]
d = json.load(open(W + '/w.json'))
ph = d['phases'][0]
lines = open(W + '/w.out').read().splitlines()
nb = [int(m[1]) for l in lines if (m := re.match(r'^\S+  xrun (\d+) began$', l))]
ne = [int(m[1]) for l in lines if (m := re.match(r'^\S+  xrun (\d+): [\d.]+ ms; ', l))]
s = ph['events_summary']
print('events', ph['xruns']['events'], 'began_lines', len(nb), 'unique', len(set(nb)), 'ended_lines', len(ne),
      'unique', len(set(ne)), 'numbers 1..', max(nb or [0]))
print('events_summary total', s['total'], 'listed', s['listed'], '(in the document', len(ph['events']), ') summarised',
      s['summarised'], 'lost', s['lost'], 'per-minute sum', sum(b['events'] for b in s['per_minute']),
      'buckets', len(s['per_minute']), 'events_unlisted', ph['events_unlisted'])
print('per_culprit', [(c['kind'], c['name'], c['events']) for c in (s['per_culprit'] or [])][:6])
print('report bytes', len(open(W + '/w.json').read()))
for l in lines:
    if l.startswith('your session') or l.startswith('  '):
        print('summary:', l)
PY
grep -E "Maximum resident|Elapsed|Percent of CPU" "$WORK/w.err"
