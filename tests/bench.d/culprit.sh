#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 24 figures: the culprit sampler's CPU share at 20 Hz, on this machine's /proc and on a tree whose
# /proc/interrupts is the 64-CPU fixture (tests/fixtures/culprit/interrupts-64cpu, 207 lines; its other files are
# this machine's, linked). Prints figures, checks nothing. CULPRIT_BENCH_S (10) sets the thread's run.
set -u
H=${RTJ_HELPERS:-build/tests/helpers}
secs=${CULPRIT_BENCH_S:-10}
W=$(mktemp -d); trap 'rm -rf "$W"' EXIT
echo "culprit sampler, this machine ($(nproc) CPUs, $(grep -c : /proc/interrupts) interrupt lines):"
"$H/bench_culprit" "$secs"
mkdir -p "$W/proc" "$W/sys"
cp tests/fixtures/culprit/interrupts-64cpu "$W/proc/interrupts"
for f in softirqs stat pressure; do ln -s "/proc/$f" "$W/proc/$f"; done
ln -s /sys/kernel "$W/sys/kernel"
# the tasks: this machine's, so that the RT-task scan has as much to read as here
for p in /proc/[0-9]*; do ln -s "$p" "$W/proc/${p#/proc/}"; done
echo "culprit sampler, the 64-CPU /proc/interrupts fixture (static: parsed every tick, no deltas):"
"$H/bench_culprit" "$secs" "$W/proc" "$W/sys"
