#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The runners of tests/helpers/advice_commands.py: each advised command run, by its program's kind, in a throwaway
(that file's docstring says how each is run). S is the state the main script shares: S.WORK, S.RTJ, S.trees (the
fixture trees), S.UID (a uid with no account), S.procs (every process started, to stop), S.owner (throwaway pid ->
its uid, None for root's), S.kthread_pids and S.variant_kthreads (this machine's kernel threads, and those the
variants name), S.apt_pkgs and S.apt_all (one simulated install of every package)."""
import glob
import gzip
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import types

S = types.SimpleNamespace()
ON, OFF = "\x1e", "\x1f"
PATH = os.environ.get("PATH", "") + ":/usr/sbin:/sbin:" + os.path.dirname(os.path.abspath(sys.argv[1]))
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





_NS = []


def etc_ns_missing():
    """Why no private mount namespace can be made here, or None: in a chroot (a fresh-machine root) / is no mount
    point and `unshare --propagation private` fails; without private propagation a bind over /etc could reach the
    machine's own, so nothing is run then."""
    if not _NS:
        rc, out = run(["unshare", "-m", "--propagation", "private", "true"])
        _NS.append(None if rc == 0 else f"no private mount namespace here ({out or 'unshare exit %d' % rc})")
    return _NS[0]


def in_etc_ns(script):
    """script in a private mount namespace over a copy of /etc (and debconf's database): nothing reaches the
    machine's own."""
    tmp = tempfile.mkdtemp(prefix="etc.", dir=S.WORK)
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
    if pid in S.kthread_pids and pid in S.variant_kthreads:
        return not_ok(f"{cmd}: advised against a kernel thread (pid {pid}, {kthreads_name(pid)}), which a "
                      f"verdict must never do; from {src}")
    if pid not in S.owner:  # a fixture report's: the pid of the machine it was measured on
        return say(f"# not run: {cmd}: pid {pid} of the machine the report was measured on; the same advice "
                   f"against this test's throwaways is run; from {src}")
    uid = S.owner[pid]
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
    rc, out = S.apt_all if all(p in S.apt_pkgs for p in pkgs) else (-1, "")
    if rc != 0:  # one simulation of every package together (2.7 s each here); alone where that fails
        rc, out = run(["apt-get", "-s", "-q", "install", *pkgs], timeout=120)
    if rc != 0:
        return not_ok(f"{cmd}: apt-get -s install refuses it ({out.splitlines()[-1] if out else rc}); from {src}")
    ok(f"{cmd}: apt-get -s install {' '.join(pkgs)} succeeds (simulated), the package in the registry; from {src}")


APT_CACHE = {}


def apt_policy(pkgs):
    """apt-cache policy of every package at once (each call reads the whole cache: seconds on a busy machine)."""
    pkgs = [p for p in dict.fromkeys(pkgs) if p not in APT_CACHE]
    if not pkgs:
        return
    rc, out = run(["apt-cache", "policy", *pkgs], timeout=120)
    for p in pkgs:
        m = re.search(r"^" + re.escape(p) + r":\n(?:  .*\n)*?  Candidate: (\S+)", out + "\n", re.M)
        APT_CACHE[p] = rc == 0 and m is not None and m.group(1) != "(none)"


def apt_candidate(p):
    apt_policy([p])
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
    if etc_ns_missing():
        return say(f"# not run: {cmd}: {etc_ns_missing()}; from {src}")
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
    name = f"rtjt-advice-{os.getpid()}-{len(S.procs)}"
    a = [x for x in argv if x != "..."]
    if "-n" in a:
        a[a.index("-n") + 1] = name
    else:
        a[1:1] = ["-n", name]
    if "-d" not in a:
        a += ["-d", "dummy"]
    p = subprocess.Popen(a, stdout=open(os.path.join(S.WORK, name + ".log"), "w"), stderr=subprocess.STDOUT)
    S.procs.append(p)
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
        return not_ok(f"{cmd}: `{' '.join(a)}` did not start ({open(os.path.join(S.WORK, name + '.log')).read()[-300:]}); "
                      f"from {src}")
    ok(f"{cmd}: `{' '.join(a)}` started (its FIFO threads: {prio or 'none'}) and was stopped; from {src}")


def run_rtjitter(argv, cmd, src):
    a = ["rtjitter" if x == "rtjitter" else x for x in argv]
    sub = a[1] if len(a) > 1 and not a[1].startswith("-") else "run"
    if sub == "check":
        a = [S.RTJ, *[S.WORK if x == "DIR" else "root" if x == "NAME" else x for x in a[1:]]]
        rc, out = run(a, timeout=60)
        if rc not in (0, 1):
            return not_ok(f"{cmd}: exit {rc} ({out.splitlines()[-1] if out else ''}); from {src}")
        return ok(f"{cmd}: runs (exit {rc}: 1 when a check fails), as `{' '.join(a[1:])}`; from {src}")
    rc, helptext = run([S.RTJ, sub, "--help"])
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
        if etc_ns_missing():
            return say(f"# not run: {cmd}: {etc_ns_missing()}; from {src}")
        rc, out = in_etc_ns(script)
        if rc != 0:
            return not_ok(f"{cmd}: cannot be written in a throwaway /etc ({out}); from {src}")
        return ok(f"{cmd}: written in a throwaway /etc; not judged: whether udev applies it (no udev here); "
                  f"from {src}")
    tree = next((t for t in S.trees if os.path.exists(t + path)), None)
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
    mine = re.sub(r"--reuid=\d+ --regid=\d+", f"--reuid={S.UID} --regid={S.UID}", mine)  # a uid with no account
    rc, out = run(["bash", "-c", mine], timeout=60)
    left = [n for n in names if run(["pgrep", "-f", f"jackd -n {n}"])[0] == 0]
    if rc != 0 or left:
        return not_ok(f"{cmd}: run over names of this test's own ({', '.join(names)}), exit {rc} ({out[-200:]}), "
                      f"left running: {left or 'nothing'}; from {src}")
    ok(f"{cmd}: bash reads it; run for real over names of this test's own ({', '.join(names)}; another user's as "
       f"uid {S.UID}, no account): exit 0, nothing "
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
        if path.startswith("/sys/") and any(os.path.exists(t + path) for t in S.trees):
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

