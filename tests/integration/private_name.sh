#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-lock: passwd (useradd and userdel take /etc/passwd's lock: one such test at a time)
# The private jackd's name is not guessable (rtaudio/jack/jackserver.c). jack2 makes a server's semaphores and
# socket in the world-writable /dev/shm under its name, so a normal user who plants a directory there under the name
# a root run will give its server made that run fail (exit 3, "can't check in named futex ... Invalid argument").
# The name used to be rtjitter-PID-server; here a normal user (created by the test, removed after) plants
# directories under that old name for the very PID the run will have (a shell that plants, then execs rtjitter), and
# the root run must still complete (exit 0), its server named rtjitter-PID-RANDOM-server (as the report and the
# server's own command line say), two runs' random parts different, and the planted directories left as they were
# (nothing of another user's is removed).
. "$(dirname "$0")/../lib.sh"
[ "$(id -u)" -eq 0 ] || { ok "# SKIP not root: the attack is a normal user's against a root run"; exit 0; }
if (unset JACK_DEFAULT_SERVER; jack_wait -c 2>/dev/null | grep -q '^running'); then
    ok "# SKIP a default JACK server runs here: rtjitter would use it, not a private one"; exit 0
fi
U="rtjtpn$$"
cleanup_pn() {
    [ "$BASHPID" = "$$" ] || return 0
    local u
    find /dev/shm -maxdepth 1 -user "$U" -exec rm -rf {} + 2>/dev/null
    for _ in 1 2 3 4 5; do id "$U" >/dev/null 2>&1 || break; userdel "$U" 2>/dev/null || sleep 0.2; done
    cleanup_lib
}
trap cleanup_pn EXIT
trap 'exit 143' TERM INT HUP
useradd -M -s /usr/sbin/nologin "$U" || { not_ok "useradd $U"; exit 0; }

# plant.sh: as the user, the directories jack2 would need as files for rtjitter-PID-server, PID its own; then it
# becomes rtjitter (exec keeps the PID).
cat >"$WORK/plant.sh" <<'SH'
#!/bin/bash
n="rtjitter-$$-server"
setpriv --reuid="$PLANT_USER" --regid="$PLANT_USER" --clear-groups \
    mkdir "/dev/shm/jack_sem.0_${n}_system" "/dev/shm/jack_sem.0_${n}_freewheel" "/dev/shm/jack_${n}_0_0" || exit 99
exec "$@"
SH
chmod 0755 "$WORK/plant.sh"
names=()
for i in 1 2; do
    PLANT_USER=$U "$WORK/plant.sh" "$RTJ" run --loads none --duration 1 --warmup 0.3 --quiet --output "$WORK/store" \
        --json "$WORK/r$i.json" >"$WORK/r$i.out" 2>&1; rc=$?
    planted=$(find /dev/shm -maxdepth 1 -user "$U" -type d -name "*rtjitter-*-server*" | wc -l)
    name=$(json "$WORK/r$i.json" "d['audio']['server_name']" 2>/dev/null)
    names+=("$name")
    check "run $i: a root run with the old name's files planted by $U completes (exit $rc; $(grep -v '^report:' "$WORK/r$i.out" | head -1))" \
        [ "$rc" -eq 0 ]
    check "run $i: its private server is rtjitter-PID-RANDOM-server ($name)" \
        holds '[[ "$name" =~ ^rtjitter-[0-9]+-[0-9a-f]{8}-server$ ]]'
    check "run $i: the user's three planted directories are untouched ($planted)" [ "$planted" -eq 3 ]
    find /dev/shm -maxdepth 1 -user "$U" -exec rm -rf {} +
done
check "two runs, two random parts (${names[*]})" [ "${names[0]#rtjitter-*-}" != "${names[1]#rtjitter-*-}" ]
