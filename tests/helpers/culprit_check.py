#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Judges a report's culprits against injected ones whose times the injector logged itself (not rtjitter).

usage: culprit_check.py REPORT TRUTH KIND KEY [--clock CLOCK] [--slack-ms MS (100)] [--pre-ms MS (2)] [--excuse FILE]
  TRUTH: lines "S E" (seconds; a cpu_hog log's "spin S E", or a stall client's pairs) on the clock CLOCK
         (mono or raw, default mono); they are moved onto the report's own clock (audio.clock) by the offset the
         two clocks have now (read here, twice, the smaller gap).
  KIND:  the culprit kind expected on top (rt_task, client, dsp, irq, softirq).
  KEY:   pid=N, name=TEXT, or - (any).
  --slack-ms, --pre-ms: a happening that ends this long before an injected window starts (pre), or starts this long
         after it ends (slack), still belongs to it. A culprit known from counters alone (an IRQ, a softirq) is seen
         in the sampler's 50 ms samples that overlap the happening's window, which reach 100 ms either side of it:
         its tests give --pre-ms 100.
  --listed: a happening names the culprit when it is anywhere in its list, not only on top (the trace lists each
         holder of a tenth of the wait or more: a storm's softirq beside a compile's cc1 that held more of it).
  --excuse FILE: more windows "S E" (same clock) in which the culprit's own log says it misbehaved beyond the
         injected ones (a stall client that a busy machine made late): a happening in one is not "outside"; they are
         not truths (nothing is required of them).
Prints one line per figure ("key value") and exits 0; the test decides. Figures:
  truths_inside   injected windows inside the measured window
  hit             of those, with an event or a spike overlapping [S, E + slack] whose top culprit is KIND/KEY
  covered         of those, with any event or spike overlapping them
  happenings_in   events + listed spikes overlapping an injected window
  top_right_in    of those, with KIND/KEY on top
  named_outside   events + spikes outside every injected window that name KIND/KEY anywhere among their culprits
  top_outside     of those, the ones with it on top
  outside         events + spikes outside every injected window
  first_evidence  the evidence line of the first hit
"""
import json, sys, time

def clock_offset(report_clock):
    """report clock minus CLOCK_MONOTONIC, seconds."""
    if report_clock != 'CLOCK_MONOTONIC_RAW':
        return 0.0
    best = None
    for _ in range(5):
        a = time.clock_gettime(time.CLOCK_MONOTONIC)
        r = time.clock_gettime(time.CLOCK_MONOTONIC_RAW)
        b = time.clock_gettime(time.CLOCK_MONOTONIC)
        if best is None or b - a < best[0]:
            best = (b - a, r - (a + b) / 2)
    return best[1]

def main():
    a = sys.argv[1:]
    # A happening counts for an injected window from 2 ms before it to SLACK after: the engine explains a happening
    # over the window from max(2 periods, one 50 ms sample) before it, so one that comes that soon after a stall
    # (a late cycle once the event has closed) shares the stall's window, and its culprit, by design.
    clock, slack, pre, excuse = 'mono', 0.1, 0.002, None
    listed = '--listed' in a
    a = [x for x in a if x != '--listed']
    while '--clock' in a or '--slack-ms' in a or '--pre-ms' in a or '--excuse' in a:
        for flag in ('--clock', '--slack-ms', '--pre-ms', '--excuse'):
            if flag in a:
                i = a.index(flag)
                v = a[i + 1]
                del a[i:i + 2]
                if flag == '--clock':
                    clock = v
                elif flag == '--slack-ms':
                    slack = float(v) / 1000
                elif flag == '--excuse':
                    excuse = v
                else:
                    pre = float(v) / 1000
    report, truth, kind, key = a
    d = json.load(open(report))
    off = 0.0 if clock == 'raw' else clock_offset(d['audio'].get('clock'))
    if clock == 'raw' and d['audio'].get('clock') != 'CLOCK_MONOTONIC_RAW':
        off = -clock_offset('CLOCK_MONOTONIC_RAW')
    wins = []
    for line in open(truth):
        f = line.split()
        if f and f[0] == 'spin':
            f = f[1:]
        if len(f) == 2:
            try:
                wins.append((float(f[0]) + off, float(f[1]) + off))
            except ValueError:
                pass
    exc = []
    for line in (open(excuse) if excuse else []):
        f = line.split()
        if len(f) == 2:
            exc.append((float(f[0]) + off, float(f[1]) + off))
    def matches(c):
        if c.get('kind') != kind:
            return False
        if key == '-':
            return True
        k, v = key.split('=', 1)
        return str(c.get(k)) == v
    haps = []
    for p in d['phases']:
        for e in p.get('events', []):
            t0 = e['t_s']
            haps.append((t0, t0 + max(e.get('length_ms', 0), 0) / 1000, e.get('culprits', []), 'event'))
        for s in p.get('spikes', []):
            t0 = s['t_s']
            haps.append((t0, t0 + s.get('wakeup_us', 0) / 1e6, s.get('culprits', []), 'spike'))
    w0 = min(p['clock_window_s'][0] for p in d['phases'] if p.get('clock_window_s'))
    w1 = max(p['clock_window_s'][1] for p in d['phases'] if p.get('clock_window_s'))
    inside = [w for w in wins if w0 + 0.05 < w[0] and w[1] < w1 - 0.05]
    def overl(h, w):
        return h[0] <= w[1] + slack and h[1] >= w[0] - pre
    hit = covered = 0
    first = ''
    for w in inside:
        hs = [h for h in haps if overl(h, w)]
        if hs:
            covered += 1
        good = [h for h in hs if h[2] and (any(matches(c) for c in h[2]) if listed else matches(h[2][0]))]
        if not good:
            for h in hs[:3]:
                top = h[2][0] if h[2] else {}
                print('missed_example %s t=%.3f (truth %.3f-%.3f) top=%s/%s: %s' % (
                    h[3], h[0], w[0], w[1], top.get('kind'), top.get('name'), top.get('evidence', '')[:150]))
        if good:
            hit += 1
            if not first:
                first = good[0][2][0].get('evidence', '')
    hin = [h for h in haps if any(overl(h, w) for w in wins)]
    hout = [h for h in haps if not any(overl(h, w) for w in wins + exc)]
    top_in = sum(1 for h in hin if h[2] and matches(h[2][0]))
    named_out = sum(1 for h in hout if any(matches(c) for c in h[2]))
    top_out = sum(1 for h in hout if h[2] and matches(h[2][0]))
    for k, v in (('truths', len(wins)), ('excused', len(exc)), ('truths_inside', len(inside)), ('hit', hit), ('covered', covered),
                 ('happenings_in', len(hin)), ('top_right_in', top_in), ('outside', len(hout)),
                 ('named_outside', named_out), ('top_outside', top_out)):
        print(k, v)
    for h in hout[:5]:
        top = h[2][0] if h[2] else {}
        print('outside_example %s t=%.3f top=%s/%s' % (h[3], h[0], top.get('kind'), top.get('name')))
    for h in [h for h in hout if any(matches(c) for c in h[2])][:5]:
        near = min(wins, key=lambda w: min(abs(h[0] - w[0]), abs(h[0] - w[1])))
        print('named_outside_example %s t=%.3f (nearest truth %.3f-%.3f)' % (h[3], h[0], near[0], near[1]))
    print('first_evidence', first)

main()
