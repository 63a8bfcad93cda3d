/* Line of sight: the documented rule (viewer -> target ray, corners, bushes, cone, range). */
#include <check.h>
#include <math.h>
#include <stdlib.h>

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

int main(void) {
    Suite *s = suite_create("los");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_open_floor_and_wall);
    tcase_add_test(tc, test_cone_and_distance);
    tcase_add_test(tc, test_corner_gap_is_sealed);
    tcase_add_test(tc, test_bush_hides_from_afar);
    tcase_add_test(tc, test_random_maps_agree_with_ray_cells);
    tcase_add_test(tc, test_fast_walk_equals_reference);
    suite_add_tcase(s, tc);
    return tu_run(s);
}
