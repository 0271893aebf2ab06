/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "util/readfile.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int read_regular_file(const char *path, size_t max, char **out, size_t *outlen, char *err, size_t errlen)
{
    *out = NULL;
    *outlen = 0;
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        int e = errno;
        snprintf(err, errlen, "cannot open: %s", strerror(e));
        return -e;
    }
    struct stat st;
    if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
        snprintf(err, errlen, "not a regular file");
        close(fd);
        return -EINVAL;
    }
    if ((unsigned long long)st.st_size > max) {
        snprintf(err, errlen, "larger than %zu MiB", max >> 20);
        close(fd);
        return -EFBIG;
    }
    size_t cap = (size_t)st.st_size + 1, len = 0;
    char *buf = malloc(cap + 1);
    int rc = 0;
    if (!buf) {
        snprintf(err, errlen, "out of memory");
        rc = -ENOMEM;
        goto out;
    }
    for (;;) {
        ssize_t r = read(fd, buf + len, cap - len);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            rc = -errno;
            snprintf(err, errlen, "cannot read: %s", strerror(errno));
            goto out;
        }
        if (r == 0)
            break;
        len += (size_t)r;
        if (len == cap) { /* the file grew while we read it: refuse rather than chase it */
            snprintf(err, errlen, "the file changed while it was read");
            rc = -EAGAIN;
            goto out;
        }
    }
    buf[len] = '\0';
    *out = buf;
    *outlen = len;
    buf = NULL;
out:
    free(buf);
    close(fd);
    return rc;
}
