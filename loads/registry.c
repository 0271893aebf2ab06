/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one list of loads. Order matters twice: `rtjitter loads` lists them in this order, and `--loads all`
 * runs them in it (none first, as interbench does). Each X(NAME) is the `const struct load_info load_NAME` its
 * own file loads/NAME.c defines: the declarations and the table are made from this one list. */
#include "load.h"
#include <stddef.h>

#define LOADS(X) X(none) X(burn) X(write) X(read) X(compile) X(memload) X(video) X(x) X(hackbench) X(net) X(exec)

#define LOAD_DECLARE(n) extern const struct load_info load_##n;
LOADS(LOAD_DECLARE)
#define LOAD_ENTRY(n) &load_##n,
const struct load_info *const load_registry[] = { LOADS(LOAD_ENTRY) NULL };
