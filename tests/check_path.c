/* SPDX-License-Identifier: Zlib */
/* A*, nearest-goal search and the multi-source flood against a brute-force Dijkstra on random maps. */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <patrol/path.h>
#include <patrol/rng.h>

#include "test_util.h"

#define W 40
#define H 30

/* Reference: plain Dijkstra with an O(n^2) scan (obviously correct, slow). */
static void dijkstra(const pt_map *m, pt_cell from, uint32_t *dist) {
    static const int dxs[8] = {0, 1, 0, -1, 1, 1, -1, -1}, dys[8] = {-1, 0, 1, 0, -1, 1, 1, -1};
    int n = m->w * m->h;
    char *done = calloc((size_t)n, 1);
    for (int i = 0; i < n; i++) dist[i] = UINT32_MAX;
    dist[from.y * m->w + from.x] = 0;
    for (;;) {
        int best = -1;
        for (int i = 0; i < n; i++)
            if (!done[i] && dist[i] != UINT32_MAX && (best < 0 || dist[i] < dist[best])) best = i;
        if (best < 0) break;
        done[best] = 1;
        int cx = best % m->w, cy = best / m->w;
        for (int k = 0; k < 8; k++) {
            int nx = cx + dxs[k], ny = cy + dys[k];
            if (!pt_map_walkable(m, nx, ny)) continue;
            if (k >= 4 && (!pt_map_walkable(m, nx, cy) || !pt_map_walkable(m, cx, ny))) continue;
            uint32_t nd = dist[best] + (k >= 4 ? 14u : 10u);
            if (nd < dist[ny * m->w + nx]) dist[ny * m->w + nx] = nd;
        }
    }
    free(done);
}

/* Cost of a path, or UINT32_MAX if it is not a legal path. */
static uint32_t path_cost(const pt_map *m, const pt_cell *p, int n) {
    uint32_t c = 0;
    for (int i = 0; i < n; i++) {
        if (!pt_map_walkable(m, p[i].x, p[i].y)) return UINT32_MAX;
        if (i == 0) continue;
        int dx = p[i].x - p[i - 1].x, dy = p[i].y - p[i - 1].y;
        if (abs(dx) > 1 || abs(dy) > 1 || (dx == 0 && dy == 0)) return UINT32_MAX;
        if (dx && dy && (!pt_map_walkable(m, p[i].x, p[i - 1].y) || !pt_map_walkable(m, p[i - 1].x, p[i].y)))
            return UINT32_MAX; /* corner cut */
        c += dx && dy ? 14u : 10u;
    }
    return c;
}

static void random_map(pt_map *m, pt_rng *r, int walls) {
    pt_error err;
    ck_assert_int_eq(pt_map_init_blank(m, W, H, &err), PT_OK);
    for (int i = 0; i < walls; i++) pt_map_set(m, (int)pt_rng_below(r, W), (int)pt_rng_below(r, H), '#');
}

START_TEST(test_astar_is_optimal_on_random_maps) {
    pt_rng r;
    pt_rng_seed(&r, 7, 3);
    static uint32_t dist[W * H];
    static pt_cell path[W * H];
    long bad = 0, found = 0, none = 0;
    for (int trial = 0; trial < 30; trial++) {
        pt_map m;
        random_map(&m, &r, 350);
        pt_pathfinder *pf = pt_pathfinder_create(&m);
        ck_assert_ptr_nonnull(pf);
        for (int q = 0; q < 20; q++) {
            pt_cell a = {(int)pt_rng_below(&r, W), (int)pt_rng_below(&r, H)};
            pt_cell b = {(int)pt_rng_below(&r, W), (int)pt_rng_below(&r, H)};
            if (!pt_map_walkable(&m, a.x, a.y) || !pt_map_walkable(&m, b.x, b.y)) continue;
            dijkstra(&m, a, dist);
            int n = pt_path_find(pf, a, b, path, W * H);
            uint32_t want = dist[b.y * W + b.x];
            if (want == UINT32_MAX) {
                none++;
                if (n != -1) bad++;
                continue;
            }
            found++;
            if (n < 1 || path[0].x != a.x || path[0].y != a.y || path[n - 1].x != b.x || path[n - 1].y != b.y) bad++;
            else if (path_cost(&m, path, n) != want) bad++;
        }
        pt_pathfinder_destroy(pf);
        pt_map_fini(&m);
    }
    ck_assert_int_eq(bad, 0);
    ck_assert_int_gt(found, 200);
    ck_assert_int_gt(none, 0); /* the random maps also exercise unreachable goals */
}
END_TEST

START_TEST(test_nearest_goal_matches_min_distance) {
    pt_rng r;
    pt_rng_seed(&r, 9, 4);
    static uint32_t dist[W * H];
    static pt_cell path[W * H];
    long bad = 0, checked = 0;
    for (int trial = 0; trial < 30; trial++) {
        pt_map m;
        random_map(&m, &r, 250);
        pt_pathfinder *pf = pt_pathfinder_create(&m);
        pt_cell from = {(int)pt_rng_below(&r, W), (int)pt_rng_below(&r, H)};
        pt_map_set(&m, from.x, from.y, '.');
        pt_cell goals[12];
        for (int i = 0; i < 12; i++) goals[i] = (pt_cell){(int)pt_rng_below(&r, W), (int)pt_rng_below(&r, H)};
        dijkstra(&m, from, dist);
        uint32_t best = UINT32_MAX;
        for (int i = 0; i < 12; i++)
            if (pt_map_walkable(&m, goals[i].x, goals[i].y) && dist[goals[i].y * W + goals[i].x] < best)
                best = dist[goals[i].y * W + goals[i].x];
        int which = -1;
        int n = pt_path_find_nearest(pf, from, goals, 12, path, W * H, &which);
        if (best == UINT32_MAX) {
            if (n != -1) bad++;
        } else {
            checked++;
            if (n < 1 || which < 0 || path[n - 1].x != goals[which].x || path[n - 1].y != goals[which].y ||
                path_cost(&m, path, n) != best)
                bad++;
        }
        pt_pathfinder_destroy(pf);
        pt_map_fini(&m);
    }
    ck_assert_int_eq(bad, 0);
    ck_assert_int_gt(checked, 20);
}
END_TEST

/* pt_path_flood: every reported cost is the reference distance from the nearest source, the
 * reported source is one at that distance, cells come in cost order, the limit and the `only`
 * list are kept, and nothing beyond is left out. */
START_TEST(test_flood_matches_dijkstra) {
    pt_rng r;
    pt_rng_seed(&r, 11, 5);
    static uint32_t dist[4][W * H];
    static pt_path_reach out[W * H];
    long bad = 0, reached = 0;
    for (int trial = 0; trial < 30; trial++) {
        pt_map m;
        random_map(&m, &r, 300);
        pt_pathfinder *pf = pt_pathfinder_create(&m);
        ck_assert_ptr_nonnull(pf);
        int nsrc = 1 + (int)pt_rng_below(&r, 4);
        pt_cell src[4];
        for (int i = 0; i < nsrc; i++) {
            src[i] = (pt_cell){(int)pt_rng_below(&r, W), (int)pt_rng_below(&r, H)};
            pt_map_set(&m, src[i].x, src[i].y, '.');
        }
        for (int i = 0; i < nsrc; i++) dijkstra(&m, src[i], dist[i]);
        int limit = trial % 3 == 0 ? 0 : 40 + (int)pt_rng_below(&r, 200);
        int n = pt_path_flood(pf, src, nsrc, limit, NULL, 0, out, W * H);
        ck_assert_int_ge(n, 1);
        ck_assert_int_le(n, W * H);
        static unsigned char hit[W * H];
        memset(hit, 0, sizeof hit);
        for (int k = 0; k < n; k++) {
            int c = out[k].y * W + out[k].x;
            uint32_t best = UINT32_MAX;
            for (int i = 0; i < nsrc; i++) best = dist[i][c] < best ? dist[i][c] : best;
            if ((uint32_t)out[k].cost != best || out[k].source < 0 || out[k].source >= nsrc ||
                dist[out[k].source][c] != best || hit[c] || (k > 0 && out[k].cost < out[k - 1].cost) ||
                (limit && out[k].cost > limit))
                bad++;
            hit[c] = 1;
        }
        for (int c = 0; c < W * H; c++) { /* nothing within the limit is missing */
            uint32_t best = UINT32_MAX;
            for (int i = 0; i < nsrc; i++) best = dist[i][c] < best ? dist[i][c] : best;
            if (best != UINT32_MAX && (!limit || best <= (uint32_t)limit) && !hit[c]) bad++;
        }
        reached += n;
        /* only: just those cells, the same costs */
        pt_cell only[8];
        for (int i = 0; i < 8; i++) only[i] = (pt_cell){(int)pt_rng_below(&r, W), (int)pt_rng_below(&r, H)};
        int no = pt_path_flood(pf, src, nsrc, 0, only, 8, out, W * H);
        for (int k = 0; k < no; k++) {
            int in = 0;
            for (int i = 0; i < 8; i++) in |= only[i].x == out[k].x && only[i].y == out[k].y;
            uint32_t best = UINT32_MAX;
            for (int i = 0; i < nsrc; i++) best = dist[i][out[k].y * W + out[k].x] < best ? dist[i][out[k].y * W + out[k].x] : best;
            if (!in || (uint32_t)out[k].cost != best) bad++;
        }
        pt_pathfinder_destroy(pf);
        pt_map_fini(&m);
    }
    ck_assert_int_eq(bad, 0);
    ck_assert_int_gt(reached, 1000);
}
END_TEST

START_TEST(test_edges_and_truncation) {
    static const char *rows[] = {
        "....#....",
        "....#....",
        "....#....",
        ".........",
    };
    pt_map m;
    tu_map_from_rows(&m, rows, 4);
    pt_pathfinder *pf = pt_pathfinder_create(&m);
    pt_cell out[4];
    /* same cell */
    ck_assert_int_eq(pt_path_find(pf, (pt_cell){0, 0}, (pt_cell){0, 0}, out, 4), 1);
    /* into a wall: no path */
    ck_assert_int_eq(pt_path_find(pf, (pt_cell){0, 0}, (pt_cell){4, 0}, out, 4), -1);
    /* around the wall: longer than the buffer; the full length is returned, the start written */
    int n = pt_path_find(pf, (pt_cell){0, 0}, (pt_cell){8, 0}, out, 4);
    ck_assert_int_gt(n, 4);
    ck_assert(out[0].x == 0 && out[0].y == 0);
    /* an expansion limit makes a far goal unreachable */
    pt_pathfinder_set_limit(pf, 3);
    ck_assert_int_eq(pt_path_find(pf, (pt_cell){0, 0}, (pt_cell){8, 0}, out, 4), -1);
    pt_pathfinder_destroy(pf);
    pt_pathfinder_destroy(NULL);
    pt_map_fini(&m);
}
END_TEST

/* Regression: the corner rule was written out in path.c apart from the pattern walkers,
 * which cut corners; A* now uses pt_map_step_ok. On generated maps full of diagonal corners,
 * no step of any path found passes beside a non-walkable cell, and paths still go diagonal. */
START_TEST(test_astar_never_cuts_corners) {
    pt_cell out[1024];
    long steps = 0, diagonal = 0;
    for (uint64_t seed = 1; seed <= 20; seed++) {
        pt_map m;
        tu_corner_map(&m, 32, 24, seed);
        pt_pathfinder *pf = pt_pathfinder_create(&m);
        ck_assert_ptr_nonnull(pf);
        pt_rng r;
        pt_rng_seed(&r, seed, 9);
        for (int q = 0; q < 200; q++) {
            pt_cell a = {(int)pt_rng_below(&r, 32), (int)pt_rng_below(&r, 24)};
            pt_cell b = {(int)pt_rng_below(&r, 32), (int)pt_rng_below(&r, 24)};
            int n = pt_path_find(pf, a, b, out, 1024);
            for (int i = 1; i < n; i++) {
                ck_assert(abs(out[i].x - out[i - 1].x) <= 1 && abs(out[i].y - out[i - 1].y) <= 1);
                ck_assert_msg(!tu_cuts_corner(&m, out[i - 1].x, out[i - 1].y, out[i].x, out[i].y),
                              "seed %d: %d,%d -> %d,%d cuts a corner", (int)seed, out[i - 1].x, out[i - 1].y, out[i].x,
                              out[i].y);
                steps++;
                diagonal += out[i].x != out[i - 1].x && out[i].y != out[i - 1].y;
            }
        }
        pt_pathfinder_destroy(pf);
        pt_map_fini(&m);
    }
    ck_assert_int_gt(steps, 10000);
    ck_assert_int_gt(diagonal, steps / 10);
}
END_TEST

int main(void) {
    Suite *s = suite_create("path");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_astar_is_optimal_on_random_maps);
    tcase_add_test(tc, test_nearest_goal_matches_min_distance);
    tcase_add_test(tc, test_flood_matches_dijkstra);
    tcase_add_test(tc, test_edges_and_truncation);
    tcase_add_test(tc, test_astar_never_cuts_corners);
    suite_add_tcase(s, tc);
    return tu_run(s);
}
