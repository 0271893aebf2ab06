/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one list of loads. Order matters twice: `rtjitter loads` lists them in this order, and `--loads all`
 * runs them in it (none first, as interbench does). */
#include "load.h"
#include <stddef.h>

extern const struct load_info load_none, load_burn, load_write, load_read, load_compile, load_memload, load_video,
    load_x, load_hackbench, load_net, load_exec;

const struct load_info *const load_registry[] = {
    &load_none, &load_burn, &load_write, &load_read, &load_compile, &load_memload, &load_video, &load_x,
    &load_hackbench, &load_net, &load_exec, NULL,
};
