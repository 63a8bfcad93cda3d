/* SPDX-License-Identifier: Zlib */
/* `patrol test`, end to end: a passing and a failing .test file with their exact reports,
 * the exit statuses, the trace and picture of a failure, bad files and usage errors. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "test_cli.h"
#include "test_util.h"

#define DATA "tests/data/test/"

START_TEST(test_passing_file) {
    run_result r;
    const char *args[] = {DATA "pass.test", NULL};
    tu_run_patrol(&r, "test", args);
    ck_assert_int_eq(r.status, 0);
    ck_assert_str_eq(r.err, "");
    ck_assert_str_eq(r.out,
                     "PASS " DATA "pass.test:3: visits pacer 6,3 1,3 within=10: the last cell on tick 200 (3.3 s)\n"
                     "PASS " DATA "pass.test:4: stays pacer area=1,3,6,3: inside for 60.0 s\n"
                     "PASS " DATA "pass.test:5: covers pacer 3,3 every=3 for=20: covered 12 times, the longest gap 1.0 s\n"
                     "PASS " DATA "pass.test:6: caught within=10 by=g: caught by g on tick 80 (1.3 s) at 7,1\n"
                     "PASS " DATA "pass.test:7: goal route=low within=10: at the goal 8,3 on tick 96 (1.6 s)\n"
                     "5 passed, 0 failed\n");
}
END_TEST

START_TEST(test_failing_file) {
    run_result r;
    const char *args[] = {DATA "fail.test", NULL};
    tu_run_patrol(&r, "test", args);
    ck_assert_int_eq(r.status, 1);
    ck_assert_str_eq(r.err, "");
    ck_assert_str_eq(r.out,
                     "FAIL " DATA "fail.test:4: visits pacer 6,3 2,2 within=5: on 6,3 on tick 100, then never on 2,2 "
                     "in 5.0 s; at 6,3 (patrol) on tick 300\n"
                     "FAIL " DATA "fail.test:5: stays pacer area=1,3,4,3: tick 80 (1.3 s): pacer left the area: at 5,3 "
                     "(patrol)\n"
                     "FAIL " DATA "fail.test:6: unseen for=10: tick 24 (0.4 s): g at 8,1 saw the player at 3,1\n"
                     "FAIL " DATA "fail.test:7: goal within=10: caught by g on tick 80 (1.3 s) at 7,1\n"
                     "FAIL " DATA "fail.test:8: caught route=none within=5: not caught in 5.0 s, never seen; the player "
                     "is at 1,1\n"
                     "FAIL " DATA "fail.test:9: solvable within=10: no route unseen and unheard within 600 ticks (10.0 "
                     "s)\n"
                     "0 passed, 6 failed\n");
    /* -q keeps the failures and the closing line only; both files: one closing line. */
    const char *both[] = {"-q", DATA "pass.test", DATA "fail.test", NULL};
    tu_run_patrol(&r, "test", both);
    ck_assert_int_eq(r.status, 1);
    ck_assert_ptr_null(strstr(r.out, "PASS"));
    ck_assert_ptr_nonnull(strstr(r.out, "FAIL " DATA "fail.test:8:"));
    ck_assert_ptr_nonnull(strstr(r.out, "\n5 passed, 6 failed\n"));
}
END_TEST

static long file_size(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

START_TEST(test_trace_and_png_of_a_failure) {
    char dir[] = "/tmp/patrol_test_XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    run_result r;
    const char *args[] = {"--trace", dir, "--png", dir, DATA "fail.test", NULL};
    tu_run_patrol(&r, "test", args);
    ck_assert_int_eq(r.status, 1);
    char csv[128], png[128], line[512];
    snprintf(csv, sizeof csv, "%s/fail-6.csv", dir);
    snprintf(png, sizeof png, "%s/fail-6.png", dir);
    snprintf(line, sizeof line, "  trace: %s\n  png: %s (tick 24)\n", csv, png);
    ck_assert_ptr_nonnull(strstr(r.out, line));
    /* The trace ends on the failing tick: the player seen at 3,1 on tick 24. */
    FILE *f = fopen(csv, "r");
    ck_assert_ptr_nonnull(f);
    char row[256], last[256] = "";
    int rows = 0;
    ck_assert_ptr_nonnull(fgets(row, sizeof row, f));
    ck_assert_str_eq(row, "tick,id,kind,state,x,y,px,py,heading\n");
    while (fgets(row, sizeof row, f)) {
        rows++;
        if (strncmp(row, "24,0,", 5) == 0) snprintf(last, sizeof last, "%s", row);
    }
    fclose(f);
    ck_assert_int_eq(rows, 25 * 3); /* ticks 0..24, three entities */
    ck_assert_ptr_nonnull(strstr(last, "24,0,player,patrol,3,1,"));
    ck_assert_int_gt(file_size(png), 100);
    /* One pair per failure. */
    for (int line_no = 4; line_no <= 8; line_no++) {
        snprintf(csv, sizeof csv, "%s/fail-%d.csv", dir, line_no);
        snprintf(png, sizeof png, "%s/fail-%d.png", dir, line_no);
        ck_assert_int_gt(file_size(csv), 0);
        ck_assert_int_gt(file_size(png), 0);
        remove(csv);
        remove(png);
    }
    ck_assert_int_eq(rmdir(dir), 0); /* nothing else was written: solvable has no run to show */
}
END_TEST

static void copy_file(const char *from, const char *dir, const char *name, char *out, size_t cap) {
    snprintf(out, cap, "%s/%s", dir, name);
    FILE *in = fopen(from, "rb"), *o = fopen(out, "wb");
    ck_assert_ptr_nonnull(in);
    ck_assert_ptr_nonnull(o);
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0) ck_assert_uint_eq(fwrite(buf, 1, n, o), n);
    fclose(in);
    fclose(o);
}

/* A file goes by its text when its first word belongs to one kind, whatever its name says: a
 * test file named .map is checked as a test and named as one, a map named .test runs, a
 * pattern file named .map is named as a pattern file. */
START_TEST(test_kind_by_text_over_name) {
    char dir[] = "/tmp/patrol_kind_XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char hall_map[128], hall_pat[128], level[128], room[128], walk[128], want[512];
    copy_file(DATA "hall.map", dir, "hall.map", hall_map, sizeof hall_map);
    copy_file(DATA "hall.pat", dir, "hall.pat", hall_pat, sizeof hall_pat);
    copy_file(DATA "pass.test", dir, "level.map", level, sizeof level);
    copy_file(DATA "hall.map", dir, "room.test", room, sizeof room);
    copy_file(DATA "hall.pat", dir, "walk.map", walk, sizeof walk);
    run_result r;
    tu_run_patrol(&r, "check", (const char *[]){level, NULL});
    ck_assert_msg(r.status == 0, "%s", r.err);
    snprintf(want, sizeof want, "%s: ok (5 expectations on %s)\n", level, hall_map);
    ck_assert_str_eq(r.out, want);
    tu_run_patrol(&r, "show", (const char *[]){level, NULL});
    ck_assert_int_eq(r.status, 1);
    snprintf(want, sizeof want, "%s:2:1: error: this is a test file (it begins with 'map'); ", level);
    ck_assert_msg(strstr(r.err, want) && !strstr(r.err, "--map"), "%s", r.err);
    tu_run_patrol(&r, "sim", (const char *[]){room, "--ticks", "3", "--quiet", NULL});
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_patrol(&r, "sim", (const char *[]){walk, "--ticks", "3", NULL});
    ck_assert_int_eq(r.status, 1);
    snprintf(want, sizeof want, "%s:1:1: error: this is a pattern file (it begins with 'pattern'); ", walk);
    ck_assert_msg(strstr(r.err, want), "%s", r.err);
    const char *files[] = {hall_map, hall_pat, level, room, walk};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) ck_assert_int_eq(remove(files[i]), 0);
    ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

START_TEST(test_bad_input_and_usage) {
    run_result r;
    const char *none[] = {NULL};
    tu_run_patrol(&r, "test", none);
    ck_assert_int_eq(r.status, 2);
    ck_assert_ptr_nonnull(strstr(r.err, "no test file given"));
    const char *opt[] = {"--fast", DATA "pass.test", NULL};
    tu_run_patrol(&r, "test", opt);
    ck_assert_int_eq(r.status, 2);
    const char *trace[] = {DATA "pass.test", "--trace", NULL};
    tu_run_patrol(&r, "test", trace);
    ck_assert_int_eq(r.status, 2);
    /* A located error, and the other files still run. */
    const char *bad[] = {"tests/data/bad/test_unknown_directive.test", DATA "pass.test", NULL};
    tu_run_patrol(&r, "test", bad);
    ck_assert_int_eq(r.status, 1);
    ck_assert_ptr_nonnull(strstr(r.err, "tests/data/bad/test_unknown_directive.test:2:1: error: unknown directive "
                                        "'visit'; did you mean 'visits'?"));
    ck_assert_ptr_nonnull(strstr(r.out, "5 passed, 0 failed (1 file with problems)\n"));
    /* A map that is not there: at the test file's map line. */
    const char *nomap[] = {"tests/data/bad/test_no_map.test", NULL};
    tu_run_patrol(&r, "test", nomap);
    ck_assert_int_eq(r.status, 1);
    ck_assert_ptr_nonnull(strstr(r.err, "test_no_map.test:2:1: error: no map line"));
    const char *gone[] = {DATA "missing_map.test", NULL};
    tu_run_patrol(&r, "test", gone);
    ck_assert_int_eq(r.status, 1);
    ck_assert_ptr_nonnull(strstr(r.err, DATA "missing_map.test:2:5: error: map '" DATA "nowhere.map': "));
    /* A map on a `patterns` line is named as a map, with the test file's line. */
    const char *pmap[] = {DATA "patterns_map.test", NULL};
    tu_run_patrol(&r, "test", pmap);
    ck_assert_int_eq(r.status, 1);
    ck_assert_msg(strstr(r.err, DATA "hall.map:2:1: error: this is a map (it begins with 'format'); ") != NULL, "%s", r.err);
    ck_assert_msg(strstr(r.err, DATA "patterns_map.test names it on line 3, where a 'patterns' line wants a .pat file\n"),
                  "%s", r.err);
    /* check knows the kind: by extension, and by its first word. */
    const char *check[] = {DATA "pass.test", NULL};
    tu_run_patrol(&r, "check", check);
    ck_assert_int_eq(r.status, 0);
    ck_assert_str_eq(r.out, DATA "pass.test: ok (5 expectations on " DATA "hall.map)\n");
    const char *sim[] = {DATA "pass.test", "--ticks", "1", NULL};
    tu_run_patrol(&r, "sim", sim);
    ck_assert_int_eq(r.status, 1);
    ck_assert_ptr_nonnull(strstr(r.err, "this is a test file (it begins with 'map')"));
}
END_TEST

/* `solvable` runs the solver: a corridor crossed by a guard's round (cross.map), with a route
 * at no margin and at half a second, none at a second (the report says what the route without
 * a margin gets) nor within a horizon too short. */
START_TEST(test_solvable) {
    run_result r;
    const char *pass[] = {DATA "solvable_pass.test", NULL};
    tu_run_patrol(&r, "test", pass);
    ck_assert_int_eq(r.status, 0);
    ck_assert_str_eq(r.err, "");
    ck_assert_str_eq(r.out,
                     "PASS " DATA "solvable_pass.test:3: solvable: a route: 92 ticks (1.53 s), gait run, from 1,1 to the "
                     "goal at 14,1, margin 8 ticks (0.13 s), 1.00 tiles\n"
                     "PASS " DATA "solvable_pass.test:4: solvable margin=0.5: a route: 201 ticks (3.35 s), gait run, from "
                     "1,1 to the goal at 14,1, margin 30 ticks (0.50 s), 1.00 tiles\n"
                     "PASS " DATA "solvable_pass.test:5: solvable margin=0.5 within=4: a route: 201 ticks (3.35 s), gait "
                     "run, from 1,1 to the goal at 14,1, margin 30 ticks (0.50 s), 1.00 tiles\n"
                     "3 passed, 0 failed\n");
    const char *fail[] = {DATA "solvable_fail.test", NULL};
    tu_run_patrol(&r, "test", fail);
    ck_assert_int_eq(r.status, 1);
    ck_assert_str_eq(r.err, "");
    ck_assert_str_eq(r.out,
                     "FAIL " DATA "solvable_fail.test:3: solvable margin=1: no route with a margin of 60 ticks (1.00 s) "
                     "within 3600 ticks (60.0 s); without one: 92 ticks (1.53 s), gait run, from 1,1 to the goal at 14,1, "
                     "margin 8 ticks (0.13 s), 1.00 tiles\n"
                     "FAIL " DATA "solvable_fail.test:4: solvable within=1: no route unseen and unheard within 60 ticks "
                     "(1.0 s)\n"
                     "FAIL " DATA "solvable_fail.test:5: solvable margin=0.5 within=3: no route with a margin of 30 ticks "
                     "(0.50 s) within 180 ticks (3.0 s); without one: 92 ticks (1.53 s), gait run, from 1,1 to the goal at "
                     "14,1, margin 8 ticks (0.13 s), 1.00 tiles\n"
                     "0 passed, 3 failed\n");
    /* The route patrol solve prints for the same margin is the one the test found. */
    const char *solve[] = {DATA "cross.map", "--margin-time", "0.5", "--no-window", NULL};
    tu_run_patrol(&r, "solve", solve);
    ck_assert_int_eq(r.status, 0);
    ck_assert_ptr_nonnull(strstr(r.out, "# duration: 201 ticks (3.35 s) from 1,1 to the goal at 14,1\n"));
    ck_assert_ptr_nonnull(strstr(r.out, "# margin: 30 ticks (its cells are seen no closer in time)"));
    ck_assert_ptr_nonnull(strstr(r.out, "# gait: run (9.6 tiles/s), set by the route's first action\n"));
    ck_assert_ptr_nonnull(strstr(r.out, "  gait run\n"));
}
END_TEST

START_TEST(test_demo_level) {
    /* The shipped level's own test file passes, solvable included. */
    run_result r;
    const char *args[] = {"maps/demo.test", NULL};
    tu_run_patrol(&r, "test", args);
    ck_assert_msg(r.status == 0, "%s%s", r.out, r.err);
    ck_assert_ptr_null(strstr(r.out, "FAIL"));
    ck_assert_ptr_nonnull(strstr(r.out, " 0 failed\n"));
    ck_assert_ptr_null(strstr(r.out, "skipped"));
    /* docs/testing.md shows this very output. */
    static char doc[65536];
    FILE *f = fopen("docs/testing.md", "r");
    ck_assert_ptr_nonnull(f);
    size_t n = fread(doc, 1, sizeof doc - 1, f);
    fclose(f);
    doc[n] = '\0';
    const char *cmd = "$ patrol test maps/demo.test\n", *at = strstr(doc, cmd);
    ck_assert_ptr_nonnull(at);
    at += strlen(cmd);
    const char *end = strstr(at, "```");
    ck_assert_ptr_nonnull(end);
    ck_assert_msg(strlen(r.out) == (size_t)(end - at) && strncmp(r.out, at, (size_t)(end - at)) == 0,
                  "docs/testing.md shows another output than:\n%s", r.out);
}
END_TEST

int main(void) {
    Suite *s = suite_create("cli_test");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_passing_file);
    tcase_add_test(tc, test_failing_file);
    tcase_add_test(tc, test_trace_and_png_of_a_failure);
    tcase_add_test(tc, test_bad_input_and_usage);
    tcase_add_test(tc, test_kind_by_text_over_name);
    tcase_add_test(tc, test_solvable);
    tcase_add_test(tc, test_demo_level);
    suite_add_tcase(s, tc);
    return tu_run(s);
}
