/* SPDX-License-Identifier: Zlib */
/* Unknown names (issue 22): every "unknown X" message suggests the nearest known name when
 * there is one near enough, and the caret is on the unknown value itself. The message text
 * is asserted here because the suggestion is the feature. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include <patrol/map.h>
#include <patrol/pattern.h>
#include <patrol/steer.h>
#include <patrol/world.h>

#include "base/suggest.h"
#include "test_util.h"

#define GRID "grid\n#######\n#.....#\n#.....#\n#######\nend\n"

static int map_fails(const char *text, pt_error *err) {
    pt_map m;
    int rc = pt_map_parse(&m, text, strlen(text), "t.map", err);
    if (rc == PT_OK) pt_map_fini(&m);
    return rc;
}

static void assert_hint(const pt_error *err, const char *want) {
    char hint[96];
    snprintf(hint, sizeof hint, "did you mean '%s'?", want);
    ck_assert_msg(strstr(err->message, hint) != NULL, "expected \"%s\" in: %s", hint, err->message);
}

START_TEST(suggest_picks_the_nearest_typo) {
    static const char *const words[] = {"guard", "grid", "prey", "player", NULL};
    pt__suggest s;
    pt__suggest_init(&s, "gaurd", 5); /* a transposition is one edit */
    pt__suggest_words(&s, words);
    ck_assert_str_eq(pt__suggest_text(&s), "guard");
    pt__suggest_init(&s, "Player", 6); /* case is not an edit */
    pt__suggest_words(&s, words);
    ck_assert_str_eq(pt__suggest_text(&s), "player");
    pt__suggest_init(&s, "zebra", 5); /* nothing near: no suggestion */
    pt__suggest_words(&s, words);
    ck_assert_ptr_null(pt__suggest_text(&s));
    pt__suggest_init(&s, "x", 1); /* one letter is never "a typo of" another word */
    pt__suggest_list(&s, "at, r, sprite");
    ck_assert_ptr_null(pt__suggest_text(&s));
}
END_TEST

START_TEST(map_names) {
    pt_error err;
    ck_assert_int_eq(map_fails("player at=1,1\ngaurd g at=2,1\n" GRID, &err), PT_ERR_UNKNOWN_DIRECTIVE);
    ck_assert_int_eq(err.line, 2);
    ck_assert_int_eq(err.col, 1);
    assert_hint(&err, "guard");
    ck_assert_int_eq(map_fails("player at=1,1\nguard g at=2,1 speeed=3\n" GRID, &err), PT_ERR_UNKNOWN_KEY);
    ck_assert_int_eq(err.col, 16);
    assert_hint(&err, "speed");
    ck_assert_int_eq(map_fails("player at=1,1\nguard g at=2,1 chase=stear\n" GRID, &err), PT_ERR_BAD_VALUE);
    ck_assert_int_eq(err.col, 22);
    assert_hint(&err, "steer");
    ck_assert_int_eq(map_fails("player at=1,1\nobstacle at=2,1 spirte=tree\n" GRID, &err), PT_ERR_UNKNOWN_KEY);
    assert_hint(&err, "sprite");
    ck_assert_int_eq(map_fails("player at=1,1\ntile o pond walkabel\n" GRID, &err), PT_ERR_BAD_VALUE);
    ck_assert_int_eq(err.col, 13);
    assert_hint(&err, "walkable");
    /* far from every name: the list of choices instead */
    ck_assert_int_eq(map_fails("player at=1,1\nguard g at=2,1 zzzzzz=3\n" GRID, &err), PT_ERR_UNKNOWN_KEY);
    ck_assert_ptr_null(strstr(err.message, "did you mean"));
    ck_assert_ptr_nonnull(strstr(err.message, "keys:"));
    /* a key of other kinds only: say whose it is, not the nearest key of this kind */
    ck_assert_int_eq(map_fails("player at=1,1\nprey c at=2,1 lantern=3\n" GRID, &err), PT_ERR_UNKNOWN_KEY);
    ck_assert_int_eq(err.col, 15);
    ck_assert_str_eq(err.message, "prey has no key 'lantern' (only a guard has it)");
    ck_assert_int_eq(map_fails("player at=1,1\nflock f kind=crow at=2,1 pattern=p\n" GRID, &err), PT_ERR_UNKNOWN_KEY);
    ck_assert_str_eq(err.message, "boid has no key 'pattern' (only a player or guard has it)");
    ck_assert_int_eq(map_fails("player at=1,1 view=3\n" GRID, &err), PT_ERR_UNKNOWN_KEY);
    ck_assert_str_eq(err.message, "player has no key 'view' (only a guard, prey or flock has it)");
}
END_TEST

START_TEST(pattern_and_steer_names) {
    pt_error err;
    pt_patlib lib;
    pt_patlib_init(&lib);
    static const char pat[] = "patern a\n  kind path\nend\n";
    ck_assert_int_eq(pt_patlib_parse(&lib, pat, sizeof pat - 1, "t.pat", &err), PT_ERR_UNKNOWN_DIRECTIVE);
    assert_hint(&err, "pattern");
    static const char key[] = "pattern a\n  kind path\n  pionts 1,1 2,1\nend\n";
    ck_assert_int_eq(pt_patlib_parse(&lib, key, sizeof key - 1, "t.pat", &err), PT_ERR_UNKNOWN_KEY);
    ck_assert_int_eq(err.line, 3);
    ck_assert_int_eq(err.col, 3);
    assert_hint(&err, "points");
    pt_patlib_fini(&lib);

    pt_steer_file f;
    pt_steer_file_init(&f);
    static const char st[] = "set a\n  max_sped 3\nend\n";
    ck_assert_int_eq(pt_steer_file_parse(&f, st, sizeof st - 1, "t.steer", &err), PT_ERR_UNKNOWN_KEY);
    assert_hint(&err, "max_speed");
    static const char base[] = "set hound\nend\nset b from hund\nend\n";
    ck_assert_int_eq(pt_steer_file_parse(&f, base, sizeof base - 1, "t.steer", &err), PT_ERR_BAD_VALUE);
    assert_hint(&err, "hound");
    pt_steer_file_fini(&f);
}
END_TEST

/* The world's own checks (pattern and steering-set names) point at the value, as the lint
 * does: not at column 1, not at `at=`. */
START_TEST(world_names_point_at_the_value) {
    static const char text[] = "player at=1,1\n"
                               "guard g at=2,1 pattern=hall_lop\n" GRID;
    static const char pats[] = "pattern hall_loop\n  kind path\n  points 0,0 1,0\nend\n";
    pt_map m;
    pt_patlib lib;
    pt_error err;
    ck_assert_int_eq(pt_map_parse(&m, text, sizeof text - 1, "t.map", &err), PT_OK);
    pt_patlib_init(&lib);
    ck_assert_int_eq(pt_patlib_parse(&lib, pats, sizeof pats - 1, "t.pat", &err), PT_OK);
    ck_assert_ptr_null(pt_world_create(&m, &lib, NULL, &err));
    ck_assert_int_eq(err.code, PT_ERR_UNKNOWN_PATTERN);
    ck_assert_int_eq(err.line, 2);
    ck_assert_int_eq(err.col, 24);
    assert_hint(&err, "hall_loop");
    pt_error lint[4];
    ck_assert_int_eq(pt_patlib_lint_map(&lib, &m, lint, 4), 1);
    ck_assert_int_eq(lint[0].code, PT_ERR_UNKNOWN_PATTERN);
    ck_assert_int_eq(lint[0].line, 2);
    ck_assert_int_eq(lint[0].col, 24);
    ck_assert_str_eq(lint[0].message, err.message);
    pt_map_fini(&m);

    static const char steer[] = "steering " PATROL_SOURCE_DIR "/tests/data/steer/good.steer\n"
                                "player at=1,1\n"
                                "guard g at=2,1 chase=steer steering=fast_hond\n" GRID;
    ck_assert_int_eq(pt_map_parse(&m, steer, sizeof steer - 1, "s.map", &err), PT_OK);
    ck_assert_ptr_null(pt_world_create(&m, &lib, NULL, &err));
    ck_assert_int_eq(err.code, PT_ERR_BAD_VALUE);
    ck_assert_int_eq(err.line, 3);
    ck_assert_int_eq(err.col, 37);
    assert_hint(&err, "fast_hound");
    pt_map_fini(&m);
    pt_patlib_fini(&lib);
}
END_TEST

/* A control byte in an unknown word (ESC, BEL) is printed escaped, never raw: a downloaded
 * map must not send escape sequences to the terminal. */
START_TEST(control_bytes_in_messages_are_escaped) {
    pt_error err;
    ck_assert_int_eq(map_fails("player at=1,1\n\x1b[2Jgrid\x07 x\n" GRID, &err), PT_ERR_UNKNOWN_DIRECTIVE);
    char buf[1024] = "";
    FILE *f = tmpfile();
    ck_assert_ptr_nonnull(f);
    pt_error_print(f, &err);
    rewind(f);
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    ck_assert_ptr_null(strchr(buf, '\x1b'));
    ck_assert_ptr_null(strchr(buf, '\x07'));
    ck_assert_ptr_nonnull(strstr(buf, "\\x1b[2Jgrid\\x07"));
}
END_TEST

int main(void) {
    Suite *s = suite_create("names");
    TCase *tc = tcase_create("suggest");
    tcase_add_test(tc, suggest_picks_the_nearest_typo);
    tcase_add_test(tc, map_names);
    tcase_add_test(tc, pattern_and_steer_names);
    tcase_add_test(tc, world_names_point_at_the_value);
    tcase_add_test(tc, control_bytes_in_messages_are_escaped);
    suite_add_tcase(s, tc);
    return tu_run(s);
}
