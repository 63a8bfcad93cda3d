/* SPDX-License-Identifier: Zlib */
/* `patrol sim MAP --script FILE`: the commands change the run (the trace differs from the
 * run without them, and a wall opened on a tick shows from the next tick's rows); a bad
 * script, a cell outside the map, a command the world refuses: a located error and exit 1;
 * --script with --replay or without a file: a usage error. */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_cli.h"

#define DEMO PATROL_SOURCE_DIR "/maps/demo.map"

static void run(run_result *r, const char *const *args) { tu_run_patrol(r, "sim", args); }

static void put(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

START_TEST(script_changes_the_run) {
    static run_result a, b;
    char dir[] = "/tmp/patrol_cli_script_XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char script[128], ta[128], tb[128];
    snprintf(script, sizeof script, "%s/s.script", dir);
    snprintf(ta, sizeof ta, "%s/a.csv", dir);
    snprintf(tb, sizeof tb, "%s/b.csv", dir);
    /* the player (standing at its start, 2,37) is put beside a guard's round; a stone there */
    put(script, "# demo: the player jumps into the yard\nat 0.5s player 10,20\nat 31 noise 10,20 12\n");
    const char *with[] = {DEMO, "--ticks", "120", "--script", script, "--trace", ta, "-v", NULL};
    run(&a, with);
    ck_assert_msg(a.status == 0, "%s", a.err);
    const char *without[] = {DEMO, "--ticks", "120", "--trace", tb, NULL};
    run(&b, without);
    ck_assert_int_eq(b.status, 0);
    FILE *fa = fopen(ta, "r"), *fb = fopen(tb, "r");
    ck_assert_ptr_nonnull(fa);
    ck_assert_ptr_nonnull(fb);
    char la[256], lb[256];
    int row = 0, first_diff = -1;
    while (fgets(la, sizeof la, fa) && fgets(lb, sizeof lb, fb)) {
        row++;
        if (first_diff < 0 && strcmp(la, lb) != 0) first_diff = row;
        /* the player's row on tick 31: put on 10,20 after tick 30 */
        if (strncmp(la, "31,0,", 5) == 0) ck_assert_msg(strstr(la, ",10,20,10.5") != NULL, "%s", la);
        if (strncmp(la, "30,0,", 5) == 0) ck_assert_msg(strstr(la, ",10,20,") == NULL, "%s", la);
    }
    fclose(fa);
    fclose(fb);
    ck_assert_int_gt(first_diff, 0);
    unlink(script);
    unlink(ta);
    unlink(tb);
    rmdir(dir);
}
END_TEST

START_TEST(bad_scripts_are_located) {
    static run_result r;
    char dir[] = "/tmp/patrol_cli_script_XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char path[128], want[160];
    snprintf(path, sizeof path, "%s/bad.script", dir);
    const char *args[] = {DEMO, "--ticks", "60", "--script", path, NULL};
    static const struct { const char *text; const char *place; } cases[] = {
        {"at 10 tiel 1,1 .\n", ":1:7: error: unknown command 'tiel'"},
        {"\nat 1.5 gait run\n", ":2:4: error: "},
        {"at 5 noise 900,1 3\n", ":1:12: error: cell 900,1 is outside the map"},
        {"at 5 tile 1,1 Q\n", ":1:15: error: tile 'Q' is not in the map's legend"},
        {"at 2 gait run\nat 10 player 1,0\n", ":2:14: error: at tick 10: the player cannot be put there"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        put(path, cases[i].text);
        run(&r, args);
        ck_assert_msg(r.status == 1, "case %zu: exit %d", i, r.status);
        snprintf(want, sizeof want, "%s%s", path, cases[i].place);
        ck_assert_msg(strstr(r.err, want) != NULL, "case %zu: %s", i, r.err);
    }
    unlink(path);
    rmdir(dir);
    const char *nofile[] = {DEMO, "--ticks", "60", "--script", NULL};
    run(&r, nofile);
    ck_assert_int_eq(r.status, 2);
    const char *missing[] = {DEMO, "--ticks", "60", "--script", "/nonexistent/x.script", NULL};
    run(&r, missing);
    ck_assert_int_eq(r.status, 1);
    const char *replay[] = {"--replay", "x.rec", "--script", "x.script", NULL};
    run(&r, replay);
    ck_assert_int_eq(r.status, 2);
    const char *help[] = {"--help", NULL};
    run(&r, help);
    ck_assert_ptr_nonnull(strstr(r.out, "--script FILE.script"));
}
END_TEST

static Suite *suite(void) {
    Suite *s = suite_create("cli_script");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, script_changes_the_run);
    tcase_add_test(tc, bad_scripts_are_located);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) {
    SRunner *sr = srunner_create(suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
