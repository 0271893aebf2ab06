#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# (plain, not quick: its cyclictest and timer run are SCHED_FIFO 80 threads, which would disturb a solo test beside it)
# rtjitter import cyclictest: a real cyclictest --json file (rt-tests on this machine) made into a report whose
# figures are worked out again here, in Python, from the same file (count, mean, max, nearest-rank percentiles of
# its [v, v+1) µs buckets); saved in the store under the kernel release cyclictest named; read back by `report`
# and compared with a timer run by `compare`; and every bad file refused with one line and exit 2 (not JSON, the
# wrong shape, a FIFO that nobody writes, a file over 64 MiB, a directory, a missing file, an unknown format).
. "$(dirname "$0")/../lib.sh"

command -v cyclictest >/dev/null || { not_ok "cyclictest (rt-tests) is needed"; exit 0; }
cpu=$(($(nproc) - 1))
cyclictest -m -q -p 80 -i 500 -a "$cpu" -t 1 -D 2 -h 5000 --json="$WORK/c.json" >/dev/null 2>&1
"$RTJ" import cyclictest "$WORK/c.json" --json "$WORK/r.json" >"$WORK/out" 2>"$WORK/err"
rc=$?
check "import exits 0 (got $rc: $(head -c 200 "$WORK/err"))" [ "$rc" -eq 0 ]
sed 's/^/# /' "$WORK/out"
python3 - "$WORK/c.json" "$WORK/r.json" >"$WORK/cmp.txt" <<'PY'
import json, math, sys
c = json.load(open(sys.argv[1])); r = json.load(open(sys.argv[2]))
t = c['thread']['0']; h = sorted((int(k), v) for k, v in t['histogram'].items()); n = t['cycles']
w = r['phases'][0]['wakeup_us']
def q(p):
    rank = max(1, math.ceil(p * n - 1e-9)); acc = 0
    for v, k in h:
        acc += k
        if acc >= rank:
            return min(max(v + 0.5, t['min']), t['max'])
    return None
bad = []
for key, want in (('count', n), ('mean', t['avg']), ('max', t['max']), ('min', t['min']), ('p50', q(.5)),
                  ('p90', q(.9)), ('p99', q(.99))):
    got = w[key]
    if (want is None) != (got is None) or (want is not None and abs(got - want) > 1e-6 * max(1, abs(want))):
        bad.append(f"{key} {got} != {want}")
hist = r['phases'][0]['histograms']['wakeup']
if sum(b[2] for b in hist) != n:
    bad.append(f"histogram holds {sum(b[2] for b in hist)} samples, cyclictest {n}")
print("mismatches:", "; ".join(bad) if bad else "none")
print("p50/p99/max", w['p50'], w['p99'], w['max'])
PY
sed 's/^/# /' "$WORK/cmp.txt"
check "count, mean, min, max, p50, p90, p99 and the histogram are cyclictest's own" grep -q "^mismatches: none" "$WORK/cmp.txt"
rel=$(json "$WORK/c.json" "d['sysinfo']['release']")
stored=$(sed -n 's/^report: //p' "$WORK/out")
check "saved in the store under cyclictest's kernel release, named -cyclictest ($stored)" \
    [ -f "$stored" -a "$(dirname "$stored")" = "$XDG_DATA_HOME/rtjitter/reports/$rel" -a "${stored%-cyclictest.json}" != "$stored" ]
check "marked imported: backend cyclictest-import, imported.from, the source command" \
    [ "$(json "$stored" "d['audio']['backend'], d['imported']['from'], d['imported']['command'].startswith('cyclictest')")" = "cyclictest-import cyclictest True" ]
check "the store's copy reads back as a report (rtjitter report exits 0)" "$RTJ" report "$stored" --format json >/dev/null
"$RTJ" run --backend timer --cpus "$cpu" --interval 500 --priority 80 --loads none --warmup 0.3 --duration 2 --quiet \
    --json "$WORK/t.json" >/dev/null 2>&1
"$RTJ" compare "$stored" "$WORK/t.json" --json "$WORK/cmp.json" >"$WORK/cmpout" 2>&1
rc=$?
check "compare puts the import beside a timer run (exit $rc) and judges the wake-up p99 between them" \
    [ "$rc" -eq 0 -a "$(json "$WORK/cmp.json" "any(v['metric'].startswith('wakeup p99') for l in d['loads'] for v in l['verdicts'])")" = True ]

# The text and HTML of the pair against its JSON: every cell the JSON's, "-" where it has null (never nan), the
# imported run named in the headers with its interval; once with the import above (its percentiles known) and once
# with cyclictest run without -h (no histogram: its percentiles are null in the JSON, and nowhere a number).
"$RTJ" compare "$stored" "$WORK/t.json" --wide --json "$WORK/cmp.json" --html "$WORK/cmp.html" >"$WORK/cmpout" 2>&1
/usr/bin/python3 "$RTJ_LIB_DIR/helpers/compare_cells.py" "$WORK/cmp.json" "$WORK/cmpout" "$WORK/cmp.html" >"$WORK/cells" 2>&1
sed 's/^/# /' "$WORK/cells"
check "compare's text and HTML hold the JSON's cells, the import named with its interval" grep -q "^mismatches: 0$" "$WORK/cells"
cyclictest -m -q -p 80 -i 500 -a "$cpu" -t 1 -D 1 --json="$WORK/c2.json" >/dev/null 2>&1
"$RTJ" import cyclictest "$WORK/c2.json" --output "$WORK/store3" --json "$WORK/r2.json" >/dev/null 2>&1
check "without -h the import has no percentiles (wake-up p99 null: $(json "$WORK/r2.json" "d['phases'][0]['wakeup_us']['p99']"))" \
    [ "$(json "$WORK/r2.json" "d['phases'][0]['wakeup_us']['p99']")" = None ]
"$RTJ" compare "$WORK/r2.json" "$WORK/t.json" --wide --json "$WORK/cmp2.json" --html "$WORK/cmp2.html" >"$WORK/cmpout2" 2>&1
/usr/bin/python3 "$RTJ_LIB_DIR/helpers/compare_cells.py" "$WORK/cmp2.json" "$WORK/cmpout2" "$WORK/cmp2.html" >"$WORK/cells2" 2>&1
sed 's/^/# /' "$WORK/cells2"
check "beside an import with no percentiles: '-' where the JSON has null, never nan, in text and HTML" \
    grep -q "^mismatches: 0$" "$WORK/cells2"
check "the JSON's wake-up p99 of the import is null and the text prints '-' for it" \
    [ "$(json "$WORK/cmp2.json" "[r['cells'][0] for r in d['loads'][0]['rows'] if r['label'].startswith('wakeup p99 (')][0]")" = - ]

# --- bad files: one line, exit 2, and quickly ---
bad_file() { # DESCRIPTION PATH [FORMAT]: exit 2 with one line, within 5 s
    local start rc
    start=$(date +%s)
    timeout 10 "$RTJ" import "${3:-cyclictest}" "$2" --output "$WORK/store2" >"$WORK/o" 2>"$WORK/e"
    rc=$?
    check "$1: exit 2 with one line (got $rc: $(head -c 160 "$WORK/e"))" \
        [ "$rc" -eq 2 -a "$(wc -l <"$WORK/e")" -eq 1 -a $(($(date +%s) - start)) -le 5 ]
}
printf 'not json {' >"$WORK/nj.json"; bad_file "not JSON" "$WORK/nj.json"
echo '{"thread": {"0": {"cycles": 10, "min": 5, "max": 3, "avg": 4}}}' >"$WORK/shape.json"
bad_file "numbers that contradict each other" "$WORK/shape.json"
echo '{"schema": "rtjitter.report/1"}' >"$WORK/rep.json"; bad_file "an rtjitter report, not cyclictest's" "$WORK/rep.json"
mkfifo "$WORK/fifo.json"; bad_file "a FIFO that nobody writes" "$WORK/fifo.json"
truncate -s 65M "$WORK/huge.json"; bad_file "a file over 64 MiB" "$WORK/huge.json"
bad_file "a directory" "$WORK"
bad_file "a missing file" "$WORK/none.json"
bad_file "an unknown format" "$WORK/c.json" perf
check "nothing was stored from the bad files" [ ! -e "$WORK/store2" -o -z "$(find "$WORK/store2" -name '*.json' 2>/dev/null)" ]
