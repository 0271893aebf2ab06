# SPDX-License-Identifier: GPL-2.0-or-later
"""The truth of tests/helpers/compare_prov's runs, for tests/integration/compare_aa.sh (issue 22).

Each run RUN has its report RUN.json and the provider's own account RUN.truth: one tab-separated line per measured
second (phase, second, cycles, wakeup_p99_us, wakeup_max_us, jitter_abs_p99_us, injected_p99_us,
injected_jitter_p99_us), computed by the provider from its own sorted values, outside the code under test.
Nothing here calls rtjitter code: the Hodges-Lehmann shift is computed again, from its definition.

  seconds RUN...                      the reports' seconds are the truth's (cycles, wake-up and |jitter| p99)
  apart A B [A2...] -- [B2...]        are the injection's seconds there to be found? prints "apart ..." or "overlap ..."
  side COLUMN A B [A2...] -- [B2...]  which way B's seconds of COLUMN lie from A's: "above" (the Hodges-Lehmann shift
                                      of B's seconds against A's, and the median of B's set-up's run medians against
                                      A's, both up), "below" (both down) or "mixed"
  shift CMP.json METRIC COLUMN A B    the shift compare names for METRIC is the truth's HL shift of COLUMN
  injected A B COLUMN EXPECT TOL      the truth's HL shift of COLUMN (an injected one) is EXPECT within TOL
  pairbar A B BAR                     does the truth's wake-up p99 shift clear BAR µs, whole and half against half
                                      (what one pair alone must show to be "worse in this pair")? "clears ..." or
                                      "short ..."
"""
import json
import re
import statistics
import sys

COLS = ('phase', 'second', 'cycles', 'wakeup_p99_us', 'wakeup_max_us', 'jitter_abs_p99_us', 'injected_p99_us',
        'injected_jitter_p99_us')


def truth(run):
    lines = open(run + '.truth').read().splitlines()
    if tuple(lines[0].split('\t')) != COLS:
        sys.exit('%s.truth: unknown columns %r' % (run, lines[0]))
    rows = [dict(zip(COLS, (float(x) for x in l.split('\t')))) for l in lines[1:]]
    return [r for r in rows if r['phase'] == 0]


def whole(rows):
    """The seconds compare takes as its units: every one but a last second cut short (under half the usual cycles:
    the phase ended in it). A second short of cycles elsewhere is a stalled one, and kept."""
    usual = statistics.median(r['cycles'] for r in rows)
    return [r for i, r in enumerate(rows) if not (i == len(rows) - 1 and r['cycles'] < usual / 2)]


def hl(a, b):
    """Hodges-Lehmann shift: the median of every difference b_j - a_i."""
    return statistics.median(y - x for x in a for y in b)


def col(run, c):
    return [r[c] for r in whole(truth(run))]


def cmd_seconds(runs):
    bad = 0
    for run in runs:
        rows = truth(run)
        tl = json.load(open(run + '.json'))['phases'][0]['timeline']
        diff = []
        if len(tl) != len(rows):
            diff.append('%d seconds in the report, %d in the truth' % (len(tl), len(rows)))
        for r, e in zip(rows, tl):
            for key, rep in (('cycles', 'cycles'), ('wakeup_p99_us', 'wakeup_p99_us'),
                             ('jitter_abs_p99_us', 'jitter_abs_p99_us')):
                v = e.get(rep)
                # the truth is written to the ns (3 decimals), the report keeps ns / 1000 exactly
                if v is None or abs(v - r[key]) > 0.0005:
                    diff.append('second %d %s: report %s, truth %s' % (r['second'], key, v, r[key]))
        print('# %s: %d seconds, %s' % (run.split('/')[-1], len(rows), '; '.join(diff[:4]) if diff else 'all equal'))
        bad += bool(diff)
    return 1 if bad else 0


def cmd_apart(args):
    i = args.index('--')
    a, b, a_more, b_more = args[0], args[1], args[2:i], args[i + 1:]
    wa, wb = col(a, 'wakeup_p99_us'), col(b, 'wakeup_p99_us')
    inverted = sum(x >= y for x in wa for y in wb)
    med = lambda run: statistics.median(col(run, 'wakeup_p99_us'))
    runs_a, runs_b = [med(r) for r in [a] + a_more], [med(r) for r in [b] + b_more]
    ia, ib = col(a, 'injected_p99_us'), col(b, 'injected_p99_us')
    seconds_apart, runs_apart = inverted == 0, min(runs_b) > max(runs_a)
    word = 'apart' if seconds_apart and runs_apart else 'overlap'
    print('%s: %d of %d pairs of seconds inverted (a1 up to %.1f, b1 from %.1f µs), run medians a %s b %s; '
          'truth shift %+.1f µs = injected %+.1f + the machine %+.1f'
          % (word, inverted, len(wa) * len(wb), max(wa), min(wb), '/'.join('%.0f' % x for x in runs_a),
             '/'.join('%.0f' % x for x in runs_b), hl(wa, wb), hl(ia, ib), hl(wa, wb) - hl(ia, ib)))
    return 0


def cmd_side(args):
    column, args = args[0], args[1:]
    i = args.index('--')
    a, b, a_more, b_more = args[0], args[1], args[2:i], args[i + 1:]
    va, vb = col(a, column), col(b, column)
    med = lambda run: statistics.median(col(run, column))
    runs_a, runs_b = [med(r) for r in [a] + a_more], [med(r) for r in [b] + b_more]
    shift, runs = hl(va, vb), statistics.median(runs_b) - statistics.median(runs_a)
    word = 'above' if shift > 0 and runs > 0 else 'below' if shift < 0 and runs < 0 else 'mixed'
    print('%s: %s, b1 %.1f to %.1f against a1 %.1f to %.1f µs, run medians a %s b %s, truth shift %+.1f µs'
          % (word, column, min(vb), max(vb), min(va), max(va), '/'.join('%.0f' % x for x in runs_a),
             '/'.join('%.0f' % x for x in runs_b), hl(va, vb)))
    return 0


def cmd_shift(doc, metric, column, a, b):
    d = json.load(open(doc))
    v = [v for l in d['loads'] for v in l['verdicts'] if v['metric'] == metric][0]
    m = re.search(r'shift ([+-][0-9.]+) µs', v['text'])
    t = hl(col(a, column), col(b, column))
    print('# %s: %s (%s); the truth\'s shift %+.3f µs' % (metric, m.group(1) if m else 'no shift named', v['outcome'], t))
    return 0 if m and abs(float(m.group(1)) - t) <= 0.05 + 1e-9 else 1


def cmd_injected(a, b, column, expect, tol):
    t = hl(col(a, column), col(b, column))
    print('# %s: the injection\'s own shift %+.3f µs (expected %s ± %s)' % (column, t, expect, tol))
    return 0 if abs(t - float(expect)) <= float(tol) else 1


def cmd_pairbar(a, b, bar):
    """The HL shift of the truth's whole seconds of b against a, and of each half of b against each half of a (time
    order: the first n // 2 seconds and the last n // 2)."""
    wa, wb, bar = col(a, 'wakeup_p99_us'), col(b, 'wakeup_p99_us'), float(bar)
    halves = lambda v: (v[:len(v) // 2], v[len(v) - len(v) // 2:])
    shifts = [hl(x, y) for x in halves(wa) for y in halves(wb)]
    whole_shift = hl(wa, wb)
    word = 'clears' if whole_shift >= bar and min(shifts) >= bar else 'short'
    print('%s: truth shift %+.1f µs, half against half %+.1f to %+.1f µs, bar %.1f µs'
          % (word, whole_shift, min(shifts), max(shifts), bar))
    return 0


if __name__ == '__main__':
    cmd, args = sys.argv[1], sys.argv[2:]
    sys.exit({'seconds': lambda: cmd_seconds(args), 'apart': lambda: cmd_apart(args), 'side': lambda: cmd_side(args),
              'shift': lambda: cmd_shift(*args), 'injected': lambda: cmd_injected(*args),
              'pairbar': lambda: cmd_pairbar(*args)}[cmd]())
