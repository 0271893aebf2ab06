#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-class: quick
# test-timeout: 60
# Human text fits 80 columns (util/wrap.h): on an 80-column terminal (a pty whose size is set with TIOCSWINSZ)
# and on a pipe (no $COLUMNS: 80), no line of `check` (this machine and fixture trees), `--help` (every
# command), `loads`, `report` of a stored run or `compare` of two is wider than 80 columns (code points, colour
# sequences not counted; a line that is one indented word, a report's path longer than a line, is printed whole
# as the wrapper prints any such word). $COLUMNS narrows a pipe's text, and a pty's size wins over it. Every
# command the checklist tells the user to type (found in the --json document's why and fix, which are never
# wrapped) appears whole on one line of the text, or, wider than a line, on lines the shell joins (" \" at their
# ends), so it can be copied. No wrapper mark reaches any output; the JSON forms do not depend on the width.
# Compare's column headers show what tells the runs apart (their labels' ends here).
# The status lines run and sweep redraw in place fit an 80-column pty (a wrapped one is left behind, not redrawn).
. "$(dirname "$0")/../lib.sh"
TOP=${RTJ_TOP:-$PWD}
FIX="$TOP/tests/fixtures"
export XDG_DATA_HOME="$WORK/data"

# two short stored runs of the timer backend (no server), labels that differ only at their ends
for l in "studio kernel before tuning" "studio kernel before tuning, then threadirqs"; do
    "$RTJ" run --backend timer --loads none --duration 0.5 --warmup 0 --label "$l" >"$WORK/run.out" 2>&1 ||
        { not_ok "a timer run for the stored reports: $(tail -n 3 "$WORK/run.out")"; exit 0; }
done
mapfile -t REPS < <(ls "$XDG_DATA_HOME"/rtjitter/reports/*/*.json)
check "two stored runs" [ "${#REPS[@]}" -eq 2 ]

# tty.py WIDTH OUT CMD...: CMD's output on a pty of WIDTH columns (its stdout and stderr), into OUT
cat >"$WORK/ptyrun.py" <<'PY'
import fcntl, os, pty, struct, sys, termios
width, out, cmd = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
pid, fd = pty.fork()
if pid == 0:
    fcntl.ioctl(1, termios.TIOCSWINSZ, struct.pack('HHHH', 24, width, 0, 0))
    os.execvp(cmd[0], cmd)
data = b''
while True:
    try:
        b = os.read(fd, 65536)
    except OSError:
        break
    if not b:
        break
    data += b
os.waitpid(pid, 0)
open(out, 'wb').write(data.replace(b'\r\n', b'\n'))
PY
# widest.py FILE...: the widest line of each file (code points, SGR sequences left out), and the marks found
cat >"$WORK/widest.py" <<'PY'
import re, sys
worst, where = 0, ()
for f in sys.argv[1:]:
    t = open(f, 'rb').read()
    if b'\x1e' in t or b'\x1f' in t:
        print(999); print(f, 'holds a wrapper mark', file=sys.stderr); sys.exit(0)
    for line in re.sub(r'\x1b\[[0-9;]*m', '', t.decode('utf-8')).split('\n'):
        if len(line.split()) == 1 and line.startswith(' '):
            continue  # a word longer than a line (a report's path), printed whole on a line of its own
        if len(line) > worst:
            worst, where = len(line), (f, line)
print(worst)
if worst:
    print(*where, sep=': ', file=sys.stderr)
PY

n=0
run_both() { # NAME CMD...: the output on a pipe and on an 80-column pty
    local name=$1; shift
    env -u COLUMNS "$@" >"$WORK/pipe.$name" 2>&1
    env -u COLUMNS python3 "$WORK/ptyrun.py" 80 "$WORK/tty.$name" "$@"
    n=$((n + 1))
}
run_both check "$RTJ" check
for t in sys-generic sys-bare sys-rt sys-pending sys-lowlatency; do
    run_both "check-$t" "$RTJ" check --root "$FIX/$t" --user musician --json "$WORK/$t.json"
done
run_both help "$RTJ" --help
run_both loads "$RTJ" loads
for c in run sweep loads report compare check import diagnose; do
    run_both "help-$c" "$RTJ" "$c" --help
done
run_both report "$RTJ" report "${REPS[0]}"
run_both compare "$RTJ" compare "${REPS[@]}"
# The status lines run and sweep redraw in place ("\r") on a terminal: on an 80-column pty each stays within 79
# columns (one that wraps is not redrawn: the terminal keeps each wrapped piece, 20 lines of them a phase), and
# still says the run's time left, its xrun events and its worst jitter (the sweep: its grid and time left). Each
# redraw is a piece of the output between "\r"s.
python3 "$WORK/ptyrun.py" 80 "$WORK/status.run" "$RTJ" run --backend timer --allow-no-rt --loads none --duration 0.8 \
    --warmup 0.2 --output "$WORK/st" --label status
python3 "$WORK/ptyrun.py" 80 "$WORK/status.sweep" "$RTJ" sweep --backend timer --allow-no-rt --periods 512 --loads none \
    --duration 0.6s --warmup 0.2s --output "$WORK/st"
read -r nrun wrun nsw wsw said < <(python3 - "$WORK/status.run" "$WORK/status.sweep" <<'PY'
import re, sys
def pieces(f, key):
    t = re.sub(r'\x1b\[K', '', open(f, encoding='utf-8').read())
    return [p for p in re.split(r'[\r\n]', t) if re.search(key, p)]
r, s = pieces(sys.argv[1], r'^\[1/1\] '), pieces(sys.argv[2], r'\[[?*SXsx-]+\].* left')
said = all(re.search(r'run [0-9:]+ left.*xrun events?.*worst jitter [0-9]+ ', p) for p in r)
print(len(r), max(map(len, r), default=0), len(s), max(map(len, s), default=0), int(said and bool(r)))
PY
)
check "run's status line on an 80-column pty: $nrun redraws, each within 79 columns (widest $wrun), with time left, xrun events, worst jitter" \
    [ "${nrun:-0}" -ge 2 -a "${wrun:-99}" -le 79 -a "${said:-0}" = 1 ]
check "sweep's status line on an 80-column pty: $nsw redraws, each within 79 columns (widest $wsw)" \
    [ "${nsw:-0}" -ge 1 -a "${wsw:-99}" -le 79 ]
w=$(python3 "$WORK/widest.py" "$WORK"/pipe.* 2>"$WORK/widest.err")
check "on a pipe, no line of $n outputs is wider than 80 columns (widest $w: $(cat "$WORK/widest.err"))" \
    [ "$w" -le 80 ] 2>/dev/null
w=$(python3 "$WORK/widest.py" "$WORK"/tty.* 2>"$WORK/widest.err")
check "on an 80-column pty, no line of $n outputs is wider than 80 columns (widest $w: $(cat "$WORK/widest.err"))" \
    [ "$w" -le 80 ] 2>/dev/null
check "check wrapped on a pty as on a pipe (the pty's width is read)" \
    [ "$(grep -c . "$WORK/tty.check-sys-generic")" -eq "$(grep -c . "$WORK/pipe.check-sys-generic")" ]
check "the wrapped text is still the checklist: the same words as on a wide pipe" \
    [ "$(sed -z 's/ \\\n */ /g' "$WORK/pipe.check-sys-generic" | tr -s ' \n' '  ')" = \
      "$(COLUMNS=1000 "$RTJ" check --root "$FIX/sys-generic" --user musician | tr -s ' \n' '  ')" ]
COLUMNS=60 "$RTJ" run --help >"$WORK/narrow.help"
w=$(python3 "$WORK/widest.py" "$WORK/narrow.help" 2>/dev/null)
check "COLUMNS=60 on a pipe: run --help fits 60 columns (widest $w)" [ "$w" -le 60 ] 2>/dev/null
COLUMNS=60 python3 "$WORK/ptyrun.py" 100 "$WORK/wide.help" "$RTJ" run --help
check "a pty of 100 columns wins over COLUMNS=60" [ "$(python3 "$WORK/widest.py" "$WORK/wide.help" 2>/dev/null)" -gt 60 ]

# Every command the checklist tells the user to type appears unbroken on one line. The commands are found in
# the JSON (which is never wrapped): from a command's first word to the end of its clause.
python3 - "$WORK" sys-generic sys-bare sys-rt sys-pending sys-lowlatency >"$WORK/cmds.out" <<'PY'
import json, re, sys
work = sys.argv[1]
start = r'(?:sudo |apt install |sysctl |echo |systemctl |cpupower |powerprofilesctl |rtjitter check|lsusb )'
found = missing = 0
for t in sys.argv[2:]:
    d = json.load(open(f'{work}/{t}.json'))
    # a command wider than a line is continued as the shell continues it (" \\" at a line's end): joined so
    text = re.sub(r' \\\n +', ' ', re.sub(r'\x1b\[[0-9;]*m', '', open(f'{work}/pipe.check-{t}').read())).split('\n')
    for c in d['checks']:
        for s in (c['why'] or '', c['fix'] or ''):
            for m in re.finditer(start + r"(?:[^,;()']|'[^']*')*", s):
                cmd = re.split(r' (?:while|then|to keep|shows|ends|keeps|judges|and answer|as the)\b', m.group(0))[0].strip()
                if len(cmd.split()) < 2:
                    continue
                found += 1
                if not any(cmd in line for line in text):
                    missing += 1
                    print(f'broken: {t} {c["id"]}: {cmd!r}')
print(found, missing)
PY
read -r found missing < <(tail -n 1 "$WORK/cmds.out")
check "the checklists tell the user $found commands to type (some at least)" [ "${found:-0}" -ge 10 ]
check "each appears whole on one line ($missing broken: $(head -n 3 "$WORK/cmds.out" | tr '\n' ' '))" [ "${missing:-1}" -eq 0 ]
check "no wrapper mark in a check document" [ "$(cat "$WORK"/sys-*.json | grep -cP '[\x1e\x1f]|\\u001[ef]')" -eq 0 ]

# Compare's headers: the labels' differing ends are visible
check "compare's column headers tell the runs apart" \
    grep -q '\[1\] [^[]*tuning.*\[2\] [^[]*threadirqs' "$WORK/pipe.compare"

# The machine forms do not depend on the width
for fmt in json; do
    COLUMNS=40 "$RTJ" report "${REPS[0]}" --format "$fmt" >"$WORK/narrow.$fmt" 2>&1
    COLUMNS=300 "$RTJ" report "${REPS[0]}" --format "$fmt" >"$WORK/wide.$fmt" 2>&1
    check "report --format $fmt: the same at 40 and 300 columns" cmp -s "$WORK/narrow.$fmt" "$WORK/wide.$fmt"
done
COLUMNS=40 "$RTJ" check --root "$FIX/sys-generic" --user musician --json "$WORK/n.json" >/dev/null
COLUMNS=300 "$RTJ" check --root "$FIX/sys-generic" --user musician --json "$WORK/w.json" >/dev/null
check "check --json: the same at 40 and 300 columns (but for its time stamps)" \
    [ "$(json "$WORK/n.json" "d['checks']")" = "$(json "$WORK/w.json" "d['checks']")" ]
