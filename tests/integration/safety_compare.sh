#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-class: bulk (CPU-bound for about 10 s: a big pair and a crowded store; no server, no real-time thread, its one bound a generous 40 s)
# compare's cost is bounded (issue 21, items 1 and 2). The attacks themselves, at a size that keeps the suite fast
# (the full-size figures are in `make bench`, tests/bench.d/compare.sh):
# - a pair of reports of 300 phases x 600 timeline seconds each (18 MB): every second is a unit (no "s" in the
#   timeline). The Hodges-Lehmann shift formed every difference of seconds, five times per measure: 1,200 measures
#   of 360,000 differences and more took minutes, and the two JSON trees about 300 MB. Now within a generous 40 s
#   and 150 MB (seen 2-5 s and about 70 MB), and the shift compare names for a phase equals the median of every
#   difference computed here by Python from the reports' own seconds.
# - a crowded store: 98 reports beside the compared pair (88 of another set-up, 10 of the pair's). Each file is
#   opened at most once (strace's log of openat, the kernel's view), a sidecar is written beside each, and the next
#   compare opens none of them (only the pair), with the same verdicts and runs; a store without sidecars (removed)
#   gives the same again. A symlink planted at a sidecar's name is replaced, its target untouched; a sidecar copied
#   from a report of the pair's set-up onto another's name (its stamp is not that report's) is not trusted.
. "$(dirname "$0")/../lib.sh"
B="$RTJ_HELPERS/big_report"
[ -x /usr/bin/time ] || { echo "ok - skipped: /usr/bin/time (package time) is not installed"; exit 0; }
command -v strace >/dev/null || { echo "ok - skipped: strace is not installed"; exit 0; }

# Under the sanitizers (make sanitize) memory is AddressSanitizer's (shadow and quarantine: 782 MB seen for the
# pair), so the memory ceiling is not checked there; and LeakSanitizer cannot run under strace's ptrace.
maxrss=150; [ -n "${RTJ_SANITIZE:-}" ] && maxrss=100000
strace_env=(); [ -n "${RTJ_SANITIZE:-}" ] && strace_env=(env "ASAN_OPTIONS=${ASAN_OPTIONS:-}:detect_leaks=0")

# seconds and peak RSS (MB) of a command, from /usr/bin/time -v
timed() { # OUT ERRFILE CMD...
    local out=$1 err=$2; shift 2
    /usr/bin/time -v "$@" >"$out" 2>"$err"
}
wall() { sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$1" | awk -F: '{ printf "%.1f", $(NF-1) * 60 + $NF }'; }
rss()  { sed -n 's/.*Maximum resident set size (kbytes): //p' "$1" | awk '{ printf "%.0f", $1 / 1024 }'; }

# ---- item 1: the big pair --------------------------------------------------------------------------------------
mkdir -p "$WORK/pair"
"$B" "$WORK/pair/a.json" 300 600 1 0 && "$B" "$WORK/pair/b.json" 300 600 2 30
check "the pair is written ($(du -m "$WORK/pair/a.json" | cut -f1) MB each)" [ -s "$WORK/pair/b.json" ]
timed "$WORK/pair.out" "$WORK/pair.time" "$RTJ" compare "$WORK/pair/a.json" "$WORK/pair/b.json" --json "$WORK/pair.cmp" -q
rc=$?
w=$(wall "$WORK/pair.time"); m=$(rss "$WORK/pair.time")
check "compare of 2 x 300 phases x 600 seconds exits 0 (got $rc)" [ "$rc" -eq 0 ]
check "... within 40 s (took $w s) and $maxrss MB (peak RSS $m MB)" \
    [ "$(awk -v w="$w" 'BEGIN { print (w < 40) }')" = 1 -a "${m:-999999}" -lt "$maxrss" ]
python3 - "$WORK/pair/a.json" "$WORK/pair/b.json" "$WORK/pair.cmp" >"$WORK/pair.check" <<'PY'
import json, re, sys
a, b, c = (json.load(open(f)) for f in sys.argv[1:4])
loads = c['loads']
print(len(loads))
# phase 7's wake-up p99 shift, from its definition: the median of every difference of b's seconds and a's
pa = [e['wakeup_p99_us'] for e in a['phases'][7]['timeline']]
pb = [e['wakeup_p99_us'] for e in b['phases'][7]['timeline']]
d = sorted(y - x for y in pb for x in pa)
n = len(d)
hl = d[n // 2] if n % 2 else (d[n // 2 - 1] + d[n // 2]) / 2
v = [v for v in loads[7]['verdicts'] if v['metric'] == 'wakeup p99/s'][0]
m = re.search(r'shift ([+-][0-9.]+) µs', v['text'])
print(hl, m.group(1) if m else 'none')
PY
read -r nloads <"$WORK/pair.check"
read -r truth named < <(sed -n 2p "$WORK/pair.check")
check "... every load compared up to the 256 compare shows (got $nloads)" [ "$nloads" = 256 ]
check "... the wake-up p99 shift of load7 is the median of every difference (Python: $truth, compare: $named)" \
    [ "$(awk -v t="$truth" -v n="$named" 'BEGIN { d = t - n; print (n != "none" && d < 0.051 && d > -0.051) }')" = 1 ]

# ---- item 2: a crowded store beside the pair -------------------------------------------------------------------
S="$WORK/store"
mkdir -p "$S"
for i in $(seq 88); do "$B" "$S/other$i.json" 20 500 $((100 + i)) 0 other & [ $((i % 8)) = 0 ] && wait; done; wait
for i in $(seq 10); do "$B" "$S/same$i.json" 20 500 $((300 + i)) 0 big & done; wait
"$B" "$S/pa.json" 20 500 1 0 big && "$B" "$S/pb.json" 20 500 2 30 big
touch -d '-1 hour' "$S"/other*.json "$S"/same*.json      # the pair is the newest: every other file is looked at
check "98 reports beside the pair ($(du -sm "$S" | cut -f1) MB)" [ "$(ls "$S" | grep -c '^other\|^same')" = 98 ]
opened() { # STRACE-LOG: "name count" of each report opened
    sed -n 's/.*openat([^"]*"\([^"]*\.json\)".*/\1/p' "$1" | sed 's|.*/||' | sort | uniq -c | awk '{ print $2, $1 }'
}
timed "$WORK/s1.out" "$WORK/s1.time" "${strace_env[@]}" strace -f -qq -e trace=openat -o "$WORK/s1.strace" \
    "$RTJ" compare "$S/pa.json" "$S/pb.json" --json "$WORK/s1.cmp" -q
rc=$?
w1=$(wall "$WORK/s1.time")
check "compare beside 98 reports without sidecars exits 0 (got $rc), within 40 s (took $w1 s under strace)" \
    [ "$rc" -eq 0 -a "$(awk -v w="$w1" 'BEGIN { print (w < 40) }')" = 1 ]
twice=$(opened "$WORK/s1.strace" | awk '$2 > 1' | head -3 | tr '\n' ' ')
check "... each report opened at most once (more than once: ${twice:-none})" [ -z "$twice" ]
check "... a sidecar written beside each of the 98 (and no temporary file left)" \
    [ "$(ls -a "$S" | grep -c '^\.\(other\|same\)[0-9]*\.json\.setup$')" = 98 -a -z "$(ls -a "$S" | grep 'tmp-')" ]
timed "$WORK/s2.out" "$WORK/s2.time" "${strace_env[@]}" strace -f -qq -e trace=openat -o "$WORK/s2.strace" \
    "$RTJ" compare "$S/pa.json" "$S/pb.json" --json "$WORK/s2.cmp" -q
w2=$(wall "$WORK/s2.time")
read2=$(opened "$WORK/s2.strace" | awk '$1 != "pa.json" && $1 != "pb.json"' | head -3 | tr '\n' ' ')
check "... the next compare opens no report but the pair (opened: ${read2:-none}), within 15 s (took $w2 s)" \
    [ -z "$read2" -a "$(awk -v w="$w2" 'BEGIN { print (w < 15) }')" = 1 ]
same_cmp() { python3 - "$@" <<'PY'
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
key = lambda c: (c['loads'], c['summary'], [sorted(r['replicates']) for r in c['reports']])
print('same' if key(a) == key(b) else 'differ', len(a['reports'][0]['replicates']), len(a['reports'][1]['replicates']))
PY
}
read -r v n0 n1 < <(same_cmp "$WORK/s1.cmp" "$WORK/s2.cmp")
check "... the same verdicts and runs from the sidecars ($v), 11 runs of the set-up beside each (got $n0, $n1)" \
    [ "$v" = same -a "$n0" = 11 -a "$n1" = 11 ]
# a store made before sidecars: the same again
rm -f "$S"/.*.json.setup
"$RTJ" compare "$S/pa.json" "$S/pb.json" --json "$WORK/s3.cmp" -q
read -r v _ < <(same_cmp "$WORK/s1.cmp" "$WORK/s3.cmp")
check "... and without any sidecar ($v)" [ "$v" = same ]
# hostile sidecars: a planted symlink, and another report's sidecar under a name of the other set-up
echo victim >"$WORK/victim"
rm -f "$S/.other1.json.setup" && ln -s "$WORK/victim" "$S/.other1.json.setup"
cp "$S/.same1.json.setup" "$S/.other2.json.setup"
"$RTJ" compare "$S/pa.json" "$S/pb.json" --json "$WORK/s4.cmp" -q
read -r v n0 _ < <(same_cmp "$WORK/s1.cmp" "$WORK/s4.cmp")
check "a symlink at a sidecar's name: its target untouched ($(cat "$WORK/victim")), the name a regular file now" \
    [ "$(cat "$WORK/victim")" = victim -a -f "$S/.other1.json.setup" -a ! -L "$S/.other1.json.setup" ]
check "a sidecar whose stamp is another report's is not trusted: the same runs ($v, $n0 beside pa.json)" \
    [ "$v" = same -a "$n0" = 11 ]
