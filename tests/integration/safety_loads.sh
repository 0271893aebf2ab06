#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-lock: passwd (useradd and userdel take /etc/passwd's lock: one such test at a time)
# The loads' safety promises (rtjitter(1), SAFETY), each checked by its attack on real runs:
#  - a --tmpdir another user could rename entries in is refused (exit 2, one line), as root and as a normal user,
#    while that user keeps swapping any load directory for a symlink to a victim directory; in a root-owned
#    sticky directory the same attacker can do nothing and the normal user's run works;
#  - a load directory swapped for a symlink mid-run (in a tmpdir we accept only root could): nothing outside goes;
#  - exec: a command that starts a daemon with a child of its own ends with its phase (cgroup and process groups);
#  - the load supervisor killed by SIGKILL mid-phase: every load process and file is gone, the report says why;
#  - memload under a memory cgroup too tight to take anything says so in load_error.
# Every run is watched from outside (load_watch): its exit status, and no process left, nor a file.
. "$(dirname "$0")/../lib.sh"

if [ "$(id -u)" -ne 0 ]; then
    ok "# SKIP safety_loads: needs root (test users, a memory cgroup)"
    exit 0
fi
# Set to 1 once run.c polls load_plan_alive() and calls load_plan_abort() (issue 9, the run's side): a killed
# supervisor then ends the run at once with exit 3 and an incomplete report.
RUN_WATCHES_SUPERVISOR=${RUN_WATCHES_SUPERVISOR:-1}

ATT=rtjt-att-$$ VIC=rtjt-vic-$$
ATTACK_PIDS=()
TIGHT_CG=
cleanup() {
    local p t u
    for p in "${ATTACK_PIDS[@]}"; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
    if [ -n "$TIGHT_CG" ] && [ -d "$TIGHT_CG" ]; then
        while read -r t; do echo "$t" >"$TIGHT_CG/../cgroup.procs"; done <"$TIGHT_CG/cgroup.procs" 2>/dev/null
        rmdir "$TIGHT_CG"
    fi
    for u in "$ATT" "$VIC"; do # an attacker's last `sleep 0.005` may still be ending
        for _ in 1 2 3 4 5; do id "$u" >/dev/null 2>&1 || break; userdel "$u" 2>/dev/null || sleep 0.2; done
    done
    cleanup_lib
}
trap cleanup EXIT
trap 'exit 143' TERM INT HUP # through cleanup too
useradd -M -N -r -s /bin/sh "$ATT" && useradd -M -N -r -s /bin/sh "$VIC" || { not_ok "test users created"; exit 0; }
# Commands as a test user: setpriv execs the command, so a PID taken with $! is the command's own.
AS_ATT=(setpriv --reuid="$(id -u "$ATT")" --regid="$(id -g "$ATT")" --clear-groups)
AS_VIC=(setpriv --reuid="$(id -u "$VIC")" --regid="$(id -g "$VIC")" --clear-groups)
chmod 755 "$WORK"                        # the test users reach their directories through it
mkdir -p "$WORK/bin" "$WORK/vic" "$WORK/attlog"
# The test user runs a copy (with the data it looks for beside it): the checkout may be closed to other users.
cp "$RTJ" "$WORK/bin/rtjitter" && cp -r "${RTJ_TOP:-.}/data" "$WORK/bin/" && chmod -R a+rX "$WORK/bin"
chown "$VIC" "$WORK/vic"
chown "$ATT" "$WORK/attlog"
RUN_VIC=("${AS_VIC[@]}" env HOME="$WORK/vic" XDG_DATA_HOME="$WORK/vic/xdg" TMPDIR="$WORK/vic" "$WORK/bin/rtjitter")

# The cgroup v2 directory of this test (and so of the rtjitter it starts), where a run makes rtjitter-loads-PID.
own2=$(awk -F: '$1 == "0" {print $3; exit}' /proc/self/cgroup)
mnt() { awk -v want="$1" '{ for (i = 7; i < NF; i++) if ($i == "-") { t = $(i + 1); o = $(i + 3); break }
    if (t == want && (want == "cgroup2" || o ~ /(^|,)memory(,|$)/)) { print $5; exit } }' /proc/self/mountinfo; }
v2=$(mnt cgroup2)
no_run_cgroup() { [ -z "$v2" ] || [ ! -e "$v2$own2/rtjitter-loads-$(watched pid)" ]; }

name=$(server_name safe)
start_jackd "$name" 48000 256 || { not_ok "jackd starts"; exit 0; }
watched() { sed -n "s/^$1 //p" "$WORK/watch"; }
LOADS="compile:units=2+write:mb=2+exec:echo out; sleep 100"

# A victim directory outside the tmpdir, holding what the load directories would hold.
make_victim() { # DIR OWNER
    mkdir -p "$1/0-compile" "$1/0-exec" "$1/0-write"
    local f
    for f in keep 0-compile/u0.c 0-exec/output.log 0-write/data; do echo "keep $f" >"$1/$f"; done
    chown -R "$2" "$1"
}
victim_sum() { (cd "$1" && find . -printf '%p %s %m %u\n' | sort && cat keep 0-compile/u0.c 0-exec/output.log 0-write/data) | md5sum; }
# As the attacker: swap every load directory that appears in DIR for a symlink to VICTIM, log each success.
attack() { # DIR VICTIM LOG
    "${AS_ATT[@]}" bash -c 'while :; do for d in "$1"/rtjitter-loads.*; do
        if [ -d "$d" ] && [ ! -L "$d" ] && mv "$d" "$d.moved" 2>/dev/null; then
            ln -s "$2" "$d" && echo "swapped $d" >>"$3"; fi; done; sleep 0.005; done' _ "$1" "$2" "$3" &
    ATTACK_PIDS+=($!)
}
stop_attack() { local p=${ATTACK_PIDS[-1]}; kill "$p"; wait "$p" 2>/dev/null; unset 'ATTACK_PIDS[-1]'; }
# refused TEXT: the run exited 2 with one line on stderr holding TEXT, and left no process.
refused() { [ "$(watched status) $(watched left)" = "2 0" ] && [ "$(wc -l <"$WORK/err")" -eq 1 ] && grep -qF -- "$1" "$WORK/err"; }

# --- 1. A tmpdir another user owns (a shared 1777 directory of theirs) -----------------------------------
shared="$WORK/shared"
mkdir "$shared" && chown "$ATT" "$shared" && chmod 1777 "$shared"
make_victim "$WORK/victim" root
sum0=$(victim_sum "$WORK/victim")
attack "$shared" "$WORK/victim" "$WORK/attlog/shared"
"$RTJ_HELPERS/load_watch" -- "$RTJ" run --server "$name" --loads "$LOADS" --duration 1 --warmup 0.5 \
    --tmpdir "$shared" --quiet >"$WORK/watch" 2>"$WORK/err"
echo "# root, $shared (owner $ATT, 1777): $(cat "$WORK/err")"
check "root, tmpdir owned by another user: exit 2, one line naming --tmpdir, no process left" \
    refused "--tmpdir $shared is owned by another user"
check "root, tmpdir owned by another user: victim untouched, tmpdir empty" \
    [ "$(victim_sum "$WORK/victim")" = "$sum0" -a -z "$(ls -A "$shared")" ]
# The same as a normal user.
make_victim "$WORK/vic/victim" "$VIC"
vsum0=$(victim_sum "$WORK/vic/victim")
"$RTJ_HELPERS/load_watch" -- "${RUN_VIC[@]}" run --allow-no-rt --loads "$LOADS" --duration 1 --warmup 0.5 --tmpdir "$shared" \
    --quiet >"$WORK/watch" 2>"$WORK/err"
echo "# $VIC, $shared: $(cat "$WORK/err")"
check "normal user, tmpdir owned by another user: exit 2, one line naming --tmpdir, no process left" \
    refused "--tmpdir $shared is owned by another user"
check "normal user, tmpdir owned by another user: their victim untouched, tmpdir empty" \
    [ "$(victim_sum "$WORK/vic/victim")" = "$vsum0" -a -z "$(ls -A "$shared")" ]
stop_attack

# --- 2. A tmpdir writable by everyone without the sticky bit ---------------------------------------------
open="$WORK/open"
mkdir "$open" && chmod 0777 "$open"
attack "$open" "$WORK/victim" "$WORK/attlog/open"
"$RTJ_HELPERS/load_watch" -- "$RTJ" run --server "$name" --loads "$LOADS" --duration 1 --warmup 0.5 \
    --tmpdir "$open" --quiet >"$WORK/watch" 2>"$WORK/err"
echo "# root, $open (0777): $(cat "$WORK/err")"
check "root, tmpdir writable by all and not sticky: exit 2, one line naming --tmpdir, no process left" \
    refused "--tmpdir $open is writable by everyone and not sticky"
check "root, tmpdir writable by all and not sticky: victim untouched, tmpdir empty" \
    [ "$(victim_sum "$WORK/victim")" = "$sum0" -a -z "$(ls -A "$open")" ]
stop_attack

# --- 3. A root-owned sticky directory (like /tmp): the attacker can swap nothing, the normal user's run works
sticky="$WORK/sticky"
mkdir "$sticky" && chmod 1777 "$sticky"
attack "$sticky" "$WORK/vic/victim" "$WORK/attlog/sticky"
"$RTJ_HELPERS/load_watch" -- "${RUN_VIC[@]}" run --allow-no-rt --loads "$LOADS" --duration 1.5 --warmup 0.5 --tmpdir "$sticky" \
    --quiet --json "$WORK/vic/r.json" >"$WORK/watch" 2>"$WORK/err"
stop_attack
echo "# $VIC, $sticky (root, 1777): $(grep -v '^report' "$WORK/watch" | tr '\n' ' ') $(json "$WORK/vic/r.json" \
    "[(m['name'], round(m['value'])) for m in d['phases'][0]['load_metrics']], d['phases'][0]['load_error']" 2>/dev/null) $(cat "$WORK/err")"
check "normal user, root's sticky tmpdir under attack: exit 0, the loads ran without error" [ "$(watched status) \
$(json "$WORK/vic/r.json" "d['phases'][0]['load_error'] is None and len(d['phases'][0]['load_metrics']) >= 4")" = "0 True" ]
check "normal user, root's sticky tmpdir: the attacker swapped nothing ($(cat "$WORK/attlog/sticky" 2>/dev/null))" \
    [ ! -s "$WORK/attlog/sticky" ]
check "normal user, root's sticky tmpdir: victim untouched, tmpdir empty, no process left" \
    [ "$(victim_sum "$WORK/vic/victim")" = "$vsum0" -a -z "$(ls -A "$sticky")" -a "$(watched left)" = 0 ]

# --- 4. Our load directory swapped for a symlink mid-run (in a tmpdir we accept, only root could) ---------
mine="$WORK/mine"
mkdir "$mine"
"$RTJ_HELPERS/load_watch" -- "$RTJ" run --server "$name" --loads "$LOADS,none" --duration 1.5 --warmup 0.5 \
    --tmpdir "$mine" --quiet --json "$WORK/r.json" >"$WORK/watch" 2>"$WORK/err" &
wpid=$!
for _ in $(seq 100); do ls "$mine"/rtjitter-loads.*/0-exec/output.log >/dev/null 2>&1 && break; sleep 0.05; done
d=$(ls -d "$mine"/rtjitter-loads.* 2>/dev/null | head -1)
if [ -n "$d" ] && mv "$d" "$mine/moved" && ln -s "$WORK/victim" "$d"; then swapped=yes; else swapped=no; fi
wait "$wpid"
echo "# swapped mid-run ($swapped): $(grep -v '^report' "$WORK/watch" | tr '\n' ' ')"
check "swapped load directory: the run went on (exit $(watched status)), victim untouched, no process left" \
    [ "$swapped $(watched status) $(watched left)" = "yes 0 0" -a "$(victim_sum "$WORK/victim")" = "$sum0" ]
check "swapped load directory: its content (ours) was removed where it went ($(ls -A "$mine/moved" 2>/dev/null | tr '\n' ' '))" \
    [ -d "$mine/moved" -a -z "$(ls -A "$mine/moved" 2>/dev/null)" ]
rm -rf "$mine"

# --- 5. exec: a command that starts a daemon with its own child, then returns -----------------------------
mkdir -p "$WORK/tmp"
for mode in cgroup groups; do
    nocg=0; [ $mode = groups ] && nocg=1
    "$RTJ_HELPERS/load_watch" -- env RTJITTER_NO_CGROUP=$nocg "$RTJ" run --server "$name" \
        --loads 'exec:sh -c "(setsid sh -c \"sleep 300 & sleep 300\") &"' --duration 1 --warmup 0.5 \
        --tmpdir "$WORK/tmp" --quiet --json "$WORK/r.json" >"$WORK/watch" 2>"$WORK/err"
    echo "# daemon ($mode): $(grep -v '^report' "$WORK/watch" | tr '\n' ' ')"
    check "daemonising command ($mode): exit 0 within 5 s (took $(watched end_s) s), its processes seen" python3 -c "
import sys; sys.exit(not ('$(watched status)' == '0' and $(watched end_s) < 5 and $(watched max_load_procs) >= 2))"
    check "daemonising command ($mode): gone within 1 s of its phase end; no process left, tmpdir empty" python3 -c "
import sys; f, l = $(watched first_load_s), $(watched last_load_s)
sys.exit(not (0 <= f and l - f <= 0.5 + 1 + 1 and $(watched left) == 0 and '$(ls -A "$WORK/tmp")' == ''))"
    check "daemonising command ($mode): no cgroup of the run left" no_run_cgroup
done

# --- 6. The load supervisor killed by SIGKILL mid-phase -----------------------------------------------------
for mode in cgroup groups; do
    nocg=0; [ $mode = groups ] && nocg=1
    exec_cmd='(setsid sleep 300 &); sleep 300 & echo > mine; sleep 300'
    [ $mode = groups ] && exec_cmd='sleep 300 & echo > mine; sleep 300' # out of reach without a cgroup: setsid
    "$RTJ_HELPERS/load_watch" -K 2 -- env RTJITTER_NO_CGROUP=$nocg "$RTJ" run --server "$name" \
        --loads "compile:units=3+hackbench:groups=1:fds=2+write:mb=4+exec:$exec_cmd,none" --duration 2 \
        --warmup 0.5 --tmpdir "$WORK/tmp" --quiet --json "$WORK/r.json" >"$WORK/watch" 2>"$WORK/err"
    said=$(json "$WORK/r.json" "d['phases'][0]['load_error'], d.get('incomplete_reason')")
    echo "# supervisor killed ($mode): $(grep -v '^report' "$WORK/watch" | tr '\n' ' ') / $said"
    check "supervisor SIGKILLed ($mode): it was killed mid-phase with its loads running" \
        [ "$(watched supervisor_killed_s | cut -d. -f1)" = 2 -a "$(watched max_load_procs)" -ge 8 ]
    check "supervisor SIGKILLed ($mode): no process left, tmpdir empty, no cgroup of the run left" \
        sh -c "[ '$(watched left)' = 0 ] && [ -z '$(ls -A "$WORK/tmp")' ] && $(no_run_cgroup && echo true || echo false)"
    check "supervisor SIGKILLed ($mode): the report says it was killed by signal 9" \
        grep -q "the load supervisor was killed by signal 9" <<<"$said"
    if [ "$RUN_WATCHES_SUPERVISOR" = 1 ]; then
        check "supervisor SIGKILLed ($mode): exit 3, report incomplete, loads gone within 1 s of the kill" python3 -c "
import sys; sys.exit(not ('$(watched status)' == '3' and '$(json "$WORK/r.json" "d['complete']")' == 'False' and
    0 <= $(watched loads_gone_after_kill_s) <= 1.0 and $(watched end_s) - $(watched supervisor_killed_s) <= 2.5))"
    else
        ok "# SKIP supervisor SIGKILLed ($mode): exit 3 at once needs run.c to poll load_plan_alive()"
    fi
done

# --- 7. memload under a memory cgroup too tight to take anything ---------------------------------------------
# A child of our own memory cgroup (v1 here; v2 where our cgroup delegates memory), limited to 200 MB: rtjitter
# and the supervisor fit, memload's floor (at least 256 MB kept free) does not.
own=$(awk -F: '$2 ~ /(^|,)memory(,|$)/ {print $3; exit}' /proc/self/cgroup)
v1=$(mnt cgroup)
limit_file=
if [ -n "$v1" ] && [ -n "$own" ] && mkdir "$v1$own/rtjt-tight-$$" 2>/dev/null; then
    TIGHT_CG="$v1$own/rtjt-tight-$$"; limit_file=memory.limit_in_bytes
elif [ -n "$v2" ] && grep -qw memory "$v2$own2/cgroup.subtree_control" 2>/dev/null && mkdir "$v2$own2/rtjt-tight-$$"; then
    TIGHT_CG="$v2$own2/rtjt-tight-$$"; limit_file=memory.max
fi
if [ -z "$TIGHT_CG" ]; then
    ok "# SKIP memload under a tight cgroup: no memory cgroup we may make here"
else
    echo $((200 << 20)) >"$TIGHT_CG/$limit_file"
    "$RTJ_HELPERS/load_watch" -- sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' _ "$TIGHT_CG" \
        "$RTJ" run --server "$name" --loads memload,none --duration 1 --warmup 0.5 --quiet --json "$WORK/m.json" \
        >"$WORK/watch" 2>"$WORK/err"
    said=$(json "$WORK/m.json" "d['phases'][0]['load_error']")
    echo "# memload in $TIGHT_CG (200 MB): status $(watched status); $said"
    said_so() { [ "$(watched status)" = 0 ] && grep -q "^memload: cannot take any memory: the memory cgroup's limit leaves" <<<"$said"; }
    check "memload under a tight cgroup: exit 0, load_error says it cannot take any memory under the limit" said_so
    check "memload under a tight cgroup: both phases measured, no process left" [ "$(json "$WORK/m.json" \
        "all(p['cycles'] > 0 for p in d['phases'])") $(watched left)" = "True 0" ]
    rmdir "$TIGHT_CG" && TIGHT_CG=
fi
stop_jackd "$JACKD_PID"
