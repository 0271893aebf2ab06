#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-class: bulk (a compile: no real-time thread, nothing timed; the solo tests may run beside it)
# test-timeout: 600 (two compiles of the whole tree, one job each: 70-134 s beside stress-ng, 181 s once on a busier host; 319-345 s in a clean clone's CI beside the suite once the tree grew to 125 tests, and 360 once, timed out)
# The tree compiles, warning-free (-Werror), as the distributions build it, beyond the hardened build make check's
# own binary comes from: with _FORTIFY_SOURCE=3 (Ubuntu's gcc default since 24.04: it flags unchecked return
# values and bounds that FORTIFY 2 lets pass) and with clang. Compile only (`make compile`, one job: the suite runs
# tests side by side), each into a build directory of this test's own; the log's first errors are printed. No -g:
# debug information changes no diagnostic. clang at -O0: its warnings come from its front end, whatever the
# optimisation (gcc's bound checks need -O2's inlining, so FORTIFY 3 is built at -O2).
. "$(dirname "$0")/../lib.sh"
TOP=${RTJ_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
harden() { DEB_BUILD_MAINT_OPTIONS=hardening=+all dpkg-buildflags --get "$1"; }

flavour() { # NAME CC CPPFLAGS CFLAGS
    local name=$1 cc=$2
    if ! command -v "$cc" >/dev/null; then not_ok "$name: $cc is not installed (make deps-check installs it)"; return; fi
    make -s -C "$TOP" --no-print-directory -j1 BUILD="$WORK/$name" WERROR=1 CC="$cc" CPPFLAGS="$3" CFLAGS="$4" \
        compile >"$WORK/$name.log" 2>&1
    local rc=$?
    check "$name: the tree compiles with -Wall -Wextra -Werror (exit $rc)" [ "$rc" -eq 0 ]
    [ "$rc" -eq 0 ] || grep -m 6 -E "error:|warning:" "$WORK/$name.log" | sed 's/^/# /'
    check "$name: every object built ($(find "$WORK/$name" -name '*.o' | wc -l) of $(cd "$TOP" && ls src/*/*.c rtaudio/*.c rtaudio/*/*.c loads/*.c | wc -l))" \
        [ "$(find "$WORK/$name" -name '*.o' | wc -l)" -eq "$(cd "$TOP" && ls src/*/*.c rtaudio/*.c rtaudio/*/*.c loads/*.c | wc -l)" ]
}
flavour fortify3 gcc "$(harden CPPFLAGS | sed 's/-D_FORTIFY_SOURCE=[0-9]*//') -U_FORTIFY_SOURCE -D_FORTIFY_SOURCE=3" \
    "$(harden CFLAGS | sed 's/-g //; s/ -g$//')"
flavour clang clang "$(harden CPPFLAGS | sed 's/-D_FORTIFY_SOURCE=[0-9]*//')" "-O0 -fstack-protector-strong -Wformat -Werror=format-security"
