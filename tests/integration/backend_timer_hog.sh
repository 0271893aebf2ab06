#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-class: solo (a SCHED_FIFO hog spins on one CPU, and /dev/cpu_dma_latency is held)
# injected stalls of the timer backend, and /dev/cpu_dma_latency: backend_timer.sh's part "hog", alone (the rest of
# backend_timer.sh runs beside other tests). What it checks, and against which truths, is told at the top of
# backend_timer.sh.
PART=hog . "$(dirname "$0")/backend_timer.sh"
