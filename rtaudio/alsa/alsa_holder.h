/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Who holds a sound card's PCM devices open: the processes with a /dev/snd/pcmC<card>D<dev>[pc] among their open
 * files, found as fuser does, through /proc (under root: "" for the system, a fixture tree in tests). Main thread,
 * never RT. */
#ifndef RTJ_ALSA_HOLDER_H
#define RTJ_ALSA_HOLDER_H
#include <stddef.h>

/* The card a PCM name refers to, for hw:N, hw:ID, hw:CARD=ID,DEV=N, plughw:..., front:N and the like: its
 * number, or -1 when the name names no card (a plugin PCM such as "default") or the card does not exist. */
int alsa_card_of(const char *pcm);

/* Fills buf with "pipewire (pid 812), jackd (pid 901)": the processes (at most 4 named) that hold a PCM device of
 * card open (card < 0: of any card), never the calling process. Returns how many were found (0: none seen);
 * *hidden is set when some processes' open files could not be read (another user's, without root). */
int alsa_find_holders(const char *root, int card, char *buf, size_t len, int *hidden);

#endif
