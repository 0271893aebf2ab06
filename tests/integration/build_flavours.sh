#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-class: bulk (a compile: no real-time thread, nothing timed; the solo tests may run beside it)
# test-timeout: 400 (one compile of the whole tree, one job: clang at -O0 took 35-60 s alone; the suite's 6 at a time
# stretch it: two compiles took 319-360 s in a clean clone's CI)
# The tree compiles, warning-free (-Werror), with clang too. gcc with Debian's hardening flags and Ubuntu's
# _FORTIFY_SOURCE=3 is make check's own build (build-check: FORTIFY 3's checks are FORTIFY 2's and more), so it is not
# built twice; this test checks that build's flags, then compiles with clang (`make compile`, one job: the suite
# runs tests side by side) into a build directory of its own; the log's first errors are printed. clang at -O0: its
# warnings come from its front end, whatever the optimisation.
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
# make check's build: FORTIFY 3 with the rest of Debian's hardening (its flags are in build-check/flags)
if [ "${BUILD:-}" = build-check ] && [ -r "$TOP/build-check/flags" ]; then
    check "make check's build has _FORTIFY_SOURCE=3 and Debian's stack protector" \
        sh -c 'grep -q -- "-D_FORTIFY_SOURCE=3" "$1" && grep -q -- "-fstack-protector-strong" "$1" && ! grep -q -- "-D_FORTIFY_SOURCE=2" "$1"' _ "$TOP/build-check/flags"
else
    ok "# SKIP make check's build flags: the suite runs on ${BUILD:-build}, not make check's build-check"
fi
# clang compiles the whole tree again: 60 s of CPU that took a clean clone's CI past its 10 minutes (10m39s), so make
# check leaves it to `make check-clang` (RTJ_TEST_CLANG=1), which runs this test alone; any other run does it too
if [ "${BUILD:-}" != build-check ] || [ "${RTJ_TEST_CLANG:-0}" = 1 ]; then
    flavour clang clang "$(harden CPPFLAGS | sed 's/-D_FORTIFY_SOURCE=[0-9]*//')" "-O0 -fstack-protector-strong -Wformat -Werror=format-security"
else
    ok "# SKIP clang: make check leaves the second whole-tree compile to make check-clang"
fi
