#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-class: quick
# `rtjitter compare --store DIR --matrix`: a fleet's reports as a kernel x machine table, in text (80 columns),
# JSON and HTML, each checked against Python's own reading of the same store (tests/helpers/matrix_fleet.py).
# The reports are real: three short --backend timer runs of this machine (one of two phases). The fleet is made
# from them by rewriting only their system identity (host name, CPU model, kernel release) and start, so that
# they stand for 3 machines and 3 kernels: 7 reports, one pair run twice, three pairs never, a host name with
# markup in it, names longer than a text column, and a broken *.json beside them. The HTML page is drawn by
# headless Chromium and its screenshot read back. About 6 s.
. "$(dirname "$0")/../lib.sh"
helpers=${RTJ_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/helpers

for i in 1 2 3; do
    loads=none; [ "$i" = 1 ] && loads=none,none
    "$RTJ" run --backend timer --loads "$loads" --duration 0.5 --warmup 0 --quiet --output "$WORK/runs" \
        --json "$WORK/r$i.json" >"$WORK/run$i.out" 2>&1
    rc=$?
    # exit 1 is a run whose verdict failed (this machine is busy): still a real report for the fleet.
    check "timer run $i wrote a report (exit $rc)" [ "$rc" -le 1 -a -s "$WORK/r$i.json" ]
done
python3 "$helpers/matrix_fleet.py" build "$WORK/fleet" "$WORK/r1.json" "$WORK/r2.json" "$WORK/r3.json"

COLUMNS=80 LC_ALL=C.UTF-8 "$RTJ" compare --store "$WORK/fleet" --matrix >"$WORK/m.txt" 2>"$WORK/m.err"
rc=$?
check "compare --matrix exits 0 (got $rc)" [ "$rc" -eq 0 ]
check "the broken report is named on stderr and left out ($(head -c 90 "$WORK/m.err"))" \
    grep -q '20260301T095959Z.json: .*(left out)' "$WORK/m.err"
sed 's/^/# /' "$WORK/m.txt"
python3 "$helpers/matrix_fleet.py" text "$WORK/fleet" "$WORK/m.txt" 80 || not_ok "matrix_fleet.py text: a check failed or the helper stopped"
# Without a UTF-8 locale: "us" and "..." instead of µs and the ellipsis, nothing but ASCII, still 80 columns.
COLUMNS=80 LC_ALL=C "$RTJ" compare --store "$WORK/fleet" --matrix >"$WORK/a.txt" 2>/dev/null
check "without a UTF-8 locale the table is ASCII (us, ...)" python3 -c "
import sys; s = open(sys.argv[1], 'rb').read(); sys.exit(not (max(s) < 128 and b' (us)' in s and b'...' in s))" "$WORK/a.txt"
python3 "$helpers/matrix_fleet.py" text "$WORK/fleet" "$WORK/a.txt" 80 || not_ok "matrix_fleet.py text: a check failed or the helper stopped"

"$RTJ" compare --store "$WORK/fleet" --matrix --format json >"$WORK/m.json" 2>/dev/null
python3 "$helpers/matrix_fleet.py" json "$WORK/fleet" "$WORK/m.json" || not_ok "matrix_fleet.py json: a check failed or the helper stopped"
"$RTJ" compare --store "$WORK/fleet" --matrix --html "$WORK/m.html" --json "$WORK/m2.json" --quiet >"$WORK/q.out" 2>/dev/null
rc=$?
check "--html and --json files with --quiet: exit 0, nothing on stdout (got $rc, $(wc -c <"$WORK/q.out") bytes)" \
    [ "$rc" -eq 0 -a ! -s "$WORK/q.out" ]
check "--json FILE is the document --format json prints" cmp -s "$WORK/m.json" "$WORK/m2.json"
python3 "$helpers/matrix_fleet.py" html "$WORK/fleet" "$WORK/m.html" || not_ok "matrix_fleet.py html: a check failed or the helper stopped"

screenshots 1200,1200 1 m
check "chromium took a screenshot of the matrix page" [ -s "$WORK/m.png" ]
[ -n "${RTJ_SHOTS:-}" ] && cp "$WORK/m.png" "$RTJ_SHOTS/matrix.png" && cp "$WORK/m.html" "$RTJ_SHOTS/matrix.html"
[ -s "$WORK/m.png" ] && { python3 "$helpers/matrix_fleet.py" png "$WORK/fleet" "$WORK/m.png" || not_ok "matrix_fleet.py png: a check failed or the helper stopped"; }

# Bad input: a store with no report, a form the matrix has not, files beside --matrix (one line, exit 2).
mkdir -p "$WORK/empty"
for args in "--store $WORK/empty --matrix" "--store $WORK/fleet --matrix --format junit" \
            "$WORK/r1.json --store $WORK/fleet --matrix"; do
    "$RTJ" compare $args >"$WORK/bad.out" 2>&1
    rc=$?
    check "compare ${args//$WORK/W}: exit 2 with one line (got $rc: $(head -c 80 "$WORK/bad.out"))" \
        [ "$rc" -eq 2 -a "$(wc -l <"$WORK/bad.out")" -eq 1 ]
done
