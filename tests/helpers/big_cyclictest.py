#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Two cyclictest JSON files for import's bound (issue 21, item 7), for the test and the bench alike.

usage: big_cyclictest.py HUGE LIMIT

HUGE: one thread of 4,000,000 one-sample buckets (52 MB), over the 400,000 name-value pairs an import takes.
LIMIT: just under that limit: 4 threads of 99,900 buckets sharing their values (399,600 + 43 other pairs).
"""
import sys

HEAD = ('{"file_version": 1, "cmdline:": "cyclictest -h 4000000", "rt_test_version:": "2.5", "sysinfo": {"sysname": '
        '"Linux", "nodename": "h", "release": "6.1.0-test", "version": "#1", "machine": "x86_64", "realtime": 0}, '
        '"num_threads": %d, "resolution_in_ns": 0, "thread": {')


def thread(t, nb):
    return ('"%d": {"histogram": {%s}, "cycles": %d, "min": 0, "max": %d, "avg": %d, "cpu": 0, "node": 0}'
            % (t, ', '.join(f'"{i}": 1' for i in range(nb)), nb, nb - 1, nb // 2))


def main(argv):
    if len(argv) != 3:
        sys.exit(__doc__)
    with open(argv[1], 'w') as f:
        f.write(HEAD % 1 + thread(0, 4_000_000) + '}}')
    with open(argv[2], 'w') as f:
        f.write(HEAD % 4 + ', '.join(thread(t, 99_900) for t in range(4)) + '}}')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
