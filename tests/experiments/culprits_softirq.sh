#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# An experiment, not part of make check (its results: culprits_softirq-result.txt). Run it from the top directory as
# the test runner would: RTJ=./rtjitter RTJ_HELPERS=$PWD/build/tests/helpers RTJ_TOP=$PWD TESTNAME=culprits_softirq
# WORK=$(mktemp -d) bash tests/experiments/culprits_softirq.sh
# Culprits (issue 24): a softirq storm on loopback networking only, bounded in time (tests/helpers/loopback_flood.py:
# UDP to 127.0.0.1, pinned to the timer thread's CPU, 300 ms every 1.5 s, 3 times; it logs its own bursts). The
# timer backend runs there at FIFO 70 with --spike-us 100 and --no-trace (counters only, a normal user's path).
# Judged by tests/helpers/culprit_check.py against the flood's log: every event or spike in a burst names the
# NET_RX softirq on top; nothing outside the bursts names it. A storm that disturbs nothing (the audio thread
# preempts the sender) is said, not counted as a pass of the naming.
. "$(dirname "$0")/../lib.sh"

cpu=$(($(nproc) - 1))
"$RTJ" run --backend timer --cpus "$cpu" --interval 1333 --priority 70 --loads none --warmup 0.5 --duration 6 \
    --no-trace --spike-us 100 --quiet --json "$WORK/f.json" >"$WORK/f.out" 2>&1 &
rpid=$!
python3 "$RTJ_TOP/tests/helpers/loopback_flood.py" "$cpu" 300 1500 3 1500 >"$WORK/flood.log"
wait "$rpid"; rc=$?
check "the timer run beside the storm exits 0 (got $rc: $(head -c 300 "$WORK/f.out"))" [ "$rc" = 0 ]
python3 "$RTJ_TOP/tests/helpers/culprit_check.py" "$WORK/f.json" "$WORK/flood.log" softirq "name=NET_RX softirq" \
    >"$WORK/c.txt" 2>&1
sed 's/^/# /' "$WORK/c.txt"
v() { awk -v k="$1" '$1 == k { print $2 }' "$WORK/c.txt"; }
check "the 3 bursts fell in the measured window" [ "$(v truths_inside)" = 3 ]
if [ "$(v happenings_in)" = 0 ]; then
    ok "# SKIP the storm disturbed no cycle here (nothing to name): the audio thread preempted it"
else
    check "every event or spike in a burst names the NET_RX softirq on top: $(v top_right_in) of $(v happenings_in)" \
        [ "$(v top_right_in)" = "$(v happenings_in)" ]
fi
check "nothing outside the bursts names NET_RX ($(v named_outside) of $(v outside))" [ "$(v named_outside)" = 0 ]
