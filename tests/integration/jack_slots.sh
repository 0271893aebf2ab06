#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-timeout: 300 (32 jackd start-ups, 24 of them 8 at a time)
# jack2's 8 server slots filled by SIGKILLed servers (util/jackreg.h): jack2 frees a dead server's slot only when a
# server of the same name starts, so killed servers of names used once hold theirs until reboot, and then no jackd
# starts ("Too many servers already active"; seen after a day of killed runs: `make check` failed 21 tests as
# "jackd did not take clients in 10 s"). In a world of its own (a mount and IPC namespace with a fresh /dev/shm:
# its own registry and jack2's lock, so the machine's servers and tests are never short of a slot), as root:
# - 8 SIGKILLed servers of names neither rtjitter's nor the suite's: `rtjitter run` exits 3 at once with one line
#   saying the registry is full and the command that frees the dead ones; the suite's start_jackd says the same
#   (tests/helpers/jack_registry.py why), and the runner stops at once (exit 2) saying so; `rtjitter check` gives
#   FAIL with the command; that command, run by the test, frees all 8 (the observer: jack_registry.py, its own
#   reading of the registry); then the run completes.
# - 8 SIGKILLed rtjitter private servers of dead runs, and one of a live rtjitter (this test's shell as its PID):
#   `rtjitter check` frees the 8 (and says so) and keeps the live one's; filled again, `rtjitter run` frees them and
#   completes, its own server's slot freed at its end.
if [ -z "${RTJ_JS_NS:-}" ] && [ "$(id -u)" -eq 0 ] && command -v unshare >/dev/null &&
    unshare -m -i --propagation private true 2>/dev/null; then
    RTJ_JS_NS=1 exec unshare -m -i --propagation private "$BASH" "$0" "$@"
fi
. "$(dirname "$0")/../lib.sh"
[ "$(id -u)" -eq 0 ] || { ok "# SKIP not root: a world of its own (unshare -m -i) needs root"; exit 0; }
[ -n "${RTJ_JS_NS:-}" ] || { ok "# SKIP no mount and IPC namespace of its own (unshare -m -i)"; exit 0; }
mount -t tmpfs -o mode=1777,size=512m tmpfs /dev/shm || { not_ok "a fresh /dev/shm in this namespace"; exit 0; }
unset RTJ_JACK_SLOTS JACK_DEFAULT_SERVER # the suite's slot sharing is for the machine's registry, not this one
REG="$RTJ_LIB_DIR/helpers/jack_registry.py"
taken() { python3 "$REG" taken; }
held_names() { python3 "$REG" list | awk '{print $NF}' | sort | tr '\n' ' '; }

# fill NAME...: one jackd per name, all started at once (one at a time made 24 of the test's 32 start-ups in a row),
# each killed with SIGKILL once it takes clients (its slot stays held); one that exits first could not start.
fill() {
    local i pids=() names=("$@")
    for i in "${!names[@]}"; do
        # at most 16 ports: 38 MB of /dev/shm each instead of 103 (eight of those at once outgrew this world's
        # 512 MB /dev/shm, and jackd died of SIGBUS); 0.2 s apart (the slots then mostly in the order given: never relied on)
        jackd -n "${names[$i]}" -p 16 -d dummy -r 48000 -p 1024 >"$WORK/fill-$i.log" 2>&1 &
        pids+=($!)
        sleep 0.2
    done
    for i in "${!names[@]}"; do
        for _ in $(seq 100); do
            (jack_wait -s "${names[$i]}" -c 2>/dev/null | grep -q '^running') 2>/dev/null && break
            kill -0 "${pids[$i]}" 2>/dev/null || break # it could not start: the registry is full
            sleep 0.1
        done
    done
    kill -KILL "${pids[@]}" 2>/dev/null; wait "${pids[@]}" 2>/dev/null
}
# names_in TEXT: each of the 8 names is in TEXT, in any order: the jackd's start 0.2 s apart, but a busy machine let
# a later one take its slot first (ci31)
names_in() { local n; for n in "${names[@]}"; do [[ "$1" == *"$n"* ]] || return 1; done; }
rtj_run() { # NAME: a short run on a private server; rc, its time in ms and its stderr ($WORK/NAME.err)
    local t0; t0=$(date +%s%N)
    "$RTJ" run --loads none --duration 1 --warmup 0.3 --quiet --output "$WORK/store" >"$WORK/$1.out" 2>"$WORK/$1.err"
    rc=$?; ms=$(( ($(date +%s%N) - t0) / 1000000 ))
}

# --- 8 dead servers of names neither rtjitter's nor the suite's --------------------------------------------------
names=(); for i in $(seq 8); do names+=("other-safety-$$-$i"); done
fill "${names[@]}"
check "8 SIGKILLed servers hold the 8 slots ($(taken) held: $(held_names))" [ "$(taken)" -eq 8 ]
rtj_run full
check "a run with the registry full: exit 3 (got $rc) within 5 s (${ms} ms), not a 10 s wait" \
    holds '[ "$rc" -eq 3 ] && [ "$ms" -lt 5000 ]'
check "... its error is one line naming the full registry and how to free it ($(head -c 300 "$WORK/full.err"))" \
    holds '[ "$(err_lines "$WORK/full.err")" -eq 1 ] && grep -q "registry of servers is full (8 of 8 slots, 8 held by dead servers" "$WORK/full.err" && names_in "$(sed -n "s/.*free the dead ones with: for n in \([^;]*\);.*/\1/p" "$WORK/full.err")"'
# the test suite's own words: lib.sh's start_jackd, and the runner
start_jackd "rtjt-$TESTNAME-$$-more" >"$WORK/sj.out" 2>&1; sjrc=$?
check "the suite's start_jackd fails, saying why: the registry, what holds it, the command ($(grep "jack2's registry" "$WORK/sj.out" | head -c 200))" \
    holds '[ "$sjrc" -ne 0 ] && grep -q "^# jack2.s registry: 8 of 8 slots held (no JACK server can start: \"Too many servers already active\"): dead other-safety-$$-[1-8] (uid 0, pid [0-9]*), .*; free the dead ones with: python3 .*jack_registry.py reclaim other-safety-$$-" "$WORK/sj.out" && names_in "$(sed -n "s/.*jack_registry.py reclaim //p" "$WORK/sj.out")"'
mkdir -p "$WORK/b/tests"; ln -s "$RTJ_HELPERS" "$WORK/b/tests/helpers"
t0=$(date +%s)
(cd "${RTJ_TOP:-$PWD}" && BUILD="$WORK/b" TESTS='^no-such-test$' RTJ_TEST_IDLE=1 tests/run-tests.sh) >"$WORK/rt.out" 2>"$WORK/rt.err"; rtrc=$?
check "the runner stops at once (exit $rtrc, $(( $(date +%s) - t0 )) s), saying why ($(head -c 160 "$WORK/rt.err"))" \
    holds '[ "$rtrc" -eq 2 ] && [ $(( $(date +%s) - t0 )) -lt 20 ] && grep -q "^run-tests: no JACK server can start here, so the JACK tests cannot run: jack2.s registry: 8 of 8 slots held" "$WORK/rt.err"'
"$RTJ" check --json "$WORK/check.json" >"$WORK/check.out" 2>&1; crc=$?
line=$(python3 -c "import json,sys; c=[c for c in json.load(open(sys.argv[1]))['checks'] if c['id']=='jack_registry'][0]; print(c['status'], c['why'])" "$WORK/check.json" 2>&1)
check "check: exit 1, the registry FAILs, naming the dead servers ($line)" \
    holds '[ "$crc" -eq 1 ] && [[ "$line" == "fail 8 of 8 held: dead other-safety-$$-"[1-8]" (uid 0, pid "* ]] && names_in "$line"'
cmd=$(python3 -c "import json,sys; f=[c for c in json.load(open(sys.argv[1]))['checks'] if c['id']=='jack_registry'][0]['fix']; print(f[f.index(': ')+2:])" "$WORK/check.json" 2>"$WORK/py.err")
check "check's fix is the command (${cmd:0:120}...)" holds '[[ "$cmd" == "for n in other-safety-$$-"* ]] && names_in "${cmd%%;*}"'
bash -c "$cmd" >"$WORK/cmd.out" 2>&1
check "that command, run, frees all 8 slots (now $(taken) held: $(held_names))" [ "$(taken)" -eq 0 ]
rtj_run after
check "then the run completes (exit $rc; $(err_first "$WORK/after.err"))" [ "$rc" -eq 0 ]

# --- 8 dead rtjitter servers, and a live rtjitter's -------------------------------------------------------------
deadrtj() { (exit 0) & local p=$!; wait $p; echo $p; } # the PID of an rtjitter that is gone
fill_rtj() { local i n=(); for i in $(seq "$1"); do n+=("rtjitter-$(deadrtj)-$(printf '%08x' $((RANDOM * 65536 + RANDOM)))-server"); done; fill "${n[@]}"; }
fill_rtj 8
check "8 SIGKILLed private servers of dead rtjitter runs hold the 8 slots ($(taken))" [ "$(taken)" -eq 8 ]
"$RTJ" check >"$WORK/check2.out" 2>&1
check "check frees them first and says so ($(grep -A2 "Free server slots" "$WORK/check2.out" | tr -s ' \n' ' '))" \
    holds '[ "$(taken)" -eq 0 ] && grep -A2 "Free server slots" "$WORK/check2.out" | tr -s " \n" " " | grep -q "8 held by dead rtjitter servers were freed first"'
live="rtjitter-$$-0badf00d-server"   # this shell lives: an rtjitter that lives may start its server again
fill "$live"
"$RTJ" check >"$WORK/check3.out" 2>&1
check "... never a live rtjitter's ($(held_names))" [ "$(held_names)" = "$live " ]
fill_rtj 7 # beside the live one's: the registry is full again
check "filled again: $(taken) held" [ "$(taken)" -eq 8 ]
rtj_run reclaim
check "a run frees the dead rtjitter servers' slots and completes (exit $rc; $(err_first "$WORK/reclaim.err"))" [ "$rc" -eq 0 ]
check "... and its own server's slot is free after it: only the live rtjitter's is held ($(held_names))" \
    [ "$(held_names)" = "$live " ]
