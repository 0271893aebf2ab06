#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""An observer of culprits the code under test does not produce: the kernel's scheduler trace as `perf record`
(Debian's linux-perf) saw it beside a run, read with `perf script`, and for each xrun event and wake-up spike of the
run's report, the audio threads' longest wait from waking (sched_waking) or preemption (switched out runnable) to
running (sched_switch in), with who was current on that CPU meanwhile: a task (comm, pid, kernel prio, a kworker's
workqueue function), a hard IRQ, a softirq, idle, or nothing at all (no event on the CPU for more than a tick and a
quarter while it was busy). The holder of most of that wait is the observer's "main delayer"; the test compares it
with the report's top culprit.

Written apart from src/culprit/ (another reader, another format, another language); the rules it shares with the
code are the issue's definitions, not its code.

usage: perf_waits.py REPORT.json PERF_SCRIPT.txt [--prio N] [--min-ms 0.5] [--tick-ms 4] [--json OUT]
                     [--canary canary-CPU.log ...]
PERF_SCRIPT.txt: `perf script -F comm,pid,tid,cpu,time,event,trace --ns` of
`perf record -a -k CLOCK_MONOTONIC -e sched:sched_switch -e sched:sched_waking -e irq:irq_handler_entry
 -e irq:irq_handler_exit -e irq:softirq_entry -e irq:softirq_exit -e 'irq_vectors:*_entry' -e 'irq_vectors:*_exit'
 -e workqueue:workqueue_execute_start -e workqueue:workqueue_execute_end`.
The audio threads: the threads of the run's process (the first --pid) that the trace shows at the kernel prio 99-N
(N: --prio, the report's audio priority), and the real-time threads of its server's (a second --pid), whose comm
starts with rtjitter, jackd, pipewire or data-loop, or a name given with --comm. A happening's waits are our
threads' on its CPU and the server's on any.
An idle CPU holding a wait for longer than twice its slowest idle state's exit latency (sysfs) plus 50 us is
counted as nothing running ("noevent": below the kernel): its wake's IPI or timer interrupt came that late.
A report's "below the kernel" (nothing on the CPU) is judged apart, however short the wait from the waking was: the
wake itself may have come late (the CPU was not running when the audio thread's timer was due), so the observer
accounts from the happening's start (its cycle's due time) to our audio thread's first switch-in on that CPU, and the
answer is right only where perf too saw nothing on that CPU for most of it, and, with --canary, the canary pinned
there was late through that silence (a "below" line says what perf and the canary saw). When the run's thread sleeps
on its own timer (the timer backend), that timer's interrupt was pending from the due time on: any stretch of 0.1 ms
or more after it with no event at all on the busy CPU is silence too, not only one longer than a tick and a quarter.
Prints one line per happening ("match", "wrong", "not known", "short") and a summary line; exits 0."""
import argparse
import bisect
import json
import re
import sys
import time

LINE = re.compile(r'^\s*(.+?)\s+(\d+)/(\d+)\s+\[(\d+)\]\s+(\d+\.\d+):\s+([\w-]+:[\w-]+):\s*(.*)$')
SOFTIRQS = ['HI', 'TIMER', 'NET_TX', 'NET_RX', 'BLOCK', 'IRQ_POLL', 'TASKLET', 'SCHED', 'HRTIMER', 'RCU']
VECTORS = {'local_timer': 'LOC', 'reschedule': 'RES', 'call_function': 'CAL', 'call_function_single': 'CAL',
           'irq_work': 'IWI', 'x86_platform_ipi': 'PLT', 'thermal_apic': 'TRM', 'error_apic': 'ERR',
           'spurious_apic': 'SPU'}


def fields(s):
    out = {}
    for m in re.finditer(r'(\w+)=(\S+)', s):
        out.setdefault(m.group(1), m.group(2))
    return out


class Cpu:
    def __init__(self):
        self.task = None      # (pid, comm, prio)
        self.stack = []       # ('irq', n, name) / ('softirq', vec)
        self.fn = ''
        self.last = None
        self.t = []           # segment starts
        self.h = []           # segment holders
        self.quiet = []       # (a, b): busy, no event at all from a to b (QUIET_NS or more)

    def top(self):
        if self.stack:
            return self.stack[-1]
        if self.task is None:
            return ('unknown',)
        if self.task[0] == 0:
            return ('idle',)
        return ('task',) + self.task + (self.fn,)

    def mark(self, t):
        h = self.top()
        if self.h and self.h[-1] == h:
            return
        if self.t and self.t[-1] >= t:
            self.h[-1] = h
            return
        self.t.append(t)
        self.h.append(h)

    def account(self, a, b):
        """{holder: ns} over [a, b]"""
        out = {}
        i = max(0, bisect.bisect_right(self.t, a) - 1)
        while i < len(self.t) and self.t[i] < b:
            s0 = max(self.t[i], a)
            s1 = min(self.t[i + 1] if i + 1 < len(self.t) else self.last, b)
            if s1 > s0:
                out[self.h[i]] = out.get(self.h[i], 0) + (s1 - s0)
            i += 1
        return out


def read_trace(path, audio_prio, comms, tick_ns, procs):
    cpus, waits, state, names, runs = {}, [], {}, {}, {}
    audio = set()
    gap = tick_ns + tick_ns // 4
    with open(path, errors='replace') as f:
        for line in f:
            m = LINE.match(line)
            if not m:
                continue
            comm, tgid, pid, cpu, ts, ev, rest = m.groups()
            tgid, pid, cpu = int(tgid), int(pid), int(cpu)
            sec, frac = ts.split('.')
            t = int(sec) * 1000000000 + int((frac + '000000000')[:9])
            ev = ev.split(':')[-1]
            if tgid in procs.pids:
                procs.add(pid)
                if tgid == procs.run:
                    procs.own.add(pid)
            c = cpus.setdefault(cpu, Cpu())
            if c.last is not None and t - c.last >= QUIET_NS and c.top()[0] not in ('idle', 'unknown'):
                c.quiet.append((c.last, t))
            if c.task is None:
                c.task = (pid, comm, -1)
                c.mark(t)
            elif c.last is not None and t - c.last > gap and c.top()[0] not in ('idle', 'unknown'):
                c.t.append(c.last + tick_ns)
                c.h.append(('noevent',))
                c.mark(t)
            c.last = t
            f_ = fields(rest)
            if ev == 'sched_switch':
                prev, nxt = int(f_.get('prev_pid', -1)), int(f_.get('next_pid', -1))
                nprio = int(f_.get('next_prio', -1))
                ncomm = rest.split('next_comm=')[1].split(' next_pid=')[0] if 'next_comm=' in rest else '?'
                # ours at the audio priority; the server's (the other --pid) at any real-time priority
                if nxt in procs and ncomm.startswith(comms) and (
                        nprio == audio_prio if nxt in procs.own else 0 <= nprio < 100):
                    audio.add(nxt)
                st = state.get(prev)
                if prev in audio:
                    runnable = f_.get('prev_state', 'S').startswith('R')
                    state[prev] = ('wait', t) if runnable else ('sleep', t)
                st = state.get(nxt)
                if nxt in audio and st and st[0] == 'wait':
                    waits.append((t - st[1], st[1], t, cpu, nxt))
                if nxt in audio:
                    state[nxt] = ('run', t)
                    if nxt in procs.own:
                        runs.setdefault(cpu, []).append(t)
                c.stack, c.fn = [], ''
                c.task = (nxt, ncomm, nprio)
            elif ev == 'sched_waking':
                w = int(f_.get('pid', -1))
                st = state.get(w)
                if st is None or st[0] == 'sleep':
                    state[w] = ('wait', t)
                continue
            elif ev == 'irq_handler_entry':
                n = int(f_.get('irq', -1))
                names[n] = f_.get('name', '?')
                c.stack.append(('irq', n, names[n]))
            elif ev == 'softirq_entry':
                c.stack.append(('softirq', int(f_.get('vec', -1))))
            elif ev in ('irq_handler_exit', 'softirq_exit') or ev.endswith('_exit'):
                kind = 'softirq' if ev == 'softirq_exit' else 'irq'
                for i in range(len(c.stack) - 1, -1, -1):
                    if c.stack[i][0] == kind:
                        del c.stack[i:]
                        break
            elif ev.endswith('_entry') and ev[:-6] in VECTORS:
                c.stack.append(('irq', -1, VECTORS[ev[:-6]]))
            elif ev == 'workqueue_execute_start':
                mm = re.search(r'function (\S+)', rest)
                c.fn = mm.group(1) if mm else ''
            elif ev == 'workqueue_execute_end':
                c.fn = ''
            else:
                continue
            if not c.stack and c.task and c.task[0] != pid and ev != 'sched_switch':
                c.task = (pid, comm, -1)
            c.mark(t)
    return cpus, waits, audio, runs


class Procs(set):
    """The tids of the processes given (the run's, its server's): learnt from the events' tgid/tid headers."""
    def __init__(self, pids):
        super().__init__()
        self.pids = set(pids)
        self.run = pids[0] if pids else None  # the run's own threads: a happening's waits on its own CPU
        self.own = set()


def holder_words(h):
    if h[0] == 'task':
        pid, comm, prio, fn = h[1], h[2], h[3], h[4]
        return {'what': 'task', 'pid': pid, 'comm': comm, 'prio': prio, 'fn': fn}
    if h[0] == 'irq':
        return {'what': 'irq', 'irq': h[1], 'name': h[2]}
    if h[0] == 'softirq':
        return {'what': 'softirq', 'name': SOFTIRQS[h[1]] if 0 <= h[1] < len(SOFTIRQS) else '?'}
    return {'what': h[0]}


def same(culprit, d):
    """Whether the report's culprit names the observer's delayer."""
    kind, name, pid = culprit.get('kind'), culprit.get('name', ''), culprit.get('pid', 0)
    w = d['what']
    if w == 'noevent':
        return kind == 'below_kernel'
    if w == 'idle':
        return kind == 'idle_exit'
    if w == 'softirq':
        return kind == 'softirq' and name == d['name']
    if w == 'irq':
        if d['irq'] >= 0:
            return kind == 'irq' and name.startswith('IRQ %d ' % d['irq'])
        return kind == 'irq' and name.startswith(d['name'] + ' ')
    if w == 'task':
        m = re.match(r'irq/(\d+)-', d['comm'])
        if m:
            return kind == 'irq' and name.startswith('IRQ %s ' % m.group(1))
        if d['fn']:
            return name.endswith(': ' + d['fn'])
        # perf's pid is the kernel's task id, a thread's: the report gives the process (pid) and the thread (tid)
        return pid == d['pid'] or culprit.get('tid', 0) == d['pid'] or (not pid and name == d['comm'])
    return False


def read_canaries(paths):
    """{cpu: [(deadline_ns, woke_ns)]} from canary logs ("late DEADLINE_S LATENESS_US ..."), the CPU from the name."""
    out = {}
    for p in paths:
        m = re.search(r'canary-(\d+)\.log$', p)
        if not m:
            continue
        lst, ran = [], False
        for line in open(p):
            f = line.split()
            if len(f) >= 3 and f[0] == 'late':
                d = int(round(float(f[1]) * 1e9))
                lst.append((d, d + int(float(f[2]) * 1000)))
            ran |= len(f) == 2 and f[0] == 'wakeups' and f[1] != '0'
        if ran:  # a canary that never ran (no "wakeups N" line) saw nothing: it judges nothing
            out[int(m.group(1))] = lst
        else:
            print('# canary log %s: the canary did not run; its CPU is judged on perf alone' % p)
    return out


# the shortest silence a canary (tests/helpers/canary, woken every 1 ms, lateness over 1 ms logged) surely sees
CANARY_SEES = 2000000
QUIET_NS = 100000  # a busy CPU's stretch with no event that a pending timer interrupt makes silence (judge_window)
# two holders this close are a tie at the report's resolution (t_s in 0.1 ms steps at both ends of a window)
TIE_NS = 200000


def judge_below(cpus, runs, stalls, cpu, t0, t1, idle_ns, wait, tick_ns, own_timer=False):
    """judge_window over the lateness (the due time to the switch-in), else over the longest wait (waking to switch-in,
    where an xrun event's longest wait came after its first cycle). own_timer: the audio thread sleeps on its own
    timer (the timer backend), due at t0."""
    r = runs.get(cpu, [])
    i = bisect.bisect_left(r, t0)
    b = r[i] if i < len(r) and r[i] <= t1 + 5000000 else t1
    out = judge_window(cpus, stalls, cpu, t0, b, idle_ns, 'due, switch-in', tick_ns, own_timer)
    if not out['right'] and wait is not None and wait[3] == cpu:
        w = judge_window(cpus, stalls, cpu, wait[1], wait[2], idle_ns, 'waking, switch-in', tick_ns)
        if w['right']:
            return w
        out['why'] += '; ' + w['why']
    return out


def judge_window(cpus, stalls, cpu, t0, b, idle_ns, what, tick_ns, due=False):
    """A below_kernel answer judged on perf's own trace: from the happening's start (its cycle's due time) to our
    audio thread's first switch-in on that CPU after it, who held the CPU; right only when most of that time perf saw
    nothing on the CPU (no event for more than a tick and a quarter while busy, or idle far beyond its idle states'
    exit latency) and, where canaries ran (--canary), the canary on that CPU was late through that silence too (when
    the silence was 2 ms or more: a shorter one may fall between its wake-ups, unseen).
    due: t0 is when the audio thread's own timer was due, its interrupt pending from then on; any stretch after it in
    which the busy CPU recorded no event at all (QUIET_NS or more: no tick, IPI, interrupt, nor the timer's own) is
    silence, however shorter than a tick and a quarter."""
    c = cpus.get(cpu)
    if c is None:
        return {'right': False, 'cpu': cpu, 'why': 'perf saw no event on CPU %s at all' % cpu}
    quiet = [(max(q0, t0), min(q1, b)) for q0, q1 in c.quiet if q1 > t0 and q0 < b] if due else []
    quiet = [(x, y) for x, y in quiet if y - x >= QUIET_NS]
    if quiet:  # who held the rest: the stretches between the silences
        acc, a = {}, t0
        for x, y in quiet + [(b, b)]:
            for k, v in c.account(a, x).items() if x > a else ():
                acc[k] = acc.get(k, 0) + v
            a = max(a, y)
        acc.pop(('noevent',), None)
        silent = sum(y - x for x, y in quiet)
        idle = acc.pop(('idle',), 0)
        if idle > 2 * idle_ns + 50000:
            silent += idle
        return finish_window(c, stalls, cpu, t0, b, acc, silent, what, tick_ns, max(quiet, key=lambda q: q[1] - q[0]))
    acc = c.account(t0, b)
    # the whole stretch with no event is the silence: the rule credits the context before it with its first
    # tick, but where the host stopped the CPU between two tracers' probes of one event (perf's timestamp before the
    # stop, rtjitter's after it: seen here inside a LOC interrupt) that tick belongs to different holders in the two
    i = max(0, bisect.bisect_right(c.t, t0) - 1)
    while i < len(c.t) and c.t[i] < b:
        if c.h[i] == ('noevent',) and i > 0:
            x, y = max(c.t[i] - tick_ns, t0), min(c.t[i], b)
            if y > x and acc.get(c.h[i - 1], 0) >= y - x:
                acc[c.h[i - 1]] -= y - x
                acc[('noevent',)] = acc.get(('noevent',), 0) + (y - x)
        i += 1
    silent = acc.pop(('noevent',), 0)
    idle = acc.pop(('idle',), 0)
    if idle > 2 * idle_ns + 50000:
        silent += idle
    return finish_window(c, stalls, cpu, t0, b, acc, silent, what, tick_ns, None)


def finish_window(c, stalls, cpu, t0, b, acc, silent, what, tick_ns, span):
    """judge_window's verdict from its account: acc the holders, silent the time perf saw nothing; span the longest
    silence (None: found here)."""
    other = max(acc.items(), key=lambda x: x[1]) if acc else (('nothing',), 0)
    why = 'perf: %.2f ms silent of [%s] %.2f ms; most of the rest %s %.2f ms' % (
        silent / 1e6, what, (b - t0) / 1e6, holder_words(other[0]).get('comm', other[0][0]), other[1] / 1e6)
    # a tie within the report's resolution is not decided here: its t_s has 0.1 ms steps, and a due time read 0.1 ms
    # early or late moves that much between the first holder and the silence
    right = silent > 0 and silent + TIE_NS >= other[1]
    s0, s1 = span if span else silent_span(c, t0, b, tick_ns)
    if right and cpu in stalls and s1 - s0 < CANARY_SEES:
        why += '; the canary cannot see a silence of %.2f ms (it logs lateness over 1 ms)' % ((s1 - s0) / 1e6)
    elif right and cpu in stalls:
        # the silence's stretch: the canary due before its end (in it, or before it and kept waiting by what ran then:
        # it is below every real-time thread) and woken only after it. A silence of 2 ms holds one of its 1 ms
        # deadlines at least: had the CPU run, the canary would have run in it.
        late = [x for x in stalls[cpu] if s0 - 100000000 <= x[0] <= s1 and x[1] >= s1 - 500000]
        right = bool(late)
        why += '; canary on CPU %d %s' % (cpu, 'late %.1f ms through it' % ((late[0][1] - late[0][0]) / 1e6)
                                          if late else 'not late through it: the CPU ran')
    return {'right': right, 'cpu': cpu, 'why': why, 'silent_ms': silent / 1e6}


def silent_span(c, a, b, tick_ns):
    """The longest stretch of [a, b] in which perf saw the CPU hold nothing (idle, or no event: from its last event)."""
    best = (a, a)
    i = max(0, bisect.bisect_right(c.t, a) - 1)
    while i < len(c.t) and c.t[i] < b:
        if c.h[i][0] in ('noevent', 'idle'):
            start = c.t[i] - tick_ns if c.h[i][0] == 'noevent' else c.t[i]
            s0, s1 = max(start, a), min(c.t[i + 1] if i + 1 < len(c.t) else c.last, b)
            if s1 - s0 > best[1] - best[0]:
                best = (s0, s1)
        i += 1
    return best


def idle_exit_ns():
    """The slowest enabled CPU idle state's exit latency as sysfs says now (0: no idle states, the CPU halts)."""
    import glob
    worst = 0
    for st in glob.glob('/sys/devices/system/cpu/cpu[0-9]*/cpuidle/state[0-9]*'):
        try:
            if open(st + '/disable').read().strip() != '0':
                continue
            worst = max(worst, int(open(st + '/latency').read()) * 1000)
        except (OSError, ValueError):
            pass
    return worst


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('report')
    ap.add_argument('script')
    ap.add_argument('--prio', type=int, default=None)
    ap.add_argument('--min-ms', type=float, default=0.5)
    ap.add_argument('--tick-ms', type=float, default=4.0)
    ap.add_argument('--comm', action='append', default=[])
    ap.add_argument('--pid', type=int, action='append', default=[], help="the run's process (and its server's)")
    ap.add_argument('--json')
    ap.add_argument('--canary', action='append', default=[],
                    help="a canary's log (tests/helpers/canary; its CPU from the name canary-CPU.log): a below_kernel "
                         "answer is right only where the canary on that CPU was late through perf's silence too")
    ap.add_argument('--idle-exit-us', type=float, default=None,
                    help='the slowest idle state\'s exit latency (default: read from sysfs now)')
    a = ap.parse_args()
    # an idle CPU that let a woken thread wait much longer than its idle states take to leave was not running (the
    # issue's definition: its IPI or timer interrupt arrived late, below the kernel)
    idle_ns = a.idle_exit_us * 1000 if a.idle_exit_us is not None else idle_exit_ns()
    doc = json.load(open(a.report))
    # perf records on CLOCK_MONOTONIC; a report on another clock (jack2's runs on CLOCK_MONOTONIC_RAW) is moved onto it
    # by the two clocks' offset now (read twice around the other, the smaller gap: they drift by ppm)
    shift = 0.0
    cid = {'CLOCK_MONOTONIC_RAW': time.CLOCK_MONOTONIC_RAW, 'CLOCK_BOOTTIME': time.CLOCK_BOOTTIME}.get(
        doc['audio'].get('clock'))
    if cid is not None:
        best = None
        for _ in range(5):
            x = time.clock_gettime(time.CLOCK_MONOTONIC)
            r = time.clock_gettime(cid)
            y = time.clock_gettime(time.CLOCK_MONOTONIC)
            if best is None or y - x < best[0]:
                best = (y - x, (x + y) / 2 - r)
        shift = best[1]
    prio = a.prio if a.prio is not None else doc['audio'].get('priority')
    own_timer = doc['audio'].get('backend') == 'timer'  # its thread sleeps on its own timer, due at a cycle's start
    comms = tuple(['rtjitter', 'jackd', 'pipewire', 'data-loop'] + a.comm)
    procs = Procs(a.pid)
    cpus, waits, audio, runs = read_trace(a.script, 99 - prio, comms, int(a.tick_ms * 1e6), procs)
    stalls = read_canaries(a.canary)
    waits.sort(key=lambda w: w[2])
    ends = [w[2] for w in waits]
    rows, counts = [], {'match': 0, 'wrong': 0, 'not known': 0, 'short': 0, 'no wait': 0, 'judged': 0}
    for ph in doc['phases']:
        for kind, lst in (('event', ph.get('events', [])), ('spike', ph.get('spikes', []))):
            for h in lst:
                t0 = int(round((h['t_s'] + shift) * 1e9))
                t1 = t0 + int((h['length_ms'] * 1e6) if kind == 'event' else h['wakeup_us'] * 1e3)
                a0, a1 = t0 - 200000, t1 + 200000  # t_s has 1 us steps (12 digits; 1 ms at 8, before)
                i = bisect.bisect_left(ends, a0)
                best = None
                while i < len(waits) and waits[i][1] <= a1:
                    on_cpu = h.get('cpu', -1) < 0 or waits[i][4] not in procs.own or waits[i][3] == h['cpu']
                    # a spike is one wake-up: a wait that ended after our thread ran (its end t1) did not delay it
                    # (jackd's wait for the next cycle began inside the window once and was taken for it)
                    ended = kind == 'event' or waits[i][2] <= a1
                    if on_cpu and ended and waits[i][2] >= a0 and (best is None or waits[i][0] > best[0]):
                        best = waits[i]
                    i += 1
                top = (h.get('culprits') or [{}])[0]
                row = {'load': ph['load'], 'kind': kind, 't_s': h['t_s'], 'late_ms': (t1 - t0) / 1e6,
                       'top': top.get('name'),
                       'top_kind': top.get('kind'), 'top_pid': top.get('pid', 0)}
                if best is None:
                    row['verdict'] = 'no wait'
                    if top.get('kind') == 'below_kernel':
                        row['verdict'] = 'judged'  # below the kernel: judged on perf's silence below
                else:
                    acc = cpus[best[3]].account(best[1], best[2])
                    who, ns = max(acc.items(), key=lambda x: x[1]) if acc else (('unknown',), 0)
                    d = holder_words(who)
                    if d['what'] == 'idle' and ns > 2 * idle_ns + 50000:
                        d = {'what': 'noevent', 'idle': True}
                    row.update({'wait_ms': best[0] / 1e6, 'cpu': best[3], 'tid': best[4], 'delayer': d,
                                'held_ms': ns / 1e6})
                    if best[0] < a.min_ms * 1e6:
                        row['verdict'] = 'short'
                    elif top.get('kind') == 'none' or top.get('name') in ('not known', 'who ran is not known'):
                        row['verdict'] = 'not known'
                    else:
                        row['verdict'] = 'match' if same(top, d) else 'wrong'
                if top.get('kind') == 'below_kernel':  # judged however short the wait from the waking was
                    row['below'] = judge_below(cpus, runs, stalls, top.get('cpu', h.get('cpu', -1)), t0, t1, idle_ns,
                                               best, int(a.tick_ms * 1e6), own_timer)
                    row['verdict'] = 'match' if row['below']['right'] else 'wrong'
                row['names'] = [c.get('name') for c in h.get('culprits') or []]
                if top.get('kind') == 'none':  # why the report names no one, as it says
                    row['why_not'] = top.get('evidence', '')
                counts[row['verdict']] += 1
                if 'below' in row:
                    print('below    %s %s %.4f on CPU %s: %s' % (row['load'], kind, h['t_s'], row['below']['cpu'],
                                                              row['below']['why']))
                rows.append(row)
                if row['verdict'] in ('wrong', 'not known', 'match') and 'wait_ms' in row:
                    print('%-9s %s %s %.4f wait %.2f ms on CPU %s: observer %s (%.2f ms), report %s (%s)' % (
                        row['verdict'], row['load'], kind, h['t_s'], row['wait_ms'], row['cpu'],
                        json.dumps(row['delayer']), row['held_ms'], row['top'], row['top_kind']))
    judged = counts['match'] + counts['wrong'] + counts['not known']
    print('# audio threads %s; happenings %d; waits >= %.1f ms: %d, named right %d, wrong %d, not known %d; '
          'shorter %d; no wait seen %d' % (sorted(audio), len(rows), a.min_ms, judged, counts['match'],
                                          counts['wrong'], counts['not known'], counts['short'], counts['no wait']))
    if a.json:
        json.dump({'rows': rows, 'counts': counts, 'audio': sorted(audio)}, open(a.json, 'w'), indent=1)


if __name__ == '__main__':
    main()
