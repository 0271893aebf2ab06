#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-class: bulk (lava-run --validate five times, about 10 s beside the packages' download; no server, no network, no real-time thread, nothing timed)
# The sample LAVA jobs (data/lava/job-ssh.yaml, job-qemu.yaml) validated by LAVA's real dispatcher: Debian's
# lava-run 2023.01 --validate (the installed one, else unpacked from Debian's packages with `apt-get download` +
# `dpkg-deb -x` with the Python modules it imports, nothing installed; python3-guestfs, which pulls libguestfs and
# a kernel appliance, is replaced by an empty module: lava_dispatcher imports it at load time, only a guestfs
# deploy calls it). Each job against a device dictionary written by hand (tests/fixtures/lava/device-*.yaml).
# What --validate checks (lava_dispatcher/job.py, action.py): the job parsed into the device's pipeline (each
# action's method must be one the device has), then every action's validate(): timeouts, the device's constants,
# the deploy's files (an http(s) URL is fetched with HEAD: network; file:// is stat'ed), the qemu binary
# (dpkg-query qemu-system-x86, else `qemu-system-<arch> --version`). It connects to no device and clones no
# repository. Broken copies (an unknown action, no job timeout, a boot method the device has not) are refused.
. "$(dirname "$0")/../lib.sh"
TOP=$PWD
[ "$(id -u)" = 0 ] || { ok "# SKIP lava-run refuses to run as non-root ('lava-run should be executed as root')"; exit 0; }

DIST=/usr/lib/python3/dist-packages
if [ -x /usr/bin/lava-run ] && /usr/bin/python3 -c "import lava_dispatcher.parser" 2>/dev/null; then
    LAVARUN=/usr/bin/lava-run PYP=
    echo "# lava-run: the installed lava-dispatcher"
else
    mkdir -p "$WORK/deb" "$WORK/stub"
    (cd "$WORK/deb" && apt-get download lava-dispatcher lava-dispatcher-host lava-common python3-voluptuous \
        python3-pexpect python3-ptyprocess python3-jinja2 python3-markupsafe python3-configobj python3-setproctitle \
        python3-tz python3-requests python3-urllib3 python3-idna python3-certifi python3-chardet python3-netifaces \
        python3-pyudev python3-magic python3-six) >"$WORK/deb/log" 2>&1
    for d in "$WORK"/deb/*.deb; do dpkg-deb -x "$d" "$WORK/deb/x" 2>>"$WORK/deb/log"; done
    echo "# stand-in for python3-guestfs (imported at load, called only by a guestfs deploy)" >"$WORK/stub/guestfs.py"
    LAVARUN=$WORK/deb/x/usr/bin/lava-run PYP=$WORK/deb/x$DIST:$WORK/stub
    if [ ! -f "$LAVARUN" ]; then
        sed 's/^/# /' "$WORK/deb/log" | tail -3
        not_ok "lava-run: neither installed nor downloadable (apt-get download lava-dispatcher)"
        exit 0
    fi
    echo "# lava-run: unpacked from $(ls "$WORK"/deb/*.deb | wc -l) Debian packages ($(du -sk "$WORK/deb/x" | cut -f1) kB)"
fi
[ -d /var/lib/lava ] && LAVA_VAR_WAS=1 || LAVA_VAR_WAS=0 # lava-run's job tmp dir (it removes its job's own)

N=0
# validate NAME JOB DEVICE: lava-run --validate; its result.yaml in $WORK/NAME/result.yaml, its log in $WORK/NAME.log
validate() {
    N=$((N + 1))
    timeout 300 env ${PYP:+PYTHONPATH=$PYP} /usr/bin/python3 -W ignore "$LAVARUN" --job-id "rtjt-$$-$N" --output-dir "$WORK/$1" \
        --validate --device "$3" "$2" >"$WORK/$1.log" 2>&1
    local rc=$?
    [ -f "$WORK/$1/result.yaml" ] || tail -3 "$WORK/$1.log" | sed 's/^/# /'
    echo "# $1: lava-run exit $rc, $(python3 -c 'import sys, yaml; d = yaml.safe_load(open(sys.argv[1])); print(d["result"], d.get("error_type", ""), str(d.get("error_msg", "")).splitlines()[0:1])' "$WORK/$1/result.yaml" 2>&1)"
}
result() { # NAME KEY: the first line of result.yaml's KEY
    python3 -c 'import sys, yaml; print(str(yaml.safe_load(open(sys.argv[1]))[sys.argv[2]]).splitlines()[0])' "$WORK/$1/result.yaml" "$2" 2>/dev/null
}
# validated() NAME: the job passed, and the dispatcher logged its "validate" case as pass
validated() { [ "$(result "$1" result)" = pass ] && grep -q '"case": "validate", "definition": "lava", "result": "pass"' "$WORK/$1.log"; }

DEV=$TOP/tests/fixtures/lava
validate ssh "$TOP/data/lava/job-ssh.yaml" "$DEV/device-ssh.yaml"
check "job-ssh.yaml as committed: lava-run --validate passes on an ssh device, offline (its pipeline: $(grep -c '^ *- class:' "$WORK/ssh/description.yaml" 2>/dev/null) actions described)" \
    validated ssh

# broken copies: each refused, by the parser or by validate, with LAVA's own error (a job without its job timeout
# is refused by lava-server's schema, see lava.sh; lava-run 2023.01 itself fails it as a "Bug", not a JobError)
python3 - "$TOP/data/lava/job-ssh.yaml" "$WORK" <<'PY'
import copy, sys, yaml
job = yaml.safe_load(open(sys.argv[1]))
j = copy.deepcopy(job); j['actions'].insert(2, {'frobnicate': {'timeout': {'minutes': 1}}})
yaml.safe_dump(j, open(sys.argv[2] + '/unknown-action.yaml', 'w'))
j = copy.deepcopy(job); del j['timeouts']['job']
yaml.safe_dump(j, open(sys.argv[2] + '/no-job-timeout.yaml', 'w'))
j = copy.deepcopy(job); [a for a in j['actions'] if 'boot' in a][0]['boot']['method'] = 'qemu'
yaml.safe_dump(j, open(sys.argv[2] + '/boot-method.yaml', 'w'))
PY
for b in unknown-action no-job-timeout boot-method; do
    validate "$b" "$WORK/$b.yaml" "$DEV/device-ssh.yaml"
    check "a broken job ($b) is refused by lava-run --validate: $(result "$b" error_type): $(result "$b" error_msg | head -c 120)" \
        sh -c "[ \"\$(python3 -c 'import sys, yaml; print(yaml.safe_load(open(sys.argv[1]))[\"result\"])' '$WORK/$b/result.yaml')\" = fail ]"
done

# job-qemu.yaml: its image a local file (the committed https URL is fetched with HEAD: network; here it failed
# 'Resource not available' after 685 s of retries), the rest as is
: | gzip >"$WORK/rootfs.img.gz"
sed "s#url: https://example.org/images/debian-12-amd64-rtjitter.img.gz#url: file://$WORK/rootfs.img.gz#" \
    "$TOP/data/lava/job-qemu.yaml" >"$WORK/job-qemu.yaml"
validate qemu "$WORK/job-qemu.yaml" "$DEV/device-qemu.yaml"
if validated qemu; then
    ok "job-qemu.yaml (its image a local file): lava-run --validate passes on a qemu device, offline"
elif ! dpkg-query -W -f='${Status}' qemu-system-x86 2>/dev/null | grep -q ' installed' && ! command -v qemu-system-amd64 >/dev/null &&
     result qemu error_msg | grep -q "qemu-system-amd64"; then
    ok "# SKIP job-qemu.yaml: lava-run --validate needs qemu-system-x86 installed (dpkg-query; else it runs 'qemu-system-amd64 --version': $(result qemu error_type): $(result qemu error_msg))"
else
    not_ok "job-qemu.yaml (its image a local file): lava-run --validate: $(result qemu error_type): $(result qemu error_msg)"
fi

# a validated deploy leaves its job's tmp dir (deployimages-*: lava-run cleans up only after a failure): ours go
check "lava-run's job directories of ours under /var/lib/lava/dispatcher/tmp removed" \
    sh -c "rm -rf /var/lib/lava/dispatcher/tmp/rtjt-$$-* && ! ls -d /var/lib/lava/dispatcher/tmp/rtjt-$$-* 2>/dev/null | grep -q ."
[ "$LAVA_VAR_WAS" = 1 ] || rmdir /var/lib/lava/dispatcher/tmp /var/lib/lava/dispatcher /var/lib/lava 2>/dev/null || :
