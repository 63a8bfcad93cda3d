/* SPDX-License-Identifier: Zlib */
/* `patrol test` on a level with a door (tests/data/test/doors*.test): `solvable` finds the
 * route through the closed door, a route through it reaches the goal in the world; with the
 * door locked both fail. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_cli.h"
#include "test_util.h"

#define DATA "tests/data/test/"

START_TEST(test_door_files) {
    run_result r;
    const char *pass[] = {DATA "doors_pass.test", NULL};
    tu_run_patrol(&r, "test", pass);
    ck_assert_int_eq(r.status, 0);
    ck_assert_str_eq(r.err, "");
    ck_assert_str_eq(r.out,
                     "PASS " DATA "doors_pass.test:3: solvable: a route: 166 ticks (2.77 s), gait run, from 1,4 to the "
                     "goal at 14,4, margin 11 ticks (0.18 s), 1.00 tiles\n"
                     "PASS " DATA "doors_pass.test:4: goal route=through within=10: at the goal 14,4 on tick 331 (5.5 s)\n"
                     "2 passed, 0 failed\n");
    const char *fail[] = {DATA "doors_fail.test", NULL};
    tu_run_patrol(&r, "test", fail);
    ck_assert_int_eq(r.status, 1);
    ck_assert_str_eq(r.err, "");
    ck_assert_str_eq(r.out,
                     "FAIL " DATA "doors_fail.test:3: solvable: no route unseen and unheard within 3600 ticks (60.0 s)\n"
                     "FAIL " DATA "doors_fail.test:4: goal route=through within=10: not at the goal in 10.0 s; the player "
                     "is at 5,4\n"
                     "0 passed, 2 failed\n");
}
END_TEST

static Suite *cli_test_doors_suite(void) {
    Suite *s = suite_create("cli_test_doors");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_door_files);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return tu_run(cli_test_doors_suite()); }
