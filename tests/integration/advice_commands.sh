#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-class: bulk (rtjitter's code on fixture reports and trees, apt-get -s, throwaways: nothing timed; its only real-time threads are three dummy jackds' for a second or two each, waking every 21 ms, and FIFO sleepers that never run: 27-60 s here, most of it apt's)
# test-timeout: 300 (apt-get -s install of a kernel image took 15 s beside the suite)
# Every command rtjitter can advise, taken from its own output and run where it can be run (rule 4, issues 32 and
# 35): the kernel, apt, PAM and jackd accept it, or the test fails. The commands come from rtjitter's code, never from
# a list written here (tests/helpers/advice_commands.py says how): every check's fix (its marked commands) and advice
# on every fixture tree and on this machine (tests/helpers/advice_texts.c, as `rtjitter check --root TREE --user
# musician` collects them), and the verdict's advice of every fixture report judged again and of variants whose
# culprit is each kind of the table, named as this machine's own tasks, kernel threads, interrupt lines and softirqs
# are. Each is run by its program's kind: chrt/taskset against a throwaway SCHED_FIFO 80 sleeper (root's, and one of
# a uid with no account, run as that uid), never against a kernel thread; apt-get -s install and apt-cache policy;
# sysctl written and restored at once (these keys are not namespaced: a real, momentary change); /proc/irq and the
# workqueue mask given their own value back; usermod, udev rules and limits lines in a private mount namespace over a
# copy of /etc; boot options against the running kernel's handlers (/proc/kallsyms, /sys/module, /proc/config.gz);
# jackd started for real. What cannot be run here is printed with why ("# not run: ..."), not judged; a command of a
# program no runner knows fails the test: a new kind of command needs a way to prove it before it is advised.
. "$(dirname "$0")/../lib.sh"
TOP=${RTJ_TOP:-$PWD}

skip_all() { ok "# SKIP $*"; exit 0; }
[ "$(id -u)" -eq 0 ] || skip_all "not root: the commands are root's (chrt, sysctl, unshare -m)"
[ -x "$RTJ_HELPERS/advice_texts" ] || skip_all "no $RTJ_HELPERS/advice_texts (make test-bins)"

python3 -B "$TOP/tests/helpers/advice_commands.py" "$RTJ" "$RTJ_HELPERS/advice_texts" "$TOP" "$WORK" >"$WORK/out" 2>&1
rc=$?
cat "$WORK/out"
n_ok=$(grep -c '^ok - ' "$WORK/out")
n_bad=$(grep -c '^not ok - ' "$WORK/out")
n_not=$(grep -c '^# not run' "$WORK/out")
echo "# $n_ok checks passed, $n_bad refused or unprovable, $n_not not run here (printed above, with why)"
check "advice_commands.py ran through (exit $rc)" [ "$rc" = 0 ]
# the kinds that must have been reached, or the texts were not read: the culprit's chrt, apt, sysctl, a boot option
check "the verdict's chrt against a real-time culprit was run, as root and as its owner" \
    [ "$(grep -c '^ok - chrt -f -p .*: accepted, run by' "$WORK/out")" -ge 2 ]
check "apt, sysctl and boot options were found and run" \
    holds 'grep -q "^ok - .*apt-get -s install" "$WORK/out" && grep -q "^ok - sysctl " "$WORK/out" &&
           grep -q "^ok - boot option " "$WORK/out"'
check "no advice runs chrt or taskset against a kernel thread" holds '! grep -q "against a kernel thread" "$WORK/out"'
