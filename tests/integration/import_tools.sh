#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-class: plain (oslat spins on one CPU for 2 s, jitterdebugger wakes a SCHED_FIFO 10 thread on it)
# rtjitter import oslat FILE and import jitterdebugger DIR, against files those tools made here (Debian 12: rt-tests'
# oslat, jitterdebugger): each report's figures worked out again in Python from the tool's own file (sample count,
# mean, min, max, nearest-rank percentiles of the tool's buckets: oslat's key K holds loops of more than K - 1 and up
# to K us, its last bucket the longer ones too; jitterdebugger's value v holds [v, v + 1) us, values of 1000 us and
# more counted but not in it), stored under the tool's kernel release, read back by `report`, put beside a timer
# run by `compare`; the kernel command line from jitterdebugger's DIR; and bad input refused with one line naming
# the file and exit 2 (not JSON, the other tool's file, cyclictest's file, a bucket past -b, a bias, a DIR without
# results.json, a file for a DIR, a missing DIR).
. "$(dirname "$0")/../lib.sh"

for t in oslat jitterdebugger; do
    command -v $t >/dev/null || { not_ok "$t is needed (Debian: $([ $t = oslat ] && echo rt-tests || echo $t))"; exit 0; }
done
cpu=$(($(nproc) - 1))
timeout 20 oslat -D 2 -c "$cpu" --json="$WORK/oslat.json" >"$WORK/oslat.out" 2>&1
echo "# oslat: exit $?, $(grep -c . "$WORK/oslat.out") lines of its own"
(cd "$WORK" && timeout 20 jitterdebugger -D 2s -a "$cpu" -p 10 -o "$WORK/jd" >"$WORK/jd.out" 2>&1)
echo "# jitterdebugger: exit $?, $(ls "$WORK/jd" 2>/dev/null | tr '\n' ' ')"

"$RTJ" import oslat "$WORK/oslat.json" --json "$WORK/ro.json" >"$WORK/o.out" 2>"$WORK/o.err"; rc=$?
sed 's/^/# /' "$WORK/o.out"
check "import oslat exits 0 (got $rc: $(head -c 200 "$WORK/o.err"))" [ "$rc" -eq 0 ]
"$RTJ" import jitterdebugger "$WORK/jd" --json "$WORK/rj.json" >"$WORK/j.out" 2>"$WORK/j.err"; rc=$?
sed 's/^/# /' "$WORK/j.out"
check "import jitterdebugger exits 0 (got $rc: $(head -c 200 "$WORK/j.err"))" [ "$rc" -eq 0 ]

# The tool's own figures, worked out from its file; the report must hold them.
cat >"$WORK/cmp.py" <<'PY'
import json, math, sys
tool, src, rep = sys.argv[1], json.load(open(sys.argv[2])), json.load(open(sys.argv[3]))
if tool == 'oslat':
    buckets = 32
    cmd = src['cmdline:'].split()
    for i, w in enumerate(cmd):
        if w in ('-b', '--bucket-size'):
            buckets = int(cmd[i + 1])
    threads = list(src['thread'].values())
    n = sum(sum(t['histogram'].values()) for t in threads)
    # (lower edge, count) per bucket; the last bucket is past the histogram
    h = {}
    for t in threads:
        for k, c in t['histogram'].items():
            if int(k) < buckets:
                h[int(k) - 1] = h.get(int(k) - 1, 0) + c
    unit = 1
else:
    threads = list(src['cpu'].values())
    n = sum(t['count'] for t in threads)
    h = {}
    for t in threads:
        for k, c in t['histogram'].items():
            h[int(k)] = h.get(int(k), 0) + c
    unit = 0.001 if src['sysinfo']['resolution_in_ns'] == 1 else 1
lo, hi = min(t['min'] for t in threads), max(t['max'] for t in threads)
mean = sum(t['avg'] * (sum(t['histogram'].values()) if tool == 'oslat' else t['count']) for t in threads) / n
hs = sorted(h.items())
def q(p):
    rank = max(1, math.ceil(p * n - 1e-9)); acc = 0
    for v, k in hs:
        acc += k
        if acc >= rank:
            return min(max(v + 0.5, lo), hi) * unit
    return None
w = rep['phases'][0]['wakeup_us']
bad = []
for key, want in (('count', n), ('mean', mean * unit), ('min', lo * unit), ('max', hi * unit), ('p50', q(.5)),
                  ('p90', q(.9)), ('p99', q(.99)), ('p999', q(.999))):
    got = w[key]
    if (want is None) != (got is None) or (want is not None and abs(got - want) > 1e-6 * max(1, abs(want))):
        bad.append('%s %s != %s' % (key, got, want))
hist = rep['phases'][0]['histograms'].get('wakeup', [])
if hist and sum(b[2] for b in hist) != n:
    bad.append('histogram holds %d samples, the tool %d' % (sum(b[2] for b in hist), n))
past = n - sum(h.values())
if past and not (hist and hist[-1][2] == past):
    bad.append('the %d samples past the histogram are not its last bucket' % past)
if rep['system']['kernel']['release'] != src['sysinfo']['release']:
    bad.append('release')
if rep['audio']['backend'] != tool + '-import' or rep['imported']['from'] != tool:
    bad.append('backend/imported')
print('mismatches:', '; '.join(bad) if bad else 'none')
print('samples %d, past the histogram %d, p50/p99/max %s %s %s' % (n, past, w['p50'], w['p99'], w['max']))
PY
python3 "$WORK/cmp.py" oslat "$WORK/oslat.json" "$WORK/ro.json" >"$WORK/cmp-o" 2>&1
sed 's/^/# oslat: /' "$WORK/cmp-o"
check "oslat: count, mean, min, max, p50-p999, the histogram and the samples past it are oslat's own" \
    grep -q "^mismatches: none" "$WORK/cmp-o"
python3 "$WORK/cmp.py" jitterdebugger "$WORK/jd/results.json" "$WORK/rj.json" >"$WORK/cmp-j" 2>&1
sed 's/^/# jitterdebugger: /' "$WORK/cmp-j"
check "jitterdebugger: count, mean, min, max, p50-p999, the histogram and the samples past it are its own" \
    grep -q "^mismatches: none" "$WORK/cmp-j"
check "jitterdebugger: the kernel command line is its DIR's cmdline" \
    [ "$(json "$WORK/rj.json" "d['system']['kernel']['cmdline']")" = "$(head -1 "$WORK/jd/cmdline")" ]
rel=$(json "$WORK/oslat.json" "d['sysinfo']['release']")
for t in oslat jitterdebugger; do
    stored=$(sed -n 's/^report: //p' "$WORK/$(echo $t | cut -c1).out")
    check "$t: stored under its kernel release, named -$t, read back by rtjitter report (exit 0)" \
        sh -c "[ -f '$stored' ] && [ \"\$(dirname '$stored')\" = '$XDG_DATA_HOME/rtjitter/reports/$rel' ] && '$RTJ' report '$stored' >/dev/null && '$RTJ' report '$stored' --format kcidb >/dev/null"
done
"$RTJ" run --backend timer --cpus "$cpu" --loads none --warmup 0.3 --duration 1.5 --quiet --json "$WORK/t.json" >/dev/null 2>&1
"$RTJ" compare "$WORK/rj.json" "$WORK/ro.json" "$WORK/t.json" --json "$WORK/cmp.json" >"$WORK/cmpout" 2>&1; rc=$?
check "compare puts both imports beside a timer run (exit $rc), judging the wake-up p99" \
    [ "$rc" -eq 0 -a "$(json "$WORK/cmp.json" "any(v['metric'].startswith('wakeup p99') for l in d['loads'] for v in l['verdicts'])")" = True ]

# --- bad input: one line naming the file, exit 2, nothing stored ---
bad() { # DESCRIPTION FORMAT PATH NEEDLE
    "$RTJ" import "$2" "$3" --output "$WORK/store2" >"$WORK/bo" 2>"$WORK/be"; local rc=$?
    local good=0
    [ "$rc" -eq 2 ] && [ "$(wc -l <"$WORK/be")" -eq 1 ] && grep -qF -- "$4" "$WORK/be" && good=1
    check "$1: exit 2, one line naming the file ($(head -c 170 "$WORK/be"))" [ "$good" = 1 ]
}
printf 'not json {' >"$WORK/nj.json"
bad "oslat: not JSON" oslat "$WORK/nj.json" "$WORK/nj.json: not JSON"
bad "oslat: jitterdebugger's file" oslat "$WORK/jd/results.json" "not oslat's --json output"
cyclictest -m -q -p 10 -i 1000 -a "$cpu" -t 1 -D 1 -h 100 --json="$WORK/c.json" >/dev/null 2>&1
bad "oslat: cyclictest's file" oslat "$WORK/c.json" "cyclictest's output, not oslat's"
python3 -c "import json, sys; d = json.load(open(sys.argv[1])); d['thread']['0']['histogram']['33'] = 1; json.dump(d, open(sys.argv[2], 'w'))" \
    "$WORK/oslat.json" "$WORK/o33.json"
bad "oslat: a bucket past -b" oslat "$WORK/o33.json" 'histogram entry "33" is not a whole bucket from 1 to 32'
sed 's/"oslat -D/"oslat -B -D/' "$WORK/oslat.json" >"$WORK/obias.json"
bad "oslat: a run with --bias" oslat "$WORK/obias.json" "--bias"
bad "jitterdebugger: oslat's file as a DIR" jitterdebugger "$WORK/oslat.json" "$WORK/oslat.json/results.json"
mkdir -p "$WORK/empty"
bad "jitterdebugger: a DIR without results.json" jitterdebugger "$WORK/empty" "$WORK/empty/results.json"
mkdir -p "$WORK/jd2" && cp "$WORK/oslat.json" "$WORK/jd2/results.json"
bad "jitterdebugger: oslat's file as results.json" jitterdebugger "$WORK/jd2" "not jitterdebugger's results.json"
bad "jitterdebugger: a missing DIR" jitterdebugger "$WORK/none" "$WORK/none/results.json"
check "nothing was stored from the bad input" [ ! -e "$WORK/store2" -o -z "$(find "$WORK/store2" -name '*.json' 2>/dev/null)" ]
