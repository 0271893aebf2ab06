#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""rtjitter watch's live lines against a stalling client's own log (issue 25).

usage: watch_check.py WATCH_OUT STALL_CLIENT_OUT CLOCK REPORT.json
  CLOCK: raw or mono, the clock the stall client logged on. Its stall times are moved onto the wall clock by the
  offset CLOCK_REALTIME - CLOCK now (read here: the run has just ended, seconds of drift at most).
Prints "key value" lines: stalls (inside the session's measured window), begun_near (stalls with an "xrun N began"
line whose time is within 150 ms of the stall's start: ISO 8601 under --wide, else HH:MM:SS.mmm on the date and UTC
offset of the date line in force, "local times from 2026-12-04 (UTC+00:00); ..." or "2026-12-05 (UTC+00:00)"), ended_named (of those, whose end line names the
client 'stall'), wall_near (stalls with a report event whose events[].wall is within 150 ms), lines_bad (lines that
are neither, nor the session's summary: a "your session: " line and the indented ones after it, nor a date line, nor
an "xrun N, found later: CULPRIT" line, which names the culprit of an event told ended without it), begun, ended, wide
(lines over 80 columns), found_later.
"""
import datetime, json, re, sys, time

def offset(clk):
    c = time.CLOCK_MONOTONIC_RAW if clk == 'raw' else time.CLOCK_MONOTONIC
    best = None
    for _ in range(5):
        a = time.clock_gettime(time.CLOCK_REALTIME)
        m = time.clock_gettime(c)
        b = time.clock_gettime(time.CLOCK_REALTIME)
        if best is None or b - a < best[0]:
            best = (b - a, (a + b) / 2 - m)
    return best[1]

def main():
    out, stall_out, clk, report = sys.argv[1:5]
    off = offset(clk)
    txt = open(stall_out).read().split()
    st = [float(x) for x in txt[txt.index('stall_times') + 1:txt.index('xrun_times')]]
    d = json.load(open(report))
    ph = d['phases'][-1]  # a session across a server's lives: a phase each, the last life's last
    w0, w1 = ph['clock_window_s']
    raw = d['audio']['clock'] == 'CLOCK_MONOTONIC_RAW'
    # the window on the stall client's clock (the same clock when the report's is its)
    stalls = [(a, b) for a, b in zip(st[0::2], st[1::2]) if w0 < a and b < w1]
    began, ended, bad, summary, wide, day, found_later = {}, {}, 0, False, 0, None, 0

    def stamp(s):
        if 'T' in s:
            return datetime.datetime.fromisoformat(s).timestamp()
        return datetime.datetime.fromisoformat('%sT%s%s' % (day[0], s, day[1])).timestamp()
    for line in open(out, encoding='utf-8'):
        line = line.rstrip('\n')
        if len(line) > 80 and not line.startswith('watching ') and not line.startswith('report: '):
            wide += 1
            print('wide_example', line)
        m = re.match(r'^(\S+)  xrun (\d+) began$', line)
        n = re.match(r'^(\S+)  xrun (\d+): ([\d.]+ ms|under 0\.1 ms); (.*)$', line)
        lt = re.match(r'^(\S+)  xrun (\d+), found later: (.*)$', line)
        dl = re.match(r'^(?:local times from )?(\d{4}-\d\d-\d\d) \(UTC([+-]\d\d:\d\d)\)(?:;.*)?$', line)
        if dl:
            day = (dl.group(1), dl.group(2))
        elif m:
            began[int(m.group(2))] = stamp(m.group(1))
        elif n:
            ended[int(n.group(2))] = (stamp(n.group(1)), n.group(4))
        elif lt and int(lt.group(2)) in ended:  # the culprit of one told "not known", found later: it names it now
            found_later += 1
            ended[int(lt.group(2))] = (ended[int(lt.group(2))][0], lt.group(3))
        elif line.startswith('your session: '):
            summary = True   # the session's summary (issue 34): its lines follow, indented
        elif summary and line.startswith('  '):
            pass
        elif not line.startswith('watching ') and not line.startswith('report: '):
            bad += 1
    near = named = unknown = wall_near = 0
    walls = [datetime.datetime.fromisoformat(e['wall'].replace('Z', '+00:00')).timestamp() for e in ph['events']]
    for a, b in stalls:
        wa = a + off
        k = [i for i, t in began.items() if abs(t - wa) <= 0.150]
        if k:
            near += 1
            if any(i in ended and "stall (client" in ended[i][1] for i in k):
                named += 1
            elif all(i in ended and "not known" in ended[i][1] for i in k):
                unknown += 1
        if any(abs(t - wa) <= 0.150 for t in walls):
            wall_near += 1
    for k, v in (('stalls', len(stalls)), ('begun_near', near), ('ended_named', named), ('ended_unknown', unknown),
                 ('wall_near', wall_near),
                 ('begun', len(began)), ('ended', len(ended)), ('lines_bad', bad), ('wide', wide),
                 ('found_later', found_later)):
        print(k, v)

main()
