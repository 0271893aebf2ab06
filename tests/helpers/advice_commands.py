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
with". Each command found is run by the kind of its program (RUNNERS below) in a throwaway:

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
import gzip
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

RTJ, HELPER, TOP, WORK = sys.argv[1:5]
ON, OFF = "\x1e", "\x1f"
PATH = os.environ.get("PATH", "") + ":/usr/sbin:/sbin:" + os.path.dirname(os.path.abspath(RTJ))
FAILS = []


def say(line):
    print(line, flush=True)


def ok(desc):
    say("ok - " + desc)


def not_ok(desc):
    FAILS.append(desc)
    say("not ok - " + desc)


def run(argv, timeout=20, **kw):
    try:
        p = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, **kw)
        return p.returncode, (p.stdout + p.stderr).strip()
    except (OSError, subprocess.TimeoutExpired) as e:
        return -1, str(e)


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
    import struct
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
            if irq is not None:
                c["irq"] = irq
            ph["spikes"][0]["culprits"] = [c]
            ph["top_culprits"] = [{"kind": kind, "name": nm, "basis": "observed", "events": 0, "spikes": 1,
                                   "evidence": c["evidence"]}]
            if system:
                d["system"] = system
            variants.append((f"a {kind} culprit '{nm}'" + (f" on {tree}" if tree else ""), d))

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
    if i >= len(words) or not is_program(words[i]):
        return None
    out, seen_arg, prev_opt = words[: i + 1], False, False
    for w in words[i + 1:]:
        plain = re.fullmatch(r"[a-z]+", w) is not None
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
                if c and any(not re.fullmatch(r"[a-z]+", w) for w in c.split()[1:]):
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

# ---- running them ----


def in_etc_ns(script):
    """script in a private mount namespace over a copy of /etc (and debconf's database): nothing reaches the
    machine's own."""
    tmp = tempfile.mkdtemp(prefix="etc.", dir=WORK)
    wrap = (f"set -e; mount -t tmpfs none {tmp}; mkdir {tmp}/etc {tmp}/debconf; cp -a /etc/. {tmp}/etc; "
            f"cp -a /var/cache/debconf/. {tmp}/debconf; mount --bind {tmp}/etc /etc; "
            f"mount --bind {tmp}/debconf /var/cache/debconf; set +e; {script}")
    return run(["unshare", "-m", "--propagation", "private", "bash", "-c", wrap], timeout=120)


def sysctl_write(key, val, src):
    p = "/proc/sys/" + key.replace(".", "/")
    if not os.path.exists(p):
        return not_ok(f"sysctl {key}={val}: no such key here ({p}); from {src}")
    old = open(p).read().strip()
    try:
        with open(p, "w") as f:
            f.write(val)
        now = open(p).read().strip()
        err = None
    except OSError as e:
        err, now = e.strerror, old
    finally:
        try:
            with open(p, "w") as f:
                f.write(old)
        except OSError:
            pass
    if err:
        return not_ok(f"sysctl {key}={val}: the kernel refused it ({err}); from {src}")
    ok(f"sysctl {key}={val}: accepted by this kernel (read back {now}; {old} written back at once); from {src}")


def run_chrt_taskset(argv, cmd, src):
    pid = next((int(a) for a in reversed(argv) if a.isdigit()), None)
    if pid in kthread_pids and pid in VARIANT_KTHREADS:
        return not_ok(f"{cmd}: advised against a kernel thread (pid {pid}, {kthreads_name(pid)}), which a "
                      f"verdict must never do; from {src}")
    if pid not in owner:  # a fixture report's: the pid of the machine it was measured on
        return say(f"# not run: {cmd}: pid {pid} of the machine the report was measured on; the same advice "
                   f"against this test's throwaways is run; from {src}")
    uid = owner[pid]
    pre = ["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups"] if uid else []
    rc, out = run(pre + argv)
    who = f"uid {uid} (no account), its owner" if uid else "root"
    if rc != 0:
        return not_ok(f"{cmd}: refused when run by {who} against its throwaway FIFO 80 sleeper ({out}); from {src}")
    rc2, now = run(["chrt", "-p", str(pid)])
    ok(f"{cmd}: accepted, run by {who} against a throwaway SCHED_FIFO 80 sleeper (now: "
       f"{' '.join(now.split())}); from {src}")


def kthreads_name(pid):
    try:
        return open(f"/proc/{pid}/comm").read().strip()
    except OSError:
        return "?"


def run_apt(pkgs, cmd, ctx, src):
    if ctx == "ubuntu":
        return say(f"# not run: {cmd}: Ubuntu's package, said to be Ubuntu's; this is Debian "
                   f"({'present' if apt_candidate(pkgs[0]) else 'not'} in this registry); from {src}")
    for p in pkgs:
        if not apt_candidate(p):
            return not_ok(f"{cmd}: {p} is not in this machine's package registry (apt-cache policy); from {src}")
    rc, out = APT_ALL if all(p in APT_PKGS for p in pkgs) else (-1, "")
    if rc != 0:  # one simulation of every package together (2.7 s each here); alone where that fails
        rc, out = run(["apt-get", "-s", "-q", "install", *pkgs], timeout=120)
    if rc != 0:
        return not_ok(f"{cmd}: apt-get -s install refuses it ({out.splitlines()[-1] if out else rc}); from {src}")
    ok(f"{cmd}: apt-get -s install {' '.join(pkgs)} succeeds (simulated), the package in the registry; from {src}")


APT_CACHE = {}


def apt_candidate(p):
    if p not in APT_CACHE:
        rc, out = run(["apt-cache", "policy", p])
        m = re.search(r"Candidate: (\S+)", out)
        APT_CACHE[p] = rc == 0 and m is not None and m.group(1) != "(none)"
    return APT_CACHE[p]


def cap_sys_resource():
    for line in open("/proc/self/status"):
        if line.startswith("CapEff:"):
            return bool(int(line.split()[1], 16) >> 24 & 1)
    return False


def run_usermod(argv, cmd, src):
    group, user = argv[-2], argv[-1]
    if user == "$USER":
        user = "musician"
    script = (f"getent group {group} >/dev/null || {{ echo 'no group {group} on this machine'; exit 3; }}; "
              f"useradd -M -d /nonexistent {user} 2>/dev/null; {' '.join(map(shlex.quote, argv))} || exit 4; "
              f"id -nG {user}; printf 'ulimit -r; ulimit -l; exit\\n' | timeout 10 script -qfec "
              f"'login -f {user}' /dev/null | tr -d '\\r' | tail -2 | tr '\\n' ' '")
    rc, out = in_etc_ns(script)
    lines = out.splitlines()
    if rc != 0 or len(lines) < 2 or group not in lines[-2].split():
        return not_ok(f"{cmd}: refused in a throwaway /etc ({out}); from {src}")
    login = (f"its next login (login -f, PAM's session) has rtprio and memlock {lines[-1].strip()}"
             if cap_sys_resource() else "its next login is not judged: this machine's root lacks CAP_SYS_RESOURCE, "
             "so no login here can raise a hard limit (rtjitter check says the same)")
    ok(f"{cmd}: in a throwaway /etc (a private mount namespace) the user made there joins {group} "
       f"(id -nG: {lines[-2].strip()}); {login}; from {src}")


PAM_LIMITS = ""
for so in glob.glob("/usr/lib/*/security/pam_limits.so") + glob.glob("/lib/*/security/pam_limits.so"):
    PAM_LIMITS = open(so, "rb").read().decode("latin-1")
    break


def limits_line(line, srcs):
    src = srcs[0] + (f" (and {len(srcs) - 1} more)" if len(srcs) > 1 else "")
    f = line.split()
    if len(f) != 4 or f[1] not in ("-", "soft", "hard") or not re.fullmatch(r"-?\d+|unlimited|infinity", f[3]):
        return not_ok(f"limits line '{line}': not DOMAIN TYPE ITEM VALUE of limits.conf(5); from {src}")
    if not PAM_LIMITS:
        return say(f"# not judged: limits line '{line}': no pam_limits.so here to read its items from; from {src}")
    if "\0" + f[2] + "\0" not in PAM_LIMITS:
        return not_ok(f"limits line '{line}': pam_limits.so knows no item {f[2]}; from {src}")
    ok(f"limits line '{line}': limits.conf(5)'s form, its item {f[2]} one pam_limits.so reads; from {src}")


def run_jackd(argv, cmd, src):
    name = f"rtjt-advice-{os.getpid()}-{len(procs)}"
    a = [x for x in argv if x != "..."]
    if "-n" in a:
        a[a.index("-n") + 1] = name
    else:
        a[1:1] = ["-n", name]
    if "-d" not in a:
        a += ["-d", "dummy"]
    p = subprocess.Popen(a, stdout=open(os.path.join(WORK, name + ".log"), "w"), stderr=subprocess.STDOUT)
    procs.append(p)
    up = False
    for _ in range(100):
        if p.poll() is not None:
            break
        rc, out = run(["jack_wait", "-s", name, "-c"], timeout=5)
        if "running" in out:
            up = True
            break
        time.sleep(0.1)
    prio = ""
    for _ in range(30 if up else 0):  # its driver's thread comes a moment after it takes clients
        rc, out = run(["ps", "-L", "-o", "cls=,rtprio=", "-p", str(p.pid)])
        prio = ", ".join(sorted(set(" ".join(x.split()) for x in out.splitlines() if x.split()[0] in ("FF", "RR"))))
        if prio:
            break
        time.sleep(0.1)
    p.terminate()
    try:
        p.wait(5)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
    want = re.search(r"-P (\d+)", " ".join(a))
    if up and want and f"FF {want.group(1)}" not in prio:
        return not_ok(f"{cmd}: `{' '.join(a)}` started, but no thread runs at SCHED_FIFO {want.group(1)} ({prio}); "
                      f"from {src}")
    if not up:
        return not_ok(f"{cmd}: `{' '.join(a)}` did not start ({open(os.path.join(WORK, name + '.log')).read()[-300:]}); "
                      f"from {src}")
    ok(f"{cmd}: `{' '.join(a)}` started (its FIFO threads: {prio or 'none'}) and was stopped; from {src}")


def run_rtjitter(argv, cmd, src):
    a = ["rtjitter" if x == "rtjitter" else x for x in argv]
    sub = a[1] if len(a) > 1 and not a[1].startswith("-") else "run"
    if sub == "check":
        a = [RTJ, *[WORK if x == "DIR" else "root" if x == "NAME" else x for x in a[1:]]]
        rc, out = run(a, timeout=60)
        if rc not in (0, 1):
            return not_ok(f"{cmd}: exit {rc} ({out.splitlines()[-1] if out else ''}); from {src}")
        return ok(f"{cmd}: runs (exit {rc}: 1 when a check fails), as `{' '.join(a[1:])}`; from {src}")
    rc, helptext = run([RTJ, sub, "--help"])
    missing = [x.split("=")[0] for x in a[2 if len(a) > 1 and a[1] == sub else 1:] if x.startswith("--")
               and x.split("=")[0] not in helptext]
    if rc != 0 or missing:
        return not_ok(f"{cmd}: rtjitter {sub} --help (exit {rc}) has no {' '.join(missing)}; from {src}")
    ok(f"{cmd}: rtjitter {sub} takes these options (its --help); not run: a measurement; from {src}")


def run_tee(argv_text, cmd, src):
    m = re.match(r"echo (.*) \| (?:sudo )?tee (\S+)$", argv_text)
    if not m:
        return not_ok(f"{cmd}: an echo to tee of a form this test cannot read; from {src}")
    val, path = m.group(1), m.group(2).strip("'")
    if path.startswith("/etc/"):
        script = (f"mkdir -p {shlex.quote(os.path.dirname(path))} && echo {val} > {shlex.quote(path)} && "
                  f"cat {shlex.quote(path)}")
        rc, out = in_etc_ns(script)
        if rc != 0:
            return not_ok(f"{cmd}: cannot be written in a throwaway /etc ({out}); from {src}")
        return ok(f"{cmd}: written in a throwaway /etc; not judged: whether udev applies it (no udev here); "
                  f"from {src}")
    tree = next((t for t in trees if os.path.exists(t + path)), None)
    say(f"# not run: {cmd}: writes a CPU or USB power setting this shared machine must keep "
        f"({'present' if os.path.exists(path) else 'absent'} here; in the judged tree "
        f"{os.path.basename(tree) if tree else '(none)'}); from {src}")
    if not tree and not os.path.exists(path):
        not_ok(f"{cmd}: {path} is in no fixture tree and not on this machine; from {src}")


def run_loop(text, cmd, src):
    """Loops over names the fix read from the machine (jack2's dead servers), one a user: bash reads it, then it is
    run for real with each list of names replaced by a name of this test's own (never over the names it lists:
    another's server, maybe), as the users it names."""
    rc, out = run(["bash", "-n", "-c", text])
    loops = re.findall(r"for \w+ in ([^;]+); do ", text)
    if rc != 0 or not loops:
        return not_ok(f"{cmd}: not loops bash reads ({out}); from {src}")
    names, k = [], [0]

    def own(m):
        k[0] += 1
        names.append(f"rtjt-advice-{os.getpid()}-loop{k[0]}")
        return m.group(0).replace(m.group(1), names[-1])
    mine = re.sub(r"for \w+ in ([^;]+); do ", own, text)
    mine = re.sub(r"--reuid=\d+ --regid=\d+", f"--reuid={UID} --regid={UID}", mine)  # a uid with no account
    rc, out = run(["bash", "-c", mine], timeout=60)
    left = [n for n in names if run(["pgrep", "-f", f"jackd -n {n}"])[0] == 0]
    if rc != 0 or left:
        return not_ok(f"{cmd}: run over names of this test's own ({', '.join(names)}), exit {rc} ({out[-200:]}), "
                      f"left running: {left or 'nothing'}; from {src}")
    ok(f"{cmd}: bash reads it; run for real over names of this test's own ({', '.join(names)}; another user's as "
       f"uid {UID}, no account): exit 0, nothing "
       f"left running; from {src}")


NOT_RUN = {
    "cpupower": "changes this machine's CPU frequency or idle states (this virtual machine has no cpufreq)",
    "powerprofilesctl": "power-profiles-daemon is a laptop's: not on this machine",
    "tlp": "TLP is a laptop's: not on this machine",
    "update-grub": "this virtual machine boots without a boot loader (no /boot); the options it installs are "
                   "checked against the kernel instead",
    "systemctl": "no user session's systemd here",
    "udevadm": "no udev here",
    "dpkg-reconfigure": "not run here: it asks debconf; its result is what the limits-file checks read",
    "kill": "a template (PID): kill is always possible on one's own server",
    "pacman": "Arch's package manager: this is Debian",
    "lsusb": "",
}


def run_cmd(cmd, ctx, srcs):
    src = srcs[0] + (f" (and {len(srcs) - 1} more)" if len(srcs) > 1 else "")
    text = cmd[5:] if cmd.startswith("sudo ") else cmd
    if "&&" in text:
        for part in text.split("&&"):
            run_cmd(part.strip(), ctx, srcs)
        return
    if re.match(r"echo .* \| (sudo )?tee ", text):
        return run_tee(text, cmd, src)
    if text.startswith("for "):
        return run_loop(text, cmd, src)
    try:
        argv = shlex.split(text.replace("$USER", "'$USER'"))
    except ValueError:
        return not_ok(f"{cmd}: not a command a shell can read; from {src}")
    prog = argv[0]
    if prog in ("chrt", "taskset"):
        return run_chrt_taskset(argv, cmd, src)
    if prog in ("apt", "apt-get") and len(argv) > 2 and argv[1] == "install":
        return run_apt([a for a in argv[2:] if not a.startswith("-")], cmd, ctx, src)
    if prog == "sysctl":
        kv = [a for a in argv[1:] if "=" in a]
        for a in kv:
            sysctl_write(*a.split("=", 1), src + (" (a line of /etc/sysctl.d)" if ctx == "sysctl.d" else ""))
        return None if kv else not_ok(f"{cmd}: a sysctl without KEY=VALUE; from {src}")
    if prog == "usermod":
        return run_usermod(argv, cmd, src)
    if prog == "jackd":
        return run_jackd(argv, cmd, src)
    if prog == "rtjitter":
        return run_rtjitter(argv, cmd, src)
    if prog == "lsusb":
        if shutil.which("lsusb"):
            rc, out = run(argv)
            return ok(f"{cmd}: runs (exit {rc}); from {src}") if rc == 0 else not_ok(f"{cmd}: exit {rc}: {out}")
        return say(f"# not run: {cmd}: usbutils is not installed here (read only; apt-cache policy usbutils: "
                   f"{'in the registry' if apt_candidate('usbutils') else 'absent'}); from {src}")
    if prog in NOT_RUN:
        return say(f"# not run: {cmd}: {NOT_RUN[prog]}; from {src}")
    not_ok(f"{cmd}: no way to run a {prog} command is known to this test: add one before advising it; from {src}")


def run_file(path, srcs):
    src = srcs[0] + (f" (and {len(srcs) - 1} more)" if len(srcs) > 1 else "")
    concrete = re.sub(r"/N/", "/", path) == path
    if not os.path.exists(path) and concrete:
        if path.startswith("/sys/") and any(os.path.exists(t + path) for t in trees):
            return say(f"# not run: {path}: absent here, in the judged tree; from {src}")
        return not_ok(f"{path}: advised to write, absent on this machine; from {src}")
    if not path.endswith(("smp_affinity_list", "cpumask")):
        return say(f"# not written: {path}: named in prose, its command is judged where it is given; from {src}")
    old = open(path).read().strip()
    try:
        with open(path, "w") as f:
            f.write(old)
        ok(f"{path}: its current value ({old}) written back: the kernel accepts a write; from {src}")
    except OSError as e:
        not_ok(f"{path}: the kernel refuses even its own value ({e.strerror}); from {src}")


def boot_option(opt, srcs):
    src = srcs[0] + (f" (and {len(srcs) - 1} more)" if len(srcs) > 1 else "")
    key, _, val = opt.partition("=")
    handlers = {"threadirqs": ["setup_forced_irqthreads"], "preempt": ["setup_preempt_mode"],
                "isolcpus": ["housekeeping_isolcpus_setup"], "nohz_full": ["housekeeping_nohz_full_setup"],
                "rcu_nocbs": ["rcu_nocb_setup"], "nosmt": ["smt_cmdline_disable"],
                "highres": ["setup_hrtimer_hres"]}
    if "." in key:
        mod, param = key.split(".", 1)
        p = f"/sys/module/{mod}/parameters/{param}"
        if os.path.exists(p):
            return ok(f"boot option {opt}: this kernel has {p}; from {src}")
        return say(f"# not judged: boot option {opt}: this kernel has no {p} (the {mod} driver is not in it: a "
                   f"machine with it takes it); from {src}")
    if key not in handlers:
        return not_ok(f"boot option {opt}: no way to check it against the kernel is known to this test; from {src}")
    have = [h for h in handlers[key] if re.search(r" " + h + r"$", KALLSYMS, re.M)]
    if not have:
        return not_ok(f"boot option {opt}: this kernel has no handler of {key}= ({handlers[key][0]} not in "
                      f"/proc/kallsyms); from {src}")
    if key == "preempt":
        dyn = "CONFIG_PREEMPT_DYNAMIC=y" in CONFIG
        if not dyn:
            return not_ok(f"boot option {opt}: advised on a kernel without PREEMPT_DYNAMIC; from {src}")
    ok(f"boot option {opt}: this kernel handles it ({have[0]} in /proc/kallsyms"
       f"{', CONFIG_PREEMPT_DYNAMIC=y' if key == 'preempt' else ''}); from {src}")


KALLSYMS = open("/proc/kallsyms").read()
try:
    CONFIG = gzip.open("/proc/config.gz").read().decode()
except OSError:
    CONFIG = ""

APT_PKGS = sorted({p for (k, c, ctx) in found if k == "cmd" and ctx != "ubuntu"
                   for p in re.findall(r"^(?:sudo )?apt(?:-get)? install ((?:[a-z0-9.+-]+ ?)+)$", c)[:1]
                   for p in p.split() if apt_candidate(p)})
APT_ALL = run(["apt-get", "-s", "-q", "install", *APT_PKGS], timeout=300) if APT_PKGS else (-1, "")
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
