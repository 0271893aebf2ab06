#!/bin/bash
# Issue 10 fidelity: rtjitter --backend timer against cyclictest (rt-tests), run alternately on the same machine with
# the same priority, interval, CPU and duration, several rounds; prints each round's wake-up p50/p99/max from both
# and the ratios of their medians over the rounds (rtjitter / cyclictest). p50 and p99 should lie within 10 % of 1.
#
# Like with like: cyclictest truncates each latency to whole µs (its histogram bucket v holds [v, v+1) µs), so its
# quantiles are read from its --json histogram as the bucket's middle, v + 0.5; samples past the histogram's end
# (cycles minus the histogram's sum) count as its max. rtjitter's come from its report (ns resolution, log-linear
# histogram within 1 %). cyclictest sleeps for every period, even one already missed; rtjitter skips those and
# counts them (audio.skipped_periods), so after a long stall cyclictest has several late samples and rtjitter one:
# only the far tail can differ for that reason, and the skipped periods are printed.
# TIMER_ROUNDS (3), TIMER_SECS (10), TIMER_CPU (the last CPU), TIMER_PRIO (80), TIMER_US (1000) override.
set -u
RTJ=${RTJ:-./rtjitter}
W=$(mktemp -d); trap 'rm -rf "$W"' EXIT
export XDG_DATA_HOME="$W/xdg"
rounds=${TIMER_ROUNDS:-3}
secs=${TIMER_SECS:-10}
cpu=${TIMER_CPU:-$(($(nproc) - 1))}
prio=${TIMER_PRIO:-80}
us=${TIMER_US:-1000}
command -v cyclictest >/dev/null || { echo "timer: cyclictest (rt-tests) is not installed: skipped"; exit 0; }
echo "timer vs cyclictest: $rounds rounds x $secs s each, CPU $cpu, SCHED_FIFO $prio, interval $us us, alternating"
for r in $(seq "$rounds"); do
    "$RTJ" run --backend timer --cpus "$cpu" --interval "$us" --priority "$prio" --duration "$secs" --warmup 1 \
        --loads none --quiet --json "$W/rtj$r.json" >/dev/null 2>"$W/rtj$r.err" || { cat "$W/rtj$r.err"; }
    cyclictest -m -q -p "$prio" -i "$us" -a "$cpu" -t 1 -D "$secs" -h 20000 --json="$W/cyc$r.json" \
        >/dev/null 2>"$W/cyc$r.err" || cat "$W/cyc$r.err"
done
python3 - "$W" "$rounds" <<'PY'
import json, statistics, sys
w, rounds = sys.argv[1], int(sys.argv[2])

def cyc_quantiles(path):
    d = json.load(open(path))
    t = d['thread']['0']
    h = sorted((int(k), v) for k, v in t['histogram'].items())
    n = t['cycles']
    over = n - sum(v for _, v in h)
    out = {}
    for name, q in (('p50', .5), ('p99', .99)):
        rank = max(1, -(-int(q * n * 1000000) // 1000000))  # ceil(q n), nearest rank
        acc, val = 0, None
        for v, c in h:
            acc += c
            if acc >= rank:
                val = v + 0.5
                break
        out[name] = val if val is not None else float(t['max'])
    out['max'] = float(t['max'])
    out['cycles'] = n
    out['overflow'] = over
    return out

def rtj_quantiles(path):
    d = json.load(open(path))
    p = d['phases'][0]
    wk = p['wakeup_us']
    return {'p50': wk['p50'], 'p99': wk['p99'], 'max': wk['max'], 'cycles': p['cycles'],
            'skipped': d['audio'].get('skipped_periods', 0), 'dma': d['audio'].get('cpu_dma_latency')}

rt, cy = [], []
for r in range(1, rounds + 1):
    try:
        a = rtj_quantiles(f"{w}/rtj{r}.json"); b = cyc_quantiles(f"{w}/cyc{r}.json")
    except (OSError, KeyError, ValueError) as e:
        print(f"round {r}: no result ({e})"); continue
    rt.append(a); cy.append(b)
    print(f"round {r}: rtjitter p50 {a['p50']:.1f} p99 {a['p99']:.1f} max {a['max']:.0f} us ({a['cycles']} cycles, "
          f"{a['skipped']} skipped) | cyclictest p50 {b['p50']:.1f} p99 {b['p99']:.1f} max {b['max']:.0f} us "
          f"({b['cycles']} cycles, {b['overflow']} past the histogram)")
if not rt:
    print("timer: no round completed"); sys.exit(0)
print(f"rtjitter held /dev/cpu_dma_latency: {rt[0]['dma']}; cyclictest holds it at 0 by default")
for k in ('p50', 'p99', 'max'):
    a = statistics.median(x[k] for x in rt); b = statistics.median(x[k] for x in cy)
    ratio = a / b if b else float('nan')
    verdict = '' if k == 'max' else ('  (within 10 %)' if abs(ratio - 1) <= 0.10 else '  (NOT within 10 %)')
    print(f"timer/cyclictest {k}: {a:.1f} / {b:.1f} us = {ratio:.3f}{verdict}")
PY
