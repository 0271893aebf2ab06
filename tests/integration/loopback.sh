#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# --loopback on a private dummy jackd (48 kHz, 256 frames).
# - Round-trip latency through the internal loop client adding N frames (N = 0, 7, 64): jack2 breaks the loop of the
#   graph with one feedback connection, a period later, so the truth is 256 + N frames; jack2's own jack_iodelay,
#   run at the same time through the same loop code (tests/helpers/jack_loopback, another client on the same server),
#   must agree within one frame; and rtjitter --loopback OUT:IN through that standalone loop gives the same.
#   No glitch unless the server itself had an xrun there (this VM is shared: a real xrun is a real dropout).
# - Stalls injected by tests/helpers/stall_client (20 ms, known times on CLOCK_MONOTONIC_RAW, jack2's clock): the
#   glitch nearest each stall's end (when the graph ran again) is within a period of it; every other glitch is tied
#   to an xrun event (this VM is shared: its own xruns are real dropouts); each stall's WAV, read back by libsndfile
#   (tests/helpers/wav_read: frames, rate, channels), has its captured channel jump at the glitch: the 1 kHz tone
#   of the reference (48 frames a cycle, loopsig.h) stops repeating itself there, and wherever else it does, the
#   report lists a glitch (or frames were never captured: a hole of exact zeros).
# - Bad port name, impossible connection, --loopback with --backend timer: one line, exit 2.
# - A full disk while writing WAVs (a tiny tmpfs in a private mount namespace; else SKIP): the run goes on, exits 0,
#   and the report says which glitches have no recording and why; nothing is left behind.
. "$(dirname "$0")/../lib.sh"
SRV=$(server_name lpr)
PERIOD=256
LOOP_PIDS=()
cleanup_lpr() {
    local p
    for p in "${LOOP_PIDS[@]}"; do kill -TERM "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
    cleanup_lib
    rm -f /dev/shm/jack_sem.*_"$SRV"*
}
trap cleanup_lpr EXIT
start_jackd "$SRV" 48000 "$PERIOD" || { not_ok "jackd starts"; exit 0; }
H=$RTJ_HELPERS

# lat N: rtjitter through its internal loop of N frames, while jack_iodelay measures the standalone loop lpN.
lat() {
    local n=$1 i
    "$H/jack_loopback" "$SRV" "lp$n" "$n" 2>"$WORK/lp$n.err" &
    local lp=$!
    LOOP_PIDS+=("$lp")
    for i in $(seq 50); do grep -q ready "$WORK/lp$n.err" && break; sleep 0.1; done
    # jack_iodelay prints a measurement each time it has one; it is stopped once it has printed one after
    # rtjitter's run (or at 10 s): a fixed 3 s once ended it before it had any, beside the whole suite
    JACK_DEFAULT_SERVER="$SRV" timeout 10 stdbuf -oL jack_iodelay >"$WORK/iod$n.out" 2>&1 &
    local io=$!
    for i in $(seq 50); do jack_lsp -s "$SRV" 2>/dev/null | grep -q '^jack_delay:in' && break; sleep 0.1; done
    jack_connect -s "$SRV" jack_delay:out "lp$n:in" && jack_connect -s "$SRV" "lp$n:out" jack_delay:in
    "$RTJ" run --server "$SRV" --loads none --duration 1.5 --warmup 0.3 --quiet --loopback "internal:$n" \
        --json "$WORK/lat$n.json" >"$WORK/lat$n.out" 2>&1
    LAT_RC=$?
    for i in $(seq 50); do grep -q 'total roundtrip latency' "$WORK/iod$n.out" && break; sleep 0.1; done
    kill -TERM "$io" 2>/dev/null
    wait "$io"
    IOD=$(sed -n 's/^ *\([0-9.]*\) frames .*total roundtrip latency.*/\1/p' "$WORK/iod$n.out" | tail -1)
    IOD=${IOD%.*}
    # jack_iodelay's advice: "extra loopback latency: X frames", "use Y for the backend arguments -I and -O"
    IOD_EXTRA=$(sed -n 's/^.*extra loopback latency: *\([0-9]*\) frames.*/\1/p' "$WORK/iod$n.out" | tail -1)
    IOD_USE=$(sed -n 's/^.*use *\([0-9]*\) for the backend arguments -I and -O.*/\1/p' "$WORK/iod$n.out" | tail -1)
    if [ "$n" = 7 ]; then # OUT:IN through the loop jack_iodelay just measured (now alone on it)
        IOD_EXTRA7=$IOD_EXTRA IOD_USE7=$IOD_USE
        "$RTJ" run --server "$SRV" --loads none --duration 1.5 --warmup 0.3 --quiet --loopback "lp$n:in:lp$n:out" \
            --json "$WORK/ports.json" >"$WORK/ports.out" 2>&1
        PORTS_RC=$?
    fi
    kill -TERM "$lp"; wait "$lp" 2>/dev/null
}

# glitches not at an xrun of the server's own (a glitch tied to one is a real dropout of this busy machine), in the
# measured part (events are counted there only; a glitch listed with measuring false came after it, at the run's
# end: seen beside stress-ng, a silence 11 ms after the window)
unexplained='sum(1 for g in d["loopback"]["glitches"] if g["xrun"] is None and g["measuring"])'
for N in 0 7 64; do
    lat "$N"
    truth=$((PERIOD + N))
    got=$(json "$WORK/lat$N.json" 'd["loopback"]["latency"]["frames"]')
    echo "# N=$N: truth $truth, rtjitter $got, jack_iodelay ${IOD:-none}, glitches $(json "$WORK/lat$N.json" \
        'd["loopback"]["glitch_count"], d["phases"][0]["xruns"]')"
    check "internal:$N: run exits 0 ($LAT_RC)" [ "$LAT_RC" = 0 ]
    check "internal:$N: latency $got frames = period + N = $truth, within one frame" \
        python3 -c "import sys; sys.exit(abs(int('$got') - $truth) > 1)"
    check "internal:$N: jack_iodelay on the same loop code (${IOD:-none}) within one frame of rtjitter ($got)" \
        python3 -c "import sys; sys.exit(abs(int('${IOD:-999999}') - int('$got')) > 1)"
    # No hardware in an internal loop: nothing to compensate, so no -I/-O advice (the OUT:IN run below has it).
    adv=$(json "$WORK/lat$N.json" 'd["loopback"]["hardware_in_loop"], d["loopback"]["latency"]["extra_frames"], d["loopback"]["latency"]["jackd_io_frames"]')
    check "internal:$N: no -I/-O advice for a loop with no hardware (hardware_in_loop, extra, -I/-O: $adv)" \
        [ "$adv" = "False None None" ]
    check "internal:$N: no glitch but at a server xrun ($(json "$WORK/lat$N.json" "$unexplained") unexplained)" \
        [ "$(json "$WORK/lat$N.json" "$unexplained")" = 0 ]
    [ "$(json "$WORK/lat$N.json" "$unexplained")" = 0 ] || json "$WORK/lat$N.json" \
        '"# glitches (t s, kind, frames, xrun): %s; events (t_s, length ms, cycles): %s" % ([(round(g["t_ns"] / 1e9, 4), g["kind"], g["length_frames"], g["xrun"]) for g in d["loopback"]["glitches"]], [(round(e["t_s"], 4), round(e["length_ms"], 2), e["cycles"]) for e in d["phases"][0]["events"]])'

    check "internal:$N: the report names the loop" \
        [ "$(json "$WORK/lat$N.json" 'd["audio"]["loopback"]["mode"], d["audio"]["loopback"]["loop_delay_frames"]')" = "internal $N" ]
done
check "OUT:IN through the standalone loop: exits 0 ($PORTS_RC)" [ "$PORTS_RC" = 0 ]
check "OUT:IN: latency $(json "$WORK/ports.json" 'd["loopback"]["latency"]["frames"]') = $((PERIOD + 7)), within one frame" \
    [ "$(json "$WORK/ports.json" 'abs(d["loopback"]["latency"]["frames"] - '$((PERIOD + 7))') <= 1')" = True ]
adv=$(json "$WORK/ports.json" 'd["loopback"]["hardware_in_loop"], d["loopback"]["latency"]["reported_frames"], d["loopback"]["latency"]["extra_frames"], d["loopback"]["latency"]["jackd_io_frames"]')
echo "# OUT:IN: hardware in loop, JACK reports, extra, -I/-O: rtjitter $adv; jack_iodelay extra ${IOD_EXTRA7:-none}, use ${IOD_USE7:-none}"
set -- $adv
check "OUT:IN: -I/-O advice: extra $3 and $4 each, within one frame of jack_iodelay's on the same loop (${IOD_EXTRA7:-none}, ${IOD_USE7:-none})" \
    python3 -c "import sys; sys.exit(not ('$1' == 'True' and abs(int('$3') - int('${IOD_EXTRA7:-999999}')) <= 1 and abs(int('$4') - int('${IOD_USE7:-999999}')) <= 1))"
check "OUT:IN: the ports are named and connected, no glitch but at a server xrun" \
    [ "$(json "$WORK/ports.json" 'd["audio"]["loopback"]["out"] == "lp7:in" and d["audio"]["loopback"]["in"] == "lp7:out" and d["audio"]["loopback"]["connected"] and '"$unexplained"' == 0')" = True ]

# --- bad input: one line, exit 2 ---
one_line_exit2() { [ "$1" = 2 ] && [ "$(wc -l <"$WORK/bad.err")" = 1 ] && grep -q -- "$2" "$WORK/bad.err"; }
bad() { # DESC PATTERN ARGS...
    local desc=$1 pat=$2; shift 2
    "$RTJ" run --loads none --duration 1 --warmup 0 --quiet "$@" >"$WORK/bad.out" 2>"$WORK/bad.err"
    local rc=$?
    echo "# $desc: rc $rc: $(cat "$WORK/bad.err")"
    check "$desc: exit 2, one line naming it" one_line_exit2 "$rc" "$pat"
}
bad "a port that does not exist" "nosuch:out" --server "$SRV" --loopback system:playback_1:nosuch:out
bad "a capture port as OUT (impossible connection)" "system:capture_1" --server "$SRV" \
    --loopback system:capture_1:system:capture_2
bad "not a port pair" "--loopback" --server "$SRV" --loopback nocolon
bad "internal:N with a bad N" "internal:x" --server "$SRV" --loopback internal:x
bad "--loopback with --backend timer" "--loopback is not an option of --backend timer" --backend timer \
    --loopback internal
bad "--loopback internal with --backend alsa (its form there is duplex[:P:C])" "with --backend alsa give duplex" \
    --backend alsa --loopback internal
bad "--record without --loopback" "--record needs --loopback" --server "$SRV" --record "$WORK/x.wav"
check "no glitch folder left by the refused runs" [ -z "$(find "$WORK" -name '.rtjitter-glitches-*')" ]

# --- stalls at known times: each one glitch, in the right place, with a WAV ---
STALLS=3
# stall_run TAG JSON [EXTRA rtjitter args]: rtjitter with the internal loop; a client stalls 20 ms every 150 cycles
# (0.8 s), STALLS times, once rtjitter is past its warm-up. Sets RUN_RC; the stall client's log is $WORK/TAG.stall.
stall_run() {
    local tag=$1 out=$2 i; shift 2
    "$RTJ" run --server "$SRV" --loads none --duration "${STALL_DURATION:-4}" --warmup 0.8 --quiet \
        --loopback internal --json "$out" "$@" >"$WORK/$tag.out" 2>&1 &
    local rpid=$!
    for i in $(seq 50); do jack_lsp -s "$SRV" 2>/dev/null | grep -q "^rtjitter-$rpid:in" && break; sleep 0.1; done
    [ -n "${BEFORE_STALLS:-}" ] && eval "$BEFORE_STALLS"
    # an independent client on the same server logs every cycle (tests/helpers/jack_frames): when the graph ran
    # again after each stall, on jack2's clock
    "$H/jack_frames" "$SRV" >"$WORK/$tag.frames" 2>/dev/null &
    local fpid=$!
    LOOP_PIDS+=("$fpid")
    "$H/stall_client" "$SRV" 20 150 "$STALLS" "rtjitter-$rpid:in" >"$WORK/$tag.stall" 2>"$WORK/$tag.stallerr" &
    local spid=$!
    LOOP_PIDS+=("$spid")
    for i in $(seq 50); do grep -q ready "$WORK/$tag.stallerr" && break; sleep 0.1; done
    sleep 1.0 # past the warm-up
    kill -USR1 "$spid"
    for i in $(seq 100); do grep -q '^stalls' "$WORK/$tag.stall" && break; sleep 0.1; done
    [ -n "${AFTER_STALLS:-}" ] && sleep 0.5 && eval "$AFTER_STALLS"
    wait "$rpid"
    RUN_RC=$?
    kill -TERM "$spid"; wait "$spid" 2>/dev/null
    kill -TERM "$fpid"; wait "$fpid" 2>/dev/null
}
stall_run st "$WORK/st.json"
python3 - "$WORK/st.json" "$WORK/st.stall" $PERIOD "$WORK/st.frames" <<'PY' >"$WORK/st.match"
import json, sys
d = json.load(open(sys.argv[1])); period = int(sys.argv[3]) / 48000.0
st = [float(x) for x in open(sys.argv[2]).read().split('stall_times')[1].split('\n')[0].split()]
# the stalls that ended inside the measured window (a busy machine can start the stall client late: the last
# stall then falls after the run's end, where nothing is measured)
w0, w1 = d['phases'][0]['clock_window_s']
all_stalls = list(zip(st[0::2], st[1::2]))
stalls = [(s, e) for s, e in all_stalls if w0 <= e <= w1 - period]
print('# stalls inside the measured window: %d of %d (window %.4f-%.4f)' % (len(stalls), len(all_stalls), w0, w1))
gl = [g for g in d['loopback']['glitches']]
print('# stalls (start, end):', ' '.join('%.4f-%.4f' % s for s in stalls))
print('# glitches (t, kind, frames, wav, xrun):', ' '.join('%.4f/%s/%d/%s/%s' % (g['t_ns'] / 1e9, g['kind'],
      g['length_frames'], g['wav'], 'x' if g['xrun'] else '-') for g in gl))
# each stall: the glitch nearest to its end (the first cycle after it, when the graph ran again) is within one
# period of it; both times on CLOCK_MONOTONIC_RAW, jack2's clock (the report's audio.clock says so)
# A glitch of the machine's own that began just before a stall runs on through it as one (a 5120-frame glitch
# from 5.6 ms before a stall, seen beside stress-ng): the distance to a glitch is 0 when the stall's end is inside it.
def dist(g, e):
    a = g['t_ns'] / 1e9
    b = a + g['length_frames'] / 48000.0
    return 0.0 if a <= e <= b else min(abs(a - e), abs(b - e))
# When the graph ran again after the stall is the observer's (jack_frames) first cycle after the stall's end: a
# busy machine can start it later than a period after the client's own end (+8.6 ms once, the glitch a period
# after that cycle), and the glitch is judged against both.
try:
    fr = [(float(l.split()[4]), int(l.split()[2])) for l in open(sys.argv[4]) if l.startswith('c ') and len(l.split()) >= 5]
except OSError:
    fr = []
cyc = sorted(t for t, f in fr)
def resumed(e):
    return next((t for t in cyc if t > e), e)
near = [min(gl, key=lambda g: min(dist(g, e), dist(g, resumed(e)))) if gl else None for s, e in stalls]
found = [g for g, (s, e) in zip(near, stalls) if g and min(dist(g, e), dist(g, resumed(e))) <= period]
for g, (s, e) in zip(near, stalls):
    print('# stall ending %.4f (the graph ran again at %.4f): nearest glitch %s' % (e, resumed(e),
          '%.4f (%+.1f ms, %d frames)' % (g['t_ns'] / 1e9, (g['t_ns'] / 1e9 - e) * 1e3, g['length_frames']) if g else 'none'))
print('found', len(found), 'of', len(stalls))
print('clock', d['audio'].get('clock'))
# every other glitch is this busy machine's own: tied to an xrun event of the run
print('extra', sum(1 for g in gl if not any(g is f for f in found) and g['xrun'] is None and g['measuring']))
# the WAVs to read back: the stalls' glitches, with where each WAV begins (capture position) and the glitches
# (position, length) the report lists inside its window
for g in found:
    if not g['wav'] or not g.get('excerpt'):
        print('wav none'); continue
    start = g['excerpt']['start_pos']
    inside = ' '.join('%d:%d' % (h['pos'] - start, h['length_frames']) for h in gl
                      if start - 4800 < h['pos'] < start + 9600)
    print('wav', g['wav'], g['pos'] - start, g['length_frames'], inside)
    # how long the measured window went on after the glitch: a WAV holds 50 ms after it, or what came before the end
    print('tail', g['wav'], '%.4f' % (w1 - g['t_ns'] / 1e9))
    # a WAV cut because jack2's frame clock went back right after the glitch (the report's wav_cut): the observer's
    # own frame clock (jack_frames widens it unsigned, so a step back is a jump of nearly 2^32) must show the step
    # within 100 ms after the glitch
    t = g['t_ns'] / 1e9
    back = any(0 <= c[0] - t <= 0.1 and (c[1] - p[1]) % 2**64 >= 2**31 for p, c in zip(fr, fr[1:]))
    print('cut', g['wav'], (g.get('wav_cut') or 'none').replace(' ', '_'), 'seen' if back else 'unseen')
PY
cat "$WORK/st.match"
check "stalls: run exits 0 ($RUN_RC)" [ "$RUN_RC" = 0 ]
check "stalls: the client stalled $STALLS times" [ "$(sed -n 's/^stalls //p' "$WORK/st.stall")" = "$STALLS" ]
check "stalls: measured on CLOCK_MONOTONIC_RAW, the stall client's clock" grep -qx "clock CLOCK_MONOTONIC_RAW" "$WORK/st.match"
inside=$(sed -n 's/^found \([0-9]*\) of \([0-9]*\)$/\1 \2/p' "$WORK/st.match")
check "stalls: the glitch nearest each stall's end in the measured window is within one period of it, or holds it (found/stalls: $inside; at least $((STALLS - 1)) inside)" \
    python3 -c "import sys; f, n = map(int, '${inside:-0 0}'.split()); sys.exit(not (f == n and n >= $STALLS - 1))"
check "stalls: every other glitch is tied to an xrun event of the server" grep -qx "extra 0" "$WORK/st.match"
WAVDIR="$WORK/st-glitches"
grep '^wav ' "$WORK/st.match" | while read -r _ w at len inside; do
    if [ "$w" = none ] || [ ! -f "$WAVDIR/$w" ]; then not_ok "stalls: a WAV for each glitch ($WAVDIR/$w)"; continue; fi
    "$H/wav_read" --samples "$WAVDIR/$w" >"$WORK/wav.txt"
    info=$(head -1 "$WORK/wav.txt")
    # The captured channel (the first) against itself 48 frames earlier (the tone's cycle, loopsig.h): below 0.2
    # where the signal runs on (the marker is +-0.07), a jump of the tone's phase where frames were skipped or
    # repeated. Frames never captured (the cycles the server skipped) are exact zeros in the WAV: a hole, whose
    # edges jump too. The stall's glitch (at frame $at of the WAV, $len frames) must show: a jump within it, or a
    # hole's edge just before it. Every jump must be explained: inside one of the glitches the report lists in
    # this window (a busy machine's xrun may fall within the 100 ms), or at a hole's edge. None at the edges.
    verdict=$(python3 - "$WORK/wav.txt" "$at" "$len" $inside <<'PY'
import sys
lines = open(sys.argv[1]).read().split('\n')
x = [float(l.split()[0]) for l in lines[1:] if l.strip()]
at, ln = int(sys.argv[2]), int(sys.argv[3])
glitches = [tuple(int(v) for v in a.split(':')) for a in sys.argv[4:]]
n = len(x)
big = [i for i in range(48, n) if abs(x[i] - x[i - 48]) > 0.2]
holes, i = [], 0
while i < n:                       # runs of at least 48 exact zeros
    j = i
    while j < n and x[j] == 0.0:
        j += 1
    if j - i >= 48:
        holes.append((i, j))
    i = max(j, i + 1)
def explained(i):
    return any(p - 48 <= i <= p + l + 48 for p, l in glitches) or \
           any(a - 1 <= i <= a + 48 or b - 1 <= i <= b + 48 for a, b in holes)
own = any(at - 48 <= i <= at + ln + 48 for i in big) or any(at - 48 <= b <= at for a, b in holes)
unexplained = [i for i in big if not explained(i)]
edge = [i for i in big if i < 96 or i >= n - 48]
print('own', int(own), 'unexplained', len(unexplained), 'edge', len(edge), 'jumps', len(big), 'holes',
      ' '.join('%d-%d' % h for h in holes) or '-', 'first', unexplained[:3])
PY
)
    echo "# $w: $info; glitch at $at ($len frames), listed [$inside]; $verdict"
    set -- $info; frames=$2 rate=$4 ch=$6
    set -- $verdict; own=$2 unexpl=$4 edge=$6
    tail_s=$(sed -n "s/^tail $w //p" "$WORK/st.match")
    cut=$(sed -n "s/^cut $w //p" "$WORK/st.match")
    # 60-200 ms; shorter only holding the glitch whole, and when the run ended within 50 ms of the glitch or the
    # report says the frame clock went back (wav_cut) and the observer saw its frame clock step back then
    wav_len_ok() { [ "$rate" = 48000 ] && [ "$ch" = 2 ] && [ "$frames" -le 9600 ] && { [ "$frames" -ge 2880 ] ||
        { [ "$frames" -ge $((at + len)) ] && { [ "$cut" = "the_frame_clock_went_back seen" ] ||
        python3 -c "import sys; sys.exit(not ($tail_s < 0.05))"; }; }; }; }
    check "stalls: $w: 48 kHz, 2 channels (capture, reference), 60-200 ms (or cut by the run's end ${tail_s}s later, or where the frame clock went back: $cut)" wav_len_ok
    check "stalls: $w: the captured channel jumps at the glitch, inside the recording; every jump is a listed glitch" \
        [ "$own" = 1 -a "$unexpl" = 0 -a "$edge" = 0 ]
done

# --- a full disk while the WAVs are written: the run goes on, the report says which glitch has no recording ---
if [ "$(id -u)" -ne 0 ] || ! unshare -m true 2>/dev/null; then
    ok "# SKIP full disk: needs root and unshare -m for a private tmpfs"
else
    mkdir -p "$WORK/small"
    # when the filler goes, on the report's clock (CLOCK_MONOTONIC_RAW): bash's own EPOCHREALTIME then (no process
    # to start while the run's end draws near: the report is written in that tmpfs) plus the clocks' offset now
    RAW_OFF=$(python3 -c "import time; print(time.clock_gettime_ns(time.CLOCK_MONOTONIC_RAW) - time.time_ns())")
    export -f stall_run
    export RTJ SRV H WORK STALLS PERIOD
    # The tmpfs is filled (after rtjitter made its private glitch folder in it) until the stalls are over, then
    # emptied, so the report itself can be written there at the end (an 8 s run: the stalls end about 4 s in, later
    # on a busy machine, where a 3.5 s run once ended before the disk was freed: "cannot write df.json", and a 6 s
    # run once more in ci36, beside a 16.3 ms stall).
    unshare -m bash -c '
        mount -t tmpfs -o size=1m rtjt-lpr-full "$WORK/small" || exit 9
        BEFORE_STALLS="dd if=/dev/zero of=$WORK/small/filler bs=4k 2>/dev/null" \
        AFTER_STALLS="echo \$EPOCHREALTIME >$WORK/df.freed_rt; rm -f $WORK/small/filler" \
            STALL_DURATION=8 stall_run df "$WORK/small/df.json"
        echo "$RUN_RC" >"$WORK/df.rc"
        cp "$WORK/small/df.json" "$WORK/df.json"
        ls -A "$WORK/small" >"$WORK/df.left"
        ls -A "$WORK/small/df-glitches" >"$WORK/df.wavs" 2>/dev/null
        (cd "$WORK/small/df-glitches" 2>/dev/null && stat -c "%n %.9Y" -- *) >"$WORK/df.wavtimes" 2>/dev/null
        umount "$WORK/small"
    '
    echo "# full disk: rc $(cat "$WORK/df.rc"); glitches: $(json "$WORK/df.json" '[(g["kind"], g["wav"], g["wav_error"]) for g in d["loopback"]["glitches"]], d["loopback"]["wavs"]'); left: $(cat "$WORK/df.left")"
    check "full disk: the run goes on and exits 0" [ "$(cat "$WORK/df.rc")" = 0 ]
    [ "$(cat "$WORK/df.rc")" = 0 ] || head -3 "$WORK/df.out" | sed "s/^/# full disk run: /"
    # The disk is full until the stalls are over (df.freed_rt: when the filler went, wall clock); a glitch's WAV is
    # written after the audio that follows it has come in (half of its 100 ms) and the writer has woken, which on a
    # busy machine (under ASan beside the suite) can be after the disk was freed, however early its glitch: so what
    # tells whether a WAV could be written is when it was written, its file's own mtime (the same wall clock). Every
    # WAV there is must have been written after the disk was freed; every glitch without one says why (no space).
    FREED=$(cat "$WORK/df.freed_rt" 2>/dev/null || echo 0)
    FREED_NS=$(python3 -c "print(int(float('$FREED') * 1e9) + $RAW_OFF)")
    wavcheck=$(python3 - "$WORK/df.json" "$WORK/df.wavtimes" "$FREED" "$FREED_NS" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); freed, freed_ns = float(sys.argv[3]), int(sys.argv[4])
mt = dict((l.split()[0], float(l.split()[1])) for l in open(sys.argv[2]) if l.strip())
gl = d["loopback"]["glitches"]
full = [g for g in gl if g["t_ns"] < freed_ns]
bad = []
if not any(g["wav"] is None and "space" in (g["wav_error"] or "") for g in full):
    bad.append("no glitch while full went unrecorded for want of space")
for g in gl:
    if g["wav"] is None and g["t_ns"] < freed_ns and "space" not in (g["wav_error"] or ""):
        bad.append("%s: no WAV, reason %r" % (g["t_ns"], g["wav_error"]))
    # (a file's times come from the kernel's coarse clock, a tick behind at most: 10 ms)
    if g["wav"] is not None and not mt.get(g["wav"], 0) >= freed - 0.010:
        bad.append("%s written at %s, before the disk was freed at %s" % (g["wav"], mt.get(g["wav"]), freed))
if sorted(mt) != sorted(g["wav"] for g in gl if g["wav"]):
    bad.append("files %s, listed %s" % (sorted(mt), sorted(g["wav"] for g in gl if g["wav"])))
print("ok" if not bad else "; ".join(bad))
PY
)
    check "full disk: glitches were found while it was full without a WAV, each says why (no space); a WAV only where it was written after the disk was freed ($wavcheck)" \
        [ "$wavcheck" = ok ]
    check "full disk: nothing left beside the report (no partial WAV; a glitch folder only with the WAVs written after the disk was freed)" \
        [ "$(tr '\n' ' ' <"$WORK/df.left")" = "df.json " -o "$(tr '\n' ' ' <"$WORK/df.left")" = "df-glitches df.json " ]
fi
# The internal loop on rtjitter's OWN private server (no --server, no server running): its loop client is a second
# client of the same process, which jack2 refuses on a server named like the first client (status 0x11), so the
# private server has a name of its own (rtjitter-PID-RANDOM-server). 64 frames by default: the round trip is 64 + 7.
if ! (unset JACK_DEFAULT_SERVER; jack_wait -c 2>/dev/null | grep -q '^running'); then
    (unset JACK_DEFAULT_SERVER; "$RTJ" run --loopback internal:7 --loads none --duration 1 --warmup 0.3 --quiet \
        --output "$WORK/pstore" --json "$WORK/priv.json" >"$WORK/priv.out" 2>&1); prc=$?
    check "internal loop on rtjitter's own private server: exit 0 (got $prc: $(head -c 200 "$WORK/priv.out"))" [ "$prc" = 0 ]
    check "... its round trip is 64 + 7 = 71 frames ($(json "$WORK/priv.json" 'd["loopback"]["latency"]["frames"], d["audio"]["server_name"]' 2>/dev/null))" \
        [ "$(json "$WORK/priv.json" 'abs(d["loopback"]["latency"]["frames"] - 71) <= 1 and d["audio"]["server"] == "private"' 2>/dev/null)" = True ]
else
    ok "# SKIP internal loop on a private server: a default JACK server runs here"
fi
# LPR_DEBUG=DIR keeps the work files there (a fresh DIR: nothing is removed)
[ -n "${LPR_DEBUG:-}" ] && [ ! -e "$LPR_DEBUG" ] && cp -r "$WORK" "$LPR_DEBUG"; true
