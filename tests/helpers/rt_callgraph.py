#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The RT contract, checked on the call graph (tests/integration/rt_callgraph.sh).

  rt_callgraph.py --top TOP --work DIR --objects BUILD --allow FILE [--src FILE.c ...] -- CC FLAGS...

Compiles C files with CC FLAGS -fcallgraph-info (gcc writes one VCG graph per translation unit: every function it
emits, every direct call, and an "__indirect_call" node for a call through a pointer), merges the graphs, and walks
them from the RT entry points:
  - the functions libjack calls (the second argument of jack_set_*_callback, jack_on_shutdown and
    jack_on_info_shutdown; the first of jack_set_error_function and jack_set_info_function), and the thread body
    given to rt_thread_start() (its fifth argument): found in the text of every .c file under rtaudio/, src/, loads/;
  - every function whose comment says "RT-safe" (the contract as stated; the comment must end right before the
    function's declaration or definition). A header's static inline functions are emitted from a generated file that
    includes the header and takes their addresses, so each is checked even where no file of the walk calls it.
With --src, only the given files are scanned and compiled (the fixtures); their entries are found the same way.
Which files are compiled follows the edges: first the files that define the entry points, then, for each function
the walk reaches that no compiled file defines, the file of ours that defines it (its object in BUILD says which).
Every function reached is either ours (defined in a compiled file: walked in turn) or external; an external one must
be on the allowlist (FILE: "NAME[@SCOPE,...] REASON" a line; SCOPE a file, a folder ending in '/', or FILE:FUNCTION
the call must come from), else it is a violation, printed with a path from an entry point. An indirect call is a
violation unless the allowlist names "__indirect_call@FILE:FUNCTION" for the caller. A function whose comment says
"Not RT-safe" is a violation when reached. Prints "ok - "/"not ok - " lines; exit 0 when nothing was violated.
"""
import argparse
import concurrent.futures
import os
import re
import subprocess
import sys
from collections import deque

JACK_CB = re.compile(r'\b(jack_set_\w+_callback|jack_on_shutdown|jack_on_info_shutdown|'
                     r'jack_set_error_function|jack_set_info_function|rt_thread_start)\s*\(')
CB_ARG = {'jack_set_error_function': 0, 'jack_set_info_function': 0, 'rt_thread_start': 4}  # else 1

# What a violation is, for the message (anything off the allowlist is one; these only name the kind).
KINDS = [
    ('allocation', r'(malloc|calloc|realloc|reallocarray|free|posix_memalign|aligned_alloc|memalign|valloc|'
                   r'pvalloc|strn?dup|__strn?dup|v?asprintf|__v?asprintf_chk|mmap|mmap64|munmap|mremap|brk|sbrk|'
                   r'_Zn[wa]\w*|_Zd[la]\w*)'),
    ('lock', r'(pthread_mutex_\w+|pthread_rwlock_\w+|pthread_cond_\w+|pthread_spin_\w+|pthread_barrier_\w+|'
             r'pthread_join|sem_\w+|flock|lockf|futex|mtx_\w+|cnd_\w+)'),
    ('stdio or file I/O', r'(__)?(v?[fds]?printf|puts|fputs|fputc|putc|putchar|fwrite|fread|fopen|fdopen|fclose|'
                          r'fflush|perror|syslog|vsyslog|open|open64|openat|read|write|close|pread|pwrite|fsync|'
                          r'getline|fgets)(_chk|_unlocked)?'),
    ('system call', r'(syscall|nanosleep|usleep|sleep|sched_yield|ioctl|poll|ppoll|select|epoll_\w+|'
                    r'sched_\w+|gettid|getpid|kill|tgkill|raise|signal|sigaction|pthread_\w+|mlock\w*|munlock\w*|'
                    r'madvise|fork|execv\w*|system|abort|exit|_exit|gettimeofday|time)'),
]


def kind_of(name):
    for kind, pat in KINDS:
        if re.fullmatch(pat, name):
            return kind
    return 'not on the allowlist'


def strip_comments(text):
    """Comments and string literals blanked (same length: offsets stay)."""
    out = list(text)
    for m in re.finditer(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', text, re.S):
        for i in range(m.start(), m.end()):
            if out[i] != '\n':
                out[i] = ' '
    return ''.join(out)


def args_at(code, pos):
    """The top-level comma-separated arguments of the call whose '(' is at pos."""
    depth, args, cur = 0, [], []
    for ch in code[pos:]:
        if ch in '([{':
            depth += 1
            if depth == 1:
                continue
        elif ch in ')]}':
            depth -= 1
            if depth == 0:
                args.append(''.join(cur).strip())
                return args
        elif ch == ',' and depth == 1:
            args.append(''.join(cur).strip())
            cur = []
            continue
        cur.append(ch)
    return args


def registrations(path, text):
    """(function, how, line) for each function handed to libjack or to rt_thread_start in this file."""
    code = strip_comments(text)
    found = []
    for m in JACK_CB.finditer(code):
        before = code[:m.start()].rstrip()
        if re.search(r'\b(int|void)\s*$', before):   # a declaration (rt_thread.h's own), not a call
            continue
        args = args_at(code, m.end() - 1)
        i = CB_ARG.get(m.group(1), 1)
        if len(args) > i:
            a = re.sub(r'^\(\s*\w[\w\s\*]*\)\s*', '', args[i]).lstrip('&').strip()   # a cast, an &
            if re.fullmatch(r'[A-Za-z_]\w*', a) and a not in ('NULL',):
                found.append((a, m.group(1), text.count('\n', 0, m.start()) + 1))
    return found


def markers(path, text):
    """(function, positive, line, static_inline) for each comment saying RT-safe (or Not RT-safe) that ends right
    before a function's declaration or definition."""
    found = []
    for m in re.finditer(r'/\*(.*?)\*/', text, re.S):
        body = m.group(1)
        if 'RT-safe' not in body:
            continue
        positive = not re.match(r'\s*Not RT-safe', body)
        rest = text[m.end():]
        head = rest.lstrip()
        if not head or head[0] in '#/}':
            continue
        decl = re.split(r'[{;]', head, 1)[0]
        decl = re.sub(r'__attribute__\s*\(\(.*?\)\)', ' ', decl, flags=re.S)
        f = re.search(r'([A-Za-z_]\w*)\s*\(', decl)
        # a declaration or definition: a type before the name (a call in a function's body has none), no '='
        if not f or '=' in decl[:f.start()] or not re.search(r'\w[\s*]+$', decl[:f.start()]):
            continue
        line = text.count('\n', 0, m.start()) + 1
        found.append((f.group(1), positive, line, bool(re.search(r'\bstatic\b', decl[:f.start()]))))
    return found


NODE = re.compile(r'node: \{ title: "([^"]*)" label: "([^"]*)"( shape : ellipse)? \}')
EDGE = re.compile(r'edge: \{ sourcename: "([^"]*)" targetname: "([^"]*)"(?: label: "([^"]*)")? \}')


class Graph:
    def __init__(self):
        self.defined = {}     # title -> (display name, file of the definition)
        self.edges = {}       # title -> [(target title, call site)]

    def add(self, ci):
        text = open(ci).read()
        top = os.getcwd() + '/'
        for title, label, ellipse in NODE.findall(text):
            parts = label.split('\\n')
            if not ellipse:   # an ellipse is a function this file only calls
                where = parts[1].rsplit(':', 2)[0] if len(parts) > 1 else '?'
                where = where[len(top):] if where.startswith(top) else where
                # a clone gcc made (rt_now_ns.constprop, cap_ring_push.isra) is shown as its function
                self.defined[title] = (parts[0].split('.')[0], where)
        for src, dst, site in EDGE.findall(text):
            lst = self.edges.setdefault(src, [])
            if (dst, site) not in lst:
                lst.append((dst, site))


def scope_ok(scopes, caller_title, g, site='', as_built=False):
    """Whether a call from caller_title (at site, "FILE:LINE:COL") is within the scopes. As built, a static function
    may be inlined into its callers, so a scope FILE:FUNCTION is taken as FILE, and the call site's file counts as
    the caller's (a header's static inline function inlined into a .c file)."""
    if not scopes:
        return True
    name, where = g.defined.get(caller_title, (caller_title, '?'))
    files = {where}
    if as_built and site:
        files.add(site.rsplit(':', 2)[0])
    for s in scopes:
        if as_built and not s.endswith('/'):
            s = s.split(':')[0]
        if s.endswith('/') and any(f.startswith(s) for f in files):
            return True
        if s in files or s == '%s:%s' % (where, name):
            return True
    return False


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--top', required=True)
    ap.add_argument('--work', required=True)
    ap.add_argument('--objects', required=True, help='the build directory whose objects say which file defines what')
    ap.add_argument('--allow', required=True)
    ap.add_argument('--src', action='append', default=[])
    ap.add_argument('--jobs', type=int, default=os.cpu_count() or 1)
    ap.add_argument('--as-built', action='store_true', help='without -fno-inline: the graph of the binary as built '
                    '(a static function inlined everywhere is walked inside its callers)')
    ap.add_argument('cc', nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cc = a.cc[1:] if a.cc and a.cc[0] == '--' else a.cc
    os.chdir(a.top)
    os.makedirs(a.work, exist_ok=True)
    fails = []

    # ---- the allowlist ----
    allow = {}
    not_rt = {}            # (function, file) -> reason: given to libjack, yet never run in an RT thread
    for n, line in enumerate(open(a.allow), 1):
        line = line.strip()
        if not line or line.startswith('#'):
            continue
        if line.startswith('!entry '):
            spec, _, reason = line[len('!entry '):].partition(' ')
            name, _, scope = spec.partition('@')
            if not reason.strip() or not scope:
                fails.append('%s:%d: !entry %s needs FUNCTION@FILE and a reason' % (a.allow, n, name))
            not_rt[(name, scope)] = reason.strip()
            continue
        spec, _, reason = line.partition(' ')
        name, _, scope = spec.partition('@')
        if not reason.strip():
            fails.append('%s:%d: %s has no reason' % (a.allow, n, name))
        allow.setdefault(name, []).append(([s for s in scope.split(',') if s], reason.strip(), n))
    used = set()

    # ---- what the text says: entry points and markers ----
    tree = sorted(os.path.join(d, f) for top in ('rtaudio', 'src', 'loads') for d, _, fs in os.walk(top)
                  for f in fs if f.endswith(('.c', '.h')))
    scan = list(a.src) or tree
    entries = []           # (name, file where found, why)
    negative = {}          # name -> "file:line" (Not RT-safe)
    inline_roots = {}      # header -> [static inline functions marked RT-safe]
    for path in dict.fromkeys(scan + tree):
        text = open(path, errors='replace').read()
        if path not in scan:   # the fixtures: the tree's "Not RT-safe" still counts
            for fn, positive, line, static in markers(path, text):
                if not positive:
                    negative[fn] = '%s:%d' % (path, line)
            continue
        if path.endswith('.c'):
            for fn, how, line in registrations(path, text):
                if (fn, path) in not_rt:
                    print('# not an RT entry: %s, given to %s at %s:%d: %s' % (fn, how, path, line, not_rt[(fn, path)]))
                    continue
                entries.append((fn, path, 'given to %s at %s:%d' % (how, path, line)))
        for fn, positive, line, static in markers(path, text):
            if not positive:
                negative[fn] = '%s:%d' % (path, line)
            elif path.endswith('.h') and static:
                inline_roots.setdefault(path, []).append(fn)
                entries.append((fn, path, 'marked RT-safe at %s:%d' % (path, line)))
            else:
                entries.append((fn, path, 'marked RT-safe at %s:%d' % (path, line)))

    # ---- which file of ours defines a global function: its object says ----
    index = {}
    objs = {}
    for d, _, fs in os.walk(a.objects):
        for f in fs:
            obj = os.path.join(d, f)
            src = os.path.relpath(obj, a.objects)[:-2] + '.c'
            if f.endswith('.o') and src.startswith(('rtaudio/', 'src/', 'loads/')) and os.path.exists(src):
                objs[obj] = src
    if objs:
        out = subprocess.run(['nm', '--defined-only', '-A'] + sorted(objs), capture_output=True, text=True).stdout
        for l in out.splitlines():
            obj, _, sym = l.partition(':')
            p = sym.split()
            if obj in objs and len(p) == 3 and p[1] in 'TW':
                index.setdefault(p[2], objs[obj])
    if not index and not a.src:
        fails.append('no object under %s says which file defines what (build the tree first: make check does)' %
                     a.objects)

    # ---- compile, following the edges ----
    g = Graph()
    compiled = set()
    extra = ['-fcallgraph-info'] if a.as_built else ['-fno-inline', '-fcallgraph-info']

    def compile_all(files):
        files = [f for f in dict.fromkeys(files) if f not in compiled]
        compiled.update(files)

        def one(f):
            base = os.path.join(a.work, re.sub(r'^/+', '', f))[:-2]
            os.makedirs(os.path.dirname(base), exist_ok=True)
            r = subprocess.run(cc + extra + ['-c', '-o', base + '.o', f],
                               capture_output=True, text=True)
            return f, r.returncode, r.stderr, base + '.ci'
        with concurrent.futures.ThreadPoolExecutor(max(1, a.jobs)) as ex:
            for f, rc, err, ci in ex.map(one, files):
                if rc != 0:
                    fails.append('%s does not compile: %s' % (f, ' / '.join(err.strip().splitlines()[:4])))
                elif os.path.exists(ci):
                    g.add(ci)
                else:
                    fails.append('%s: the compiler wrote no call graph (%s): -fcallgraph-info needs gcc 10 or later'
                                 % (f, ci))

    first = list(a.src)
    if inline_roots:
        roots_c = os.path.join(os.path.abspath(a.work), 'rt_inline_roots.c')
        with open(roots_c, 'w') as o:
            o.write('/* Generated by tests/helpers/rt_callgraph.py: every static inline function a header marks '
                    'RT-safe, emitted. */\n')
            for h in sorted(inline_roots):
                o.write('#include "%s"\n' % os.path.abspath(h))
            o.write('void *rt_inline_roots[] = {\n%s\n};\n' % ',\n'.join(
                '    (void *)%s' % fn for h in sorted(inline_roots) for fn in inline_roots[h]))
        first.append(roots_c)
    def static_in(fn, path):
        return path.endswith('.c') and re.search(r'\bstatic\b[^;{}()]*\b%s\s*\(' % re.escape(fn),
                                                 strip_comments(open(path, errors='replace').read()))

    for fn, path, why in entries:   # the file that defines it: a static's own, or the one a global's object names
        if why.startswith('marked') and path.endswith('.c') or static_in(fn, path):
            first.append(path)
        elif fn in index:
            first.append(index[fn])
    compile_all(first)

    def resolve(fn, path):
        """The graph's titles for an entry: the global function, or the file's static one (a header's: every
        copy)."""
        if path.endswith('.c'):
            ts = [t for t, (name, where) in g.defined.items() if name == fn and t.startswith(path + ':')]
            if ts:
                return ts
        if fn in g.defined:
            return [fn]
        return [t for t, (name, where) in g.defined.items() if name == fn and where == path]

    # ---- the walk ----
    parent = {}            # title -> (caller title, call site) on a shortest path from an entry
    roots = []
    inlined = []
    for fn, path, why in entries:
        ts = resolve(fn, path)
        if not ts and a.as_built and fn not in index:
            inlined.append(fn)   # a static function inlined wherever it is called: walked inside its callers
        elif not ts:
            fails.append('entry point %s (%s) is not in the call graph' % (fn, why))
        for t in ts:
            if t not in parent:
                parent[t] = None
                roots.append((t, why))
    viol = {}              # (caller, callee) -> message
    externals = {}         # external name -> set of callers
    indirect = []
    queue = deque(t for t, _ in roots)
    while True:
        pending = set()
        while queue:
            t = queue.popleft()
            for dst, site in g.edges.get(t, []):
                if dst in g.defined:
                    if dst not in parent:
                        parent[dst] = (t, site)
                        queue.append(dst)
                    continue
                if dst == '__indirect_call':
                    ok = [e for e in allow.get(dst, []) if e[0] and scope_ok(e[0], t, g, site, a.as_built)]
                    if ok:
                        used.add((dst, ok[0][2]))
                        indirect.append((t, site, ok[0][1]))
                    else:
                        viol[(t, dst)] = (t, site, 'a call through a function pointer (unresolved)')
                    continue
                if dst in index and index[dst] not in compiled:
                    pending.add((t, dst, site))
                    continue
                ok = [e for e in allow.get(dst, []) if scope_ok(e[0], t, g, site, a.as_built)]
                if ok:
                    used.add((dst, ok[0][2]))
                    externals.setdefault((dst, ok[0][2]), set()).add(t)
                elif dst in index:
                    viol[(t, dst)] = (t, site, 'ours (%s) but not in the call graph' % index[dst])
                else:
                    kind = kind_of(dst)
                    if allow.get(dst):
                        kind += ': allowed only from %s' % ', '.join(s for e in allow[dst] for s in e[0])
                    viol[(t, dst)] = (t, site, kind)
        if not pending:
            break
        compile_all(index[d] for _, d, _ in pending)
        for t, dst, site in pending:   # walk on from the callers, the newly compiled functions now defined
            if dst in g.defined and dst not in parent:
                parent[dst] = (t, site)
                queue.append(dst)
            elif dst not in g.defined:
                viol[(t, dst)] = (t, site, 'ours (%s) but its file has no such function' % index[dst])

    def show(t):
        return g.defined[t][0] if t in g.defined else t

    def path_to(t):
        chain = [t]
        while parent.get(chain[-1]):
            chain.append(parent[chain[-1]][0])
        return ' -> '.join(show(x) for x in reversed(chain))

    reached = sorted(parent)
    for t in reached:
        name, where = g.defined[t]
        if name in negative and (t == name or where == negative[name].rsplit(':', 1)[0]):
            viol[(t, 'Not RT-safe')] = (t, '', 'a function marked Not RT-safe (%s)' % negative[name])

    # ---- what was found ----
    print('# compiled %d files with %s %s: %s' % (len(compiled), ' '.join(
        x for x in cc if x.startswith(('-O', '-D_FORTIFY', '-fstack', '-fcf', '-fPIE', '-fpie'))), ' '.join(extra),
        ', '.join(sorted(os.path.relpath(f, a.work) if f.startswith('/') else f for f in compiled))))
    if inlined:
        print('# not emitted as built (inlined into their callers, walked there): %s' % ', '.join(
            sorted(set(inlined))))
    printed = set()
    for t, why in roots:
        line = '# entry %s (%s): %s' % (show(t), g.defined[t][1], why)
        if line not in printed:
            print(line)
            printed.add(line)
    files = sorted({g.defined[t][1] for t in reached})
    distinct = len({g.defined[t] for t in reached})
    print('# %d functions of ours reached (%d nodes: a static inline function of a header, and a clone gcc made, '
          'once a file), in %s' % (distinct, len(reached), ', '.join(files)))
    reason = {e[2]: e[1] for es in allow.values() for e in es}
    marked = {fn for fn, path, why in entries if why.startswith('marked')}
    unmarked = sorted({g.defined[t][0] for t in reached} - marked)
    if unmarked:
        print('# reached, with no RT-safe comment of their own: %s' % ', '.join(unmarked))
    for name, line in sorted(externals):
        print('# external %s, from %s: %s' % (name, ', '.join(sorted({show(c) for c in externals[(name, line)]})),
                                              reason[line]))
    for t, site, reason in indirect:
        print('# indirect call in %s at %s: %s' % (show(t), site, reason))
    stale = [] if a.as_built or a.src else [(n, e[2]) for n, es in allow.items() for e in es if (n, e[2]) not in used]
    for n, line in stale:
        print('# allowlist line %d, %s: not called from the RT graph now' % (line, n))
    for msg in fails:
        print('not ok - %s' % msg)
    for (t, dst), (caller, site, kind) in sorted(viol.items()):
        target = show(dst) if dst in g.defined else dst
        if dst == 'Not RT-safe':
            print('not ok - RT path reaches %s: %s' % (kind, path_to(t)))
        else:
            print('not ok - RT path calls %s (%s): %s -> %s%s' % (target, kind, path_to(t), target,
                                                                   ' at ' + site if site else ''))
    if not fails and not viol:
        given = {show(t) for t, why in roots if why.startswith('given')}
        print('ok - %s: %d RT entry points (given to libjack or rt_thread_start) and %d more functions marked '
              'RT-safe; %d functions of ours reached, %d external functions called, each on the allowlist; '
              '%d indirect calls' % ('as built' if a.as_built else 'every function apart (-fno-inline)', len(given),
                                     len({show(t) for t, _ in roots} - given), distinct,
                                     len({n for n, _ in externals}), len(indirect)))
    return 1 if fails or viol else 0


if __name__ == '__main__':
    sys.exit(main())
