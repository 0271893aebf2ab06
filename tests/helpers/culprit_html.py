#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The culprits of a report on its HTML page, and in compare's text, JSON and HTML, checked against the fixture
reports they were made from (tests/integration/culprit_html.sh; tests/fixtures/culprits, written by hand to the
REPORT SCHEMA of src/culprit/culprit.h). The page is read with html.parser and its SVGs with ElementTree; nothing
here uses the renderer's own arithmetic: positions come from each plot's stated axes (html_content.py's Plot),
came and went are computed here from the two fixtures' top_culprits.

    culprit_html.py report PAGE.html REPORT.json
    culprit_html.py compare-json CMP.json A.json B.json
    culprit_html.py compare-text CMP.txt A.json B.json
    culprit_html.py compare-html CMP.html A.json B.json
    culprit_html.py shot PAGE.png COLOUR...        (hex colours that must be drawn, e.g. 1f4e9c)

Prints TAP lines; exits 1 when one failed."""
import html.parser
import json
import os
import re
import sys
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from html_content import NS, Plot, svgs_of, title_of  # noqa: E402

FAILED = 0
SHOWN_SPIKES = 20  # HTML_SPIKES_SHOWN of src/render/html_culprits.h


def tap(ok, desc):
    global FAILED
    print(('ok - ' if ok else 'not ok - ') + desc)
    FAILED += not ok


class Tables(html.parser.HTMLParser):
    """Every <table> of the page as (its class, [(row class, [cell text])], [(row, cell) -> the cell's inner
    classes]); a cell's text is its visible text with spaces collapsed. Also each <p>'s text with its class."""

    def __init__(self):
        super().__init__()
        self.tables, self.paras = [], []
        self.stack = []      # tables being read
        self.cell = None     # [text parts, classes inside]
        self.para = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == 'table':
            self.stack.append({'class': a.get('class', ''), 'rows': [], 'attrs': a})
        elif tag == 'tr' and self.stack:
            self.stack[-1]['rows'].append({'class': a.get('class', ''), 'cells': []})
        elif tag in ('td', 'th') and self.stack:
            self.cell = {'text': [], 'classes': [], 'summary': [], 'in_summary': False, 'tag': tag, 'b': [],
                         'in_b': False}
        elif tag == 'p':
            self.para = {'class': a.get('class', ''), 'text': []}
        if self.cell is not None and 'class' in a and tag == 'span':
            self.cell['classes'].append(a['class'])
        if self.cell is not None and tag == 'summary':
            self.cell['in_summary'] = True
        if self.cell is not None and tag == 'b':
            self.cell['in_b'] = True
            self.cell['b'].append('')

    def handle_endtag(self, tag):
        if tag in ('td', 'th') and self.cell is not None and self.stack:
            c = self.cell
            c['text'] = re.sub(r'\s+', ' ', ''.join(c['text'])).strip()
            c['summary'] = ''.join(c['summary']).strip()
            self.stack[-1]['rows'][-1]['cells'].append(c)
            self.cell = None
        elif tag == 'summary' and self.cell is not None:
            self.cell['in_summary'] = False
        elif tag == 'b' and self.cell is not None:
            self.cell['in_b'] = False
        elif tag == 'table' and self.stack:
            self.tables.append(self.stack.pop())
        elif tag == 'p' and self.para is not None:
            self.para['text'] = re.sub(r'\s+', ' ', ''.join(self.para['text'])).strip()
            self.paras.append(self.para)
            self.para = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell['text'].append(data)
            if self.cell['in_summary']:
                self.cell['summary'].append(data)
            if self.cell['in_b']:
                self.cell['b'][-1] += data
        if self.para is not None:
            self.para['text'].append(data)


def parse(page):
    t = Tables()
    t.feed(open(page, encoding='utf-8').read())
    return t


def tables_of(t, cls):
    return [x for x in t.tables if cls in x['class'].split()]


def basis_of(cell):
    b = [c for c in cell['classes'] if c.startswith('basis ')]
    return b[0].split()[1] if b else None


def check_rows(name, rows, hs, t0):
    """The rows of an event or spike table against the fixture's events or spikes."""
    bad = []
    for i, (r, h) in enumerate(zip(rows, hs)):
        c = [x['text'] for x in r['cells']]
        want_when = h['wall'][11:23]
        top = h['culprits'][0] if h.get('culprits') else None
        if c[0] != str(i + 1) or c[1] != want_when or c[2] != '%.2f s' % (h['t_s'] - t0):
            bad.append('row %d: %r, wants %d %s %.2f s' % (i + 1, c[:3], i + 1, want_when, h['t_s'] - t0))
            continue
        if name == 'event':
            want_len = '%.1f ms' % h['length_ms'] if h['length_ms'] >= 0.05 else '< 0.1 ms'
            if c[3] != want_len or not c[4].startswith(str(h['cycles'])):
                bad.append('row %d: length/cycles %r' % (i + 1, c[3:5]))
            k = 5
        else:
            if c[3] != '%.0f µs' % h['wakeup_us'] or c[5] != str(h['cpu']):
                bad.append('row %d: wake-up/cpu %r' % (i + 1, c[3:6]))
            k = 6
        if top is None:
            if 'not explained' not in c[k] and h.get('explained') is False:
                bad.append('row %d: an event not explained reads %r' % (i + 1, c[k]))
            continue
        cell = r['cells'][k]
        if cell['b'][:1] != [top['name']] or basis_of(cell) != top['basis']:
            bad.append('row %d: top culprit %r (%s), wants %s (%s)' % (i + 1, cell['text'], basis_of(cell),
                                                                     top['name'], top['basis']))
        if c[k + 1] != top['evidence']:
            bad.append('row %d: evidence %r' % (i + 1, c[k + 1]))
        more = len(h['culprits']) - 1
        det = r['cells'][k + 2]
        names_ok = det['b'] == [x['name'] for x in h['culprits'][1:]] and all(
            x['evidence'] in det['text'] for x in h['culprits'][1:])
        if (det['summary'] != ('%d more' % more if more else '')) or not names_ok:
            bad.append('row %d: more culprits %r, wants %d (%s)' % (i + 1, det['summary'], more,
                                                                   [x['name'] for x in h['culprits'][1:]]))
        # the basis of each folded culprit is drawn as its own badge
        if [b.split()[1] for b in det['classes'] if b.startswith('basis ')] != [x['basis'] for x in
                                                                               h['culprits'][1:]]:
            bad.append('row %d: the folded culprits\' badges %r' % (i + 1, det['classes']))
    return bad


def report(page, doc):
    d = json.load(open(doc))
    t = parse(page)
    ev_tables, sp_tables = tables_of(t, 'events'), tables_of(t, 'spikes')
    phases_ev = [p for p in d['phases'] if p['events']]
    phases_sp = [p for p in d['phases'] if isinstance(p.get('spikes'), list) and (p['spikes'] or p['spikes_unlisted'])]
    tap(len(ev_tables) == len(phases_ev) and len(sp_tables) == len(phases_sp),
        'an event table per load with events (%d, wants %d) and a spike table per load with spikes (%d, wants %d)' % (
            len(ev_tables), len(phases_ev), len(sp_tables), len(phases_sp)))
    for tb, p in zip(ev_tables, phases_ev):
        rows = [r for r in tb['rows'] if r['class'] == 'event']
        t0 = p['clock_window_s'][0]
        tap(len(rows) == len(p['events']), '%s: %d event rows for the %d events' % (p['load'], len(rows),
                                                                                   len(p['events'])))
        bad = check_rows('event', rows, p['events'], t0)
        tap(not bad, '%s: each event row is its event: when (UTC ms, s into the load), length, cycles, top culprit '
            'with its basis badge, evidence, the others folded %s' % (p['load'], bad[:3]))
    for tb, p in zip(sp_tables, phases_sp):
        rows = [r for r in tb['rows'] if r['class'] == 'spike']
        n = len(p['spikes'])
        tap(len(rows) == min(n, SHOWN_SPIKES), '%s: %d spike rows: the first %d of %d listed' % (
            p['load'], len(rows), SHOWN_SPIKES, n))
        bad = check_rows('spike', rows, p['spikes'], p['clock_window_s'][0])
        tap(not bad, '%s: each spike row is its spike %s' % (p['load'], bad[:3]))
        more = max(0, n - SHOWN_SPIKES) + p['spikes_unlisted']
        said = [x['text'] for x in t.paras if x['class'] == 'more' and 'spike' in x['text']]
        if more:
            tap(any(s.startswith('and %d more spike' % more) for s in said),
                '%s: "and %d more" under the spike table (%d listed beyond the table, %d unlisted) %s' % (
                    p['load'], more, max(0, n - SHOWN_SPIKES), p['spikes_unlisted'], said))
    # the Culprits summary: per load its top_culprits, in order
    tops = tables_of(t, 'top')
    withtop = [p for p in d['phases'] if p.get('top_culprits')]
    tap(len(tops) == len(withtop), 'a Culprits table per load with top culprits (%d)' % len(tops))
    for tb, p in zip(tops, withtop):
        rows = [r for r in tb['rows'] if r['class'] == 'top']
        got = [(''.join(r['cells'][0]['b']), basis_of(r['cells'][0]), r['cells'][1]['text'],
                r['cells'][2]['text'], r['cells'][3]['text']) for r in rows]
        want = [(c['name'], c['basis'], str(c['events']), str(c['spikes']), c['evidence']) for c in p['top_culprits']]
        tap(got == want, '%s: the Culprits table is its top_culprits (name, basis, events, spikes, evidence) in '
            'order %s' % (p['load'], [g for g, w in zip(got, want) if g != w][:2]))
    cu = d.get('culprits') or {}
    for per in cu.get('periodicity', []):
        line = 'every %.1f s (%d times' % (per['period_s'], per['count'])
        tap(any(line in x['text'] and per['what'] in x['text'] for x in t.paras if x['class'] == 'periodic'),
            'the periodicity line: %s ... %s' % (line, per['what']))
    s = cu.get('sampler', {})
    note = [x['text'] for x in t.paras if 'sampler' in x['class'].split()]
    want = ['%d Hz (%d ms windows' % (s.get('hz', 0), s.get('window_ms', 0)), '%d s of history' % s.get('history_s', 0),
            '%.2f s of CPU time (%.2f %%' % (cu['cost']['cpu_s'], cu['cost']['cpu_pct'])]
    want += ['%s (%s' % (x['name'], x['state']) for x in s.get('sources', [])]
    tap(len(note) == 1 and all(w in note[0] for w in want), 'the sampler in small print: %s' % want)
    markers(page, d)


def markers(page, d):
    """On each load's timeline: a diamond per listed event, a circle per listed spike (at its wake-up), where the
    plot's own axes put its time into the phase, each titled with its top culprit."""
    _, svgs = svgs_of(page)
    tls = [s for s in svgs if 'Second by second' in title_of(s)]
    for svg, p in zip(tls, d['phases']):
        plot = Plot(svg)
        t0 = p['clock_window_s'][0]
        ev = [g for g in svg.iter(NS + 'g') if g.get('class') == 'cmark event']
        sp = [g for g in svg.iter(NS + 'g') if g.get('class') == 'cmark spike']
        want_ev, want_sp = p.get('events', []), p.get('spikes', [])
        tap(len(ev) + len(sp) == len(want_ev) + len(want_sp) and len(ev) == len(want_ev),
            '%s: %d diamonds + %d circles = its %d events + %d listed spikes' % (
                p['load'], len(ev), len(sp), len(want_ev), len(want_sp)))
        bad = []
        for g, h in zip(ev, want_ev):
            path = g.find(NS + 'path').get('d')
            x = float(re.match(r'M([0-9.]+) ', path).group(1))
            if abs(x - plot.x_of(h['t_s'] - t0)) > 0.6:
                bad.append('event at %.2f s drawn at x %.1f, the axis says %.1f' % (h['t_s'] - t0, x,
                                                                                  plot.x_of(h['t_s'] - t0)))
            top = h['culprits'][0]['name'] if h.get('culprits') else 'not explained'
            if top not in g.find(NS + 'title').text:
                bad.append('event tooltip %r lacks %r' % (g.find(NS + 'title').text, top))
        for g, h in zip(sp, want_sp):
            c = g.find(NS + 'circle')
            x, y = float(c.get('cx')), float(c.get('cy'))
            wx, wy = plot.x_of(h['t_s'] - t0), plot.y_of(h['wakeup_us'])
            if abs(x - wx) > 0.6 or abs(y - wy) > 0.6:
                bad.append('spike at %.2f s, %.0f µs drawn at (%.1f, %.1f), the axes say (%.1f, %.1f)' % (
                    h['t_s'] - t0, h['wakeup_us'], x, y, wx, wy))
            top = h['culprits'][0]['name'] if h.get('culprits') else 'not explained'
            if top not in g.find(NS + 'title').text:
                bad.append('spike tooltip %r lacks %r' % (g.find(NS + 'title').text, top))
        tap(not bad, '%s: each marker at its time (and a spike at its wake-up) on the plot\'s axes, titled with its '
            'top culprit %s' % (p['load'], bad[:3]))


def changes(a, b):
    """Per load, from the fixtures themselves: came (in b not a), went (in a not b), stayed (both, before/after)."""
    da, db = json.load(open(a)), json.load(open(b))
    out = {}
    for pa in da['phases']:
        pb = [p for p in db['phases'] if p['load'] == pa['load']]
        if not pb:
            continue
        ta = {(c['kind'], c['name']): c for c in pa.get('top_culprits', [])}
        tb = {(c['kind'], c['name']): c for c in pb[0].get('top_culprits', [])}
        if not ta and not tb:
            continue
        out[pa['load']] = {
            'came': [(k, tb[k]['events'], tb[k]['spikes']) for k in tb if k not in ta],
            'went': [(k, ta[k]['events'], ta[k]['spikes']) for k in ta if k not in tb],
            'stayed': [(k, (ta[k]['events'], tb[k]['events']), (ta[k]['spikes'], tb[k]['spikes'])) for k in ta
                       if k in tb]}
    return out


def compare_json(cmp, a, b):
    c = json.load(open(cmp))
    want = changes(a, b)
    got = {}
    for lo in c['loads']:
        for e in lo.get('culprits', []):
            got[lo['load']] = {
                'came': [((x['kind'], x['name']), x['events'], x['spikes']) for x in e['came']],
                'went': [((x['kind'], x['name']), x['events'], x['spikes']) for x in e['went']],
                'stayed': [((x['kind'], x['name']), tuple(x['events']), tuple(x['spikes'])) for x in e['stayed']]}
            tap(e['report'] == 1 and e['sought'] == [True, True], '%s: the entry is report 1\'s, both looked' % lo['load'])
    tap(got == want, 'compare JSON: loads[].culprits came/went/stayed as the fixtures say %s' % (
        {k: v for k, v in got.items() if want.get(k) != v}))
    print('# ' + json.dumps({k: {x: [y[0][1] for y in v[x]] for x in v} for k, v in want.items()}))


def words(k, ev, sp):
    kinds = {'rt_task': 'real-time task', 'client': 'client of the graph', 'irq': 'interrupt', 'softirq': 'softirq',
             'run_delay': 'run delay', 'none': 'not known'}
    kind, name = k
    w = kinds.get(kind, kind)
    head = name if kind == 'none' or name.lower() == w.lower() else '%s (%s)' % (name, w)
    if isinstance(ev, tuple):
        return '%s: events %d → %d, spikes %d → %d' % (head, ev[0], ev[1], sp[0], sp[1])
    parts = (['%d event%s' % (ev, '' if ev == 1 else 's')] if ev else []) + \
            (['%d spike%s' % (sp, '' if sp == 1 else 's')] if sp else [])
    return '%s: %s' % (head, ', '.join(parts) or 'no event, no spike')


def compare_text(txt, a, b):
    text = open(txt, encoding='utf-8').read()
    lines = text.split('\n')
    # a report's path is printed whole, one word on its line, however long the test's directory makes it; the
    # measures' tables of --wide are wide by design (from a header naming [1] to the blank line after it)
    wide, in_table = [], False
    for ln in lines:
        in_table = (in_table and ln.strip() != '') or ('[1] (' in ln and '[2] (' in ln)
        if not in_table and len(ln) > 80 and len(ln.split()) != 1:
            wide.append(ln)
    tap(not wide, 'compare text: every line within 80 columns (a path alone on its line aside) %s' % wide[:2])
    want = changes(a, b)
    for load, ch in want.items():
        at = lines.index('Load: ' + load)
        end = next((i for i in range(at + 1, len(lines)) if lines[i].startswith('Load: ') or lines[i] == 'Verdict:'),
                   len(lines))
        block = lines[at:end]
        hd = [i for i, ln in enumerate(block) if ln == '  Culprits of [2] against the baseline [1]:']
        got = []
        for ln in block[hd[0] + 1:] if hd else []:
            m = re.match(r'    (came|went|stayed): +(.*)$', ln)
            if not m:
                break
            got.append((m.group(1), m.group(2)))
        exp = [(kind, words(*x)) for kind in ('came', 'went', 'stayed') for x in ch[kind]]
        tap(got == exp, 'compare text, %s: the culprits that came, went and stayed, one line each %s' % (
            load, [g for g in got if g not in exp] + [e for e in exp if e not in got]))


def compare_html(page, a, b):
    t = parse(page)
    tbs = tables_of(t, 'culprit-changes')
    want = changes(a, b)
    tap(len(tbs) == len(want), 'compare HTML: a table of culprit changes per load that has culprits (%d)' % len(tbs))
    for tb, (load, ch) in zip(tbs, want.items()):
        got = [(r['class'], ''.join(r['cells'][1]['b']), r['cells'][3]['text'], r['cells'][4]['text'])
               for r in tb['rows'] if r['class'] in ('came', 'went', 'stayed')]
        exp = [('came', k[1], '- → %d' % ev, '- → %d' % sp) for k, ev, sp in ch['came']]
        exp += [('went', k[1], '%d → -' % ev, '%d → -' % sp) for k, ev, sp in ch['went']]
        exp += [('stayed', k[1], '%d → %d' % ev, '%d → %d' % sp) for k, ev, sp in ch['stayed']]
        tap(got == exp, 'compare HTML, %s: came, went, stayed with their counts [1] → [2] %s' % (
            load, [g for g in got if g not in exp][:2]))


def shot(png, colours):
    from png import png_pixels
    w, rows = png_pixels(png)
    seen = {}
    want = {tuple(int(c[i:i + 2], 16) for i in (0, 2, 4)): c for c in colours}
    for y, row in enumerate(rows):
        for px in row:
            if px in want:
                seen[want[px]] = seen.get(want[px], 0) + 1
    tap(w == 1280 and all(seen.get(c, 0) >= 20 for c in colours),
        '%s: %d px wide; drawn in each colour (pixels: %s)' % (os.path.basename(png), w, seen))


def main():
    cmd, args = sys.argv[1], sys.argv[2:]
    try:
        {'report': report, 'compare-json': compare_json, 'compare-text': compare_text,
         'compare-html': compare_html}.get(cmd, lambda *a: shot(a[0], a[1:]))(*args)
    except Exception as e:  # a page that is not what the checks can read is a failure, said as one
        tap(False, '%s %s: the check itself failed: %r' % (cmd, ' '.join(os.path.basename(a) for a in args), e))
    sys.exit(1 if FAILED else 0)


main()
