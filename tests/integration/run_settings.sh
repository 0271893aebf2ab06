#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-class: quick
# --period and --rate against a running server rtjitter did not start are never ignored in silence: the run measures
# the server's own setting and the report's warnings say why, or, with --set-buffer-size (jack2), the server's
# buffer size changes for every client — checked by the server's own answer (jack_bufsize, another client).
. "$(dirname "$0")/../lib.sh"

name=$(server_name set)
start_jackd "$name" 48000 64 || not_ok "jackd starts"
"$RTJ" run --server "$name" --loads none --duration 1 --warmup 0.3 --period 128 --rate 44100 \
    --json "$WORK/a.json" >"$WORK/o" 2>"$WORK/e"; rc=$?
a=$(json "$WORK/a.json" "d['audio']['period_frames'], d['audio']['rate'], d['phases'][0]['period_frames']")
echo "# --period 128 --rate 44100 on a 64-frame 48 kHz server: exit $rc, measured $a"
check "a running server keeps its 64 frames at 48 kHz, and that is what was measured (exit $rc)" \
    [ "$rc" -eq 0 -a "$a" = "64 48000 64" ]
check "the report's warnings say --period 128 was not applied and why" \
    [ "$(json "$WORK/a.json" "any('--period 128' in w and 'keeps its 64 frames' in w for w in d['warnings'])")" = True ]
check "... and --rate 44100 too" \
    [ "$(json "$WORK/a.json" "any('--rate 44100' in w and '48000 Hz' in w for w in d['warnings'])")" = True ]
check "... and stderr said both, once each" [ "$(grep -c -e '--period 128' -e '--rate 44100' "$WORK/e")" -eq 2 ]
"$RTJ" run --server "$name" --loads none --duration 1 --warmup 0.3 --quiet --json "$WORK/b.json" >/dev/null 2>&1
check "without --period or --rate: no such warning" \
    [ "$(json "$WORK/b.json" "any('--period' in w or '--rate' in w for w in d['warnings'])")" = False ]

"$RTJ" run --server "$name" --loads none --duration 1 --warmup 0.3 --period 128 --set-buffer-size --quiet \
    --json "$WORK/c.json" >/dev/null 2>&1; rc=$?
server_says=$(JACK_DEFAULT_SERVER="$name" jack_bufsize 2>/dev/null | grep -o '[0-9]\+' | head -1)
c=$(json "$WORK/c.json" "d['phases'][0]['period_frames'], any('changed from 64 to 128' in w for w in d['warnings'])")
echo "# --set-buffer-size 128: exit $rc, measured/warned $c, the server itself now says $server_says"
check "--set-buffer-size: the run measured 128 frames and says it changed the server for every client" \
    [ "$rc" -eq 0 -a "$c" = "128 True" ]
check "--set-buffer-size: the server itself (jack_bufsize, another client) now runs 128 frames" [ "$server_says" = 128 ]
stop_jackd "$JACKD_PID"
