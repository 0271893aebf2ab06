#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 38: the noise probe (--backend noise) against oslat (rt-tests: the same method, a busy loop of clock reads)
# and jitterdebugger (a sleeping thread's wake-up, cyclictest's kind), one after the other on the same CPU at the same
# priority, NOISE_ROUNDS rounds of NOISE_SECS each. Per round, each tool's max and the probe's and oslat's gaps and
# total noise over the threshold; then the ratios of their medians over the rounds (rtjitter / oslat). This VM's own
# rate of gaps below the kernel (nothing the kernel counts rose across them) is printed as what it is: a measured
# fact of this machine, not a claim that can be checked here.
#
# Like with like: oslat buckets each loop's latency in whole µs (bucket k holds [k, k+1) µs, the loop's own time
# included), the last bucket (1024) every longer one; its total over the threshold is read from the buckets k >= the
# threshold below the last, and so is the probe's, from its total minus its gaps of 1024 µs or more (its report
# lists its 100 longest gaps: exact while there are fewer such gaps). Both maxima are whole. The machine is shared
# and busy; the real-time throttle gives other tasks 50 ms a second: both tools see it as their longest gap.
# NOISE_ROUNDS (3), NOISE_SECS (5), NOISE_CPU (the last CPU), NOISE_PRIO (70), NOISE_US (the threshold, 5) override.
set -u
RTJ=${RTJ:-./rtjitter}
W=$(mktemp -d); trap 'rm -rf "$W"' EXIT
export XDG_DATA_HOME="$W/xdg"
rounds=${NOISE_ROUNDS:-3}
secs=${NOISE_SECS:-5}
cpu=${NOISE_CPU:-$(($(nproc) - 1))}
prio=${NOISE_PRIO:-70}
thr=${NOISE_US:-5}
command -v oslat >/dev/null || { echo "noise: oslat (rt-tests) is not installed: skipped"; exit 0; }
[ "$(nproc)" -ge 2 ] || { echo "noise: one CPU: the tools' main threads need another: skipped"; exit 0; }
jd=$(command -v jitterdebugger || true)
echo "noise: CPU $cpu, SCHED_FIFO $prio, threshold $thr us, $rounds rounds of $secs s, the tools in turn"
for r in $(seq "$rounds"); do
    oslat -c "$cpu" -C 0 -D "$secs" -f "$prio" -b 1024 -q --json="$W/o$r.json" >/dev/null 2>&1
    taskset -c 0 "$RTJ" run --backend noise --cpus "$cpu" --threshold "$thr" --priority "$prio" --loads none \
        --warmup 0.5 --duration "$secs" --quiet --json "$W/n$r.json" >/dev/null 2>&1
    if [ -n "$jd" ]; then
        taskset -c 0 timeout $((secs + 10)) "$jd" -a "$cpu" -p "$prio" -D "${secs}s" >"$W/j$r.out" 2>&1
    fi
done
python3 - "$W" "$rounds" "$thr" "$secs" <<'PY'
import json, re, statistics, sys
W, rounds, thr, secs = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
rows = []
for r in range(1, rounds + 1):
    try:
        o = list(json.load(open('%s/o%d.json' % (W, r)))['thread'].values())[0]
        n = json.load(open('%s/n%d.json' % (W, r)))
    except (OSError, ValueError, IndexError) as e:
        print('noise: round %d: a tool left no result (%s)' % (r, e)); continue
    h = {int(k): v for k, v in o['histogram'].items()}
    o_gaps = sum(v for k, v in h.items() if k >= thr)
    o_tot = sum(k * v for k, v in h.items() if thr <= k < 1024)
    ph = n['phases'][0]['noise']; c = ph['cpus'][0]
    long = [e['length_us'] for e in ph['events'] if e['length_us'] >= 1024]
    n_tot = c['total_noise_us'] - sum(long) if len(long) < ph['events_kept'] or ph['events_kept'] == ph['events_total'] else float('nan')
    j = None
    try:
        m = re.findall(r'Max:\s+(\d+)', open('%s/j%d.out' % (W, r)).read())
        j = float(m[-1]) if m else None
    except OSError:
        pass
    b = c['classes']['below_kernel']
    rows.append(dict(o_max=o['max'], o_gaps=o_gaps, o_tot=o_tot, n_max=c['max_noise_us'], n_gaps=c['gaps'], n_tot=n_tot,
                     j=j, probed=c['probed_s'], bk=b, cls=c['classes']))
    print('noise: round %d: oslat max %7.0f us, %6d gaps, %9.1f us under 1024 us | rtjitter max %9.1f us, %6d gaps, '
          '%9.1f us under 1024 us | jitterdebugger max %s us' % (r, o['max'], o_gaps, o_tot, c['max_noise_us'],
          c['gaps'], n_tot, '%.0f' % j if j is not None else 'not run'))
if not rows:
    sys.exit(0)
med = lambda k: statistics.median(x[k] for x in rows)
ratio = lambda a, b: a / b if b else float('nan')
print('noise: median ratios rtjitter / oslat: max %.2f, gaps over %g us %.2f, total noise under 1024 us %.2f'
      % (ratio(med('n_max'), med('o_max')), thr, ratio(med('n_gaps'), med('o_gaps')), ratio(med('n_tot'), med('o_tot'))))
js = [x['j'] for x in rows if x['j'] is not None]
if js:
    print('noise: jitterdebugger (a sleeping thread, wake-up) median max %.0f us; the probe\'s longest gap / it: %.2f'
          % (statistics.median(js), ratio(med('n_max'), statistics.median(js))))
probed = sum(x['probed'] for x in rows)
bk_n = sum(x['bk']['count'] for x in rows); bk_t = sum(x['bk']['total_us'] for x in rows)
print('noise: below the kernel on this machine (measured, %.0f s probed): %.1f gaps/s, %.2f ms/s, the longest %.1f us'
      % (probed, bk_n / probed, bk_t / probed / 1000, max(x['bk']['max_us'] for x in rows)))
tot = {k: sum(x['cls'][k]['total_us'] for x in rows) for k in rows[0]['cls']}
all_t = sum(tot.values()) or 1
print('noise: the share of the noise by class: ' + ', '.join('%s %.0f %%' % (k, 100 * v / all_t) for k, v in tot.items()))
PY
