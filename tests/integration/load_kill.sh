#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# However rtjitter ends mid-load (SIGKILL, SIGTERM, Ctrl-C), every load process is gone and every file it made
# is removed: the load supervisor notices and cleans up.
. "$(dirname "$0")/../lib.sh"

name=$(server_name kill)
start_jackd "$name" 48000 256 || { not_ok "jackd starts"; exit 0; }
mkdir -p "$WORK/tmp" "$WORK/systmp"
# rtjitter's own TMPDIR is private to this test: a compiler temporary file left behind would land there, and other
# compilations on the machine (a developer's make, another test) cannot be mistaken for one.
export TMPDIR="$WORK/systmp"
watched() { sed -n "s/^$1 //p" "$WORK/watch"; }
LOADS="compile:units=3+memload:mb=128+burn+write:mb=16+hackbench:groups=1:fds=4+exec:sleep 1000"

# SIGKILL: rtjitter has no chance to clean up; its supervisor must.
"$RTJ_HELPERS/load_watch" -k 2.5 -- "$RTJ" run --server "$name" --loads "$LOADS" --duration 30 \
    --warmup 0.5 --tmpdir "$WORK/tmp" --quiet >"$WORK/watch" 2>"$WORK/err"
echo "# SIGKILL: $(tr '\n' ' ' <"$WORK/watch")"
check "SIGKILL: rtjitter was killed mid-phase with its loads running ($(watched max_load_procs) load processes)" \
    [ "$(watched status)" = 137 -a "$(watched max_load_procs)" -ge 10 ]
check "SIGKILL: no process left within 1.5 s (left $(watched left) after $(watched left_after_s) s)" \
    python3 -c "import sys; sys.exit(not ($(watched left) == 0 and 0 <= $(watched left_after_s) <= 1.5))"
check "SIGKILL: the tmpdir is empty ($(ls -A "$WORK/tmp" | head -3 | tr '\n' ' '))" [ -z "$(ls -A "$WORK/tmp")" ]
# The loads' cgroup (rtjitter-loads-PID in our own cgroup v2, where one could be made) went with them.
cg=$(awk -F: '$1 == "0" {print $3; exit}' /proc/self/cgroup)
v2=$(awk '{ for (i = 7; i < NF; i++) if ($i == "-") { if ($(i + 1) == "cgroup2") { print $5; exit } break } }' \
    /proc/self/mountinfo)
check "SIGKILL: no cgroup of the run left" [ -z "$v2" -o ! -e "$v2$cg/rtjitter-loads-$(watched pid)" ]

# SIGTERM and SIGINT: the normal stop path, with the report marked incomplete.
for sig in TERM INT; do
    "$RTJ_HELPERS/load_watch" -- bash -c "'$RTJ' run --server '$name' --loads '$LOADS' --duration 30 --warmup 0.5 \
        --tmpdir '$WORK/tmp' --quiet --json '$WORK/r.json' & p=\$!; sleep 2.5; kill -$sig \$p; wait \$p" \
        >"$WORK/watch" 2>"$WORK/err"
    echo "# SIG$sig: $(tr '\n' ' ' <"$WORK/watch")"
    check "SIG$sig: exit 3, loads ran, report has the phase's load metrics" [ "$(watched status) $(json "$WORK/r.json" \
        "d['complete'], len(d['phases'][0]['load_metrics']) >= 5")" = "3 False True" ]
    check "SIG$sig: no process left, tmpdir empty" [ "$(watched left)" = 0 -a -z "$(ls -A "$WORK/tmp")" ]
done
# The compiler's own temporary files stay in the load's directory, not in the system's temp dir.
check "no compiler temporary files (cc*.s) were left in rtjitter's TMPDIR" \
    [ "$(find "$TMPDIR" -maxdepth 1 -name 'cc*.s' | wc -l)" -eq 0 ]
# The server lost mid-load (its jackd stopped by PID): exit 3, and the loads are stopped and cleaned up the same.
lost=$(server_name lost)
start_jackd "$lost" 48000 256 || not_ok "second jackd starts"
lost_pid=$JACKD_PID
"$RTJ_HELPERS/load_watch" -- bash -c "'$RTJ' run --server '$lost' --loads '$LOADS' --duration 30 --warmup 0.5 \
    --tmpdir '$WORK/tmp' --quiet --json '$WORK/l.json' & p=\$!; sleep 2.5; kill -TERM $lost_pid; wait \$p" \
    >"$WORK/watch" 2>"$WORK/err"
echo "# server lost: $(grep -v '^report' "$WORK/watch" | tr '\n' ' ')"
check "server lost: exit 3, the loads had run, no process left, tmpdir empty" [ "$(watched status) \
$(watched max_load_procs | awk '{print ($1 >= 10)}') $(watched left) $(ls -A "$WORK/tmp" | wc -l)" = "3 1 0 0" ]

# A command that escapes its process group (setsid, as a daemon would) is still ended at its phase end: it comes
# back to the supervisor, a child subreaper, when its shell dies.
"$RTJ_HELPERS/load_watch" -- "$RTJ" run --server "$name" --loads 'exec:setsid sleep 300 & sleep 300,none' \
    --duration 1.5 --warmup 0.5 --tmpdir "$WORK/tmp" --quiet >"$WORK/watch" 2>"$WORK/err"
echo "# setsid: $(grep -v '^report' "$WORK/watch" | tr '\n' ' ')"
check "setsid'd command: gone within 1 s of its phase end, nothing left after the run" python3 -c "
import sys; f, l = $(watched first_load_s), $(watched last_load_s)
sys.exit(not (f >= 0 and l - f <= 0.5 + 1.5 + 1.0 and $(watched left) == 0 and $(watched max_load_procs) >= 2))"
stop_jackd "$JACKD_PID"
