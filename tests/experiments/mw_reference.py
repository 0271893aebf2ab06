# SPDX-License-Identifier: GPL-2.0-or-later
# Reference values for tests/unit/test_compare.c (test_mann_whitney_normal_and_shift). Run: python3 tests/experiments/mw_reference.py
# Independent reference for the Mann-Whitney normal approximation (tie and continuity correction), written from
# the textbook formula without the C code: ranks by sorting, mid-ranks for ties.
import math
a = [20 + (i * 7) % 13 for i in range(30)]
b = [23 + (i * 5) % 11 for i in range(30)]
allv = sorted([(v, 0) for v in a] + [(v, 1) for v in b])
ranks = {}
i = 0
while i < len(allv):
    j = i
    while j < len(allv) and allv[j][0] == allv[i][0]:
        j += 1
    ranks[allv[i][0]] = (i + 1 + j) / 2
    i = j
R_b = sum(ranks[v] for v in b)
nb, na = len(b), len(a); N = na + nb
U_b = R_b - nb * (nb + 1) / 2
from collections import Counter
T = sum(t**3 - t for t in Counter(a + b).values())
var = na * nb / 12 * ((N + 1) - T / (N * (N - 1)))
z = (abs(U_b - na * nb / 2) - 0.5) / math.sqrt(var)
p = math.erfc(z / math.sqrt(2))
diffs = sorted(y - x for x in a for y in b)
m = len(diffs); hl = diffs[m // 2] if m % 2 else (diffs[m // 2 - 1] + diffs[m // 2]) / 2
print(a); print(b); print("U_b %.1f p %.10g HL %.3f" % (U_b, p, hl))
