/* SPDX-License-Identifier: GPL-2.0-or-later */
/* none: the baseline phase, nothing runs beside the audio client. */
#include "load.h"

const struct load_info load_none = {
    .name = "none",
    .summary = "nothing: the baseline every other phase is read against",
    .example = "none",
};
