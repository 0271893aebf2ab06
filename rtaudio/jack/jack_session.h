/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The JACK backend's session (backend.h): how a sweep changes its size from run to run. */
#ifndef RTJ_JACK_SESSION_H
#define RTJ_JACK_SESSION_H
#include "backend.h"

extern const struct backend_session_ops jack_session;

#endif
