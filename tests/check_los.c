/* SPDX-License-Identifier: Zlib */
/* Line of sight: the documented rule (viewer -> target ray, corners, bushes, cone, range). */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <patrol/bresenham.h>
#include <patrol/los.h>
#include <patrol/rng.h>

#include "test_util.h"

static const char *room[] = {
    "..........",
    "....#.....",
    "....#.....",
    "..........",
    ".....*....",
    "..........",
};

START_TEST(test_open_floor_and_wall) {
    pt_map m;
    tu_map_from_rows(&m, room, 6);
    ck_assert(pt_los_clear(&m, 0, 0, 9, 0));       /* open row */
    ck_assert(!pt_los_clear(&m, 2, 1, 7, 2));      /* through the wall at x=4 */
    ck_assert(pt_los_clear(&m, 2, 3, 7, 3));       /* below the wall */
    /* The viewer's own cell is excluded: a viewer standing in a bush still sees out. */
    ck_assert(pt_los_clear(&m, 5, 4, 9, 4));
    pt_map_fini(&m);
}
END_TEST

START_TEST(test_cone_and_distance) {
    pt_map m;
    tu_map_from_rows(&m, room, 6);
    /* viewer at (0.5,3.5) facing east, 90 degree cone, range 8 */
    ck_assert(pt_can_see(&m, 0.5, 3.5, 0.0, 8.0, pt_rad(90), 6.5, 3.5));
    ck_assert(!pt_can_see(&m, 0.5, 3.5, PT_PI, 8.0, pt_rad(90), 6.5, 3.5)); /* facing away */
    ck_assert(!pt_can_see(&m, 0.5, 3.5, 0.0, 5.0, pt_rad(90), 6.5, 3.5));   /* too far */
    ck_assert(pt_can_see(&m, 0.5, 3.5, 0.0, 6.0, pt_rad(90), 6.5, 3.5));    /* exactly at range */
    /* 45 degrees off the heading is on the edge of a 90 degree cone; 50 is outside */
    ck_assert(pt_can_see(&m, 0.5, 0.5, 0.0, 8.0, pt_rad(90), 3.5, 3.5));
    ck_assert(!pt_can_see(&m, 0.5, 0.5, pt_rad(-5), 8.0, pt_rad(90), 3.5, 3.5));
    /* a full circle sees behind */
    ck_assert(pt_can_see(&m, 5.5, 3.5, 0.0, 8.0, pt_rad(360), 1.5, 3.5));
    /* zero distance: always seen, no NaN */
    ck_assert(pt_can_see(&m, 2.5, 2.5, 1.0, 8.0, pt_rad(10), 2.5, 2.5));
    pt_map_fini(&m);
}
END_TEST

START_TEST(test_corner_gap_is_sealed) {
    static const char *gap[] = {
        ".#..",
        "#...",
        "....",
    };
    pt_map m;
    tu_map_from_rows(&m, gap, 3);
    /* (0,0) -> (1,1): the ray steps diagonally between walls at (1,0) and (0,1). */
    ck_assert(!pt_los_clear(&m, 0, 0, 1, 1));
    ck_assert(!pt_los_clear(&m, 1, 1, 0, 0));
    ck_assert(!pt_los_clear(&m, 0, 0, 3, 2));
    /* With one of the two walls gone the corner is open. */
    pt_map_set(&m, 1, 0, '.');
    ck_assert(pt_los_clear(&m, 0, 0, 1, 1));
    pt_map_fini(&m);
}
END_TEST

START_TEST(test_bush_hides_from_afar) {
    pt_map m;
    tu_map_from_rows(&m, room, 6);
    /* target in the bush at (5,4) */
    ck_assert(!pt_los_clear(&m, 0, 4, 5, 4));   /* 5 tiles away: hidden */
    ck_assert(!pt_los_clear(&m, 3, 4, 5, 4));   /* 2 tiles away: hidden */
    ck_assert(pt_los_clear(&m, 4, 4, 5, 4));    /* adjacent: seen */
    ck_assert(pt_los_clear(&m, 4, 3, 5, 4));    /* diagonal neighbour: seen */
    /* a bush between viewer and target blocks like a wall */
    ck_assert(!pt_los_clear(&m, 3, 4, 8, 4));
    pt_map_fini(&m);
}
END_TEST

/* Invariant over random maps: clear LOS implies no opaque cell strictly between on the ray,
 * and any opaque cell strictly between implies no LOS. */
START_TEST(test_random_maps_agree_with_ray_cells) {
    pt_rng r;
    pt_rng_seed(&r, 42, 1);
    long bad = 0, total = 0;
    for (int trial = 0; trial < 40; trial++) {
        pt_map m;
        pt_error err;
        ck_assert_int_eq(pt_map_init_blank(&m, 24, 24, &err), PT_OK);
        for (int i = 0; i < 80; i++) pt_map_set(&m, (int)pt_rng_below(&r, 24), (int)pt_rng_below(&r, 24), '#');
        for (int k = 0; k < 400; k++) {
            int x0 = (int)pt_rng_below(&r, 24), y0 = (int)pt_rng_below(&r, 24);
            int x1 = (int)pt_rng_below(&r, 24), y1 = (int)pt_rng_below(&r, 24);
            pt_cell cells[64];
            int n = pt_line_cells(x0, y0, x1, y1, cells, 64);
            int blocked = 0;
            for (int i = 1; i < n; i++) blocked |= pt_map_opaque(&m, cells[i].x, cells[i].y);
            int clear = pt_los_clear(&m, x0, y0, x1, y1);
            if (clear && blocked) bad++;          /* never see through an opaque cell */
            total++;
        }
        pt_map_fini(&m);
    }
    ck_assert_int_eq(bad, 0);
    ck_assert_int_eq(total, 16000);
}
END_TEST

/* The rule of patrol/los.h written out directly on the cells of pt_line_cells. */
static int reference_clear(const pt_map *m, int x0, int y0, int x1, int y1) {
    static pt_cell cells[4096];
    int n = pt_line_cells(x0, y0, x1, y1, cells, 4096);
    if (n > 4096) return -1;
    int near = abs(x1 - x0) <= 1 && abs(y1 - y0) <= 1;
    for (int i = 1; i < n; i++) {
        pt_cell p = cells[i - 1], c = cells[i];
        if (p.x != c.x && p.y != c.y && pt_map_opaque(m, c.x, p.y) && pt_map_opaque(m, p.x, c.y)) return 0;
        if (pt_map_opaque(m, c.x, c.y) && !(i == n - 1 && near && pt_map_walkable(m, c.x, c.y))) return 0;
    }
    return 1;
}

/* The optimised walk (flat index, merged branches, the near case apart) gives exactly the
 * reference's answer: walls, bushes, sealed corners, rays of every length and octant, ends
 * outside the map. */
START_TEST(test_fast_walk_equals_reference) {
    pt_rng r;
    pt_rng_seed(&r, 9, 2);
    long diff = 0, total = 0, seen = 0;
    for (int trial = 0; trial < 30; trial++) {
        pt_map m;
        pt_error err;
        int w = 20 + (int)pt_rng_below(&r, 60), h = 20 + (int)pt_rng_below(&r, 60);
        ck_assert_int_eq(pt_map_init_blank(&m, w, h, &err), PT_OK);
        int walls = (int)pt_rng_below(&r, w * h / 4);
        for (int i = 0; i < walls; i++)
            pt_map_set(&m, (int)pt_rng_below(&r, (uint32_t)w), (int)pt_rng_below(&r, (uint32_t)h), i % 3 ? '#' : '*');
        for (int k = 0; k < 2000; k++) {
            int x0 = (int)pt_rng_below(&r, (uint32_t)w + 4) - 2, y0 = (int)pt_rng_below(&r, (uint32_t)h + 4) - 2;
            int x1, y1;
            if (k % 2) { /* short rays, most of them near: the bush and corner cases */
                x1 = x0 + (int)pt_rng_below(&r, 5) - 2;
                y1 = y0 + (int)pt_rng_below(&r, 5) - 2;
            } else {
                x1 = (int)pt_rng_below(&r, (uint32_t)w + 4) - 2;
                y1 = (int)pt_rng_below(&r, (uint32_t)h + 4) - 2;
            }
            int want = reference_clear(&m, x0, y0, x1, y1), got = pt_los_clear(&m, x0, y0, x1, y1);
            diff += want != got;
            seen += got;
            total++;
        }
        pt_map_fini(&m);
    }
    ck_assert_int_eq(diff, 0);
    ck_assert_int_eq(total, 60000);
    ck_assert(seen > 6000 && seen < 54000); /* both answers are common */
}
END_TEST

/* Every ray from a cell to each cell within 27 tiles, both answers: the sight bitmaps (rays
 * of 2..24 steps) and the walk over the flags. */
static void compare_all_rays(const pt_map *m, pt_rng *r, int viewers, long *diff, long *rows, long *blocked) {
    for (int v = 0; v < viewers; v++) {
        int x0 = (int)pt_rng_below(r, (uint32_t)m->w), y0 = (int)pt_rng_below(r, (uint32_t)m->h);
        for (int y1 = y0 - 27; y1 <= y0 + 27; y1++)
            for (int x1 = x0 - 27; x1 <= x0 + 27; x1++) {
                int got = pt_los_clear(m, x0, y0, x1, y1), want = pt_los_clear_walk(m, x0, y0, x1, y1);
                *diff += got != want;
                int d = abs(x1 - x0) > abs(y1 - y0) ? abs(x1 - x0) : abs(y1 - y0);
                if (pt_map_in(m, x1, y1) && d >= 2 && d <= 24) {
                    (*rows)++;
                    *blocked += !got;
                }
            }
    }
}

/* The bitmaps give the walk's answer on maps 1 to 97 tiles wide and 1 to 83 high (many bit
 * alignments of a row's and a column's end), densities from none to most cells opaque, bushes, and
 * rays in all eight octants up to and past the 24 steps the bitmaps handle; and stay right
 * as pt_map_set changes cells one at a time. */
START_TEST(test_sight_bitmaps_equal_walk) {
    pt_rng r;
    pt_rng_seed(&r, 77, 3);
    long diff = 0, rows = 0, blocked = 0;
    for (int trial = 0; trial < 48; trial++) {
        pt_map m;
        pt_error err;
        int w = 1 + trial * 3 % 97, h = 1 + (trial * 7 + 5) % 83;
        ck_assert_int_eq(pt_map_init_blank(&m, w, h, &err), PT_OK);
        ck_assert_ptr_nonnull(m.sight);
        int walls = (int)((double)(w * h) * (trial % 8) / 10.0);
        for (int i = 0; i < walls; i++)
            pt_map_set(&m, (int)pt_rng_below(&r, (uint32_t)w), (int)pt_rng_below(&r, (uint32_t)h), i % 4 ? '#' : '*');
        compare_all_rays(&m, &r, 6, &diff, &rows, &blocked);
        /* cells changed after the bitmaps were built: opened and closed again */
        for (int i = 0; i < walls / 2 + 4; i++)
            pt_map_set(&m, (int)pt_rng_below(&r, (uint32_t)w), (int)pt_rng_below(&r, (uint32_t)h), i % 2 ? '.' : '#');
        compare_all_rays(&m, &r, 6, &diff, &rows, &blocked);
        pt_map_fini(&m);
    }
    ck_assert_int_eq(diff, 0);
    ck_assert(rows > 100000);
    ck_assert(blocked > rows / 10 && blocked < rows * 9 / 10); /* both answers are common */
}
END_TEST

/* Rays past 24 steps (runs worked out per row): long and shallow ones with runs longer than
 * one 64-bit load, steep ones along the columns, on sparse and denser maps, against both the
 * walk and the written-out rule. */
START_TEST(test_sight_long_rays_equal_walk) {
    pt_rng r;
    pt_rng_seed(&r, 5, 8);
    long diff = 0, total = 0, seen = 0, long_runs = 0;
    for (int trial = 0; trial < 14; trial++) {
        pt_map m;
        pt_error err;
        int w = trial % 2 ? 61 + trial : 450 + trial, h = trial % 2 ? 430 - trial : 67 + trial;
        if (trial >= 12) { /* the longest rays a map can have (PT_MAP_MAX_W) */
            w = trial % 2 ? 48 : PT_MAP_MAX_W;
            h = trial % 2 ? PT_MAP_MAX_H : 48;
        }
        ck_assert_int_eq(pt_map_init_blank(&m, w, h, &err), PT_OK);
        int walls = (int)((double)(w * h) * (0.002 + 0.01 * (trial % 4)));
        for (int i = 0; i < walls; i++)
            pt_map_set(&m, (int)pt_rng_below(&r, (uint32_t)w), (int)pt_rng_below(&r, (uint32_t)h), i % 5 ? '#' : '*');
        for (int k = 0; k < 4000; k++) {
            int x0 = (int)pt_rng_below(&r, (uint32_t)w), y0 = (int)pt_rng_below(&r, (uint32_t)h);
            int x1 = (int)pt_rng_below(&r, (uint32_t)w), y1 = (int)pt_rng_below(&r, (uint32_t)h);
            if (k % 3 == 0) { /* shallow: a minor offset of at most 3 */
                if (w > h) y1 = y0 + (int)pt_rng_below(&r, 7) - 3;
                else x1 = x0 + (int)pt_rng_below(&r, 7) - 3;
            }
            int dmaj = abs(x1 - x0) > abs(y1 - y0) ? abs(x1 - x0) : abs(y1 - y0);
            int dmin = abs(x1 - x0) > abs(y1 - y0) ? abs(y1 - y0) : abs(x1 - x0);
            int got = pt_los_clear(&m, x0, y0, x1, y1);
            diff += got != pt_los_clear_walk(&m, x0, y0, x1, y1);
            diff += got != reference_clear(&m, x0, y0, x1, y1);
            long_runs += dmaj / (dmin + 1) > 55 && pt_map_in(&m, x1, y1);
            seen += got;
            total++;
        }
        pt_map_fini(&m);
    }
    ck_assert_int_eq(diff, 0);
    ck_assert(long_runs > 1000);
    ck_assert(seen > total / 10 && seen < total * 9 / 10);
}
END_TEST

/* A sealed corner anywhere on a ray, on rays of every length and slope (runs of one cell to
 * runs longer than a 64-bit load), both ways along both axes: with both corner cells walls the
 * ray is blocked; with one of them the ray is clear. */
START_TEST(test_sight_sealed_corners_every_length) {
    pt_rng r;
    pt_rng_seed(&r, 31, 4);
    pt_map m;
    pt_error err;
    ck_assert_int_eq(pt_map_init_blank(&m, 300, 300, &err), PT_OK);
    static pt_cell cells[600];
    long checked = 0, bad = 0;
    for (int k = 0; k < 3000; k++) {
        int len = 2 + (int)pt_rng_below(&r, 280), minor = 1 + (int)pt_rng_below(&r, k % 2 ? 3 : (uint32_t)len);
        int sa = pt_rng_below(&r, 2) ? 1 : -1, sb = pt_rng_below(&r, 2) ? 1 : -1;
        int a0 = (sa > 0 ? 0 : len) + (int)pt_rng_below(&r, (uint32_t)(300 - len));
        int b0 = (sb > 0 ? 0 : minor) + (int)pt_rng_below(&r, (uint32_t)(300 - minor));
        int x0 = k % 4 < 2 ? a0 : b0, y0 = k % 4 < 2 ? b0 : a0;
        int x1 = k % 4 < 2 ? a0 + sa * len : b0 + sb * minor, y1 = k % 4 < 2 ? b0 + sb * minor : a0 + sa * len;
        ck_assert(pt_map_in(&m, x1, y1));
        int n = pt_line_cells(x0, y0, x1, y1, cells, 600);
        int diag[600], nd = 0;
        for (int i = 1; i < n; i++)
            if (cells[i].x != cells[i - 1].x && cells[i].y != cells[i - 1].y) diag[nd++] = i;
        ck_assert_int_gt(nd, 0);
        int i = diag[pt_rng_below(&r, (uint32_t)nd)];
        int ax = cells[i].x, ay = cells[i - 1].y, bx = cells[i - 1].x, by = cells[i].y;
        pt_map_set(&m, ax, ay, '#');
        pt_map_set(&m, bx, by, '#');
        bad += pt_los_clear(&m, x0, y0, x1, y1) != 0 || pt_los_clear_walk(&m, x0, y0, x1, y1) != 0;
        pt_map_set(&m, k % 3 ? ax : bx, k % 3 ? ay : by, '.');
        bad += pt_los_clear(&m, x0, y0, x1, y1) != 1 || pt_los_clear_walk(&m, x0, y0, x1, y1) != 1;
        pt_map_set(&m, ax, ay, '.');
        pt_map_set(&m, bx, by, '.');
        checked++;
    }
    pt_map_fini(&m);
    ck_assert_int_eq(bad, 0);
    ck_assert_int_eq(checked, 3000);
}
END_TEST

/* Flags written directly are not seen until pt_map_refresh_sight (as map.h says); clones and
 * parsed maps carry bitmaps of their own. This also shows the bitmaps are what answers. */
START_TEST(test_sight_refresh_and_copies) {
    pt_map m;
    pt_error err;
    ck_assert_int_eq(pt_map_init_blank(&m, 40, 10, &err), PT_OK);
    ck_assert(pt_los_clear(&m, 2, 5, 20, 5));
    m.flags[5 * 40 + 10] |= PT_TILE_OPAQUE;                  /* behind pt_map_set's back */
    ck_assert(!pt_los_clear_walk(&m, 2, 5, 20, 5));
    ck_assert(pt_los_clear(&m, 2, 5, 20, 5));                 /* stale, as documented */
    ck_assert(!pt_los_clear(&m, 2, 5, 40, 5));                /* an end outside: the walk */
    ck_assert_int_eq(pt_map_refresh_sight(&m), PT_OK);
    ck_assert(!pt_los_clear(&m, 2, 5, 20, 5));
    ck_assert(!pt_los_clear(&m, 10, 1, 10, 8));               /* the columns too */
    pt_map c;
    ck_assert_int_eq(pt_map_clone(&c, &m), PT_OK);
    ck_assert_ptr_nonnull(c.sight);
    ck_assert_ptr_ne(c.sight, m.sight);
    pt_map_set(&c, 10, 5, '.');
    ck_assert(pt_los_clear(&c, 2, 5, 20, 5));
    ck_assert(!pt_los_clear(&m, 2, 5, 20, 5));                /* the original keeps its wall */
    pt_map_fini(&c);
    pt_map_fini(&m);
    const char *text = "player at=0,0\ngrid\n..........\n....#.....\n..........\nend\n";
    ck_assert_int_eq(pt_map_parse(&m, text, strlen(text), "t.map", &err), PT_OK);
    ck_assert_ptr_nonnull(m.sight);
    ck_assert(!pt_los_clear(&m, 1, 1, 8, 1));
    ck_assert(pt_los_clear(&m, 1, 0, 8, 0));
    pt_map_fini(&m);
    ck_assert_ptr_null(m.sight);
}
END_TEST

/* pt_line_walkable is the tile chase's straight line: it must follow the movement rule
 * (pt_map_step_ok), not sight's sealed-corner rule. Regression: its documented rule refused
 * only a squeeze between two non-walkable cells. On generated maps full of diagonal corners
 * it accepts a line exactly when every cell is walkable and no diagonal step passes beside a
 * non-walkable cell (one wall beside is enough to refuse). */
START_TEST(test_line_walkable_never_cuts_corners) {
    long accepted = 0, one_wall = 0;
    for (uint64_t seed = 1; seed <= 20; seed++) {
        pt_map m;
        tu_corner_map(&m, 30, 22, seed);
        pt_rng r;
        pt_rng_seed(&r, seed, 4);
        for (int q = 0; q < 3000; q++) {
            int x0 = (int)pt_rng_below(&r, 30), y0 = (int)pt_rng_below(&r, 22);
            int x1 = x0 + (int)pt_rng_below(&r, 9) - 4, y1 = y0 + (int)pt_rng_below(&r, 9) - 4;
            int want = 1, single = 0;
            pt_line_iter it;
            pt_line_iter_init(&it, x0, y0, x1, y1);
            int px = it.x, py = it.y;
            while (pt_line_iter_next(&it)) {
                if (!pt_map_walkable(&m, it.x, it.y) || tu_cuts_corner(&m, px, py, it.x, it.y)) want = 0;
                if (pt_map_walkable(&m, it.x, it.y) && it.x != px && it.y != py &&
                    pt_map_walkable(&m, it.x, py) != pt_map_walkable(&m, px, it.y))
                    single = 1;
                px = it.x;
                py = it.y;
            }
            int got = pt_line_walkable(&m, x0, y0, x1, y1);
            ck_assert_msg(got == want, "seed %d: %d,%d -> %d,%d: got %d, want %d", (int)seed, x0, y0, x1, y1, got, want);
            accepted += got;
            one_wall += single && !got;
        }
        pt_map_fini(&m);
    }
    ck_assert_int_gt(accepted, 5000);
    ck_assert_int_gt(one_wall, 500);
}
END_TEST

int main(void) {
    Suite *s = suite_create("los");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_open_floor_and_wall);
    tcase_add_test(tc, test_cone_and_distance);
    tcase_add_test(tc, test_corner_gap_is_sealed);
    tcase_add_test(tc, test_line_walkable_never_cuts_corners);
    tcase_add_test(tc, test_bush_hides_from_afar);
    tcase_add_test(tc, test_random_maps_agree_with_ray_cells);
    tcase_add_test(tc, test_fast_walk_equals_reference);
    tcase_add_test(tc, test_sight_bitmaps_equal_walk);
    tcase_add_test(tc, test_sight_long_rays_equal_walk);
    tcase_add_test(tc, test_sight_sealed_corners_every_length);
    tcase_add_test(tc, test_sight_refresh_and_copies);
    suite_add_tcase(s, tc);
    return tu_run(s);
}
