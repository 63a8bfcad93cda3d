/* SPDX-License-Identifier: Zlib */
/* test_util.h - small helpers shared by the Check suites. */
#ifndef PATROL_TEST_UTIL_H
#define PATROL_TEST_UTIL_H

#include <check.h>
#include <stdlib.h>

#include <patrol/map.h>
#include <patrol/rng.h>

/* Builds a map from rows of legend characters (all rows the same length). */
static inline void tu_map_from_rows(pt_map *m, const char *const *rows, int h) {
    int w = 0;
    while (rows[0][w]) w++;
    pt_error err;
    ck_assert_int_eq(pt_map_init_blank(m, w, h, &err), PT_OK);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) ck_assert(pt_map_set(m, x, y, rows[y][x]));
}

/* A generated map full of diagonal wall corners: a frame, 8% scattered walls, and as many
 * diagonal pairs (walls at x+1,y and x,y+1, a sealed corner) and lone corner blocks. */
static inline void tu_corner_map(pt_map *m, int w, int h, uint64_t seed) {
    pt_error err;
    ck_assert_int_eq(pt_map_init_blank(m, w, h, &err), PT_OK);
    pt_rng r;
    pt_rng_seed(&r, seed, 77);
    for (int x = 0; x < w; x++) { pt_map_set(m, x, 0, '#'); pt_map_set(m, x, h - 1, '#'); }
    for (int y = 0; y < h; y++) { pt_map_set(m, 0, y, '#'); pt_map_set(m, w - 1, y, '#'); }
    for (int i = 0; i < w * h / 12; i++) {
        int x = 1 + (int)pt_rng_below(&r, (uint32_t)(w - 2)), y = 1 + (int)pt_rng_below(&r, (uint32_t)(h - 2));
        pt_map_set(m, x, y, '#');
        if (i % 3 == 0 && x + 1 < w && y + 1 < h) { /* the pair's other wall: a diagonal gap */
            pt_map_set(m, x, y, '.');
            pt_map_set(m, x + 1, y, '#');
            pt_map_set(m, x, y + 1, '#');
        }
    }
}

/* 1 when the move (x,y)->(nx,ny) is diagonal and passes beside a cell that is not walkable:
 * written out here, independent of pt_map_step_ok. */
static inline int tu_cuts_corner(const pt_map *m, int x, int y, int nx, int ny) {
    if (x == nx || y == ny) return 0;
    return !pt_map_walkable(m, nx, y) || !pt_map_walkable(m, x, ny);
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
