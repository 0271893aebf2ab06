/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A sweep on the native PipeWire backend: PipeWire's quantum forced per size, set back at the end (pw_session.c). */
#ifndef RTJ_PW_SESSION_H
#define RTJ_PW_SESSION_H
#include "backend.h"

extern const struct backend_session_ops pipewire_session;

#endif
