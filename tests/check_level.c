/* SPDX-License-Identifier: Zlib */
/* patrol/level.h: file kinds, every command's map loader (pt_level_load), check's map checks
 * through a report, a .test file loaded and run, and pt_solve_pattern_text against
 * pt_solve_write_pattern. Run from the source tree (ctest's working directory). */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <patrol/level.h>
#include <patrol/solve.h>
#include <patrol/world.h>

#include "test_util.h"

START_TEST(kinds) {
    ck_assert_int_eq(pt_file_kind_of("maps/demo.map"), PT_FILE_MAP);
    ck_assert_int_eq(pt_file_kind_of("maps/demo.tmx"), PT_FILE_TMX);
    ck_assert_int_eq(pt_file_kind_of("maps/demo.test"), PT_FILE_TEST);
    ck_assert_int_eq(pt_file_kind_of("maps/levels.txt"), PT_FILE_LEVELS);
    ck_assert_int_eq(pt_file_kind_of("tests/data/check/guardwall.pat"), PT_FILE_PAT);
    ck_assert_int_eq(pt_file_kind_of("no/such/file.PAT"), PT_FILE_PAT); /* unreadable: its extension */
    ck_assert_int_eq(pt_file_kind_of("no/such/file"), PT_FILE_MAP);
    ck_assert_str_eq(pt_file_kind_name(PT_FILE_SCRIPT), "script");
    ck_assert_str_eq(pt_file_kind_name(PT_FILE_KIND_COUNT), "map");
    ck_assert_int_eq(pt_file_is_map("maps/demo.tmx"), 1);
    ck_assert_int_eq(pt_file_is_map("maps/demo.test"), 0);
}
END_TEST

START_TEST(load_refuses_other_kinds) {
    pt_map map;
    pt_patlib lib;
    pt_error err;
    ck_assert_int_eq(pt_level_load("maps/demo.map", &map, &lib, &err), PT_OK);
    ck_assert_int_gt(pt_patlib_count(&lib), 0);
    pt_patlib_fini(&lib);
    pt_map_fini(&map);
    /* a pattern file given as a map: refused at its first word, nothing to free */
    ck_assert_int_eq(pt_level_load("tests/data/check/guardwall.pat", &map, &lib, &err), PT_ERR_BAD_VALUE);
    ck_assert_str_eq(err.file, "tests/data/check/guardwall.pat");
    ck_assert_int_ge(err.line, 1);
    ck_assert_int_eq(err.col, 1);
    ck_assert_ptr_nonnull(strstr(err.message, "this is a pattern file (it begins with 'pattern')"));
    /* a guard's pattern into a wall: the lint's first problem, in the pattern file */
    ck_assert_int_lt(pt_level_load("tests/data/check/guardwall.map", &map, &lib, &err), 0);
    ck_assert_str_eq(err.file, "tests/data/check/guardwall.pat");
    ck_assert_ptr_null(strstr(err.message, " on tests/"));
    ck_assert_int_eq(pt_level_load("maps/demo.test", &map, &lib, NULL), PT_ERR_BAD_VALUE); /* err may be NULL */
}
END_TEST

typedef struct seen {
    int n[3];
    char last[3][PT_ERROR_MSG_MAX];
} seen;

static void count(void *user, const pt_error *e, pt_level_problem kind) {
    seen *s = user;
    s->n[kind]++;
    snprintf(s->last[kind], sizeof s->last[kind], "%s", e->message);
}

START_TEST(check_map_reports) {
    pt_map map;
    pt_patlib lib;
    int loaded;
    seen s;
    memset(&s, 0, sizeof s);
    ck_assert_int_eq(pt_level_check_map("tests/data/check/nogoal.map", &map, &lib, count, &s, &loaded), 0);
    ck_assert_int_eq(loaded, 1);
    ck_assert_int_eq(s.n[PT_LEVEL_WARNING], 1);
    ck_assert_ptr_nonnull(strstr(s.last[PT_LEVEL_WARNING], "no goal tile"));
    ck_assert_int_eq(pt_level_warnings(&map, &lib, NULL, 0), 1);
    pt_patlib_fini(&lib);
    pt_map_fini(&map);

    memset(&s, 0, sizeof s);
    int n = pt_level_check_map("tests/data/check/guardwall.map", &map, &lib, count, &s, &loaded);
    ck_assert_int_ge(n, 1);
    ck_assert_int_eq(s.n[PT_LEVEL_LINT], n);
    const char *on = " on tests/data/check/guardwall.map";
    ck_assert_str_eq(s.last[PT_LEVEL_LINT] + strlen(s.last[PT_LEVEL_LINT]) - strlen(on), on);
    ck_assert_int_eq(loaded, 1);
    pt_patlib_fini(&lib);
    pt_map_fini(&map);

    memset(&s, 0, sizeof s);
    ck_assert_int_eq(pt_level_check_map("no/such.map", &map, &lib, count, &s, &loaded), 1);
    ck_assert_int_eq(loaded, 0);
    ck_assert_int_eq(s.n[PT_LEVEL_ERROR], 1);
    ck_assert_int_eq(pt_level_check_map("no/such.map", &map, &lib, NULL, NULL, NULL), 1); /* no report */
}
END_TEST

START_TEST(test_file_runs) {
    pt_testfile tf;
    pt_map map;
    pt_patlib lib;
    pt_error err;
    ck_assert_int_eq(pt_level_load_test("tests/data/test/pass.test", &tf, &map, &lib, &err), PT_OK);
    ck_assert_int_ge(tf.count, 5);
    for (int i = 0; i < tf.count; i++) {
        pt_test_result r;
        ck_assert_int_eq(pt_level_run_expect(&tf, i, &map, &lib, &r, &err), PT_TEST_PASS);
    }
    pt_test_result r;
    ck_assert_int_eq(pt_level_run_expect(&tf, tf.count, &map, &lib, &r, &err), PT_ERR_RANGE);
    pt_testfile_fini(&tf);
    pt_patlib_fini(&lib);
    pt_map_fini(&map);
    /* a map that cannot be read: at the test file's `map` line */
    ck_assert_int_lt(pt_level_load_test("tests/data/test/missing_map.test", &tf, &map, &lib, &err), 0);
    ck_assert_str_eq(err.file, "tests/data/test/missing_map.test");
    ck_assert_int_eq(err.line, 2);
    ck_assert_int_eq(err.col, 5);
}
END_TEST

START_TEST(pattern_text_is_the_written_pattern) {
    pt_map map;
    pt_patlib lib;
    pt_error err;
    ck_assert_int_eq(pt_level_load("tests/data/test/cross.map", &map, &lib, &err), PT_OK);
    pt_solve_opts o = {0};
    pt_solve_result r;
    ck_assert_int_eq(pt_solve(&map, &lib, &o, &r, &err), PT_OK);
    ck_assert_int_eq(r.found, 1);
    char *mem = NULL;
    size_t memlen = 0;
    FILE *f = open_memstream(&mem, &memlen);
    ck_assert_int_eq(pt_solve_write_pattern(&r, f, "through"), 0);
    fclose(f);
    size_t n = pt_solve_pattern_text(&r, "through", NULL, 0);
    ck_assert_uint_eq(n, memlen);
    char *text = malloc(n + 1);
    ck_assert_uint_eq(pt_solve_pattern_text(&r, "through", text, n + 1), n);
    ck_assert_str_eq(text, mem);
    char small[10];
    ck_assert_uint_eq(pt_solve_pattern_text(&r, "through", small, sizeof small), n); /* cut, NUL-ended */
    ck_assert_uint_eq(strlen(small), sizeof small - 1);
    ck_assert_int_eq(strncmp(small, mem, sizeof small - 1), 0);
    /* the text is a pattern file: it parses */
    pt_patlib rl;
    pt_patlib_init(&rl);
    ck_assert_int_eq(pt_patlib_parse(&rl, text, n, "through.pat", &err), PT_OK);
    ck_assert_ptr_nonnull(pt_patlib_find(&rl, "through"));
    pt_patlib_fini(&rl);
    free(text);
    free(mem);
    pt_solve_result_fini(&r);
    pt_patlib_fini(&lib);
    pt_map_fini(&map);
}
END_TEST

static Suite *suite(void) {
    Suite *s = suite_create("level");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, kinds);
    tcase_add_test(tc, load_refuses_other_kinds);
    tcase_add_test(tc, check_map_reports);
    tcase_add_test(tc, test_file_runs);
    tcase_add_test(tc, pattern_text_is_the_written_pattern);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return tu_run(suite()); }
