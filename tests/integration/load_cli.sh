#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-class: quick
# `rtjitter loads` lists every load with its metric and parameters (defaults and bounds); a bad --loads is one
# line naming the culprit and exit 2, before any server is touched.
. "$(dirname "$0")/../lib.sh"

"$RTJ" loads >"$WORK/list"; rc=$?
check "rtjitter loads exits 0 (got $rc)" [ "$rc" -eq 0 ]
# the list wraps to 80 columns (util/wrap.h): a parameter's line continues under its text, read joined
sed -z 's/\n     \+/ /g' "$WORK/list" >"$WORK/list.joined"
"$RTJ" loads --json >"$WORK/loads.json"
check "rtjitter loads --json is a JSON list" [ "$(json "$WORK/loads.json" "type(d).__name__")" = list ]
for i in $(seq 0 $(($(json "$WORK/loads.json" "len(d)") - 1))); do
    load=$(json "$WORK/loads.json" "d[$i]['name']")
    check "listing has $load" grep -q "^$load\$" "$WORK/list"
    metric=$(json "$WORK/loads.json" "d[$i]['metric'] or ''")
    [ -n "$metric" ] && check "listing gives $load's metric $metric" grep -q "metric: $metric, " "$WORK/list"
    json "$WORK/loads.json" "'\\n'.join('%s=%s.*default %.15g.*from %.15g to %.15g' % (p['name'], 'N' if p['type'] == 'int' else 'X', p['default'], p['min'], p['max']) for p in d[$i]['params'])" >"$WORK/params"
    while IFS= read -r p; do
        [ -n "$p" ] && check "listing gives $load's parameter ${p%%=*} with its default and bounds" grep -q -- "$p" "$WORK/list.joined"
    done <"$WORK/params"
done
check "help of run names the default load set" sh -c "'$RTJ' run --help | grep -q 'none,burn,write,read,compile,memload,video,x'"

bad() { # SPEC EXPECTED-TEXT
    "$RTJ" run --loads "$1" --duration 1 >"$WORK/out" 2>"$WORK/err"; local rc=$?
    check "--loads '$1': exit 2, one line naming it (got $rc: $(head -c 200 "$WORK/err"))" \
        sh -c "[ $rc -eq 2 ] && [ \$(wc -l <'$WORK/err') -eq 1 ] && grep -qF -- \"$2\" '$WORK/err'"
}
bad "bogus" "unknown load 'bogus'"
bad "none,burn,wrte" "unknown load 'wrte'"
bad "write:mb=0" "mb='0' is not a whole number from 1 to"
bad "memload:pct=99" "pct='99' is not a number from 1 to 95"
bad "burn:cores=2" "unknown parameter 'cores'"
bad "exec" "exec needs a command"
bad "none,,burn" "empty phase"
