#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""One stall, one event: rtjitter's xrun events against a stalling client's own log (issue 19 item 1).

usage: stall_events.py REPORT.json STALL_CLIENT_OUT PERIOD_FRAMES [CANARY-LOG...]

The stall client (tests/helpers/stall_client) logged the start and end of each of its stalls and the xrun
notifications it got, on the report's clock (jack2: CLOCK_MONOTONIC_RAW; under pw-jack it runs with
STALL_CLOCK=mono). The canaries (tests/helpers/canary) logged their late wake-ups: the machine's own stalls.
Every stall inside the report's measured window must have exactly one event (one that overlaps the stall, from a
period before its start to three periods after its end). An event outside every stall counts only when an
independent observer saw something then: the stall client's own log of a late cycle of its own outside its stalls
(late_times: it did not finish in time, a real xrun of the graph), a canary late by half a period or more (the machine
stalled), or an xrun
notification the stall client got outside its own stalls (from a period before one to three periods after it, as an event is matched: the server saw the graph disturbed then; jack2 notified within 1.3 ms of a stall's end in 12 stalls of 20 ms at 64 frames beside stress-ng). Nothing else: the
VM's own is never assumed. Prints one line, "ok ..." or "FAIL ...", with the figures.
"""
import json
import sys


def attribute(ev, stalls, late, xr, P, dist=(), own=()):
    """Each of a phase's events against the stalls (start, end) and what the observers saw, all on one clock:
    late = [(deadline, lateness_s)] of the canaries, xr = the stall client's notification times, dist = [(time,
    periods skipped)] of a graph observer (tests/experiments/stall_events.sh has one). Returns (the number of
    events in each stall, [(event, why, detail)] for the events outside every stall), why being 'canary', 'graph',
    'notified' or 'unexplained'. tests/experiments/stall_events.sh judges its matrix with it too."""
    per_stall = [0] * len(stalls)
    beyond = []
    for e in ev:
        t0, t1 = e['t_s'], e['t_s'] + e['length_ms'] / 1e3
        k = [i for i, (a, b) in enumerate(stalls) if t0 <= b + 3 * P and t1 >= a - P]
        for i in k:
            per_stall[i] += 1
        if k:
            continue
        c = [l for t, l in late if l >= P / 2 and t <= t1 + P and t + l >= t0 - P]
        g = [k for t, k in dist if t0 - P <= t <= t1 + 2 * P]
        # jack2 delivers a client's xrun notification from its notification thread, which a busy machine delays: a
        # watch test once had an event of one cycle the server notified with none of the stall client's own
        # notifications within two periods (not measured how late it came); up to 50 ms after is taken as the same
        n = [t for t in xr if t0 - P <= t <= t1 + 2 * P + 0.05 and not any(a - P <= t <= b + 3 * P for a, b in stalls)]
        # the stall client's own log of its late cycles outside its stalls (it did not finish in time: a real xrun of
        # the graph, seen by the client itself; a CI run once had one 0.3 ms event no other observer saw)
        o = [(a, b) for a, b in own if a <= t1 + P and b >= t0 - P]
        beyond.append((e, 'canary', max(c)) if c else (e, 'graph', max(g)) if g else
                      (e, 'notified', len(n)) if n else (e, 'client late', len(o)) if o else (e, 'unexplained', None))
    return per_stall, beyond


def main(argv):
    if len(argv) < 4:
        sys.exit(__doc__)
    d = json.load(open(argv[1]))
    ph = d['phases'][0]
    P = int(argv[3]) / float(d['audio']['rate'])
    raw = d['audio']['clock'] == 'CLOCK_MONOTONIC_RAW'
    txt = open(argv[2]).read().split()
    st = [float(x) for x in txt[txt.index('stall_times') + 1:txt.index('xrun_times')]]
    xr = [float(x) for x in txt[txt.index('xrun_times') + 1:]]
    lt = [float(x) for x in txt[txt.index('late_times') + 1:txt.index('stall_times')]] if 'late_times' in txt else []
    own = list(zip(lt[0::2], lt[1::2]))
    w0, w1 = ph['clock_window_s']
    stalls = [(a, b) for a, b in zip(st[0::2], st[1::2]) if w0 < a and b < w1]
    f = 3 if raw else 1                   # canary: "late DEADLINE_S LATENESS_US RAW_DEADLINE_S"
    late = [(float(l.split()[f]), float(l.split()[2]) / 1e6)
            for c in argv[4:] for l in open(c) if l.startswith('late ')]
    ev = ph['events']
    per_stall, beyond = attribute(ev, stalls, late, xr, P, own=own)
    bad = ['an event at %.3f s (%.1f ms, %d cycles, %d skipped, %d notifications) that no observer saw'
           % (e['t_s'] - w0, e['length_ms'], e['cycles'], e['skipped'], e['notifications'])
           for e, why, _ in beyond if why == 'unexplained']
    for i, n in enumerate(per_stall):
        if n != 1:
            bad.append('the stall at %.3f s has %d events' % (stalls[i][0] - w0, n))
    if len(ev) != ph['xruns']['events'] or ph.get('events_unlisted', 0):
        bad.append('%d events listed, %d counted' % (len(ev), ph['xruns']['events']))
    print('%s %d stalls in the window, %d events: one in each stall %s, %d beyond them (a canary saw the machine '
          'stall: %d, the stall client was notified: %d, its own log had it late: %d)%s' % (
              'FAIL' if bad else 'ok', len(stalls), len(ev), 'yes' if all(n == 1 for n in per_stall) else 'no',
              len(beyond), sum(w == 'canary' for _, w, _ in beyond), sum(w == 'notified' for _, w, _ in beyond),
              sum(w == 'client late' for _, w, _ in beyond),
              ('; ' + '; '.join(bad)) if bad else ''))


if __name__ == '__main__':
    main(sys.argv)
