#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Stopped processes (issue 21, item 9), by the attack itself, judged by this test's own clock:
# - rtjitter itself SIGSTOPped for ~3 s in a measured phase (timer backend), SIGCONTed: the report's run.stops has
#   that stop, its gap_s within [-0.02, +0.1] s of the time between this test's SIGSTOP and SIGCONT (the gap is the
#   record gap around the stop: no shorter than the stop less the signal's delivery, no longer than it plus a period
#   and the SCHED_FIFO thread's wake-up), its skipped cycles those of that time on each timer thread (within 2 each
#   beyond the same bounds); a SIGCONT without a stop is counted with no gap; the verdict (JSON, text, HTML) says
#   rtjitter itself was stopped, and judges no missed deadline of the stop (fewer missed than the stop skipped);
# - the load supervisor SIGSTOPped mid-phase (found as rtjitter's child named rtj-loads in /proc): rtjitter exits 3
#   within 2 s of the phase end (the phase ends no sooner than the load's own start + warm-up + duration), and
#   within 2 s of a SIGTERM; at its exit no process of the run is left (every process carrying this test's marker
#   in its environment: the load, its child that ignores SIGTERM in a session of its own), the tmpdir is empty, the
#   report is marked incomplete and its phase names the stopped supervisor.
. "$(dirname "$0")/../lib.sh"

export RTJT_STOP_MARK="$$-$RANDOM"
P="$WORK/p.py"
cat >"$P" <<'PY'
import json, os, signal, subprocess, sys, time
rtj, work, mode = sys.argv[1], sys.argv[2], sys.argv[3]
mark = ("RTJT_STOP_MARK=" + os.environ["RTJT_STOP_MARK"]).encode()

def marked():
    """Every live process with our marker in its environment (what a user's ps would see of the run)."""
    out = []
    for d in os.listdir("/proc"):
        if not d.isdigit() or int(d) == os.getpid():
            continue
        try:
            env = open("/proc/%s/environ" % d, "rb").read().split(b"\0")
            st = open("/proc/%s/stat" % d).read()
        except OSError:
            continue
        if mark in env and st[st.rfind(")") + 2] != "Z":
            out.append(int(d))
    return out

def say(k, v):
    print("%s %s" % (k, v))

if mode == "self":
    T = 64 / 48000
    p = subprocess.Popen([rtj, "run", "--backend", "timer", "--loads", "none", "--duration", "6", "--warmup", "0.5",
                          "--json", work + "/self.json", "--output", work + "/store"],
                         stdout=open(work + "/self.txt", "w"), stderr=open(work + "/self.err", "w"))
    time.sleep(1.5)
    os.kill(p.pid, signal.SIGCONT)                     # not stopped: counted, no gap
    time.sleep(0.5)
    a0 = time.monotonic(); os.kill(p.pid, signal.SIGSTOP); a1 = time.monotonic()
    time.sleep(3)
    b0 = time.monotonic(); os.kill(p.pid, signal.SIGCONT); b1 = time.monotonic()
    rc = p.wait()
    stop = (b0 + b1) / 2 - (a0 + a1) / 2
    d = json.load(open(work + "/self.json"))
    run = d.get("run", {})
    stops = run.get("stops", [])
    gaps = [s for s in stops if s.get("gap_s") is not None]
    say("rc", rc)
    say("stop_s", "%.4f" % stop)
    say("stopped", run.get("stopped"))
    say("nogap", sum(1 for s in stops if s.get("gap_s") is None))
    g = gaps[0] if len(gaps) == 1 else {}
    say("gap_s", g.get("gap_s"))
    say("gap_ok", g and -0.02 <= g["gap_s"] - stop <= 0.1)
    n = len(d["audio"].get("threads", [])) or 1
    lo, hi = n * ((stop - 0.02) / T - 2), n * ((stop + 0.1) / T + 2)
    say("skipped", "%s (%d threads; expected %.0f-%.0f)" % (g.get("skipped_cycles"), n, lo, hi))
    say("skipped_ok", g and lo <= g["skipped_cycles"] <= hi)
    say("longest_ok", g and run.get("longest_stop_s") == g["gap_s"])
    v = d["verdict"]["summary"]
    say("verdict", v)
    say("verdict_ok", v.startswith("rtjitter itself was stopped (SIGSTOP/Ctrl-Z) for %.1f s" % g.get("gap_s", -1)))
    # the stop's missed deadlines are not judged: any the verdict names are fewer than the stop skipped
    import re
    m = re.search(r"Under none: [^.]*?(\d+) missed deadline", v)
    say("judged_missed", m.group(1) if m else 0)
    say("judged_ok", (int(m.group(1)) if m else 0) < g.get("skipped_cycles", 0))
    say("level", d["verdict"]["level"])
    txt = open(work + "/self.txt").read()
    say("text_ok", "rtjitter itself was stopped (SIGSTOP/Ctrl-Z)" in txt)
else:
    dur, warm = 3, 0.5
    load = ("exec:date +%s.%N >" + work + "/started; (trap '' TERM; exec setsid sleep 1000) & sleep 1000")
    os.makedirs(work + "/tmp", exist_ok=True)
    p = subprocess.Popen([rtj, "run", "--backend", "timer", "--loads", load, "--duration", str(dur), "--warmup",
                          str(warm), "--json", work + "/sup.json", "--output", work + "/store", "--tmpdir",
                          work + "/tmp", "--quiet"], stdout=subprocess.DEVNULL, stderr=open(work + "/sup.err", "w"))
    for _ in range(500):
        if os.path.exists(work + "/started") and os.path.getsize(work + "/started") > 0:
            break
        time.sleep(0.01)
    started = float(open(work + "/started").read())    # the load's own start: the phase's warm-up began before it
    sup = [int(k) for k in open("/proc/%d/task/%d/children" % (p.pid, p.pid)).read().split()
           if open("/proc/%s/comm" % k).read().strip() == "rtj-loads"]
    time.sleep(0.5)
    say("procs", len(marked()))
    os.kill(sup[0], signal.SIGSTOP)
    if mode == "term":
        time.sleep(0.5)
        ref = time.time()
        os.kill(p.pid, signal.SIGTERM)
    else:
        ref = started + warm + dur                     # the phase ends no sooner
    rc = p.wait()
    after = time.time() - ref
    left = marked()
    say("rc", rc)
    say("after_s", "%.3f" % after)
    say("left", len(left))
    say("tmp", len(os.listdir(work + "/tmp")))
    d = json.load(open(work + "/sup.json"))
    say("complete", d["complete"])
    say("reason", d.get("incomplete_reason"))
    say("load_error", d["phases"][0].get("load_error") if d["phases"] else None)
    for x in left:                                     # never leave them to the machine
        os.kill(x, signal.SIGKILL)
PY
got() { sed -n "s/^$1 //p" "$WORK/out"; }

# --- rtjitter itself stopped ---------------------------------------------------------------------------
mkdir -p "$WORK/store"
python3 "$P" "$RTJ" "$WORK" self >"$WORK/out" 2>&1
sed 's/^/# /' "$WORK/out"
check "rtjitter stopped for $(got stop_s) s (this test's clock) and continued: the run completes (exit $(got rc))" \
    [ "$(got rc)" = 0 ]
check "run.stopped counts both SIGCONTs, the one without a stop with no gap" \
    [ "$(got stopped) $(got nogap)" = "2 1" ]
check "the stop's gap_s $(got gap_s) is the test's $(got stop_s) s within -0.02/+0.1 s" [ "$(got gap_ok)" = True ]
check "its skipped cycles: $(got skipped)" [ "$(got skipped_ok)" = True ]
check "longest_stop_s is that stop" [ "$(got longest_ok)" = True ]
check "the verdict says rtjitter itself was stopped, for that long" [ "$(got verdict_ok)" = True ]
check "the verdict judges none of the stop's missed deadlines ($(got judged_missed) judged)" [ "$(got judged_ok)" = True ]
check "the verdict is no pass (level $(got level))" [ "$(got level)" != pass ]
check "the text report says it" [ "$(got text_ok)" = True ]
"$RTJ" report "$WORK/self.json" --html "$WORK/self.html" >/dev/null 2>&1
check "the HTML report says it" grep -q "rtjitter itself was stopped (SIGSTOP/Ctrl-Z)" "$WORK/self.html"

# --- the load supervisor stopped ----------------------------------------------------------------------
for mode in end term; do
    rm -rf "$WORK/started" "$WORK/tmp"
    python3 "$P" "$RTJ" "$WORK" $mode >"$WORK/out" 2>&1
    sed "s/^/# $mode: /" "$WORK/out"
    what=$([ $mode = end ] && echo "the phase end" || echo "the SIGTERM")
    check "supervisor stopped ($mode): exit 3, $(got after_s) s after $what (at most 2)" \
        python3 -c "import sys; sys.exit(not ('$(got rc)' == '3' and -5 < float('$(got after_s)' or 99) <= 2.0))"
    check "supervisor stopped ($mode): the load ran ($(got procs) processes), none left at the exit, tmpdir empty" \
        [ "$(got procs)" -ge 3 -a "$(got left)" = 0 -a "$(got tmp)" = 0 ]
    check "supervisor stopped ($mode): report incomplete ($(got reason))" [ "$(got complete)" = False ]
    check "supervisor stopped ($mode): the phase names the stopped supervisor" \
        grep -q "^load_error the load supervisor was stopped (SIGSTOP)" "$WORK/out"
done
