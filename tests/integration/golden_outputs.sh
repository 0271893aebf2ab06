#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-class: quick
# test-fill: tail (renders fixture reports: no server, no real-time thread, nothing timed)
# test-timeout: 120
# Byte for byte: `report` and `compare` of the committed fixture reports (tests/fixtures/reports), through every
# renderer and form (tests/helpers/golden.sh), equal the committed outputs in tests/fixtures/golden, and so does
# each command's exit status. What this holds is that a change meant to keep behaviour (the House issue's moves)
# keeps every output; the outputs' truth is the other tests' work. `report --format json` of a report must be the
# report itself: those outputs are compared with their inputs, not with stored copies; the golden pages are kept
# without their stylesheet (golden.sh strips it). A deliberate change of an output regenerates them (`make goldens`)
# and commits them with it; this test names each file that differs and shows the start of its diff.
# The page of three periods is also checked as html_browser checks pages (html_content.py): its period lines and
# labels, none written over another text.
. "$(dirname "$0")/../lib.sh"
TOP=${RTJ_TOP:-$PWD}
cd "$TOP" || exit 1
RTJ=$(cd "$(dirname "$RTJ")" && pwd)/$(basename "$RTJ") tests/helpers/golden.sh "$WORK/out"
n=0
bad=0
while read -r out in; do
    n=$((n + 1))
    if ! cmp -s "$in" "$WORK/out/same-as-input/$out"; then
        bad=$((bad + 1))
        echo "# differs from its input $in: $out"
        diff "$in" "$WORK/out/same-as-input/$out" | head -8 | sed 's/^/#   /'
    fi
done <"$WORK/out/same-as-input/LIST"
check "report --format json of each of $n reports is the report itself ($bad differ)" holds '[ "$n" -ge 14 ] && [ "$bad" = 0 ]'
rm -r "$WORK/out/same-as-input"
want=$(cd tests/fixtures/golden && ls | sort)
got=$(cd "$WORK/out" && ls | sort)
check "the same outputs are made ($(echo "$got" | wc -l) files)" [ "$want" = "$got" ]
bad=0
for f in $got; do
    if ! cmp -s "tests/fixtures/golden/$f" "$WORK/out/$f"; then
        bad=$((bad + 1))
        echo "# differs: $f"
        diff "tests/fixtures/golden/$f" "$WORK/out/$f" | head -8 | sed 's/^/#   /'
    fi
done
check "every output byte-identical to tests/fixtures/golden ($bad differ)" [ "$bad" = 0 ]

# The page of three reports at three periods (1.33, 2.67 and 5.33 ms), checked as html_browser checks a page
# (tests/helpers/html_content.py: the plots' axes read from their ticks, text measured with DejaVu Sans's own
# widths): each period's line where the axis puts it, and no period label written over another text (the labels
# of 64 and 128 frames once overlapped).
S=tests/fixtures/reports/store/6.18.44-fc-v1098
python3 tests/helpers/html_content.py compare "$WORK/out/compare-three.html" "$S/20261202T172301Z.json" \
    "$S/20261202T172233Z.json" "$S/20261202T172228Z-after.json" >"$WORK/three.content" 2>&1
check "compare-three.html: html_content.py's checks pass ($(grep -c '^ok' "$WORK/three.content") ok; $(grep -m 2 '^not ok' "$WORK/three.content"))" \
    holds '! grep -q "^not ok" "$WORK/three.content" && grep -q "period labels write over no other text" "$WORK/three.content"'
# A run page's weight grows with the happenings it lists: 500 spikes and 100 events (copies of the fixture's one
# spike, spread over the phase) may add at most 400 bytes each to the page of culprits-timer-spike, counted from the
# page itself (each once carried its evidence sentence in its marker's tooltip and its basis explained on each
# table row: 1.4 MB for a run of eight loads).
python3 - tests/fixtures/reports/culprits-timer-spike.json "$WORK/many.json" <<'PY'
import copy, json, sys
d = json.load(open(sys.argv[1]))
p = [p for p in d['phases'] if p.get('spikes')][0]
t0, t1 = p['clock_window_s']
s = p['spikes'][0]
p['spikes'] = [dict(copy.deepcopy(s), t_s=t0 + (t1 - t0) * i / 500) for i in range(500)]
p['events'] = [{'t_s': t0 + (t1 - t0) * i / 100, 'length_ms': 1.5, 'cycles': 2, 'explained': True,
                'culprits': copy.deepcopy(s['culprits'])} for i in range(100)]
json.dump(d, open(sys.argv[2], 'w'))
PY
"$RTJ" report tests/fixtures/reports/culprits-timer-spike.json --html "$WORK/few.html" >/dev/null 2>&1
"$RTJ" report "$WORK/many.json" --html "$WORK/many.html" >/dev/null 2>&1
per=$(( ($(stat -c %s "$WORK/many.html") - $(stat -c %s "$WORK/few.html")) / 600 ))
check "a page with 600 more listed happenings grows by $per bytes each (at most 400)" [ "$per" -gt 0 -a "$per" -le 400 ]
