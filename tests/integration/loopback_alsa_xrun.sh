#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-class: solo (a SCHED_FIFO hog spins on one CPU)
# forced xruns heard through the ALSA loopback: loopback_alsa.sh's part "xrun", alone (the rest of loopback_alsa.sh
# runs beside other tests). What it checks, and against which truths, is told at the top of loopback_alsa.sh.
PART=xrun . "$(dirname "$0")/loopback_alsa.sh"
