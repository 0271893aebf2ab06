#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 32 item 5: the kernel's trace read as text (trace_pipe, tev_parse: what src/culprit/src_trace.c read before
# src/culprit/trace_raw.c, and its fallback) against its binary ring through Debian's libtracefs/libtraceevent
# (tracefs_iterate_raw_events), alternating, beside a pipe ping-pong load: the reading thread's CPU time per event
# (tests/bench.d/tracebin.c). Root only. Prints figures, checks nothing.
set -u
BUILD=${BUILD:-build}
[ "$(id -u)" = 0 ] || { echo "tracebin: needs root (a tracefs instance): skipped"; exit 0; }
pkg-config --exists libtracefs libtraceevent || { echo "tracebin: libtracefs-dev/libtraceevent-dev not installed: skipped"; exit 0; }
mkdir -p "$BUILD/tests"
cc -Isrc -D_GNU_SOURCE -O2 -Wall -Wextra -Werror $(pkg-config --cflags libtracefs libtraceevent) \
    -o "$BUILD/tests/tracebin" tests/bench.d/tracebin.c "$BUILD/librtj.a" $(pkg-config --libs libtracefs libtraceevent) \
    -ljansson -lm -lpthread || { echo "tracebin: did not build"; exit 1; }
"$BUILD/tests/tracebin" "${TRACEBIN_S:-5}" "${TRACEBIN_ROUNDS:-2}"
