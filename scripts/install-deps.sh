#!/bin/sh
# Install the Debian packages rtjitter needs to build, run and test, when they are missing.
# Says what it installs; uses sudo when not root. Set RTJ_NO_INSTALL=1 to only report.
set -e
PKGS="build-essential pkg-config libjack-jackd2-dev jackd2 libasound2-dev libsndfile1-dev libjansson-dev
      libcmocka-dev rt-tests libasound2-plugins stress-ng valgrind procps zlib1g-dev
      chromium python3 pipewire pipewire-jack strace time util-linux $RTJ_EXTRA_PKGS"
# strace: the write-load test watches its fsyncs; time: make bench times stress-ng (CPU share); util-linux:
# unshare for the full-disk test's private tmpfs.
# chromium and python3: the HTML test renders each page and parses its SVG. RTJ_EXTRA_PKGS: what one target
# alone needs (make fuzz: clang).
missing=""
for p in $PKGS; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if ! command -v apt-get >/dev/null 2>&1; then
    echo "rtjitter: missing packages:$missing (no apt-get here: install them by hand)" >&2
    exit 1
fi
if [ -n "$RTJ_NO_INSTALL" ]; then
    echo "rtjitter: missing packages:$missing" >&2
    exit 1
fi
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
echo "rtjitter: installing missing Debian packages:$missing"
export DEBIAN_FRONTEND=noninteractive
# jackd2 asks whether to enable real-time scheduling for the audio group; answer yes without a prompt.
echo "jackd2 jackd/tweak_rt_limits boolean true" | $SUDO debconf-set-selections 2>/dev/null || true
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -q --no-install-recommends $missing
