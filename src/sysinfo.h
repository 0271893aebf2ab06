/* System identity for the report. Every /proc and /sys read goes through `root` ("" on a live system),
 * so tests can run it against fake trees. */
#ifndef RTJ_SYSINFO_H
#define RTJ_SYSINFO_H
#include <jansson.h>

/* Returns a new JSON object {hostname, kernel {...}, cpu {...}, ...}, or NULL on allocation failure. */
json_t *sysinfo_collect(const char *root);
/* Kernel release of the running system (for the report store path); never NULL. */
const char *sysinfo_release(const char *root, char *buf, size_t len);

#endif
