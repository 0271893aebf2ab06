/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Test helper: ask server SERVER to change its buffer size to FRAMES (as another client, or Ubuntu Studio's
 * audio config, would). usage: set_bufsize SERVER FRAMES */
#include <jack/jack.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s SERVER FRAMES\n", argv[0]);
        return 2;
    }
    jack_status_t st;
    jack_client_t *c = jack_client_open("bufsize", JackNoStartServer | JackServerName, &st, argv[1]);
    if (!c) {
        fprintf(stderr, "set_bufsize: cannot open a client on %s (status 0x%x)\n", argv[1], (unsigned)st);
        return 1;
    }
    int rc = jack_set_buffer_size(c, (jack_nframes_t)atoi(argv[2]));
    if (rc)
        fprintf(stderr, "set_bufsize: jack_set_buffer_size(%s) returned %d\n", argv[2], rc);
    jack_client_close(c);
    return rc ? 1 : 0;
}
