#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-class: solo (a SCHED_FIFO hog spins on one CPU)
# forced xruns of the ALSA backend: backend_alsa.sh's part "xrun", alone (the rest of backend_alsa.sh runs beside
# other tests). What it checks, and against which truths, is told at the top of backend_alsa.sh.
PART=xrun . "$(dirname "$0")/backend_alsa.sh"
