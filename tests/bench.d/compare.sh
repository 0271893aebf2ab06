#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 21 (items 1 and 2): what `rtjitter compare` costs on large input. Prints the wall time, CPU time and peak
# resident memory (/usr/bin/time -v) of:
#  - the pair: two reports of 300 phases x 2000 timeline seconds without second numbers (60 MB each: every second
#    is a unit), compared --alone and with the directory beside them (before: killed after 900 s, 653 s of CPU,
#    1.05 GB);
#  - a crowded store: 100 reports of 22 MB (100 phases x 2200 seconds) beside a compared pair, first of another
#    set-up than the pair (label other), then of the pair's own (label big: the runs compare takes, 32 a side,
#    read whole once for their values), each compared twice: without sidecars (a store made before them) and
#    with the sidecars the first compare wrote (before: 152 s, 467 MB, every report read twice).
# It writes about 2.4 GB in a private temporary directory (removed at the end). COMPARE_BENCH_STORE=0 leaves out
# the store.
set -u
RTJ=${RTJ:-./rtjitter}
H=${RTJ_HELPERS:-build/tests/helpers}
[ -x /usr/bin/time ] || { echo "compare: /usr/bin/time (package time) is not installed: skipped"; exit 0; }
W=$(mktemp -d); trap 'rm -rf "$W"' EXIT
export XDG_DATA_HOME="$W/xdg"

run() { # LABEL CMD...: one line of figures
    local label=$1; shift
    /usr/bin/time -v "$@" >/dev/null 2>"$W/time.err"
    local rc=$?
    printf 'compare %-48s exit %d, %6.1f s wall, %6.1f s CPU, peak RSS %4.0f MB\n' "$label" "$rc" \
        "$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$W/time.err" | awk -F: '{ print $(NF-1) * 60 + $NF }')" \
        "$(awk -F': ' '/User time|System time/ { s += $2 } END { print s }' "$W/time.err")" \
        "$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$W/time.err" | awk '{ print $1 / 1024 }')"
}

mkdir -p "$W/pair"
"$H/big_report" "$W/pair/a.json" 300 2000 1 0 && "$H/big_report" "$W/pair/b.json" 300 2000 2 30 || exit 1
echo "compare: the pair: 2 x $(du -m "$W/pair/a.json" | cut -f1) MB, 300 phases x 2000 seconds"
run "pair 300 x 2000 s, --alone" "$RTJ" compare "$W/pair/a.json" "$W/pair/b.json" --alone --json "$W/p.json" -q
run "pair 300 x 2000 s, with the directory beside" "$RTJ" compare "$W/pair/a.json" "$W/pair/b.json" --json "$W/p.json" -q

# The same with events counted in every second (one second in 20 has some): the count measures' permutation test
# draws seeded random splits of the seconds per load and count (compare_counts.h), up to 20000, stopped at the
# 100th as far as the runs seen (52 s of CPU when all 20000 were drawn every time; 4.4 s since).
# COMPARE_BENCH_COUNTS=0 leaves it out.
if [ "${COMPARE_BENCH_COUNTS:-1}" != 0 ]; then
    "$H/big_report" "$W/pair/ca.json" 300 1500 3 0 big bighost 1 && "$H/big_report" "$W/pair/cb.json" 300 1500 4 30 big bighost 1
    run "pair 300 x 1500 s with counts, --alone" "$RTJ" compare "$W/pair/ca.json" "$W/pair/cb.json" --alone --json "$W/p.json" -q
fi
rm -f "$W"/pair/*.json

[ "${COMPARE_BENCH_STORE:-1}" = 0 ] && exit 0
for setup in other big; do
    S="$W/store-$setup"
    mkdir -p "$S"
    for i in $(seq 100); do
        "$H/big_report" "$S/r$i.json" 100 2200 $((100 + i)) 0 "$setup" & [ $((i % 4)) = 0 ] && wait
    done
    wait
    touch -d '-1 hour' "$S"/r*.json
    "$H/big_report" "$S/pa.json" 20 600 1 0 big && "$H/big_report" "$S/pb.json" 20 600 2 30 big
    echo "compare: a store of 100 reports of $(du -m "$S/r1.json" | cut -f1) MB (label $setup) beside a pair labelled big"
    run "beside 100 ($setup), no sidecars yet" "$RTJ" compare "$S/pa.json" "$S/pb.json" --json "$W/s.json" -q
    run "beside 100 ($setup), with sidecars" "$RTJ" compare "$S/pa.json" "$S/pb.json" --json "$W/s.json" -q
    rm -rf "$S"
done
