#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-class: plain (two 2 s runs on a private jackd)
# rtjitter's LAVA test definition (data/lava/rtjitter.yaml) run by LAVA's own pieces, not stubs: Debian's
# lava-dispatcher 2023.01 lava_test_shell scripts (the installed ones, else unpacked from the package with
# `apt-get download` + `dpkg-deb -x`: 190 kB, no server, no dependency installed), deployed as the dispatcher
# deploys them (each script given its interpreter, "#!/bin/sh", in an overlay's bin/), the definition's run.sh
# written as its testdef.py writes it (the params, then the job's, `set -e`, the steps in order), and the whole
# run by lava-test-runner -> lava-test-shell -> run.sh, which sets LAVA_RESULT_DIR: lava-test-case writes each
# case there (result, measurement, units). That results directory is compared case by case with the run's JSON
# report (an observer the LAVA renderer does not produce): one case per phase and metric named LOAD-METRIC, its
# measurement the report's figure, pass/fail by the report's thresholds, "unknown" where none judged it; run
# twice, with limits that hold (every judged case passes) and with a wake-up limit no run meets (exactly the
# wake-up cases, the exit-status case and the verdict fail). The definition and both sample jobs (job-qemu.yaml,
# job-ssh.yaml) are validated offline by LAVA's own job and test-definition schemas (lava-common's
# lava_common.schemas, voluptuous; unpacked the same way), which also refuse broken copies. `lava-run --validate`
# of the jobs: lava_run.sh. Not run here: a qemu boot of a Debian image by `lava-run` (no KVM, no qemu-system-x86).
. "$(dirname "$0")/../lib.sh"
TOP=$PWD
RTJ_ABS=$(cd "$(dirname "$RTJ")" && pwd)/$(basename "$RTJ")

# ---- LAVA's pieces: installed, else unpacked from Debian's packages ----
DIST=/usr/lib/python3/dist-packages
if [ -d "$DIST/lava_dispatcher/lava_test_shell" ] && [ -d "$DIST/lava_common/schemas" ] && [ -d "$DIST/voluptuous" ]; then
    PYLAVA=$DIST
    echo "# LAVA: the installed lava-dispatcher and lava-common"
else
    mkdir -p "$WORK/deb"
    (cd "$WORK/deb" && apt-get download lava-dispatcher lava-common python3-voluptuous) >"$WORK/deb/log" 2>&1
    for d in "$WORK"/deb/*.deb; do dpkg-deb -x "$d" "$WORK/deb/x" 2>>"$WORK/deb/log"; done
    PYLAVA=$WORK/deb/x$DIST
    echo "# LAVA: unpacked from $(cd "$WORK/deb" && ls ./*.deb 2>/dev/null | tr '\n' ' ')($(du -sk "$WORK/deb" | cut -f1) kB)"
fi
SHELLDIR=$PYLAVA/lava_dispatcher/lava_test_shell
if [ ! -x "$SHELLDIR/lava-test-case" ] && [ ! -f "$SHELLDIR/lava-test-case" ]; then
    sed 's/^/# /' "$WORK/deb/log" 2>/dev/null | tail -3
    not_ok "lava-dispatcher's lava_test_shell scripts: neither installed nor downloadable (apt-get download lava-dispatcher)"
    exit 0
fi
PY=/usr/bin/python3 # Debian's: python3-yaml for the schemas

# ---- the definition and the jobs, against LAVA's own schemas ----
check "rtjitter.yaml, job-qemu.yaml and job-ssh.yaml are valid for LAVA's schemas (lava_common.schemas, strict)" \
    env PYTHONPATH="$PYLAVA" "$PY" - "$TOP/data/lava" <<'EOF'
import sys, yaml
import lava_common.schemas as schemas
from lava_common.schemas.test import testdef
d = sys.argv[1]
testdef.validate(yaml.safe_load(open(d + '/rtjitter.yaml')))
for j in ('job-qemu.yaml', 'job-ssh.yaml'):
    job = yaml.safe_load(open('%s/%s' % (d, j)))
    schemas.validate(job, strict=True)
    t = [a['test'] for a in job['actions'] if 'test' in a][0]['definitions'][0]
    assert t['path'] == 'data/lava/rtjitter.yaml' and t['from'] == 'git', t
    assert set(t.get('parameters', {})) <= set(yaml.safe_load(open(d + '/rtjitter.yaml'))['params']), t
EOF
check "LAVA's schemas refuse broken copies (no device_type, a test name with a space, a boot method it has not, a definition of another format)" \
    env PYTHONPATH="$PYLAVA" "$PY" - "$TOP/data/lava" <<'EOF'
import copy, sys, yaml
import lava_common.schemas as schemas
from lava_common.schemas.test import testdef
from voluptuous import Invalid
d = sys.argv[1]
job = yaml.safe_load(open(d + '/job-qemu.yaml'))
def refused(f, doc):
    try:
        f(doc)
    except Invalid:
        return True
    return False
bad = []
j = copy.deepcopy(job); del j['device_type']; bad.append(j)
j = copy.deepcopy(job); [a for a in j['actions'] if 'test' in a][0]['test']['definitions'][0]['name'] = 'rt jitter'; bad.append(j)
j = copy.deepcopy(job); [a for a in j['actions'] if 'boot' in a][0]['boot']['method'] = 'teleport'; bad.append(j)
assert all(refused(lambda x: schemas.validate(x, strict=True), b) for b in bad)
t = yaml.safe_load(open(d + '/rtjitter.yaml')); t['metadata']['format'] = 'Lava-Test Test Definition 2.0'
assert refused(testdef.validate, t)
EOF

# ---- an overlay as the dispatcher deploys it, run by lava-test-runner ----
# run_def NAME PARAMS...: the definition in $WORK/NAME, job parameters NAME=VALUE; the results dir in $WORK/NAME.res
run_def() {
    local n=$1 o=$WORK/$1
    shift
    mkdir -p "$o/bin" "$o/lava/tests/0_rtjitter"
    for f in "$SHELLDIR"/lava-*; do
        [ -f "$f" ] || continue
        { printf '#!/bin/sh\n\n'; cat "$f"; } >"$o/bin/$(basename "$f")" # overlay.py: the interpreter first
        chmod 755 "$o/bin/$(basename "$f")"
    done
    cp -r "$TOP/data" "$o/lava/tests/0_rtjitter/" # the repository's checkout (what the definition needs of it)
    echo "rtjt-$n-$$" >"$o/lava/tests/0_rtjitter/uuid"
    "$PY" - "$TOP/data/lava/rtjitter.yaml" "$o/lava/tests/0_rtjitter" "$@" <<'EOF'
import sys, yaml
# As lava_dispatcher/actions/deploy/testdef.py (TestRunnerAction) writes run.sh: the definition's params, then the
# job's parameters, each NAME='value'; set -e; the steps in order inside the runner directory.
d = yaml.safe_load(open(sys.argv[1]))
out = sys.argv[2]
lines = ['###default parameters from test definition###\n']
lines += ["%s='%s'\n" % (k, v if v else '') for k, v in d['params'].items()]
lines += ['######\n', '###test parameters from job submission###\n']
lines += ["%s='%s'\n" % tuple(a.split('=', 1)) for a in sys.argv[3:]]
lines += ['######\n', 'set -e\n', 'set -x\n', 'export TESTRUN_ID=0_rtjitter\n', 'cd %s\n' % out, 'UUID=`cat uuid`\n',
          'set +x\n', 'echo "<LAVA_SIGNAL_STARTRUN $TESTRUN_ID $UUID>"\n', 'set -x\n']
lines += [s + '\n' for s in d['run']['steps']]
lines += ['set +x\n', 'echo "<LAVA_SIGNAL_ENDRUN $TESTRUN_ID $UUID>"\n']
open(out + '/run.sh', 'w').write(''.join(lines))
EOF
    echo "$o/lava/tests/0_rtjitter" >"$o/lava/lava-test-runner.conf"
    (cd "$o" && SHELL=/bin/sh timeout 60 sh "$o/bin/lava-test-runner" "$o/lava") >"$o/runner.out" 2>&1
    echo "# $n: lava-test-runner exit $?, $(grep -c '<LAVA_SIGNAL_TESTCASE' "$o/runner.out") LAVA_SIGNAL_TESTCASE lines, run.sh exit $(cat "$o"/lava/results/*/return_code 2>/dev/null)"
    RES=$(ls -d "$o"/lava/results/0_rtjitter-*/results 2>/dev/null | head -1)
    OUT=$o/lava/tests/0_rtjitter/data/lava/output
}

# The report against the results directory: every case, nothing else. FAIL_EXPECTED: the cases that must fail.
compare_cases() { # RESULTS_DIR REPORT EXIT_STATUS_FILE WANT_FAILED(comma list of metrics, or '')
    python3 - "$@" <<'EOF'
import json, os, sys
res, rep, rcfile, want = sys.argv[1], sys.argv[2], sys.argv[3], set(filter(None, sys.argv[4].split(',')))
d = json.load(open(rep))
rc = int(open(rcfile).read())
got = {}
for c in os.listdir(res):
    r = {k: open(os.path.join(res, c, k)).read().strip() for k in ('result', 'measurement', 'units')
         if os.path.exists(os.path.join(res, c, k))}
    got[c] = r
judged = {}
for ch in d['thresholds']['checks']:
    for p in ch['phases']:
        judged[(p['load'], ch['id'])] = p['pass']
METRICS = [('xrun_events', 'xruns', lambda p: p['xruns']['events'], 0, 'events'),
           ('deadlines_met', 'deadlines_met', lambda p: p['deadlines_met_pct'], 0.0005, '%'),
           ('wakeup_p99', 'wakeup_p99', lambda p: p['wakeup_us']['p99'], 0.05, 'us'),
           ('jitter_abs_max', 'jitter', lambda p: p['jitter_us']['abs_max'], 0.05, 'us')]
want_cases = {'run_complete', 'verdict', 'rtjitter-thresholds'}
for p in d['phases']:
    L = p['load']
    for m, cid, fig, tol, unit in METRICS:
        name = '%s-%s' % (L, m)
        want_cases.add(name)
        c = got.get(name)
        assert c, ('missing case', name, sorted(got))
        assert abs(float(c['measurement']) - fig(p)) <= tol + 1e-9, (name, c, fig(p))
        assert c['units'] == unit, (name, c)
        j = judged.get((L, cid))
        assert c['result'] == ('unknown' if j is None else 'pass' if j else 'fail'), (name, c, j)
    if (L, 'deadlines_missed') in judged:
        name = L + '-deadlines_missed'
        want_cases.add(name)
        assert float(got[name]['measurement']) == p['deadlines_missed'], (name, got[name])
extra = set(got) - want_cases
assert not extra and want_cases <= set(got), ('cases beyond the report', extra, want_cases - set(got))
assert got['run_complete']['result'] == ('pass' if d['complete'] else 'fail')
level = d['verdict']['level']
assert got['verdict']['result'] == {'pass': 'pass', 'fail': 'fail'}.get(level, 'unknown'), (got['verdict'], level)
assert got['rtjitter-thresholds']['result'] == ('pass' if rc == 0 else 'fail'), (got['rtjitter-thresholds'], rc)
failed = {c for c, r in got.items() if r['result'] == 'fail'}
expect = {'%s-%s' % (p['load'], m) for p in d['phases'] for m in want if m != 'rtjitter-thresholds'}
expect |= {m for m in want if m == 'rtjitter-thresholds'}
if level == 'fail':  # the verdict counts the user's limits too (verdict.c): it fails with them, never alone
    assert want, ('the verdict failed with every limit held', d['verdict']['summary'])
    expect.add('verdict')
assert failed == expect, ('failed', sorted(failed), 'expected', sorted(expect))
print('# %d cases, %d failed: %s' % (len(got), len(failed), ' '.join(sorted(failed)) or 'none'))
EOF
}

# A profile of limits no run misses, enforced (so the profile's advice cannot fail a case by the machine's noise).
cat >"$WORK/loose.json" <<'EOF'
{ "schema": "rtjitter.profile/1", "name": "loose", "title": "Loose", "description": "Limits no run misses.",
  "max_xruns": 1000000000, "max_deadlines_missed": 1000000000, "warn_jitter_pct": 1000000, "warn_margin_pct": 0,
  "warn_period_ms": 1000, "require_realtime": false }
EOF
common=(RTJITTER="$RTJ_ABS" LOADS=none,burn DURATION=1.5 WARMUP=0.3 PERIOD=256 SKIP_INSTALL=true PROFILE="$WORK/loose.json"
        MAX_XRUNS=1000000 MIN_DEADLINES_PCT=0 MAX_JITTER_US=1000000)

run_def pass "${common[@]}" SERVER="$(server_name pass)" MAX_WAKEUP_P99_US=1000000
check "limits that hold: lava-test-shell recorded every case, each equal to the report ($(compare_cases "$RES" "$OUT/rtjitter.json" "$OUT/exit-status" '' 2>&1 | tail -1))" \
    compare_cases "$RES" "$OUT/rtjitter.json" "$OUT/exit-status" ''
check "limits that hold: the report, JUnit file and logs kept under output/" \
    sh -c "[ -s '$OUT/rtjitter.json' ] && [ -s '$OUT/rtjitter-junit.xml' ] && [ -s '$OUT/jackd.log' ] && [ \"\$(cat '$OUT/exit-status')\" = 0 ]"

run_def fail "${common[@]}" SERVER="$(server_name fail)" MAX_WAKEUP_P99_US=1
check "a wake-up limit of 1 us: exactly each phase's wakeup_p99, rtjitter-thresholds and the verdict fail ($(compare_cases "$RES" "$OUT/rtjitter.json" "$OUT/exit-status" wakeup_p99,rtjitter-thresholds 2>&1 | tail -1))" \
    compare_cases "$RES" "$OUT/rtjitter.json" "$OUT/exit-status" wakeup_p99,rtjitter-thresholds
check "the failing run exited 1 (a limit exceeded) and still recorded its cases" [ "$(cat "$OUT/exit-status")" = 1 ]

# no jackd of either name is left (looked up, never killed, by name)
check "the definition's private servers are gone" sh -c "! ps -C jackd -o args= | grep -q -- 'rtjt-lava-$$-'"
rm -f /dev/shm/jack_sem.*_"rtjt-lava-$$"-*
