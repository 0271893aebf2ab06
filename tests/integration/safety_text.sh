#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-class: quick
# No terminal escapes (issue 21, item 5): a report whose label, hostname, warnings and load_error hold ESC
# sequences (ESC ] 0 ; ... BEL sets the window title, ESC [ 31 m paints what follows red), C1 controls (U+009B is
# ESC [ in one character), DEL and the bidirectional override U+202E is shown by `report` (text and TAP), `compare`
# (side by side and --matrix) and `import`, and a store holding a file whose very name carries an ESC sequence:
# the output holds no ESC byte, no other C0 control but the renderer's own newline (and tab), no C1 control, no
# bidirectional override or isolate; and it shows each one visibly (\e, \x07, \u009b, \u202e), as the HTML
# form escapes its markup. The figures themselves come from a cyclictest file written here.
. "$(dirname "$0")/../lib.sh"

# A small cyclictest --json file (rt-tests 2.x shape), whose nodename (the report's hostname) and version are
# hostile already: import's own summary line shows them.
python3 - "$WORK/ct.json" <<'PY'
import json, sys
E = '\x1b]0;pwned\x07\x1b[31m'
json.dump({"file_version": 1, "cmdline:": "cyclictest -m -q -p 80 -i 500 -t 1 -D 2 -h 100 --json=c.json",
           "rt_test_version:": "2.5" + E, "start_time": "Wed Dec  2 06:00:00 2026",
           "end_time": "Wed Dec  2 06:00:02 2026", "return_code": 0,
           "sysinfo": {"sysname": "Linux", "nodename": "host" + E + "\u202e", "release": "6.1.0-test",
                       "version": "#1 SMP", "machine": "x86_64", "realtime": 0},
           "num_threads": 1, "resolution_in_ns": 0,
           "thread": {"0": {"histogram": {"3": 1000, "4": 2000, "5": 900, "9": 100}, "cycles": 4000, "min": 3,
                            "max": 9, "avg": 4.3, "cpu": 1, "node": 0}}}, open(sys.argv[1], "w"))
PY
"$RTJ" import cyclictest "$WORK/ct.json" --json "$WORK/base.json" --output "$WORK/store" >"$WORK/import.out" 2>&1
rc=$?
check "the hostile cyclictest file imports (exit 0, got $rc)" [ "$rc" -eq 0 ]

python3 - "$WORK/base.json" "$WORK/evil.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
E = '\x1b]0;pwned\x07\x1b[31m'
d['label'] = 'lab' + E + '\u202eevil\u0085x\x7f\u2066'
d['system']['hostname'] = 'host' + E + '\u202e'
d['warnings'].append('warn' + E + '\u009b2J\u202a')
d['phases'][0]['load_error'] = 'lerr' + E + '\u2069\u0090'
d['complete'], d['incomplete_reason'] = False, 'why' + E + '\u202d'
json.dump(d, open(sys.argv[2], 'w'))
PY
# The base report with another host: compare shows the two host names side by side.
python3 -c "
import json, sys; d = json.load(open(sys.argv[1])); d['system']['hostname'] = 'plain'; d['label'] = 'plain'
json.dump(d, open(sys.argv[2], 'w'))" "$WORK/base.json" "$WORK/plain.json"

"$RTJ" report "$WORK/evil.json" >"$WORK/report.out" 2>&1;                  r1=$?
"$RTJ" report "$WORK/evil.json" --format tap >"$WORK/tap.out" 2>&1;        r2=$?
"$RTJ" compare "$WORK/evil.json" "$WORK/plain.json" >"$WORK/compare.out" 2>&1; r3=$?
mkdir -p "$WORK/fleet/6.1.0-test"
cp "$WORK/evil.json" "$WORK/fleet/6.1.0-test/a.json"
printf 'not json' >"$WORK/fleet/6.1.0-test/bad"$'\e]0;name\a\e[31m'".json"
"$RTJ" compare --matrix --store "$WORK/fleet" >"$WORK/matrix.out" 2>&1;   r4=$?
printf '{"schema": "rtjitter.report/1", "x": \e[31m}' >"$WORK/broken.json"
"$RTJ" report "$WORK/broken.json" >"$WORK/broken.out" 2>&1;              r5=$?
# A verdict profile the parser refuses, quoting an ESC: run stops before measuring anything, with one line.
printf '{"name": \e]0;t\a}' >"$WORK/profile.json"
"$RTJ" run --backend timer --duration 1 --profile "$WORK/profile.json" --output "$WORK/runs" >"$WORK/profile.out" 2>&1
r6=$?
check "report, TAP, compare and compare --matrix exit 0; a broken file and a broken profile exit 2 (got $r1 $r2 $r3 $r4 $r5 $r6)" \
    [ "$r1$r2$r3$r4$r5$r6" = "000022" ]

# What a terminal would act on, byte by byte: C0 but newline and tab, DEL, C1 (U+0080..U+009F), U+202A..U+202E,
# U+2066..U+2069; and bytes that are not UTF-8.
scan() {
    python3 - "$1" <<'PY'
import sys
b = open(sys.argv[1], 'rb').read()
bad = [f"0x{c:02x}" for c in b if (c < 0x20 and c not in (0x0a, 0x09)) or c == 0x7f]
try:
    t = b.decode('utf-8')
except UnicodeDecodeError as e:
    print(f"not UTF-8: {e}"); sys.exit()
bad += [f"U+{ord(c):04X}" for c in t if 0x80 <= ord(c) <= 0x9f or 0x202a <= ord(c) <= 0x202e or 0x2066 <= ord(c) <= 0x2069]
print("controls:", " ".join(sorted(set(bad))) if bad else "none")
PY
}
for f in import report tap compare matrix broken profile; do
    s=$(scan "$WORK/$f.out")
    check "$f: no control a terminal acts on reaches it ($s)" [ "$s" = "controls: none" ]
done
# The visible forms, where each hostile string is shown.
esc='\e]0;pwned\x07\e[31m'
check "report: the label shown visibly" grep -qF "lab$esc\\u202eevil\\u0085x\\x7f\\u2066" "$WORK/report.out"
check "report: the warning shown visibly" grep -qF "warn$esc\\u009b2J\\u202a" "$WORK/report.out"
check "report: the load error shown visibly" grep -qF "lerr$esc\\u2069\\u0090" "$WORK/report.out"
check "report: the reason it is incomplete shown visibly" grep -qF "INCOMPLETE: why$esc\\u202d" "$WORK/report.out"
# (in TAP's YAML block, a backslash is itself escaped: "\\e" reads back as the visible \e)
check "TAP: the reason it is incomplete shown visibly" grep -qF 'why\\e]0;pwned\\x07\\e[31m\\u202d' "$WORK/tap.out"
check "compare: the label shown visibly" grep -qF "lab$esc\\u202eevil\\u0085x\\x7f\\u2066" "$WORK/compare.out"
check "compare: the host name shown visibly, beside the other" grep -qF "host$esc\\u202e → plain" "$WORK/compare.out"
check "compare --matrix: the host name shown visibly" grep -qF "host\\e]0;" "$WORK/matrix.out"
check "compare --matrix: a store file's name shown visibly in its error" grep -qF 'bad\e]0;name\x07\e[31m.json' "$WORK/matrix.out"
check "import: cyclictest's version and host name shown visibly" grep -qF "2.5$esc" "$WORK/import.out"
check "a parser's error quotes the file visibly" grep -qF "near '\\e'" "$WORK/broken.out"
check "... in one line" [ "$(wc -l <"$WORK/broken.out")" -eq 1 ]
check "run's error on a profile quotes it visibly, in one line" \
    [ -n "$(grep -F "near '\\e'" "$WORK/profile.out")" -a "$(wc -l <"$WORK/profile.out")" -eq 1 ]
# The JSON form is the document itself, escaped by jansson: the label comes back byte for byte.
"$RTJ" report "$WORK/evil.json" --format json >"$WORK/evil.out.json"
check "--format json keeps the label as it is (JSON escapes it)" \
    [ "$(json "$WORK/evil.out.json" "d['label'] == json.load(open('$WORK/evil.json'))['label']")" = True ]
