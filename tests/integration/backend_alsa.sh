#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# --backend alsa without a sound card: through the `jack` PCM of libasound2-plugins (a private ALSA config names
# pcm.rtjtjack, a jack PCM on a private jackd dummy server), against truths that do not come from rtjitter:
# - the server's own frame count (tests/helpers/jack_frames, a separate JACK client, on the same clock): cycles in
#   rtjitter's measured window and the mean period against the frames the server really ran, at two settings;
# - what the device accepted when the request differs (the server fixes the rate), --nperiods, --duplex;
# - forced xruns: rtjitter pinned to one CPU and a SCHED_FIFO hog there (tests/helpers/cpu_hog, above the period
#   loop, below the server and the plugin's JACK thread) spins 30 ms four times: the plugin plays the buffer out
#   meanwhile, so each spin is exactly one xrun (reported, and a frame gap), no longer than the spin;
# - error paths: no --device, a missing card (hw:97), a busy PCM (a test plugin that answers -EBUSY, while a process
#   in a private mount namespace holds /dev/snd/pcmC0D0p: the message names it), a forbidden one (-EACCES),
#   alsa-lib's null PCM (not paced: the run stops by itself, incomplete).
PART=${PART:-main}   # backend_alsa_xrun.sh runs PART=xrun: forced xruns of the ALSA backend
. "$(dirname "$0")/../lib.sh"

cat >"$WORK/asound.conf" <<EOF
pcm.rtjtjack {
    type jack
    playback_ports { 0 system:playback_1 1 system:playback_2 }
    capture_ports { 0 system:capture_1 1 system:capture_2 }
}
pcm_type.rtjtfail { lib "$WORK/libasound_module_pcm_rtjtfail.so" }
pcm.rtjtbusy { type rtjtfail errno 16 }
pcm.rtjtdenied { type rtjtfail errno 13 }
EOF
export ALSA_CONFIG_PATH="/usr/share/alsa/alsa.conf:$WORK/asound.conf"

# A PCM plugin whose open fails with the errno of its config: a busy or forbidden device without hardware
# (-DPIC: alsa-lib's plugin symbol macro has a static-build variant otherwise).
cat >"$WORK/fail.c" <<'EOF'
#include <alsa/asoundlib.h>
#include <alsa/pcm_external.h>
SND_PCM_PLUGIN_DEFINE_FUNC(rtjtfail)
{
    (void)pcmp; (void)name; (void)root; (void)stream; (void)mode;
    long e = EIO;
    snd_config_iterator_t i, next;
    snd_config_for_each(i, next, conf) {
        snd_config_t *n = snd_config_iterator_entry(i);
        const char *id;
        if (snd_config_get_id(n, &id) == 0 && strcmp(id, "errno") == 0)
            snd_config_get_integer(n, &e);
    }
    return -(int)e;
}
SND_PCM_PLUGIN_SYMBOL(rtjtfail);
EOF
cc -shared -fPIC -DPIC -o "$WORK/libasound_module_pcm_rtjtfail.so" "$WORK/fail.c" -lasound || not_ok "the test plugin builds"

# start_server NAME RATE PERIOD: jackd at real-time priority 95 (its clients' threads, the jack PCM's among them,
# stay above the hog at 80); sets JACKD_PID.
start_server() {
    jackd -n "$1" -R -P 95 -d dummy -r "$2" -p "$3" >"$WORK/jackd-$1.log" 2>&1 &
    JACKD_PID=$!
    JACKD_PIDS+=("$JACKD_PID")
    local i
    for i in $(seq 100); do
        (jack_wait -s "$1" -c 2>/dev/null | grep -q '^running') 2>/dev/null && return 0
        kill -0 "$JACKD_PID" 2>/dev/null || break
        sleep 0.1
    done
    cat "$WORK/jackd-$1.log"; return 1
}


if [ "$PART" = main ]; then # ---- part main (the file's top says which script runs it) ----
for cfg in "48000 64" "44100 256"; do
    set -- $cfg
    rate=$1 period=$2
    name=$(server_name "$rate-$period")
    start_server "$name" "$rate" "$period" || { not_ok "jackd $rate/$period starts"; continue; }
    "$RTJ_HELPERS/jack_frames" "$name" >"$WORK/frames.log" 2>"$WORK/frames.err" &
    fpid=$!
    canaries 75 4.5
    sleep 0.3
    JACK_DEFAULT_SERVER=$name "$RTJ" run --backend alsa --device rtjtjack --rate "$rate" --period "$period" \
        --loads none --warmup 0.5 --duration 3 --quiet --json "$WORK/s.json" >"$WORK/out" 2>&1
    rc=$?
    sleep 0.2; kill -TERM "$fpid"; wait "$fpid"
    canaries_wait
    check "alsa on the jack PCM at $rate/$period exits 0 (got $rc: $(head -c 200 "$WORK/out"))" [ "$rc" -eq 0 ]
    read -r srate speriod cycles exp_cycles mean exp_mean rrate rperiod gap < <(frames_check "$WORK/s.json" "$WORK/frames.log")
    echo "# $rate/$period: server $srate/$speriod; cycles $cycles (the server ran $exp_cycles), mean period $mean us (server's frames say $exp_mean)"
    check "the report's rate and period are the server's ($rrate/$rperiod)" [ "$rrate $rperiod" = "$srate $speriod" ]
    skipped=$(json "$WORK/s.json" "d['phases'][0]['xruns']['skipped_cycles']")
    # What the frame clock cannot know, from the report and the canaries: (1) each xrun gap the PCM gave no timestamp
    # for is counted in whole cycles, known to one either way (audio.xrun_events.gaps_estimated); (2) the jack PCM's
    # pointer moves only when its JACK client runs: a server cycle that client missed (its thread woke over a period
    # late, as the idle VM's CPUs do: jack2 logs "client ... was not finished") is played by nobody and counted as
    # nothing, so the server ran that many cycles more (seen at 48000/64 with the idle states left on: 27 cycles so
    # in a 3 s window with one xrun, jack_frames itself missing 35 in the run; the frame clock cannot see them). The
    # canaries' stalls of a period or more, in periods (canary_stalls' skips), bound what the machine made that
    # client miss.
    read -r w0 w1 < <(json "$WORK/s.json" "tuple(d['phases'][0]['clock_window_s'])")
    est=$(json "$WORK/s.json" "d['audio']['xrun_events']['gaps_estimated']")
    per_us=$(python3 -c "print($period * 1e6 / $rate)")
    read -r _ _ _ missed _ < <(canary_stalls "$w0" "$w1" --min-us "$per_us" --interval-us "$per_us")
    echo "# $rate/$period: the server ran $(python3 -c "print(round($exp_cycles - $cycles - $skipped, 1))") cycles more than the frame clock counted; $est xrun gaps estimated (one cycle each), the canaries' stalls could make the plugin's client miss $missed"
    check "cycles + skipped cycles in the measured window = the server's frames there / period, within 1 % + 2 (+ $gap the observer missed at the ends, $est for the estimated xrun gaps, up to $missed more the plugin's client may have missed by the canaries) ($cycles + $skipped, $exp_cycles)" \
        python3 -c "import sys; t = 0.01 * $exp_cycles + 2 + $gap + $est; sys.exit(not -t <= $exp_cycles - $cycles - $skipped <= t + $missed)"
    pc=$(period_check "$WORK/s.json" "$WORK/frames.log"); pcr=$?
    case $pc in
    mean*) # the frame clock's cycles C against the server's C + L, L in [-est, missed + est]: the period is longer by L / C
        read -r got srv < <(echo "$pc" | awk '{ print $(NF - 5), $(NF - 1) }')
        pcr=$(python3 -c "c = $cycles - 1 + $skipped; print(int(not 0.99 * $srv * (1 - $est / c) <= $got <= 1.01 * $srv * (1 + ($missed + $est) / c)))")
        pc="$pc; longer by up to $missed + $est cycles the frame clock could not count" ;;
    esac
    check "the period measured = the server's own period (its frames per second), within 1 % ($pc)" [ "$pcr" = 0 ]
    check "the report says the plugin gives no device timestamps (wakeup not measured), and names the PCM" \
        [ "$(json "$WORK/s.json" "d['audio']['device_timestamps'], d['audio']['driver'], d['audio']['device'], d['audio']['accepted']['access']")" = "False IOPLUG rtjtjack MMAP_INTERLEAVED" ]
    check "same report shape as jack: every metric key present" \
        [ "$(json "$WORK/s.json" "all(k in d['phases'][0] for k in ('period_us','jitter_us','wakeup_us','callback_us','margin_us','xruns','deadlines_met_pct','histograms','timeline'))")" = True ]
    # An xrun with no load is the machine's own: a stall a canary saw of half a period or more (a loop that late sees
    # two periods when the server's next cycle comes early, as the dummy driver's does after a late one: a 3.6 ms
    # stall made a gap at 5.8 ms once beside stress-ng), and at least 1 ms (the machine's usual wake-ups are 0.1 ms).
    read -r _ own _ _ _ _ _ own_max < <(canary_stalls "$w0" "$w1" --min-us "$(python3 -c "print(max(1000, $period * 1e6 / $rate / 2))")")
    xr=$(json "$WORK/s.json" "d['phases'][0]['xruns']['reported'], d['phases'][0]['xruns']['detected']")
    check "no xrun on a quiet run, beyond the machine's own stalls (reported/detected $xr; the canaries saw $own stalls of half a period or more, the longest $own_max us)" \
        [ "$(json "$WORK/s.json" "(lambda x: x['reported'] <= $own and x['detected'] <= $own)(d['phases'][0]['xruns'])")" = True ]
    if [ "$rate" = 48000 ]; then
        # What the device accepts may differ from the request: the jack PCM takes only the server's rate.
        JACK_DEFAULT_SERVER=$name "$RTJ" run --backend alsa --device rtjtjack --rate 44100 --period 64 --nperiods 3 \
            --duplex --loads none --warmup 0.3 --duration 1 --quiet --json "$WORK/acc.json" >"$WORK/out" 2>&1
        rc=$?
        check "a request the device changes: exit 0 (got $rc), requested 44100 accepted 48000, 3 periods, duplex" \
            [ "$rc" -eq 0 -a "$(json "$WORK/acc.json" "d['audio']['requested']['rate'], d['audio']['accepted']['rate'], d['audio']['rate'], d['audio']['accepted']['nperiods'], d['audio']['accepted']['buffer_frames'], d['audio']['accepted']['duplex']")" = "44100 48000 48000 3 192 True" ]
        check "duplex ran its cycles (1 s at 64 frames: over 600)" [ "$(json "$WORK/acc.json" "d['phases'][0]['cycles'] > 600")" = True ]
    fi
    stop_jackd "$JACKD_PID"
done
fi # ---- end of part main ----

if [ "$PART" = xrun ]; then # ---- part xrun (the file's top says which script runs it) ----
# --- forced xruns: the period loop starved by a hog on its CPU, the plugin's JACK thread not ---
if [ "$(nproc)" -ge 2 ]; then
    cpu=$(($(nproc) - 1))
    name=$(server_name xrun)
    start_server "$name" 48000 256 || not_ok "jackd for the xrun test starts"
    JACK_DEFAULT_SERVER=$name taskset -c "$cpu" "$RTJ" run --backend alsa --device rtjtjack --period 256 \
        --priority 70 --loads none --warmup 0.5 --duration 4 --quiet --json "$WORK/x.json" >"$WORK/out" 2>&1 &
    rpid=$!
    canaries 75 5.5
    "$RTJ_HELPERS/cpu_hog" "$cpu" 80 30 600 4 1600 >"$WORK/hog.log"
    wait "$rpid"; rc=$?
    canaries_wait
    check "the run beside the hog exits 0 (got $rc)" [ "$rc" -eq 0 ]
    python3 - "$WORK/x.json" "$WORK/hog.log" >"$WORK/x.txt" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); p = d['phases'][0]; a = d['audio']
spins = [tuple(map(float, l.split()[1:])) for l in open(sys.argv[2]) if l.startswith('spin')]
w0, w1 = p['clock_window_s']
inside = [s for s in spins if w0 + 0.05 < s[0] and s[1] < w1 - 0.05]
buf_ms = a['accepted']['buffer_frames'] * 1000 / a['rate']; per_ms = a['period_frames'] * 1000 / a['rate']
secs = sorted({int(s[0] - w0) for s in inside})
tl = [e['s'] for e in p['timeline'] if e['xruns_detected']]
for k, v in (("spins", len(inside)), ("reported", p['xruns']['reported']), ("detected", p['xruns']['detected']),
             ("events", a['xrun_events']['count']), ("max_ms", a['xrun_events']['max_ms']),
             ("total_ms", a['xrun_events']['total_ms']), ("low_ms", len(inside) * (30 - buf_ms - per_ms)),
             ("high_ms", len(inside) * 30.5), ("recoveries", a['recoveries']['count']),
             ("seconds_ok", int(all(s in tl or s + 1 in tl or s - 1 in tl for s in secs)))):
    print(k, v)
PY
    sed 's/^/# /' "$WORK/x.txt"
    v() { awk -v k="$1" '$1 == k { print $2 }' "$WORK/x.txt"; }
    n=$(v spins)
    check "the hog's 4 spins fell inside the measured window" [ "$n" = 4 ]
    # beyond the spins, an xrun or a gap is the machine's own only where a canary saw a CPU stall of 4 ms or more
    read -r w0 w1 < <(json "$WORK/x.json" "tuple(d['phases'][0]['clock_window_s'])")
    read -r _ own _ _ _ _ _ own_max < <(canary_stalls "$w0" "$w1" --spins "$WORK/hog.log" --min-us 4000)
    check "each spin is one device xrun, reported and seen as a frame gap ($(v reported)/$(v detected), $(v recoveries) recoveries; the canaries saw $own stalls of 4 ms or more beside the spins, the longest $own_max us)" \
        [ "$(v reported)" -ge "$n" -a "$(v reported)" -le $((n + own)) -a "$(v detected)" -ge "$n" -a "$(v detected)" -le $((n + own)) -a "$(v recoveries)" = "$(v reported)" ]
    # ... and an xrun of the machine's own (one per stall a canary saw) lasts that stall and a period at most
    high=$(python3 -c "print(round($(v high_ms) + $own * ($own_max / 1000 + 256 * 1000 / 48000), 1))")
    check "their lengths add up to the spins less what the buffer covered: $(v low_ms)..$high ms, with the canaries' $own stalls (got $(v total_ms))" \
        python3 -c "import sys; sys.exit(not $(v low_ms) <= $(v total_ms) <= $high)"
    check "each gap sits in the timeline's second of its spin" [ "$(v seconds_ok)" = 1 ]
    stop_jackd "$JACKD_PID"
else
    ok "# one CPU: the forced-xrun test needs two"
fi
fi # ---- end of part xrun ----

if [ "$PART" = main ]; then # ---- part main (the file's top says which script runs it) ----
# --- error paths: one line, exit 2 (bad input) or 3 (a PCM that cannot be measured) ---
# fails_with RC PATTERN: the last run exited RC and said one line on stderr, matching PATTERN.
fails_with() { [ "$rc" -eq "$1" ] && [ "$(wc -l <"$WORK/e")" -eq 1 ] && grep -q -- "$2" "$WORK/e"; }
"$RTJ" run --backend alsa --loads none --duration 1 >"$WORK/o" 2>"$WORK/e"; rc=$?
check "no --device: exit 2, one line (got $rc: $(cat "$WORK/e"))" fails_with 2 "needs --device"
"$RTJ" run --backend alsa --device hw:97 --loads none --duration 1 >"$WORK/o" 2>"$WORK/e"; rc=$?
check "a missing card hw:97: exit 2, one line naming it (got $rc: $(cat "$WORK/e"))" fails_with 2 "no ALSA device 'hw:97'"
"$RTJ" run --backend alsa --device rtjtdenied --loads none --duration 1 >"$WORK/o" 2>"$WORK/e"; rc=$?
check "a forbidden PCM: exit 2, one line (got $rc: $(cat "$WORK/e"))" fails_with 2 "not permitted"
# A holder of /dev/snd/pcmC0D0p, in a mount namespace of its own (this machine has no /dev/snd).
unshare -m sh -c 'mount -t tmpfs rtjt /dev && mkdir /dev/snd && : >/dev/snd/pcmC0D0p && exec 3</dev/snd/pcmC0D0p && exec sleep 20' &
hpid=$!
sleep 0.5
"$RTJ" run --backend alsa --device rtjtbusy --loads none --duration 1 >"$WORK/o" 2>"$WORK/e"; rc=$?
if kill -0 "$hpid" 2>/dev/null; then
    kill "$hpid" 2>/dev/null; wait "$hpid" 2>/dev/null
    check "a busy PCM: exit 2, one line naming the holder, sleep (pid $hpid) (got $rc: $(cat "$WORK/e"))" \
        fails_with 2 "busy: held by sleep (pid $hpid)"
else
    ok "# SKIP a busy PCM's holder: no private mount namespace can be made here (unshare -m fails in a chroot)"
fi
"$RTJ" run --backend alsa --device rtjtbusy --loads none --duration 1 >"$WORK/o" 2>"$WORK/e"; rc=$?
check "a busy PCM with no holder to be seen: exit 2, one line (got $rc: $(cat "$WORK/e"))" fails_with 2 "is busy"
start=$(date +%s.%N)
"$RTJ" run --backend alsa --device null --loads none --warmup 0.5 --duration 3 --json "$WORK/n.json" >"$WORK/o" 2>"$WORK/e"; rc=$?
el=$(python3 -c "print(round($(date +%s.%N) - $start, 2))")
check "alsa-lib's null PCM (not paced): exit 3 in under 2 s, saying why (got $rc in $el s: $(tail -1 "$WORK/e"))" \
    [ "$rc" -eq 3 -a "$(grep -c "not paced" "$WORK/e")" -ge 1 -a "$(python3 -c "print(int($el < 2))")" = 1 ]
check "... and its report is marked incomplete with that reason" \
    [ "$(json "$WORK/n.json" "d['complete'] is False and 'not paced' in d['incomplete_reason']")" = True ]
fi # ---- end of part main ----
