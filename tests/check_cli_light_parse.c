/* SPDX-License-Identifier: Zlib */
/* `patrol check` on lights (docs/formats.md "Lights"): a bad light line, Tiled light object
 * or script light command is a FILE:LINE:COL: error with a non-zero exit; lights and
 * lanterns on a map whose ambient level is 1 are a located warning (exit 0). */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_cli.h"

static char dir[64];

static const char *put(const char *name, const char *text) {
    static char path[128];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
    return path;
}

static void setup(void) {
    snprintf(dir, sizeof dir, "/tmp/patrol-lights-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void teardown(void) {
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
}

static const char *GRID = "player at=1,1\ngrid\n#####\n#...#\n#####\nend\n";

/* check FILE: its exit status, and stderr has "FILE:where: kind: ". */
static void expect(const char *file, int status, const char *where, const char *kind) {
    run_result r;
    tu_run_patrol(&r, "check", (const char *[]){file, NULL});
    char want[256];
    snprintf(want, sizeof want, "%s:%s: %s: ", file, where, kind);
    ck_assert_msg(r.status == status, "%s: status %d, want %d; stderr: %s", file, r.status, status, r.err);
    ck_assert_msg(strstr(r.err, want) != NULL, "no '%s' in: %s", want, r.err);
}

START_TEST(bad_lights_are_located) {
    char text[512];
    static const struct {
        const char *line, *where;
    } cases[] = {
        {"light t at=0,1 radius=2", "1:12"},            /* inside a wall */
        {"light t at=9,1 radius=2", "1:12"},            /* off the map */
        {"light t at=1,1 radius=33", "1:23"},           /* radius out of range */
        {"light t at=1,1 radius=2 level=2", "1:31"},    /* level out of range */
        {"light t at=1,1 radius=2 shade=3", "1:25"},    /* unknown key */
        {"light t at=1,1 radius=2 on off", "1:28"},     /* on and off */
        {"light t at=1,1 radius=2\nlight t at=2,1 radius=2", "2:7"}, /* a name twice */
        {"ambient 3", "1:9"},
        {"relight sometimes", "1:9"},
        {"guard h at=2,1 lantern=99", "1:24"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        snprintf(text, sizeof text, "%s\n%s", cases[i].line, GRID);
        expect(put("bad.map", text), 1, cases[i].where, "error");
    }
}
END_TEST

START_TEST(lights_that_light_nothing_warn) {
    char text[512];
    snprintf(text, sizeof text, "light t at=1,1 radius=2\n%s", GRID);
    expect(put("lit.map", text), 0, "1:12", "warning");
    snprintf(text, sizeof text, "ambient 1\nguard h at=2,1 lantern=2\n%s", GRID);
    expect(put("lit.map", text), 0, "2:12", "warning");
    /* below 1: no such warning */
    snprintf(text, sizeof text, "ambient 0.5\nlight t at=1,1 radius=2\n%s", GRID);
    run_result r;
    tu_run_patrol(&r, "check", (const char *[]){put("dark.map", text), NULL});
    ck_assert_int_eq(r.status, 0);
    ck_assert_msg(strstr(r.err, "light nothing") == NULL, "%s", r.err);
}
END_TEST

/* A .test file's script is bound to its map: an unknown light is located in the script. */
START_TEST(script_light_is_checked_against_the_map) {
    char text[512];
    snprintf(text, sizeof text, "ambient 0.5\nlight hall at=1,1 radius=2\n%s", GRID);
    put("l.map", text);
    put("l.script", "at 5 light hall off\nat 6 light hal on\n");
    run_result r;
    char map[128], script[128];
    snprintf(map, sizeof map, "%s/l.map", dir);
    snprintf(script, sizeof script, "%s/l.script", dir);
    tu_run_patrol(&r, "sim", (const char *[]){map, "--script", script, "--ticks", "10", NULL});
    char want[256];
    snprintf(want, sizeof want, "%s:2:12: error: ", script);
    ck_assert_msg(r.status != 0, "status %d", r.status);
    ck_assert_msg(strstr(r.err, want) != NULL, "no '%s' in: %s", want, r.err);
    ck_assert_msg(strstr(r.err, "'hall'") != NULL, "no suggestion in: %s", r.err);
}
END_TEST

static Suite *suite(void) {
    Suite *s = suite_create("cli_light_parse");
    TCase *tc = tcase_create("core");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, bad_lights_are_located);
    tcase_add_test(tc, lights_that_light_nothing_warn);
    tcase_add_test(tc, script_light_is_checked_against_the_map);
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
