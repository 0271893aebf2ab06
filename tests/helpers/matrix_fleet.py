#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""A fleet's store made from real reports, and `compare --store DIR --matrix` checked against Python's own reading
of that store (tests/integration/compare_matrix.sh).

    matrix_fleet.py build STORE REPORT.json...   write the fleet store (see FLEET below)
    matrix_fleet.py text STORE OUT.txt WIDTH     the text table
    matrix_fleet.py json STORE OUT.json          the rtjitter.matrix/1 document
    matrix_fleet.py html STORE OUT.html          the HTML page's table
    matrix_fleet.py png STORE SHOT.png           Chromium's screenshot of that page shows the verdicts' colours

The reports are real short runs of this machine (`--backend timer`); only their system identity (host name, CPU
model, kernel release) and their start are rewritten here, so that they stand for other machines and kernels.
Their measurements are left as they were. Prints TAP lines ("ok - ...", "not ok - ..."); exits 1 on a failure.
Nothing here uses rtjitter's code: the latest report of each (kernel, machine) pair is found from the store's file
names, and the headline figures (worst phase's wake-up p99, xrun events of the run, worst phase's deadlines met,
verdict) are read from each report here."""
import glob
import html.parser
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from png import png_pixels  # noqa: E402

FAILED = 0

# Machines: a plain one, one whose names are longer than a text column, one with markup in its host name.
MACHINES = [('studio-a', 'AMD EPYC'),
            ('rack-07.lab.example.org-very-long-hostname', 'Intel(R) Xeon(R) CPU E5-2680 v4 @ 2.40GHz'),
            ('lab<b>&"x\'', 'ARM Cortex-A72')]
KERNELS = ['6.1.0-18-amd64', '6.1.0-18-rt-amd64', '6.12.9-lowlatency-with-a-long-release']
# (kernel index, machine index, which real report): in this order, one second apart, so the file names (the
# store's order) say which is the latest. (0, 0) comes twice: the later one is its cell, counted as 2 runs.
# (1, 1), (0, 2) and (2, 0) have none: an empty cell each.
FLEET = [(0, 0, 0), (1, 0, 2), (0, 1, 0), (2, 1, 1), (1, 2, 2), (2, 2, 0), (0, 0, 1)]


def tap(ok, desc):
    global FAILED
    print(('ok - ' if ok else 'not ok - ') + desc)
    FAILED += not ok


def build(store, reports):
    docs = [json.load(open(r)) for r in reports]
    for i, (k, m, r) in enumerate(FLEET):
        d = json.loads(json.dumps(docs[r % len(docs)]))
        d['system']['hostname'], d['system']['cpu']['model'] = MACHINES[m]
        d['system']['kernel']['release'] = KERNELS[k]
        d['started'] = '2026-03-01T10:00:%02dZ' % i
        os.makedirs(os.path.join(store, KERNELS[k]), exist_ok=True)
        with open(os.path.join(store, KERNELS[k], '20260301T1000%02dZ.json' % i), 'w') as f:
            json.dump(d, f)
    # Not a report: named on stderr and left out, the rest shown.
    with open(os.path.join(store, KERNELS[0], '20260301T095959Z.json'), 'w') as f:
        f.write('{"schema": "rtjitter.report/1", "phases": [')


def expected(store):
    """kernels (first seen), machines [(host, cpu)] (first seen), cells {(kernel, machine index): cell}."""
    files = []
    for path in glob.glob(os.path.join(store, '*', '*.json')):
        try:
            d = json.load(open(path))
        except ValueError:
            continue
        files.append((os.path.basename(path), path, d))
    files.sort()
    kernels, machines, cells = [], [], {}
    for _, path, d in files:
        s = d['system']
        rel, mach = s['kernel']['release'], (s['hostname'], s['cpu']['model'])
        if rel not in kernels:
            kernels.append(rel)
        if mach not in machines:
            machines.append(mach)
        key = (rel, machines.index(mach))
        ph = d['phases']
        xr = 0
        for p in ph:
            x = p['xruns']
            xr += x['events'] if 'events' in x else max(x.get('reported', 0), x.get('detected', 0))
        old = cells.get(key, {'runs': 0, 'loads': {}, 'safe': None})
        loads = {k: list(v) for k, v in old['loads'].items()}
        for p in ph:
            x = p['xruns']
            x = x['events'] if 'events' in x else max(x.get('reported', 0), x.get('detected', 0))
            sec = p.get('measured_s') or p.get('duration_s')
            if sec:
                e = loads.setdefault(p['load'], [0, 0])
                e[0] += x
                e[1] += sec
        def missed(p):
            return p['deadlines_missed'] > 0 if p.get('deadlines_missed') is not None else not p['deadlines_met_pct'] >= 100
        safe_now = d['complete'] and ph and all(
            (p['xruns']['events'] if 'events' in p['xruns'] else 1) == 0 and not missed(p) for p in ph)
        safe = old['safe']
        if safe_now and (safe is None or d['audio']['period_frames'] < safe):
            safe = d['audio']['period_frames']
        cells[key] = {'report': path, 'runs': old['runs'] + 1,
                      'p99': max(p['wakeup_us']['p99'] for p in ph), 'xruns': xr,
                      'met': min(p['deadlines_met_pct'] for p in ph), 'verdict': d['verdict']['level'],
                      'max': max(p['wakeup_us']['max'] for p in ph), 'loads': loads, 'safe': safe}
    return kernels, machines, cells


def fit(s, w, ascii_only):
    ell = '...' if ascii_only else '\u2026'
    return s if len(s) <= w else s[:w - len(ell)] + ell


def cell_text(c):
    if c is None:
        return '-'
    met = ('%.2f' if 99.95 <= c['met'] < 100 else '%.1f') % c['met']
    return '%5.5s %3.0f %5.5s %-4.4s' % ('%.0f' % c['p99'], c['xruns'], met, c['verdict'])


def check_text(store, out, width):
    kernels, machines, cells = expected(store)
    lines = open(out, encoding='utf-8').read().split('\n')
    ascii_only = all(ord(ch) < 128 for ch in ''.join(lines))
    long_lines = [len(ln) for ln in lines if len(ln) > width]
    tap(not long_lines, 'text: no line over %d columns (longest %d)' % (width, max(len(ln) for ln in lines)))
    tap(lines[0].startswith('Kernels x machines: %d kernels on %d machines' % (len(kernels), len(machines))),
        'text: the title counts %d kernels and %d machines: %r' % (len(kernels), len(machines), lines[0][:60]))
    # Blocks: a blank line, then "kernel" + host names, the CPU models, one row per kernel.
    blocks, i = [], 0
    while i < len(lines):
        if lines[i].startswith('kernel'):
            blocks.append(lines[i:i + 2 + len(kernels)])
            i += 2 + len(kernels)
        else:
            i += 1
    per = max(1, (width - 18) // 21)
    want_blocks = (len(machines) + per - 1) // per
    tap(len(blocks) == want_blocks, 'text: %d machines in blocks of %d at %d columns: %d blocks (got %d)'
        % (len(machines), per, width, want_blocks, len(blocks)))
    bad, seen = [], 0
    col = lambda ln, j: ln[18 + 21 * j:18 + 21 * j + 20].rstrip()
    for b, blk in enumerate(blocks):
        ms = list(range(b * per, min(len(machines), (b + 1) * per)))
        for j, m in enumerate(ms):
            host, cpu = machines[m]
            if col(blk[0], j) != fit(host, 20, ascii_only).rstrip():
                bad.append('host %r: %r' % (host, col(blk[0], j)))
            if col(blk[1], j) != fit(cpu, 20, ascii_only).rstrip():
                bad.append('cpu %r: %r' % (cpu, col(blk[1], j)))
        for r, rel in enumerate(kernels):
            row = blk[2 + r]
            if row[:17].rstrip() != fit(rel, 17, ascii_only).rstrip():
                bad.append('kernel %r: %r' % (rel, row[:17]))
            for j, m in enumerate(ms):
                want = cell_text(cells.get((rel, m)))
                seen += 1
                if col(row, j) != want.rstrip():
                    bad.append('%s on %s: %r, expected %r' % (rel, machines[m][0], col(row, j), want))
    tap(not bad and seen == len(kernels) * len(machines),
        'text: every kernel x machine cell (%d) as Python reads the latest report of the pair%s'
        % (seen, ': ' + '; '.join(bad[:4]) if bad else ''))


def check_json(store, out):
    kernels, machines, cells = expected(store)
    m = json.load(open(out))
    tap(m.get('schema') == 'rtjitter.matrix/1', 'json: schema rtjitter.matrix/1 (got %r)' % m.get('schema'))
    tap(m['kernels'] == kernels, 'json: the kernels, in the store\'s order: %s' % m['kernels'])
    got_m = [(x['hostname'], x['cpu']) for x in m['machines']]
    tap(got_m == machines, 'json: the machines (host name and CPU model), hostile names kept as they are: %d'
        % len(got_m))
    bad = []
    got = {(c['kernel'], c['machine']): c for c in m['cells']}
    if set(got) != set(cells):
        bad.append('pairs %s, expected %s' % (sorted(got), sorted(cells)))
    for key, want in cells.items():
        c = got.get(key)
        if not c:
            continue
        if os.path.realpath(c['report']) != os.path.realpath(want['report']):
            bad.append('%s: report %s, expected %s' % (key, c['report'], want['report']))
        for k, mk in (('p99', 'worst_wakeup_p99_us'), ('xruns', 'xrun_events'), ('met', 'deadlines_met_pct')):
            if c[mk] is None or abs(c[mk] - want[k]) > 1e-9 * max(1, abs(want[k])):
                bad.append('%s: %s %r, expected %r' % (key, mk, c[mk], want[k]))
        if abs(c['worst_wakeup_max_us'] - want['max']) > 1e-9 * max(1, want['max']):
            bad.append('%s: worst_wakeup_max_us %r, expected %r' % (key, c['worst_wakeup_max_us'], want['max']))
        if c['smallest_safe_period_frames'] != want['safe']:
            bad.append('%s: smallest_safe_period_frames %r, expected %r' % (key, c['smallest_safe_period_frames'],
                                                                           want['safe']))
        for load, (ev, sec) in want['loads'].items():
            g = c['loads'].get(load, {})
            if abs(g.get('xrun_events', -1) - ev) > 1e-9 or abs(g.get('measured_s', -1) - sec) > 1e-6 or \
                    abs(g.get('per_hour', -1) - ev * 3600 / sec) > 1e-6 * max(1, ev * 3600 / sec):
                bad.append('%s: load %s %r, expected %r events in %r s' % (key, load, g, ev, sec))
        if set(c['loads']) != set(want['loads']):
            bad.append('%s: loads %s, expected %s' % (key, sorted(c['loads']), sorted(want['loads'])))
        if c['runs'] != want['runs'] or c['verdict'] != want['verdict']:
            bad.append('%s: runs %r verdict %r, expected %r %r' % (key, c['runs'], c['verdict'], want['runs'],
                                                                  want['verdict']))
    twice = [k for k, v in cells.items() if v['runs'] > 1]
    tap(not bad, 'json: %d cells, each the latest report of its pair (%s: %d runs, the later shown), its worst '
        'wake-up p99, xrun events, worst deadlines met and verdict; over all its runs the smallest safe buffer and each '
        'load\'s dropouts per hour%s' % (len(cells), twice, len(twice) and
                                                                         cells[twice[0]]['runs'],
                                                                         ': ' + '; '.join(bad[:4]) if bad else ''))


class Table(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.rows, self.cell, self.tags = [], None, []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        if tag == 'tr':
            self.rows.append([])
        elif tag in ('td', 'th'):
            self.cell = {'tag': tag, 'text': '', 'attrs': dict(attrs)}
            self.rows[-1].append(self.cell)
        elif tag == 'br' and self.cell is not None:
            self.cell['text'] += '\n'

    def handle_endtag(self, tag):
        if tag in ('td', 'th'):
            self.cell = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell['text'] += data


def check_html(store, out):
    kernels, machines, cells = expected(store)
    t = Table()
    t.feed(open(out, encoding='utf-8').read())
    tap(not any(tag == 'b' for tag in t.tags) and 'script' not in t.tags,
        'html: the host name with markup in it made no element (tags: %s)' % sorted(set(t.tags)))
    head = [c['text'] for c in t.rows[0][1:]] if t.rows else []
    tap(head == ['%s\n%s' % m for m in machines], 'html: a column per machine, host name over CPU model: %r'
        % [h.split('\n')[0] for h in head])
    tap([r[0]['text'] for r in t.rows[1:]] == kernels, 'html: a row per kernel: %s' % [r[0]['text'] for r in t.rows[1:]])
    bad = []
    for r, rel in enumerate(kernels):
        row = t.rows[1 + r] if 1 + r < len(t.rows) else []
        for m in range(len(machines)):
            c = cells.get((rel, m))
            got = row[1 + m] if 1 + m < len(row) else None
            if got is None:
                bad.append('%s/%d missing' % (rel, m))
                continue
            if c is None:
                if got['text'] != '-':
                    bad.append('%s/%d: %r, expected -' % (rel, m, got['text']))
                continue
            want = '%.1f \u00b5s\n%.0f xruns\n%.2f %%\n%s' % (c['p99'], c['xruns'], c['met'], c['verdict'])
            want += '\nmax %.0f \u00b5s\n%s' % (c['max'], 'safe at %d frames' % c['safe'] if c['safe'] is not None
                                                else 'no safe buffer')
            if c['loads']:
                # the load with the most dropouts per hour (the first of equals, in the report's order)
                wl = max(c['loads'].items(), key=lambda kv: kv[1][0] * 3600 / kv[1][1])
                worst = max(v[0] * 3600 / v[1] for v in c['loads'].values())
                wl = [k for k, v in c['loads'].items() if v[0] * 3600 / v[1] == worst][0]
                want += '\n%.0f/h under %s' % (worst, wl)
            cls = {'pass': 'pass', 'fail': 'bad'}.get(c['verdict'], 'warnc')
            if got['text'] != want or got['attrs'].get('class') != cls or \
                    os.path.realpath(got['attrs'].get('title', '')) != os.path.realpath(c['report']):
                bad.append('%s/%d: %r class %r title %r, expected %r class %r' % (
                    rel, m, got['text'], got['attrs'].get('class'), got['attrs'].get('title'), want, cls))
    tap(not bad, 'html: every cell (figures, the verdict\'s colour class, the report as its title) as Python reads '
        'the store%s' % (': ' + '; '.join(bad[:3]) if bad else ''))


def check_png(store, shot):
    """Each verdict's cells show its background (src/render/html.c: .pass #eef8ee, td.bad #f9d0d0, td.warnc
    #ffefbf), over about a cell's area for each such cell, and the page is not blank."""
    _, _, cells = expected(store)
    w, rows = png_pixels(shot)
    ink = sum(px != (255, 255, 255) for row in rows for px in row)
    tap(w > 0 and ink > 2000, 'png: Chromium drew the page (%d px wide, %d non-white pixels)' % (w, ink))
    colours = {'pass': (0xee, 0xf8, 0xee), 'fail': (0xf9, 0xd0, 0xd0), 'warn': (0xff, 0xef, 0xbf)}
    for verdict, rgb in colours.items():
        n = sum(c['verdict'] == verdict for c in cells.values())
        if n == 0:
            continue
        got = sum(px == rgb for row in rows for px in row)
        tap(got > 1500 * n, 'png: the %d %s cell(s) show their colour #%02x%02x%02x (%d pixels, more than 1500 a cell)'
            % (n, verdict, *rgb, got))


def main():
    mode, store = sys.argv[1], sys.argv[2]
    if mode == 'build':
        build(store, sys.argv[3:])
        return 0
    {'text': lambda: check_text(store, sys.argv[3], int(sys.argv[4])),
     'json': lambda: check_json(store, sys.argv[3]),
     'html': lambda: check_html(store, sys.argv[3]),
     'png': lambda: check_png(store, sys.argv[3])}[mode]()
    return 1 if FAILED else 0


if __name__ == '__main__':
    sys.exit(main())
