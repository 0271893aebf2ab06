#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# (plain, not quick: two short timer runs, SCHED_FIFO threads a solo test beside it would feel)
# Limits that agree, messages that keep their reason, an import that stays small (issue 21, items 3, 10 and 7).
# - `--loads` with 5,000 phases is refused before anything is measured (one line naming 4096, exit 2, at once),
#   and the reader takes a report of 4,096 phases and refuses 4,097: one limit on both sides.
# - A load's error keeps its reason: a --tmpdir of 400 characters that does not exist (the error was cut at 315
#   characters, before "No such file or directory"), and a command whose last line is 540 characters long and
#   ends with its reason (it was split at 511, leaving "n at the end"). A store, --json or --html path that could
#   not be opened again (PATH_MAX, 4096 bytes with its NUL) is refused before measuring: one line, exit 2.
. "$(dirname "$0")/../lib.sh"

# A small cyclictest file made into a report: the raw material of the documents below.
python3 - "$WORK/ct.json" <<'PY'
import json, sys
json.dump({"file_version": 1, "cmdline:": "cyclictest -m -q -p 80 -i 500 -t 1 -D 2 -h 100 --json=c.json",
           "rt_test_version:": "2.5", "start_time": "Wed Dec  2 06:00:00 2026",
           "end_time": "Wed Dec  2 06:00:02 2026", "return_code": 0,
           "sysinfo": {"sysname": "Linux", "nodename": "host", "release": "6.1.0-test", "version": "#1 SMP",
                       "machine": "x86_64", "realtime": 0},
           "num_threads": 1, "resolution_in_ns": 0,
           "thread": {"0": {"histogram": {"3": 1000, "4": 2000, "5": 900, "9": 100}, "cycles": 4000, "min": 3,
                            "max": 9, "avg": 4.3, "cpu": 1, "node": 0}}}, open(sys.argv[1], "w"))
PY
"$RTJ" import cyclictest "$WORK/ct.json" --json "$WORK/base.json" --output "$WORK/store" --quiet >/dev/null 2>&1
check "the base report imports" [ -s "$WORK/base.json" ]

# ---- item 3: one limit of phases ----------------------------------------------------------------------------
list=$(python3 -c "print(','.join(['none'] * 5000))")
t0=$(date +%s%N)
"$RTJ" run --backend timer --duration 2 --warmup 0 --loads "$list" --output "$WORK/runs" >"$WORK/p5000.out" 2>"$WORK/p5000.err"
rc=$?
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
check "--loads with 5000 phases exits 2 (got $rc)" [ "$rc" -eq 2 ]
check "... with one line naming the limit, 4096 ($(head -c 200 "$WORK/p5000.err"))" \
    [ "$(wc -l <"$WORK/p5000.err")" -eq 1 -a -n "$(grep -F 'more than 4096 phases' "$WORK/p5000.err")" ]
check "... before measuring: no report, nothing on stdout, within 1.5 s (took $ms ms; a phase alone is 2 s)" \
    [ -z "$(find "$WORK/runs" -name '*.json' 2>/dev/null)" -a ! -s "$WORK/p5000.out" -a "$ms" -lt 1500 ]
python3 - "$WORK/base.json" "$WORK" <<'PY'
import copy, json, sys
d = json.load(open(sys.argv[1]))
p = d['phases'][0]
for n in (4096, 4097):
    d['phases'] = [dict(copy.deepcopy(p), load='none') for _ in range(n)]
    json.dump(d, open(f"{sys.argv[2]}/phases{n}.json", "w"))
PY
"$RTJ" report "$WORK/phases4096.json" --format json >/dev/null 2>"$WORK/r4096.err"
rc=$?
check "a report of 4096 phases reads back (exit $rc: $(head -c 200 "$WORK/r4096.err"))" [ "$rc" -eq 0 ]
"$RTJ" report "$WORK/phases4097.json" >/dev/null 2>"$WORK/r4097.err"
rc=$?
check "a report of 4097 phases is refused: exit 2 (got $rc), one line" \
    [ "$rc" -eq 2 -a "$(wc -l <"$WORK/r4097.err")" -eq 1 ]

# ---- item 10: messages keep their reason; paths that could not be opened again ------------------------------
long="$WORK/$(printf 'd%.0s' {1..200})/$(printf 'f%.0s' {1..200})"    # does not exist
"$RTJ" run --backend timer --duration 0.5 --warmup 0 --loads write --tmpdir "$long" --output "$WORK/runs" \
    --json "$WORK/tmpdir.json" --quiet >"$WORK/tmpdir.out" 2>&1
check "a run with a --tmpdir that does not exist ends (exit $?)" [ -s "$WORK/tmpdir.json" ]
err=$(json "$WORK/tmpdir.json" "d['phases'][0]['load_error']")
check "its load error keeps the reason at its end (${#err} characters: ...${err: -60})" \
    [ "${err%: No such file or directory}" != "$err" ]
check "... and the start of the path, the middle cut with '...'" \
    grep -qF "write: skipped: cannot create a directory in $WORK/ddd" <<<"$err"
check "... shown so by report too" grep -qF ': No such file or directory' \
    <("$RTJ" report "$WORK/tmpdir.json" --wide | tr '\n' ' ' | tr -s ' ')
words="$(printf 'w%.0s' {1..500}): the reason at the end"
"$RTJ" run --backend timer --duration 0.5 --warmup 0 --loads "exec:echo $words >&2; exit 3" --output "$WORK/runs" \
    --json "$WORK/exec.json" --quiet >"$WORK/exec.out" 2>&1
err=$(json "$WORK/exec.json" "d['phases'][0]['load_error']")
check "a command's last line of 540 characters keeps its reason (${#err} characters: ...${err: -40})" \
    [ "${err%: the reason at the end}" != "$err" -a -n "$(grep -F 'exited with status 3: www' <<<"$err")" ]

deep="$WORK/p"
while [ ${#deep} -lt 4060 ]; do deep="$deep/$(printf 'a%.0s' {1..200})"; done
deep=${deep:0:4060}
x40=$(printf 'x%.0s' {1..40})
for how in output json html; do
    case $how in
        output) args=(--output "$deep") ;;
        *) args=("--$how" "$deep/$x40.$how" --output "$WORK/runs2") ;;
    esac
    t0=$(date +%s%N)
    "$RTJ" run --backend timer --duration 2 --warmup 0 --loads none "${args[@]}" >"$WORK/deep.out" 2>"$WORK/deep.err"
    rc=$?
    ms=$(( ($(date +%s%N) - t0) / 1000000 ))
    check "--$how with a path that could not be opened again: exit 2 (got $rc), one line, at once ($ms ms)" \
        [ "$rc" -eq 2 -a "$(wc -l <"$WORK/deep.err")" -eq 1 -a "$ms" -lt 1500 -a ! -s "$WORK/deep.out" ]
    check "... saying why ($(sed 's/aaaa*/a.../g' "$WORK/deep.err" | cut -c1-200))" grep -q 'PATH_MAX' "$WORK/deep.err"
done
check "... and no report was written anywhere" [ -z "$(find "$WORK/runs2" "$WORK/p" -name '*.json' -o -name '*.html' 2>/dev/null)" ]

# ---- item 7: import is bounded ------------------------------------------------------------------------------
# 4,000,000 one-sample buckets, 52 MB: jansson took 1.5 GB and 12-30 s over it before the report's own check
# refused the result. Now the pairs are counted before parsing: refused with the file read and nothing more,
# so the peak is the file's 52 MB and the program: under 120 MB (this bound), within 3 s.
python3 "$RTJ_LIB_DIR/helpers/big_cyclictest.py" "$WORK/huge.json" "$WORK/limit.json"
check "the large histogram file is over 50 MB ($(stat -c %s "$WORK/huge.json") bytes)" [ "$(stat -c %s "$WORK/huge.json")" -gt 50000000 ]
/usr/bin/time -v "$RTJ" import cyclictest "$WORK/huge.json" --output "$WORK/imports" >"$WORK/huge.out" 2>"$WORK/huge.err"
rc=$?
rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$WORK/huge.err")
wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$WORK/huge.err")
grep -v '^	' "$WORK/huge.err" | grep -v 'Command exited with non-zero status' >"$WORK/huge.msg"
check "import of the 52 MB histogram exits 2 (got $rc)" [ "$rc" -eq 2 ]
check "... with one line saying why ($(head -c 200 "$WORK/huge.msg"))" \
    [ "$(wc -l <"$WORK/huge.msg")" -eq 1 -a -n "$(grep -F 'more than 400000 histogram buckets' "$WORK/huge.msg")" ]
check "... its peak memory under 120 MB (${rss:-?} kB) and its time under 3 s ($wall)" \
    [ -n "$rss" -a "${rss:-999999}" -lt 122880 -a "$(echo "$wall" | awk -F: '{ print ($1 * 60 + $2 < 3) }')" = 1 ]
/usr/bin/time -v "$RTJ" import cyclictest "$WORK/limit.json" --output "$WORK/imports" --quiet >"$WORK/limit.out" 2>"$WORK/limit.err"
rc=$?
rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$WORK/limit.err")
check "a file just under the limit (4 threads x 99,900 buckets) imports: exit $rc, peak ${rss:-?} kB (under 250 MB)" \
    [ "$rc" -eq 0 -a -n "$rss" -a "${rss:-999999}" -lt 256000 ]
check "... all its samples kept (399600 cycles)" \
    [ "$(json "$(sed -n 's/^report: //p' "$WORK/limit.out")" "d['phases'][0]['wakeup_us']['count']")" = 399600 ]
