#!/bin/bash
# `rtjitter compare` and `rtjitter report` from the command line: the latest report of each kernel in the store,
# what differs in the system identity, the setting warning, the --json document, and a one-line error with exit
# status 2 for every file that is not a readable report.
. "$(dirname "$0")/../lib.sh"

store="$XDG_DATA_HOME/rtjitter/reports"
"$RTJ" compare >"$WORK/empty.out" 2>"$WORK/empty.err"
rc=$?
check "compare with an empty store exits 2 (got $rc)" [ "$rc" -eq 2 ]
check "... with one line saying so" [ "$(wc -l <"$WORK/empty.err")" -eq 1 ]

name=$(server_name cmp)
start_jackd "$name" 48000 64 || not_ok "jackd starts"
"$RTJ" run --server "$name" --loads none --duration 2 --warmup 0.3 --quiet --json "$WORK/a.json" \
    --output "$WORK/junk" >"$WORK/run.out" 2>&1
check "run exits 0" [ $? -eq 0 ]
stop_jackd "$JACKD_PID"

# Three kernels in the store; the newest report of each is compared, the oldest kernel is the baseline.
python3 - "$WORK/a.json" "$store" <<'PY'
import json, os, sys
d = json.load(open(sys.argv[1]))
def put(release, stamp, hz, preempt, rate=None, shift=0):
    d2 = json.loads(json.dumps(d))
    k = d2['system']['kernel']
    k['release'], k['hz'], k['preempt'] = release, hz, preempt
    if rate:
        d2['audio']['rate'] = rate
    for p in d2['phases']:
        p['histograms']['wakeup'] = [[lo + shift, hi + shift, c] for lo, hi, c in p['histograms']['wakeup']]
    os.makedirs(os.path.join(sys.argv[2], release), exist_ok=True)
    json.dump(d2, open(os.path.join(sys.argv[2], release, stamp + '.json'), 'w'))
put('6.1.0-generic', '20260101T000000Z', 250, 'voluntary', shift=5000)   # older report of this kernel
put('6.1.0-generic', '20260105T000000Z', 250, 'voluntary')
put('6.8.0-lowlatency', '20260106T000000Z', 1000, 'full')
put('6.9.0-rt', '20260107T000000Z', 1000, 'rt', rate=44100)
PY
"$RTJ" compare --json "$WORK/c.json" >"$WORK/c.out" 2>"$WORK/c.err"
rc=$?
check "compare with no files exits 0 (got $rc)" [ "$rc" -eq 0 ]
check "three kernels compared, the oldest first" \
    [ "$(json "$WORK/c.json" "' '.join(r['release'] for r in d['reports'])")" = "6.1.0-generic 6.8.0-lowlatency 6.9.0-rt" ]
check "the latest report of a kernel is taken" grep -q '6.1.0-generic/20260105T000000Z.json' "$WORK/c.out"
check "HZ difference shown: 250 → 1000 → 1000" grep -q 'kernel.hz .*250 → 1000 → 1000' "$WORK/c.out"
check "preempt difference shown" grep -q 'kernel.preempt .*voluntary → full → rt' "$WORK/c.out"
check "a different rate is allowed, with a warning" grep -q 'warning: 6.9.0-rt ran at .* 44100 Hz' "$WORK/c.out"
check "side-by-side table per load, headed by the kernel releases" grep -q '^Load: none' "$WORK/c.out"
check "a single run's maximum is flagged as weak evidence" grep -q "single run's maximum is weak evidence" "$WORK/c.out"
check "identical runs: no clear difference in wakeup p99" \
    [ "$(json "$WORK/c.json" "[v['outcome'] for v in d['loads'][0]['verdicts'] if v['metric']=='wakeup p99' and v['report']==1][0]")" = same ]
check "an earlier run of a kernel in the store measures run-to-run noise" \
    grep -q 'run-to-run noise measured against an earlier run: .*6.1.0-generic/20260101T000000Z.json' "$WORK/c.out"
check "--json document is rtjitter.compare/1" [ "$(json "$WORK/c.json" "d['schema']")" = rtjitter.compare/1 ]
check "the verdict sentence says nothing is beyond noise" grep -q 'Nothing here is beyond run-to-run noise' "$WORK/c.out"

# Named files: the older 6.1.0 report (wakeup +5 ms) against the newer: better, beyond noise.
"$RTJ" compare "$store/6.1.0-generic/20260101T000000Z.json" "$store/6.1.0-generic/20260105T000000Z.json" \
    --json "$WORK/c2.json" >"$WORK/c2.out" 2>&1
check "named files: 5 ms less wakeup is better" \
    [ "$(json "$WORK/c2.json" "[v['outcome'] for v in d['loads'][0]['verdicts'] if v['metric']=='wakeup p99'][0]")" = better ]

# Bad files: one line on stderr, exit 2, for report and compare alike.
head -c 300 "$WORK/a.json" >"$WORK/truncated.json"
printf 'not json at all' >"$WORK/garbage.json"
python3 -c "
import json; d = json.load(open('$WORK/a.json')); d['schema'] = 'rtjitter.report/2'; json.dump(d, open('$WORK/v2.json', 'w'))
d['schema'] = 'rtjitter.report/1'; d['phases'][0]['wakeup_us']['p99'] = 'fast'; json.dump(d, open('$WORK/type.json', 'w'))
d['phases'][0]['wakeup_us']['p99'] = 1e300; json.dump(d, open('$WORK/huge.json', 'w'))"
for f in truncated garbage v2 type huge missing; do
    for cmd in report compare; do
        "$RTJ" $cmd "$WORK/$f.json" >"$WORK/bad.out" 2>"$WORK/bad.err"
        rc=$?
        check "$cmd $f.json: exit 2 (got $rc), one line: $(head -c 150 "$WORK/bad.err")" \
            [ "$rc" -eq 2 -a "$(wc -l <"$WORK/bad.err")" -eq 1 ]
    done
done
check "an unknown major schema is refused with a clear message" grep -q 'newer than this rtjitter reads' \
    <("$RTJ" report "$WORK/v2.json" 2>&1)
check "compare --help exits 0" "$RTJ" compare --help
"$RTJ" compare --bogus >/dev/null 2>&1
check "compare --bogus is bad usage (2)" [ $? -eq 2 ]
"$RTJ" report >/dev/null 2>&1
check "report without a file is bad usage (2)" [ $? -eq 2 ]

# A file name that is not UTF-8 (C0 80 is an overlong NUL): refused with one line, never compared under another
# name or dropped from the comparison.
bad="$WORK/c"$'\xc0\x80'".json"
cp "$WORK/a.json" "$bad"
"$RTJ" compare "$WORK/a.json" "$bad" --json "$WORK/u.json" >"$WORK/u.out" 2>"$WORK/u.err"
rc=$?
check "compare a.json \$'c\\xc0\\x80.json': exit 2 (got $rc), one line" [ "$rc" -eq 2 -a "$(wc -l <"$WORK/u.err")" -eq 1 ]
check "... naming the problem" grep -q 'file name is not valid UTF-8' "$WORK/u.err"
check "... and no comparison written" [ ! -e "$WORK/u.json" ]

# Every form through the one table of renderers: --format NAME, the names listed in --help.
check "report --help lists the forms" grep -q 'text, html, json' <("$RTJ" report --help)
check "compare --help lists the forms" grep -q 'text, html, json' <("$RTJ" compare --help)
"$RTJ" report "$WORK/a.json" --format json >"$WORK/f.json" 2>&1
check "report --format json prints the report itself" python3 -c "
import json, sys; sys.exit(json.load(open('$WORK/f.json')) != json.load(open('$WORK/a.json')))"
check "report --format text is the default text" cmp -s <("$RTJ" report "$WORK/a.json") <("$RTJ" report "$WORK/a.json" --format text)
"$RTJ" report "$WORK/a.json" --format html >"$WORK/f.html" 2>&1
check "report --format html prints a page" grep -q '</html>' "$WORK/f.html"
"$RTJ" compare "$WORK/a.json" "$WORK/a.json" --format json >"$WORK/fc.json" 2>&1
check "compare --format json prints the comparison document" [ "$(json "$WORK/fc.json" "d['schema']")" = rtjitter.compare/1 ]
"$RTJ" report "$WORK/a.json" --format pdf >/dev/null 2>"$WORK/fmt.err"
rc=$?
check "report --format pdf: exit 2 (got $rc), one line" [ "$rc" -eq 2 -a "$(wc -l <"$WORK/fmt.err")" -eq 1 ]
check "... listing the forms" grep -q 'text html json' "$WORK/fmt.err"

# --json onto what is not a regular file: refused, one line, exit 2; onto an existing file: replaced whole.
mkdir "$WORK/adir"
"$RTJ" compare "$WORK/a.json" --quiet --json "$WORK/adir" >/dev/null 2>"$WORK/dir.err"
rc=$?
check "compare --json onto a directory: exit 2 (got $rc), one line" [ "$rc" -eq 2 -a "$(wc -l <"$WORK/dir.err")" -eq 1 ]
echo 'an old comparison' >"$WORK/old.json"
"$RTJ" compare "$WORK/a.json" --quiet --json "$WORK/old.json" >/dev/null 2>&1
check "compare --json replaces an existing file" [ "$(json "$WORK/old.json" "d['schema']")" = rtjitter.compare/1 ]
check "... and leaves no temporary file" [ -z "$(ls -A "$WORK" | grep -- '\.tmp-')" ]
