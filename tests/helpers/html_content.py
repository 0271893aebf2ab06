#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""What the HTML pages draw, checked against the JSON they were made from (tests/integration/html_browser.sh).

    html_content.py report PAGE.html REPORT.json
    html_content.py compare PAGE.html REPORT.json...
    html_content.py sweep PAGE.html SWEEP.json

Prints TAP lines ("ok - ...", "not ok - ..."). Nothing here trusts the renderer's arithmetic: the axis of each
plot is read from its tick marks (a label such as "1 ms" is parsed and must sit where the axis says it does),
the period comes from the report, quantiles are computed here from the report's histograms, and text widths are
measured with the advance widths of DejaVu Sans (what Chromium draws sans-serif with on Debian), read from the
font file itself."""
import json
import math
import re
import struct
import sys
import xml.etree.ElementTree as ET

NS = '{http://www.w3.org/2000/svg}'
FAILED = 0


def tap(ok, desc):
    global FAILED
    print(('ok - ' if ok else 'not ok - ') + desc)
    FAILED += not ok


# ---- DejaVu Sans advance widths, from the TrueType file (cmap format 4 + hmtx) ----

class Font:
    def __init__(self, path):
        self.ok = False
        try:
            data = open(path, 'rb').read()
        except OSError:
            return
        ntab = struct.unpack('>H', data[4:6])[0]
        tabs = {}
        for i in range(ntab):
            tag, _, off, ln = struct.unpack('>4sIII', data[12 + 16 * i:28 + 16 * i])
            tabs[tag.decode('latin1')] = (off, ln)
        head = tabs['head'][0]
        self.upem = struct.unpack('>H', data[head + 18:head + 20])[0]
        hhea = tabs['hhea'][0]
        nmetrics = struct.unpack('>H', data[hhea + 34:hhea + 36])[0]
        hmtx = tabs['hmtx'][0]
        self.adv = [struct.unpack('>H', data[hmtx + 4 * i:hmtx + 4 * i + 2])[0] for i in range(nmetrics)]
        cmap = tabs['cmap'][0]
        n = struct.unpack('>H', data[cmap + 2:cmap + 4])[0]
        sub = None
        for i in range(n):
            pid, eid, off = struct.unpack('>HHI', data[cmap + 4 + 8 * i:cmap + 12 + 8 * i])
            if pid == 3 and eid == 1:
                sub = cmap + off
        if sub is None or struct.unpack('>H', data[sub:sub + 2])[0] != 4:
            return
        segx2 = struct.unpack('>H', data[sub + 6:sub + 8])[0]
        seg = segx2 // 2
        ends = struct.unpack('>%dH' % seg, data[sub + 14:sub + 14 + segx2])
        starts = struct.unpack('>%dH' % seg, data[sub + 16 + segx2:sub + 16 + 2 * segx2])
        deltas = struct.unpack('>%dh' % seg, data[sub + 16 + 2 * segx2:sub + 16 + 3 * segx2])
        ro_at = sub + 16 + 3 * segx2
        ranges = struct.unpack('>%dH' % seg, data[ro_at:ro_at + segx2])
        self.glyph = {}
        for k in range(seg):
            for c in range(starts[k], ends[k] + 1):
                if c == 0xffff:
                    continue
                if ranges[k] == 0:
                    g = (c + deltas[k]) & 0xffff
                else:
                    at = ro_at + 2 * k + ranges[k] + 2 * (c - starts[k])
                    g = struct.unpack('>H', data[at:at + 2])[0]
                    g = (g + deltas[k]) & 0xffff if g else 0
                self.glyph[c] = g
        self.ok = True

    def width(self, text, size):
        if not self.ok:
            return 0.62 * size * len(text)
        total = 0
        for ch in text:
            g = self.glyph.get(ord(ch), 0)
            total += self.adv[min(g, len(self.adv) - 1)]
        return total * size / self.upem


REGULAR = Font('/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf')
BOLD = Font('/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf')


# ---- reading the page ----

def svgs_of(page):
    html = open(page, encoding='utf-8').read()
    return html, [ET.fromstring(x) for x in re.findall(r'<svg\b.*?</svg>', html, re.S)]


def text_of(el):
    return ''.join(el.itertext())


def title_of(svg):
    t = svg.find(NS + 'title')
    return t.text if t is not None else '?'


def parse_duration(label):
    """'1 ms' -> 1000.0, '0.01 µs' -> 0.01, '2 s' -> 2e6 (µs)."""
    m = re.fullmatch(r'([0-9.]+) (µs|ms|s)', label.strip())
    if not m:
        return None
    return float(m.group(1)) * {'µs': 1, 'ms': 1e3, 's': 1e6}[m.group(2)]


class Plot:
    """The plot area of one SVG: its edges, and its axes as the ticks show them."""

    def __init__(self, svg):
        self.svg = svg
        r = svg.find(NS + 'rect[@class="plot"]')
        self.ok = r is not None
        if not self.ok:
            return
        self.l, self.t = float(r.get('x')), float(r.get('y'))
        self.r, self.b = self.l + float(r.get('width')), self.t + float(r.get('height'))
        self.xmin, self.xmax = float(r.get('data-x-min')), float(r.get('data-x-max'))
        self.ymin, self.ymax = float(r.get('data-y-min')), float(r.get('data-y-max'))
        self.xlog, self.ylog = r.get('data-x-scale') == 'log', r.get('data-y-scale') == 'log'

    def x_of(self, v):
        if self.xlog:
            f = (math.log10(v) - math.log10(self.xmin)) / (math.log10(self.xmax) - math.log10(self.xmin))
        else:
            f = (v - self.xmin) / (self.xmax - self.xmin)
        return self.l + (self.r - self.l) * f

    def y_of(self, v):
        if self.ylog:
            f = (math.log10(v) - math.log10(self.ymin)) / (math.log10(self.ymax) - math.log10(self.ymin))
        else:
            f = (v - self.ymin) / (self.ymax - self.ymin)
        return self.b - (self.b - self.t) * f


def check_ticks(plot, name, durations_x, durations_y):
    """Each tick's grid line sits where the plot's stated axis puts its value, and a duration label says that
    value: so the data-* range the period check uses is the range a reader sees."""
    bad = []
    n = 0
    for axis, durs in (('x', durations_x), ('y', durations_y)):
        for g in plot.svg.iter(NS + 'g'):
            if g.get('class') != 'tick-' + axis:
                continue
            n += 1
            v = float(g.get('data-v'))
            line = g.find(NS + 'line')
            pos = float(line.get('x1' if axis == 'x' else 'y1'))
            want = plot.x_of(v) if axis == 'x' else plot.y_of(v)
            if abs(pos - want) > 0.6:
                bad.append('%s tick %g at %.1f, axis says %.1f' % (axis, v, pos, want))
            if durs:
                said = parse_duration(text_of(g.find(NS + 'text')))
                if said is None or abs(said - v) > 1e-6 * v:
                    bad.append('%s tick %g labelled %r' % (axis, v, text_of(g.find(NS + 'text'))))
    tap(n >= 4 and not bad, '%s: %d ticks where the axis puts them, labelled with their values %s' % (name, n, bad[:3]))


def check_period(plot, name, period_us, vertical):
    lines = [e for e in plot.svg.iter(NS + 'line') if e.get('class') == 'period']
    got = [float(e.get('x1' if vertical else 'y1')) for e in lines]
    want = plot.x_of(period_us) if vertical else plot.y_of(period_us)
    ok = any(abs(g - want) <= 0.6 for g in got)
    tap(ok, '%s: the period (%.1f µs) is drawn at %s = %.1f (lines at %s)' % (
        name, period_us, 'x' if vertical else 'y', want, ['%.1f' % g for g in got]))


def check_text_inside(svg, name):
    """No text element extends past its picture: x + measured width <= width (rotated ones by their height)."""
    W, H = float(svg.get('width')), float(svg.get('height'))
    worst = []
    n = 0
    for el in svg.iter(NS + 'text'):
        s = text_of(el)
        size = float(el.get('font-size') or svg.get('font-size') or 11)
        font = BOLD if el.get('font-weight') == 'bold' else REGULAR
        w = font.width(s, size)
        x, y = float(el.get('x')), float(el.get('y'))
        anchor = el.get('text-anchor') or 'start'
        n += 1
        if el.get('transform', '').startswith('rotate(-90'):
            lo, hi = y - w / 2, y + w / 2  # written upwards, centred on y
            if lo < 0 or hi > H:
                worst.append('%r rotated spans %.0f..%.0f of %.0f' % (s, lo, hi, H))
            continue
        left = x - (w / 2 if anchor == 'middle' else w if anchor == 'end' else 0)
        if left < 0 or left + w > W + 0.5:
            worst.append('%r spans %.0f..%.0f of %.0f' % (s, left, left + w, W))
    tap(n > 0 and not worst, '%s: all %d texts inside the %.0f px picture %s' % (name, n, W, worst[:3]))



def check_labels_apart(svg, name):
    """No period label writes over another text of its picture: each label's box (its measured width; DejaVu
    Sans's ascender of 0.76 em above the baseline, its descender of 0.24 em below) meets no other text's box. Two periods a few pixels
    apart on the axis (64 and 128 frames in compare) once wrote their labels over each other."""
    boxes = []
    for el in svg.iter(NS + 'text'):
        if el.get('transform', '').startswith('rotate('):
            continue
        s = text_of(el)
        size = float(el.get('font-size') or svg.get('font-size') or 11)
        w = (BOLD if el.get('font-weight') == 'bold' else REGULAR).width(s, size)
        x, y = float(el.get('x')), float(el.get('y'))
        anchor = el.get('text-anchor') or 'start'
        left = x - (w / 2 if anchor == 'middle' else w if anchor == 'end' else 0)
        boxes.append((el.get('class') == 'period-label', s, left, left + w, y - 0.76 * size, y + 0.24 * size))
    labels = [b for b in boxes if b[0]]
    hit = ['%r over %r' % (a[1], b[1]) for a in labels for b in boxes if a is not b and
           a[2] < b[3] and b[2] < a[3] and a[4] < b[5] and b[4] < a[5]]
    tap(labels and not hit, '%s: its %d period labels write over no other text %s' % (name, len(labels), hit[:3]))


# ---- quantiles from the report's histograms, computed here ----

def folded(buckets, fold):
    out = {}
    for lo, hi, c in buckets:
        if fold and hi <= 0:
            lo, hi = -hi, -lo
        elif fold and lo < 0:
            lo, hi = 0, max(-lo, hi)
        out[(lo, hi)] = out.get((lo, hi), 0) + c
    return sorted((lo, hi, c) for (lo, hi), c in out.items())


def quantile(buckets, q):
    """The bucket holding the nearest rank ceil(q n): the quantile lies within [lo, hi] of it."""
    n = sum(c for _, _, c in buckets)
    k = max(1, math.ceil(q * n - 1e-9))
    run = 0
    for lo, hi, c in buckets:
        run += c
        if run >= k:
            return lo, hi
    return None


def period_of(doc, phase):
    fr, rate = phase.get('period_frames'), phase.get('rate')
    if fr and rate:
        return 1e6 * fr / rate
    return doc['audio']['period_us']


# ---- the pages ----

def check_ramp(svg, phase):
    """A --dsp ramp plot: each step's point where the report's level and worst margin put it on the plot's own
    axes, the y ticks labelled with their values, the first failing cycle and the 1 % point drawn where the report
    says."""
    name = 'ramp of ' + phase['load']
    r = phase['dsp_ramp']
    plot = Plot(svg)
    tap(plot.ok and not plot.xlog and not plot.ylog and plot.xmin == 0 and plot.xmax == 100,
        name + ': linear axes, x from 0 to 100 % of the period')
    check_ticks(plot, name, False, False)
    bad = []
    for g in svg.iter(NS + 'g'):
        if g.get('class') == 'tick-y':
            m = re.fullmatch(r'(-?[0-9.e+]+) µs', text_of(g.find(NS + 'text')).strip())
            if not m or m.group(1) == '-0' or \
                    abs(float(m.group(1)) - float(g.get('data-v'))) > 1e-6 * max(1, abs(float(g.get('data-v')))):
                bad.append(text_of(g.find(NS + 'text')))
    tap(not bad, name + ': each y tick says its value in µs, no "-0" %s' % bad[:3])
    pts = [(float(c.get('cx')), float(c.get('cy'))) for c in svg.iter(NS + 'circle') if c.get('class') == 'step']
    want = [(plot.x_of(st['level_pct']), plot.y_of(st['margin_min_us'])) for st in r['steps']
            if st.get('margin_min_us') is not None]
    off = [(w, g) for w, g in zip(want, pts) if abs(w[0] - g[0]) > 0.6 or abs(w[1] - g[1]) > 0.6]
    tap(len(pts) == len(want) > 0 and not off,
        '%s: %d steps drawn at (level, worst margin) of the report %s' % (name, len(pts), off[:2]))
    for key in ('first_miss_pct', 'one_pct_pct'):
        lines = [float(e.get('x1')) for e in svg.iter(NS + 'line') if e.get('class') == key]
        if r.get(key) is None:
            tap(not lines, '%s: no %s line (the report has none)' % (name, key))
        else:
            tap(len(lines) == 1 and abs(lines[0] - plot.x_of(r[key])) <= 0.6,
                '%s: %s at %.1f %% drawn at x = %.1f' % (name, key, r[key], plot.x_of(r[key])))
    check_text_inside(svg, name)


def dur_text(us):
    """a duration as the page writes it (render/html_noise.c's dur)"""
    if us >= 1e6:
        return '%.2f s' % (us / 1e6)
    if us >= 1e3:
        return '%.2f ms' % (us / 1e3)
    return '%.1f µs' % us


def table_rows(html, cls):
    m = re.search(r'<table class="%s">(.*?)</table>' % cls, html, re.S)
    if not m:
        return None
    return [[re.sub(r'<[^>]*>', '', c) for c in re.findall(r'<td[^>]*>(.*?)</td>', r, re.S)]
            for r in re.findall(r'<tr>(.*?)</tr>', m.group(1), re.S) if '<td' in r]


def check_noise(html, svgs, doc):
    """The noise probe's section against the report's phases[].noise: a row per CPU with its figures, a row per class
    that had a gap, a bar per histogram bucket labelled with its count. A report without the probe has none of it."""
    nz = [p for p in doc['phases'] if isinstance(p.get('noise'), dict)]
    if not nz:
        tap('<table class="noise">' not in html and 'noisehist' not in html, 'report page: no noise section without the probe')
        return
    rows = table_rows(html, 'noise') or []
    want = [[p['load'], '%d' % c['cpu'], '%.1f s' % c['probed_s'], dur_text(c['total_noise_us']),
             '%.2f %%' % c['available_pct'], dur_text(c['max_noise_us']), '%d' % c['gaps']]
            for p in nz for c in p['noise']['cpus']]
    tap(rows == want, 'noise: a row per CPU, its figures as the report says (%s; report %s)' % (rows, want))
    crow = table_rows(html, 'noiseclass') or []
    cwant = []
    for p in nz:
        for c in p['noise']['cpus']:
            for k, x in c['classes'].items():
                if x['count'] > 0:
                    share = '%.1f %%' % (100 * x['total_us'] / c['total_noise_us']) if c['total_noise_us'] > 0 else '-'
                    cwant.append([p['load'], '%d' % c['cpu'], k, '%d' % x['count'], dur_text(x['total_us']), share,
                                  dur_text(x['max_us'])])
    tap(sorted(crow) == sorted(cwant), 'noise: a row per class with a gap (%d rows; report %d)' % (len(crow), len(cwant)))
    hs = [s for s in svgs if 'noisehist' in (s.get('class') or '')]
    counts = [[t for t in (text_of(x) for x in s.iter(NS + 'text')) if re.fullmatch(r'\d+', t or '')] for s in hs]
    hwant = [['%d' % b[2] for b in c['histogram']] for p in nz for c in p['noise']['cpus']
             if any(b[2] > 0 for b in c['histogram'])]
    tap(counts == hwant, 'noise: a bar per histogram bucket, labelled with its count (%s)' % counts)


def report_page(page, doc):
    html, svgs = svgs_of(page)
    ramps = [p for p in doc['phases'] if isinstance(p.get('dsp_ramp'), dict)]
    nhist = sum(1 for p in doc['phases'] if isinstance(p.get('noise'), dict)
                for c in p['noise'].get('cpus', []) if any(b[2] > 0 for b in c.get('histogram', [])))
    tap(all(ET.tostring(s) for s in svgs) and len(svgs) == 2 * len(doc['phases']) + len(ramps) + nhist,
        'report page: %d SVGs for %d phases (a histogram and a timeline each, %d ramp plots, %d noise histograms)' % (
            len(svgs), len(doc['phases']), len(ramps), nhist))
    check_noise(html, svgs, doc)
    rps = [s for s in svgs if 'DSP headroom' in title_of(s)]
    tap(len(rps) == len(ramps), 'report page: a ramp plot per ramp phase (%d)' % len(rps))
    for svg, phase in zip(rps, ramps):
        check_ramp(svg, phase)
    hists = [s for s in svgs if 'How late each cycle was' in title_of(s)]
    tls = [s for s in svgs if 'Second by second' in title_of(s)]
    ranges = set()
    for svg, phase in zip(hists, doc['phases']):
        name = 'histogram of ' + phase['load']
        plot = Plot(svg)
        tap(plot.ok and plot.xlog and plot.ylog, name + ': log x and log count axes')
        check_ticks(plot, name, True, False)
        check_period(plot, name, period_of(doc, phase), True)
        check_text_inside(svg, name)
        ranges.add((plot.xmin, plot.xmax, plot.ymin, plot.ymax))
        # every value of the page is on the axis; values under 1 µs get their own part of it
        allb = [b for p in doc['phases'] for m in ('wakeup', 'jitter')
                for b in folded(p['histograms'].get(m, []), m == 'jitter')]
        top = max(hi for lo, hi, c in allb)
        small = min((lo + hi) / 2 for lo, hi, c in allb if (lo + hi) / 2 > 0)
        tap(plot.xmax >= top and plot.xmin <= max(small, 0.01) and plot.xmax >= period_of(doc, phase),
            '%s: the axis %g..%g µs holds every value of the page (%g..%g µs) and the period' % (
                name, plot.xmin, plot.xmax, small, top))
        if small < 1:
            tap(plot.xmin < 1, name + ': values under 1 µs (from %g µs) are on the axis, not piled at 1 µs' % small)
    tap(len(ranges) == 1, 'report page: one latency axis for every histogram %s' % sorted(ranges))
    ranges = set()
    for svg, phase in zip(tls, doc['phases']):
        name = 'timeline of ' + phase['load']
        plot = Plot(svg)
        tap(plot.ok and plot.ylog and not plot.xlog, name + ': logarithmic µs axis, linear seconds')
        check_ticks(plot, name, False, True)
        check_period(plot, name, period_of(doc, phase), False)
        check_text_inside(svg, name)
        ranges.add((plot.xmin, plot.xmax, plot.ymin, plot.ymax))
        tl = phase['timeline']
        peak = max(e['jitter_abs_max_us'] for e in tl)
        tap(plot.ymax >= peak and plot.ymax >= period_of(doc, phase),
            '%s: the largest value (%.0f µs) and the period fit under the top (%g µs)' % (name, peak, plot.ymax))
        ms = phase.get('measured_s')
        part = [r for r in svg.iter(NS + 'rect') if r.get('class') == 'partial']
        if ms and ms % 1 > 1e-3 and ms < len(tl) and ms < plot.xmax:
            tap(len(part) == 1 and abs(float(part[0].get('x')) - plot.x_of(ms)) <= 0.6,
                '%s: the last second ran %.3f s; what did not run is marked from x = %.1f' % (
                    name, ms % 1, plot.x_of(ms)))
    tap(len(ranges) == 1, 'report page: one timeline axis for every load %s' % sorted(ranges))
    # The results table: the numbers are the report's, failing cells are marked.
    rows = re.findall(r'<tr><td class="k">(.*?)</td>(.*?)</tr>', html, re.S)
    th = doc.get('thresholds') or {}
    max_x = th.get('max_xruns', 0) or 0
    for phase in doc['phases']:
        row = [r for r in rows if r[0] == phase['load']]
        if not row:
            tap(False, 'results table has a row for ' + phase['load'])
            continue
        cells = re.findall(r'<td( class="[^"]*")?[^>]*>(.*?)</td>', row[0][1], re.S)
        num = [re.sub(r'<span class="pct">.*?</span>', '', c[1]) for c in cells]
        jb = folded(phase['histograms']['jitter'], True)
        lo, hi = quantile(jb, 0.99)
        if phase['jitter_us'].get('abs_p99') is not None:  # the run's own figure, stored: the page shows it
            lo = hi = phase['jitter_us']['abs_p99']
        j99 = float(num[0])
        jmax = float(num[1])
        # shown to 0.1: half of it either way, and a hair more (4702.550 is shown 4702.6, 0.0500000000003 off)
        tap(lo - 0.05 - 1e-6 <= j99 <= min(hi, phase['jitter_us']['abs_max']) + 0.05 + 1e-6 and
            abs(jmax - phase['jitter_us']['abs_max']) <= 0.05 + 1e-6,
            'table, %s: |jitter| p99 %.1f = the stored abs_p99, else in its bucket %.2f..%.2f (the histogram), max %.1f = %.3f' % (
                phase['load'], j99, lo, hi, jmax, phase['jitter_us']['abs_max']))
        met = num[8]
        want = '%.2f' % (math.floor(phase['deadlines_met_pct'] * 100 + 1e-6) / 100)
        tap(met == want, 'table, %s: deadlines met %s (report %.4f %%)' % (phase['load'], met, phase['deadlines_met_pct']))
        x = phase['xruns']
        xr_bad = 'bad' in (cells[9][0] or '')
        ev = x['events'] if 'events' in x else max(x['reported'], x['detected'])
        shown = re.sub(r'<[^>]*>', '', num[9]).split()
        tap(shown[:1] == [str(ev)] and ''.join(shown[1:]) == '%d/%d' % (x['reported'], x['detected']),
            'table, %s: xrun events %s, reported/detected as the report says' % (phase['load'], num[9]))
        if isinstance(phase.get('dsp_ramp'), dict):  # the ramp's own overload: marked grey, never red
            xr_grey = 'rampc' in (cells[9][0] or '')
            tap(not xr_bad and xr_grey == (ev > max_x),
                'table, %s (a ramp): xruns %s, %s (limit %d)' % (phase['load'], num[9],
                                                                  'grey' if xr_grey else 'red' if xr_bad else 'plain', max_x))
        else:
            tap(xr_bad == (ev > max_x),
                'table, %s: xruns %s, %s (limit %d)' % (phase['load'], num[9], 'marked' if xr_bad else 'not marked', max_x))
    return FAILED


def sweep_page(page, doc):
    """The sweep page against its document: the answer, each grid cell's word and colour, each measured cell's
    point on the margin plot where the plot's own axes put (size, margin), and a link to each cell's report."""
    html, svgs = svgs_of(page)
    words = {'safe': ('SAFE', 'safe'), 'unsafe': ('unsafe', 'bad'), 'inferred_safe': ('(safe)', 'isafe'),
             'inferred_unsafe': ('(unsafe)', 'ibad'), 'not_measured': ('-', 'none'), 'open': ('?', 'none')}
    for ans in doc['smallest_safe']:
        rate, ov = ans['rate'], ans['overall']
        said = ('%d frames (%.2f ms per period) is the smallest buffer safe under every load' % (ov['frames'], ov['ms'])
                if ov else 'was safe under every load')
        tap(said in html, 'sweep page, %d Hz: the answer as the document says (%s)' % (rate, said))
        tap(not re.search(r'>[^<]*(inferred_|not_measured)', html),
            'sweep page, %d Hz: no token of the document in its words (inferred_unsafe, not_measured)' % rate)
        rows = re.findall(r'<tr><th class="k">(\d+) <small>[^<]*</small></th>(.*?)</tr>', html, re.S)
        bad = []
        for frames, tds in rows:
            cells = re.findall(r'<td class="([a-z]+)"[^>]*>(.*?)</td>', tds, re.S)
            for load, (cls, text) in zip(doc['loads'], cells):
                c = [c for c in doc['cells'] if c['rate'] == rate and c['period_frames'] == int(frames)
                     and c['load'] == load][0]
                w, k = words[c['state']]
                if re.sub(r'<small>.*?</small>', '', text) != w or cls != k:
                    bad.append((frames, load, text, cls, c['state']))
        tap(len(rows) == len(doc['periods']) and not bad,
            'sweep page, %d Hz: %d rows, each cell the word and colour of its state %s' % (rate, len(rows), bad[:2]))
    plots = [s for s in svgs if 'Margin kept by 99.9' in title_of(s)]
    tap(len(plots) == len(doc['smallest_safe']), 'sweep page: a margin plot per rate (%d)' % len(plots))
    for svg, ans in zip(plots, doc['smallest_safe']):
        plot = Plot(svg)
        tap(plot.ok and plot.xlog, 'sweep margin plot: log2 axis of buffer sizes')
        pts = sorted((round(float(c.get('cx')), 1), round(float(c.get('cy')), 1)) for c in svg.iter(NS + 'circle'))
        want = sorted((round(plot.x_of(c['period_frames']), 1), round(plot.y_of(max(-100, min(100, c['margin_p999_pct']))), 1))
                      for c in doc['cells'] if c['rate'] == ans['rate'] and c['measured']
                      and c.get('margin_p999_pct') is not None)
        off = [(w, g) for w, g in zip(want, pts) if abs(w[0] - g[0]) > 0.6 or abs(w[1] - g[1]) > 0.6]
        tap(len(pts) == len(want) > 0 and not off,
            'sweep margin plot: %d points at (size, margin %% of the period) of the measured cells %s' % (len(pts), off[:2]))
        check_text_inside(svg, 'sweep margin plot')
    links = sorted(set(re.findall(r'href="file://([^"]*)"', html)))
    import urllib.parse
    want = sorted(set(urllib.parse.quote(c['report']) for c in doc['cells'] if c['measured'] and c.get('report')))
    tap(links == want and len(want) > 0, 'sweep page: a link to each measured cell\'s report (%d)' % len(links))
    return FAILED


def compare_page(page, docs):
    html, svgs = svgs_of(page)
    ccdfs = [s for s in svgs if 'share of cycles later than' in title_of(s)]
    loads = []
    for d in docs:
        for p in d['phases']:
            if p['load'] not in loads:
                loads.append(p['load'])
    tap(len(ccdfs) == 2 * len(loads), 'compare page: an exceedance plot of wakeup and |jitter| per load (%d for %d loads)'
        % (len(ccdfs), len(loads)))
    ranges = set()
    for svg in ccdfs:
        name = title_of(svg)
        plot = Plot(svg)
        tap(plot.ok and plot.xlog and plot.ylog, name + ': log-log')
        check_ticks(plot, name, True, False)
        load = name.split(' under ')[1].split(':')[0]
        ran = [d for d in docs if any(p['load'] == load for p in d['phases'])]
        for per in sorted({period_of(d, [p for p in d['phases'] if p['load'] == load][0]) for d in ran}):
            check_period(plot, name, per, True)
        check_text_inside(svg, name)
        check_labels_apart(svg, name)
        ranges.add((plot.xmin, plot.xmax))
        series = [e for e in svg.iter(NS + 'path') if e.get('class') == 'series']
        styles = {(e.get('stroke'), e.get('stroke-dasharray', '')) for e in series}
        names = {e.get('data-name') for e in series}
        legend = [text_of(t) for t in svg.iter(NS + 'text') if t.get('class') == 'legend']
        tap(len(series) == len(ran) and len(styles) == len(ran) and len(names) == len(ran) and
            all(any(l.startswith('[%d]' % (i + 1)) for l in legend) for i, d in enumerate(docs) if d in ran),
            '%s: %d reports ran it, %d lines in %d distinct colour/dash styles, each in the legend' % (
                name, len(ran), len(series), len(styles)))
    tap(len(ranges) == 1, 'compare page: wakeup and |jitter| plots share one latency axis %s' % sorted(ranges))
    return FAILED


if __name__ == '__main__':
    kind, page, *files = sys.argv[1:]
    docs = [json.load(open(f)) for f in files]
    if not REGULAR.ok:
        print('# DejaVu Sans not found: text widths estimated at 0.62 em')
    if kind == 'sweep':
        sys.exit(1 if sweep_page(page, docs[0]) else 0)
    sys.exit(1 if (report_page(page, docs[0]) if kind == 'report' else compare_page(page, docs)) else 0)
