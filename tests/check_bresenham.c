/* SPDX-License-Identifier: Zlib */
/* Bresenham line rasterisation: exhaustive properties over every endpoint pair. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <patrol/bresenham.h>

#define R 20

/* Every endpoint pair within +-R of the origin (both ends vary): 8-connected, length =
 * max(|dx|,|dy|)+1, endpoints exact, each cell within 0.5 of the ideal line on the minor axis. */
START_TEST(test_all_pairs_properties) {
    /* Plain comparisons in the loop (a Check assertion per cell is slow in fork mode);
     * the first failure is reported with its endpoints. */
    pt_cell buf[4 * R + 4];
    long checked = 0, bad = 0;
    char first[160] = "";
    for (int x0 = -R; x0 <= R; x0 += 2)
        for (int y0 = -R; y0 <= R; y0 += 3)
            for (int x1 = -R; x1 <= R; x1++)
                for (int y1 = -R; y1 <= R; y1++) {
                    int n = pt_line_cells(x0, y0, x1, y1, buf, (int)(sizeof buf / sizeof buf[0]));
                    int dx = x1 - x0, dy = y1 - y0;
                    int expect = (abs(dx) > abs(dy) ? abs(dx) : abs(dy)) + 1;
                    const char *why = NULL;
                    if (n != expect || n != pt_line_length(x0, y0, x1, y1)) why = "length";
                    else if (buf[0].x != x0 || buf[0].y != y0 || buf[n - 1].x != x1 || buf[n - 1].y != y1)
                        why = "endpoints";
                    for (int i = 1; !why && i < n; i++) {
                        int ax = abs(buf[i].x - buf[i - 1].x), ay = abs(buf[i].y - buf[i - 1].y);
                        if (ax > 1 || ay > 1 || ax + ay == 0) why = "not 8-connected";
                    }
                    for (int i = 0; !why && i < n; i++) {
                        double off; /* distance on the minor axis from the ideal line */
                        if (abs(dx) >= abs(dy)) {
                            double t = dx ? (double)(buf[i].x - x0) / dx : 0.0;
                            off = fabs((y0 + t * dy) - buf[i].y);
                        } else {
                            double t = (double)(buf[i].y - y0) / dy;
                            off = fabs((x0 + t * dx) - buf[i].x);
                        }
                        if (off > 0.5 + 1e-12) why = "cell farther than 0.5 from the ideal line";
                    }
                    if (why && bad++ == 0)
                        snprintf(first, sizeof first, "(%d,%d)->(%d,%d): %s", x0, y0, x1, y1, why);
                    checked++;
                }
    ck_assert_msg(bad == 0, "%ld bad lines, first %s", bad, first);
    ck_assert_int_gt(checked, 100000);
}
END_TEST

/* The major axis advances exactly one cell per step (no repeated or skipped columns). */
START_TEST(test_major_axis_monotone) {
    pt_cell buf[64];
    for (int x1 = -R; x1 <= R; x1++)
        for (int y1 = -R; y1 <= R; y1++) {
            int n = pt_line_cells(0, 0, x1, y1, buf, 64);
            int major_x = abs(x1) >= abs(y1);
            for (int i = 0; i < n; i++) ck_assert_int_eq(abs(major_x ? buf[i].x : buf[i].y), i);
        }
}
END_TEST

/* Ties (ideal line exactly half-way) go to the cell farther from the start: documented rule. */
START_TEST(test_tie_breaking_rule) {
    pt_cell buf[8];
    /* (0,0)->(2,1): at x=1 the ideal y is 0.5 -> y = 1 */
    ck_assert_int_eq(pt_line_cells(0, 0, 2, 1, buf, 8), 3);
    ck_assert_int_eq(buf[1].x, 1);
    ck_assert_int_eq(buf[1].y, 1);
    /* reversed: (2,1)->(0,0): at x=1 the ideal y is 0.5 -> y = 0 (farther from the start) */
    pt_line_cells(2, 1, 0, 0, buf, 8);
    ck_assert_int_eq(buf[1].y, 0);
}
END_TEST

START_TEST(test_iterator_matches_cells_and_truncation) {
    pt_cell buf[64], small[3];
    for (int x1 = -R; x1 <= R; x1 += 3)
        for (int y1 = -R; y1 <= R; y1 += 2) {
            int n = pt_line_cells(1, -2, x1, y1, buf, 64);
            pt_line_iter it;
            pt_line_iter_init(&it, 1, -2, x1, y1);
            int i = 0;
            do {
                ck_assert(it.x == buf[i].x && it.y == buf[i].y);
                i++;
            } while (pt_line_iter_next(&it));
            ck_assert_int_eq(i, n);
            /* A short buffer gets the first cells and the full count. */
            ck_assert_int_eq(pt_line_cells(1, -2, x1, y1, small, 3), n);
            for (int k = 0; k < 3 && k < n; k++) ck_assert(small[k].x == buf[k].x && small[k].y == buf[k].y);
        }
    ck_assert_int_eq(pt_line_cells(5, 5, 5, 5, NULL, 0), 1);
}
END_TEST

int main(void) {
    Suite *s = suite_create("bresenham");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_all_pairs_properties);
    tcase_add_test(tc, test_major_axis_monotone);
    tcase_add_test(tc, test_tie_breaking_rule);
    tcase_add_test(tc, test_iterator_matches_cells_and_truncation);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
