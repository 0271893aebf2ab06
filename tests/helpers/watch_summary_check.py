#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""rtjitter watch's summary of the session (issue 34 item 5) against a stalling client's own log.

usage: watch_summary_check.py WATCH_OUT STALL_CLIENT_OUT CLOCK REPORT.json SESSION_S
  CLOCK: raw or mono, the clock the stall client logged on (moved onto the wall clock by the offset read now).
  SESSION_S: the session's --duration.
Prints "key value" lines for the shell test, all from the last summary block of WATCH_OUT (the one at the end) and
the first (SIGUSR1's), set against the client's stalls inside the report's measured window: blocks, stalls, events,
events_first, length_s, per_hour, per_hour_want, longest_ms, stall_max_ms, longest_at_stall (1: the longest's time
is within 1 s of a stall's start), worst_n, worst_min_stalls (the client's stalls in that minute), worst_stalls_max
(the most stalls the client made in any minute), top_name, top_pct, not_known_pct, wide (summary lines over 80
columns), no_load (lines or verdict text saying "no load").
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

def blocks(lines):
    out, cur = [], None
    for l in lines:
        if l.startswith('your session: '):
            cur = [l]
            out.append(cur)
        elif cur is not None and l.startswith('  '):
            cur.append(l)
        else:
            cur = None
    return out

def secs(text):
    h = re.search(r'(\d+) h (\d+) min', text)
    m = re.search(r'(\d+) min (\d+) s', text)
    s = re.search(r'(\d+) s', text)
    return int(h[1]) * 3600 + int(h[2]) * 60 if h else int(m[1]) * 60 + int(m[2]) if m else int(s[1])

def main():
    out, stall_out, clk, report, session_s = sys.argv[1:6]
    off = offset(clk)
    lines = [l.rstrip('\n') for l in open(out, encoding='utf-8')]
    bl = blocks(lines)
    txt = open(stall_out).read().split()
    st = [float(x) for x in txt[txt.index('stall_times') + 1:txt.index('xrun_times')]]
    d = json.load(open(report))
    w0, w1 = d['phases'][0]['clock_window_s']
    stalls = [(a, b) for a, b in zip(st[0::2], st[1::2]) if w0 < a and b < w1]
    r = {'blocks': len(bl), 'stalls': len(stalls)}
    if not bl:
        print('\n'.join(f'{k} {v}' for k, v in r.items()))
        return
    first, last = bl[0], bl[-1]
    head = re.match(r'your session: (.*?), (\d+) xruns?(?:, (\d+) an hour)?$', last[0])
    r['events'] = int(head[2]) if head else -1
    h1 = re.match(r'your session: .*?, (\d+) xruns?', first[0])
    r['events_first'] = int(h1[1]) if h1 else -1
    r['length_s'] = secs(head[1]) if head else -1
    r['per_hour'] = int(head[3]) if head and head[3] else -1
    r['per_hour_want'] = round(r['events'] * 3600 / r['length_s']) if r['length_s'] > 0 else -1
    r['session_s'] = session_s
    body = '\n'.join(last[1:])
    lo = re.search(r'longest: ([\d.]+) ms, xrun \d+ at (\d\d):(\d\d):(\d\d)', body)
    r['longest_ms'] = float(lo[1]) if lo else -1
    r['stall_max_ms'] = round(max((b - a) * 1000 for a, b in stalls), 1) if stalls else -1
    walls = [datetime.datetime.fromtimestamp(a + off) for a, _ in stalls]
    near = 0
    if lo:
        for wt in walls:
            t = wt.replace(hour=int(lo[2]), minute=int(lo[3]), second=int(lo[4]), microsecond=0)
            near |= abs((wt - t).total_seconds()) <= 1.0
    r['longest_at_stall'] = int(near)
    wm = re.search(r'worst minute: (\d\d):(\d\d), (\d+) xruns?', body)
    per_min = {}
    for wt in walls:
        per_min[(wt.hour, wt.minute)] = per_min.get((wt.hour, wt.minute), 0) + 1
    r['worst_n'] = int(wm[3]) if wm else -1
    r['worst_min_stalls'] = per_min.get((int(wm[1]), int(wm[2])), 0) if wm else -1
    r['worst_stalls_max'] = max(per_min.values()) if per_min else 0
    tops = re.findall(r'^  (?:top culprits:)?\s+(\d+) % \((\d+)\) (.*)$', body, re.M)
    named = [t for t in tops if t[2] != 'not known']
    r['top_name'] = named[0][2].replace(' ', '_') if named else '-'
    r['top_pct'] = int(named[0][0]) if named else 0
    r['not_known_pct'] = sum(int(t[0]) for t in tops if t[2] == 'not known')
    r['wide'] = sum(1 for b in bl for l in b if len(l) > 80)
    verdict = json.dumps(d.get('verdict'))
    r['no_load'] = sum('no load' in l for l in lines) + ('no load' in verdict)
    r['own_session'] = int('your own session' in verdict)
    print('\n'.join(f'{k} {v}' for k, v in r.items()))

main()
