#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# pw_judge.py HELPERS REPORT STALL_OUT Q WANT CANARY-LOG...: a report's events under PipeWire against the stall
# client's own log (tests/helpers/stall_client with STALL_CLOCK=mono), by stall_events.py's rule: every stall in the
# measured window exactly one event, an event beyond them only when a canary saw the machine stall then or the stall
# client's own log had it late; WANT stalls in the window (0: any number but at least one). Prints "ok ..." or
# "FAIL ..." with the counts. Used by pipewire_xruns.sh and pipewire_wireplumber.sh.
import json, sys
sys.path.insert(0, sys.argv[1])
from stall_events import attribute
d = json.load(open(sys.argv[2])); ph = d['phases'][0]; P = int(sys.argv[4]) / 48000.0; want = int(sys.argv[5])
t = open(sys.argv[3]).read().split()
num = lambda a, b: [float(x) for x in t[t.index(a) + 1:t.index(b)]]
st, lt = num('stall_times', 'xrun_times'), num('late_times', 'stall_times')
w0, w1 = ph['clock_window_s']
stalls = [(a, b) for a, b in zip(st[0::2], st[1::2]) if w0 < a and b < w1]
late = [(float(l.split()[1]), float(l.split()[2]) / 1e6) for c in sys.argv[6:] for l in open(c) if l.startswith('late ')]
# the stall client's own late cycles (a wake 1.5 periods after the one before, a cycle that finished past its
# period), outside its stalls: it did not finish then, by its own clock
own = [(b, round((b - a) / P)) for a, b in zip(lt[0::2], lt[1::2]) if not any(x - P <= a <= y + 3 * P for x, y in stalls)]
# a stall across an edge of the window (a sweep's cells): the events it made (by the same rule as a stall's) are
# its own, neither judged nor beyond
edge = [(a, b) for a, b in zip(st[0::2], st[1::2]) if (a, b) not in stalls and b > w0 - 4 * P and a < w1]
inside = lambda e, a, b: e['t_s'] <= b + 3 * P and e['t_s'] + e['length_ms'] / 1e3 >= a - P
ev = [e for e in ph['events'] if not any(inside(e, a, b) for a, b in edge)]
per, beyond = attribute(ev, stalls, late, [], P, own)
bad = ['an event at %.3f s (%.1f ms, %d skipped) that no observer saw' % (e['t_s'] - w0, e['length_ms'], e['skipped'])
       for e, why, _ in beyond if why == 'unexplained']
bad += ['the stall at %.3f s has %d events' % (stalls[i][0] - w0, n) for i, n in enumerate(per) if n != 1]
if want and len(stalls) != want:
    bad.append('%d stalls in the window, not %d' % (len(stalls), want))
if not stalls:
    bad.append('no stall in the window')
print('%s %d events, one in each of %d stalls: %s; %d beyond them (a canary saw the machine stall: %d, the stall '
      "client's own log had it: %d)%s" % ('FAIL' if bad else 'ok', len(ph['events']), len(stalls),
      'yes' if all(n == 1 for n in per) else 'no', len(beyond), sum(w == 'canary' for _, w, _ in beyond),
      sum(w == 'graph' for _, w, _ in beyond), ('; ' + '; '.join(bad)) if bad else ''))
