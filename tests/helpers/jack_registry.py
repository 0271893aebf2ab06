#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""jack2's server registry, for the test suite: what holds its 8 slots, and the slots dead servers keep.

usage: jack_registry.py list
       jack_registry.py taken
       jack_registry.py why
       jack_registry.py reclaim [--jackd PATH] PREFIX...

jack2 keeps one registry for the machine (/dev/shm/jack-shm-registry, every user's servers): a header of six ints,
then 8 entries of a pid (int32) and "jack-UID:NAME:" (260 bytes). A server frees its entry when it exits cleanly;
one killed (SIGKILL, a timeout) keeps it for good: jackd reclaims an entry only when a server of the same name
starts again. Once 8 are held, no jackd starts ("Too many servers already active"), for any user. Test servers
have names used once (rtjt-TEST-PID-...), so every SIGKILLed one would hold a slot for ever.

list     one line per held slot: "slot I pid P alive|dead uid U name NAME"
taken    how many slots are held (by live servers or dead ones)
why      when dead servers hold slots, or all 8 are held: one line "# jack2's registry: ..." saying what holds
         them, and the command that frees the dead ones; nothing otherwise. Exit 0; 1 when dead servers hold
         slots; 2 when all 8 are held, some by live servers (waiting may free one); 3 when all 8 are held by dead
         servers (only freeing them helps).
reclaim  for each entry held by a dead server whose NAME starts with a PREFIX, start that name once more as its
         user (jackd reclaims the entry) and stop it with SIGTERM (it frees it); a name rtjitter-PID-... only when
         that rtjitter is dead too. Prints "reclaimed N of M" and a line per failure. As root, when that fails
         and every held slot is a dead server's and no process maps jack2's shared memory, the registry is
         removed (purge()).
"""
import fcntl
import os
import re
import shlex
import signal
import struct
import subprocess
import sys
import time

REGISTRY = '/dev/shm/jack-shm-registry'
HEADER, ENTRY, SLOTS = 24, 264, 8


def entries():
    """(slot, pid, uid, name) for each held slot."""
    try:
        with open(REGISTRY, 'rb') as f:
            d = f.read(HEADER + ENTRY * SLOTS)
    except OSError:
        return []
    out = []
    for i in range(SLOTS):
        o = HEADER + ENTRY * i
        if o + ENTRY > len(d):
            break
        pid = struct.unpack('i', d[o:o + 4])[0]
        if pid == 0:
            continue
        m = re.match(rb'jack-(\d+):([^:\0]*):', d[o + 4:o + ENTRY])
        uid, name = (int(m.group(1)), m.group(2).decode(errors='replace')) if m else (-1, '?')
        out.append((i, pid, uid, name))
    return out


def alive(pid):
    return os.path.exists('/proc/%d' % pid)


def slot_of(name, uid):
    for s, pid, u, n in entries():
        if n == name and u == uid:
            return pid
    return 0


def reclaim_one(jackd, pid, uid, name):
    cmd = [jackd, '-n', name, '-d', 'dummy', '-r', '48000', '-p', '1024']
    if uid != os.getuid():
        if os.getuid() != 0:
            return 'not our user (uid %d)' % uid
        cmd = ['setpriv', '--reuid=%d' % uid, '--regid=%d' % uid, '--clear-groups'] + cmd
    env = dict(os.environ, JACK_NO_AUDIO_RESERVATION='1')
    env.pop('RTJ_JACK_SLOTS', None)
    # not inside a test's kill window (lib.sh's jack_kill_begin): the suite's jackd waits the same way
    gate = os.path.join(os.environ.get('RTJ_JACK_SLOTS', ''), 'registry.lock')
    if os.environ.get('RTJ_JACK_SLOTS') and os.path.exists(gate):
        with open(gate) as g:
            fcntl.flock(g, fcntl.LOCK_SH)
            fcntl.flock(g, fcntl.LOCK_UN)
    try:
        p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             env=env, start_new_session=True)
    except OSError as e:
        return str(e)
    why = None
    t = time.monotonic()
    while slot_of(name, uid) == pid:            # still the dead one: jackd has not registered yet
        if p.poll() is not None:
            why = 'jackd exited (status %s) before it took the slot' % p.returncode
            break
        if time.monotonic() - t > 5:
            why = 'jackd did not take the slot within 5 s'
            break
        time.sleep(0.05)
    if p.poll() is None:
        p.send_signal(signal.SIGTERM)
        try:
            p.wait(timeout=5)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
            why = why or 'jackd did not end within 5 s of SIGTERM'
    if why is None and slot_of(name, uid):
        why = 'the slot is still held'
    return why


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    if argv[1] == 'list':
        for s, pid, uid, name in entries():
            print('slot %d pid %d %s uid %d name %s' % (s, pid, 'alive' if alive(pid) else 'dead', uid, name))
        return 0
    if argv[1] == 'taken':
        print(len(entries()))
        return 0
    if argv[1] == 'why':
        return registry_why()
    if argv[1] != 'reclaim':
        sys.exit(__doc__)
    args = argv[2:]
    jackd = '/usr/bin/jackd'
    if args[:1] == ['--jackd']:
        jackd = args[1]
        args = args[2:]
    if not args:
        sys.exit(__doc__)
    todo = []
    for s, pid, uid, name in entries():
        if alive(pid) or not any(name.startswith(p) for p in args):
            continue
        if not re.fullmatch(r'[A-Za-z0-9._-]+', name):
            continue                            # the registry is world-writable: never start a name with a '/'

        m = re.match(r'rtjitter-(\d+)(-|$)', name)
        if m and alive(int(m.group(1))):
            continue                            # that rtjitter lives: its own server may come back
        todo.append((pid, uid, name))
    done = 0
    for pid, uid, name in todo:
        why = reclaim_one(jackd, pid, uid, name)
        if why:
            print('# jack registry: the slot of dead %s (uid %d, pid %d) not reclaimed: %s' % (name, uid, pid, why))
        else:
            done += 1
    for path in mended_metadata():
        print('# jack metadata: %s had an empty region file (a client killed as it made it: every client died of '
              'SIGBUS): its regions were removed' % path)
    if done < len(todo) and purge():
        print('# jack registry: every slot was held by a dead server and no process used jack2\'s shared memory: '
              'the registry and its segments were removed (jackd makes them anew)')
        done = len(todo)
    print('reclaimed %d of %d' % (done, len(todo)))
    return 0


def registry_why():
    """What holds the slots and how to free the dead ones, as one line (nothing when every held slot is live and
    one is free)."""
    es = entries()
    dead = [(pid, uid, name) for _, pid, uid, name in es if not alive(pid)]
    if not dead and len(es) < SLOTS:
        return 0
    say = lambda l: ', '.join('%s (uid %d, pid %d)' % (n, u, p) for p, u, n in l) or 'none'
    live = [(pid, uid, name) for _, pid, uid, name in es if alive(pid)]
    line = "# jack2's registry: %d of %d slots held%s: dead %s; live %s" % (
        len(es), SLOTS, ' (no JACK server can start: "Too many servers already active")' if len(es) >= SLOTS else '',
        say(dead), say(live))
    if dead:
        sudo = '' if os.getuid() == 0 or all(u == os.getuid() for _, u, _ in dead) else 'sudo '
        here = os.path.relpath(os.path.abspath(__file__))
        line += '; free the dead ones with: %spython3 %s reclaim %s' % (
            sudo, shlex.quote(here), ' '.join(shlex.quote(n) for _, _, n in dead))
    else:
        line += '; stop one of the live servers (kill PID)'
    print(line)
    return (3 if not live else 2) if len(es) >= SLOTS else 1


def mended_metadata():
    """jack2's metadata store is a Berkeley DB environment in /dev/shm/jack_db-UID that every client maps as it
    opens. A client killed while it made the environment leaves a region file of 0 bytes (__db.002, seen after a
    SIGKILL beside a busy suite), and from then on every JACK client of that user dies of SIGBUS in libdb's
    __mutex_open, whatever the server. The regions are a cache Berkeley DB makes anew: when one is empty and no
    process maps any of them, they are removed (metadata.db, the data, stays). Returns the folders mended."""
    mended = []
    for d in os.listdir('/dev/shm'):
        if not re.fullmatch(r'jack_db-\d+', d):
            continue
        path = os.path.join('/dev/shm', d)
        try:
            regions = [f for f in os.listdir(path) if f.startswith('__db.')]
            if not any(os.path.getsize(os.path.join(path, f)) == 0 for f in regions):
                continue
        except OSError:
            continue
        if maps_any(path):
            continue
        for f in regions:
            try:
                os.unlink(os.path.join(path, f))
            except OSError:
                pass
        mended.append(path)
    return mended


def maps_any(prefix):
    """Does any process map a file under prefix? True when that cannot be told (a process whose maps cannot be
    read, but for init, this VM's own agent)."""
    for d in os.listdir('/proc'):
        if not d.isdigit() or d == '1':
            continue
        try:
            with open('/proc/%s/maps' % d) as f:
                if prefix in f.read():
                    return True
        except FileNotFoundError:
            continue
        except OSError:
            return True
    return False


def purge():
    """The last resort, as root only: when every held slot is a dead server's and no process on the machine maps
    jack2's shared memory (no server, no client of one), the registry and the segments are nobody's: remove them.
    Seen after servers were SIGSTOPped and killed beside a busy suite: restarting each dead name took its slot and
    did not free it at SIGTERM, and with all 8 held no jackd could start."""
    if os.getuid() != 0 or any(alive(pid) for _, pid, _, _ in entries()):
        return False
    if maps_any('/dev/shm/jack'):
        return False
    for d in os.listdir('/proc'):
        try:
            if d.isdigit() and open('/proc/%s/comm' % d).read().strip() == 'jackd':
                return False
        except OSError:
            continue
    for f in os.listdir('/dev/shm'):
        if f == 'jack-shm-registry' or re.fullmatch(r'jack-\d+-\d+', f):
            try:
                os.unlink(os.path.join('/dev/shm', f))
            except OSError:
                pass
    return True


if __name__ == '__main__':
    sys.exit(main(sys.argv))
