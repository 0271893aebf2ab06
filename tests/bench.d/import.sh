#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 21 (item 7): `rtjitter import cyclictest` on a large histogram. Prints the wall time and peak resident
# memory (/usr/bin/time -v) of two imports: a 52 MB file of 4,000,000 one-sample buckets, over the 400,000
# name-value pairs an import takes (refused before parsing: exit 2; it took 1.5 GB and 12 s when jansson parsed
# it first), and a file just under that limit (4 threads of 99,900 buckets sharing their values: imported).
set -u
RTJ=${RTJ:-./rtjitter}
W=$(mktemp -d); trap 'rm -rf "$W"' EXIT
[ -x /usr/bin/time ] || { echo "import: /usr/bin/time (package time) is not installed: skipped"; exit 0; }
python3 - "$W/huge.json" "$W/limit.json" <<'PY'
import sys
head = ('{"file_version": 1, "cmdline:": "cyclictest", "rt_test_version:": "2.5", "sysinfo": {"sysname": "Linux", '
        '"nodename": "h", "release": "6.1.0-bench", "version": "#1", "machine": "x86_64", "realtime": 0}, '
        '"num_threads": %d, "resolution_in_ns": 0, "thread": {')
def thread(t, nb):
    return ('"%d": {"histogram": {%s}, "cycles": %d, "min": 0, "max": %d, "avg": %d, "cpu": 0, "node": 0}'
            % (t, ', '.join(f'"{i}": 1' for i in range(nb)), nb, nb - 1, nb // 2))
with open(sys.argv[1], 'w') as f:
    f.write(head % 1 + thread(0, 4_000_000) + '}}')
with open(sys.argv[2], 'w') as f:
    f.write(head % 4 + ', '.join(thread(t, 99_900) for t in range(4)) + '}}')
PY
for f in huge limit; do
    /usr/bin/time -v "$RTJ" import cyclictest "$W/$f.json" --output "$W/store" --quiet >/dev/null 2>"$W/$f.err"
    rc=$?
    printf 'import %-5s %6.1f MB file: exit %d, %s s, peak RSS %s MB\n' "$f" \
        "$(stat -c %s "$W/$f.json" | awk '{ print $1 / 1e6 }')" "$rc" \
        "$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$W/$f.err" | awk -F: '{ printf "%.2f", $1 * 60 + $2 }')" \
        "$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$W/$f.err" | awk '{ printf "%.0f", $1 / 1024 }')"
done
