/* SPDX-License-Identifier: Zlib */
/* test_util.h - small helpers shared by the Check suites. */
#ifndef PATROL_TEST_UTIL_H
#define PATROL_TEST_UTIL_H

#include <check.h>
#include <math.h>
#include <stdlib.h>

#include <patrol/map.h>
#include <patrol/path.h>
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

/* A blank map from the h rows of a char grid (each NUL-terminated, all the same length,
 * `stride` bytes apart, as in char g[H][W + 1]) and a pathfinder on it. The caller destroys
 * the pathfinder, then finalises the map. */
static inline pt_pathfinder *tu_grid_pathfinder(pt_map *m, const char *grid, size_t stride, int h) {
    const char **rows = malloc((size_t)h * sizeof *rows);
    ck_assert(rows != NULL);
    for (int y = 0; y < h; y++) rows[y] = grid + (size_t)y * stride;
    tu_map_from_rows(m, rows, h);
    free(rows);
    pt_pathfinder *pf = pt_pathfinder_create(m);
    ck_assert(pf != NULL);
    return pf;
}

/* The longest path tu_path_length measures, in cells (at least the cells of its maps). */
#define TU_PATH_MAX 4096

/* Length in tiles of the A* path from a to b (straight steps 1, diagonal sqrt 2), -1 if
 * unreachable. */
static inline double tu_path_length(pt_pathfinder *pf, pt_cell a, pt_cell b) {
    static pt_cell buf[TU_PATH_MAX];
    int n = pt_path_find(pf, a, b, buf, TU_PATH_MAX);
    if (n < 1) return -1;
    ck_assert_int_le(n, TU_PATH_MAX);
    double len = 0;
    for (int i = 1; i < n; i++) len += (buf[i].x != buf[i - 1].x && buf[i].y != buf[i - 1].y) ? sqrt(2.0) : 1.0;
    return len;
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
