#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-class: quick
# `rtjitter compare` and `rtjitter report` from the command line: the latest report of each kernel in the store,
# what differs in the system identity, the setting warning, the --json document, and a one-line error with exit
# status 2 for every file that is not a readable report.
. "$(dirname "$0")/../lib.sh"

store="$XDG_DATA_HOME/rtjitter/reports"
"$RTJ" compare >"$WORK/empty.out" 2>"$WORK/empty.err"
rc=$?
check "compare with an empty store exits 2 (got $rc)" [ "$rc" -eq 2 ]
check "... with one line saying so" [ "$(wc -l <"$WORK/empty.err")" -eq 1 ]
"$RTJ" report >"$WORK/empty-r.out" 2>"$WORK/empty-r.err"
rc=$?
check "report with no file and an empty store: exit 2 (got $rc), one line ($(head -1 "$WORK/empty-r.err"))" \
    [ "$rc" -eq 2 -a "$(wc -l <"$WORK/empty-r.err")" -eq 1 -a ! -s "$WORK/empty-r.out" ]

name=$(server_name cmp)
start_jackd "$name" 48000 64 || not_ok "jackd starts"
"$RTJ" run --server "$name" --loads none --duration 6 --warmup 0.3 --quiet --json "$WORK/a.json" \
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
        for t in p['timeline']:   # the seconds the verdicts rest on move with the histogram
            for k in ('wakeup_p99_us', 'wakeup_max_us'):
                if t.get(k) is not None:
                    t[k] += shift
    os.makedirs(os.path.join(sys.argv[2], release), exist_ok=True)
    json.dump(d2, open(os.path.join(sys.argv[2], release, stamp + '.json'), 'w'))
# the older report of this kernel: wake-ups later by 5 ms, or by more when the run's own seconds spread wider (a
# clean clone's CI once: a run whose seconds' p99 spread past 5 ms made the pair "same"): four times that spread
sec = [t['wakeup_p99_us'] for p in d['phases'] for t in p['timeline'] if t.get('wakeup_p99_us') is not None]
spread = max(sec) - min(sec) if sec else 0
put('6.1.0-generic', '20260101T000000Z', 250, 'voluntary', shift=max(5000, int(4 * spread) + 1000))
put('6.1.0-generic', '20260105T000000Z', 250, 'voluntary')
put('6.8.0-lowlatency', '20260106T000000Z', 1000, 'full')
put('6.9.0-rt', '20260107T000000Z', 1000, 'rt', rate=44100)
PY
# --wide: each load's table and verdict lines (the default text is the answer and one table)
"$RTJ" compare --kernels --wide --json "$WORK/c.json" >"$WORK/c.out" 2>"$WORK/c.err"
rc=$?
check "compare --kernels with no files exits 0 (got $rc)" [ "$rc" -eq 0 ]
check "three kernels compared, the oldest first" \
    [ "$(json "$WORK/c.json" "' '.join(r['release'] for r in d['reports'])")" = "6.1.0-generic 6.8.0-lowlatency 6.9.0-rt" ]
check "the latest report of a kernel is taken" grep -q '6.1.0-generic/20260105T000000Z.json' "$WORK/c.out"
check "HZ difference shown: 250 → 1000 → 1000" grep -q 'kernel.hz .*250 → 1000 → 1000' "$WORK/c.out"
check "preempt difference shown" grep -q 'kernel.preempt .*voluntary → full → rt' "$WORK/c.out"
check "a different rate is allowed, with a warning" grep -q 'warning: 6.9.0-rt ran at .* 44100 Hz' "$WORK/c.out"
check "side-by-side table per load, headed by the kernel releases" grep -q '^Load: none' "$WORK/c.out"
check "verdicts rest on the seconds of the timeline" grep -q "wakeup p99 per second, median .* (6 s against 6 s)" "$WORK/c.out"
check "identical runs: no clear difference in wakeup p99/s" \
    [ "$(json "$WORK/c.json" "[v['outcome'] for v in d['loads'][0]['verdicts'] if v['metric']=='wakeup p99/s' and v['report']==1][0]")" = same ]
check "an earlier run of a kernel's set-up in the store is taken for run-to-run noise" \
    grep -q '1 other run of this set-up beside it (run-to-run noise), newest: .*6.1.0-generic/20260101T000000Z.json' \
    <(tr '\n' ' ' <"$WORK/c.out" | tr -s ' ')
check "--json document is rtjitter.compare/1" [ "$(json "$WORK/c.json" "d['schema']")" = rtjitter.compare/1 ]
check "the verdict sentence says nothing is beyond noise" grep -q 'Nothing here is beyond run-to-run noise' "$WORK/c.out"

# Named files: the older 6.1.0 report (wakeup +5 ms) against the newer, two runs of one set-up and no other run of
# it beside them: the two runs differ, and that is all that can be said ("better in this pair", said first and
# counted apart, never a call: the machine's run-to-run noise is unknown). compare_aa.sh has the calls made with
# other runs beside them.
"$RTJ" compare "$store/6.1.0-generic/20260101T000000Z.json" "$store/6.1.0-generic/20260105T000000Z.json" \
    --wide --json "$WORK/c2.json" >"$WORK/c2.out" 2>&1
json "$WORK/c2.json" "[(v['metric'], v['outcome'], v.get('report')) for v in d['loads'][0]['verdicts']]" | sed 's/^/# c2 verdicts: /'
check "named files alone: 5 ms (or 4 spreads of the run's seconds) less wakeup is better in this pair, not a call" \
    [ "$(json "$WORK/c2.json" "[v['outcome'] for v in d['loads'][0]['verdicts'] if v['metric']=='wakeup p99/s'][0]")" = better_in_pair ]
check "... and the line says so first, and why: one run a side" grep -q "better in this pair: wakeup p99 per second, median .*; not yet confirmed across runs: one run a side and no other run of either set-up" \
    <(tr '\n' ' ' <"$WORK/c2.out" | tr -s ' ')
check "... and the summary counts it apart, and what to do" grep -q ": better in [0-9] measures* in this pair, not yet confirmed across runs: run each set-up twice more, into one directory, and compare again" \
    <(tr '\n' ' ' <"$WORK/c2.out" | tr -s ' ')

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
# with no file: the newest report of the store (the latest start stamp of any kernel), named on stderr
"$RTJ" report --format json >"$WORK/newest.json" 2>"$WORK/newest.err"
rc=$?
check "report with no file: exit 0 (got $rc), the newest of the store named on stderr ($(cat "$WORK/newest.err"))" \
    [ "$rc" -eq 0 -a "$(cat "$WORK/newest.err")" = "rtjitter report: the newest report in the store: $store/6.9.0-rt/20260107T000000Z.json" ]
check "... and shown: that file's document" python3 -c "
import json, sys; sys.exit(json.load(open('$WORK/newest.json')) != json.load(open('$store/6.9.0-rt/20260107T000000Z.json')))"

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
check "report --help lists the forms" grep -q 'text, html, json' <("$RTJ" report --help | tr -s '\n ' '  ')
check "compare --help lists the forms" grep -q 'text, html, json' <("$RTJ" compare --help | tr -s '\n ' '  ')
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

# The text table fits the reader's terminal: 80, 100 and 200 columns, told by COLUMNS and by the size of a
# pseudo-terminal (script), with the columns a musician needs first; --wide shows all of them. The report: the
# run's phase and two copies with big numbers (a 12 ms stall, thousands of MB/s, 700 k msg/s, a missed deadline).
python3 - "$WORK/a.json" "$WORK/wide.json" <<'PY'
import copy, json, sys
d = json.load(open(sys.argv[1]))
p0 = d['phases'][0]
w = copy.deepcopy(p0)
w['load'] = 'write'
w['jitter_us']['abs_max'] = 12043.7
w['histograms']['jitter'].append([12000.0, 12064.0, 1])
w['deadlines_missed'] = 1
w['deadlines_met_pct'] = 100.0 * (w['cycles'] - 1) / w['cycles']  # 99.99something: shown as 99.99 or below
w['load_metrics'] = [{'name': 'write.throughput', 'value': 1712.3, 'unit': 'MB/s'}]
h = copy.deepcopy(p0)
h['load'] = 'hackbench'
h['load_metrics'] = [{'name': 'hackbench.messages', 'value': 702345.0, 'unit': 'msg/s'}]
d['phases'] = [p0, w, h]
json.dump(d, open(sys.argv[2], 'w'))
PY
# table_check FILE WIDTH: every line from the table's header to its note fits WIDTH display columns
table_width() { python3 - "$1" <<'PY'
import sys
lines = open(sys.argv[1], encoding='utf-8').read().replace('\r', '').split('\n')
start = next(i for i, l in enumerate(lines) if l.startswith('Load')) - 1   # the header is two lines
end = next(i for i, l in enumerate(lines) if l.startswith('% = share of the period'))
while end < len(lines) and lines[end]:
    end += 1
print(max(len(l) for l in lines[start:end]))
PY
}
for w in 80 100 200; do
    COLUMNS=$w "$RTJ" report "$WORK/wide.json" >"$WORK/cols$w.out" 2>&1
    script -qec "stty cols $w rows 50; env -u COLUMNS '$RTJ' report '$WORK/wide.json'" /dev/null >"$WORK/pty$w.out" 2>&1
    for how in cols pty; do
        tw=$(table_width "$WORK/$how$w.out")
        check "$w columns ($how): the table is $tw wide, at most $w" [ "${tw:-999}" -le "$w" ]
    done
done
check "a pseudo-terminal's width is what COLUMNS says it is (80)" cmp -s <(tr -d '\r' <"$WORK/pty80.out") "$WORK/cols80.out"
check "80 columns: |jitter| p99 and max, deadlines met and xruns are there" \
    grep -q '|jitter| p99.*|jitter| max.*deadlines.*xruns' "$WORK/cols80.out"
check "... and the table uses the width (over 70 columns)" [ "$(table_width "$WORK/cols80.out")" -gt 70 ]
check "200 columns show more columns than 80" [ "$(table_width "$WORK/cols200.out")" -gt "$(table_width "$WORK/cols80.out")" ]
COLUMNS=80 "$RTJ" report "$WORK/wide.json" --wide >"$WORK/wide80.out" 2>&1
check "--wide shows every column whatever the width (p99.9, mean ± SD, dropped)" \
    grep -q '|jitter| p99.9.*jitter mean ± SD.*wakeup p99.9.*wakeup mean ± SD.*dropped' "$WORK/wide80.out"
env -u COLUMNS "$RTJ" report "$WORK/wide.json" >"$WORK/pipe.out" 2>&1
check "not a terminal and no COLUMNS: 80 columns" cmp -s "$WORK/pipe.out" "$WORK/cols80.out"
check "numbers for people: 1712 MB/s" grep -q 'write.throughput 1712 MB/s' "$WORK/cols100.out"
check "... 702 k msg/s" grep -q 'hackbench.messages 702 k msg/s' "$WORK/cols100.out"
check "... nowhere an e+ exponent" bash -c "! grep -q 'e+0' '$WORK/cols100.out'"
met=$(python3 -c "
import json, math; d = json.load(open('$WORK/wide.json')); p = d['phases'][1]
print('%.2f' % (math.floor(p['deadlines_met_pct'] * 100) / 100))")
check "one missed deadline reads $met, never 100.00" grep -q "^write .* $met " "$WORK/cols100.out"
check "µs where the locale is UTF-8" grep -q 'µs' "$WORK/cols100.out"
LANG=C LC_ALL= LC_CTYPE= "$RTJ" report "$WORK/wide.json" --wide >"$WORK/ascii.out" 2>&1
check "us and +/- where it is not (LANG=C): no byte outside ASCII" \
    bash -c "grep -q ' us ' '$WORK/ascii.out' && grep -q '+/-' '$WORK/ascii.out' && ! LC_ALL=C grep -q '[^ -~]' '$WORK/ascii.out'"
# compare's tables fit too, report columns cut into blocks when they do not fit side by side.
for w in 80 200; do
    COLUMNS=$w "$RTJ" compare "$WORK/a.json" "$WORK/wide.json" "$WORK/a.json" "$WORK/wide.json" >"$WORK/cmp$w.out" 2>&1
    tw=$(python3 - "$WORK/cmp$w.out" "$w" <<'PY'
import sys
w = int(sys.argv[2])
# a line holding a word too long for any line (a file path) is exempt: it is printed whole on its own line
ls = [l for l in open(sys.argv[1], encoding='utf-8').read().split('\n') if max([len(x) for x in l.split()] + [0]) < w - 10]
print(max(len(l) for l in ls))
PY
)
    check "compare at $w columns: every line that is not a path fits ($tw)" [ "${tw:-999}" -le "$w" ]
done
# A second run of the same kernel, its |jitter| half as large again and its wakeup 2.5 µs later (histograms and the
# seconds of the timeline alike): the wake-up shift is below the 5 µs that matters, which the verdict line must say.
python3 - "$WORK/a.json" "$WORK/shift.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d['started'] = '2026-01-02T03:04:05Z'
for p in d['phases']:
    p['histograms']['jitter'] = [[lo * 1.5, hi * 1.5, c] for lo, hi, c in p['histograms']['jitter']]
    p['jitter_us']['abs_max'] *= 1.5
    p['histograms']['wakeup'] = [[lo + 2.5, hi + 2.5, c] for lo, hi, c in p['histograms']['wakeup']]
    p['wakeup_us']['max'] += 2.5
    for t in p['timeline']:
        for k in ('jitter_abs_p99_us', 'jitter_abs_max_us'):
            t[k] = t[k] * 1.5 if t.get(k) is not None else None
        for k in ('wakeup_p99_us', 'wakeup_max_us'):
            t[k] = t[k] + 2.5 if t.get(k) is not None else None
json.dump(d, open(sys.argv[2], 'w'))
PY
COLUMNS=200 "$RTJ" compare "$WORK/a.json" "$WORK/shift.json" --wide >"$WORK/shift.out" 2>&1
check "compare: the table's |jitter| p99/s median is the figure its verdict names" python3 - "$WORK/shift.out" "$WORK/a.json" <<'PY'
import json, re, sys
t = open(sys.argv[1], encoding='utf-8').read()
row = re.search(r'^\|jitter\| p99/s, median \(µs\)\s+(\S+)\s+(\S+)', t, re.M)
verdict = re.search(r'\|jitter\| p99 per second, median (\S+) → (\S+) µs', t)
# the truth, from the report's own timeline: the median of its whole seconds' |jitter| p99 (a last second with
# fewer than half the usual cycles is a cut one)
tl = json.load(open(sys.argv[2]))['phases'][0]['timeline']
cyc = sorted(e['cycles'] for e in tl if e.get('span_s', 1) == 1 and e['cycles'] > 0)
usual = cyc[len(cyc) // 2] if len(cyc) % 2 else (cyc[len(cyc) // 2 - 1] + cyc[len(cyc) // 2]) / 2
v = sorted(e['jitter_abs_p99_us'] for i, e in enumerate(tl) if e.get('span_s', 1) == 1 and e['cycles'] > 0
           and not (i == len(tl) - 1 and e['cycles'] < usual / 2))
med = v[len(v) // 2] if len(v) % 2 else (v[len(v) // 2 - 1] + v[len(v) // 2]) / 2
ok = row and verdict and row.group(1) == verdict.group(1) and row.group(2) == verdict.group(2)
print('# table %s, verdict %s, the timeline\'s median second %.2f' % (row and row.groups(), verdict and verdict.groups(), med))
ok = ok and abs(float(row.group(1)) - med) <= 0.051 and abs(float(row.group(2)) - 1.5 * med) <= 0.051 * 1.5
sys.exit(0 if ok else 1)
PY
check "compare: every verdict line says what decided it" python3 - "$WORK/shift.out" "$WORK/cmp200.out" <<'PY'
import sys
lines = []
for f in sys.argv[1:]:
    cur = None
    for l in open(f, encoding='utf-8').read().split('\n'):
        if l.startswith('    - '):
            cur = l[6:]
            lines.append(cur)
        elif cur is not None and l.startswith('      '):
            lines[-1] += ' ' + l.strip()
        else:
            cur = None
why = ('Mann-Whitney', 'permutation test of their ranks', 'none in either run', 'not compared')
bad = [l for l in lines if not any(w in l for w in why)]
sure = [l for l in lines if 'p < 0.001' in l and 'no clear difference' in l]
bare = [l for l in sure if not ('that matters' in l or 'noise' in l or 'times apart' in l)]
print('# %d verdict lines; without a reason: %s; %d say p < 0.001 beside no clear difference, without why: %s'
      % (len(lines), bad[:2], len(sure), bare[:2]))
sys.exit(0 if lines and not bad and not bare else 1)
PY

# Before/after on one kernel: the store grouped by set-up (release + boot command line, preempt, governor, threaded
# IRQs, audio settings). The tool's own advice changes boot options, not the release.
setups="$WORK/setups"
python3 - "$WORK/a.json" "$setups" <<'PY'
import json, os, sys
d = json.load(open(sys.argv[1]))
def put(stamp, cmdline, governor, label=None, host=None, shift=0):
    d2 = json.loads(json.dumps(d))
    k = d2['system']['kernel']
    k['release'], k['cmdline'] = '6.1.0-studio', cmdline
    k['threadirqs'] = 'threadirqs' in cmdline
    d2['system']['cpu']['governor'] = governor
    d2['label'] = label
    if host:
        d2['system']['hostname'] = host
    for p in d2['phases']:
        p['histograms']['wakeup'] = [[lo + shift, hi + shift, c] for lo, hi, c in p['histograms']['wakeup']]
        for t in p['timeline']:   # the seconds the verdicts rest on move with the histogram
            for k in ('wakeup_p99_us', 'wakeup_max_us'):
                if t.get(k) is not None:
                    t[k] += shift
    os.makedirs(os.path.join(sys.argv[2], '6.1.0-studio'), exist_ok=True)
    name = stamp + ('-' + label if label else '') + '.json'
    json.dump(d2, open(os.path.join(sys.argv[2], '6.1.0-studio', name), 'w'))
put('20260201T100000Z', 'quiet', 'powersave', 'before')
put('20260201T110000Z', 'quiet', 'powersave', 'before')
put('20260202T100000Z', 'quiet threadirqs', 'performance', 'after')
put('20260202T110000Z', 'quiet threadirqs', 'performance', 'after', shift=3000)
put('20260203T100000Z', 'quiet threadirqs', 'performance', 'other', host='another-box')
PY
# the newest run is another machine's: its only set-up there has one report
"$RTJ" compare --store "$setups" >"$WORK/s0.out" 2>"$WORK/s0.err"; rc=$?
check "one report on the newest machine: exit 2 and it says '1 report', not '1 reports' ($(head -1 "$WORK/s0.err"))" \
    [ "$rc" -eq 2 -a "$(grep -c '1 report on another-box: nothing to compare' "$WORK/s0.err")" -eq 1 ]
rm "$setups/6.1.0-studio/20260203T100000Z-other.json"
"$RTJ" compare --store "$setups" --json "$WORK/s1.json" >"$WORK/s1.out" 2>"$WORK/s1.err"; rc=$?
check "before/after on one kernel: exit 0 (got $rc), and it says what it chose ($(head -1 "$WORK/s1.err"))" \
    [ "$rc" -eq 0 -a "$(grep -c 'the latest run of each of the last 2 set-ups' "$WORK/s1.err")" -eq 1 ]
echo "# compared: $(json "$WORK/s1.json" "' '.join(str(r.get('file')) for r in d['reports'])")"
check "... the latest run of the set-up before against the latest of the set-up now" \
    [ "$(json "$WORK/s1.json" "' '.join(r['file'].split('/')[-1] for r in d['reports'])")" = "20260201T110000Z-before.json 20260202T110000Z-after.json" ]
check "... what changed is shown: the boot command line and the governor" \
    bash -c "grep -q 'kernel.cmdline' '$WORK/s1.out' && grep -q 'cpu.governor .*powersave → performance' '$WORK/s1.out'"
check "... runs of one release are told apart by their labels" bash -c "grep -q 'before' '$WORK/s1.out' && grep -q 'after' '$WORK/s1.out'"
"$RTJ" compare --store "$setups" --label after --json "$WORK/s2.json" >/dev/null 2>"$WORK/s2.err"; rc=$?
check "--label after: one set-up, its latest 2 runs ($(head -1 "$WORK/s2.err"))" \
    [ "$rc" -eq 0 -a "$(json "$WORK/s2.json" "' '.join(r['file'].split('/')[-1] for r in d['reports'])")" = "20260202T100000Z-after.json 20260202T110000Z-after.json" ]
"$RTJ" compare --store "$setups" --last 3 --json "$WORK/s3.json" >/dev/null 2>&1; rc=$?
check "--last 3 with 2 set-ups: both, exit $rc" [ "$(json "$WORK/s3.json" "len(d['reports'])")" = 2 ]
