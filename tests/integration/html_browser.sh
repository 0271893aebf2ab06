#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-lock: rtburn (--dsp burns a share of each period in a SCHED_FIFO thread: never beside another such burn)
# HTML pages of `run --html` (one with --dsp ramp), `report --html` (of a report and of a sweep) and `compare --html`,
# checked in a real browser: Debian's headless
# Chromium renders each page to a PNG that must not be blank, and every inline SVG must parse as XML.
# Hostile strings in a report (label, load error) must come out escaped.
. "$(dirname "$0")/../lib.sh"

name=$(server_name html)
start_jackd "$name" 48000 128 || not_ok "jackd starts"
# --json and --html name files that already exist as symlinks to someone else's file: each link is replaced
# by the new file, the file it pointed to is never written (run used to unlink and recreate --json's name).
echo precious >"$WORK/run-victim"
ln -s "$WORK/run-victim" "$WORK/a.json"
ln -s "$WORK/run-victim" "$WORK/run.html"
"$RTJ" run --server "$name" --loads none --duration 6 --warmup 0.3 --quiet --label '<b>lab</b>' \
    --json "$WORK/a.json" --html "$WORK/run.html" --output "$WORK/store" >"$WORK/run.out" 2>&1
rc=$?
check "run --html exits 0 (got $rc)" [ "$rc" -eq 0 ]
# A full disk (a private 64 KiB tmpfs, root only): the user's old --json file stays whole. run used to unlink
# it first, so a write that failed lost it.
if [ "$(id -u)" -eq 0 ] && unshare -m true 2>/dev/null; then
    mkdir -p "$WORK/full"
    RTJ="$RTJ" WORK="$WORK" name="$name" unshare -m bash -c '
        mount -t tmpfs -o size=64k rtjt-html-full "$WORK/full" || exit 9
        echo "the old report" >"$WORK/full/r.json"
        dd if=/dev/zero of="$WORK/full/filler" bs=4k 2>/dev/null
        "$RTJ" run --server "$name" --loads none --duration 0.5 --warmup 0.2 --quiet --json "$WORK/full/r.json" \
            --output "$WORK/store" >"$WORK/full.out" 2>&1
        cp "$WORK/full/r.json" "$WORK/full.kept"
        ls -A "$WORK/full" | tr "\n" " " >"$WORK/full.left"
        umount "$WORK/full"'
    check "run --json on a full disk: the old file is kept whole" [ "$(cat "$WORK/full.kept")" = "the old report" ]
    check "... the failure is said ($(grep -o 'cannot write.*' "$WORK/full.out"))" grep -q 'No space left' "$WORK/full.out"
    check "... and no temporary file is left ($(cat "$WORK/full.left"))" [ "$(cat "$WORK/full.left")" = "filler r.json " ]
else
    ok "# SKIP full disk: needs root and unshare -m for a private tmpfs"
fi
# A --dsp ramp on the same server (a phase of 11 steps of 0.2 s): its page is checked like the others, and its
# ramp plot against the report's steps (html_content.py).
"$RTJ" run --server "$name" --loads none --warmup 0.2 --dsp ramp:10:0.2 --quiet --json "$WORK/ramp.json" \
    --html "$WORK/ramp.html" --output "$WORK/store" >"$WORK/ramp.out" 2>&1
check "run --dsp ramp --html exits 0 (got $?)" [ -s "$WORK/ramp.html" ]
stop_jackd "$JACKD_PID"
# A sweep (timer backend, quick) with a hostile label; its page comes from `rtjitter report SWEEP.json --html`.
"$RTJ" sweep --backend timer --periods 128,256,512 --loads none,burn --duration 0.5 --warmup 0.1 --measure-all \
    --label '<b>sweep</b>"&' --quiet --output "$WORK/store" --json "$WORK/sweep.json" >"$WORK/sweep.out" 2>&1
"$RTJ" report "$WORK/sweep.json" --html "$WORK/sweep.html" >/dev/null 2>&1
check "report --html of a sweep exits 0 (got $?)" [ -s "$WORK/sweep.html" ]
check "run --html wrote a page" [ -s "$WORK/run.html" ]
check "run --json and --html replaced the symlinks at their names, not the file they pointed to" \
    [ "$(cat "$WORK/run-victim")" = precious -a ! -L "$WORK/a.json" -a ! -L "$WORK/run.html" ]

# A second kernel, made from the first report: other HZ and preempt, a hostile load error, and a slower wakeup
# (3 ms in the histogram; in the seconds compare judges, 3 ms beyond the run's own spread: see below).
python3 - "$WORK/a.json" "$WORK/b.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d['system']['kernel']['release'] = '9.9.9-other<script>'
d['system']['kernel']['hz'] = 1000
d['system']['kernel']['preempt'] = 'full'
p = d['phases'][0]
p['load_error'] = '<img src=x onerror=alert(1)> & "quoted"'
p['histograms']['wakeup'] = [[lo + 3000, hi + 3000, c] for lo, hi, c in p['histograms']['wakeup']]
# compare judges the seconds of the timeline (a 6 s run: 5 whole seconds at least). They are later by 3 ms plus
# twice the spread of the run's own seconds: on a busy machine one stalled second of a 6 s JACK run is more than 3 ms
# above the others, and then 3 ms alone let the seconds overlap (with 5 a side the rank test reaches p < 0.01 only
# when every second of one is above every second of the other) and compare rightly called nothing. With the spread
# S added twice, every second of b is above every second of a, and every half of b is later than every half of a by
# at least 3 ms + S, more than half the whole shift (3 ms + 2 S): what compare's rule asks, whatever the machine did.
for k in ('wakeup_p99_us', 'wakeup_max_us'):
    v = [t[k] for t in p['timeline'] if t.get(k) is not None]
    later = 3000 + 2 * (max(v) - min(v))
    for t in p['timeline']:
        if t.get(k) is not None:
            t[k] += later
p['xruns']['reported'] = 3
json.dump(d, open(sys.argv[2], 'w'))
PY

"$RTJ" report "$WORK/b.json" --html "$WORK/report.html" >"$WORK/report.out" 2>&1
rc=$?
check "report --html exits 0 (got $rc)" [ "$rc" -eq 0 ]
"$RTJ" report "$WORK/b.json" --html "$WORK/report2.html" --text >"$WORK/text.out" 2>&1
check "report --html --text prints the text table too" grep -q '^Load' "$WORK/text.out"
# The attack on a predictable temporary name: symlinks planted at out.html.tmp-PID (the name report --html
# used) and .out.html.tmp-PID (the store's), PID being the rtjitter about to run. Neither is followed.
echo precious >"$WORK/victim"
RTJ="$RTJ" WORK="$WORK" sh -c 'ln -s "$WORK/victim" "$WORK/out.html.tmp-$$"; ln -s "$WORK/victim" "$WORK/.out.html.tmp-$$"
    exec "$RTJ" report "$WORK/b.json" --html "$WORK/out.html"' >/dev/null 2>&1
check "report --html: a symlink planted at out.html.tmp-PID is not written through" [ "$(cat "$WORK/victim")" = precious ]
check "... and the page is written under its name" grep -q '</html>' "$WORK/out.html"
mkfifo "$WORK/fifo.html"
timeout 10 "$RTJ" report "$WORK/b.json" --html "$WORK/fifo.html" >/dev/null 2>"$WORK/fifo.err"
rc=$?
check "report --html onto a FIFO is refused: exit 2 (got $rc), one line" \
    [ "$rc" -eq 2 -a "$(wc -l <"$WORK/fifo.err")" -eq 1 -a -p "$WORK/fifo.html" ]
# compare calls a difference only with other runs of each set-up beside the reports: one more of each (the
# per-second wake-up 2 µs later: runs of one set-up are never identical), all four in one directory.
mkdir -p "$WORK/cmp"
python3 - "$WORK/a.json" "$WORK/b.json" "$WORK/cmp" <<'PY'
import json, os, sys
for src in sys.argv[1:3]:
    d = json.load(open(src))
    base = os.path.basename(src)[:-5]
    json.dump(d, open(os.path.join(sys.argv[3], base + '.json'), 'w'))
    for t in d['phases'][0]['timeline']:
        for k in ('wakeup_p99_us', 'wakeup_max_us'):
            if t.get(k) is not None:
                t[k] += 2
    json.dump(d, open(os.path.join(sys.argv[3], base + '2.json'), 'w'))
PY
"$RTJ" compare "$WORK/cmp/a.json" "$WORK/cmp/b.json" --html "$WORK/compare.html" --quiet >"$WORK/cmp.out" 2>&1
rc=$?
check "compare --html exits 0 (got $rc)" [ "$rc" -eq 0 ]
"$RTJ" compare --alone "$WORK/cmp/a.json" "$WORK/cmp/b.json" --html "$WORK/compare-alone.html" --quiet >/dev/null 2>&1
check "compare --alone --html: the later wakeup of one run a side is worse in this pair (its own colour), not worse" \
    bash -c "grep -q '<li class=\"worse-pair\">worse in this pair: ' '$WORK/compare-alone.html' && ! grep -q 'class=\"worse\"' '$WORK/compare-alone.html'"

# What the pages draw, checked against the reports (tests/helpers/html_content.py): the period at its place on
# every plot, one axis per metric and page, nothing written past a picture's edge, the table's figures and
# marks; and a comparison of 4 reports, two of them of one kernel with no label, drawn as 4 distinguishable
# lines. The rich report: the run's phase, and a copy with a 12 ms stall, xruns, a missed deadline and a last
# second that ran 0.4 s.
python3 - "$WORK/a.json" "$WORK/rich.json" "$WORK/c3.json" "$WORK/c4.json" <<'PY'
import copy, json, sys
d = json.load(open(sys.argv[1]))
p0 = d['phases'][0]
w = copy.deepcopy(p0)
w['load'] = 'write'
w['histograms']['jitter'].append([12000.0, 12064.0, 1])
w['jitter_us']['abs_max'] = 12040.0
# its stored |jitter| quantiles no longer hold with the stall added: gone, so the page computes them from the
# histogram (the fallback of older reports), which html_content.py checks against the histogram itself
w['jitter_us'].pop('abs_p99', None)
w['jitter_us'].pop('abs_p999', None)
w['xruns'] = {'reported': 2, 'detected': 1, 'skipped_cycles': 9}
w['deadlines_missed'] = 1
w['deadlines_met_pct'] = 100.0 * (w['cycles'] - 1) / w['cycles']
w['timeline'][1]['jitter_abs_max_us'] = 12040.0
w['timeline'][1]['xruns_reported'] = 2
w['measured_s'] = len(w['timeline']) - 0.6
w['load_metrics'] = [{'name': 'write.throughput', 'value': 1712.3, 'unit': 'MB/s'},
                     {'name': 'write.fsyncs', 'value': 214.0, 'unit': 'fsync/s'}]
d['phases'] = [p0, w]
d['thresholds'] = {'profile': 'studio', 'max_xruns': 0, 'max_deadlines_missed': 0, 'max_jitter_us': None}
json.dump(d, open(sys.argv[2], 'w'))
for i, (f, start) in enumerate(((sys.argv[3], '2026-01-02T10:00:00Z'), (sys.argv[4], '2026-01-03T11:30:00Z'))):
    e = json.load(open(sys.argv[1]))
    e.pop('label', None)
    e['started'] = start
    for p in e['phases']:
        p['histograms']['wakeup'] = [[lo + 40 * (i + 1), hi + 40 * (i + 1), c] for lo, hi, c in p['histograms']['wakeup']]
        p['wakeup_us']['max'] += 40 * (i + 1)
    json.dump(e, open(f, 'w'))
PY
"$RTJ" report "$WORK/rich.json" --html "$WORK/rich.html" >/dev/null 2>&1
check "report --html of the rich report exits 0" [ $? -eq 0 ]
"$RTJ" compare "$WORK/a.json" "$WORK/b.json" "$WORK/c3.json" "$WORK/c4.json" --html "$WORK/compare4.html" \
    --json "$WORK/compare4.json" --quiet >/dev/null 2>&1
check "compare --html of 4 reports exits 0" [ $? -eq 0 ]
check "compare: two reports of one kernel with no label are told apart (by their start)" [ "$(json "$WORK/compare4.json" \
    "len(set(r['title'] for r in d['reports']))")" = 4 ]
helpers=${RTJ_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/helpers
python3 "$helpers/html_content.py" report "$WORK/run.html" "$WORK/a.json" || not_ok "run.html: its content as the report says"
python3 "$helpers/html_content.py" report "$WORK/rich.html" "$WORK/rich.json" || not_ok "rich.html: its content as the report says"
python3 "$helpers/html_content.py" compare "$WORK/compare4.html" "$WORK/a.json" "$WORK/b.json" "$WORK/c3.json" \
    "$WORK/c4.json" || not_ok "compare4.html: its content as the reports say"
python3 "$helpers/html_content.py" report "$WORK/ramp.html" "$WORK/ramp.json" || not_ok "ramp.html: its content as the report says"
python3 "$helpers/html_content.py" sweep "$WORK/sweep.html" "$WORK/sweep.json" || not_ok "sweep.html: its content as the sweep says"
check "rich.html: load figures for people (1712 MB/s), one per line" grep -q '<div>write.throughput <span class="nw"><b>1712</b> MB/s</span></div><div>write.fsyncs' "$WORK/rich.html"

# Chromium renders the pages four at a time (lib.sh's screenshots; all seven at once on a machine at load 38 missed
# their 90 s), then each page is checked with its screenshot.
pages=(run report compare rich compare4 ramp sweep)
screenshots 1280,2400 4 "${pages[@]}"
for page in "${pages[@]}"; do
    f="$WORK/$page.html"
    check "$page.html: no raw markup from the report" python3 - "$f" <<'PY'
import re, sys
s = open(sys.argv[1], encoding='utf-8').read()
# the sweep's links to its cells' reports: file: URLs of percent-encoded paths, nothing else can match
s = re.sub(r'<a class="rep" href="file:///[A-Za-z0-9/._~%-]+">', '', s)
bad = [t for t in ('<script', '<img', 'src="', 'href="', 'http://', 'https://') if t in s.replace('http://www.w3.org/2000/svg', '')]
print('# %s: %d bytes, %d svg' % (sys.argv[1].split('/')[-1], len(s), s.count('<svg')), 'bad:', bad)
sys.exit(1 if bad else 0)
PY
    check "$page.html: every SVG parses as XML" python3 - "$f" <<'PY'
import re, sys, xml.etree.ElementTree as ET
s = open(sys.argv[1], encoding='utf-8').read()
svgs = re.findall(r'<svg\b.*?</svg>', s, re.S)
for x in svgs:
    ET.fromstring(x)
sys.exit(0 if svgs else 1)
PY
    png="$WORK/$page.png"
    check "$page.html: chromium took a screenshot" [ -s "$png" ]
    [ -n "${RTJ_SHOTS:-}" ] && cp "$png" "$RTJ_SHOTS/$page.png" && cp "$f" "$RTJ_SHOTS/$page.html"
    check "$page.html: the screenshot is not blank" python3 - "$png" "$RTJ_TOP/tests/helpers" <<'PY'
import sys
sys.path.insert(0, sys.argv[2])
from png import png_pixels
w, rows = png_pixels(sys.argv[1], max_rows=700)  # the top of the page (verdict, tables, first plot) is enough
colours, ink = set(), 0
for row in rows[::4]:
    for px in row[::4]:
        colours.add(px)
        ink += px != (255, 255, 255)
print('# %d distinct colours, %d sampled non-white pixels' % (len(colours), ink))
sys.exit(0 if len(colours) > 20 and ink > 500 else 1)
PY
done
grep -q 'kernel.hz' "$WORK/compare.html"
check "compare.html lists what differs in the system (kernel.hz)" [ $? -eq 0 ]
check "compare.html calls the later wakeup worse (a run more of each set-up beside them)" grep -q 'class="worse"' "$WORK/compare.html"
check "compare.html names the other run of each set-up" grep -q '1 other run of this set-up beside it' "$WORK/compare.html"
