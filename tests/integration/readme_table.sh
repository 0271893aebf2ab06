#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-class: quick (a read of tests/ and tests/README.md: no build, no server)
# tests/README.md's table of tests ("Every test") against the tests themselves: every script of tests/integration and
# every unit test of tests/unit has its row, and every row names a test that is there, so a test
# added, renamed or removed without its row fails here. The rows' text is tests/helpers/tests_table.py's reading of
# each test's header (it prints the whole table); a copy of the README without one row, and one with a row of no
# test, must fail, naming that test.
. "$(dirname "$0")/../lib.sh"
TOP=${RTJ_TOP:-$PWD}
cd "$TOP" || exit 1

# table_faults README: one line per test without its row and per row without its test; exit 1 when any
table_faults() {
    python3 - "$1" <<'PY'
import glob, os, re, sys
tests = {os.path.basename(f)[:-3] for f in glob.glob('tests/integration/*.sh')}
tests |= {os.path.basename(f)[:-2] for f in glob.glob('tests/unit/test_*.c')}
text = open(sys.argv[1], encoding='utf-8').read()
start = text.find('### Every test:')
end = text.find('\n#', start + 1)
rows = set(re.findall(r'^\| `([A-Za-z0-9_]+)` \|', text[start:end], re.M)) if start >= 0 else set()
bad = [f'no row: {t}' for t in sorted(tests - rows)] + [f'a row of no test: {r}' for r in sorted(rows - tests)]
print('\n'.join(bad))
sys.exit(1 if bad or start < 0 else 0)
PY
}

table_faults tests/README.md > "$WORK/now.out"
rc=$?
sed '/^$/d; s/^/# /' "$WORK/now.out"
check "every test has its row in tests/README.md, and every row its test (exit $rc)" [ "$rc" = 0 ]
n=$(python3 tests/helpers/tests_table.py | grep -c '^| `')
check "tests_table.py prints a row for each of the $n tests" \
    [ "$n" = "$(( $(ls tests/integration/*.sh | wc -l) + $(ls tests/unit/test_*.c | wc -l) ))" ]

sed '/^| `layering` |/d; s/^| `golden_outputs` |/| `no_such_test` |/' tests/README.md > "$WORK/README.md"
table_faults "$WORK/README.md" > "$WORK/bad.out"
rc=$?
sed 's/^/#   /' "$WORK/bad.out"
check "a README without layering's row, and golden_outputs' row renamed, fails (exit $rc)" [ "$rc" = 1 ]
check "it names the test without its row" grep -qx 'no row: layering' "$WORK/bad.out"
check "it names the row of no test" grep -qx 'a row of no test: no_such_test' "$WORK/bad.out"
