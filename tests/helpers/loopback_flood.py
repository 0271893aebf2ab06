#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""An injected culprit for the culprits tests (issue 24): a softirq storm on loopback networking only, bounded in
time. Pinned to one CPU, it sends UDP datagrams to itself on 127.0.0.1 as fast as it can for BURST_MS, every
EVERY_MS, COUNT times, after DELAY_MS, and drains them (the kernel's NET_RX softirq runs on that CPU for each batch).
It logs each burst as "spin START END" on CLOCK_MONOTONIC, as measured by itself: the truth the test judges with.

usage: loopback_flood.py CPU BURST_MS EVERY_MS COUNT DELAY_MS
"""
import os, socket, sys, time


def main():
    cpu, burst, every, count, delay = (int(sys.argv[1]), float(sys.argv[2]) / 1e3, float(sys.argv[3]) / 1e3,
                                       int(sys.argv[4]), float(sys.argv[5]) / 1e3)
    os.sched_setaffinity(0, {cpu})
    rx = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    rx.bind(('127.0.0.1', 0))
    rx.setblocking(False)
    tx = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    addr, msg = rx.getsockname(), b'x' * 1400
    now = lambda: time.clock_gettime(time.CLOCK_MONOTONIC)
    t0 = now() + delay
    for i in range(count):
        while now() < t0 + i * every:
            time.sleep(0.001)
        a = now()
        while now() - a < burst:
            for _ in range(64):
                tx.sendto(msg, addr)
            try:
                while True:
                    rx.recv(2048)
            except BlockingIOError:
                pass
        print('spin %.6f %.6f' % (a, now()), flush=True)


main()
