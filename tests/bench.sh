#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# `make bench`: prints figures. Runs every tests/bench.d/*.sh in order; BENCH=pattern runs some of them.
set -u
export RTJ=${RTJ:-./rtjitter}
export BUILD=${BUILD:-build}
export RTJ_HELPERS="$PWD/$BUILD/tests/helpers"
for b in tests/bench.d/*.sh; do
    [ -f "$b" ] || continue
    [ -n "${BENCH:-}" ] && [[ "$b" != *$BENCH* ]] && continue
    echo "== bench: $(basename "$b" .sh)"
    bash "$b" || echo "bench $(basename "$b") failed with status $?"
done
