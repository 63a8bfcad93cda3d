/* SPDX-License-Identifier: Zlib */
/* check_fstats - the frame statistics of `patrol play --stats`: medians and worsts over the
 * last frames and over all, the ring wrapping, bad samples. */
#define _POSIX_C_SOURCE 200809L
#include <check.h>

#include <math.h>

#include "../src/app/common/fstats.c"

START_TEST(test_median_worst) {
    static app_fstats st;
    app_fstats_init(&st);
    app_fstats_sum sum;
    app_fstats_summary(&st, 0, &sum);
    ck_assert_int_eq(sum.frames, 0);
    ck_assert(sum.work_median == 0 && sum.cpu_worst == 0);
    double work[] = {3, 1, 2, 10, 4};
    for (int i = 0; i < 5; i++) app_fstats_add(&st, work[i], work[i] / 2);
    app_fstats_summary(&st, 0, &sum);
    ck_assert_int_eq(sum.frames, 5);
    ck_assert_double_eq_tol(sum.work_median, 3.0, 1e-6);
    ck_assert_double_eq_tol(sum.work_worst, 10.0, 1e-6);
    ck_assert_double_eq_tol(sum.cpu_median, 1.5, 1e-6);
    /* the last two: 10 and 4 */
    app_fstats_summary(&st, 2, &sum);
    ck_assert_int_eq(sum.frames, 2);
    ck_assert_double_eq_tol(sum.work_median, 7.0, 1e-6);
    ck_assert_double_eq_tol(sum.work_worst, 10.0, 1e-6);
}
END_TEST

START_TEST(test_limits) {
    static app_fstats st;
    app_fstats_init(&st);
    app_fstats_add(&st, NAN, -1);
    app_fstats_add(&st, INFINITY, 2);
    app_fstats_sum sum;
    app_fstats_summary(&st, 0, &sum);
    ck_assert_double_eq_tol(sum.work_worst, 0.0, 1e-9);
    ck_assert_double_eq_tol(sum.cpu_worst, 2.0, 1e-6);
    /* Past the ring: a spike long gone still counts as the worst of all, not of the last. */
    app_fstats_init(&st);
    app_fstats_add(&st, 100, 100);
    for (int i = 0; i < APP_FSTATS_KEEP + 10; i++) app_fstats_add(&st, 1, 1);
    app_fstats_summary(&st, 0, &sum);
    ck_assert_int_eq(sum.frames, APP_FSTATS_KEEP + 11);
    ck_assert_double_eq_tol(sum.work_median, 1.0, 1e-6);
    ck_assert_double_eq_tol(sum.work_worst, 100.0, 1e-6);
    app_fstats_summary(&st, 60, &sum);
    ck_assert_double_eq_tol(sum.work_worst, 1.0, 1e-6);
    /* the clocks run */
    double t0 = app_fstats_now_s(), c0 = app_fstats_cpu_s();
    volatile double x = 0;
    for (int i = 0; i < 3000000; i++) x += i * 0.5;
    (void)x;
    ck_assert(app_fstats_now_s() >= t0);
    ck_assert(app_fstats_cpu_s() > c0);
}
END_TEST

int main(void) {
    Suite *s = suite_create("fstats");
    TCase *core = tcase_create("core"), *limits = tcase_create("limits");
    tcase_add_test(core, test_median_worst);
    tcase_add_test(limits, test_limits);
    suite_add_tcase(s, core);
    suite_add_tcase(s, limits);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
