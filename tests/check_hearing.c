/* SPDX-License-Identifier: Zlib */
/* The hearing flood against a brute-force Dijkstra over the whole map on generated maps, and
 * the documented numbers (docs/ai.md, "Hearing") on small hand-drawn maps. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <patrol/hearing.h>
#include <patrol/rng.h>

#include "test_util.h"

/* Sound damping of the tile at (x, y) written out from the legend, -1 = blocks or outside. */
static int ref_damp(const pt_map *m, int x, int y) {
    if (x < 0 || y < 0 || x >= m->w || y >= m->h) return -1;
    int s = m->legend[m->tiles[y * m->w + x]].sound;
    return s == PT_SOUND_BLOCK ? -1 : s;
}

/* Reference: plain Dijkstra with an O(n^2) scan over the whole map (no window, no buckets).
 * cost[i] = -1 where the noise does not get with loss below its budget. */
static void ref_flood(const pt_map *m, int ox, int oy, int budget, int *cost) {
    static const int dxs[8] = {0, 1, 0, -1, 1, 1, -1, -1}, dys[8] = {-1, 0, 1, 0, -1, 1, 1, -1};
    int n = m->w * m->h;
    char *done = calloc((size_t)n, 1);
    ck_assert_ptr_nonnull(done);
    for (int i = 0; i < n; i++) cost[i] = INT32_MAX;
    if (budget > 0 && ref_damp(m, ox, oy) >= 0) cost[oy * m->w + ox] = 0;
    for (;;) {
        int best = -1;
        for (int i = 0; i < n; i++)
            if (!done[i] && cost[i] != INT32_MAX && (best < 0 || cost[i] < cost[best])) best = i;
        if (best < 0 || cost[best] >= budget) break;
        done[best] = 1;
        int cx = best % m->w, cy = best / m->w;
        for (int k = 0; k < 8; k++) {
            int nx = cx + dxs[k], ny = cy + dys[k];
            int d = ref_damp(m, nx, ny);
            if (d < 0) continue;
            if (k >= 4 && (ref_damp(m, nx, cy) < 0 || ref_damp(m, cx, ny) < 0)) continue;
            int nc = cost[best] + (k >= 4 ? 14 : 10) + d;
            if (nc < cost[ny * m->w + nx]) cost[ny * m->w + nx] = nc;
        }
    }
    for (int i = 0; i < n; i++)
        if (cost[i] >= budget) cost[i] = -1;
    free(done);
}

/* A map of floor with walls, doors, bushes, water, grass, and two custom kinds: carpet (walkable,
 * damps 3.5 tiles) and glass (not walkable, transparent, blocks sound). */
static void random_map(pt_map *m, pt_rng *r, int w, int h) {
    pt_error err;
    ck_assert_int_eq(pt_map_init_blank(m, w, h, &err), PT_OK);
    m->legend[m->nlegend++] = (pt_tile_def){.ch = 'c', .name = "carpet", .flags = PT_TILE_WALKABLE, .sound = 35, .sprite = -1};
    m->legend[m->nlegend++] = (pt_tile_def){.ch = 'g', .name = "glass", .flags = 0, .sound = PT_SOUND_BLOCK, .sprite = -1};
    static const char kinds[] = "......##+*~,=:cg";
    int walls = (int)pt_rng_below(r, 3); /* some maps nearly open, some dense */
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            char c = kinds[pt_rng_below(r, (uint32_t)(sizeof kinds - 1))];
            if (walls == 0 && c == '#' && pt_rng_below(r, 4)) c = '.';
            ck_assert(pt_map_set(m, x, y, c));
        }
}

static int budget_of(double loudness) {
    if (!(loudness > 0)) return 0;
    if (loudness > PT_HEARING_MAX_LOUDNESS) loudness = PT_HEARING_MAX_LOUDNESS;
    return (int)floor(loudness * 10 + 0.5);
}

/* The flood's levels, cell list and count equal the reference's at every cell of the map. */
static void check_against_ref(pt_hearing *h, const pt_map *m, int ox, int oy, double loudness) {
    int n = m->w * m->h;
    int *cost = malloc(sizeof *cost * (size_t)n);
    ck_assert_ptr_nonnull(cost);
    int budget = budget_of(loudness);
    ref_flood(m, ox, oy, budget, cost);
    int got = pt_hearing_flood(h, ox, oy, loudness);
    int want = 0;
    for (int i = 0; i < n; i++) {
        int x = i % m->w, y = i / m->w;
        double ref = cost[i] < 0 ? 0.0 : (budget - cost[i]) / 10.0;
        double lv = pt_hearing_level(h, x, y);
        ck_assert_msg(lv == ref, "noise %g at %d,%d: level at %d,%d is %g, reference %g", loudness, ox, oy, x, y, lv, ref);
        want += cost[i] >= 0;
    }
    ck_assert_int_eq(got, want);
    const pt_hearing_cell *cells;
    ck_assert_int_eq(pt_hearing_cells(h, &cells), want);
    for (int i = 0; i < want; i++) {
        ck_assert(cells[i].level > 0 && cells[i].level == pt_hearing_level(h, cells[i].x, cells[i].y));
        if (i) ck_assert(cells[i].level <= cells[i - 1].level); /* loudest first */
    }
    /* outside the map: nothing */
    ck_assert(pt_hearing_level(h, -1, oy) == 0 && pt_hearing_level(h, m->w, oy) == 0);
    ck_assert(pt_hearing_level(h, ox, -1) == 0 && pt_hearing_level(h, ox, m->h) == 0);
    free(cost);
}

START_TEST(test_matches_reference_on_generated_maps) {
    pt_rng r;
    pt_rng_seed(&r, 24, (uint64_t)_i);
    for (int round = 0; round < 40; round++) {
        pt_map m;
        random_map(&m, &r, 1 + (int)pt_rng_below(&r, 30), 1 + (int)pt_rng_below(&r, 24));
        pt_hearing *h = pt_hearing_create(&m);
        ck_assert_ptr_nonnull(h);
        /* one object for many noises, louder and quieter in turn: old stamps must not show */
        for (int k = 0; k < 8; k++) {
            int ox = (int)pt_rng_below(&r, (uint32_t)m.w), oy = (int)pt_rng_below(&r, (uint32_t)m.h);
            double loud = pt_rng_below(&r, 10) == 0 ? 0.05 * pt_rng_below(&r, 4) : pt_rng_unit(&r) * 30.0;
            if (k == 3) loud = floor(loud) + 0.05; /* halfway between tenths: rounds up */
            check_against_ref(h, &m, ox, oy, loud);
        }
        pt_hearing_destroy(h);
        pt_map_fini(&m);
    }
}
END_TEST

/* Long narrow maps and loud noises: costs run far past the flood's circle of buckets, with the
 * dearest tile there is (PT_SOUND_MAX) among the others. */
START_TEST(test_long_ways_match_reference) {
    pt_rng r;
    pt_rng_seed(&r, 25, (uint64_t)_i);
    for (int round = 0; round < 6; round++) {
        pt_map m;
        random_map(&m, &r, 150 + (int)pt_rng_below(&r, 300), 1 + (int)pt_rng_below(&r, 3));
        m.legend[m.nlegend++] = (pt_tile_def){.ch = 'T', .name = "thick", .flags = PT_TILE_WALKABLE, .sound = PT_SOUND_MAX, .sprite = -1};
        for (int x = 0; x < m.w; x++)
            for (int y = 0; y < m.h; y++) {
                if (pt_rng_below(&r, 40) == 0) ck_assert(pt_map_set(&m, x, y, 'T'));
                else if (pt_rng_below(&r, 2)) ck_assert(pt_map_set(&m, x, y, '.')); /* fewer walls */
            }
        pt_hearing *h = pt_hearing_create(&m);
        ck_assert_ptr_nonnull(h);
        for (int k = 0; k < 4; k++) {
            int ox = (int)pt_rng_below(&r, (uint32_t)m.w), oy = (int)pt_rng_below(&r, (uint32_t)m.h);
            check_against_ref(h, &m, ox, oy, k == 0 ? PT_HEARING_MAX_LOUDNESS : 100.0 + pt_rng_unit(&r) * 156.0);
        }
        pt_hearing_destroy(h);
        pt_map_fini(&m);
    }
}
END_TEST

/* The hand map of docs/ai.md: a wall with a door between two rooms. */
static const char *const two_rooms[] = {
    "#########",
    "#...#...#",
    "#...+...#",
    "#...#...#",
    "#########",
};

START_TEST(test_wall_stops_door_lets_through_with_its_loss) {
    pt_map m;
    tu_map_from_rows(&m, two_rooms, 5);
    pt_hearing *h = pt_hearing_create(&m);
    ck_assert_int_eq(pt_hearing_flood(h, 2, 2, 10.0), 9 + 1 + 9); /* both rooms and the door */
    ck_assert(pt_hearing_level(h, 2, 2) == 10.0);
    ck_assert(pt_hearing_level(h, 3, 1) == 8.6);         /* a diagonal: 1.4 */
    ck_assert(pt_hearing_level(h, 4, 2) == 6.0);         /* two steps, the second into the door: 1 + 1 + 2 */
    ck_assert(pt_hearing_level(h, 4, 1) == 0.0);         /* walls hear nothing */
    ck_assert(pt_hearing_level(h, 5, 2) == 5.0);
    ck_assert(pt_hearing_level(h, 5, 1) == 4.0);         /* not 4.6: no corner cut past the wall */
    ck_assert(pt_hearing_level(h, 6, 2) == 4.0);
    ck_assert(pt_hearing_level(h, 6, 1) == 3.6);
    ck_assert(pt_hearing_level(h, 7, 3) == 2.6);
    ck_assert(pt_hearing_hears(h, 7, 3, 1.0) && !pt_hearing_hears(h, 7, 3, 2.6)); /* above, not equal */
    /* the same with floor for the door: 2 more; with a wall: nothing gets over */
    ck_assert(pt_map_set(&m, 4, 2, '.'));
    pt_hearing_flood(h, 2, 2, 10.0);
    ck_assert(pt_hearing_level(h, 6, 2) == 6.0);
    ck_assert(pt_map_set(&m, 4, 2, '#'));
    ck_assert_int_eq(pt_hearing_flood(h, 2, 2, 100.0), 9);
    for (int y = 0; y < 5; y++)
        for (int x = 4; x < 9; x++) ck_assert(pt_hearing_level(h, x, y) == 0.0);
    pt_hearing_destroy(h);
    pt_map_fini(&m);
}
END_TEST

/* A diagonal passes only between two cells that let sound through. */
START_TEST(test_diagonal_corner_rule) {
    static const char *const rows[] = {
        "...",
        ".#.",
        "...",
    };
    pt_map m;
    tu_map_from_rows(&m, rows, 3);
    pt_hearing *h = pt_hearing_create(&m);
    pt_hearing_flood(h, 0, 0, 5.0);
    ck_assert(pt_hearing_level(h, 1, 0) == 4.0);
    ck_assert(pt_hearing_level(h, 2, 0) == 3.0);
    ck_assert(pt_hearing_level(h, 2, 1) == 2.0); /* not 2.6: (1,0) -> (2,1) would cut past the wall */
    ck_assert(pt_hearing_level(h, 2, 2) == 1.0); /* around: 4 straight steps */
    /* two diagonal walls seal the gap between them */
    ck_assert(pt_map_set(&m, 1, 1, '.') && pt_map_set(&m, 1, 0, '#') && pt_map_set(&m, 0, 1, '#'));
    ck_assert_int_eq(pt_hearing_flood(h, 0, 0, 50.0), 1);
    ck_assert(pt_hearing_level(h, 1, 1) == 0.0);
    /* a bush beside the diagonal damps but does not block: the diagonal passes */
    ck_assert(pt_map_set(&m, 1, 0, '*') && pt_map_set(&m, 0, 1, '.'));
    pt_hearing_flood(h, 0, 0, 5.0);
    ck_assert(pt_hearing_level(h, 1, 1) == 3.6);
    ck_assert(pt_hearing_level(h, 1, 0) == 3.0); /* entering the bush: 1 + 1 */
    pt_hearing_destroy(h);
    pt_map_fini(&m);
}
END_TEST

START_TEST(test_damping_tiles) {
    static const char *const rows[] = {".+*~,=:E"};
    pt_map m;
    tu_map_from_rows(&m, rows, 1);
    pt_hearing *h = pt_hearing_create(&m);
    pt_hearing_flood(h, 0, 0, 20.0);
    /* door 2, bush 1, water, grass, bridge, dirt, exit 0 */
    static const double want[8] = {20.0, 17.0, 15.0, 14.0, 13.0, 12.0, 11.0, 10.0};
    for (int x = 0; x < 8; x++) ck_assert_msg(pt_hearing_level(h, x, 0) == want[x], "x %d: %g", x, pt_hearing_level(h, x, 0));
    pt_hearing_destroy(h);
    pt_map_fini(&m);
}
END_TEST

START_TEST(test_odd_inputs) {
    pt_map m;
    tu_map_from_rows(&m, two_rooms, 5);
    pt_hearing *h = pt_hearing_create(&m);
    ck_assert_ptr_null(pt_hearing_create(NULL));
    pt_hearing_destroy(NULL);
    ck_assert_int_eq(pt_hearing_cells(NULL, NULL), 0);
    ck_assert(pt_hearing_level(NULL, 1, 1) == 0.0);
    ck_assert(pt_hearing_level(h, 2, 2) == 0.0); /* no noise yet */
    const double quiet[] = {0.0, -1.0, 0.04, NAN, -INFINITY};
    for (size_t i = 0; i < sizeof quiet / sizeof quiet[0]; i++) {
        ck_assert_int_eq(pt_hearing_flood(h, 2, 2, 9.0), 19);
        ck_assert_int_eq(pt_hearing_flood(h, 2, 2, quiet[i]), 0); /* and forgets the last noise */
        for (int y = 0; y < 5; y++)
            for (int x = 0; x < 9; x++) ck_assert(pt_hearing_level(h, x, y) == 0.0);
        const pt_hearing_cell *c = (const pt_hearing_cell *)&m;
        ck_assert_int_eq(pt_hearing_cells(h, &c), 0);
        ck_assert_ptr_null(c);
    }
    /* origin on a wall or outside the map: nothing */
    ck_assert_int_eq(pt_hearing_flood(h, 4, 1, 10.0), 0);
    ck_assert_int_eq(pt_hearing_flood(h, -1, 2, 10.0), 0);
    ck_assert_int_eq(pt_hearing_flood(h, 9, 2, 10.0), 0);
    ck_assert_int_eq(pt_hearing_flood(h, 2, 5, 10.0), 0);
    ck_assert_int_eq(pt_hearing_flood(h, 2, 2, 0.05), 1); /* rounds to a tenth: the origin alone */
    ck_assert(pt_hearing_level(h, 2, 2) == 0.1);
    /* huge and infinite: capped, finite levels everywhere */
    const double loud[] = {1e300, INFINITY, PT_HEARING_MAX_LOUDNESS + 1};
    for (size_t i = 0; i < sizeof loud / sizeof loud[0]; i++) {
        ck_assert_int_eq(pt_hearing_flood(h, 2, 2, loud[i]), 19);
        ck_assert(pt_hearing_level(h, 2, 2) == PT_HEARING_MAX_LOUDNESS);
        const pt_hearing_cell *c;
        int n = pt_hearing_cells(h, &c);
        for (int k = 0; k < n; k++) ck_assert(isfinite(c[k].level) && c[k].level > 0);
    }
    /* the threshold: 0 and NaN mean the default (1.0) */
    pt_hearing_flood(h, 2, 2, 10.0);
    ck_assert(pt_hearing_level(h, 7, 3) == 2.6);
    ck_assert(pt_hearing_hears(h, 7, 3, 0.0) && pt_hearing_hears(h, 7, 3, NAN) && pt_hearing_hears(h, 7, 3, -2));
    pt_hearing_flood(h, 2, 2, 7.4); /* the loss to 7,3 is 7.4: nothing left */
    ck_assert(pt_hearing_level(h, 7, 3) == 0.0);
    pt_hearing_flood(h, 2, 2, 8.4);
    ck_assert(pt_hearing_level(h, 7, 3) == 1.0);
    ck_assert(!pt_hearing_hears(h, 7, 3, 0.0) && pt_hearing_hears(h, 7, 3, 0.9));
    pt_hearing_destroy(h);
    pt_map_fini(&m);
}
END_TEST

/* Cost: on an open map the flood visits exactly the cells within its budget, never more than
 * (2L+1)^2, and the noise near the map's edge stays inside the map. */
START_TEST(test_bounded_by_loudness) {
    pt_map m;
    pt_error err;
    ck_assert_int_eq(pt_map_init_blank(&m, 200, 200, &err), PT_OK);
    pt_hearing *h = pt_hearing_create(&m);
    for (int l = 1; l <= 60; l += 7) {
        int n = pt_hearing_flood(h, 100, 100, l);
        ck_assert_int_le(n, (2 * l + 1) * (2 * l + 1));
        ck_assert_int_ge(n, (2 * (l - 1) + 1) * (2 * (l - 1) + 1) / 2); /* and it does spread */
        const pt_hearing_cell *c;
        pt_hearing_cells(h, &c);
        for (int k = 0; k < n; k++) ck_assert(abs(c[k].x - 100) < l && abs(c[k].y - 100) < l);
        n = pt_hearing_flood(h, 0, 199, l);
        pt_hearing_cells(h, &c);
        for (int k = 0; k < n; k++) ck_assert(pt_map_in(&m, c[k].x, c[k].y));
    }
    check_against_ref(h, &m, 3, 196, 12.3); /* the whole 200x200 map against the reference */
    pt_hearing_destroy(h);
    pt_map_fini(&m);
}
END_TEST

/* Same inputs, same results: two objects, one fresh for each noise and one reused. */
START_TEST(test_deterministic) {
    pt_rng r;
    pt_rng_seed(&r, 7, 1);
    pt_map m;
    random_map(&m, &r, 64, 48);
    pt_hearing *a = pt_hearing_create(&m);
    for (int k = 0; k < 50; k++) {
        int x = (int)pt_rng_below(&r, 64), y = (int)pt_rng_below(&r, 48);
        double l = pt_rng_unit(&r) * 40;
        pt_hearing *b = pt_hearing_create(&m);
        int na = pt_hearing_flood(a, x, y, l), nb = pt_hearing_flood(b, x, y, l);
        ck_assert_int_eq(na, nb);
        const pt_hearing_cell *ca, *cb;
        ck_assert_int_eq(pt_hearing_cells(a, &ca), pt_hearing_cells(b, &cb));
        if (na) ck_assert(memcmp(ca, cb, sizeof *ca * (size_t)na) == 0);
        pt_hearing_destroy(b);
    }
    pt_hearing_destroy(a);
    pt_map_fini(&m);
}
END_TEST

static Suite *suite(void) {
    Suite *s = suite_create("hearing");
    TCase *tc = tcase_create("core");
    tcase_add_loop_test(tc, test_matches_reference_on_generated_maps, 0, 6);
    tcase_add_loop_test(tc, test_long_ways_match_reference, 0, 4);
    tcase_add_test(tc, test_wall_stops_door_lets_through_with_its_loss);
    tcase_add_test(tc, test_diagonal_corner_rule);
    tcase_add_test(tc, test_damping_tiles);
    tcase_add_test(tc, test_odd_inputs);
    tcase_add_test(tc, test_bounded_by_loudness);
    tcase_add_test(tc, test_deterministic);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return tu_run(suite()); }
