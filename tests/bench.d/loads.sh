#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 3 figures: each load's throughput in one rtjitter run (with the phase's p99 jitter beside it), and for
# three of them a reference tool run on the same machine in the same bench run, as a ratio:
#   burn CPU share vs stress-ng --cpu, write MB/s vs dd conv=fsync, hackbench msg/s vs rt-tests' hackbench.
# LOAD_BENCH_S sets each phase's duration (default 5 s).
set -u
RTJ=${RTJ:-./rtjitter}
DUR=${LOAD_BENCH_S:-5}
W=$(mktemp -d); JPID=
trap '[ -n "$JPID" ] && kill "$JPID" 2>/dev/null && wait "$JPID" 2>/dev/null; rm -rf "$W"' EXIT
export XDG_DATA_HOME="$W/xdg"
NCPU=$(nproc)
mkdir -p "$W/tmp"

# A private dummy server, stopped by its PID at exit.
SRV="rtjb-loads-$$"
jackd -n "$SRV" -R -d dummy -r 48000 -p 256 >"$W/jackd.log" 2>&1 &
JPID=$!
for _ in $(seq 50); do jack_lsp -s "$SRV" >/dev/null 2>&1 && break; sleep 0.1; done

echo "rtjitter: one run, $DUR s a phase, 256 frames @ 48 kHz on a private dummy server, files in $W/tmp"
"$RTJ" run --server "$SRV" --duration "$DUR" --warmup 1 --tmpdir "$W/tmp" --quiet --json "$W/r.json" \
    --loads none,burn,write:mb=256,hackbench,read:mb=256,compile,memload:mb=1024,video,x,net >/dev/null 2>"$W/err" \
    || { echo "rtjitter run failed: $(tail -3 "$W/err")"; exit 1; }

# Reference pairs: rtjitter's load alone, then the reference tool, twice over (A B A B) so that the noise of a
# shared machine falls on both; the median of each is kept. The same server runs during both.
one() { # LOAD OUT.json
    "$RTJ" run --server "$SRV" --duration "$DUR" --warmup 1 --tmpdir "$W/tmp" --quiet --json "$2" --loads "$1" \
        >/dev/null 2>>"$W/err"
}
for rep in 1 2; do
    one burn "$W/burn$rep.json"
    /usr/bin/time -f "%e %U %S" -o "$W/stress$rep.time" stress-ng --cpu "$NCPU" --timeout "${DUR}s" --quiet \
        >/dev/null 2>&1
    one write:mb=256 "$W/write$rep.json"
    rm -f "$W/tmp/dd"
    dd if=/dev/zero of="$W/tmp/dd" bs=1M count=256 conv=fsync 2>"$W/dd$rep.err"
    rm -f "$W/tmp/dd"
    one hackbench "$W/hb$rep.json"
    hackbench -g 2 -f 10 -l 10000 >"$W/hb$rep.out" 2>&1
done

python3 - "$W" "$NCPU" "$DUR" <<'PY'
import json, re, statistics, sys
w, ncpu = sys.argv[1], int(sys.argv[2])
nan = float('nan')
def load_json(path):
    try:
        return json.load(open(path))
    except (OSError, ValueError):
        return None
def metric_of(doc, name):
    for p in (doc or {}).get('phases', []):
        for m in p['load_metrics']:
            if m['name'] == name:
                return m['value']
    return nan
def median(xs):
    xs = [x for x in xs if x == x]
    return statistics.median(xs) if xs else nan
def stress_share(path):  # CPU time of stress-ng and its workers over its wall time, share of all CPUs
    try:
        e, u, s = (float(x) for x in open(path).read().split()[-3:])
        return 100 * (u + s) / (e * ncpu)
    except (OSError, ValueError):
        return nan
def dd_rate(path):
    m = re.search(r'^(\d+) bytes.* copied, ([\d.]+) s', open(path).read(), re.M)
    return int(m.group(1)) / 1048576 / float(m.group(2)) if m else nan
def hb_rate(path):  # groups x senders x receivers x loops messages in the time it prints
    m = re.search(r'Time:\s*([\d.]+)', open(path).read())
    return 2 * 10 * 10 * 10000 / float(m.group(1)) if m else nan
pairs = {
    'burn': (median(metric_of(load_json(f'{w}/burn{r}.json'), 'burn.cpu') for r in (1, 2)),
             median(stress_share(f'{w}/stress{r}.time') for r in (1, 2))),
    'write': (median(metric_of(load_json(f'{w}/write{r}.json'), 'write.throughput') for r in (1, 2)),
              median(dd_rate(f'{w}/dd{r}.err') for r in (1, 2))),
    'hackbench': (median(metric_of(load_json(f'{w}/hb{r}.json'), 'hackbench.messages') for r in (1, 2)),
                  median(hb_rate(f'{w}/hb{r}.out') for r in (1, 2))),
}
d = load_json(f'{w}/r.json')
ph = {p['load'].split(':')[0]: p for p in d['phases']}
def metric(load, name):
    for m in ph[load]['load_metrics']:
        if m['name'] == name:
            return m['value']
    return nan

print(f"\nreference pairs (medians of 2 alternating runs, {sys.argv[3]} s each):")
print(f"{'load':10} {'rtjitter':>10} {'reference':>10} {'ratio':>6}  unit, tool")
for load, unit, tool in (('burn', '% of all CPUs', f'stress-ng --cpu {ncpu}'),
                         ('write', 'MB/s (fsync every 8 MB)', 'dd bs=1M count=256 conv=fsync'),
                         ('hackbench', 'msg/s (2 groups x 10 x 10, sockets)', 'hackbench -g 2 -f 10 -l 10000')):
    a, b = pairs[load]
    print(f"{load:10} {a:10.4g} {b:10.4g} {a / b if b else nan:6.2f}  {unit}, {tool}")
print("\nall loads in one run (throughput beside the phase's p99 jitter):")
rows = [
    ('burn', 'burn.cpu', '% of all CPUs', None, None),
    ('write', 'write.throughput', 'MB/s (fsync every 8 MB)', None, None),
    ('hackbench', 'hackbench.messages', 'msg/s (2 groups x 10 x 10, sockets)', None, None),
    ('read', 'read.throughput', 'MB/s', None, None),
    ('compile', 'compile.units', 'units/min', None, None),
    ('memload', 'memload.touched', 'MB/s (1024 MB held)', None, None),
    ('video', 'video.on_time', '% of frames on time', None, None),
    ('x', 'x.desired_cpu', '% of desired CPU', None, None),
    ('net', 'net.throughput', 'MB/s', None, None),
]
print(f"{'load':10} {'value':>10} {'unit':36} {'p99 jitter':>11}")
base = ph['none']['jitter_us']['p99']
print(f"{'none':10} {'':>10} {'':36} {base:8.1f} us")
for load, name, unit, tool, ref in rows:
    v = metric(load, name)
    j = ph[load]['jitter_us']['p99']
    err = ph[load]['load_error']
    print(f"{load:10} {v:10.4g} {unit:36} {j:8.1f} us" + (f"  ({err})" if err else ''))
PY
