#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-class: bulk (Chromium and Python on fixture reports: no server, no real-time thread, nothing timed)
# test-timeout: 300 (three Chromium screenshots: 20 s at rest, 119 and 136 s beside stress-ng --cpu 2 --io 1)
# Culprits (issue 24) on the HTML page and in compare, against fixture reports written by hand to the REPORT SCHEMA
# of src/culprit/culprit.h (tests/fixtures/culprits: before.json, after.json, and make-fixtures.py that wrote them;
# the truth is the fixtures, not the renderers). `report --html` of each: the event table's rows are the report's
# events (when, length, cycles, top culprit with its basis badge, evidence, the others folded), the spike table
# shows the first 20 and says how many more, the Culprits table of each load is its top_culprits, the periodicity
# and the sampler are said, and the timeline has a diamond per event and a circle per listed spike where its axes
# put them (tests/helpers/culprit_html.py). `compare` of the pair: the culprits that came, went and stayed per load,
# computed from the fixtures, in its JSON, its text (80 columns) and its HTML. Reports without culprits show none
# of it (and the golden outputs test holds them byte for byte). Each page is drawn by headless Chromium, 1280 px
# wide, and the colours of the observed badge and the markers must be on the screenshot. About 20 s (three Chromium screenshots; over 2 minutes beside stress-ng).
. "$(dirname "$0")/../lib.sh"
top=${RTJ_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
helpers=$top/tests/helpers
# compare keeps a set-up sidecar beside each report it reads: the fixtures are read from a copy, never in the tree
mkdir -p "$WORK/fx"; cp "$top/tests/fixtures/culprits/before.json" "$top/tests/fixtures/culprits/after.json" "$WORK/fx/"
cp "$top/tests/fixtures/reports/store/6.18.44-fc-v1098/20261202T172233Z.json" "$WORK/fx/plain.json"
F=$WORK/fx
plain=$F/plain.json
export LC_ALL=C.UTF-8 TZ=UTC
unset NO_COLOR

for r in before after; do
    "$RTJ" report "$F/$r.json" --html "$WORK/$r.html" >"$WORK/$r.out" 2>&1
    check "report $r.json --html exits 0 (got $?)" [ -s "$WORK/$r.html" ]
    python3 "$helpers/culprit_html.py" report "$WORK/$r.html" "$F/$r.json"
    # the page's other parts still hold (axes, ticks, periods, the results table): the HTML test's own checker
    python3 "$helpers/html_content.py" report "$WORK/$r.html" "$F/$r.json" >"$WORK/$r.content" 2>&1
    check "$r.html: html_content.py's checks of the plots and tables pass ($(grep -c '^ok' "$WORK/$r.content") ok)" \
        [ "$(grep -c '^not ok' "$WORK/$r.content")" = 0 ]
done

# A report without the keys: no culprit part at all.
"$RTJ" report "$plain" --html "$WORK/plain.html" >/dev/null 2>&1
check "a report without culprits: no culprit table, marker or style on its page" \
    python3 -c 'import sys; s = open(sys.argv[1]).read(); sys.exit(any(x in s for x in ("cmark", "culprits", "Culprits", ".basis")))' "$WORK/plain.html"

COLUMNS=80 "$RTJ" compare --wide "$F/before.json" "$F/after.json" --json "$WORK/cmp.json" --html "$WORK/cmp.html" \
    >"$WORK/cmp.txt" 2>"$WORK/cmp.err"
rc=$?
check "compare of the pair exits 0 or 1 (got $rc)" [ "$rc" -le 1 ]
python3 "$helpers/culprit_html.py" compare-json "$WORK/cmp.json" "$F/before.json" "$F/after.json"
python3 "$helpers/culprit_html.py" compare-text "$WORK/cmp.txt" "$F/before.json" "$F/after.json"
python3 "$helpers/culprit_html.py" compare-html "$WORK/cmp.html" "$F/before.json" "$F/after.json"
# What the fixtures were written to say (make-fixtures.py), so that a fixture changed by mistake shows here too.
check "the pair's changes are the fixtures' design: none came IRQ 31, went spin; burn went NET_RX" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
c = {l["load"]: l["culprits"][0] for l in d["loads"]}
n = lambda e, k: [x["name"] for x in e[k]]
sys.exit(not (n(c["none"], "came") == ["IRQ 31 (nvme0q2)"] and "spin" in n(c["none"], "went")
              and {"stall", "IRQ 145 (iwlwifi)"} <= set(n(c["none"], "stayed")) and n(c["burn"], "went") == ["NET_RX"]))' \
    "$WORK/cmp.json"

# One run looked, the other did not: nothing came or went that anyone could tell, and it says so.
COLUMNS=80 "$RTJ" compare --wide "$F/before.json" "$plain" --json "$WORK/half.json" >"$WORK/half.txt" 2>&1
check "compare with a run that did not look: the entry says so (sought [true, false]), lists nothing as came or went" \
    python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
e = [l["culprits"][0] for l in d["loads"] if "culprits" in l]
sys.exit(not (e and all(x["sought"] == [True, False] and not x["came"] and not x["went"] and x["seen"] for x in e)))' \
    "$WORK/half.json"
check "... and its text says [2] did not look" grep -q '^    \[2\] did not look for culprits; \[1\] named:' "$WORK/half.txt"
# Neither looked: no culprits key, no line.
"$RTJ" compare "$plain" "$plain" --json "$WORK/none.json" >"$WORK/none.txt" 2>&1
check "compare of two runs without culprits: no culprits key, no culprit line" \
    python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); sys.exit(any("culprits" in l for l in d["loads"]) or "Culprits" in open(sys.argv[2]).read())' \
    "$WORK/none.json" "$WORK/none.txt"

# The pages as a person sees them: headless Chromium, 1280 px wide. The observed badge (#1f4e9c), the event
# diamonds (#7b2cbf) and the spike circles (#ff7f0e) on the report pages; came (#b01c1c) and went (#1d7a1d) on
# the comparison's.
if command -v chromium >/dev/null; then
    screenshots 1280,2600 3 before after cmp   # the three at once (lib.sh)
    for page in before after cmp; do
        check "$page.html: chromium took a screenshot" [ -s "$WORK/$page.png" ]
        [ -n "${RTJ_SHOTS:-}" ] && cp "$WORK/$page.png" "$WORK/$page.html" "$RTJ_SHOTS/"
    done
    python3 "$helpers/culprit_html.py" shot "$WORK/before.png" 1f4e9c 7b2cbf ff7f0e
    python3 "$helpers/culprit_html.py" shot "$WORK/after.png" 1f4e9c 7b2cbf ff7f0e
    python3 "$helpers/culprit_html.py" shot "$WORK/cmp.png" b01c1c 1d7a1d
else
    ok "# SKIP chromium is not installed: no screenshots"
fi
