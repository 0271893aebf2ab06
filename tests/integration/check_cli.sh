#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-class: quick
# `rtjitter check` end to end: on a fixture tree (--root) its statuses, values and fixes are the tree's own
# (tests/fixtures/make-fixtures.py wrote them), the text is grouped in the checklist's order, coloured only on a
# terminal without NO_COLOR, --json writes the checklist document, --quiet keeps WARN and FAIL; exit 0 with no
# FAIL, 1 with one (an unprivileged login without real-time limits), 2 with one line for bad usage; and on this
# machine it runs through without a crash.
. "$(dirname "$0")/../lib.sh"
TOP=${RTJ_TOP:-$PWD}
FIX="$TOP/tests/fixtures"
# The check text with its wrapped lines joined again (util/wrap.h: a status line continues under its title at 8
# spaces, a fix under its text at 13, a command wider than a line with " \\" and 15)
unwrap() { python3 -c 'import re,sys; t=open(sys.argv[1]).read(); t=re.sub(r" \\\n +", " ", t)
t=re.sub(r"\n {13}(?! )", " ", t); sys.stdout.write(re.sub(r"\n {8}(?!fix: | )", " ", t))' "$1"; }

# --- a fixture tree: what the tree is, read back --------------------------------------------------
"$RTJ" check --root "$FIX/sys-generic" --user musician --dir "/media/musician/USB STICK/takes" \
    --json "$WORK/g.json" >"$WORK/g.txt" 2>"$WORK/g.err"; rc=$?
# musician's login: as root, predicted as PAM gives it (the tree grants musician nothing: FAIL); as another
# user, that user's own login. Exit 1 exactly when a check failed.
check "sys-generic: exit 1 exactly when a check failed (got $rc)" [ "$rc" -eq "$(json "$WORK/g.json" "int(d['summary']['fail'] > 0)")" ]
if [ "$(id -u)" -eq 0 ]; then
    check "as root, --user musician: musician's next login is judged (predicted), not root's" \
        [ "$(json "$WORK/g.json" "d['process']['user'], d['process']['euid'], d['process']['login']['predicted'], d['process']['login']['how']")" = "musician 1000 True --user" ]
fi
check "sys-generic: nothing on stderr" [ ! -s "$WORK/g.err" ]
check "the document is rtjitter.checks/1 with one entry per check" \
    [ "$(json "$WORK/g.json" "d['schema'], len(d['checks']) >= 30, d['tool']['name']")" = "rtjitter.checks/1 True rtjitter" ]
check "its summary counts its statuses" [ "$(json "$WORK/g.json" "all(d['summary'][s] == sum(c['status'] == s
    for c in d['checks']) for s in ('ok', 'warn', 'fail', 'skip'))")" = True ]
check "the identity, set-up and process are recorded apart" \
    [ "$(json "$WORK/g.json" "d['system']['hostname'], d['setup']['user']['name'], 'setup' in d['system'], \
d['process']['euid'] in ($(id -u), 1000)")" = "studio-laptop musician False True" ]
status() { json "$WORK/g.json" "[c['status'] for c in d['checks'] if c['id'] == '$1'][0]"; }
fix() { json "$WORK/g.json" "[c['fix'] for c in d['checks'] if c['id'] == '$1'][0]"; }
# The tree's truths: boost on (no_turbo 0), a Scarlett on autosuspend at 1-1, TLP's default codec power saving,
# musician not in audio, a FAT stick for the takes, XHCI on its own line.
check "boost: warn, with the intel_pstate fix" [ "$(status boost) $(fix boost)" = \
    "warn echo 1 | sudo tee /sys/devices/system/cpu/intel_pstate/no_turbo (while you play; TLP: CPU_BOOST_ON_AC=0)" ]
check "usb_autosuspend: warn on device 1-1" grep -q "echo on | sudo tee /sys/bus/usb/devices/1-1/power/control" \
    <(fix usb_autosuspend)
check "tlp: warn on TLP's default SOUND_POWER_SAVE_ON_AC=1" [ "$(status tlp)" = warn ]
check "limits_files: usermod -aG audio musician" grep -q "^sudo usermod -aG audio musician, then log out and in again" \
    <(fix limits_files)
check "filesystems: the FAT stick (its space read back from \\040)" \
    grep -q '/media/musician/USB STICK/takes is on vfat' <(json "$WORK/g.json" "[c['why'] for c in d['checks'] if c['id'] == 'filesystems'][0]")
check "usb_irq: ok" [ "$(status usb_irq)" = ok ]
check "OK and SKIP carry no fix" [ "$(json "$WORK/g.json" "all((c['fix'] is None) == (c['status'] in ('ok', 'skip'))
    for c in d['checks'])")" = True ]
# Grouped text, in the checklist's order, every check once with its title.
groups=$(grep -E '^[A-Z]' "$WORK/g.txt" | grep -v '^rtjitter' | tr '\n' '|')
check "text groups in order ($groups)" [ "$groups" = "Privileges|Kernel|CPU|Memory and disks|IRQs|Audio stack|Power|" ]
check "text: one status line per check" [ "$(grep -cE '^  (OK|WARN|FAIL|SKIP)  ' "$WORK/g.txt")" -eq \
    "$(json "$WORK/g.json" "len(d['checks'])")" ]
check "text: each WARN is followed by its fix" [ "$(grep -A1 -E '^  WARN  ' <(unwrap "$WORK/g.txt") | grep -c '^        fix: ')" -eq \
    "$(json "$WORK/g.json" "d['summary']['warn']")" ]
check "text: the count at the end" grep -qE '^[0-9]+ checks: [0-9]+ OK, [0-9]+ WARN, [0-9]+ FAIL, [0-9]+ SKIP$' "$WORK/g.txt"
check "not a terminal: no colour" [ "$(grep -c $'\033' "$WORK/g.txt")" -eq 0 ]
# On a terminal (script gives one): coloured, unless NO_COLOR is set.
if command -v script >/dev/null; then
    script -qec "$RTJ check --root $FIX/sys-generic --user musician" /dev/null >"$WORK/tty.txt" 2>&1
    check "a terminal: coloured (WARN in yellow)" grep -q $'\033\\[33mWARN' "$WORK/tty.txt"
    NO_COLOR=1 script -qec "$RTJ check --root $FIX/sys-generic --user musician" /dev/null >"$WORK/nc.txt" 2>&1
    check "a terminal with NO_COLOR: plain" [ "$(grep -c $'\033\\[' "$WORK/nc.txt")" -eq 0 ]
else
    ok "# SKIP colour on a terminal: no script(1)"
fi
"$RTJ" check -q --root "$FIX/sys-generic" --user musician --dir "/media/musician/USB STICK/takes" >"$WORK/q.txt"
check "--quiet: only WARN and FAIL lines" [ "$(grep -cE '^  (OK|SKIP)  ' "$WORK/q.txt"),$(grep -cE '^  WARN  ' "$WORK/q.txt")" = \
    "0,$(json "$WORK/g.json" "d['summary']['warn']")" ]

# --- every fixture tree runs through; the bare one SKIPs every check that reads files ------------------
for t in "$FIX"/sys-*; do
    "$RTJ" check --root "$t" --user musician --json "$WORK/t.json" >/dev/null 2>"$WORK/t.err"; rc=$?
    [ "$rc" -le 1 ] && [ ! -s "$WORK/t.err" ] || { not_ok "$(basename "$t"): exit $rc: $(head -1 "$WORK/t.err")"; continue; }
    ok "$(basename "$t"): exit $rc, $(json "$WORK/t.json" "' '.join('%s %d' % (k, v) for k, v in d['summary'].items())")"
done
"$RTJ" check --root "$FIX/sys-bare" --user musician --json "$WORK/t.json" >/dev/null
# The privileges judge this process, not the tree; everything else SKIPs with its reason.
check "sys-bare: every check of the tree SKIPs, with a reason" [ "$(json "$WORK/t.json" "all(c['status'] == 'skip' and c['why']
    for c in d['checks'] if c['id'] not in ('root', 'rtprio', 'memlock', 'sched_fifo'))")" = True ]

# --- a FAIL is exit 1: an unprivileged login without real-time limits -----------------------------------
chmod 0755 "$WORK"
mkdir -m 0777 "$WORK/nobody"
setpriv --reuid=65534 --regid=65534 --clear-groups prlimit --rtprio=0 --memlock=65536 -- \
    "$RTJ" check --root "$FIX/sys-generic" --json "$WORK/nobody/n.json" >"$WORK/n.txt" 2>&1; rc=$?
check "nobody without limits: exit 1 (got $rc)" [ "$rc" -eq 1 ]
check "nobody: rtprio, memlock and sched_fifo FAIL" [ "$(json "$WORK/nobody/n.json" "' '.join(c['status'] for c in d['checks']
    if c['id'] in ('rtprio', 'memlock', 'sched_fifo'))")" = "fail fail fail" ]

# --- bad usage: one line, exit 2 ------------------------------------------------------------------------
bad() { # DESCRIPTION WANTED-TEXT ARGS...
    local desc=$1 want=$2; shift 2
    "$RTJ" check "$@" >"$WORK/b.out" 2>"$WORK/b.err"; local rc=$?
    ok_=0; [ "$rc" -eq 2 ] && [ "$(wc -l <"$WORK/b.err")" -eq 1 ] && grep -qF -- "$want" "$WORK/b.err" && [ ! -s "$WORK/b.out" ] && ok_=1 # all of them: "check ... [ a ] && [ b ]" judged [ a ] alone
    check "$desc: exit 2, one line (got $rc: $(head -1 "$WORK/b.err"))" [ "$ok_" = 1 ]
}
bad "an unknown option" "unknown option '--bogus'" --bogus
bad "a typo" "did you mean --json?" --jsno x
bad "an argument" "unexpected argument 'now'" now
bad "--root that does not exist" "--root: /nonexistent/rtj: No such file or directory" --root /nonexistent/rtj
bad "--dir that is a file" "--dir: /etc/passwd: not a directory" --dir /etc/passwd
bad "--json into a directory that does not exist" "cannot write /nonexistent/rtj/x.json" --json /nonexistent/rtj/x.json
bad "--json without its value" "--json needs a value (FILE), not the option '-q'" --json -q

bad "--user naming nobody" "rtjitter check: --user: no user nosuchuser on this system (/etc/passwd)" --user nosuchuser
bad "--user naming nobody in the tree" "--user: no user nosuchuser on this system ($FIX/sys-generic/etc/passwd)" \
    --root "$FIX/sys-generic" --user nosuchuser
bad "--user with shell metacharacters, quoted in the message" "--user: no user 'a;touch X' on this system" --user 'a;touch X'

# --- the attack: a user whose name is shell code, on a tree whose /etc/passwd and /etc/group hold it ----------------
EVIL='a;touch X'
mkdir -p "$WORK/evil/etc"
cp -r "$FIX/sys-generic/etc/security" "$WORK/evil/etc/"
printf 'root:x:0:0:root:/root:/bin/bash\n%s:x:1001:1001::/home/evil:/bin/bash\n' "$EVIL" >"$WORK/evil/etc/passwd"
printf 'root:x:0:\naudio:x:29:\n' >"$WORK/evil/etc/group"
RTJ_ABS=$(cd "$(dirname "$RTJ")" && pwd)/$(basename "$RTJ")
mkdir "$WORK/run-here"
(cd "$WORK/run-here" && "$RTJ_ABS" check --root "$WORK/evil" --user "$EVIL" --json "$WORK/evil.json") >"$WORK/evil.txt" 2>&1
efix=$(json "$WORK/evil.json" "[c['fix'] for c in d['checks'] if c['id'] == 'limits_files'][0]")
cmd=${efix%%, then *}
echo "# the printed fix: $efix"
check "the fix quotes the name: sudo usermod -aG audio 'a;touch X'" [ "$cmd" = "sudo usermod -aG audio 'a;touch X'" ]
check "sh -n accepts the printed command" sh -n -c "$cmd"
check "parsed by sh, it is 5 words, the last the whole name" [ "$(cd "$WORK/run-here" && sh -c "set -- $cmd; echo \$#; printf '%s' \"\$5\"")" = "5
$EVIL" ]
check "parsed by bash, the same" [ "$(cd "$WORK/run-here" && bash -c "set -- $cmd; echo \$#; printf '%s' \"\$5\"")" = "5
$EVIL" ]
check "the text prints the same quoted command" grep -qF "fix: sudo usermod -aG audio 'a;touch X', then" <(unwrap "$WORK/evil.txt")
(cd "$WORK/run-here" && SUDO_USER="$EVIL" "$RTJ_ABS" check --root "$WORK/evil" --json "$WORK/evil2.json") >/dev/null 2>&1
if [ "$(id -u)" -eq 0 ]; then
    rfix=$(json "$WORK/evil2.json" "[c['fix'] for c in d['checks'] if c['id'] == 'root'][0]")
    check "under sudo for that name: run rtjitter as 'a;touch X', without sudo" [ "$rfix" = "run rtjitter as 'a;touch X', without sudo" ]
fi
check "nothing was run: no file X" [ ! -e "$WORK/run-here/X" ]

# --- a recording place on a pseudo-filesystem or in memory: WARN ---------------------------------------
for d in /proc /sys /dev/shm; do
    [ -d "$d" ] || continue
    "$RTJ" check --dir "$d" --json "$WORK/d.json" >/dev/null 2>&1
    fs=$(json "$WORK/d.json" "[c['status'] + ' ' + c['why'] for c in d['checks'] if c['id'] == 'filesystems'][0]")
    check "--dir $d: WARN, a pseudo-filesystem or memory ($fs)" \
        grep -qE "^warn $d is on .*(a pseudo-filesystem of the kernel|a filesystem in memory)" <<<"$fs"
done

# --- this machine ---------------------------------------------------------------------------------------
"$RTJ" check --json "$WORK/m.json" >"$WORK/m.txt" 2>"$WORK/m.err"; rc=$?
check "this machine: exit 0 or 1 (got $rc), nothing on stderr" holds '[ "$rc" -le 1 ] && [ ! -s "$WORK/m.err" ]'
check "this machine: exit 1 exactly when a check failed" [ "$(json "$WORK/m.json" "int(d['summary']['fail'] > 0)")" -eq "$rc" ]
check "this machine: the SCHED_FIFO try is recorded" [ "$(json "$WORK/m.json" "d['process']['sched_fifo']['priority']")" = 70 ]
