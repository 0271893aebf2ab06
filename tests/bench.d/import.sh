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
python3 "$(dirname "$0")/../helpers/big_cyclictest.py" "$W/huge.json" "$W/limit.json"
for f in huge limit; do
    /usr/bin/time -v "$RTJ" import cyclictest "$W/$f.json" --output "$W/store" --quiet >/dev/null 2>"$W/$f.err"
    rc=$?
    printf 'import %-5s %6.1f MB file: exit %d, %s s, peak RSS %s MB\n' "$f" \
        "$(stat -c %s "$W/$f.json" | awk '{ print $1 / 1e6 }')" "$rc" \
        "$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$W/$f.err" | awk -F: '{ printf "%.2f", $1 * 60 + $2 }')" \
        "$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$W/$f.err" | awk '{ printf "%.0f", $1 / 1024 }')"
done
