#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-class: plain (a 2 s timer run: a real-time thread)
# test-timeout: 180
# One figure, one value (issue 36): every per-load figure the text table (--wide) and the HTML results table of
# `report` show — |jitter| and wakeup p99, p99.9, max, mean, SD, deadlines met, xruns, skipped, dropped, cycles —
# prints the report's JSON value at the shown precision, and compare's JSON column holds the same quantiles
# (tests/helpers/figures_agree.py). Inputs: every fixture report (tests/fixtures/reports, the goldens' inputs) and
# a fresh timer run, which stores |jitter| p99 and p99.9 (jitter_us.abs_p99, abs_p999) that the older fixtures lack;
# there the renderers compute them from the histogram in one place (report/phase_figures.h), and text, HTML and
# compare must still agree. Each report is also rendered with its stored quantiles removed: the figures then
# computed from its histogram must print as the stored ones (the fallback is the run's own rule, not a second
# estimator; the old renderers' interpolation read 537.6 where the JSON said 536.576).
. "$(dirname "$0")/../lib.sh"
TOP=${RTJ_TOP:-$PWD}
RTJ=$(cd "$(dirname "$RTJ")" && pwd)/$(basename "$RTJ")
cd "$TOP" || exit 1
F=tests/fixtures/reports
python3 tests/helpers/figures_agree.py --strip "$RTJ" "$WORK" $F/store/*/*.json $F/culprits-*.json \
    >"$WORK/fixtures.out" 2>&1
sed 's/^/# /' "$WORK/fixtures.out"
n=$(grep -c '^PASS' "$WORK/fixtures.out")
check "each of the 13 fixture reports: text, HTML, compare and JSON show one value per figure ($n pass)" \
    holds '[ "$n" = 13 ] && ! grep -q "^FAIL" "$WORK/fixtures.out"'

"$RTJ" run --backend timer --loads none --warmup 0.2 --duration 2 --quiet --json "$WORK/fresh.json" \
    >"$WORK/run.out" 2>&1
rc=$?
check "a fresh timer run wrote its report (exit $rc)" [ -s "$WORK/fresh.json" ]
abs=$(python3 -c 'import json,sys; p=json.load(open(sys.argv[1]))["phases"][0]["jitter_us"]; print(p.get("abs_p99"), p.get("abs_p999"))' "$WORK/fresh.json" 2>&1)
check "it stores |jitter| p99 and p99.9 ($abs)" holds 'echo "$abs" | grep -Eq "^[0-9.]+ [0-9.]+$"'
python3 tests/helpers/figures_agree.py --strip "$RTJ" "$WORK" "$WORK/fresh.json" >"$WORK/fresh.out" 2>&1
sed 's/^/# /' "$WORK/fresh.out"
check "the fresh report: text, HTML, compare and JSON agree, all of its quantiles stored ($(cat "$WORK/fresh.out"))" \
    holds 'grep -q "^PASS .* from_hist=0 " "$WORK/fresh.out"'
