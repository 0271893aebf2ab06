#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Renders the committed fixture reports (tests/fixtures/reports: a store of eleven runs made on this project's test
# VM: timer runs before and after with a replicate, jack2 runs with stalls, clean, a DSP ramp, the depth ladder, a
# loopback, a cyclictest import, a PipeWire run; and a sweep document) through every renderer of `report` and
# `compare`, into OUTDIR, one file per output, with each command's exit status in OUTDIR/exit-codes.
# tests/integration/golden_outputs.sh compares them with tests/fixtures/golden byte for byte: a refactoring that
# changes no behaviour changes none of them.
# Two outputs are not kept as goldens, because a copy would hold nothing the input does not: `report --format json`
# of a report must be the report itself, so those outputs go to OUTDIR/same-as-input/ with their inputs listed in
# OUTDIR/same-as-input/LIST ("OUTPUT INPUT"), and the test compares each with its input; and every HTML output
# loses its <style> blocks here, so that a tweak of the stylesheet does not change every golden page.
#
# usage: tests/helpers/golden.sh OUTDIR   (from the top of the tree; RTJ=path of the binary, default ./rtjitter)
#        tests/helpers/golden.sh --regen  (after a deliberate change of an output: replaces tests/fixtures/golden
#                                          with the outputs of this binary; `make goldens` does the same)
set -u
RTJ=$(realpath "${RTJ:-./rtjitter}")
export RTJ
if [ "${1:-}" = --regen ]; then
    G=tests/fixtures/golden
    N=$(mktemp -d "${TMPDIR:-/tmp}/rtjt-golden-new.XXXXXX")
    "$0" "$N/out" || exit 1
    rm -r "$N/out/same-as-input"
    rm -rf "$G" && mv "$N/out" "$G" && rmdir "$N" || exit 1
    echo "tests/fixtures/golden: $(ls "$G" | wc -l) files; git status -- $G shows what changed"
    exit 0
fi
[ $# = 1 ] || { echo "usage: $0 OUTDIR | --regen" >&2; exit 2; }
mkdir -p "$1/same-as-input"
O=$(realpath "$1")
: >"$O/same-as-input/LIST"
# compare caches each report's set-up key beside it (a .NAME.setup sidecar): it works on a copy of the fixtures, at
# the same relative path (the outputs name it), never in the committed tree
T=$(mktemp -d "${TMPDIR:-/tmp}/rtjt-golden.XXXXXX")
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/tests/fixtures"
cp -r tests/fixtures/reports "$T/tests/fixtures/"
find "$T" -name '.*.setup' -delete
cd "$T" || exit 1
F=tests/fixtures/reports
S=$F/store/6.18.44-fc-v1098
: >"$O/exit-codes"
export LC_ALL=C.UTF-8 TZ=UTC
unset COLUMNS NO_COLOR
# one NAME ARGS...: stdout to OUTDIR/NAME, stderr to OUTDIR/NAME.err when there is any, the status to exit-codes
one() {
    local n=$1
    shift
    "$RTJ" "$@" >"$O/$n" 2>"$O/$n.err" </dev/null
    echo "$n $?" >>"$O/exit-codes"
    [ -s "$O/$n.err" ] || rm -f "$O/$n.err"
}
# same NAME INPUT: `report INPUT --format json`, which must be INPUT itself, into OUTDIR/same-as-input/NAME
same() {
    one "$1" report "$2" --format json
    mv "$O/$1" "$O/same-as-input/$1"
    echo "$1 $2" >>"$O/same-as-input/LIST"
}
declare -A R=(
    [timer-before-1]=20261202T172220Z-before [timer-before-2]=20261202T172224Z-before
    [timer-after-dsp40]=20261202T172228Z-after [jack-stalls]=20261202T172233Z [jack-clean-dsp30]=20261202T172242Z
    [jack-ramp]=20261202T172245Z [ladder]=20261202T172251Z [ladder-jack]=20261202T172252Z
    [loopback]=20261202T172255Z [cyclictest]=20261202T172258Z-ct [pipewire]=20261202T172301Z
)
for n in "${!R[@]}"; do
    f=$S/${R[$n]}.json
    for fmt in text json html junit tap lava kcidb; do
        if [ $fmt = json ]; then
            same "report-$n.json" "$f"
        else
            one "report-$n.$fmt" report "$f" --format "$fmt"
        fi
    done
    one "report-$n.wide" report "$f" --wide
done
one report-sweep.text report "$F/sweep.json" --format text
same report-sweep.json "$F/sweep.json"
one report-sweep.html report "$F/sweep.json" --format html
one report-sweep.wide report "$F/sweep.json" --wide
# before and after, with a replicate of "before" beside it (the same set-up, the same directory)
for fmt in text json html junit tap lava kcidb; do
    one "compare-before-after.$fmt" compare "$S/${R[timer-before-1]}.json" "$S/${R[timer-after-dsp40]}.json" --format "$fmt"
done
one compare-before-after.wide compare "$S/${R[timer-before-1]}.json" "$S/${R[timer-after-dsp40]}.json" --wide
for fmt in text json html; do
    one "compare-stalls-alone.$fmt" compare --alone "$S/${R[jack-clean-dsp30]}.json" "$S/${R[jack-stalls]}.json" --format "$fmt"
    one "compare-import.$fmt" compare "$S/${R[cyclictest]}.json" "$S/${R[timer-before-1]}.json" --format "$fmt"
    one "compare-three.$fmt" compare "$S/${R[pipewire]}.json" "$S/${R[jack-stalls]}.json" "$S/${R[timer-after-dsp40]}.json" --format "$fmt"
    one "compare-matrix.$fmt" compare --matrix --store "$F/store" --format "$fmt"
done
one compare-three.wide compare "$S/${R[pipewire]}.json" "$S/${R[jack-stalls]}.json" "$S/${R[timer-after-dsp40]}.json" --wide
one compare-ladder.text compare "$S/${R[ladder]}.json" "$S/${R[ladder-jack]}.json"
# the depth ladder's own document (rtjitter run --backend timer,jack --json)
for fmt in text json html; do
    one "report-ladder-doc.$fmt" report "$F/ladder.json" --format "$fmt"
done
# the culprits (issue 24): a jack2 run whose xruns the server's log explained (a client that did not finish), and a
# timer run with a wake-up spike a real-time task explained; outside the store, so that the matrix above keeps its
# eleven runs
for n in culprits-jack-stalls culprits-timer-spike; do
    for fmt in text json html junit tap lava kcidb; do
        if [ $fmt = json ]; then
            same "report-$n.json" "$F/$n.json"
        else
            one "report-$n.$fmt" report "$F/$n.json" --format "$fmt"
        fi
    done
    one "report-$n.wide" report "$F/$n.json" --wide
done
# the stylesheet is the page's look, which the screenshot tests judge; the goldens hold the page's content
for f in "$O"/*.html; do
    perl -0pi -e 's{<style>.*?</style>\n?}{}gs' "$f"
done
