#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-class: quick
# The floors of src/ (issue 36): each folder's quoted includes against the rule its folder header states (report.h,
# render.h, loopback.h, run.h, sysinfo.h, checks.h, culprit.h, verdict.h, compare.h), read by tests/helpers/layering.py,
# which resolves each include as the compiler does. A call across a floor needs the include (-Werror refuses an
# implicit declaration), so the includes are the arrows. Then a copy of the tree with the two arrows issue 36 found
# put back (loopback/lb_wav.c including run/run.h for run_err; render/html_compare.c including compare/compare.h
# for compare_find_phase), and one arrow against each rule added since (culprit/ into run/, verdict/ into render/),
# must fail, naming each. No build, no server: a read of the sources.
. "$(dirname "$0")/../lib.sh"
TOP=${RTJ_TOP:-$PWD}
cd "$TOP" || exit 1
python3 tests/helpers/layering.py "$TOP" > "$WORK/now.out"
rc=$?
cat "$WORK/now.out"
check "the tree keeps its floors (exit $rc)" [ "$rc" = 0 ]

mkdir -p "$WORK/tree" && cp -r src rtaudio loads "$WORK/tree/"
sed -i '0,/^#include "util\//s//#include "run\/run.h"\n&/' "$WORK/tree/src/loopback/lb_wav.c"
sed -i '0,/^#include "report\//s//#include "compare\/compare.h"\n&/' "$WORK/tree/src/render/html_compare.c"
# and a new one of each rule issue 36 added: culprit/ reaching up into run/, verdict/ into render/
sed -i '0,/^#include "culprit\//s//#include "run\/run.h"\n&/' "$WORK/tree/src/culprit/engine.c"
sed -i '0,/^#include "verdict\//s//#include "render\/render.h"\n&/' "$WORK/tree/src/verdict/verdict_culprit.c"
python3 tests/helpers/layering.py "$WORK/tree" > "$WORK/old.out"
rc=$?
sed 's/^/#   /' "$WORK/old.out"
check "the two old arrows and two new ones fail it (exit $rc)" [ "$rc" = 1 ]
check "it names loopback's arrow into run/" grep -q '^# src/loopback/lb_wav.c:[0-9]* includes src/run/run.h$' "$WORK/old.out"
check "it names render's arrow into compare/" \
    grep -q '^# src/render/html_compare.c:[0-9]* includes src/compare/compare.h$' "$WORK/old.out"
check "it names culprit's arrow into run/" grep -q '^# src/culprit/engine.c:[0-9]* includes src/run/run.h$' "$WORK/old.out"
check "it names verdict's arrow into render/" \
    grep -q '^# src/verdict/verdict_culprit.c:[0-9]* includes src/render/render.h$' "$WORK/old.out"
check "and only those four" [ "$(grep -c '^# src/' "$WORK/old.out")" = 4 ]
