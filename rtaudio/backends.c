/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The registry of backends: one entry each, the first is the default. */
#include "backend.h"
#include <string.h>

/* Each X(NAME) is the `const struct backend_ops backend_NAME` its own folder or file defines: the declarations and
 * the table are made from this one list. */
#define BACKENDS(X) X(jack) X(timer) X(alsa) X(noise) X(pipewire)

#define BACKEND_DECLARE(n) extern const struct backend_ops backend_##n;
BACKENDS(BACKEND_DECLARE)
#define BACKEND_ENTRY(n) &backend_##n,
const struct backend_ops *const rtj_backends[] = { BACKENDS(BACKEND_ENTRY) NULL };

const struct backend_ops *backend_find(const char *name)
{
    for (size_t i = 0; rtj_backends[i]; i++)
        if (strcmp(rtj_backends[i]->name, name) == 0)
            return rtj_backends[i];
    return NULL;
}
