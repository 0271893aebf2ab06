/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The registry of backends, made from the one list BACKENDS (backend.h): the first is the default. */
#include "backend.h"
#include <string.h>

#define BACKEND_ENTRY(n) &backend_##n,
const struct backend_ops *const rtj_backends[] = { BACKENDS(BACKEND_ENTRY) NULL };

const struct backend_ops *backend_find(const char *name)
{
    for (size_t i = 0; rtj_backends[i]; i++)
        if (strcmp(rtj_backends[i]->name, name) == 0)
            return rtj_backends[i];
    return NULL;
}
