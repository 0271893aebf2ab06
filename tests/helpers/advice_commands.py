#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Every command rtjitter advises, taken from its own output and run where it can be run (issues 32 and 35, rule 4).

    advice_commands.py RTJ ADVICE_TEXTS TOP WORK

The texts come from rtjitter's code, never from a list written here: `advice_texts checks` (tests/helpers/
advice_texts.c) gives every check's fix and advice on every fixture tree (tests/fixtures/sys-*) and on this machine,
as `rtjitter check --root TREE --user musician` collects them; `advice_texts judge` gives the verdict's advice of
each fixture report judged again, and of variants of culprits-timer-spike.json whose culprit is each kind of the
table (`advice_texts kinds`) named as this machine's own tasks, kernel threads, interrupt lines and vectors and
softirqs name themselves, over each fixture tree's system identity. A fix's commands are exactly its marked
stretches (util/wrap.h); the advice's prose (the verdict's, a check's advice) is read by patterns: a parenthesised
clause that starts with a program this machine has, `sysctl KEY=VALUE`, `apt install PKG`, `rtjitter SUB --OPT`,
`jackd with -P N`, a file under /proc or /sys to write, and the kernel's boot options next to GRUB_CMDLINE or "boot
with". Each command found is run by the kind of its program (tests/helpers/advice_runners.py) in a throwaway:

  chrt/taskset   against a throwaway process of the kind the culprit names (a SCHED_FIFO 80 sleeper of root, and
                 one of a uid with no account, run by that uid); against a kernel thread: a failure, never run
  apt            apt-get -s install, and apt-cache policy has a candidate (a package said to be Ubuntu's: not run)
  sysctl, and a sysctl.d line
                 the key exists under /proc/sys, and the value is written and the old one written back at once
                 (root; a real, momentary change of this machine: these keys are not namespaced)
  /proc/irq/N/smp_affinity_list, /sys/devices/virtual/workqueue/cpumask
                 its current value written back (nothing changes; the kernel's refusal would show)
  usermod, a limits.d file's lines
                 in a private mount namespace over a copy of /etc: the user made there, the fix applied, then a PAM
                 login (`su -`) of that user shows the limits the fix promises
  boot options   the running kernel's handler of the option in /proc/kallsyms (module options: /sys/module), and
                 preempt=full only where the kernel has PREEMPT_DYNAMIC (/proc/config.gz)
  jackd          started for real (a private dummy server, the "..." or NAME filled), then stopped by its pid
  rtjitter       run (check), or its options found in its own --help (run: no measurement here)
  the rest       not run, with the reason, printed

Prints TAP lines ("ok - ", "not ok - ") and "# " lines; the shell test counts them. A command of a program no
runner knows is a failure: a new kind of command needs a way to prove it before it is advised."""
import glob
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import time

RTJ, HELPER, TOP, WORK = sys.argv[1:5]
ON, OFF = "\x1e", "\x1f"
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from advice_runners import (S, FAILS, PATH, apt_candidate, apt_policy, boot_option, limits_line, not_ok, ok, run, run_cmd,  # noqa
                            run_file, say)


def helper(*args):
    rc, out = run([HELPER, *args], timeout=60)
    return [json.loads(line) for line in out.splitlines() if line.startswith("{")] if rc == 0 else []


# ---- the texts, from rtjitter's own code ----

texts = []  # (source, text, marked)


def add(src, text, marked):
    if text:
        texts.append((src, text, marked))


trees = sorted(glob.glob(os.path.join(TOP, "tests/fixtures/sys-*")))
# sys-generic with jack2's registry (/dev/shm/jack-shm-registry, util/jackreg.h's layout) held by two dead servers,
# one of root's and one of musician's: the check jack_registry's fix, the loop that frees them, is then given
JACKTREE = os.path.join(WORK, "sys-jackdead")
shutil.copytree(trees[[os.path.basename(t) for t in trees].index("sys-generic")], JACKTREE, symlinks=True)
os.makedirs(JACKTREE + "/dev/shm", exist_ok=True)
with open(JACKTREE + "/dev/shm/jack-shm-registry", "wb") as f:
    reg = struct.pack("<IHxxiiii", 0x4A41434B, 0, 0, 24 + 8 * 264, 24 + 8 * 264, 264)
    for pid, name in [(999991, "jack-0:rtjt-old-server:"), (999992, "jack-1000:studio:")] + [(0, "")] * 6:
        reg += struct.pack("<i", pid) + name.encode().ljust(260, b"\0")
    f.write(reg)
trees.append(JACKTREE)
for root in [""] + trees:
    name = os.path.basename(root) or "this machine"
    try:  # where recordings could go: the tree's own mount points (the file-system checks judge them)
        dirs = [line.split()[1].replace("\\040", " ") for line in open(root + "/proc/mounts")] if root else []
    except OSError:
        dirs = []
    for user in (["", "musician"] if root else [""]):
        for c in helper("checks", root, user, *dirs):
            add(f"check {c['id']} on {name}", c["fix"], True)
            add(f"check {c['id']}'s advice on {name}", c["advice"], False)

systems = {}
for root in trees:
    out = os.path.join(WORK, os.path.basename(root) + ".checks.json")
    run([RTJ, "check", "--root", root, "--json", out])
    try:
        systems[os.path.basename(root)] = json.load(open(out))["system"]
    except (OSError, ValueError, KeyError):
        not_ok(f"rtjitter check --root {root} wrote its document")

# throwaway processes: SCHED_FIFO 80 sleepers, one of root's and one of a uid with no account
UID = 61000 + os.getpid() % 1000
while True:
    try:
        import pwd
        pwd.getpwuid(UID)
        UID += 1
    except KeyError:
        break
procs = []


def sleeper(as_uid=None):
    pre = ["setpriv", f"--reuid={as_uid}", f"--regid={as_uid}", "--clear-groups"] if as_uid else []
    p = subprocess.Popen(["chrt", "-f", "80", *pre, "sleep", "300"], stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
    procs.append(p)
    return p.pid


root_hog, user_hog = sleeper(), sleeper(UID)
time.sleep(0.2)
owner = {root_hog: None, user_hog: UID}

# this machine's kernel threads (children of kthreadd), one of each kind of name
kthreads = {}
for d in glob.glob("/proc/[0-9]*"):
    try:
        st = open(d + "/stat").read()
        comm = open(d + "/comm").read().strip()
    except OSError:
        continue
    if st.rsplit(")", 1)[1].split()[1] != "2":
        continue
    key = re.sub(r"[0-9]+", "N", comm.split("-")[0])
    kthreads.setdefault(key, (comm, int(d[6:])))
kthread_pids = set()
for d in glob.glob("/proc/[0-9]*"):
    try:
        if open(d + "/stat").read().rsplit(")", 1)[1].split()[1] in ("2", "0") and d != "/proc/1":
            kthread_pids.add(int(d[6:]))
    except OSError:
        pass
kworker = next((c for c in kthreads.values() if c[0].startswith("kworker")), ("kworker/0:0", 0))

irq_names = []
for line in open("/proc/interrupts").read().splitlines()[1:]:
    f = line.split()
    label = f[0].rstrip(":")
    desc = " ".join(x for x in f[1:] if not x.isdigit())
    if label.isdigit():
        irq_names.append((f"IRQ {label} ({f[-1]})", int(label)))
    else:
        irq_names.append((f"{label} ({desc})" if desc else label, None))
softirqs = [line.split(":")[0].strip() for line in open("/proc/softirqs").read().splitlines()[1:]]


VARIANT_KTHREADS = {p for _, p in kthreads.values()} | {kworker[1]}


def names_for(kind):
    """(name, pid, irq) the culprit of kind is given, as this machine's own would be named."""
    if kind == "rt_task":
        return [("spin", root_hog, None), ("userspin", user_hog, None)]
    if kind == "kthread":
        return [(c, p, None) for c, p in kthreads.values()] + [(f"kworker: ext4_end_io_rsv_work", kworker[1], None)]
    if kind == "irq":
        return [(n, None, i) for n, i in irq_names]
    if kind == "softirq":
        return [(f"{s} softirq", None, None) for s in softirqs]
    if kind == "no_preempt":
        return [("cc1", root_hog, None)]
    return [("dsp2" if kind == "client" else kind, root_hog if kind in ("thread", "run_delay") else None, None)]


base = json.load(open(os.path.join(TOP, "tests/fixtures/reports/culprits-timer-spike.json")))
variants = []
for path in sorted(glob.glob(os.path.join(TOP, "tests/fixtures/reports/*.json"))):
    d = json.load(open(path))
    if str(d.get("schema", "")).startswith("rtjitter.report"):
        variants.append((os.path.basename(path), d))
        if d["audio"].get("backend") == "jack":  # a server below the interrupt threads: "start jackd with -P"
            low = json.loads(json.dumps(d))
            low["audio"].update(priority=10, sched_policy="SCHED_FIFO", realtime=True)
            variants.append((os.path.basename(path) + " at FIFO 10", low))
for tree, system in systems.items():
    d = json.loads(json.dumps(base))
    d["system"] = system
    variants.append((f"culprits-timer-spike.json on {tree}", d))
    # the idle trap: at rest the wake-up p99 far above the load's, /dev/cpu_dma_latency not held
    d = json.loads(json.dumps(d))
    d["audio"].pop("cpu_dma_latency_us", None)
    d["audio"]["cpu_dma_latency"] = "not held: the test left it"
    for ph, p99 in zip(d["phases"], (400.0, 60.0)):
        ph["wakeup_us"]["p99"] = p99
    variants.append((f"the idle trap on {tree}", d))
for k in helper("kinds"):
    kind = k["kind"]
    for nm, pid, irq in names_for(kind):
        for tree, system in [("", None)] + (list(systems.items()) if kind in ("no_preempt", "idle_exit") else []):
            d = json.loads(json.dumps(base))
            ph = [p for p in d["phases"] if p.get("spikes")][0]
            c = {"kind": kind, "basis": "observed", "name": nm, "cpu": 1, "score": 1.0,
                 "evidence": f"{nm} held CPU 1 for 0.9 ms of the audio thread's 1.0 ms wait"}
            if pid:
                c.update(pid=pid, tid=pid)
            if irq is not None:  # as a root run records it: rtjitter's own question to the kernel
                c["irq"] = irq
                aff = (helper("irq", str(irq)) or [{}])[0].get("affinity", 0)
                if aff:
                    c["affinity"] = "fixed" if aff > 0 else "movable"
            ph["spikes"][0]["culprits"] = [c]
            ph["top_culprits"] = [{"kind": kind, "name": nm, "basis": "observed", "events": 0, "spikes": 1,
                                   "evidence": c["evidence"]}]
            if system:
                d["system"] = system
            variants.append((f"a {kind} culprit '{nm}'" + (f" on {tree}" if tree else ""), d))

# rtjitter's question to the kernel about each line (culprit_irq_affinity: a write of no CPU list) against the
# write the advice would have the user make (the line's own list written back, which changes nothing on x86)
for nm, irq in irq_names:
    if irq is None:
        continue
    aff = (helper("irq", str(irq)) or [{}])[0].get("affinity", 0)
    p = f"/proc/irq/{irq}/smp_affinity_list"
    try:
        old = open(p).read().strip()
        fd = os.open(p, os.O_WRONLY)
        try:
            os.write(fd, old.encode())
            wb = "accepted"
        except OSError as e:
            wb = e.strerror
        finally:
            os.close(fd)
    except OSError as e:
        wb = "cannot open: " + e.strerror
    want = {1: "refused", -1: "accepted"}.get(aff, "not known")
    (ok if (aff == -1) == (wb == "accepted") and aff else not_ok)(
        f"{nm}: rtjitter records its affinity as {want} (culprit_irq_affinity), and its own CPU list written back "
        f"is {wb}")
for label, d in variants:
    path = os.path.join(WORK, "variant.json")
    json.dump(d, open(path, "w"))
    got = helper("judge", path)
    if not got:
        not_ok(f"advice_texts judged {label}")
    for a in got:
        add(f"verdict {a['id']} of {label}", a["advice"], False)
say(f"# {len(texts)} texts: the fixes and advice of {len(trees)} fixture trees and this machine, the verdicts of "
    f"{len(variants)} reports")

# ---- the commands in them ----

Cmd = tuple  # (kind, text, source, context)
found = {}
PROG_PREFIX = re.compile(r"^(?:or |and |then |run |e\.g\. )+")


def is_program(word):
    return word in ("apt", "apt-get") or shutil.which(word, path=PATH) is not None


def prose_command(clause):
    """The command a clause of prose starts with, cut where the words stop looking like its arguments."""
    clause = PROG_PREFIX.sub("", clause.strip())
    words = clause.split()
    if not words:
        return None
    i = 1 if words[0] == "sudo" else 0
    if i >= len(words) or not (i == 1 or is_program(words[i])):  # after sudo, any program: one not installed here
        return None
    out, seen_arg, prev_opt = words[: i + 1], False, False
    for w in words[i + 1:]:
        plain = re.fullmatch(r"[a-z']+", w) is not None
        if plain and seen_arg and not prev_opt:
            break
        out.append(w)
        seen_arg |= not plain
        prev_opt = re.fullmatch(r"-[A-Za-z]", w) is not None
    return " ".join(out).rstrip(".,;:")


def commands_of(src, text, marked):
    cmds = []
    if marked:
        cmds += [m for m in re.findall(ON + "([^" + OFF + "]*)" + OFF, text)]
        prose = re.sub(ON + "[^" + OFF + "]*" + OFF, " ", text)
    else:
        prose = text
        for par in re.findall(r"\(([^()]*)\)", text):
            for clause in re.split(r", then |, or |; |, | or ", par):
                c = prose_command(clause)
                if c and any(not re.fullmatch(r"[a-z']+", w) for w in c.split()[1:]):
                    cmds.append(c)
        cmds += re.findall(r"(?:sudo )?sysctl [\w.]+=\S+?(?=[\s,;)]|\.\s|\.$|$)", prose)
        cmds += ["apt install " + p for p in re.findall(r"\bapt install ([a-z0-9][a-z0-9.+-]+[a-z0-9])", prose)]
        cmds += ["rtjitter " + m for m in re.findall(r"\brtjitter ((?:[a-z]+)(?: --[a-z-]+)+)", prose)]
        cmds += ["jackd -P " + m for m in re.findall(r"\bjackd with -P (\d+)", prose)]
    for c in dict.fromkeys(cmds):
        at = text.find(c)  # said to be another distribution's: "Ubuntu: apt install X", "apt install X on Ubuntu"
        ubuntu = at >= 0 and ("Ubuntu" in text[max(0, at - 10):at] or text[at + len(c):].startswith(" on Ubuntu"))
        found.setdefault(("cmd", c, "ubuntu" if ubuntu else ""), []).append(src)
    for m in re.findall(r"(?<![\w.])((?:/proc|/sys)/[\w./:-]*\w)", prose):
        if re.search(r"\b(write|move|tee)\b", prose):
            found.setdefault(("file", m, ""), []).append(src)
    for line in re.findall(r'"(@?[\w$]+ +(?:-|soft|hard) +[a-z]+ +[\w-]+)"', prose):
        found.setdefault(("limits", line, ""), []).append(src)
    # sysctl.d lines: "KEY = VALUE in /etc/sysctl.d/..."
    for k, v in re.findall(r"([a-z][\w.]+\.[\w.]+) = (\S+) in /etc/sysctl\.d/", prose):
        found.setdefault(("cmd", f"sysctl {k}={v}", "sysctl.d"), []).append(src)
    # the kernel's boot options: what to add (never what to remove) where the text speaks of the command line
    for sent in re.split(r"(?<=[.;])\s+|, or ", prose):
        if not re.search(r"GRUB_CMDLINE|kernel command line|\bboot(ing)?( it)? with\b", sent):
            continue
        if re.search(r"\b(remove|correct)\b", sent):
            continue
        opts = re.findall(r"(?<![\w.=/(-])([a-z][a-z0-9_]*(?:\.[a-z0-9_]+)?=[\w,.-]*\w|[a-z][a-z0-9_]*=)(?=[\s,;.)]|$)",
                          sent)
        opts += re.findall(r"\b(?:add|boot(?:ing)?(?: it)? with) ([a-z][a-z0-9_]+)(?= \(| to |[,;]|\.\s|\.$|$)", sent)
        for o in opts:
            if o not in ("it", "them", "a", "an", "the"):
                found.setdefault(("boot", o, ""), []).append(src)


for src, text, marked in texts:
    commands_of(src, text, marked)
say(f"# {len(found)} distinct commands, files and boot options found")

S.WORK, S.RTJ, S.trees, S.UID, S.procs, S.owner = WORK, RTJ, trees, UID, procs, owner
S.kthread_pids, S.variant_kthreads = kthread_pids, VARIANT_KTHREADS
named = [p for (k, c, ctx) in found if k == "cmd"
         for p in re.findall(r"^(?:sudo )?apt(?:-get)? install ((?:[a-z0-9.+-]+ ?)+)$", c)[:1] for p in p.split()]
apt_policy(named + ["usbutils"])
S.apt_pkgs = sorted({p for (k, c, ctx) in found if k == "cmd" and ctx != "ubuntu"
                     for p in re.findall(r"^(?:sudo )?apt(?:-get)? install ((?:[a-z0-9.+-]+ ?)+)$", c)[:1]
                     for p in p.split() if apt_candidate(p)})
S.apt_all = run(["apt-get", "-s", "-q", "install", *S.apt_pkgs], timeout=300) if S.apt_pkgs else (-1, "")
try:
    for (kind, what, ctx), srcs in sorted(found.items()):
        if kind == "cmd":
            run_cmd(what, ctx, srcs)
        elif kind == "file":
            run_file(what, srcs)
        elif kind == "limits":
            limits_line(what, srcs)
        else:
            boot_option(what, srcs)
finally:
    for p in procs:
        if p.poll() is None:
            p.kill()
        p.wait()
left = [p.pid for p in procs if p.poll() is None]
(not_ok if left else ok)(f"every throwaway process and server this test started is gone ({len(procs)}; left: {left})")
say(f"# {len(FAILS)} refused or not provable")
