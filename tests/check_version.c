/* SPDX-License-Identifier: Zlib */
/* patrol/version.h: generated from the project's version, and its macros agree. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include <patrol/version.h>

START_TEST(version_is_the_projects) {
    ck_assert_str_eq(PATROL_VERSION_STRING, PATROL_PROJECT_VERSION);
    char parts[64];
    snprintf(parts, sizeof parts, "%d.%d.%d", PATROL_VERSION_MAJOR, PATROL_VERSION_MINOR, PATROL_VERSION_PATCH);
    ck_assert_str_eq(parts, PATROL_VERSION_STRING);
}
END_TEST

START_TEST(version_number_orders) {
    ck_assert_int_eq(PATROL_VERSION_NUMBER,
                     PATROL_VERSION_MAJOR * 10000 + PATROL_VERSION_MINOR * 100 + PATROL_VERSION_PATCH);
    ck_assert(PATROL_VERSION_ENCODE(0, 9, 99) < PATROL_VERSION_ENCODE(0, 10, 0));
    ck_assert(PATROL_VERSION_ENCODE(0, 99, 99) < PATROL_VERSION_ENCODE(1, 0, 0));
}
END_TEST

int main(void) {
    Suite *s = suite_create("version");
    TCase *tc = tcase_create("version");
    tcase_add_test(tc, version_is_the_projects);
    tcase_add_test(tc, version_number_orders);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
