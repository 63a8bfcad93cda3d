/* SPDX-License-Identifier: Zlib */
/* test_util.h - small helpers shared by the Check suites. */
#ifndef PATROL_TEST_UTIL_H
#define PATROL_TEST_UTIL_H

#include <check.h>
#include <stdlib.h>

#include <patrol/map.h>

/* Builds a map from rows of legend characters (all rows the same length). */
static inline void tu_map_from_rows(pt_map *m, const char *const *rows, int h) {
    int w = 0;
    while (rows[0][w]) w++;
    pt_error err;
    ck_assert_int_eq(pt_map_init_blank(m, w, h, &err), PT_OK);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) ck_assert(pt_map_set(m, x, y, rows[y][x]));
}

/* Runs one suite and returns the process exit status. */
static inline int tu_run(Suite *s) {
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif
