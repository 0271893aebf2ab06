/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The registry of backends: one entry each, the first is the default. */
#include "backend.h"
#include <string.h>

extern const struct backend_ops backend_jack;
extern const struct backend_ops backend_timer;
extern const struct backend_ops backend_alsa;
extern const struct backend_ops backend_noise;
extern const struct backend_ops backend_pipewire;

const struct backend_ops *const rtj_backends[] = {
    &backend_jack,
    &backend_timer,
    &backend_alsa,
    &backend_noise,
    &backend_pipewire,
    NULL,
};

const struct backend_ops *backend_find(const char *name)
{
    for (size_t i = 0; rtj_backends[i]; i++)
        if (strcmp(rtj_backends[i]->name, name) == 0)
            return rtj_backends[i];
    return NULL;
}
