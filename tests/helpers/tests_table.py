#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The table of tests in tests/README.md ("Every test"): one row per test script and unit test, its class and the
first sentence of its header comment (what it is checked against; the header says the rest). Run from the top of
the tree; paste its output over the table when tests come or go:  python3 tests/helpers/tests_table.py"""
import glob, os, re, sys
def cut(text, limit=260):
    text = re.sub(r'\s+', ' ', text).strip()
    depth = 0
    out = len(text)
    for i, ch in enumerate(text):
        if ch in '([': depth += 1
        elif ch in ')]': depth = max(0, depth - 1)
        elif depth == 0 and ch in '.;' and (i + 1 == len(text) or text[i + 1] == ' ') and not text[max(0,i-3):i+1].endswith(('e.g.', 'i.e.')) and not text[i-1:i].isdigit():
            if i < 50 and i + 1 < len(text):
                continue
            out = i; break
        elif depth == 0 and text.startswith(': - ', i):
            out = i; break
    s = text[:out]
    if len(s) > limit:
        s = s[:limit].rsplit(' ', 1)[0] + ' ...'
    return s
def sh_header(f):
    lines = open(f).read().split('\n')[1:]
    cls, body, meta_open = 'plain', [], 0
    for l in lines:
        if l.startswith('# SPDX'): continue
        if not l.startswith('#'):
            if body: break
            if l.strip(): break
            continue
        t = l[1:].strip()
        if meta_open > 0:
            meta_open += t.count('(') - t.count(')'); continue
        m = re.match(r'test-([a-z]+):\s*(.*)', t)
        if m:
            if m.group(1) == 'class': cls = m.group(2).split()[0]
            meta_open = t.count('(') - t.count(')'); continue
        if not body and t.startswith('(') and t.count('(') == t.count(')') and t.endswith(')'):
            continue
        body.append(t)
    return cls, ' '.join(body)
rows = []
for f in sorted(glob.glob('tests/integration/*.sh')):
    cls, body = sh_header(f)
    rows.append((os.path.basename(f)[:-3], cls, cut(body), f))
for f in sorted(glob.glob('tests/unit/test_*.c')):
    t = open(f).read()
    body = ''
    for b in re.findall(r'/\*(.*?)\*/', t, re.S):
        if 'SPDX' in b: continue
        body = re.sub(r'^\s*\*', '', b, flags=re.M); break
    rows.append((os.path.basename(f)[:-2], 'quick (unit)', cut(body), f))
print("| test | class | what it is checked against (the first sentence of its header, which says the rest) | file |")
print('| --- | --- | --- | --- |')
for n, c, t, f in rows:
    print(f"| `{n}` | {c} | {t.replace('|', chr(92)+'|')} | `{f}` |")
