#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Runs every test: each cmocka binary in $BUILD/tests/test_*, then each tests/integration/*.sh
# (TAP-style "ok - ..." / "not ok - ..." lines). Ends with one line: "N passed, N failed".
# TESTS=pattern runs only the files whose name matches (for working on one test).
set -u
BUILD=${BUILD:-build}
export RTJ=${RTJ:-./rtjitter}
export RTJ_HELPERS="$PWD/$BUILD/tests/helpers"
export RTJ_TOP="$PWD"
pass=0; fail=0; failed_names=()
log=$(mktemp -d)
trap 'rm -rf "$log"' EXIT

for t in "$BUILD"/tests/test_*; do
    [ -x "$t" ] || continue
    name=$(basename "$t")
    [ -n "${TESTS:-}" ] && [[ "$name" != *$TESTS* ]] && continue
    echo "== unit: $name"
    "$t" >"$log/out" 2>&1
    rc=$?
    cat "$log/out"
    # cmocka's summary lines (stdout and stderr may share a line, so match anywhere)
    p=$(grep -o '\[  PASSED  \] [0-9]* test(s)' "$log/out" | tail -1 | grep -o '[0-9]\+')
    f=$(grep -o '\[  FAILED  \] [0-9]* test(s)' "$log/out" | tail -1 | grep -o '[0-9]\+')
    p=${p:-0}; f=${f:-0}
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi  # crashed, or sanitizer abort
    pass=$((pass + p)); fail=$((fail + f))
    [ "$f" -gt 0 ] && failed_names+=("$name")
done

for t in tests/integration/*.sh; do
    [ -f "$t" ] || continue
    name=$(basename "$t" .sh)
    [ -n "${TESTS:-}" ] && [[ "$name" != *$TESTS* ]] && continue
    echo "== integration: $name"
    start=$(date +%s)
    timeout 180 bash "$t" >"$log/out" 2>&1
    rc=$?
    cat "$log/out"
    p=$(grep -c '^ok ' "$log/out")
    f=$(grep -c '^not ok ' "$log/out")
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; echo "not ok - $name exited with status $rc"; fi
    if [ "$p" -eq 0 ] && [ "$f" -eq 0 ]; then f=1; echo "not ok - $name ran no test"; fi
    echo "   ($name: $((`date +%s` - start)) s)"
    pass=$((pass + p)); fail=$((fail + f))
    [ "$f" -gt 0 ] && failed_names+=("$name")
done

[ "${#failed_names[@]}" -gt 0 ] && echo "failed: ${failed_names[*]}"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
