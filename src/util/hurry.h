/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A thread's share of a busy machine's CPUs while it finishes a run: an interrupted run exits within 2 s (rtjitter(1),
 * SAFETY), and on a machine full of ordinary tasks (hackbench's 160 beside a run: 2.0-2.4 s from SIGINT to exit, the
 * report written by a main thread at nice 0 among them) the work after the stop needs more than a fair share. */
#ifndef RTJ_HURRY_H
#define RTJ_HURRY_H
#include <sys/types.h>

/* The nice value of thread tid (0: the caller) set to -19 (the most the audio group's usual limits allow); returns
 * the value it had, for hurry_end(), or HURRY_NONE when it could not be read or set (nothing changed). Never a
 * real-time policy: the work after a stop does I/O. */
#define HURRY_NONE 100
int hurry_begin(pid_t tid);
/* Puts back what hurry_begin() returned (HURRY_NONE: nothing). */
void hurry_end(pid_t tid, int was);

#endif
