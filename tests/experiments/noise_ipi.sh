#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The noise probe's IPI storm, as backend_noise.sh runs it (its storm pair, cut from the test), N rounds: at rest, then
# beside stress-ng --cpu 2 --io 1 (alive through the pair, checked), with ./rtjitter and, given, an older build OLD
# beside it. One line a pair: the storm's IPIs sent and inside the probe's window (its own count), the gaps named
# CAL in the storm run and in the run without it (scaled to the same time), their share of the IPIs, the gaps the
# classifier never saw (a full ring: dropped), the classes. Run as root from the top of the tree, alone (solo).
# usage: tests/experiments/noise_ipi.sh N [OLD_RTJ]
n=${1:-5}; old=$2
top=$(cd "$(dirname "$0")/../.." && pwd)
WORK=$(mktemp -d /tmp/noise_ipi.XXXXXX); cpu=1
sed -n '/^cat >"\$WORK\/storm.py"/,/^w() {/p' "$top/tests/integration/backend_noise.sh" >"$WORK/pair.inc"
. "$WORK/pair.inc"
pair() { # LABEL RTJ
    RTJ=$2 noise_pair
    python3 - "$WORK/st.txt" "$1" <<'PY'
import sys
d = {l.split(' ', 1)[0]: l.split(' ', 1)[1].strip() for l in open(sys.argv[1]) if ' ' in l}
r = (int(d['named']) - int(d['quietnamed'])) / max(1, int(d['inwin']) * float(d['received']))
print('%-10s load %5s sent %5s inwin %5s CAL %5s (trace %4s) quiet %3s dropped %5s share %.2f | %s' % (sys.argv[2],
      open('/proc/loadavg').read().split()[0], d['sent'], d['inwin'], d['named'], d['tracecal'], d['quietnamed'],
      d['dropped'], r, d['classes']))
PY
}
echo "# tests/experiments/noise_ipi.sh $n ${old:+$old }on $(uname -r), commit $(git -C "$top" rev-parse --short HEAD), $(date -u +%F' '%H:%M) UTC, load $(cut -d' ' -f1-3 /proc/loadavg)"
for i in $(seq "$n"); do
    pair "rest new" "$top/rtjitter"
    [ -n "$old" ] && pair "rest old" "$old"
    stress-ng --cpu 2 --io 1 --timeout 100 >/dev/null 2>&1 &
    sp=$!
    sleep 1
    [ -n "$old" ] && { pair "stress old" "$old"; kill -0 "$sp" 2>/dev/null || echo "# stress-ng ended early"; }
    pair "stress new" "$top/rtjitter"
    kill -0 "$sp" 2>/dev/null || echo "# stress-ng ended early"
    kill "$sp" 2>/dev/null
    wait "$sp"
done
rm -rf "$WORK"
