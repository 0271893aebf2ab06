#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""One figure, one value: every per-load figure the text table (--wide) and the HTML results table of `rtjitter
report` show is the report's JSON value at the printed precision, and compare's JSON column holds the same numbers.

usage: figures_agree.py RTJ WORKDIR REPORT.json...     prints TAP-ish '# ' lines and, last, one line per report:
       'PASS NAME figures=N from_hist=M' or 'FAIL NAME: what differs'.

A figure the report's JSON does not hold (|jitter| p99 and p99.9 of a report made before they were stored) is
computed by the renderers from the histogram (report/phase_figures.h): those must agree between the text, the HTML
and compare's JSON, and they are counted as from_hist. With --strip each report is also rendered again with its
stored quantiles removed: the figures the renderers then compute from the histogram must print as the stored
ones (the fallback is the run's own rule, not another estimator)."""
import copy
import json
import math
import os
import re
import subprocess
import sys

ENV = dict(os.environ, LC_ALL="C.UTF-8", TZ="UTC")
ENV.pop("COLUMNS", None)
ENV.pop("NO_COLOR", None)


def run(rtj, *args):
    p = subprocess.run([rtj, *args], capture_output=True, text=True, env=ENV, stdin=subprocess.DEVNULL)
    return p.stdout


def num(o, k):
    v = (o or {}).get(k) if isinstance(o, dict) else None
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def f1_text(v):  # text_table.c fmt1()
    if v is None:
        return "-"
    return "%.1f" % (0.0 if abs(v) < 0.05 else v)


def f1_html(v):  # html.c html_num(, 1)
    if v is None:
        return "-"
    s = "%.1f" % v
    return s[1:] if s.startswith("-") and set(s[1:]) <= set("0.") else s


def f0(v):
    return "-" if v is None else "%.0f" % v


def met(v):  # numfmt.c pct_met()
    return "-" if v is None else "%.2f" % (math.floor(v * 100 + 1e-6) / 100)


def xruns(p):  # phase_figures.c phasefig_xruns()
    x = p.get("xruns") or {}
    e = num(x, "events")
    if e is not None:
        return e
    r, d = num(x, "reported"), num(x, "detected")
    if r is None:
        return d
    if d is None:
        return r
    return max(r, d)


# The quantile figures: (name, metric, JSON key), as phasefig_quantile() reads them.
QUANT = [("|jitter| p99", "jitter_us", "abs_p99"), ("|jitter| p99.9", "jitter_us", "abs_p999"),
         ("wakeup p99", "wakeup_us", "p99"), ("wakeup p99.9", "wakeup_us", "p999")]


def text_rows(text, n):
    """The first n rows of the wide table: the lines after the header line that starts with 'Load' that start
    with a name (load metric lines are indented)."""
    lines = text.split("\n")
    for i, ln in enumerate(lines):
        if ln.startswith("Load "):
            rows = [l.split() for l in lines[i + 1:] if l and not l[0].isspace() and not l.startswith("%")]
            return rows[:n]
    return []


def html_rows(html):
    m = re.search(r'<table class="results">(.*?)</table>', html, re.S)
    if not m:
        return []
    out = []
    for tr in re.findall(r'<tr><td class="k">(.*?)</tr>', m.group(1), re.S):
        cells = re.findall(r'<td[^>]*>(.*?)</td>', '<td>' + tr, re.S)
        out.append(cells)
    return out


def html_first(cell):
    return re.sub(r'<.*', '', cell, flags=re.S).strip()


def shown(doc):
    """Per phase: {figure name: (text string, html string or None, JSON value or 'absent')}."""
    res = []
    for p in doc.get("phases") or []:
        j, w, x = p.get("jitter_us"), p.get("wakeup_us"), p.get("xruns") or {}
        figs = {}
        for name, m, k in QUANT:
            o = p.get(m)
            figs[name] = "absent" if not isinstance(o, dict) or k not in o else num(o, k)
        figs.update({"|jitter| max": num(j, "abs_max"), "jitter mean": num(j, "mean"), "jitter SD": num(j, "sd"),
                     "wakeup max": num(w, "max"), "wakeup mean": num(w, "mean"), "wakeup SD": num(w, "sd"),
                     "deadlines met": num(p, "deadlines_met_pct"), "xrun events": xruns(p),
                     "xruns reported": num(x, "reported"), "xruns detected": num(x, "detected"),
                     "skipped": num(x, "skipped_cycles"), "dropped": num(p, "dropped"), "cycles": num(p, "cycles")})
        res.append(figs)
    return res


def parse_text(row):
    """A wide row's tokens: name, jp99 %, jp999, jmax %, jmean ± jsd, wp99 %, wp999, wmax %, wmean ± wsd, met,
    dsp, ev(rep/det), skipped, dropped, cycles."""
    t = row
    ev = re.match(r'(.+)\((.+)/(.+)\)$', t[19])
    return {"|jitter| p99": t[1], "|jitter| p99.9": t[3], "|jitter| max": t[4], "jitter mean": t[6],
            "jitter SD": t[8], "wakeup p99": t[9], "wakeup p99.9": t[11], "wakeup max": t[12], "wakeup mean": t[14],
            "wakeup SD": t[16], "deadlines met": t[17], "xrun events": ev.group(1) if ev else t[19],
            "xruns reported": ev.group(2) if ev else None, "xruns detected": ev.group(3) if ev else None,
            "skipped": t[20], "dropped": t[21], "cycles": t[22]}


def parse_html(cells):
    """name, jp99, jmax, jp999, jmean ± jsd, wp99, wmax, wp999, wmean ± wsd, met, ev <small>rep / det</small>,
    skipped, cycles, what the load did."""
    c = cells
    jm = html_first(c[4]).split(" ± ")
    wm = html_first(c[8]).split(" ± ")
    xr = re.match(r'(\S+) <small>(\S+) / (\S+)</small>', c[10])
    return {"|jitter| p99": html_first(c[1]), "|jitter| max": html_first(c[2]), "|jitter| p99.9": html_first(c[3]),
            "jitter mean": jm[0], "jitter SD": jm[1] if len(jm) > 1 else None, "wakeup p99": html_first(c[5]),
            "wakeup max": html_first(c[6]), "wakeup p99.9": html_first(c[7]), "wakeup mean": wm[0],
            "wakeup SD": wm[1] if len(wm) > 1 else None, "deadlines met": c[9],
            "xrun events": xr.group(1) if xr else None, "xruns reported": xr.group(2) if xr else None,
            "xruns detected": xr.group(3) if xr else None, "skipped": c[11], "cycles": c[12]}


INTS = {"xrun events", "xruns reported", "xruns detected", "skipped", "dropped", "cycles"}


def want(name, v, html):
    if name == "deadlines met":
        return met(v)
    if name in INTS:
        return f0(v)
    return f1_html(v) if html else f1_text(v)


def check(rtj, path, compare_cols):
    """-> (errors, figures checked, figures from the histogram, the text's quantile strings per phase)"""
    doc = json.load(open(path))
    if json.loads(run(rtj, "report", path, "--format", "json") or "null") != doc:
        return ["report --format json is not the report"], 0, 0, None
    figs = shown(doc)
    trows = text_rows(run(rtj, "report", path, "--wide"), len(figs))
    hrows = html_rows(run(rtj, "report", path, "--format", "html"))
    errs, n, nh, tq = [], 0, 0, []
    if len(trows) != len(figs) or len(hrows) != len(figs):
        return ["%d phases, %d text rows, %d HTML rows" % (len(figs), len(trows), len(hrows))], 0, 0, None
    for i, (f, tr, hr) in enumerate(zip(figs, trows, hrows)):
        try:
            t, h = parse_text(tr), parse_html(hr)
        except (IndexError, AttributeError) as e:
            errs.append("phase %d: row not parsed (%s): %s" % (i, e, " ".join(tr)))
            continue
        tq.append({k: t[k] for k, _, _ in QUANT})
        col = compare_cols[i] if compare_cols else None
        for name, v in f.items():
            if v == "absent":  # not in the JSON: the renderers' fallback, one value in all three
                nh += 1
                metric = "jitter" if name.startswith("|jitter|") else "wakeup"
                key = {"|jitter| p99": "abs_p99", "|jitter| p99.9": "abs_p999"}.get(name)
                cv = num((col or {}).get(metric), key) if key else None
                if t[name] != h[name] or (col is not None and f1_text(cv) != t[name]):
                    errs.append("phase %d %s (not in the JSON): text %s, HTML %s, compare %s"
                                % (i, name, t[name], h[name], cv))
                continue
            n += 1
            if t.get(name) is not None and t[name] != want(name, v, False):
                errs.append("phase %d %s: JSON %s, text %s" % (i, name, v, t[name]))
            if name in h and h[name] is not None and h[name] != want(name, v, True):
                errs.append("phase %d %s: JSON %s, HTML %s" % (i, name, v, h[name]))
        if col is not None:
            for name, metric, key in QUANT:
                cv = num(col.get(metric[:-3]), key)
                if f[name] != "absent" and cv != f[name]:
                    errs.append("phase %d %s: JSON %s, compare's JSON %s" % (i, name, f[name], cv))
    return errs, n, nh, tq


def stripped_agrees(rtj, path, work, tq):
    """The report without its stored quantiles: the text's quantile figures must print as before."""
    doc = json.load(open(path))
    had = 0
    for p in doc.get("phases") or []:
        for m in ("jitter_us", "wakeup_us"):
            o = p.get(m)
            if isinstance(o, dict):
                for k in ("p50", "p90", "p99", "p999", "p9999", "abs_p99", "abs_p999"):
                    had += k in o
                    o.pop(k, None)
    s = os.path.join(work, "stripped-" + os.path.basename(path))
    with open(s, "w") as f:
        json.dump(doc, f)
    rows = text_rows(run(rtj, "report", s, "--wide"), len(tq))
    errs = []
    for i, (r, q) in enumerate(zip(rows, tq)):
        t = parse_text(r)
        for k in q:
            if t[k] != q[k]:
                errs.append("phase %d %s: stored %s, from the histogram %s" % (i, k, q[k], t[k]))
    if len(rows) != len(tq):
        errs.append("stripped: %d rows for %d phases" % (len(rows), len(tq)))
    return errs, had


def main():
    args = sys.argv[1:]
    strip = "--strip" in args
    args = [a for a in args if a != "--strip"]
    rtj, work, reports = args[0], args[1], args[2:]
    bad = 0
    for path in reports:
        doc = json.load(open(path))
        # compare's JSON of this report beside itself: its first column is this report's figures
        cj = json.loads(run(rtj, "compare", "--alone", path, path, "--format", "json") or "null") or {}
        cols = []
        names = [l.get("load") for l in cj.get("loads") or []]
        for p in doc.get("phases") or []:
            col = None
            for l in cj.get("loads") or []:
                if l.get("load") == p.get("load") and l.get("columns"):
                    col = l["columns"][0]
            cols.append(col)
        if len(set(names)) != len(names) or len(names) != len(doc.get("phases") or []):
            cols = None  # loads split by buffer size etc.: no one-to-one map, compare not checked here
        errs, n, nh, tq = check(rtj, path, cols)
        if strip and tq is not None:
            e2, had = stripped_agrees(rtj, path, work, tq)
            errs += e2
        name = os.path.basename(path)
        if errs:
            bad += 1
            print("FAIL %s: %s" % (name, "; ".join(errs[:6])))
        else:
            print("PASS %s figures=%d from_hist=%d compare=%s" % (name, n, nh, "yes" if cols else "no"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
