#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# rt_share.py OBSERVE.LOG REPORT.json: rtjitter's DSP shares against the kernel's own account of its RT threads,
# as rt_observe.py sampled it from outside the process. Prints one line per phase, and per step of a --dsp ramp:
#   phase LOAD asked A report R observed O
#   step LOAD level L report R observed O failed F delay_ms D steal_ms S slack_ms N
#   first LOAD PCT|none explained 0|1 delay_ms D steal_ms S excess_ms E slack_ms N
# "observed": the threads' CPU time between the first and last exact (sleeping) samples inside the window the
# report gives (dsp_share.mono_window_s, a step's mono_window_s: CLOCK_MONOTONIC), over the cycles that window
# holds (the phase's, or the step's, count of cycles over its window: a count, not a CPU figure) times the
# nominal period. "delay_ms"/"steal_ms": the threads' run delay
# (schedstat field 2) and the hypervisor's steal (/proc/stat) over samples enclosing the step; "slack_ms": what a
# cycle at that level had to lose to miss: the period less the guard band (1/32, >= 10 us) less its work.
# "first": the first failing cycle's step; explained 1 when the machine took at least that slack from the thread
# in that step: it waited to run (run delay), the host ran something else (steal: /proc/stat's counter advanced
# in that step; it counts in 10 ms ticks, so a tick is evidence of steal there, not its size), or the thread's CPU
# time exceeded its work (excess: on a kernel without CONFIG_IRQ_TIME_ACCOUNTING the
# interrupts that land while it runs are charged to it). A necessary condition only: the machine's miss, not
# the ramp's, is possible; when it is not, the miss is the ramp's.
import json
import sys

rows = {}
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) == 6:
        rows.setdefault(int(f[1]), []).append((float(f[0]), int(f[2]), int(f[3]), int(f[4]), int(f[5])))
doc = json.load(open(sys.argv[2]))
period_s = doc['audio']['period_us'] / 1e6
guard_s = max(period_s / 32, 10e-6)


def observed(tids, t0, t1, rate):
    """CPU share (% of cycles x period) of tids between their first and last clean samples in [t0, t1]."""
    shares = []
    for tid in tids:
        s = [r for r in rows.get(tid, []) if t0 <= r[0] <= t1 and r[3]]
        if len(s) < 2 or s[-1][0] - s[0][0] < 0.3 * (t1 - t0):
            return None
        shares.append((s[-1][1] - s[0][1]) / 1e9 / (s[-1][0] - s[0][0]) / (rate * period_s) * 100)
    return sum(shares) / len(shares) if shares else None


def machine(tids, t0, t1):
    """Run delay and steal (s) over samples enclosing [t0, t1]."""
    delay, steal = 0.0, 0.0
    for tid in tids:
        s = rows.get(tid, [])
        before = [r for r in s if r[0] <= t0]
        after = [r for r in s if r[0] >= t1]
        a = before[-1] if before else (s[0] if s else None)
        b = after[0] if after else (s[-1] if s else None)
        if a and b:
            delay += (b[2] - a[2]) / 1e9
            steal = max(steal, (b[4] - a[4]) / 100.0)
    return delay, steal


def fmt(x):
    return 'none' if x is None else f'{x:.2f}'


for p in doc['phases']:
    sh = p.get('dsp_share') or {}
    tids = sh.get('tids') or []
    win = sh.get('mono_window_s')
    cw = p.get('clock_window_s')
    if not win or not cw or not p.get('cycles') or not tids:
        print('phase', p['load'], 'asked none report none observed none')
        continue
    rate = p['cycles'] / len(tids) / (cw[1] - cw[0]) if cw[1] > cw[0] else 1 / period_s
    print('phase', p['load'], 'asked', fmt(sh.get('requested_pct')), 'report', fmt(sh.get('measured_pct')),
          'observed', fmt(observed(tids, win[0], win[1], rate)))
    r = p.get('dsp_ramp')
    if not r:
        continue
    first = None
    for s in r['steps']:
        w = s.get('mono_window_s')
        if not w:
            continue
        d, st = machine(tids, w[0], w[1])
        slack = period_s - guard_s - s['level_pct'] / 100 * period_s
        # the step's own cycle rate (its cycles over its window): a provider's cycles need not come evenly across a
        # phase (the ALSA loop on the jack PCM under a load)
        srate = s['cycles'] / len(tids) / (w[1] - w[0]) if w[1] > w[0] and s['cycles'] else rate
        print('step', p['load'], 'level', fmt(s['level_pct']), 'report', fmt(s.get('measured_pct')), 'observed',
              fmt(observed(tids, w[0], w[1], srate)), 'failed', s['failed'], 'delay_ms', f'{d * 1e3:.2f}',
              'steal_ms', f'{st * 1e3:.0f}', 'slack_ms', f'{slack * 1e3:.2f}')
        if first is None and s['failed']:
            # what the thread's CPU time over the step exceeds its work by, from the widest samples of the step
            ob = observed(tids, w[0], w[1], srate)
            excess = max(ob - s['level_pct'], 0) / 100 * period_s * s['cycles'] if ob is not None else 0
            first = (s['level_pct'], d, st, excess, slack)
    if first is None:
        print('first', p['load'], 'none', 'explained', 0, 'delay_ms', 0, 'steal_ms', 0, 'excess_ms', 0, 'slack_ms', 0)
    else:
        L, d, st, ex, slack = first
        print('first', p['load'], f'{L:.2f}', 'explained', int(d + ex >= slack or st > 0), 'delay_ms', f'{d * 1e3:.2f}',
              'steal_ms', f'{st * 1e3:.0f}', 'excess_ms', f'{ex * 1e3:.2f}', 'slack_ms', f'{slack * 1e3:.2f}')
