/* SPDX-License-Identifier: GPL-2.0-or-later */
/* watch's lines (issue 34 item 3): by default within 80 columns off a terminal, local times HH:MM:SS.mmm under a
 * date line that comes again when the date changes, the culprit without its evidence and cut with an ellipsis when
 * its name is long; --wide (WATCH_WIDE): ISO 8601 and the evidence, however long; --no-culprits: the length only.
 * TZ=UTC; the expected lines are written out here by hand. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "run/watch_out.h"

#define DAY1 1796342400000LL /* 2026-12-04T00:00:00Z, ms */

static char *lines(FILE *f, char *buf, size_t len)
{
    fflush(f);
    rewind(f);
    size_t n = fread(buf, 1, len - 1, f);
    buf[n] = '\0';
    return buf;
}

static void test_narrow(void **state)
{
    (void)state;
    FILE *f = tmpfile();
    assert_non_null(f);
    struct watch_out w;
    watch_out_init(&w, f, WATCH_TEXT, 0);
    assert_int_equal(w.width, 80);
    snprintf(w.day, sizeof(w.day), "2026-12-04 (UTC+00:00)"); /* as watch_out_begin set it that day */
    char name[80], brief[160], full[400];
    memset(name, 'x', 63);
    name[63] = '\0';
    snprintf(brief, sizeof(brief), "culprit: %s (client, observed)", name);
    snprintf(full, sizeof(full), "%s: another JACK client did not finish: %s (2 unfinished cycles)", brief, name);
    watch_out_event(&w, &(struct watch_event){ .n = 1, .wall_ms = DAY1 + 3723456, .length_ms = -1 });
    watch_out_event(&w, &(struct watch_event){ .n = 1, .wall_ms = DAY1 + 3723456, .length_ms = 10.75,
                                               .culprit = full, .culprit_short = brief });
    watch_out_event(&w, &(struct watch_event){ .n = 2, .wall_ms = DAY1 + 86400000 + 5, .length_ms = 5.4,
                                               .culprit = "culprit: stall (client, observed): evidence",
                                               .culprit_short = "culprit: stall (client, observed)" });
    watch_out_event(&w, &(struct watch_event){ .n = 3, .wall_ms = DAY1 + 86400000 + 7, .length_ms = 5.0 });
    char buf[4096], want[1024];
    char cut[100];
    /* 80 code points: 79 characters of the line, then the ellipsis (3 bytes) */
    snprintf(cut, sizeof(cut), "01:02:03.456  xrun 1: 10.8 ms; culprit: %.*s\xe2\x80\xa6", 79 - 40, name);
    snprintf(want, sizeof(want),
             "01:02:03.456  xrun 1 began\n"
             "%s\n"
             "2026-12-05 (UTC+00:00)\n"
             "00:00:00.005  xrun 2: 5.4 ms; culprit: stall (client, observed)\n"
             "00:00:00.007  xrun 3: 5.0 ms; culprit not known\n",
             cut);
    assert_string_equal(lines(f, buf, sizeof(buf)), want);
    fclose(f);
}

static void test_wide_and_unsought(void **state)
{
    (void)state;
    FILE *f = tmpfile();
    assert_non_null(f);
    struct watch_out w;
    watch_out_init(&w, f, WATCH_WIDE, 0);
    watch_out_event(&w, &(struct watch_event){ .n = 4, .wall_ms = DAY1 + 1, .length_ms = 2.0,
                                               .culprit = "culprit: stall (client, observed): its evidence",
                                               .culprit_short = "culprit: stall (client, observed)" });
    char buf[1024];
    assert_string_equal(lines(f, buf, sizeof(buf)), "2026-12-04T00:00:00.001+00:00  xrun 4: 2.0 ms; culprit: stall "
                                                    "(client, observed): its evidence\n");
    fclose(f);
    f = tmpfile();
    watch_out_init(&w, f, WATCH_TEXT, 0);
    snprintf(w.day, sizeof(w.day), "2026-12-04 (UTC+00:00)");
    watch_out_event(&w, &(struct watch_event){ .n = 5, .wall_ms = DAY1 + 2, .length_ms = 2.0, .unsought = 1 });
    assert_string_equal(lines(f, buf, sizeof(buf)), "00:00:00.002  xrun 5: 2.0 ms\n");
    fclose(f);
}

int main(void)
{
    setenv("TZ", "UTC", 1);
    tzset();
    unsetenv("COLUMNS");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_narrow),
        cmocka_unit_test(test_wide_and_unsought),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
