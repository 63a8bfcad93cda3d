/* SPDX-License-Identifier: Zlib */
/* The cell-space partition: its neighbour queries equal brute force on random worlds
 * (positions inside and outside the area, any cell size, any radius), truncation, strides,
 * rebuilds that grow and shrink, the sort in shares as pt_crowd runs it, and bad
 * arguments. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <patrol/cellspace.h>
#include <patrol/error.h>
#include <patrol/rng.h>

#include "base/cellspace_sort.h"

static int cmp_int(const void *a, const void *b) {
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* The same distance test the cell space documents: |pos - p| <= radius. */
static int brute(const pt_vec2 *pos, int n, pt_vec2 p, double radius, int *out) {
    int k = 0;
    for (int i = 0; i < n; i++) {
        double dx = pos[i].x - p.x, dy = pos[i].y - p.y;
        if (dx * dx + dy * dy <= radius * radius) out[k++] = i;
    }
    return k;
}

START_TEST(test_equals_brute_force_random_worlds) {
    pt_rng r;
    pt_rng_seed(&r, 2718, 1);
    enum { MAXN = 3000 };
    pt_vec2 *pos = malloc(sizeof *pos * MAXN);
    int *got = malloc(sizeof *got * MAXN), *want = malloc(sizeof *want * MAXN);
    long queries = 0, mismatches = 0, nonempty = 0;
    for (int world = 0; world < 60; world++) {
        double w = 1 + pt_rng_unit(&r) * 120, h = 1 + pt_rng_unit(&r) * 90;
        double cell = 0.25 + pt_rng_unit(&r) * 8;
        pt_cellspace cs;
        ck_assert_int_eq(pt_cellspace_init(&cs, -3.0, 2.0, w, h, cell), PT_OK);
        for (int rebuild = 0; rebuild < 3; rebuild++) {
            int n = (int)pt_rng_below(&r, MAXN);
            for (int i = 0; i < n; i++) {
                /* mostly inside; some outside the area; a few exactly on cell borders */
                double x = -3.0 + (pt_rng_unit(&r) * 1.2 - 0.1) * w;
                double y = 2.0 + (pt_rng_unit(&r) * 1.2 - 0.1) * h;
                if (pt_rng_below(&r, 20) == 0) x = -3.0 + cell * (double)pt_rng_below(&r, 20);
                if (pt_rng_below(&r, 20) == 0) y = 2.0 + cell * (double)pt_rng_below(&r, 20);
                pos[i] = pt_v2(x, y);
            }
            if (n > 10) pos[3] = pt_v2(NAN, 1.0); /* never matches anything */
            ck_assert_int_eq(pt_cellspace_rebuild(&cs, pos, 0, n), PT_OK);
            for (int q = 0; q < 100; q++) {
                pt_vec2 p = pt_v2(-3.0 + (pt_rng_unit(&r) * 1.4 - 0.2) * w, 2.0 + (pt_rng_unit(&r) * 1.4 - 0.2) * h);
                if (q % 10 == 0 && n > 0) p = pos[pt_rng_below(&r, (uint32_t)n)]; /* at an agent */
                double radius = q % 17 == 0 ? 0.0 : pt_rng_unit(&r) * 7;
                int k = pt_cellspace_query(&cs, p, radius, got, MAXN);
                int kb = brute(pos, n, p, radius, want);
                queries++;
                nonempty += kb > 0;
                if (k != kb) {
                    mismatches++;
                    continue;
                }
                qsort(got, (size_t)k, sizeof *got, cmp_int);
                if (memcmp(got, want, sizeof *got * (size_t)k) != 0) mismatches++;
            }
        }
        pt_cellspace_fini(&cs);
    }
    free(pos);
    free(got);
    free(want);
    ck_assert_int_eq(mismatches, 0);
    ck_assert_int_gt(nonempty, queries / 2); /* the test is not vacuous */
}
END_TEST

/* A buffer smaller than the answer: the total is still returned and the ids written are a
 * subset of the true answer. */
START_TEST(test_truncated_buffer) {
    pt_rng r;
    pt_rng_seed(&r, 3, 3);
    pt_vec2 pos[500];
    for (int i = 0; i < 500; i++) pos[i] = pt_v2(pt_rng_unit(&r) * 10, pt_rng_unit(&r) * 10);
    pt_cellspace cs;
    ck_assert_int_eq(pt_cellspace_init(&cs, 0, 0, 10, 10, 1.0), PT_OK);
    ck_assert_int_eq(pt_cellspace_rebuild(&cs, pos, 0, 500), PT_OK);
    int want[500], got[8] = {0};
    int kb = brute(pos, 500, pt_v2(5, 5), 3, want);
    ck_assert_int_gt(kb, 8);
    int k = pt_cellspace_query(&cs, pt_v2(5, 5), 3, got, 8);
    ck_assert_int_eq(k, kb);
    for (int i = 0; i < 8; i++) ck_assert_ptr_nonnull(bsearch(&got[i], want, (size_t)kb, sizeof *want, cmp_int));
    ck_assert_int_eq(pt_cellspace_query(&cs, pt_v2(5, 5), 3, NULL, 0), kb); /* count only */
    pt_cellspace_fini(&cs);
}
END_TEST

/* Positions read through a stride (agents embedded in structs) give the same answers, and
 * ids ascend within a cell (one big cell: fully sorted). */
START_TEST(test_stride_and_order) {
    struct agent { int tag; pt_vec2 pos; char pad[13]; } ag[300];
    pt_vec2 packed[300];
    pt_rng r;
    pt_rng_seed(&r, 8, 8);
    for (int i = 0; i < 300; i++) {
        packed[i] = pt_v2(pt_rng_unit(&r) * 20, pt_rng_unit(&r) * 20);
        ag[i].pos = packed[i];
        ag[i].tag = i;
    }
    pt_cellspace a, b;
    ck_assert_int_eq(pt_cellspace_init(&a, 0, 0, 20, 20, 2.5), PT_OK);
    ck_assert_int_eq(pt_cellspace_init(&b, 0, 0, 20, 20, 2.5), PT_OK);
    ck_assert_int_eq(pt_cellspace_rebuild(&a, packed, 0, 300), PT_OK);
    ck_assert_int_eq(pt_cellspace_rebuild(&b, &ag[0].pos, sizeof ag[0], 300), PT_OK);
    int x[300], y[300];
    for (int q = 0; q < 50; q++) {
        pt_vec2 p = pt_v2(pt_rng_unit(&r) * 20, pt_rng_unit(&r) * 20);
        int kx = pt_cellspace_query(&a, p, 4, x, 300), ky = pt_cellspace_query(&b, p, 4, y, 300);
        ck_assert_int_eq(kx, ky);
        ck_assert_int_eq(memcmp(x, y, sizeof *x * (size_t)kx), 0);
    }
    pt_cellspace_fini(&b);
    pt_cellspace one;
    ck_assert_int_eq(pt_cellspace_init(&one, 0, 0, 20, 20, 100), PT_OK);
    ck_assert_int_eq(pt_cellspace_rebuild(&one, packed, 0, 300), PT_OK);
    int k = pt_cellspace_query(&one, pt_v2(10, 10), 30, x, 300);
    ck_assert_int_eq(k, 300);
    for (int i = 0; i < 300; i++) ck_assert_int_eq(x[i], i);
    pt_cellspace_fini(&one);
    pt_cellspace_fini(&a);
}
END_TEST

/* Rebuilds that grow, shrink, and empty: no stale agents. */
START_TEST(test_rebuild_grow_shrink) {
    pt_cellspace cs;
    ck_assert_int_eq(pt_cellspace_init(&cs, 0, 0, 8, 8, 1), PT_OK);
    pt_vec2 pos[1000];
    for (int i = 0; i < 1000; i++) pos[i] = pt_v2(4, 4);
    int out[1000];
    for (int n = 0; n <= 1000; n = n ? n * 3 : 1) {
        ck_assert_int_eq(pt_cellspace_rebuild(&cs, pos, 0, n), PT_OK);
        ck_assert_int_eq(pt_cellspace_query(&cs, pt_v2(4, 4), 0.5, out, 1000), n);
    }
    ck_assert_int_eq(pt_cellspace_rebuild(&cs, pos, 0, 2), PT_OK);
    ck_assert_int_eq(pt_cellspace_query(&cs, pt_v2(4, 4), 0.5, out, 1000), 2);
    ck_assert_int_eq(pt_cellspace_rebuild(&cs, pos, 0, 0), PT_OK);
    ck_assert_int_eq(pt_cellspace_query(&cs, pt_v2(4, 4), 100, out, 1000), 0);
    pt_cellspace_fini(&cs);
    pt_cellspace_fini(&cs); /* twice is fine */
    pt_cellspace_fini(NULL);
}
END_TEST

/* A small group that wanders over a big grid (each rebuild rewrites only the cells it
 * spans, now and before, and counts only those in its columns), grows, shrinks and
 * empties: after every rebuild the offsets, ids and positions equal a fresh cell space's
 * built from scratch, and each cell's offset is the number of points in the cells before
 * it. */
START_TEST(test_rebuild_moving_group_equals_fresh) {
    pt_rng r;
    pt_rng_seed(&r, 23, 1);
    pt_cellspace cs;
    ck_assert_int_eq(pt_cellspace_init(&cs, 0, 0, 200, 150, 1.5), PT_OK);
    int ncells = cs.cols * cs.rows;
    pt_vec2 pos[300], centre = pt_v2(100, 75);
    int *before = calloc((size_t)ncells + 1, sizeof *before);
    ck_assert_ptr_nonnull(before);
    static const int sizes[] = {300, 300, 120, 300, 0, 40, 40, 300};
    for (int t = 0; t < 80; t++) {
        int n = sizes[t % 8];
        /* jumps now and then, else drifts; a few points stray outside the area */
        if (t % 11 == 0) centre = pt_v2(pt_rng_unit(&r) * 200, pt_rng_unit(&r) * 150);
        else centre = pt_v2_add(centre, pt_v2((pt_rng_unit(&r) - 0.5) * 8, (pt_rng_unit(&r) - 0.5) * 8));
        for (int i = 0; i < n; i++) {
            double spread = i % 50 == 0 && t % 3 == 0 ? 120 : 6; /* else a few columns */
            pos[i] = pt_v2(centre.x + (pt_rng_unit(&r) - 0.5) * spread, centre.y + (pt_rng_unit(&r) - 0.5) * spread);
        }
        ck_assert_int_eq(pt_cellspace_rebuild(&cs, pos, 0, n), PT_OK);
        pt_cellspace fresh;
        ck_assert_int_eq(pt_cellspace_init(&fresh, 0, 0, 200, 150, 1.5), PT_OK);
        ck_assert_int_eq(pt_cellspace_rebuild(&fresh, pos, 0, n), PT_OK);
        ck_assert_int_eq(memcmp(cs.start, fresh.start, sizeof *cs.start * ((size_t)ncells + 1)), 0);
        memset(before, 0, sizeof *before * ((size_t)ncells + 1));
        for (int i = 0; i < n; i++) before[pt_cellspace_cell(&cs, pos[i]) + 1]++;
        for (int q = 0; q < ncells; q++) {
            before[q + 1] += before[q];
            ck_assert_int_eq(cs.start[q], before[q]);
        }
        ck_assert_int_eq(cs.start[ncells], n);
        if (n) {
            ck_assert_int_eq(memcmp(cs.ids, fresh.ids, sizeof *cs.ids * (size_t)n), 0);
            ck_assert_int_eq(memcmp(cs.pos, fresh.pos, sizeof *cs.pos * (size_t)n), 0);
        }
        pt_cellspace_fini(&fresh);
    }
    free(before);
    pt_cellspace_fini(&cs);
}
END_TEST

/* The sort in shares, as pt_crowd runs it (pt__cellspace_sort_plan, _share, _done): small
 * crowds that drift slowly over a wide grid (their columns stay the same for many sorts
 * while agents cross rows, so the runs between the rows' columns are kept or rewritten),
 * jump, grow, shrink and empty, sorted in 1 to 4 shares run in any order, into a
 * permutation or into ids and positions, over many seeds: after every sort each cell's
 * offset is the number of agents in the cells before it, each cell's slots hold its agents
 * in ascending order, and the shares' most agents in a cell is the true one. */
START_TEST(test_sort_shares_drifting_crowd_equals_fresh) {
    enum { M = 160 };
    pt_vec2 pos[M], vel[M];
    int cells[M], perm[M];
    for (unsigned seed = 1; seed <= 6; seed++) {
        pt_rng r;
        pt_rng_seed(&r, seed, 23);
        pt_cellspace cs;
        ck_assert_int_eq(pt_cellspace_init(&cs, 0, 0, 600, 60 + 10 * seed, 1.5), PT_OK);
        int ncells = cs.cols * cs.rows, n = 0;
        int *want = calloc((size_t)ncells + 1, sizeof *want);
        ck_assert_ptr_nonnull(want);
        pt_vec2 centre = pt_v2(300, 40);
        for (int t = 0; t < 240; t++) {
            int jump = t % 47 == 0, resize = t % 29 == 0;
            if (jump) centre = pt_v2(pt_rng_unit(&r) * 600, pt_rng_unit(&r) * (60 + 10 * seed));
            if (resize) {
                static const int sizes[] = {M, 1, 0, 40, M, 7};
                n = sizes[pt_rng_below(&r, 6)];
            }
            for (int i = 0; i < n; i++) {
                if (jump || resize || t == 0) { /* a clump of a few cells, a stray now and then */
                    double spread = i % 37 == 5 ? 200 : 10;
                    pos[i] = pt_v2(centre.x + (pt_rng_unit(&r) - 0.5) * spread,
                                   centre.y + (pt_rng_unit(&r) - 0.5) * spread);
                    vel[i] = pt_v2((pt_rng_unit(&r) - 0.5) * 0.4, (pt_rng_unit(&r) - 0.5) * 0.4);
                }
                pos[i] = pt_v2_add(pos[i], vel[i]);
                cells[i] = pt_cellspace_cell(&cs, pos[i]);
            }
            int shares = 1 + t % 4, to_perm = (t / 4) % 2, most = 0;
            pt__cellspace_plan plan;
            ck_assert_int_eq(pt__cellspace_sort_plan(&cs, cells, n, &plan), PT_OK);
            for (int k = 0; k < shares; k++) { /* forwards or backwards: any order */
                int sh = t % 3 == 0 ? shares - 1 - k : k;
                int m = pt__cellspace_sort_share(&cs, cells, n, &plan, sh, shares, to_perm ? perm : NULL, pos,
                                                 sizeof *pos);
                most = m > most ? m : most;
            }
            pt__cellspace_sort_done(&cs, n);
            /* brute force: the whole grid counted and summed, agents in ascending order */
            memset(want, 0, sizeof *want * ((size_t)ncells + 1));
            for (int i = 0; i < n; i++) want[cells[i] + 1]++;
            int true_most = 0, bad = -1;
            for (int q = 0; q < ncells; q++) {
                true_most = want[q + 1] > true_most ? want[q + 1] : true_most;
                want[q + 1] += want[q];
                if (bad < 0 && cs.start[q] != want[q]) bad = q;
            }
            ck_assert_int_eq(bad, -1);
            ck_assert_int_eq(cs.start[ncells], n);
            ck_assert_int_eq(most, true_most);
            for (int i = 0; i < n; i++) {
                int k = want[cells[i]]++;
                ck_assert_int_eq(to_perm ? perm[k] : cs.ids[k], i);
                if (!to_perm) ck_assert(memcmp(&cs.pos[k], &pos[i], sizeof pos[i]) == 0);
            }
        }
        free(want);
        pt_cellspace_fini(&cs);
    }
}
END_TEST

/* pt_cellspace_rebuild_cells (cells computed by the caller) sorts exactly like
 * pt_cellspace_rebuild, in ascending pt_cellspace_cell order; a bad cell is refused. */
START_TEST(test_rebuild_cells_same_order) {
    pt_rng r;
    pt_rng_seed(&r, 99, 2);
    enum { M = 2000 };
    static pt_vec2 pos[M];
    static int cells[M];
    pt_cellspace a, b;
    ck_assert_int_eq(pt_cellspace_init(&a, 1.0, -2.0, 50.0, 30.0, 2.5), PT_OK);
    ck_assert_int_eq(pt_cellspace_init(&b, 1.0, -2.0, 50.0, 30.0, 2.5), PT_OK);
    for (int i = 0; i < M; i++) {
        pos[i] = pt_v2(1.0 + (pt_rng_unit(&r) * 1.4 - 0.2) * 50.0, -2.0 + (pt_rng_unit(&r) * 1.4 - 0.2) * 30.0);
        if (i % 97 == 0) pos[i] = pt_v2(INFINITY, NAN);
        cells[i] = pt_cellspace_cell(&b, pos[i]);
    }
    ck_assert_int_eq(pt_cellspace_rebuild(&a, pos, 0, M), PT_OK);
    ck_assert_int_eq(pt_cellspace_rebuild_cells(&b, pos, cells, M), PT_OK);
    ck_assert_int_eq(memcmp(a.ids, b.ids, sizeof *a.ids * M), 0);
    ck_assert_int_eq(memcmp(a.start, b.start, sizeof *a.start * (size_t)(a.cols * a.rows + 1)), 0);
    long bad = 0;
    for (int k = 1; k < M; k++) {
        int c0 = pt_cellspace_cell(&b, pos[b.ids[k - 1]]), c1 = pt_cellspace_cell(&b, pos[b.ids[k]]);
        bad += c0 > c1 || (c0 == c1 && b.ids[k - 1] > b.ids[k]);
    }
    ck_assert_int_eq(bad, 0);
    cells[5] = a.cols * a.rows;
    ck_assert_int_eq(pt_cellspace_rebuild_cells(&b, pos, cells, M), PT_ERR_RANGE);
    ck_assert_int_eq(pt_cellspace_query(&b, pos[1], 5.0, cells, M), 0); /* empty after a refusal */
    pt_cellspace_fini(&a);
    pt_cellspace_fini(&b);
}
END_TEST

START_TEST(test_bad_arguments) {
    pt_cellspace cs;
    ck_assert_int_eq(pt_cellspace_init(&cs, 0, 0, 0, 10, 1), PT_ERR_RANGE);
    ck_assert_int_eq(pt_cellspace_init(&cs, 0, 0, 10, 10, 0), PT_ERR_RANGE);
    ck_assert_int_eq(pt_cellspace_init(&cs, 0, 0, 10, 10, -1), PT_ERR_RANGE);
    ck_assert_int_eq(pt_cellspace_init(&cs, 0, 0, NAN, 10, 1), PT_ERR_RANGE);
    ck_assert_int_eq(pt_cellspace_init(&cs, INFINITY, 0, 10, 10, 1), PT_ERR_RANGE);
    /* a tiny cell over a huge map: the cell grows so the grid stays bounded */
    ck_assert_int_eq(pt_cellspace_init(&cs, 0, 0, 4096, 4096, 0.01), PT_OK);
    ck_assert((long)cs.cols * cs.rows <= (1L << 22));
    pt_vec2 p[2] = {{1, 1}, {4000, 4000}};
    ck_assert_int_eq(pt_cellspace_rebuild(&cs, p, 0, 2), PT_OK);
    int out[2];
    ck_assert_int_eq(pt_cellspace_query(&cs, pt_v2(1, 1), 0, out, 2), 1);
    ck_assert_int_eq(out[0], 0);
    ck_assert_int_eq(pt_cellspace_query(&cs, pt_v2(1, 1), -1, out, 2), 0);
    ck_assert_int_eq(pt_cellspace_query(&cs, pt_v2(NAN, 1), 5, out, 2), 0);
    ck_assert_int_eq(pt_cellspace_query(&cs, pt_v2(2000, 2000), INFINITY, out, 2), 2);
    pt_cellspace_fini(&cs);
}
END_TEST

static Suite *cellspace_suite(void) {
    Suite *s = suite_create("steer_cellspace");
    TCase *core = tcase_create("core");
    tcase_add_test(core, test_equals_brute_force_random_worlds);
    tcase_add_test(core, test_truncated_buffer);
    tcase_add_test(core, test_stride_and_order);
    tcase_add_test(core, test_rebuild_grow_shrink);
    tcase_add_test(core, test_rebuild_cells_same_order);
    tcase_add_test(core, test_rebuild_moving_group_equals_fresh);
    tcase_add_test(core, test_sort_shares_drifting_crowd_equals_fresh);
    suite_add_tcase(s, core);
    TCase *lim = tcase_create("limits");
    tcase_add_test(lim, test_bad_arguments);
    suite_add_tcase(s, lim);
    return s;
}

int main(void) {
    SRunner *sr = srunner_create(cellspace_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
