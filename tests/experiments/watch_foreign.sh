# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by the compare experiments (compare_aa.sh, compare_pair.sh). watch_foreign, in the background: every
# second, "EPOCH RUN pid tid class rtprio cpu comm" of each real-time thread not of this experiment (its runs are
# the sourcing script's descendants) into $DIR/foreign.log, RUN being the report measured then ($DIR/current).
watch_foreign() {
    local me=$$
    while sleep 1; do
        local cur; cur=$(cat "$DIR/current" 2>/dev/null)
        ps -eLo pid,ppid,tid,cls,rtprio,psr,comm --no-headers | awk -v me="$me" -v t="$(date +%s)" -v cur="$cur" '
            { pid[$1] = $2 }
            ($4 == "FF" || $4 == "RR") && $7 !~ /^(migration|watchdog|irq|ksoftirq|rcu|kworker|cpuhp|idle_inject|posixcputmr)/ {
                line[NR] = $0; who[NR] = $1 }
            END { for (i in line) { p = who[i]; ours = 0
                    for (k = 0; k < 50 && p > 1; k++) { if (p == me) { ours = 1; break } p = pid[p] }
                    if (!ours) print t, cur, line[i] } }' >>"$DIR/foreign.log"
    done
}
