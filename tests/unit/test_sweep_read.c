/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Reading a sweep document back (src/report/sweep_read.c): a well-formed sweep passes and renders as text and
 * HTML; every kind of damage a renderer could trip on (a load that is not a string, a size that is not a positive
 * number, a cell of the wrong shape, an array longer than a sweep can make, a newer schema) is refused with one
 * line naming the place; a report or any other JSON is "not a sweep" (-ENOMSG), for the report reader to take. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "render/sweep_render.h"
#include "report/sweep_read.h"

static const char *good =
    "{\"schema\":\"rtjitter.sweep/1\",\"tool\":{\"name\":\"rtjitter\",\"version\":\"0\"},\"complete\":true,"
    "\"incomplete_reason\":null,\"label\":\"<b>x</b>\",\"audio\":{\"backend\":\"timer\",\"buffer_change\":\"direct\"},"
    "\"profile\":{\"name\":\"studio\",\"warn_margin_pct\":10},\"rates\":[48000],\"periods\":[64,128],"
    "\"loads\":[\"none\"],\"cells\":["
    "{\"rate\":48000,\"period_frames\":64,\"load\":\"none\",\"state\":\"unsafe\",\"measured\":true,\"xrun_events\":3,"
    "\"margin_p999_pct\":-20,\"proof\":{\"text\":\"3 xrun events\"},\"report\":\"/r/a b.json\"},"
    "{\"rate\":48000,\"period_frames\":128,\"load\":\"none\",\"state\":\"safe\",\"measured\":true,\"xrun_events\":0,"
    "\"margin_p999_pct\":50,\"proof\":{\"text\":\"0 xruns\"},\"report\":\"/r/b.json\"}],"
    "\"smallest_safe\":[{\"rate\":48000,\"per_load\":[{\"load\":\"none\",\"smallest_safe\":{\"frames\":128,"
    "\"ms\":2.67}}],\"overall\":{\"frames\":128,\"ms\":2.67}}]}";

/* The good document with one change made by a jansson path: key at the top, or cells[0].key. */
static json_t *with(const char *where, const char *key, json_t *value)
{
    json_t *d = json_loads(good, 0, NULL);
    assert_non_null(d);
    json_t *o = strcmp(where, "cell") == 0 ? json_array_get(json_object_get(d, "cells"), 0)
              : strcmp(where, "answer") == 0 ? json_array_get(json_object_get(d, "smallest_safe"), 0) : d;
    json_object_set_new(o, key, value);
    return d;
}

static void refused(json_t *d, const char *says)
{
    char err[256] = "";
    assert_int_equal(sweepdoc_validate(d, err, sizeof(err)), -EINVAL);
    assert_non_null(strstr(err, says));
    assert_null(strchr(err, '\n'));
    json_decref(d);
}

static void good_sweep(void **state)
{
    (void)state;
    json_t *d = json_loads(good, 0, NULL);
    char err[256] = "";
    assert_int_equal(sweepdoc_validate(d, err, sizeof(err)), 0);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_int_equal(text_sweep_print(f, d, NULL), 0);
    assert_int_equal(html_sweep_body(f, d), 0);
    fclose(f);
    assert_non_null(strstr(buf, "128 frames (2.67 ms per period) is the smallest buffer safe under every load"));
    assert_non_null(strstr(buf, "&lt;b&gt;x&lt;/b&gt;"));        /* the label, escaped in the page */
    assert_non_null(strstr(buf, "href=\"file:///r/a%20b.json\"")); /* the report link, percent-encoded */
    free(buf);
    json_decref(d);
}

static void damaged(void **state)
{
    (void)state;
    refused(with("top", "loads", json_pack("[i]", 5)), "loads[0]");
    refused(with("top", "periods", json_pack("[i]", 0)), "periods[0]");
    refused(with("top", "periods", json_pack("[s]", "64")), "periods[0]");
    refused(with("top", "cells", json_pack("[i]", 1)), "cells[0]");
    refused(with("cell", "load", json_integer(1)), "cells[0].load");
    refused(with("cell", "margin_p999_pct", json_string("x")), "cells[0].margin_p999_pct");
    refused(with("cell", "cycles", json_real(1e300)), "cells[0].cycles");
    refused(with("cell", "proof", json_pack("{s:i}", "text", 1)), "cells[0].proof.text");
    refused(with("answer", "rate", json_integer(0)), "smallest_safe[0].rate");
    refused(with("answer", "overall", json_pack("{s:s}", "frames", "x")), "smallest_safe[0].overall.frames");
    refused(with("top", "audio", json_string("jack")), "audio");
    refused(with("top", "schema", json_string("rtjitter.sweep/2")), "newer");
    json_t *many = json_array();
    for (int i = 0; i < 5000; i++)
        json_array_append_new(many, json_object());
    refused(with("top", "cells", many), "at most");
}

static void not_a_sweep(void **state)
{
    (void)state;
    char dir[] = "/tmp/rtjt-test-sweep-read-XXXXXX", path[64];
    assert_non_null(mkdtemp(dir)); /* a private directory: the files in it are ours */
    snprintf(path, sizeof(path), "%s/doc.json", dir);
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    assert_true(fd >= 0);
    const char *report = "{\"schema\":\"rtjitter.report/1\",\"phases\":[]}";
    assert_int_equal(write(fd, report, strlen(report)), (ssize_t)strlen(report));
    close(fd);
    json_t *d = NULL;
    char err[256];
    assert_int_equal(sweepdoc_read_file(path, &d, err, sizeof(err)), -ENOMSG);
    assert_null(d);
    fd = open(path, O_WRONLY | O_TRUNC | O_NOFOLLOW | O_CLOEXEC);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, good, strlen(good)), (ssize_t)strlen(good));
    close(fd);
    assert_int_equal(sweepdoc_read_file(path, &d, err, sizeof(err)), 0);
    assert_non_null(d);
    json_decref(d);
    unlink(path);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(good_sweep),
        cmocka_unit_test(damaged),
        cmocka_unit_test(not_a_sweep),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
