#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 37 (item 4): the fleet's page on 1,000 reports. A store of 1,000 copies of the committed fixture reports
# (tests/fixtures/reports: timer, jack2, PipeWire runs and a cyclictest import), spread over 50 machines and 20
# kernels by rewriting only their host name, kernel release and start; then `compare --store --matrix` as text,
# JSON and the HTML page. Prints the wall time, CPU time and peak resident memory (/usr/bin/time -v) of each.
set -u
RTJ=${RTJ:-./rtjitter}
[ -x /usr/bin/time ] || { echo "fleet: /usr/bin/time (package time) is not installed: skipped"; exit 0; }
W=$(mktemp -d); trap 'rm -rf "$W"' EXIT
export XDG_DATA_HOME="$W/xdg"
python3 - "$W/store" tests/fixtures/reports/store/*/*.json <<'PY'
import json, os, sys
out, srcs = sys.argv[1], [json.load(open(p)) for p in sys.argv[2:]]
for i in range(1000):
    d = json.loads(json.dumps(srcs[i % len(srcs)]))
    rel = '6.%d.0-fleet-%02d' % (1 + i % 20, i % 20)
    d['system']['hostname'] = 'host-%03d' % (i % 50)
    d['system']['kernel']['release'] = rel
    d['started'] = '2026-03-%02dT%02d:%02d:00Z' % (1 + i // 600 % 28, i // 60 % 10, i % 60)
    os.makedirs(os.path.join(out, rel), exist_ok=True)
    json.dump(d, open(os.path.join(out, rel, '20260301T%06dZ.json' % i), 'w'))
PY
echo "fleet: a store of $(find "$W/store" -name '*.json' | wc -l) reports, $(du -sm "$W/store" | cut -f1) MB"
run() { # LABEL CMD...
    local label=$1; shift
    /usr/bin/time -v "$@" >/dev/null 2>"$W/time.err"
    local rc=$?
    printf 'fleet %-40s exit %d, %6.1f s wall, %6.1f s CPU, peak RSS %4.0f MB\n' "$label" "$rc" \
        "$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$W/time.err" | awk -F: '{ print $(NF-1) * 60 + $NF }')" \
        "$(awk -F': ' '/User time|System time/ { s += $2 } END { print s }' "$W/time.err")" \
        "$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$W/time.err" | awk '{ print $1 / 1024 }')"
}
run "matrix, text (1,000 reports)" "$RTJ" compare --store "$W/store" --matrix
run "matrix, JSON" "$RTJ" compare --store "$W/store" --matrix --format json
run "matrix, HTML page" "$RTJ" compare --store "$W/store" --matrix --html "$W/m.html"
echo "fleet: the page is $(du -k "$W/m.html" | cut -f1) kB"
