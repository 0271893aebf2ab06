#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-class: quick
# The command line as jackd and cyclictest users type it: short options (-p 128 -r 44100 -D1 -q) reach the run
# (a private server reports what was asked), prefixes and clusters work, a typo gets "did you mean", a value never
# swallows the next option (one line, exit 2 each); the man page made from the option tables is clean for man and
# lexgrog and names every option each --help lists, and so is rtjitter-report(5), which names the report's keys; the
# generated bash completion completes commands, options and --format's choices.
. "$(dirname "$0")/../lib.sh"

# --- short options end to end, on a private server -------------------------------------------------------
if (jack_wait -c 2>/dev/null | grep -q '^running'); then
    ok "# SKIP the private-server run: a default JACK server runs on this machine"
else
    "$RTJ" run -p 128 -r 44100 -qD1 --war 0.3 --loads none -P 60 --json "$WORK/s.json" >"$WORK/s.out" 2>&1; rc=$?
    check "run -p 128 -r 44100 -qD1 --war 0.3 -P 60: exit 0 (got $rc: $(tail -1 "$WORK/s.out"))" [ "$rc" -eq 0 ]
    check "the private server ran at 128 frames, 44100 Hz, priority 60 asked" \
        [ "$(json "$WORK/s.json" "d['audio']['server'], d['audio']['period_frames'], d['audio']['rate'], d['audio']['priority_requested']")" = "private 128 44100 60" ]
    check "-D1 measured one second, --war(mup) 0.3 was the warm-up" \
        [ "$(json "$WORK/s.json" "d['phases'][0]['duration_s'], 0.2 < d['phases'][0]['measured_s'] < 1.5")" = "1.0 True" ]
    check "-q: no table on stdout, only the report path" [ "$(grep -c 'Jitter +/- SD' "$WORK/s.out")" -eq 0 ]
fi

# --- bad command lines: one line, exit 2 ------------------------------------------------------------------
bad() { # DESCRIPTION EXACT-LINE ARGS...
    local desc=$1 want=$2; shift 2
    "$RTJ" "$@" >"$WORK/b.out" 2>"$WORK/b.err"; local rc=$?
    ok_=0; [ "$rc" -eq 2 ] && [ "$(cat "$WORK/b.err")" = "$want" ] && [ ! -s "$WORK/b.out" ] && ok_=1 # all of them: "check ... [ a ] && [ b ]" judged [ a ] alone
    check "$desc: exit 2 (got $rc), the line '$(cat "$WORK/b.err")'" [ "$ok_" = 1 ]
}
bad "a short option's range" "rtjitter run: --period: '7' is not a whole number from 16 to 8192" run -p 7
bad "a typo" "rtjitter run: unknown option '--perod' (did you mean --period?)" run --perod 64
# every run option run --help lists that begins --d (--dma-latency and --duplex came after this line was written:
# its check judged the exit status alone then)
bad "an ambiguous prefix" "rtjitter run: option '--d' is ambiguous: --duration --dsp --dma-latency --device --duplex" run --d 1
bad "a value that is an option" "rtjitter run: -d needs a value (DEV), not the option '-q'" run -d -q
bad "a long option with one dash" "rtjitter run: unknown option '-duration' (did you mean --duration?)" run -duration 5
bad "an unknown short option" "rtjitter run: unknown option '-x' (see rtjitter run --help)" run -x
bad "a mistyped command" "rtjitter: unknown command 'chek' (did you mean check?)" chek
check "-V prints the version" [ "$("$RTJ" -V)" = "rtjitter $(cat "${RTJ_TOP:-.}/VERSION")" ]
check "--version prints the version" [ "$("$RTJ" --version)" = "$("$RTJ" -V)" ]
check "-h in a cluster is help" grep -q '^usage: rtjitter run' <("$RTJ" run -qh)
check "--he(lp) by its prefix" grep -q '^usage: rtjitter check' <("$RTJ" check --he)

# --- the man page -----------------------------------------------------------------------------------------
"$RTJ" --man >"$WORK/rtjitter.1"
"$RTJ" --man-report >"$WORK/rtjitter-report.5"
if command -v man >/dev/null && command -v lexgrog >/dev/null; then
    man --warnings -E UTF-8 -l "$WORK/rtjitter.1" >"$WORK/man.txt" 2>"$WORK/man.err"
    ok_=0; [ ! -s "$WORK/man.err" ] && [ -s "$WORK/man.txt" ] && ok_=1
    check "man --warnings: no warning ($(head -1 "$WORK/man.err"))" [ "$ok_" = 1 ]
    check "lexgrog finds its NAME line" grep -q '"rtjitter - real-time audio jitter tester' <(lexgrog "$WORK/rtjitter.1")
    man --warnings -E UTF-8 -l "$WORK/rtjitter-report.5" >"$WORK/man5.txt" 2>"$WORK/man5.err"
    ok_=0; [ ! -s "$WORK/man5.err" ] && [ -s "$WORK/man5.txt" ] && ok_=1 # all of them: "check ... [ a ] && [ b ]" judged [ a ] alone
    check "rtjitter-report(5): man --warnings: no warning ($(head -1 "$WORK/man5.err"))" [ "$ok_" = 1 ]
    check "rtjitter-report(5): lexgrog finds its NAME line" \
        grep -q '"rtjitter-report - the report of rtjitter' <(lexgrog "$WORK/rtjitter-report.5")
else
    ok "# SKIP man --warnings and lexgrog: man-db is not installed"
fi
for c in run loads report compare check; do
    missing=$("$RTJ" "$c" --help | grep -oE -- '--[a-z][a-z0-9-]+' | sort -u | while read -r o; do
        grep -qF -- "\\fB\\-\\-$(echo "${o#--}" | sed 's/-/\\-/g')\\fR" "$WORK/rtjitter.1" || echo "$o"; done)
    check "man page: every option of rtjitter $c --help is there${missing:+ (missing: $missing)}" [ -z "$missing" ]
done
check "man page: the short options" grep -qF '\fB\-p\fR, \fB\-\-period\fR \fIFRAMES\fR' "$WORK/rtjitter.1"
# rtjitter-report(5) names every key of a report's top level as report_build() writes it (test_report.c checks that
# order against the code) and the system identity's parts.
missing=$(for k in schema tool complete incomplete_reason label started finished command system audio phases warnings \
                   run_stats verdict thresholds profile kernel cpu memory sound.cards audio_servers; do
              grep -qF "\\fB$(echo "$k" | sed 's/-/\\-/g')\\fR (" "$WORK/rtjitter-report.5" || echo "$k"; done)
check "rtjitter-report(5): the report's keys are there${missing:+ (missing: $missing)}" [ -z "$missing" ]

# --- bash completion --------------------------------------------------------------------------------------
"$RTJ" --bash-completion >"$WORK/rtjitter.bash"
complete_words() { # WORDS...: what the completion offers for the last word
    bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _rtjitter; printf "%s\n" "${COMPREPLY[@]}"' \
        _ "$WORK/rtjitter.bash" "$@" | sort | tr '\n' ' '
}
check "completion: the commands" [ "$(complete_words rtjitter c)" = "check compare " ]
check "completion: an option of run by its start" [ "$(complete_words rtjitter run --per)" = "--period " ]
check "completion: a backend option" [ "$(complete_words rtjitter run --npe)" = "--nperiods " ]
check "completion: --format's choices" [ "$(complete_words rtjitter report --format '')" = "html json junit kcidb lava tap text " ]
# the values of --loads, --backend, --profile and watch's --format (issue 35), against the registries' own lists
loads=$("$RTJ" loads --json | python3 -c "import json, sys; print(' '.join(sorted([l['name'] for l in json.load(sys.stdin)] + ['all'])) + ' ')")
echo "# rtjitter loads lists: $loads"
check "completion: --loads offers every load rtjitter loads lists" [ -n "$loads" -a "$(complete_words rtjitter run --loads '')" = "$loads" ]
check "completion: --loads completes the item after the last comma, keeping the list" \
    [ "$(complete_words rtjitter run --loads none,bu)" = "none,burn " -a "$(complete_words rtjitter sweep --loads burn,wr)" = "burn,write " ]
backends=$("$RTJ" run --backend list | awk '/^[a-z]/ {print $1} END {print "list"}' | sort | tr '\n' ' ')
echo "# rtjitter run --backend list lists: $backends"
check "completion: --backend offers the backends --backend list lists (auto among them) and 'list'; run's ladder after a comma" \
    [ "$(complete_words rtjitter run --backend '')" = "$backends" -a "$(complete_words rtjitter run --backend timer,al)" = "timer,alsa " ]
check "completion: --profile offers the built-in profiles (and files)" \
    [ "$(cd "$WORK" && complete_words rtjitter run --profile '')" = "$(cd "$WORK" && { printf '%s\n' live studio; ls -A; } | sort | tr '\n' ' ')" ]
check "completion: watch --format offers text and waybar" [ "$(complete_words rtjitter watch --format '')" = "text waybar " ]
"$RTJ" watch --format xml >/dev/null 2>"$WORK/wf.err"; rc=$?
check "watch --format xml: exit 2, one line naming the choices ($(cat "$WORK/wf.err"))" \
    [ "$rc" -eq 2 -a "$(wc -l <"$WORK/wf.err")" -eq 1 ] && grep -q "waybar" "$WORK/wf.err"
touch "$WORK/a-report.json"
check "completion: a file for --json" [ "$(complete_words rtjitter check --json "$WORK/a-rep")" = "$WORK/a-report.json " ]
