#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
# Every renderer of a comparison against its JSON (the observer): compare_cells.py CMP.json TEXT HTML.
# For each load's table, each row the text prints and each row of the HTML table must hold the JSON's cells exactly;
# a figure the JSON leaves unknown ("-", from null) is "-" in both, never a number; no "nan"/"inf" anywhere; and a
# report without frames (an import) is named with its interval in the text's header and the HTML's. Prints what
# differs, one line each, then "mismatches: N".
import html, json, re, sys

cmp = json.load(open(sys.argv[1]))
text = open(sys.argv[2], encoding='utf-8').read()
page = open(sys.argv[3], encoding='utf-8').read()
bad = []
for name, body in (('text', text), ('html', page), ('json', open(sys.argv[1]).read())):
    for m in re.finditer(r'(?<![A-Za-z])(nan|-?inf)(?![A-Za-z])', body, re.I):
        bad.append(f"{name}: '{m.group(0)}' at ...{body[max(0, m.start() - 60):m.end() + 20]!r}")
lines = text.splitlines()
for load in cmp['loads']:
    key = load.get('load') or load.get('name')
    start = next((i for i, l in enumerate(lines) if l.strip() == f'Load: {key}'), None)
    if start is None:
        bad.append(f'text: no table for load {key}')
        continue
    seen = 0
    for row in load['rows']:
        label, cells = row['label'], row['cells']
        for l in lines[start + 2:start + 2 + len(load['rows'])]:
            head = l[:30].rstrip()
            if head.endswith('…') and label.startswith(head[:-1]) or head == label:
                got = re.split(r'\s{2,}', l[30:].strip())
                seen += 1
                if got != cells:
                    bad.append(f'text: {label}: {got} != JSON {cells}')
                break
        # the HTML table of this load: every row
        m = re.search(r'<tr><td class="k">' + re.escape(html.escape(label, quote=True)) + r'</td>(.*?)</tr>', page)
        if not m:
            bad.append(f'html: no row {label}')
            continue
        got = [html.unescape(c) for c in re.findall(r'<td>(.*?)</td>', m.group(1))]
        if got != cells:
            bad.append(f'html: {label}: {got} != JSON {cells}')
    if seen < 5:
        bad.append(f'text: only {seen} rows of load {key} found')
for i, r in enumerate(cmp['reports']):
    if r.get('period_frames') is None and r.get('period_us') is not None:
        want = '%.3f ms interval' % (r['period_us'] / 1000)
        # the header with its continuation lines (wrapped at 80 columns, indented under its text)
        k = next((j for j, l in enumerate(lines) if l.startswith(f'  [{i + 1}] ')), None)
        hdr = ''
        if k is not None:
            hdr = lines[k]
            for l in lines[k + 1:]:
                if not l.startswith('      ') or l.strip().startswith('['):
                    break
                hdr += ' ' + l.strip()
        if want not in hdr or r['title'] not in hdr:
            bad.append(f'text header of [{i + 1}] does not name it and its interval ({want}): {hdr!r}')
        if want not in page:
            bad.append(f'html: no "{want}" for report [{i + 1}]')
for b in bad:
    print(b)
print('mismatches:', len(bad))
