#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-class: quick
# test-timeout: 120
# Byte for byte: `report` and `compare` of the committed fixture reports (tests/fixtures/reports), through every
# renderer and form (tests/helpers/golden.sh), equal the committed outputs in tests/fixtures/golden, and so does
# each command's exit status. What this holds is that a change meant to keep behaviour (the House issue's moves)
# keeps every output; the outputs' truth is the other tests' work. A deliberate change of an output regenerates
# them (tests/helpers/golden.sh tests/fixtures/golden) and commits them with it; this test names each file that
# differs and shows the start of its diff.
. "$(dirname "$0")/../lib.sh"
TOP=${RTJ_TOP:-$PWD}
cd "$TOP" || exit 1
RTJ=$(cd "$(dirname "$RTJ")" && pwd)/$(basename "$RTJ") tests/helpers/golden.sh "$WORK/out"
want=$(cd tests/fixtures/golden && ls | sort)
got=$(cd "$WORK/out" && ls | sort)
check "the same outputs are made ($(echo "$got" | wc -l) files)" [ "$want" = "$got" ]
bad=0
for f in $got; do
    if ! cmp -s "tests/fixtures/golden/$f" "$WORK/out/$f"; then
        bad=$((bad + 1))
        echo "# differs: $f"
        diff "tests/fixtures/golden/$f" "$WORK/out/$f" | head -8 | sed 's/^/#   /'
    fi
done
check "every output byte-identical to tests/fixtures/golden ($bad differ)" [ "$bad" = 0 ]

