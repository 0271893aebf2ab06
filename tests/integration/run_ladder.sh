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
# No --period: the ladder learns the size from the server it reaches (256 frames, as started here) and runs the timer
# depth at it too; before, the timer ran at the default 64 and the ladder held no depth against another.
"$RTJ" run --backend timer,jack --server "$name" --loads none --duration 2 --warmup 0.5 \
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
sizes=$(python3 - "$XDG_DATA_HOME/rtjitter/reports" <<'PY'
import glob, json, sys
docs = sorted((json.load(open(f)) for f in glob.glob(sys.argv[1] + '/*/*.json')), key=lambda d: d['started'])
print(' '.join('%s:%s:%s' % (d['audio']['backend'], d['audio']['period_frames'], d['audio']['rate']) for d in docs))
PY
)
check "without --period every depth ran at the server's size, 256 frames at 48 kHz, as the test started it ($sizes), and the run said so" \
    holds '[ "$sizes" = "timer:256:48000 jack:256:48000" ] && grep -q "^The jack server runs at 256 frames / 48000 Hz: every depth runs at 256 frames / 48000 Hz" "$WORK/out"'

# The stalls are the JACK depth's alone, and each is an event there (run_xruns proves one event per stall): the JACK
# depth's report holds at least as many events as the stall client logged stalls inside its measured window (its
# log and the report are both on CLOCK_MONOTONIC_RAW), and 3 at least. Not relative to the timer depth's events: in a
# clean-clone CI run the busy machine gave the timer depth 5 events of its own (wake-up p99 3.3 ms) and the JACK
# depth 7 for its 7 stalls.
st=$(python3 - "$XDG_DATA_HOME/rtjitter/reports" "$WORK/stall.out" <<'PY'
import glob, json, sys
docs = [json.load(open(f)) for f in glob.glob(sys.argv[1] + '/*/*.json')]
j = [d for d in docs if d['audio']['backend'] == 'jack']
t = open(sys.argv[2]).read()
s = [float(x) for x in t.split('stall_times')[1].split('xrun_times')[0].split()] if 'stall_times' in t else []
n = 0
for p in (j[0]['phases'] if j else []):
    w0, w1 = p['clock_window_s']
    n += sum(1 for a, b in zip(s[0::2], s[1::2]) if w0 <= a and b <= w1)
print(n, sum(p['xruns']['events'] for p in j[0]['phases']) if j else -1)
PY
)
read -r nst jev <<<"$st"
check "each depth's own report is in the store; the JACK depth has an xrun event for each stall the client logged in its window ($jev events, $nst stalls; timer and jack events: $ev)" \
    python3 -c "import sys; d={x.split(':')[0]: x for x in '$ev'.split()}; sys.exit(not ('timer' in d and 'jack' in d and $nst >= 3 and $jev >= $nst))"
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
# The documents read whole: the --json carries the ladder, the text and the HTML say what it says, and each depth's
# own verdict agrees with it. The observer is the store: each depth's report, read here apart from the ladder.
/usr/bin/python3 - "$XDG_DATA_HOME/rtjitter/reports" "$WORK/l.json" "$WORK/out" "$WORK/l.html" >"$WORK/whole" <<'PY'
import glob, html, json, re, sys
docs = sorted((json.load(open(f)) for f in glob.glob(sys.argv[1] + '/*/*.json')), key=lambda d: d['started'])
lad = json.load(open(sys.argv[2])); text = open(sys.argv[3], encoding='utf-8').read()
page = html.unescape(re.sub(r'<[^>]+>', ' ', open(sys.argv[4], encoding='utf-8').read()))
page = re.sub(r'\s+', ' ', page)
bad = []
L = lad.get('ladder') or {}
depths = L.get('depths', [])
if [d['depth'] for d in depths] != [d['audio']['backend'] for d in docs]:
    bad.append(f"json: depths {[d['depth'] for d in depths]} != stored {[d['audio']['backend'] for d in docs]}")
for dj, doc in zip(depths, docs):
    p99 = max(p['wakeup_us']['p99'] for p in doc['phases'])
    ev = sum(p['xruns']['events'] for p in doc['phases'])
    lvl = doc['verdict']['level']
    if abs(dj['wakeup_p99_us'] - p99) > 1e-6 or dj['xrun_events'] != ev or dj['level'] != lvl:
        bad.append(f"json: {dj['depth']}: {dj['wakeup_p99_us']}/{dj['xrun_events']}/{dj['level']} != report {p99}/{ev}/{lvl}")
    line = f"  {dj['depth']:<6} wake-up p99 {p99:8.1f} µs"
    if line not in text:
        bad.append(f'text: no line "{line}"')
    if f"{p99:.1f}" not in page or f"{dj['depth']} depth" not in page:
        bad.append(f"html: {dj['depth']}: no '{p99:.1f}' or no header '{dj['depth']} depth'")
first = next((d['audio']['backend'] for d in docs if d['verdict']['level'] == 'fail'), None)
if L.get('trouble_starts_at') != first:
    bad.append(f"json: trouble starts at {L.get('trouble_starts_at')}, the reports say {first}")
if L.get('conclusion', '-') not in text or L.get('conclusion', '-') not in page:
    bad.append('text or html: the conclusion is not the JSON\'s')
if [r['title'] for r in lad['reports']] != [d['audio']['backend'] + ' depth' for d in docs]:
    bad.append(f"json: report titles {[r['title'] for r in lad['reports']]}")
if 'Depth ladder: ' + ' → '.join(d['audio']['backend'] for d in docs) not in page:
    bad.append('html: no "Depth ladder: timer → jack" heading')
# Each depth's verdict knows the ladder: above clean depths, no kernel advice and the trouble placed at the depth.
# (a culprit the run named, a process or a client on a busy machine, is not the kernel either)
own = {'ladder', 'realtime', 'mlock', 'incomplete', 'dropped', 'load', 'period', 'headroom', 'priority', 'buffer',
       'culprit_process', 'culprit_thread', 'culprit_client', 'culprit_dsp', 'culprit_steal', 'culprit_irq',
       'culprit_softirq'}
for i, doc in enumerate(docs):
    below = (doc.get('ladder') or {}).get('below', [])
    if [(b['depth'], b['level']) for b in below] != [(x['audio']['backend'], x['verdict']['level']) for x in docs[:i]]:
        bad.append(f"{doc['audio']['backend']}: its report's ladder.below {below} is not the depths before it")
    v = doc['verdict']
    cleared = i > 0 and all(x['verdict']['level'] != 'fail' for x in docs[:i])
    if cleared and v['level'] != 'pass':
        kernel = [a for a in v['advice_ids'] if a not in own]
        if kernel or 'not quiet' in v['summary'] or 'ladder' not in v['advice_ids']:
            bad.append(f"{doc['audio']['backend']}: above clean depths its verdict blames the kernel: {kernel} {v['summary']!r}")
    if not cleared and 'ladder' in v['advice_ids']:
        bad.append(f"{doc['audio']['backend']}: says the trouble starts there, with a failing depth below")
print('checked', len(depths), 'depths; trouble at', L.get('trouble_starts_at'))
for b in bad:
    print(b)
print('mismatches:', len(bad))
PY
sed 's/^/# /' "$WORK/whole"
check "the JSON carries the ladder, the text and HTML say what it says, each depth's verdict follows its rule" \
    grep -q "^mismatches: 0$" "$WORK/whole"
check "the HTML page of the ladder draws one line per depth in its exceedance plots" \
    [ "$(grep -c 'share of cycles later than' "$WORK/l.html")" -ge 1 ]
